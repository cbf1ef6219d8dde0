//! The plugin's SONAME, so that hosts linking it (DistMLIR::Passes in the
//! installed CMake package) record its name rather than its build path.

fn main() {
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libdist_mlir_plugin.so");
}
