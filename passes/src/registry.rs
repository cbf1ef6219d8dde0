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
    /// The values it takes, when it takes one of a few words; the registry
    /// refuses any other before the pass sees it. Empty: the pass parses
    /// the value.
    pub choices: &'static [&'static str],
}

impl OptionInfo {
    /// Why `value` is not one of the choices, if it is not.
    pub fn check_choice(&self, value: &str) -> Result<(), String> {
        if self.choices.is_empty() || self.choices.contains(&value) {
            return Ok(());
        }
        let list = match self.choices.split_last() {
            Some((last, [])) => (*last).to_owned(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
            None => String::new(),
        };
        Err(format!("{} must be {list}, not '{value}'", self.name))
    }
}

/// What MLIR needs to know of a pass, and how to make an instance.
#[derive(Debug, Clone, Copy)]
pub struct PassInfo {
    /// The pipeline name, e.g. `dist-propagate-sharding`.
    pub argument: &'static str,
    /// One line for `--help`.
    pub summary: &'static str,
    /// What the pass does, its preconditions and a before/after example, in
    /// Markdown (`dist-opt --help-passes`, docs/passes.md).
    pub description: &'static str,
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
    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), crate::error::PassError>;
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

/// What MLIR holds for one pass instance.
struct Instance {
    info: &'static PassInfo,
    pass: Box<dyn DistPass>,
}

impl Instance {
    /// Checks a declared choice, then hands the value to the pass.
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        if let Some(option) = self.info.options.iter().find(|o| o.name == name) {
            option.check_choice(value)?;
        }
        self.pass.set_option(name, value)
    }
}

unsafe extern "C" fn create(user_data: *mut c_void) -> *mut c_void {
    // SAFETY: `user_data` is the `&'static PassInfo` given at registration.
    let info = unsafe { &*(user_data as *const PassInfo) };
    Box::into_raw(Box::new(Instance {
        info,
        pass: (info.create)(),
    })) as *mut c_void
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
    let outcome = catch_unwind(AssertUnwindSafe(|| instance.set_option(name, value)))
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
        for pipeline in crate::PIPELINES {
            register_pipeline(pipeline.argument, pipeline.summary, &(pipeline.pipeline)());
            for alias in pipeline.aliases {
                register_pipeline(alias, &pipeline.alias_summary(), &(pipeline.pipeline)());
            }
        }
    });
}

fn register_pipeline(argument: &str, summary: &str, pipeline: &str) {
    // SAFETY: the shim copies the strings.
    unsafe {
        ffi::distRegisterPassPipeline(
            StringRef::new(argument).to_raw(),
            StringRef::new(summary).to_raw(),
            StringRef::new(pipeline).to_raw(),
        )
    };
}

/// A named pipeline of registered passes.
#[derive(Debug, Clone, Copy)]
pub struct PipelineInfo {
    pub argument: &'static str,
    /// Earlier names, still accepted (tests outside this repository use
    /// them).
    pub aliases: &'static [&'static str],
    pub summary: &'static str,
    /// The passes, as `--pass-pipeline` spells them inside `builtin.module(...)`.
    pub pipeline: fn() -> String,
}

impl PipelineInfo {
    /// The `--help` line of an alias.
    pub fn alias_summary(&self) -> String {
        format!("Alias of --{}", self.argument)
    }
}

#[cfg(test)]
mod tests {
    use super::OptionInfo;

    #[test]
    fn a_declared_choice_is_checked_and_named_in_the_error() {
        let option = OptionInfo {
            name: "direction",
            description: "",
            default: "both",
            choices: &["both", "forward", "backward"],
        };
        assert!(option.check_choice("forward").is_ok());
        assert_eq!(
            option.check_choice("sideways").unwrap_err(),
            "direction must be both, forward or backward, not 'sideways'"
        );
        let two = OptionInfo {
            choices: &["comm", "all"],
            ..option
        };
        assert_eq!(
            two.check_choice("some").unwrap_err(),
            "direction must be comm or all, not 'some'"
        );
        let free = OptionInfo { choices: &[], ..option };
        assert!(free.check_choice("anything").is_ok());
    }
}
