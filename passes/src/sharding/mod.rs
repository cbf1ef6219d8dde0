//! What the passes share about shardings.

pub mod graph;
pub mod needs;
pub mod solver;
