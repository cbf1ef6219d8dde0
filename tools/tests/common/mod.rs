//! Helpers shared by the integration tests: running the tools and reading
//! `--dist-comm-report`.

// Each test crate compiles this module and uses a part of it.
#![allow(dead_code)]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// The runtime's shared library, beside the binaries in `profile_dir`,
/// for the tests that run compiled programs or read it (`cargo test`
/// builds the runtime only as a dependency-free rlib for its own tests).
pub fn build_runtime(profile_dir: &Path) {
    build_library("dist-runtime", profile_dir);
}

/// The mlir-opt plugin (`libdist_mlir_plugin.so`) beside the binaries in
/// `profile_dir`, for the lit suite's Plugin/ tests (a cdylib that
/// `cargo test` does not link); its path.
pub fn build_plugin(profile_dir: &Path) -> std::path::PathBuf {
    build_library("dist-mlir-plugin", profile_dir);
    profile_dir.join("libdist_mlir_plugin.so")
}

/// `cargo build` of `package`'s library in `profile_dir`'s profile.
fn build_library(package: &str, profile_dir: &Path) {
    let mut cargo = Command::new(env!("CARGO"));
    cargo.args(["build", "-q", "-p", package, "--lib"]);
    if profile_dir.file_name().is_some_and(|p| p == "release") {
        cargo.arg("--release");
    }
    let status = cargo.status().expect("cargo runs");
    assert!(status.success(), "building {package} failed");
}

/// (collective, axes, bytes per device) of each row, sorted.
pub type Rows = Vec<(String, String, u64)>;

/// `dist-gen` with `args`: the program text.
pub fn dist_gen(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_dist-gen"))
        .args(args)
        .output()
        .expect("dist-gen runs");
    assert!(out.status.success(), "dist-gen {args:?} failed");
    String::from_utf8(out.stdout).unwrap()
}

/// `dist-opt - args` on `program`: (stdout, stderr); panics on failure.
pub fn dist_opt(program: &str, args: &[&str]) -> (String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dist-opt"))
        .arg("-")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("dist-opt runs");
    let mut stdin = child.stdin.take().unwrap();
    let text = program.to_owned();
    let writer = std::thread::spawn(move || stdin.write_all(text.as_bytes()));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success(), "dist-opt {args:?} failed:\n{stderr}");
    (String::from_utf8(out.stdout).unwrap(), stderr)
}

/// Propagation, resolution (given with its options in `extra`, if there)
/// and the `extra` passes, then the report on `program`: the rows and the
/// reported total.
pub fn comm_report(program: &str, extra: &[&str]) -> (Rows, u64) {
    let mut args = vec!["--dist-propagate-sharding"];
    // `extra` may give resolution its options.
    if !extra.iter().any(|a| a.starts_with("--dist-resolve-partial")) {
        args.push("--dist-resolve-partial");
    }
    args.extend(extra);
    args.extend(["--dist-comm-report", "-o", "/dev/null"]);
    let (_, stderr) = dist_opt(program, &args);
    let mut rows = Vec::new();
    let mut total = None;
    for line in stderr.lines() {
        let fields: Vec<&str> = line.trim_start_matches("//").split_whitespace().collect();
        if let Some(t) = line.strip_prefix("// total: ") {
            let bytes = t.split(", ").nth(1).and_then(|b| b.split(' ').next()).unwrap();
            total = Some(bytes.parse().unwrap());
        } else if fields.first().is_some_and(|f| f.parse::<u32>().is_ok()) {
            // #, collective, reduce, axes, groups (count x size, then the
            // groups), type, bytes, value, for.
            let bytes_at = fields.iter().position(|f| *f == "f32").unwrap() + 1;
            rows.push((
                fields[1].to_owned(),
                fields[3].to_owned(),
                fields[bytes_at].parse().unwrap(),
            ));
        }
    }
    rows.sort();
    (rows, total.expect("a total line"))
}

/// The elements of each parameter of `dist-gen gpt --layers L --tp T` (its
/// default sizes) on one device of a tp group, in argument order: the
/// vocabulary-split table, the final layer norm, then per layer its norms,
/// the Q/K/V/output projections and the MLP.
pub fn gpt_param_elements(layers: u64, tp: u64) -> Vec<u64> {
    let (hidden, vocab) = (2 * tp * 32, 128 * tp);
    let ffn = 4 * hidden;
    let mut params = vec![vocab / tp * hidden, hidden, hidden];
    for _ in 0..layers {
        params.extend([hidden, hidden]);
        params.extend([hidden * hidden / tp; 4]);
        params.extend([hidden, hidden]);
        params.extend([hidden * ffn / tp, ffn / tp, ffn * hidden / tp]);
    }
    params
}
