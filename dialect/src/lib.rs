//! The `dist` dialect from Rust.
//!
//! - [`model`]: a pure-Rust model of meshes and shardings (no MLIR needed),
//!   the ground truth the passes compute with.
//! - [`ir`]: safe wrappers over the dialect's C API to move between the model
//!   and MLIR attributes and ops.
//! - [`ffi`]: the raw C API (`dialect/include/Dist-c/Dist.h`).

pub mod error;
pub mod ffi;
pub mod ir;
pub mod model;

pub use error::Error;
pub use model::{Mesh, MeshAxis, Partial, ReductionKind, Sharding};

/// Path of the `mlir-opt` dialect plugin built with this crate.
pub const PLUGIN_PATH: &str = env!("DIST_PLUGIN_PATH");
