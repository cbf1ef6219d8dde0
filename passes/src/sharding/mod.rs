//! What the passes share about shardings.

pub mod comm;
pub mod graph;
pub mod matmul_grad;
pub mod needs;
pub mod rules;
pub mod solver;
