//! Runs the lit suite (`test/`) against the binaries of this build, so that
//! `cargo test` covers every test suite.

mod common;

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

#[test]
fn lit_suite_passes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let dist_opt = Path::new(env!("CARGO_BIN_EXE_dist-opt"));
    common::build_runtime(dist_opt.parent().unwrap());
    let plugin = common::build_plugin(dist_opt.parent().unwrap());
    let status = lit_command()
        .arg("-sv")
        .arg(root.join("test"))
        .env("DIST_BIN_DIR", dist_opt.parent().unwrap())
        .env("DIST_PLUGIN", plugin)
        .env("DIST_DIALECT_PLUGIN", dist_dialect::PLUGIN_PATH)
        .status()
        .expect("lit runs (scripts/setup.sh installs it)");
    assert!(status.success(), "the lit suite failed");
}
