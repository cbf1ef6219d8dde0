//! `dist-run`: compiles a training step for N devices, links it with the
//! runtime, runs it under `mpiexec` and writes every result as a global
//! `.npy`.
//!
//! With `-n 1` the global program runs as it is (the reference); with more
//! the step is propagated, resolved and partitioned for its mesh (which
//! must have N devices). A generated `main` reads each input as a global
//! array, takes the device's shard (`dist.all_slice`), calls the step,
//! completes each result (an `all_reduce` for a partial one, `all_gather`s
//! for split dims) and writes it from rank 0. Then everything is lowered
//! (`dist-lower-to-cpu`), compiled to an object with LLVM at -O2/-O3 and
//! linked with `libdist_runtime.so`.

use crate::Error;
use crate::codegen::{Emit, emit};
use crate::diagnostics::Diag;
use dist_dialect::Sharding;
use dist_dialect::ir::{FunctionOpRef, context_with_all_dialects, element_type, parse_module, static_tensor_shape};
use melior::ir::Module;
use melior::ir::operation::OperationLike;
use melior::pass::PassManager;
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::rc::Rc;

/// What to run.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    pub program: String,
    pub entry: String,
    pub processes: usize,
    /// Input files by argument name.
    pub inputs: Vec<(String, String)>,
    /// Where arguments without an explicit input are read from
    /// (`<dir>/<name>.npy`).
    pub input_dir: Option<String>,
    pub out: String,
    /// Split matmul gradients and overlap collectives.
    pub overlap: bool,
    /// Coalesce gradient all-reduces into buckets of this many MiB.
    pub bucket_mib: Option<String>,
    pub opt_level: u8,
    /// Print how long compiling and running took (stderr).
    pub timing: bool,
    /// Also keep the linked executable here.
    pub keep_exe: Option<String>,
    /// Run on GPUs (PTX kernels, NCCL collectives).
    pub gpu: bool,
    /// The GPU architecture (default sm_90).
    pub chip: Option<String>,
    /// The CPU to compile for (`native` by default: the program runs here).
    pub mcpu: String,
    /// Calls of the step (all timed, the last one's results written).
    pub repeat: usize,
    /// The MPI launcher (with arguments of its own), instead of
    /// `DIST_MPIEXEC` or `mpiexec`.
    pub mpiexec: Option<String>,
}

/// A value of the step's signature: its type and, sharded, what it is a
/// shard of.
struct Port {
    shape: Vec<i64>,
    element: String,
    sharding: Option<Sharding>,
}

use dist_dialect::ir::tensor_type_text as tensor;

fn ports(function: FunctionOpRef<'_, '_>, arguments: bool) -> Result<Vec<Port>, Error> {
    let operation = function.operation();
    // SAFETY: reads the function type of a live function op.
    let types: Vec<melior::ir::Type<'_>> = unsafe {
        let attr = mlir_sys::mlirOperationGetAttributeByName(
            operation.to_raw(),
            melior::StringRef::new("function_type").to_raw(),
        );
        let fty = mlir_sys::mlirTypeAttrGetValue(attr);
        let n = if arguments {
            mlir_sys::mlirFunctionTypeGetNumInputs(fty)
        } else {
            mlir_sys::mlirFunctionTypeGetNumResults(fty)
        };
        (0..n)
            .map(|i| {
                melior::ir::Type::from_raw(if arguments {
                    mlir_sys::mlirFunctionTypeGetInput(fty, i)
                } else {
                    mlir_sys::mlirFunctionTypeGetResult(fty, i)
                })
            })
            .collect()
    };
    types
        .iter()
        .enumerate()
        .map(|(i, &ty)| {
            let shape = static_tensor_shape(ty)
                .ok_or_else(|| Error::Usage("every argument and result of the step must be a static tensor".into()))?;
            let attribute = if arguments {
                function.argument_attribute(i, dist_dialect::ops::attr::LOCAL)
            } else {
                function.result_attribute(i, dist_dialect::ops::attr::LOCAL)
            };
            Ok(Port {
                shape,
                element: element_type(ty).to_string(),
                sharding: attribute.and_then(dist_dialect::ir::sharding_of),
            })
        })
        .collect()
}

fn find_function<'c, 'a>(module: &'a Module<'c>, name: &str) -> Option<FunctionOpRef<'c, 'a>> {
    let mut next = module.body().first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if let Ok(f) = FunctionOpRef::try_from(op)
            && dist_dialect::ir::symbol_name(&op) == name
        {
            return Some(f);
        }
    }
    None
}

