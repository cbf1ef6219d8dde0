//! Runs `examples/collectives.rs` under `mpiexec -n 4` (oversubscribed on
//! small machines): every collective of the runtime, sync and async, on a
//! 2 x 2 mesh.

use std::path::PathBuf;
use std::process::Command;

fn example(name: &str) -> PathBuf {
    // target/<profile>/deps/<this test> -> target/<profile>/examples/<name>
    let exe = std::env::current_exe().expect("the test binary's path");
    exe.parent()
        .and_then(|deps| deps.parent())
        .map(|profile| profile.join("examples").join(name))
        .expect("a target directory")
}

#[test]
fn collectives_on_four_ranks() {
    let out = Command::new("mpiexec")
        .args(["-n", "4"])
        .arg(example("collectives"))
        .output()
        .expect("mpiexec runs (install mpich)");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    for rank in 0..4 {
        assert!(stdout.contains(&format!("rank {rank}: ok")), "{stdout}");
    }
}
