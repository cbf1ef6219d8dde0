//! dist-opt: the mlir-opt of the dist compiler.

use dist_tools::{cli, driver};
use std::process::ExitCode;

/// The passes allocate many small vectors per op; mimalloc frees them far
/// faster than glibc (measured in docs/perf.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    dist_tools::exit_on_closed_pipe();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let options = match cli::parse(&args, driver::is_registered_pass, driver::registered_pass_names) {
        Ok(options) => options,
        Err(error) => {
            eprintln!("dist-opt: {error}");
            return ExitCode::from(2);
        }
    };
    if options.help {
        driver::print_help();
        return ExitCode::SUCCESS;
    }
    if options.help_passes {
        driver::print_pass_docs();
        return ExitCode::SUCCESS;
    }
    if options.version {
        println!("dist-opt {} (MLIR 22)", env!("CARGO_PKG_VERSION"));
        return ExitCode::SUCCESS;
    }
    match driver::run(&options) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(error) => {
            eprintln!("dist-opt: {error}");
            ExitCode::FAILURE
        }
    }
}
