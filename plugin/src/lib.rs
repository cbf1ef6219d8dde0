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
//! It is also the C API of the passes (declared in `Dist-c/Dist.h`):
//! `mlirDistRegisterDialect`, `mlirRegisterDistPasses` and one
//! `mlirCreateDist<Pass>` per pass, for C, C++, Python and Rust hosts that
//! build their pipelines themselves (`examples/out-of-tree/`).
//!
//! The Rust passes run inside mlir-opt's pass manager (its threading,
//! `--mlir-timing`, `--mlir-print-ir-after-all`, crash reproducers and
//! diagnostics), through the same registration `dist-opt` uses; a panic
//! stays caught at the FFI boundary (`dist_passes::registry`). The plugin
//! links the shared `libMLIR.so` mlir-opt links, so both see one pass
//! registry and one set of type ids.

use mlir_sys::{MlirDialectRegistry, MlirPass};
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
    mlirDistRegisterDialect(MlirDialectRegistry { ptr: registry });
}

/// Inserts the dist dialect into `registry` (C API).
#[unsafe(no_mangle)]
pub extern "C" fn mlirDistRegisterDialect(registry: MlirDialectRegistry) {
    // SAFETY: `registry` is a live registry (the C API's contract; mlir-opt
    // hands its dialect plugins its own `mlir::DialectRegistry *`, which
    // an `MlirDialectRegistry` wraps), and the dialect handle is static.
    unsafe { mlir_sys::mlirDialectHandleInsertDialect(dist_dialect::ir::dialect_handle().to_raw(), registry) };
}

/// Registers every dist pass and named pipeline with MLIR's registry, so
/// that textual pipelines name them (C API). The pipelines name MLIR's own
/// passes too: a host that runs them registers those
/// (`mlirRegisterAllPasses`).
#[unsafe(no_mangle)]
pub extern "C" fn mlirRegisterDistPasses() {
    register_passes();
}

/// A new pass `argument` with its default options, owned by the caller
/// until a pass manager takes it.
fn create(argument: &str) -> MlirPass {
    register_passes();
    let name = mlir_sys::MlirStringRef {
        data: argument.as_ptr().cast(),
        length: argument.len(),
    };
    // SAFETY: the pass is registered (above) and the name outlives the call.
    unsafe { dist_dialect::ffi::distCreateRegisteredPass(name) }
}

/// One exported constructor per pass, and the list of their passes.
macro_rules! pass_constructors {
    ($($symbol:ident => $argument:literal,)*) => {
        $(
            #[doc = concat!("A new `", $argument, "` pass with its default options (C API).")]
            #[unsafe(no_mangle)]
            pub extern "C" fn $symbol() -> MlirPass {
                create($argument)
            }
        )*

        /// The passes with a constructor, in `--help` order.
        #[cfg(test)]
        const CONSTRUCTED: &[&str] = &[$($argument),*];
        /// Their symbols.
        #[cfg(test)]
        const SYMBOLS: &[&str] = &[$(stringify!($symbol)),*];
    };
}

