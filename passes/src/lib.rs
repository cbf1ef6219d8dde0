//! Rust passes over the `dist` dialect and the registry that makes them
//! visible to MLIR's pass pipeline parser under their `dist-<verb>-<noun>`
//! names.

pub mod registry;

pub use registry::{DistPass, OptionInfo, PassInfo, register, register_all};

/// Every pass this crate ships, in `--help` order. Later passes are added
/// here as they land.
pub const PASSES: &[PassInfo] = &[];
