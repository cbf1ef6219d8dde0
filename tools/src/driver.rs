//! Runs dist-opt on a parsed command line.

use crate::cli::Options;
use crate::diagnostics::{Diag, Severity};
use crate::split::{MARKER, split};
use crate::{Error, verify};
use dist_dialect::ir::{context_with_all_dialects, parse_module, pass};
use melior::Context;
use melior::ir::operation::OperationPrintingFlags;
use melior::pass::{PassIrPrintingOptions, PassManager};
use std::cell::RefCell;
use std::io::{Read, Write};
use std::path::PathBuf;
use std::rc::Rc;

pub fn new_context(options: &Options) -> Context {
    let context = context_with_all_dialects();
    context.set_allow_unregistered_dialects(options.allow_unregistered_dialect);
    if options.disable_threading {
        context.enable_multi_threading(false);
    }
    // Off unless asked, and always under -verify-diagnostics (as mlir-opt:
    // expected-* comments do not spell out the printed op).
    pass::set_print_op_on_diagnostic(&context, options.print_op_on_diagnostic && !options.verify_diagnostics);
    context
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
    /// The printed module, or `None` if parsing or a pass failed.
    output: Option<Vec<u8>>,
    diagnostics: Vec<Diag>,
}

/// Builds the pass manager for the command line, once for all chunks.
fn pass_manager<'c>(context: &'c Context, options: &Options) -> Result<PassManager<'c>, String> {
    let pm = pass::module_pass_manager(context);
    let added = match &options.pass_pipeline {
        Some(pipeline) => pass::add_pipeline(&pm, pipeline),
        None => options.pass_flags.iter().try_for_each(|flag| {
            let (name, pass_options) = match flag.split_once('{') {
                Some((name, rest)) => (name, rest.strip_suffix('}').unwrap_or(rest)),
                None => (flag.as_str(), ""),
            };
            pass::add_pass_flag(&pm, name, pass_options)
        }),
    };
    if let Err(error) = added {
        let error = error.to_string();
        let error = error.trim();
        return Err(if error.is_empty() {
            "invalid pass pipeline".into()
        } else {
            with_suggestion(error.replace('\n', " "))
        });
    }
    if options.print_ir_after_all || options.print_ir_before_all {
        pm.enable_ir_printing(&PassIrPrintingOptions {
            before_all: options.print_ir_before_all,
            after_all: options.print_ir_after_all,
            module_scope: options.print_ir_module_scope,
            on_change: false,
            on_failure: false,
            flags: OperationPrintingFlags::new(),
            tree_printing_path: PathBuf::new(),
        });
    }
    if options.timing {
        pass::enable_timing(&pm);
    }
    if options.dump_pass_pipeline {
        eprintln!("{}", pass::pipeline_text(&pm));
    }
    Ok(pm)
}

fn process_chunk(
    context: &Context,
    options: &Options,
    pm: Option<&PassManager>,
    filename: &str,
    text: &str,
    sink: &RefCell<Vec<Diag>>,
) -> ChunkResult {
    let finish = |output| ChunkResult {
        output,
        diagnostics: sink.take(),
    };
    let Some(mut module) = parse_module(context, text, filename) else {
        return finish(None);
    };
    if let Some(pm) = pm
        && pm.run(&mut module).is_err()
    {
        return finish(None);
    }
    if options.emit != crate::codegen::Emit::Mlir {
        return match crate::codegen::emit(
            &module,
            options.emit,
            options.opt_level,
            &options.mcpu,
            crate::codegen::Subnormals::Ieee,
        ) {
            Ok(bytes) => finish(Some(bytes)),
            Err(e) => {
                sink.borrow_mut().push(Diag::tool_error(filename, &e.to_string()));
                finish(None)
            }
        };
    }
    let flags = pass::PrintFlags {
        generic: options.print_op_generic,
        name_loc_as_prefix: options.name_loc_as_prefix,
    };
    let mut printed = pass::print_op(&module.as_operation(), flags);
    printed.push('\n');
    finish(Some(printed.into_bytes()))
}

