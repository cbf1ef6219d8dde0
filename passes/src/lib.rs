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
pub mod conversion;
pub mod docs;
pub mod gpu;
pub mod pipelines;
#[allow(unsafe_code)]
pub mod registry;
pub mod sharding;
pub mod transforms;

use dist_dialect::ir::Located;
use melior::ir::Location;
use thiserror::Error;

/// Errors of the passes crate.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum PassError {
    /// The pass failed after emitting its diagnostics on the IR.
    #[error("the pass failed; its diagnostics were emitted on the IR")]
    Failed,
}

/// Reporting a located error fails the pass, as MLIR's
/// `return op->emitError(...)` does: `?` on a `Result<_, Located>` reports.
impl From<Located<'_>> for PassError {
    fn from(error: Located<'_>) -> Self {
        error.emit();
        PassError::Failed
    }
}

/// Reports `message` at `location` as an error; the pass then fails.
pub fn fail(location: Location<'_>, message: &str) -> PassError {
    Located::new(location, message).into()
}

pub use pipelines::PIPELINES;
pub use registry::{DistPass, OptionInfo, PassInfo, PipelineInfo, emit_error, register, register_all};

/// Every pass this crate ships, in `--help` order. Later passes are added
/// here as they land.
pub const PASSES: &[PassInfo] = &[
    transforms::append_backward::INFO,
    transforms::propagate_sharding::INFO,
    transforms::resolve_partial::INFO,
    analysis::verify_sharding::INFO,
    transforms::split_matmul_grad::INFO,
    transforms::overlap_collectives::INFO,
    analysis::overlap_report::INFO,
    transforms::partition::INFO,
    transforms::elide_collectives::INFO,
    conversion::to_linalg::INFO,
    conversion::to_runtime::INFO,
    transforms::canonicalize_globals::INFO,
    conversion::call_blas::INFO,
    transforms::outline_loops::INFO,
    analysis::comm_report::INFO,
    analysis::memory_report::INFO,
    gpu::schedule::INFO,
    gpu::finalize::INFO,
    gpu::compile::INFO,
];
