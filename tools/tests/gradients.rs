//! The gradient checks in the suite (docs/gradients.md): the sweep of every
//! differentiable op, each variant in the six covering lowering modes (each
//! case in two of them, by turns) on one device and on a 2 x 2
//! mesh, and a campaign of random programs, each against the float64
//! reference. A wrong gradient or a crash fails the test; the (shrunk)
//! programs are left under the target directory.

mod common;

use std::process::Command;

fn dist_fuzz(args: &[&str], out: &str) -> (bool, String) {
    let dist_fuzz = std::path::Path::new(env!("CARGO_BIN_EXE_dist-fuzz"));
    common::build_runtime(dist_fuzz.parent().unwrap());
    let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(out);
    let _ = std::fs::remove_dir_all(&out);
    let run = Command::new(dist_fuzz)
        .args(args)
        .args(["--jobs", "2", "--out"])
        .arg(&out)
        .output()
        .expect("dist-fuzz runs");
    let report = format!(
        "{}{}\nthe programs are under {}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr),
        out.display()
    );
    (run.status.success(), report)
}

#[test]
fn every_differentiable_op_in_every_context_and_mode_has_the_reference_gradient() {
    let (ok, report) = dist_fuzz(
        &["--grad-sweep", "--modes", "rotated", "--batch", "24"],
        "gradient-sweep",
    );
    assert!(ok, "{report}");
    assert!(
        report.contains("1036 programs (0 without smooth inputs), 2072 checks: 2072 match"),
        "{report}"
    );
}

#[test]
fn a_thousand_random_programs_have_the_reference_gradients() {
    let (ok, report) = dist_fuzz(&["--grad", "--runs", "1000", "--seed", "20261206"], "gradient-fuzz");
    assert!(ok, "{report}");
    assert!(report.contains("1000 programs"), "{report}");
    assert!(report.contains(" 0 wrong, 0 failed"), "{report}");
}