pass_constructors! {
    mlirCreateDistConvertStablehloToDist => "convert-stablehlo-to-dist",
    mlirCreateDistAppendBackward => "dist-append-backward",
    mlirCreateDistDecompose => "dist-decompose",
    mlirCreateDistPropagateSharding => "dist-propagate-sharding",
    mlirCreateDistResolvePartial => "dist-resolve-partial",
    mlirCreateDistVerifySharding => "dist-verify-sharding",
    mlirCreateDistSplitMatmulGrad => "dist-split-matmul-grad",
    mlirCreateDistOverlapCollectives => "dist-overlap-collectives",
    mlirCreateDistOverlapReport => "dist-overlap-report",
    mlirCreateDistPipelineReport => "dist-pipeline-report",
    mlirCreateDistAutoParallel => "dist-auto-parallel",
    mlirCreateDistSplitMicrobatches => "dist-split-microbatches",
    mlirCreateDistPartition => "dist-partition",
    mlirCreateDistSchedulePipeline => "dist-schedule-pipeline",
    mlirCreateDistPipeline => "dist-pipeline",
    mlirCreateDistElideCollectives => "dist-elide-collectives",
    mlirCreateDistConvertDistToLinalg => "convert-dist-to-linalg",
    mlirCreateDistConvertDistToRuntime => "convert-dist-to-runtime",
    mlirCreateDistCanonicalizeGlobals => "dist-canonicalize-globals",
    mlirCreateDistSplitDeallocs => "dist-split-deallocs",
    mlirCreateDistCallBlas => "dist-call-blas",
    mlirCreateDistOutlineLayers => "dist-outline-layers",
    mlirCreateDistOutlineLoops => "dist-outline-loops",
    mlirCreateDistStripCallDescriptors => "dist-strip-call-descriptors",
    mlirCreateDistCommReport => "dist-comm-report",
    mlirCreateDistMemoryReport => "dist-memory-report",
    mlirCreateDistCollapseContractionDims => "dist-collapse-contraction-dims",
    mlirCreateDistSplitFullReductions => "dist-split-full-reductions",
    mlirCreateDistFuseReductionEpilogues => "dist-fuse-reduction-epilogues",
    mlirCreateDistFuseProductBias => "dist-fuse-product-bias",
    mlirCreateDistCopyInsertedSlices => "dist-copy-inserted-slices",
    mlirCreateDistScheduleGpu => "dist-schedule-gpu",
    mlirCreateDistLowerGpuMma => "dist-lower-gpu-mma",
    mlirCreateDistFinalizeGpuLaunches => "dist-finalize-gpu-launches",
    mlirCreateDistChainGpuLaunches => "dist-chain-gpu-launches",
    mlirCreateDistCompileGpuKernels => "dist-compile-gpu-kernels",
    mlirCreateDistApproximateMath => "dist-approximate-math",
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pass_has_a_constructor_that_makes_it() {
        let mut passes: Vec<&str> = dist_passes::catalog::PASSES.iter().map(|p| p.argument).collect();
        passes.extend(dist_passes::docs::cpp_passes().iter().map(|p| p.argument));
        assert_eq!(CONSTRUCTED, passes.as_slice());
    }

    #[test]
    fn the_c_header_declares_every_export() {
        let header = include_str!("../../dialect/include/Dist-c/Dist.h");
        for symbol in SYMBOLS {
            assert!(header.contains(&format!("MlirPass {symbol}(void);")), "{symbol}");
        }
        for symbol in ["void mlirDistRegisterDialect(", "void mlirRegisterDistPasses(void);"] {
            assert!(header.contains(symbol), "{symbol}");
        }
    }

    #[test]
    fn a_constructed_pass_runs_in_a_host_pass_manager() {
        use melior::ir::Module;
        use melior::pass::{Pass, PassManager};
        let context = dist_dialect::ir::context_with_all_dialects();
        context.load_all_available_dialects();
        let source = "dist.mesh @m = <[\"x\"=2]>\n\
                      func.func @f(%a: tensor<4xf32> {dist.sharding = #dist.sharding<@m, [{\"x\"}]>}) -> tensor<4xf32> {\n\
                      %b = dist.gelu %a : (tensor<4xf32>) -> tensor<4xf32>\n  return %b : tensor<4xf32>\n}\n";
        let mut module = Module::parse(&context, source).expect("parses");
        let pm = PassManager::new(&context);
        // SAFETY: a new pass, which the pass manager takes.
        pm.nested_under("func.func")
            .add_pass(unsafe { Pass::from_raw(mlirCreateDistPropagateSharding()) });
        pm.run(&mut module).expect("propagation runs");
        let text = module.as_operation().to_string();
        assert!(
            text.contains("dist.gelu %arg0 {dist.sharding = [#dist.sharding<@m, [{\"x\"}]>]}"),
            "{text}"
        );
    }
}
