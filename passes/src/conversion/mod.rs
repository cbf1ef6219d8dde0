//! Conversions out of the dist dialect: compute to linalg, collectives to
//! runtime calls, and linalg contractions to BLAS calls.

pub mod call_blas;
pub mod runtime_abi;
pub mod to_linalg;
pub mod to_runtime;
