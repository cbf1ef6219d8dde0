//! Runs the lit suite (`test/`) against the binaries of this build, so that
//! `cargo test` covers every test suite.

use std::path::Path;
use std::process::Command;

fn lit_command() -> Command {
    // Prefer a `lit` on PATH; fall back to the Python package (whose
    // `lit.main` module does not run as `-m`).
    if Command::new("lit")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
    {
        Command::new("lit")
    } else {
        let mut python = Command::new("python3");
        python.args(["-c", "from lit.main import main; main()"]);
        python
    }
}

/// The runtime's shared library, beside the binaries, for the tests that
/// run compiled programs (`cargo test` builds the runtime only as a
/// dependency-free rlib for its own tests).
fn build_runtime(profile_dir: &Path) {
    let mut cargo = Command::new(env!("CARGO"));
    cargo.args(["build", "-q", "-p", "dist-runtime", "--lib"]);
    if profile_dir.file_name().is_some_and(|p| p == "release") {
        cargo.arg("--release");
    }
    let status = cargo.status().expect("cargo runs");
    assert!(status.success(), "building libdist_runtime.so failed");
}

#[test]
fn lit_suite_passes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let dist_opt = Path::new(env!("CARGO_BIN_EXE_dist-opt"));
    build_runtime(dist_opt.parent().unwrap());
    let status = lit_command()
        .arg("-sv")
        .arg(root.join("test"))
        .env("DIST_BIN_DIR", dist_opt.parent().unwrap())
        .env("DIST_PLUGIN", dist_dialect::PLUGIN_PATH)
        .status()
        .expect("lit runs (scripts/setup.sh installs it)");
    assert!(status.success(), "the lit suite failed");
}
