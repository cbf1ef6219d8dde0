//! Pass managers and pipelines as the drivers build them, the registry's
//! contents, and printing a module: what `dist-opt` and `dist-run` need
//! beyond melior.

use super::append_to_string;
use crate::ffi;
use melior::pass::PassManager;
use melior::{Context, StringRef};
use mlir_sys::{MlirLogicalResult, MlirStringCallback, MlirStringRef};
use std::ffi::c_void;
use thiserror::Error;

/// A pass manager on `builtin.module` that nests op-specific passes
/// implicitly, as mlir-opt's (anchored on the op every input parses to).
pub fn module_pass_manager(context: &Context) -> PassManager<'_> {
    // SAFETY: `context` is live; the raw pass manager is owned by the
    // returned `PassManager`, which destroys it and cannot outlive `context`.
    unsafe {
        let raw =
            mlir_sys::mlirPassManagerCreateOnOperation(context.to_raw(), StringRef::new("builtin.module").to_raw());
        ffi::distPassManagerEnableImplicitNesting(raw);
        PassManager::from_raw(raw)
    }
}

/// Why a pipeline could not be added or run.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PipelineError {
    /// The pipeline's text names no such pass, or its options are wrong:
    /// MLIR's message (empty where MLIR gave none).
    #[error("{0}")]
    Invalid(String),
    /// A pass of it failed, and said why on the IR.
    #[error("a pass failed")]
    PassFailed,
}

/// Runs `add` with a sink for MLIR's error text; the text on failure.
fn with_errors(add: impl FnOnce(*mut c_void) -> MlirLogicalResult) -> Result<(), PipelineError> {
    let mut error = String::new();
    let result = add(&mut error as *mut String as *mut c_void);
    if result.value == 0 {
        Err(PipelineError::Invalid(error))
    } else {
        Ok(())
    }
}

/// Adds the textual pipeline `pipeline` to `pm`; the parser's message on
/// failure.
pub fn add_pipeline(pm: &PassManager<'_>, pipeline: &str) -> Result<(), PipelineError> {
    let opm = pm.as_operation_pass_manager().to_raw();
    with_errors(|sink| {
        // SAFETY: `opm` belongs to `pm`; the string and the sink outlive the
        // call.
        unsafe { mlir_sys::mlirParsePassPipeline(opm, StringRef::new(pipeline).to_raw(), Some(append_to_string), sink) }
    })
}

/// Adds the registered pass or pipeline `name` with its `options` text, as
/// a `--name="options"` flag does; MLIR's message on failure.
pub fn add_pass_flag(pm: &PassManager<'_>, name: &str, options: &str) -> Result<(), PipelineError> {
    let opm = pm.as_operation_pass_manager().to_raw();
    with_errors(|sink| {
        // SAFETY: as in `add_pipeline`.
        unsafe {
            ffi::distOpPassManagerAddPassFlag(
                opm,
                StringRef::new(name).to_raw(),
                StringRef::new(options).to_raw(),
                Some(append_to_string),
                sink,
            )
        }
    })
}

/// Runs `pipeline` (the passes inside `op`'s name, as `--pass-pipeline`
/// spells them) on `op`, from inside a Rust pass that runs on `op` or on
/// an op that holds it (MLIR's dynamic pipelines).
pub fn run_nested_pipeline(op: &melior::ir::OperationRef<'_, '_>, pipeline: &str) -> Result<(), PipelineError> {
    let ran = with_errors(|sink| {
        // SAFETY: `op` is live; the callback appends to the sink that
        // `with_errors` owns for the call.
        unsafe {
            ffi::distRunNestedPipeline(
                op.to_raw(),
                StringRef::new(pipeline).to_raw(),
                Some(append_to_string),
                sink,
            )
        }
    });
    // MLIR says nothing of a pass that failed: it said why on the IR.
    match ran {
        Err(PipelineError::Invalid(message)) if message.is_empty() => Err(PipelineError::PassFailed),
        ran => ran,
    }
}

/// `pm`'s passes as one textual pipeline (`builtin.module(...)`), the form
/// `--pass-pipeline` takes.
pub fn pipeline_text(pm: &PassManager<'_>) -> String {
    let mut text = String::new();
    // SAFETY: `pm` is live; the callback appends to `text`, which outlives
    // the call.
    unsafe {
        mlir_sys::mlirPrintPassPipeline(
            pm.as_operation_pass_manager().to_raw(),
            Some(append_to_string),
            &mut text as *mut String as *mut c_void,
        )
    };
    text
}

/// Reports each pass's time after a run (`--mlir-timing`).
pub fn enable_timing(pm: &PassManager<'_>) {
    // SAFETY: `pm` is live.
    unsafe { mlir_sys::mlirPassManagerEnableTiming(pm.to_raw()) }
}

