//! The dist dialect, every dist pass and every named pipeline as a plugin
//! for upstream `mlir-opt`: one library that both
//! `--load-dialect-plugin` and `--load-pass-plugin` load
//! (`target/release/libdist_mlir_plugin.so`).
//!
//! ```sh
//! mlir-opt-22 --load-dialect-plugin=$L --load-pass-plugin=$L in.mlir \
//!   --pass-pipeline='builtin.module(func.func(dist-propagate-sharding,dist-resolve-partial))'
//! ```
//!
//! The Rust passes run inside mlir-opt's pass manager (its threading,
//! `--mlir-timing`, `--mlir-print-ir-after-all`, crash reproducers and
//! diagnostics), through the same registration `dist-opt` uses; a panic
//! stays caught at the FFI boundary (`dist_passes::registry`). The plugin
//! links the shared `libMLIR.so` mlir-opt links, so both see one pass
//! registry and one set of type ids.

use std::ffi::{c_char, c_void};

/// MLIR's `MLIR_PLUGIN_API_VERSION`.
const API_VERSION: u32 = 1;
const NAME: &[u8] = b"dist\0";
/// What `mlir-opt --version` would print of the LLVM it was built with;
/// informational (MLIR checks the API version only).
const VERSION: &[u8] = b"22\0";

/// `mlir::PassPluginLibraryInfo` (mlir/Tools/Plugins/PassPlugin.h).
#[repr(C)]
pub struct PassPluginLibraryInfo {
    api_version: u32,
    plugin_name: *const c_char,
    plugin_version: *const c_char,
    register_pass_registry_callbacks: extern "C" fn(),
}

/// `mlir::DialectPluginLibraryInfo` (mlir/Tools/Plugins/DialectPlugin.h).
#[repr(C)]
pub struct DialectPluginLibraryInfo {
    api_version: u32,
    plugin_name: *const c_char,
    plugin_version: *const c_char,
    register_dialect_registry_callbacks: extern "C" fn(*mut c_void),
}

/// Registers every dist pass and pipeline with MLIR's registry; a panic
/// is reported and ends the process rather than unwinding into C++.
extern "C" fn register_passes() {
    if std::panic::catch_unwind(dist_passes::register_dist).is_err() {
        eprintln!("dist plugin: registering the passes failed");
        std::process::abort();
    }
}

/// Inserts the dist dialect into mlir-opt's `DialectRegistry`.
extern "C" fn register_dialect(registry: *mut c_void) {
    let registry = mlir_sys::MlirDialectRegistry { ptr: registry };
    // SAFETY: `registry` is the live `mlir::DialectRegistry *` mlir-opt
    // hands its dialect plugins; an `MlirDialectRegistry` wraps exactly
    // that pointer, and the dialect handle is static.
    unsafe { mlir_sys::mlirDialectHandleInsertDialect(dist_dialect::ir::dialect_handle().to_raw(), registry) };
}

/// What `mlir-opt --load-pass-plugin` looks up.
#[unsafe(no_mangle)]
pub extern "C" fn mlirGetPassPluginInfo() -> PassPluginLibraryInfo {
    PassPluginLibraryInfo {
        api_version: API_VERSION,
        plugin_name: NAME.as_ptr().cast(),
        plugin_version: VERSION.as_ptr().cast(),
        register_pass_registry_callbacks: register_passes,
    }
}

/// What `mlir-opt --load-dialect-plugin` looks up.
#[unsafe(no_mangle)]
pub extern "C" fn mlirGetDialectPluginInfo() -> DialectPluginLibraryInfo {
    DialectPluginLibraryInfo {
        api_version: API_VERSION,
        plugin_name: NAME.as_ptr().cast(),
        plugin_version: VERSION.as_ptr().cast(),
        register_dialect_registry_callbacks: register_dialect,
    }
}
