//! From the LLVM dialect to LLVM IR.

use inkwell::context::Context as LlvmContext;
use inkwell::module::Module as LlvmModule;
use melior::ir::OperationRef;
use melior::ir::operation::OperationLike;

/// Translates `op` (a module in the LLVM dialect, or a lowered
/// `gpu.module`) into an LLVM module of `llvm`; `None` if it does not
/// translate (the reasons went to the MLIR context's diagnostics).
pub fn translate_to_llvm<'l>(op: &OperationRef<'_, '_>, llvm: &'l LlvmContext) -> Option<LlvmModule<'l>> {
    // SAFETY: both contexts are live; registering the translations of a
    // context that has them already is a no-op; the translated module is
    // owned by the returned `Module`, which `'l` keeps within `llvm`'s life.
    unsafe {
        mlir_sys::mlirRegisterAllLLVMTranslations(mlir_sys::mlirOperationGetContext(op.to_raw()));
        let raw = mlir_sys::mlirTranslateModuleToLLVMIR(op.to_raw(), llvm.raw().cast());
        if raw.is_null() {
            return None;
        }
        Some(LlvmModule::new(raw.cast()))
    }
}
