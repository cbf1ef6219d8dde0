//! Rust passes over the `dist` dialect and the registry that makes them
//! visible to MLIR's pass pipeline parser under their `dist-<verb>-<noun>`
//! names, laid out by role as upstream MLIR lays out its passes:
//!
//! - [`sharding`]: what the passes share about shardings: the rule table,
//!   the layout solver, a function read as a solver problem, the uses that
//!   need another layout, the communication model, the matmul-gradient
//!   products (pure Rust, except the reading of a function);
//! - [`transforms`]: the passes that rewrite dist IR (propagation,
//!   resolution, splitting, overlap, partition) and the lowering's own
//!   module transforms;
//! - [`analysis`]: passes that check or report and change nothing;
//! - [`conversion`]: dist IR to linalg, to runtime calls, to BLAS calls;
//! - [`gpu`]: the GPU schedule, launch finalization and PTX compilation;
//! - [`pipeline`]: pipeline schedules, their check and their timeline
//!   model (pure Rust), and the stages of a program;
//! - [`registry`] and [`pipelines`]: registration with MLIR; [`docs`]: the
//!   reference of every pass and pipeline (docs/passes.md).
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
pub mod pipeline;
pub mod pipelines;
#[allow(unsafe_code)]
pub mod registry;
pub mod sharding;
pub mod transforms;

pub use catalog::PASSES;
pub use error::{PassError, fail};
pub use pipelines::PIPELINES;
pub use registry::{DistPass, OptionInfo, PassInfo, PipelineInfo, emit_error, register, register_all, register_dist};