use melior::ir::BlockLike;

/// The argument names of `entry` as the source spells them.
fn argument_names(source: &str, entry: &str) -> Vec<String> {
    let Some(start) = source.find(&format!("func.func @{entry}(")) else {
        return Vec::new();
    };
    let text = &source[start + entry.len() + 12..];
    let mut names = Vec::new();
    let (mut depth, mut at_start) = (0i32, true);
    let chars = text.char_indices();
    for (i, c) in chars {
        match c {
            '(' | '<' | '{' | '[' => depth += 1,
            ')' if depth == 0 => break,
            ')' | '>' | '}' | ']' => depth -= 1,
            ',' if depth == 0 => at_start = true,
            '%' if depth == 0 && at_start => {
                let name: String = text[i + 1..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '.' || *c == '$')
                    .collect();
                names.push(name);
                at_start = false;
            }
            _ => {}
        }
    }
    names
}

/// Emits `dist.<op>` (all_slice or all_gather) of `value` along each split
/// dim of `sharding`, taking that dim from `shape` to `target`'s size; the
/// results are named `<prefix>_<dim>`. Returns the last value and shape.
#[allow(clippy::too_many_arguments)]
fn per_split_dim(
    line: &mut impl FnMut(String),
    op: &str,
    prefix: &str,
    sharding: &Sharding,
    mut value: String,
    mut shape: Vec<i64>,
    target: &[i64],
    element: &str,
) -> (String, Vec<i64>) {
    for (d, axes) in sharding.dims.iter().enumerate().filter(|(_, a)| !a.is_empty()) {
        let mut next = shape.clone();
        next[d] = target[d];
        let names: Vec<String> = axes.iter().map(|a| format!("\"{a}\"")).collect();
        line(format!(
            "{prefix}_{d} = dist.{op} {value} on @{} axes = [{}] dim = {d} : {} -> {}",
            sharding.mesh,
            names.join(", "),
            tensor(&shape, element),
            tensor(&next, element)
        ));
        (value, shape) = (format!("{prefix}_{d}"), next);
    }
    (value, shape)
}

/// Emits `shape` as a `memref<?xi64>` named `name` (the runtime's shape
/// operand) and returns that name.
fn shape_buffer(line: &mut impl FnMut(String), name: &str, shape: &[i64]) -> String {
    let dims: Vec<String> = shape.iter().map(i64::to_string).collect();
    let rank = shape.len();
    line(format!(
        "{name}_c = arith.constant dense<[{}]> : tensor<{rank}xi64>",
        dims.join(", ")
    ));
    line(format!(
        "{name}_b = bufferization.to_buffer {name}_c read_only : tensor<{rank}xi64> to memref<{rank}xi64>"
    ));
    line(format!(
        "{name} = memref.cast {name}_b : memref<{rank}xi64> to memref<?xi64>"
    ));
    name.to_owned()
}

