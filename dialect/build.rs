//! Builds the C++ side of the dialect with CMake and links it.

fn main() {
    for dir in ["include", "lib", "CMakeLists.txt", "../cmake"] {
        println!("cargo:rerun-if-changed={dir}");
    }
    let prefix = std::env::var("MLIR_SYS_220_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-22".into());
    let dst = cmake::Config::new(".")
        .generator("Ninja")
        .profile("Release")
        .define("MLIR_DIR", format!("{prefix}/lib/cmake/mlir"))
        // Debian builds LLVM with clang. MLIR derives implicit TypeIDs from
        // compiler-specific type-name strings, so code compiled by GCC would
        // disagree with libMLIR.so about trait and interface identities.
        .define("CMAKE_CXX_COMPILER", format!("{prefix}/bin/clang++"))
        .define("CMAKE_C_COMPILER", format!("{prefix}/bin/clang"))
        .always_configure(false)
        .build_target("all")
        .build();
    let lib = dst.join("build").join("lib");
    println!("cargo:rustc-link-search=native={}", lib.display());
    // Order matters for the linker: dialect, C API shims, then MLIR's C API
    // (the merged libMLIR-C.a), then the shared MLIR/LLVM they call into.
    for name in ["DistCAPI", "DistIR", "MLIR-C"] {
        println!("cargo:rustc-link-lib=static={name}");
    }
    println!("cargo:rustc-link-search=native={prefix}/lib");
    println!("cargo:rustc-link-lib=dylib=MLIR");
    println!("cargo:rustc-link-lib=dylib=LLVM");
    println!("cargo:rustc-link-lib=dylib=stdc++");
    // `dist_dialect::PLUGIN_PATH`: the lit suite hands it to mlir-opt.
    println!(
        "cargo:rustc-env=DIST_PLUGIN_PATH={}",
        lib.join("libDistPlugin.so").display()
    );
}
