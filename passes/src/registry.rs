//! Registration of Rust passes with MLIR (through the C++ shim in
//! `dialect/lib/CAPI/RustPass.cpp`).
//!
//! MLIR owns option parsing: every option is declared here as a string with
//! a default, MLIR parses `pass{name=value}` and `--help` lists it, and the
//! pass instance receives each value through [`DistPass::set_option`].

use dist_dialect::ffi;
use dist_dialect::ir::{Severity, emit_diagnostic};
use melior::StringRef;
use melior::ir::OperationRef;
use melior::ir::operation::OperationLike;
use mlir_sys::{MlirLogicalResult, MlirOperation, MlirStringCallback, MlirStringRef};
use std::ffi::c_void;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Once;

/// One option of a pass.
#[derive(Debug, Clone, Copy)]
pub struct OptionInfo {
    pub name: &'static str,
    pub description: &'static str,
    pub default: &'static str,
}

/// What MLIR needs to know of a pass, and how to make an instance.
#[derive(Debug, Clone, Copy)]
pub struct PassInfo {
    /// The pipeline name, e.g. `dist-propagate-sharding`.
    pub argument: &'static str,
    /// One line for `--help`.
    pub summary: &'static str,
    /// Anchor op name, e.g. `builtin.module` or `func.func`; empty for any.
    pub anchor: &'static str,
    pub options: &'static [OptionInfo],
    /// The dialects whose ops the pass creates (beyond `dist`), loaded
    /// before it runs: MLIR cannot load a dialect while passes run.
    pub dialects: &'static [&'static str],
    pub create: fn() -> Box<dyn DistPass>,
}

/// A pass instance. MLIR may clone instances to run them in parallel, so an
/// instance is only ever used from one thread at a time.
pub trait DistPass: Send {
    /// Sets one declared option; `Err` carries the message MLIR reports.
    /// The default serves passes without options.
    fn set_option(&mut self, name: &str, _value: &str) -> Result<(), String> {
        Err(format!("unknown option '{name}'"))
    }
    /// Runs on the anchor op. On failure the pass has already emitted its
    /// diagnostics on the IR.
    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), crate::PassError>;
}

/// The UTF-8 text of `raw` (melior's `StringRef::as_str` rejects the empty
/// string, which an option's value may be).
///
/// # Safety
/// `raw` must point at `length` readable bytes for `'a`.
unsafe fn text<'a>(raw: MlirStringRef) -> &'a str {
    if raw.length == 0 {
        return "";
    }
    // SAFETY: guaranteed by the caller.
    let bytes = unsafe { std::slice::from_raw_parts(raw.data.cast::<u8>(), raw.length) };
    std::str::from_utf8(bytes).unwrap_or_default()
}

fn result(ok: bool) -> MlirLogicalResult {
    MlirLogicalResult { value: i8::from(ok) }
}

unsafe extern "C" fn create(user_data: *mut c_void) -> *mut c_void {
    // SAFETY: `user_data` is the `&'static PassInfo` given at registration.
    let info = unsafe { &*(user_data as *const PassInfo) };
    Box::into_raw(Box::new((info.create)())) as *mut c_void
}

unsafe extern "C" fn destroy(state: *mut c_void) {
    // SAFETY: `state` came from `create` and is destroyed exactly once.
    drop(unsafe { Box::from_raw(state as *mut Box<dyn DistPass>) });
}

unsafe extern "C" fn set_option(
    state: *mut c_void,
    name: MlirStringRef,
    value: MlirStringRef,
    emit: MlirStringCallback,
    emit_data: *mut c_void,
) -> MlirLogicalResult {
    // SAFETY: `state` is a live instance; the strings are valid for the call.
    let (pass, name, value) = unsafe { (&mut *(state as *mut Box<dyn DistPass>), text(name), text(value)) };
    let outcome = catch_unwind(AssertUnwindSafe(|| pass.set_option(name, value)))
        .unwrap_or_else(|_| Err(format!("internal error while setting option '{name}'")));
    match outcome {
        Ok(()) => result(true),
        Err(message) => {
            if let Some(emit) = emit {
                // SAFETY: `emit` copies the bytes before returning.
                unsafe { emit(StringRef::new(&message).to_raw(), emit_data) };
            }
            result(false)
        }
    }
}

unsafe extern "C" fn run(state: *mut c_void, op: MlirOperation) -> MlirLogicalResult {
    // SAFETY: `state` is a live instance and `op` the op MLIR runs it on.
    let (pass, op) = unsafe { (&mut *(state as *mut Box<dyn DistPass>), OperationRef::from_raw(op)) };
    // A panic must not unwind into C++: report it on the op and fail.
    match catch_unwind(AssertUnwindSafe(|| pass.run(op))) {
        Ok(outcome) => result(outcome.is_ok()),
        Err(_) => {
            emit_error(op, "internal error: the pass panicked");
            result(false)
        }
    }
}

/// Emits an error diagnostic at `op`'s location.
pub fn emit_error(op: OperationRef<'_, '_>, message: &str) {
    emit_diagnostic(op.location(), Severity::Error, message);
}

/// Registers one pass with MLIR's global registry.
pub fn register(info: &'static PassInfo) {
    let options: Vec<ffi::DistRustPassOption> = info
        .options
        .iter()
        .map(|o| ffi::DistRustPassOption {
            name: StringRef::new(o.name).to_raw(),
            description: StringRef::new(o.description).to_raw(),
            default_value: StringRef::new(o.default).to_raw(),
        })
        .collect();
    let callbacks = ffi::DistRustPassCallbacks {
        create,
        destroy,
        set_option,
        run,
    };
    let dialects: Vec<_> = info.dialects.iter().map(|d| StringRef::new(d).to_raw()).collect();
    // SAFETY: the shim copies every string before returning; `info` is
    // 'static, so the user data outlives every instance.
    unsafe {
        ffi::distRegisterRustPass(
            StringRef::new(info.argument).to_raw(),
            StringRef::new(info.summary).to_raw(),
            StringRef::new(info.anchor).to_raw(),
            options.len() as isize,
            options.as_ptr(),
            dialects.len() as isize,
            dialects.as_ptr(),
            callbacks,
            info as *const PassInfo as *mut c_void,
        )
    }
}

/// Registers MLIR's own passes and every pass in [`crate::PASSES`], once.
pub fn register_all() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // SAFETY: registering upstream passes has no preconditions.
        unsafe { mlir_sys::mlirRegisterAllPasses() };
        crate::PASSES.iter().for_each(register);
        // SAFETY: registers C++ passes; no preconditions.
        unsafe { ffi::distRegisterCppPasses() };
        for pipeline in crate::PIPELINES {
            // SAFETY: the shim copies the strings.
            unsafe {
                ffi::distRegisterPassPipeline(
                    StringRef::new(pipeline.argument).to_raw(),
                    StringRef::new(pipeline.summary).to_raw(),
                    StringRef::new(pipeline.pipeline).to_raw(),
                )
            };
        }
    });
}

/// A named pipeline of registered passes.
#[derive(Debug, Clone, Copy)]
pub struct PipelineInfo {
    pub argument: &'static str,
    pub summary: &'static str,
    /// The passes, as `--pass-pipeline` spells them inside `builtin.module(...)`.
    pub pipeline: &'static str,
}