/// The generated `main`: inputs in, shards out, step, results completed
/// and written.
fn main_text(
    options: &RunOptions,
    globals: &[Port],
    locals: &[Port],
    results: &[Port],
    global_results: &[Port],
) -> String {
    let (entry, sharded, gpu) = (&options.entry, options.processes > 1, options.gpu);
    let mut m = String::from("  func.func @main() -> i32 {\n");
    let mut line = |s: String| {
        m.push_str("    ");
        m.push_str(&s);
        m.push('\n');
    };
    if sharded {
        line("%init = func.call @dist_rt_init() : () -> i32".to_owned());
    }
    if gpu {
        line("%gpu = func.call @dist_rt_use_gpu() : () -> i32".to_owned());
    }
    let mut args = Vec::new();
    for (k, (g, l)) in globals.iter().zip(locals).enumerate() {
        let n: i64 = g.shape.iter().product();
        let e = &g.element;
        line(format!("%m{k} = memref.alloc() : memref<{n}x{e}>"));
        line(format!("%mc{k} = memref.cast %m{k} : memref<{n}x{e}> to memref<?x{e}>"));
        line(format!("%i{k} = arith.constant {k} : i64"));
        let shape = shape_buffer(&mut line, &format!("%ish{k}"), &g.shape);
        line(format!(
            "func.call @dist_rt_load_{e}(%i{k}, %mc{k}, {shape}) : (i64, memref<?x{e}>, memref<?xi64>) -> ()"
        ));
        line(format!(
            "%t{k} = bufferization.to_tensor %m{k} restrict writable : memref<{n}x{e}> to tensor<{n}x{e}>"
        ));
        let dims: Vec<String> = g.shape.iter().map(i64::to_string).collect();
        line(format!(
            "%s{k} = arith.constant dense<[{}]> : tensor<{}xindex>",
            dims.join(", "),
            g.shape.len()
        ));
        line(format!(
            "%g{k} = tensor.reshape %t{k}(%s{k}) : (tensor<{n}x{e}>, tensor<{}xindex>) -> {}",
            g.shape.len(),
            tensor(&g.shape, e)
        ));
        let (mut value, mut cur) = (format!("%g{k}"), g.shape.clone());
        if let Some(s) = l.sharding.as_ref().filter(|_| sharded) {
            (value, cur) = per_split_dim(&mut line, "all_slice", &format!("%sl{k}"), s, value, cur, &l.shape, e);
        }
        args.push((value, tensor(&cur, e)));
    }
    let result_types: Vec<String> = results.iter().map(|r| tensor(&r.shape, &r.element)).collect();
    let call_args: Vec<&str> = args.iter().map(|(v, _)| v.as_str()).collect();
    let arg_types: Vec<&str> = args.iter().map(|(_, t)| t.as_str()).collect();
    let lhs = if results.len() == 1 {
        "%r".to_owned()
    } else {
        format!("%r:{}", results.len())
    };
    // The step stays a call (`no_inline`): the timing brackets exactly it,
    // and the repeated calls' unused results cannot be folded away.
    let call = |lhs: &str| {
        format!(
            "{lhs} = func.call @{entry}({}) {{no_inline}} : ({}) -> ({})",
            call_args.join(", "),
            arg_types.join(", "),
            result_types.join(", ")
        )
    };
    if options.repeat > 1 {
        line("%rep_lb = arith.constant 0 : index".to_owned());
        line("%rep_step = arith.constant 1 : index".to_owned());
        line(format!("%rep_ub = arith.constant {} : index", options.repeat - 1));
        line("scf.for %rep = %rep_lb to %rep_ub step %rep_step {".to_owned());
        line("  func.call @dist_rt_step_begin() : () -> ()".to_owned());
        line(format!("  {}", call(&lhs.replace("%r", "%rep_r"))));
        line("  func.call @dist_rt_step_end() : () -> ()".to_owned());
        line("}".to_owned());
    }
    line("func.call @dist_rt_step_begin() : () -> ()".to_owned());
    line(call(&lhs));
    line("func.call @dist_rt_step_end() : () -> ()".to_owned());
    for (k, (r, g)) in results.iter().zip(global_results).enumerate() {
        let e = &r.element;
        let (mut value, mut cur) = (
            if results.len() == 1 {
                "%r".to_owned()
            } else {
                format!("%r#{k}")
            },
            r.shape.clone(),
        );
        if let Some(s) = r.sharding.as_ref().filter(|_| sharded) {
            if let Some(p) = &s.partial {
                let names: Vec<String> = p.axes.iter().map(|a| format!("\"{a}\"")).collect();
                line(format!(
                    "%p{k} = dist.all_reduce {value} on @{} axes = [{}] kind = {} : {} -> {}",
                    s.mesh,
                    names.join(", "),
                    p.kind,
                    tensor(&cur, e),
                    tensor(&cur, e)
                ));
                value = format!("%p{k}");
            }
            (value, cur) = per_split_dim(&mut line, "all_gather", &format!("%ag{k}"), s, value, cur, &g.shape, e);
        }
        let n: i64 = cur.iter().product();
        line(format!("%fs{k} = arith.constant dense<[{n}]> : tensor<1xindex>"));
        line(format!(
            "%f{k} = tensor.reshape {value}(%fs{k}) : ({}, tensor<1xindex>) -> tensor<{n}x{e}>",
            tensor(&cur, e)
        ));
        line(format!(
            "%b{k} = bufferization.to_buffer %f{k} read_only : tensor<{n}x{e}> to memref<{n}x{e}>"
        ));
        line(format!("%bc{k} = memref.cast %b{k} : memref<{n}x{e}> to memref<?x{e}>"));
        let shape = shape_buffer(&mut line, &format!("%sh{k}"), &cur);
        line(format!("%o{k} = arith.constant {k} : i64"));
        line(format!(
            "func.call @dist_rt_store_f32(%o{k}, %bc{k}, {shape}) : (i64, memref<?x{e}>, memref<?xi64>) -> ()"
        ));
    }
    line("func.call @dist_rt_step_report() : () -> ()".to_owned());
    if sharded {
        line("%fin = func.call @dist_rt_finalize() : () -> i32".to_owned());
    }
    line("%zero = arith.constant 0 : i32".to_owned());
    line("return %zero : i32".to_owned());
    m.push_str("  }\n");
    for e in ["f32", "i64"] {
        m.push_str(&format!(
            "  func.func private @dist_rt_load_{e}(i64, memref<?x{e}>, memref<?xi64>) attributes {{llvm.emit_c_interface}}\n"
        ));
    }
    m.push_str(
        "  func.func private @dist_rt_store_f32(i64, memref<?xf32>, memref<?xi64>) attributes {llvm.emit_c_interface}\n",
    );
    for name in ["begin", "end", "report"] {
        m.push_str(&format!("  func.func private @dist_rt_step_{name}()\n"));
    }
    if sharded {
        m.push_str("  func.func private @dist_rt_init() -> i32\n  func.func private @dist_rt_finalize() -> i32\n");
    }
    if gpu {
        m.push_str("  func.func private @dist_rt_use_gpu() -> i32\n");
    }
    m
}

