//! The `dist` dialect from Rust.
//!
//! - [`model`]: a pure-Rust model of meshes and shardings (no MLIR needed),
//!   the ground truth the passes compute with.
//! - [`ir`]: the IR layer: safe wrappers over MLIR's and the dialect's C API
//!   to read and change the IR and move between the model and MLIR.
//! - [`ops`]: the dialect's ops (generated from the ODS) and attribute names.
//! - [`ods`]: typed builders of the dialect's ops (generated from the ODS).
//! - [`ffi`]: the raw C API (`dialect/include/Dist-c/Dist.h`).

pub mod error;
pub mod ffi;
pub mod ir;
pub mod model;
pub mod ods;
pub mod ops;

pub use error::Error;
pub use model::{CompareDirection, Mesh, MeshAxis, Partial, ReductionKind, Sharding};
pub use ops::DistOp;

/// Path of the `mlir-opt` dialect plugin built with this crate.
pub const PLUGIN_PATH: &str = env!("DIST_PLUGIN_PATH");
