//! Conversions into the dist dialect (StableHLO from JAX) and out of it:
//! compute to linalg, collectives to runtime calls, and linalg contractions
//! to BLAS calls.

pub mod call_blas;
pub mod from_stablehlo;
pub mod runtime_abi;
pub mod to_linalg;
pub mod to_runtime;
