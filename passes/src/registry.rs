//! Registration of Rust passes with MLIR (through the C++ shim in
//! `dialect/lib/CAPI/RustPass.cpp`): each pass of [`crate::catalog`] and
//! each named pipeline of [`crate::pipelines`] under its name.
//!
//! MLIR owns option parsing: every option is declared here as a string with
//! a default, MLIR parses `pass{name=value}` and `--help` lists it, and the
//! pass instance receives each value through [`DistPass::set_option`].

use crate::pass::options::OptionError;
use crate::pass::{DistPass, PassInfo};
use dist_dialect::ffi;
use dist_dialect::ir::{Severity, emit_diagnostic};
use melior::StringRef;
use melior::ir::OperationRef;
use melior::ir::operation::OperationLike;
use mlir_sys::{MlirLogicalResult, MlirOperation, MlirStringCallback, MlirStringRef};
use std::ffi::c_void;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Once;

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

/// What MLIR holds for one pass instance.
struct Instance {
    pass: Box<dyn DistPass>,
}

impl Instance {
    /// Hands the value to the pass's options, which parse it by its type.
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        match self.pass.options() {
            Some(options) => options.set(name, value),
            None => Err(OptionError::Unknown(name.to_owned())),
        }
    }
}

unsafe extern "C" fn create(user_data: *mut c_void) -> *mut c_void {
    // SAFETY: `user_data` is the `&'static PassInfo` given at registration.
    let info = unsafe { &*(user_data as *const PassInfo) };
    Box::into_raw(Box::new(Instance { pass: (info.create)() })) as *mut c_void
}

unsafe extern "C" fn destroy(state: *mut c_void) {
    // SAFETY: `state` came from `create` and is destroyed exactly once.
    drop(unsafe { Box::from_raw(state as *mut Instance) });
}

unsafe extern "C" fn set_option(
    state: *mut c_void,
    name: MlirStringRef,
    value: MlirStringRef,
    emit: MlirStringCallback,
    emit_data: *mut c_void,
) -> MlirLogicalResult {
    // SAFETY: `state` is a live instance; the strings are valid for the call.
    let (instance, name, value) = unsafe { (&mut *(state as *mut Instance), text(name), text(value)) };
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        instance.set_option(name, value).map_err(|e| e.to_string())
    }))
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
    let (instance, op) = unsafe { (&mut *(state as *mut Instance), OperationRef::from_raw(op)) };
    // A panic must not unwind into C++: report it on the op and fail.
    match catch_unwind(AssertUnwindSafe(|| instance.pass.run(op))) {
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
    let declared = (info.options)();
    let options: Vec<ffi::DistRustPassOption> = declared
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

/// Registers MLIR's own passes and every dist pass and pipeline, once
/// (`dist-opt`).
pub fn register_all() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // SAFETY: registering upstream passes has no preconditions.
        unsafe { mlir_sys::mlirRegisterAllPasses() };
        register_dist();
    });
}

/// Registers every pass in [`crate::catalog::PASSES`], the C++ ones and the
/// named pipelines, once: what a host that registered MLIR's own passes
/// already (`mlir-opt` loading the plugin) adds.
pub fn register_dist() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        crate::catalog::PASSES.iter().for_each(register);
        // SAFETY: registers C++ passes; no preconditions.
        unsafe { ffi::distRegisterCppPasses() };
        for (index, pipeline) in crate::pass_pipelines::PIPELINES.iter().enumerate() {
            register_pipeline(pipeline.argument, pipeline.summary, index);
            for alias in pipeline.aliases {
                register_pipeline(alias, &pipeline.alias_summary(), index);
            }
        }
    });
}

fn register_pipeline(argument: &str, summary: &str, index: usize) {
    // SAFETY: the shim copies the strings; `build_pipeline` serves every
    // index of PIPELINES.
    unsafe {
        ffi::distRegisterPassPipeline(
            StringRef::new(argument).to_raw(),
            StringRef::new(summary).to_raw(),
            build_pipeline,
            index as isize,
        )
    };
}

/// Writes the passes of pipeline `index` for `options` (or why they are
/// wrong) through `append`, for the shim's registration.
///
/// # Safety
/// `options` is a valid string reference and `append` may be called with
/// `user_data`.
unsafe extern "C" fn build_pipeline(
    index: isize,
    options: MlirStringRef,
    append: MlirStringCallback,
    user_data: *mut c_void,
) -> bool {
    let pipeline = &crate::pass_pipelines::PIPELINES[index as usize];
    let bytes = if options.length == 0 {
        &[][..]
    } else {
        // SAFETY: guaranteed by the caller (`data` holds `length` bytes).
        unsafe { std::slice::from_raw_parts(options.data.cast::<u8>(), options.length) }
    };
    let built = match std::str::from_utf8(bytes) {
        Ok(text) => (pipeline.pipeline)(text).map_err(|e| format!("{}: {e}", pipeline.argument)),
        Err(_) => Err(format!("{}: options that are not UTF-8", pipeline.argument)),
    };
    let (ok, text) = match built {
        Ok(text) => (true, text),
        Err(text) => (false, text),
    };
    if let Some(append) = append {
        // SAFETY: the callback copies the text before it returns.
        unsafe { append(StringRef::new(&text).to_raw(), user_data) };
    }
    ok
}