/// Whether a diagnostic prints the op it is attached to (mlir-opt turns it
/// off under `-verify-diagnostics`).
pub fn set_print_op_on_diagnostic(context: &Context, enable: bool) {
    // SAFETY: `context` is live.
    unsafe { ffi::distContextSetPrintOpOnDiagnostic(context.to_raw(), enable) }
}

/// The strings a C API enumeration hands its callback, one per call.
fn collect_strings(enumerate: impl FnOnce(MlirStringCallback, *mut c_void)) -> Vec<String> {
    /// # Safety
    /// `data` must be the `Vec<String>` below and `item` a valid string.
    unsafe extern "C" fn push(item: MlirStringRef, data: *mut c_void) {
        // SAFETY: `data` is the vector below, alive and not otherwise
        // borrowed during the enumeration; `item` is a valid string.
        let (items, item) = unsafe { (&mut *(data as *mut Vec<String>), StringRef::from_raw(item)) };
        items.push(item.as_str().unwrap_or("<invalid utf-8>").to_owned());
    }
    let mut items: Vec<String> = Vec::new();
    enumerate(Some(push), &mut items as *mut Vec<String> as *mut c_void);
    items
}

/// Names of every dialect registered in `context`, sorted.
pub fn available_dialects(context: &Context) -> Vec<String> {
    // SAFETY: the callback's data is alive for the call.
    collect_strings(|push, data| unsafe { ffi::distContextForEachAvailableDialect(context.to_raw(), push, data) })
}

/// Whether `name` is a registered pass or pass pipeline.
pub fn is_registered_pass(name: &str) -> bool {
    // SAFETY: the string outlives the call.
    unsafe { ffi::distIsRegisteredPass(StringRef::new(name).to_raw()) }
}

/// The names of every registered pass and pass pipeline, sorted (those
/// registered by the first call).
pub fn registered_pass_names() -> Vec<String> {
    // SAFETY: the callback's data is alive for the call.
    let mut names = collect_strings(|push, data| unsafe { ffi::distForEachRegisteredPassName(push, data) });
    names.sort();
    names
}

/// Prints every registered pass and its options to stdout, as mlir-opt's
/// `--help` lists them.
pub fn print_registered_passes() {
    // SAFETY: prints to stdout; no preconditions.
    unsafe { ffi::distPrintRegisteredPasses() }
}

/// How [`print_op`] prints, as mlir-opt's `--mlir-print-op-generic` and
/// `--mlir-use-nameloc-as-prefix` ask.
#[derive(Debug, Clone, Copy, Default)]
pub struct PrintFlags {
    /// The generic op form.
    pub generic: bool,
    /// SSA names from name locations (`loc("ids")` prints `%ids`).
    pub name_loc_as_prefix: bool,
}

/// `op` printed in full (the module scope), as `flags` ask.
pub fn print_op(op: &melior::ir::OperationRef<'_, '_>, print: PrintFlags) -> String {
    let mut printed = String::new();
    // SAFETY: the flags are destroyed after use; `printed` outlives the call.
    unsafe {
        let flags = mlir_sys::mlirOpPrintingFlagsCreate();
        if print.generic {
            mlir_sys::mlirOpPrintingFlagsPrintGenericOpForm(flags);
        }
        if print.name_loc_as_prefix {
            mlir_sys::mlirOpPrintingFlagsPrintNameLocAsPrefix(flags);
        }
        mlir_sys::mlirOperationPrintWithFlags(
            op.to_raw(),
            flags,
            Some(append_to_string),
            &mut printed as *mut String as *mut c_void,
        );
        mlir_sys::mlirOpPrintingFlagsDestroy(flags);
    }
    printed
}

/// Runs `run` with every diagnostic emitted on `context` meanwhile held
/// back from the context's other handlers (the driver's printer,
/// `-verify-diagnostics`); returns its result and the errors' messages, in
/// order. A trial compilation that fails (a plan a search rejects) is then
/// a finding, not an error of the program. The handler is detached however
/// `run` ends, a panic included.
pub fn capture_errors<R>(context: &Context, run: impl FnOnce() -> R) -> (R, Vec<String>) {
    /// Detaches the handler when dropped.
    struct Attached<'c> {
        context: &'c Context,
        handler: Option<melior::diagnostic::DiagnosticHandlerId>,
    }
    impl Drop for Attached<'_> {
        fn drop(&mut self) {
            if let Some(handler) = self.handler.take() {
                self.context.detach_diagnostic_handler(handler);
            }
        }
    }
    let errors = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let sink = errors.clone();
    let attached = Attached {
        context,
        handler: Some(context.attach_diagnostic_handler(move |diagnostic| {
            if matches!(diagnostic.severity(), melior::diagnostic::DiagnosticSeverity::Error) {
                sink.borrow_mut().push(diagnostic.to_string());
            }
            true
        })),
    };
    let result = run();
    drop(attached);
    let errors = errors.borrow().clone();
    (result, errors)
}
