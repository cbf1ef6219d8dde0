//! Passes that check or report on dist IR and change nothing.

pub mod cluster;
pub mod collectives;
pub mod comm_report;
pub mod memory_report;
pub mod overlap_report;
pub mod pipeline_report;
pub mod table;
pub mod verify_sharding;

use dist_dialect::ir::{FunctionOpRef, body_ops};
use melior::ir::OperationRef;

/// Writes `report` of each function of `module`, in order, to stderr in one
/// piece: the reports are anchored on the module so that functions print
/// in order whatever the threading.
pub fn print_function_reports<'c, 'a>(
    module: OperationRef<'c, 'a>,
    mut report: impl FnMut(FunctionOpRef<'c, 'a>, &mut String),
) {
    let mut text = String::new();
    for op in body_ops(module) {
        if let Ok(function) = FunctionOpRef::try_from(op) {
            report(function, &mut text);
        }
    }
    eprint!("{text}");
}
