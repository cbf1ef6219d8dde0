//! Runs dist-opt on a parsed command line.

use crate::cli::Options;
use crate::diagnostics::{Diag, Severity};
use crate::split::{MARKER, split};
use crate::{Error, verify};
use dist_dialect::ffi;
use dist_dialect::ir::{context_with_all_dialects, parse_module};
use melior::{Context, StringRef};
use mlir_sys::MlirStringRef;
use std::cell::RefCell;
use std::ffi::c_void;
use std::io::{Read, Write};
use std::rc::Rc;

/// Appends C API string chunks to a `String`.
unsafe extern "C" fn append(chunk: MlirStringRef, data: *mut c_void) {
    // SAFETY: `data` is the `String` the caller passed; `chunk` is valid.
    let (out, chunk) = unsafe { (&mut *(data as *mut String), StringRef::from_raw(chunk)) };
    out.push_str(chunk.as_str().unwrap_or("<invalid utf-8>"));
}

pub fn new_context(options: &Options) -> Context {
    let context = context_with_all_dialects();
    context.set_allow_unregistered_dialects(options.allow_unregistered_dialect);
    // As mlir-opt: expected-* comments do not spell out the printed op.
    // SAFETY: `context` is live.
    unsafe { ffi::distContextSetPrintOpOnDiagnostic(context.to_raw(), !options.verify_diagnostics) };
    context
}

/// Names of every registered dialect, sorted.
pub fn dialect_names(context: &Context) -> Vec<String> {
    let mut joined = String::new();
    unsafe extern "C" fn push(name: MlirStringRef, data: *mut c_void) {
        // SAFETY: as in `append`; names are separated by newlines.
        unsafe {
            append(name, data);
            (*(data as *mut String)).push('\n');
        }
    }
    // SAFETY: the callback writes into `joined`, alive for the call.
    unsafe {
        ffi::distContextForEachAvailableDialect(context.to_raw(), Some(push), &mut joined as *mut String as *mut c_void)
    };
    joined.lines().map(str::to_owned).collect()
}

fn read_input(path: &str) -> Result<(String, String), Error> {
    let mut text = String::new();
    let result = if path == "-" {
        std::io::stdin().read_to_string(&mut text).map(|_| ())
    } else {
        std::fs::read_to_string(path).map(|t| text = t)
    };
    result.map_err(|source| Error::Input {
        path: path.to_owned(),
        source,
    })?;
    let name = if path == "-" { "<stdin>" } else { path };
    Ok((name.to_owned(), text))
}

/// The outcome of one chunk.
struct ChunkResult {
    output: Option<String>,
    diagnostics: Vec<Diag>,
    /// A failure not reported by any diagnostic (e.g. a bad pipeline).
    failure: Option<String>,
}

/// Builds the pass manager for the command line.
///
/// # Safety
/// `context` must outlive the returned pass manager.
unsafe fn pass_manager(context: &Context, options: &Options) -> Result<mlir_sys::MlirPassManager, String> {
    // SAFETY: (all calls) `context` is live; `pm` is destroyed by the caller.
    unsafe {
        let pm = mlir_sys::mlirPassManagerCreate(context.to_raw());
        ffi::distPassManagerEnableImplicitNesting(pm);
        let opm = mlir_sys::mlirPassManagerGetAsOpPassManager(pm);
        let mut error = String::new();
        let sink = &mut error as *mut String as *mut c_void;
        let parsed = match &options.pass_pipeline {
            Some(pipeline) => {
                mlir_sys::mlirParsePassPipeline(opm, StringRef::new(pipeline).to_raw(), Some(append), sink)
            }
            None => {
                let elements = options.pass_flags.join(",");
                mlir_sys::mlirOpPassManagerAddPipeline(opm, StringRef::new(&elements).to_raw(), Some(append), sink)
            }
        };
        if parsed.value == 0 {
            mlir_sys::mlirPassManagerDestroy(pm);
            let error = error.trim();
            return Err(if error.is_empty() {
                "invalid pass pipeline".into()
            } else {
                error.replace('\n', " ")
            });
        }
        if options.print_ir_after_all || options.print_ir_before_all {
            let flags = mlir_sys::mlirOpPrintingFlagsCreate();
            mlir_sys::mlirPassManagerEnableIRPrinting(
                pm,
                options.print_ir_before_all,
                options.print_ir_after_all,
                false,
                false,
                false,
                flags,
                StringRef::new("").to_raw(),
            );
            mlir_sys::mlirOpPrintingFlagsDestroy(flags);
        }
        if options.timing {
            mlir_sys::mlirPassManagerEnableTiming(pm);
        }
        Ok(pm)
    }
}

