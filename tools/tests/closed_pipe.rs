//! A reader that stops early (`dist-opt --help | head -1`) ends the tools
//! as it ends C tools: killed by SIGPIPE, never a panic or an LLVM error.

use std::io::{BufRead, BufReader, Read};
use std::os::unix::process::ExitStatusExt;
use std::process::{Command, Stdio};

fn read_one_line_then_close(program: &str, args: &[&str]) {
    let mut child = Command::new(program)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the tool starts");
    let mut stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
    let mut line = String::new();
    stdout.read_line(&mut line).expect("a first line");
    assert!(!line.is_empty(), "{program} printed nothing");
    drop(stdout);
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .expect("piped stderr")
        .read_to_string(&mut stderr)
        .expect("stderr");
    let status = child.wait().expect("the tool ends");
    // Everything may have fitted in the pipe before it closed: then 0.
    assert!(
        status.success() || status.signal() == Some(libc::SIGPIPE),
        "{program} {args:?}: {status}, stderr:\n{stderr}"
    );
    assert!(stderr.is_empty(), "{program} {args:?} wrote to stderr:\n{stderr}");
}

#[test]
fn help_read_in_part_ends_quietly() {
    read_one_line_then_close(env!("CARGO_BIN_EXE_dist-opt"), &["--help"]);
}

#[test]
fn program_read_in_part_ends_quietly() {
    let gpt = ["gpt", "--layers", "200", "--dp", "2", "--tp", "2"];
    read_one_line_then_close(env!("CARGO_BIN_EXE_dist-gen"), &gpt);
}
