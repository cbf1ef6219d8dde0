//! The runtime exports every function generated code calls: the compiler
//! spells their names in one place (`runtime_abi`), the runtime defines
//! them by hand, and this test holds the two together.

mod common;

use dist_passes::conversion::runtime_abi;
use std::ffi::CString;
use std::path::Path;

#[test]
fn the_runtime_library_exports_every_abi_function() {
    let bin = Path::new(env!("CARGO_BIN_EXE_dist-opt")).parent().unwrap();
    common::build_runtime(bin);
    let library = CString::new(bin.join("libdist_runtime.so").to_str().unwrap()).unwrap();
    // SAFETY: a valid C string; the library is loaded lazily and never
    // run, only looked up, and stays loaded to the end of the process.
    let handle = unsafe { libc::dlopen(library.as_ptr(), libc::RTLD_LAZY | libc::RTLD_LOCAL) };
    assert!(!handle.is_null(), "dlopen of {library:?} failed");
    let missing: Vec<String> = runtime_abi::all()
        .iter()
        .map(|f| f.symbol())
        .filter(|symbol| {
            let name = CString::new(symbol.as_str()).unwrap();
            // SAFETY: a live handle and a valid C string.
            unsafe { libc::dlsym(handle, name.as_ptr()) }.is_null()
        })
        .collect();
    assert!(missing.is_empty(), "libdist_runtime.so does not export {missing:?}");
}
