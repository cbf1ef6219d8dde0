//! A bounded fuzzing run in the suite: 20,000 mutated inputs of a fixed seed
//! through parse, verify, automatic differentiation, the sharding passes,
//! partition and the LLVM lowering (docs/fuzzing.md has the long
//! campaigns). Any crash, hang or panic fails it and is left under the
//! target directory.

use std::process::Command;

#[test]
fn twenty_thousand_mutated_inputs_crash_nothing() {
    let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("fuzz-smoke");
    let _ = std::fs::remove_dir_all(&out);
    let run = Command::new(env!("CARGO_BIN_EXE_dist-fuzz"))
        .args(["--runs", "20000", "--seed", "16", "--jobs", "2", "--timeout", "60"])
        .arg("--out")
        .arg(&out)
        .output()
        .expect("dist-fuzz runs");
    let report = String::from_utf8_lossy(&run.stdout);
    let log = String::from_utf8_lossy(&run.stderr);
    assert!(
        run.status.success(),
        "{report}{log}\nthe inputs are under {}",
        out.display()
    );
    assert!(
        report.contains("20000 inputs") && report.contains("0 crashes, 0 hangs, 0 panics"),
        "{report}"
    );
}
