//! The `dist-opt` driver: mlir-opt conventions on top of the dist dialect
//! and the Rust pass registry.

pub mod cli;
pub mod codegen;
pub mod diagnostics;
pub mod driver;
pub mod fuzz;
pub mod gradcheck;
pub mod launch;
pub mod pass_values;
pub mod programs;
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
    /// A pass reported its errors as diagnostics; this names the pipeline.
    #[error("{0} failed (its diagnostics are above)")]
    PassFailed(String),
    #[error("code generation failed: {0}")]
    Codegen(String),
}

/// Lets a closed output pipe end the process quietly, as it ends mlir-opt
/// and other C tools (`dist-opt --help | head`): Rust ignores SIGPIPE, so a
/// write to a closed pipe would panic in Rust and abort in LLVM's streams.
pub fn exit_on_closed_pipe() {
    // SAFETY: restores the default disposition of one signal, before any
    // thread starts.
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_DFL) };
}
