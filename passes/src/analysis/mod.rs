//! Passes that check or report on dist IR and change nothing.

pub mod collectives;
pub mod comm_report;
pub mod overlap_report;
pub mod table;
pub mod verify_sharding;