/// Whether this machine can run on a GPU: the CUDA driver loads and sees a
/// device. It runs after linking (so that --keep-exe still builds the
/// program) and before launching; the runtime opens the GPU for real. The
/// driver is loaded by hand here because dist-run does not link the
/// runtime (which links MPI).
fn probe_gpu() -> Result<(), Error> {
    use std::ffi::{c_char, c_int, c_void};
    unsafe extern "C" {
        fn dlopen(file: *const c_char, mode: c_int) -> *mut c_void;
        fn dlsym(handle: *mut c_void, name: *const c_char) -> *mut c_void;
    }
    let fail = |why: &str| Error::Usage(format!("--device gpu needs an NVIDIA GPU and its driver: {why}"));
    // SAFETY: dlopen/dlsym on C string literals; the symbols have the
    // driver API's signatures.
    unsafe {
        let driver = dlopen(c"libcuda.so.1".as_ptr(), 2);
        if driver.is_null() {
            return Err(fail("the CUDA driver (libcuda.so.1) is not installed"));
        }
        let (init, count) = (
            dlsym(driver, c"cuInit".as_ptr()),
            dlsym(driver, c"cuDeviceGetCount".as_ptr()),
        );
        if init.is_null() || count.is_null() {
            return Err(fail("libcuda.so.1 lacks cuInit or cuDeviceGetCount"));
        }
        let init: unsafe extern "C" fn(u32) -> c_int = std::mem::transmute(init);
        let count: unsafe extern "C" fn(*mut c_int) -> c_int = std::mem::transmute(count);
        let mut devices = 0;
        if init(0) != 0 || count(&mut devices) != 0 || devices == 0 {
            return Err(fail("the CUDA driver sees no GPU"));
        }
    }
    Ok(())
}

/// Runs `pipeline` (inside `builtin.module(...)`) on `module`; a failing
/// pass has reported its diagnostics to the context.
pub fn run_pipeline(context: &melior::Context, module: &mut Module<'_>, pipeline: &str) -> Result<(), Error> {
    let pm = PassManager::new(context);
    let mut message = String::new();
    // SAFETY: the pass manager and strings outlive the call; the callback
    // appends to `message`.
    let parsed = unsafe {
        mlir_sys::mlirParsePassPipeline(
            pm.as_operation_pass_manager().to_raw(),
            melior::StringRef::new(&format!("builtin.module({pipeline})")).to_raw(),
            Some(dist_dialect::ir::append_to_string),
            &mut message as *mut String as *mut std::ffi::c_void,
        )
    };
    if parsed.value == 0 {
        return Err(Error::Pipeline(message));
    }
    pm.run(module)
        .map_err(|_| Error::Codegen("a pass failed (its diagnostics are above)".into()))
}

fn print(module: &Module<'_>) -> String {
    module.as_operation().to_string()
}

