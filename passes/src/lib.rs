//! Rust passes over the `dist` dialect and the registry that makes them
//! visible to MLIR's pass pipeline parser under their `dist-<verb>-<noun>`
//! names, laid out by role as upstream MLIR lays out its passes, each floor
//! using only the ones below it:
//!
//! - [`error`], then [`vocabulary`]: the language the op descriptions are
//!   written in (the rules' factors, the communication model of
//!   collectives, the linalg body builder), naming no compute op;
//! - [`ops`]: what the compiler knows of each compute op, one description
//!   per op family (its rule, gradient, lowering, completion by partition),
//!   and the products of a matmul's gradient;
//! - [`sharding`]: the layout solver, a function read as a solver problem,
//!   the uses that need another layout;
//! - [`pass`]: what a pass is to the registry (its description, options
//!   and instance);
//! - the passes: [`transforms`] (rewrites of dist IR and the lowering's own
//!   module transforms), [`analysis`] (checks and reports that change
//!   nothing), [`conversion`] (StableHLO in; linalg, runtime and BLAS calls
//!   out), [`gpu`] (the GPU schedule, launch finalization and PTX), with
//!   [`pipeline`] (pipeline parallelism's schedules and their timeline model,
//!   pure Rust) beside them;
//! - [`catalog`] (every pass), [`pass_pipelines`] (the named pipelines of
//!   passes) and [`registry`] (their registration with MLIR); [`docs`]:
//!   the reference of every pass and pipeline (docs/passes.md).
//!
//! Passes read and change the IR only through `dist_dialect::ir`. The crate
//! denies `unsafe` except at the registry's FFI boundary, the linalg body
//! builder, and each erasure of an op (`ir::erase`: no handle to the erased
//! op may be used again, which only the caller can know), each allowed
//! where it stands with its reason.

#![deny(unsafe_code)]

pub mod analysis;
pub mod catalog;
pub mod conversion;
pub mod docs;
pub mod error;
pub mod gpu;
pub mod ops;
pub mod pass;
pub mod pass_pipelines;
pub mod pipeline;
#[allow(unsafe_code)]
pub mod registry;
pub mod sharding;
pub mod transforms;
pub mod vocabulary;

pub use catalog::PASSES;
pub use error::{PassError, fail};
pub use pass::{DistPass, OptionInfo, PassInfo, PipelineInfo};
pub use pass_pipelines::PIPELINES;
pub use registry::{emit_error, register, register_all, register_dist};