fn process_chunk(
    context: &Context,
    options: &Options,
    filename: &str,
    text: &str,
    sink: &RefCell<Vec<Diag>>,
) -> ChunkResult {
    let finish = |output, failure| ChunkResult {
        output,
        diagnostics: sink.take(),
        failure,
    };
    let Some(module) = parse_module(context, text, filename) else {
        return finish(None, None);
    };
    let run_passes = options.pass_pipeline.is_some() || !options.pass_flags.is_empty();
    if run_passes {
        // SAFETY: `context` outlives `pm`, which is destroyed here; the
        // module op is live.
        let failure = unsafe {
            match pass_manager(context, options) {
                Err(message) => Some(message),
                Ok(pm) => {
                    let ok = mlir_sys::mlirPassManagerRunOnOp(pm, module.as_operation().to_raw()).value != 0;
                    mlir_sys::mlirPassManagerDestroy(pm);
                    (!ok).then(|| "pass pipeline failed".to_owned())
                }
            }
        };
        if failure.is_some() {
            return finish(None, failure);
        }
    }
    let mut printed = String::new();
    // SAFETY: the flags are destroyed after use; `printed` outlives the call.
    unsafe {
        let flags = mlir_sys::mlirOpPrintingFlagsCreate();
        if options.print_op_generic {
            mlir_sys::mlirOpPrintingFlagsPrintGenericOpForm(flags);
        }
        mlir_sys::mlirOperationPrintWithFlags(
            module.as_operation().to_raw(),
            flags,
            Some(append),
            &mut printed as *mut String as *mut c_void,
        );
        mlir_sys::mlirOpPrintingFlagsDestroy(flags);
    }
    printed.push('\n');
    finish(Some(printed), None)
}

/// Runs the whole command line; `Ok(false)` means errors were reported on
/// stderr and the exit code must be non-zero.
pub fn run(options: &Options) -> Result<bool, Error> {
    dist_passes::register_all();
    let context = new_context(options);
    if options.show_dialects {
        println!("Available Dialects: {}", dialect_names(&context).join(", "));
        return Ok(true);
    }
    let (filename, source) = read_input(&options.input)?;
    let collected = Rc::new(RefCell::new(Vec::new()));
    let sink = collected.clone();
    context.attach_diagnostic_handler(move |diagnostic| {
        sink.borrow_mut().push(Diag::from_mlir(&diagnostic));
        true
    });
    let mut outputs = Vec::new();
    let mut ok = true;
    let mut stderr = std::io::stderr().lock();
    for chunk in split(&source, options.split_input_file) {
        let result = process_chunk(&context, options, &filename, chunk.text, &collected);
        let offset = chunk.first_line - 1;
        let mut messages: Vec<String> = Vec::new();
        if options.verify_diagnostics {
            match verify::expectations(chunk.text) {
                Ok(expected) => messages.extend(verify::check(&filename, &result.diagnostics, &expected)),
                Err(bad) => messages.push(format!(
                    "{filename}:{}:{}: error: {}",
                    bad.line, bad.column, bad.message
                )),
            }
            // Line numbers in messages are chunk-relative; report whole-file ones.
            messages = messages
                .into_iter()
                .map(|m| shift_message(&m, &filename, offset))
                .collect();
            if let Some(failure) = &result.failure
                && !result.diagnostics.iter().any(|d| d.severity == Severity::Error)
            {
                messages.push(format!("{filename}: error: {failure}"));
            }
        } else {
            for mut d in result.diagnostics {
                d.shift_lines(offset);
                if d.severity == Severity::Error {
                    ok = false;
                }
                messages.push(d.to_string());
            }
            if result.output.is_none() {
                ok = false;
                if let Some(failure) = result.failure.filter(|_| messages.is_empty()) {
                    messages.push(format!("{filename}: error: {failure}"));
                }
            }
        }
        if options.verify_diagnostics && !messages.is_empty() {
            ok = false;
        }
        for m in messages {
            let _ = writeln!(stderr, "{m}");
        }
        outputs.push(result.output.unwrap_or_default());
    }
    write_output(&options.output, &outputs.join(&format!("{MARKER}\n")))?;
    Ok(ok)
}

/// Rewrites `file:LINE:` prefixes of a message by `offset` lines.
fn shift_message(message: &str, file: &str, offset: u32) -> String {
    let prefix = format!("{file}:");
    message
        .lines()
        .map(
            |line| match line.strip_prefix(&prefix).and_then(|rest| rest.split_once(':')) {
                Some((n, rest)) if n.parse::<u32>().is_ok() => {
                    format!("{prefix}{}:{rest}", n.parse::<u32>().unwrap() + offset)
                }
                _ => line.to_owned(),
            },
        )
        .collect::<Vec<_>>()
        .join("\n")
}

fn write_output(path: &str, text: &str) -> Result<(), Error> {
    let result = if path == "-" {
        let mut out = std::io::stdout().lock();
        out.write_all(text.as_bytes()).and_then(|_| out.flush())
    } else {
        std::fs::write(path, text)
    };
    result.map_err(|source| Error::Output {
        path: path.to_owned(),
        source,
    })
}

/// `--help`: our flags, then every registered pass with its options.
pub fn print_help() {
    dist_passes::register_all();
    print!("{}", crate::cli::usage());
    let _ = std::io::stdout().flush();
    // SAFETY: prints to stdout; no preconditions.
    unsafe { ffi::distPrintRegisteredPasses() };
}

pub fn is_registered_pass(name: &str) -> bool {
    dist_passes::register_all();
    // SAFETY: the string outlives the call.
    unsafe { ffi::distIsRegisteredPass(StringRef::new(name).to_raw()) }
}
