//! Compiles the MPI shim with the MPI compiler wrapper and links the MPI
//! library it names, so MPICH and Open MPI both work (their handle types
//! differ; only the shim sees them).

use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=src/mpi.c");
    // Without the `mpi` feature the runtime serves one process and links no MPI.
    if std::env::var_os("CARGO_FEATURE_MPI").is_none() {
        return;
    }
    println!("cargo:rerun-if-env-changed=MPICC");
    let mpicc = std::env::var("MPICC").unwrap_or_else(|_| "mpicc".to_owned());
    // MPICH spells it -show, Open MPI -showme.
    let flags = ["-show", "-showme"]
        .iter()
        .find_map(|flag| {
            let out = Command::new(&mpicc).arg(flag).output().ok()?;
            out.status
                .success()
                .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
        })
        .unwrap_or_else(|| panic!("cannot run `{mpicc} -show`: install MPI (Debian: mpich libmpich-dev)"));
    let mut build = cc::Build::new();
    build.file("src/mpi.c").warnings(true);
    for flag in flags.split_whitespace() {
        if let Some(dir) = flag.strip_prefix("-I") {
            build.include(dir);
        } else if let Some(dir) = flag.strip_prefix("-L") {
            println!("cargo:rustc-link-search=native={dir}");
        } else if let Some(lib) = flag.strip_prefix("-l") {
            println!("cargo:rustc-link-lib={lib}");
        }
    }
    build.compile("dist_mpi");
}