/// The directory holding `libdist_runtime.so`: beside this executable.
fn runtime_dir() -> Result<PathBuf, Error> {
    let exe = std::env::current_exe().map_err(|e| Error::Codegen(e.to_string()))?;
    let dir = exe.parent().map(Path::to_path_buf).unwrap_or_default();
    if dir.join("libdist_runtime.so").exists() {
        Ok(dir)
    } else {
        Err(Error::Codegen(format!(
            "libdist_runtime.so is not beside dist-run in {}: build the workspace (cargo build --workspace)",
            dir.display()
        )))
    }
}

/// Compiles and runs; returns the process's success.
pub fn run(options: &RunOptions) -> Result<bool, Error> {
    dist_passes::register_all();
    let context = context_with_all_dialects();
    context.load_all_available_dialects();
    let diagnostics = Rc::new(RefCell::new(Vec::<Diag>::new()));
    let sink = diagnostics.clone();
    context.attach_diagnostic_handler(move |d| {
        let diag = Diag::from_mlir(&d);
        eprintln!("{diag}");
        sink.borrow_mut().push(diag);
        true
    });
    let source = std::fs::read_to_string(&options.program).map_err(|source| Error::Input {
        path: options.program.clone(),
        source,
    })?;
    let mut module = parse_module(&context, &source, &options.program)
        .ok_or_else(|| Error::Usage(format!("{} does not parse", options.program)))?;
    let entry = find_function(&module, &options.entry)
        .ok_or_else(|| Error::Usage(format!("{} has no function @{}", options.program, options.entry)))?;
    let globals = ports(entry, true)?;
    let global_results = ports(entry, false)?;
    let names = argument_names(&source, &options.entry);
    let mut files = Vec::new();
    for name in &names {
        let file = options
            .inputs
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, f)| f.clone())
            .or_else(|| options.input_dir.as_ref().map(|d| format!("{d}/{name}.npy")))
            .ok_or_else(|| Error::Usage(format!("no --input for argument %{name} of @{}", options.entry)))?;
        files.push(file);
    }
    if let Some((extra, _)) = options.inputs.iter().find(|(n, _)| !names.contains(n)) {
        return Err(Error::Usage(format!("@{} has no argument %{extra}", options.entry)));
    }
    check_inputs(&options.entry, &names, &files, &globals)?;
    let started = std::time::Instant::now();
    let sharded = options.processes > 1;
    if sharded {
        let mesh_devices = mesh_devices(&module)?;
        if mesh_devices != options.processes as i64 {
            return Err(Error::Usage(format!(
                "the mesh has {mesh_devices} devices: run with -n {mesh_devices} (or -n 1 for the reference)"
            )));
        }
        let mut resolve = String::from("dist-resolve-partial");
        if let Some(mb) = &options.bucket_mib {
            resolve = format!("dist-resolve-partial{{bucket-mib={mb}}}");
        }
        let overlap = if options.overlap {
            ",dist-split-matmul-grad,dist-overlap-collectives"
        } else {
            ""
        };
        run_pipeline(
            &context,
            &mut module,
            &format!("func.func(dist-propagate-sharding{{remarks=none}},{resolve}{overlap},dist-partition)"),
        )?;
    }
    let entry = find_function(&module, &options.entry).expect("the entry survives the passes");
    let locals = ports(entry, true)?;
    let results = ports(entry, false)?;
    if results.iter().any(|r| r.element != "f32") {
        return Err(Error::Usage("dist-run writes f32 results only".into()));
    }
    let text = print(&module);
    let end = text.rfind('}').expect("a module prints with braces");
    let with_main = format!(
        "{}{}}}\n",
        &text[..end],
        main_text(options, &globals, &locals, &results, &global_results)
    );
    let mut program = parse_module(&context, &with_main, &options.program)
        .ok_or_else(|| Error::Codegen("the generated main does not parse".into()))?;
    if options.gpu {
        let chip = options.chip.as_deref().unwrap_or("sm_90");
        run_pipeline(
            &context,
            &mut program,
            &format!("dist-lower-to-gpu-kernels,dist-compile-gpu-kernels{{chip={chip}}},dist-lower-gpu-host-to-llvm"),
        )?;
    } else {
        run_pipeline(&context, &mut program, dist_passes::LOWER_TO_LLVM)?;
    }
    let passes = started.elapsed();
    let object = emit(&program, Emit::Object, options.opt_level, &options.mcpu)?;
    let codegen = started.elapsed() - passes;
    let work = tempdir()?;
    let object_path = work.join("step.o");
    std::fs::write(&object_path, object).map_err(|e| Error::Codegen(e.to_string()))?;
    let exe = work.join("step");
    let runtime = runtime_dir()?;
    let linked = Command::new("cc")
        .arg(&object_path)
        .arg("-o")
        .arg(&exe)
        .arg(format!("-L{}", runtime.display()))
        .arg("-ldist_runtime")
        .arg(format!("-Wl,-rpath,{}", runtime.display()))
        .arg("-lm")
        .status()
        .map_err(|e| Error::Codegen(format!("cannot run cc: {e}")))?;
    if !linked.success() {
        return Err(Error::Codegen("linking with the runtime failed".into()));
    }
    let compiled = started.elapsed();
    if let Some(path) = &options.keep_exe {
        std::fs::copy(&exe, path).map_err(|source| Error::Output {
            path: path.clone(),
            source,
        })?;
    }
    // After --keep-exe, so that a machine without a GPU still builds the
    // program for one that has it.
    if options.gpu {
        probe_gpu()?;
    }
    std::fs::create_dir_all(&options.out).map_err(|source| Error::Output {
        path: options.out.clone(),
        source,
    })?;
    let mut command = if sharded {
        crate::launch::command(options.mpiexec.as_deref(), options.processes, &exe)?
    } else {
        Command::new(&exe)
    };
    for (k, file) in files.iter().enumerate() {
        let path = std::fs::canonicalize(file).map_err(|source| Error::Input {
            path: file.clone(),
            source,
        })?;
        command.env(format!("DIST_RUN_INPUT_{k}"), path);
    }
    command.env("DIST_RUN_OUT", &options.out);
    if options.timing {
        command.env("DIST_RUN_TIMING", "1");
    }
    let launched = std::time::Instant::now();
    let status = command
        .status()
        .map_err(|e| Error::Codegen(format!("cannot launch the program: {e}")))?;
    let ran = launched.elapsed();
    let _ = std::fs::remove_dir_all(&work);
    if options.timing {
        let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
        eprintln!(
            "dist-run: compile {:.0} ms (passes {:.0}, codegen {:.0}, link {:.0}); run {:.0} ms on {} process{}",
            ms(compiled),
            ms(passes),
            ms(codegen),
            ms(compiled - passes - codegen),
            ms(ran),
            options.processes,
            if options.processes == 1 { "" } else { "es" }
        );
    }
    Ok(status.success())
}