/// Runs the whole command line; `Ok(false)` means errors were reported on
/// stderr and the exit code must be non-zero.
pub fn run(options: &Options) -> Result<bool, Error> {
    dist_passes::register_all();
    let context = new_context(options);
    if options.show_dialects {
        println!("Available Dialects: {}", pass::available_dialects(&context).join(", "));
        return Ok(true);
    }
    let (filename, source) = read_input(&options.input)?;
    let run_passes = options.pass_pipeline.is_some() || !options.pass_flags.is_empty();
    let pm = run_passes
        .then(|| pass_manager(&context, options))
        .transpose()
        .map_err(Error::Pipeline)?;
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
        // A chunk is parsed at its place in the file (blank lines before
        // it), so that every location, in diagnostics and in what passes
        // print (the reports), is a line of the whole file, as mlir-opt's.
        let placed = format!("{}{}", "\n".repeat(chunk.first_line as usize - 1), chunk.text);
        let result = process_chunk(&context, options, pm.as_ref(), &filename, &placed, &collected);
        let messages: Vec<String> = if options.verify_diagnostics {
            match verify::expectations(chunk.text, chunk.first_line) {
                Ok(expected) => verify::check(&filename, &result.diagnostics, &expected),
                Err(bad) => vec![format!(
                    "{filename}:{}:{}: error: {}",
                    bad.line, bad.column, bad.message
                )],
            }
        } else {
            let has_error = result.diagnostics.iter().any(|d| d.severity == Severity::Error);
            let mut messages: Vec<String> = result.diagnostics.iter().map(Diag::to_string).collect();
            if result.output.is_none() && !has_error {
                // Parse errors always come with a diagnostic; a pass may fail silently.
                messages.push(format!("{filename}: error: pass pipeline failed"));
            }
            ok &= result.output.is_some() && !has_error;
            messages
        };
        if options.verify_diagnostics && !messages.is_empty() {
            ok = false;
        }
        for m in messages {
            let _ = writeln!(stderr, "{m}");
        }
        outputs.push(result.output.unwrap_or_default());
    }
    // Text joins chunk by chunk; binary output is one module.
    if matches!(
        options.emit,
        crate::codegen::Emit::LlvmIr | crate::codegen::Emit::Object
    ) && outputs.len() > 1
    {
        return Err(Error::Usage(
            "--emit=llvm|obj writes one module: drop --split-input-file".into(),
        ));
    }
    write_output(&options.output, &outputs.join(format!("{MARKER}\n").as_bytes()))?;
    Ok(ok)
}

fn write_output(path: &str, text: &[u8]) -> Result<(), Error> {
    let result = if path == "-" {
        let mut out = std::io::stdout().lock();
        out.write_all(text).and_then(|_| out.flush())
    } else {
        std::fs::write(path, text)
    };
    result.map_err(|source| Error::Output {
        path: path.to_owned(),
        source,
    })
}

/// `--help`: our flags, then every registered pass with its options. A
/// reader that stops early (`| head`) ends the output, not the process with
/// a panic.
pub fn print_help() {
    dist_passes::register_all();
    let mut out = std::io::stdout().lock();
    if out
        .write_all(crate::cli::usage().as_bytes())
        .and_then(|_| out.flush())
        .is_err()
    {
        return;
    }
    pass::print_registered_passes();
    let mut pipelines = String::from("Pass Pipelines:\n");
    for p in dist_passes::PIPELINES {
        pipelines.push_str(&format!("  --{:<48}-   {}\n", p.argument, p.summary));
        for alias in p.aliases {
            pipelines.push_str(&format!("  --{alias:<48}-   {}\n", p.alias_summary()));
        }
    }
    let _ = out.write_all(pipelines.as_bytes()).and_then(|_| out.flush());
}

/// `--help-passes`: the passes' and pipelines' reference (docs/passes.md).
pub fn print_pass_docs() {
    let mut out = std::io::stdout().lock();
    let _ = out
        .write_all(dist_passes::docs::markdown().as_bytes())
        .and_then(|_| out.flush());
}

pub fn is_registered_pass(name: &str) -> bool {
    dist_passes::register_all();
    pass::is_registered_pass(name)
}

/// Every registered pass and pipeline name, with the pipelines' aliases.
pub fn registered_pass_names() -> Vec<String> {
    dist_passes::register_all();
    pass::registered_pass_names()
}

/// MLIR's message for a pipeline naming an unknown pass, with the nearest
/// registered name when one is close; for an unknown option of a dist pass,
/// one line naming the pass's options instead.
fn with_suggestion(error: String) -> String {
    if let Some(line) = unknown_option(&error) {
        return line;
    }
    const UNKNOWN: &str = "' does not refer to a registered pass or pass pipeline";
    let Some(name) = error
        .split_once(UNKNOWN)
        .and_then(|(before, _)| before.rsplit_once('\'').map(|(_, name)| name.to_owned()))
    else {
        return error;
    };
    let names = registered_pass_names();
    match crate::cli::nearest(&name, names.iter().map(String::as_str)) {
        Some(nearest) => format!("{error}\ndist-opt: did you mean '{nearest}'?"),
        None => error,
    }
}

/// `'dist-propagate-sharding' has no option 'remark'; its options are
/// direction, remarks (did you mean 'remarks'?)` for MLIR's option parser's
/// message about a dist pass (`<Pass-Options-Parser>: no such option ...
/// failed to add `pass` with options ...`).
fn unknown_option(error: &str) -> Option<String> {
    const NO_SUCH: &str = "<Pass-Options-Parser>: no such option ";
    let (_, rest) = error.split_once(NO_SUCH)?;
    let option = rest.split_whitespace().next()?;
    let (_, added) = rest.split_once("failed to add `")?;
    let (pass, _) = added.split_once('`')?;
    let info = dist_passes::catalog::PASSES.iter().find(|p| p.argument == pass)?;
    let names: Vec<&str> = (info.options)().iter().map(|o| o.name).collect();
    let known = if names.is_empty() {
        "it takes none".to_owned()
    } else {
        format!("its options are {}", names.join(", "))
    };
    let hint = crate::cli::nearest(option, names.iter().copied())
        .map(|n| format!(" (did you mean '{n}'?)"))
        .unwrap_or_default();
    Some(format!("'{pass}' has no option '{option}'; {known}{hint}"))
}
