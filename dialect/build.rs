//! Builds the C++ side of the dialect with CMake and links it, and writes
//! the list of the dialect's ops from the ODS for `dist_dialect::ops`.

use std::path::Path;

/// `(variant, mnemonic)` of every `def <Name>Op : Dist_...<"mnemonic"` in
/// the ODS files, in file order: the ops `dist_dialect::ops::DistOp` names.
fn ods_ops(include: &Path) -> Vec<(String, String)> {
    let mut files: Vec<_> = std::fs::read_dir(include)
        .expect("dialect/include/Dist")
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "td"))
        .collect();
    files.sort();
    let mut ops = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("a readable .td file");
        for line in text.lines() {
            let Some(rest) = line.trim_start().strip_prefix("def Dist_") else {
                continue;
            };
            let Some((name, base)) = rest.split_once(':') else {
                continue;
            };
            let (name, base) = (name.trim(), base.trim());
            let Some(variant) = name.strip_suffix("Op") else {
                continue;
            };
            let Some(mnemonic) = base
                .strip_prefix("Dist_")
                .and_then(|b| b.split_once("<\""))
                .and_then(|(_, m)| m.split_once('"'))
                .map(|(m, _)| m)
            else {
                continue;
            };
            ops.push((variant.to_owned(), mnemonic.to_owned()));
        }
    }
    ops
}

fn write_op_list() {
    let ops = ods_ops(Path::new("include/Dist"));
    let mut text = String::from("dist_ops! {\n");
    for (variant, mnemonic) in &ops {
        text.push_str(&format!("    {variant} = \"{mnemonic}\",\n"));
    }
    text.push_str("}\n");
    let out = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("dist_ops.rs");
    std::fs::write(out, text).expect("OUT_DIR is writable");
}

fn main() {
    write_op_list();
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
    // `dist_dialect::ods`: melior's `dialect!` reads the ODS from here.
    let include = Path::new("include").canonicalize().expect("dialect/include");
    println!("cargo:rustc-env=DIST_ODS_INCLUDE={}", include.display());
    // `dist_dialect::PLUGIN_PATH`: the lit suite hands it to mlir-opt.
    println!(
        "cargo:rustc-env=DIST_PLUGIN_PATH={}",
        lib.join("libDistPlugin.so").display()
    );
}