/// Every input file has its argument's global shape and a dtype the
/// argument accepts (`dist_npy`), checked before anything compiles or runs.
fn check_inputs(entry: &str, names: &[String], files: &[String], globals: &[Port]) -> Result<(), Error> {
    for ((name, file), port) in names.iter().zip(files).zip(globals) {
        if dist_npy::accepted(&port.element).is_none() {
            return Err(Error::Usage(format!(
                "%{name} of @{entry} is a tensor of {}: dist-run feeds f32 and i64 arguments only",
                port.element
            )));
        }
        let header = dist_npy::read_header(file).map_err(Error::Usage)?;
        if let Some(why) = dist_npy::mismatch(&header.shape, header.element, &port.shape, &port.element) {
            return Err(Error::Usage(format!("%{name} of @{entry}: {file} has {why}")));
        }
    }
    Ok(())
}

fn mesh_devices(module: &Module<'_>) -> Result<i64, Error> {
    let mut next = module.body().first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if let Ok(mesh) = dist_dialect::ir::MeshOpRef::try_from(op) {
            return mesh
                .to_model()
                .map(|m| m.num_devices())
                .map_err(|e| Error::Usage(e.to_string()));
        }
    }
    Err(Error::Usage("the program declares no dist.mesh".into()))
}

fn tempdir() -> Result<PathBuf, Error> {
    let dir = std::env::temp_dir().join(format!("dist-run-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| Error::Codegen(e.to_string()))?;
    Ok(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn argument_names_come_from_the_source() {
        let src = "func.func @f(%x: tensor<2xf32> {dist.sharding = #dist.sharding<@m, [{\"a\"}]>},\n %w_1: tensor<2x2xf32>) -> tensor<2xf32> {";
        assert_eq!(argument_names(src, "f"), ["x", "w_1"]);
        assert!(argument_names(src, "g").is_empty());
    }
}
