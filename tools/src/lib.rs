//! The `dist-opt` driver: mlir-opt conventions on top of the dist dialect
//! and the Rust pass registry.

pub mod cli;
pub mod codegen;
pub mod diagnostics;
pub mod driver;
pub mod fuzz;
pub mod gpt;
pub mod launch;
pub mod run;
pub mod split;
pub mod verify;

use thiserror::Error;

/// Errors of the tools crate; each is printed as `dist-opt: <message>`.
#[derive(Debug, Error)]
pub enum Error {
    #[error("{0}")]
    Usage(String),
    #[error("could not open input file '{path}': {source}")]
    Input { path: String, source: std::io::Error },
    #[error("could not write output file '{path}': {source}")]
    Output { path: String, source: std::io::Error },
    #[error("invalid pass pipeline: {0}")]
    Pipeline(String),
    #[error("code generation failed: {0}")]
    Codegen(String),
}
