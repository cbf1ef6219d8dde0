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

mod build;
mod main_fn;
mod memory;
mod signature;
mod symbols;
mod trace;

pub use build::run_pipeline;

use crate::Error;
use crate::diagnostics::Diag;
use build::Executable;
use dist_dialect::ir::build::dictionary_entry;
use dist_dialect::ir::{context_with_all_dialects, parse_module};
use dist_dialect::model::symbol_ref;
use dist_passes::gpu::compile::Chip;
use dist_passes::gpu::schedule::{GpuMatmul, MatmulTile};
use dist_passes::pass_pipelines::with_options;
use dist_passes::pipeline::schedule::Schedule;
use dist_passes::transforms::append_backward::AppendBackwardOptions;
use dist_passes::transforms::resolve_partial::ResolvePartialOptions;
use main_fn::Ports;
use melior::ir::Module;
use melior::ir::attribute::BoolAttribute;
use melior::ir::operation::OperationLike;
pub(crate) use signature::{argument_names, find_function};
use signature::{check_inputs, check_results, input_files, mesh_devices, ports};
use std::process::Command;
use std::time::{Duration, Instant};
use symbols::{functions_text, rename_definitions};

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
    /// Differentiate the program first (`dist-append-backward`).
    pub grad: bool,
    /// With `grad`: recompute the activations in the backward
    /// (`dist-append-backward{recompute=true}`).
    pub recompute: bool,
    /// Split matmul gradients and overlap collectives.
    pub overlap: bool,
    /// Run each step as this many microbatches, one after another
    /// (`dist-split-microbatches`, `dist-schedule-pipeline`).
    pub microbatches: Option<usize>,
    /// `dist-schedule-pipeline`'s schedule (its default without).
    pub schedule: Option<Schedule>,
    /// `dist-resolve-partial`'s options: gradient buckets, argument
    /// reshards, the type partial values are reduced in.
    pub resolve: ResolvePartialOptions,
    pub opt_level: u8,
    /// Print how long compiling and running took (stderr).
    pub timing: bool,
    /// Write the ranks' measured spans here, as a Chrome trace.
    pub trace: Option<String>,
    /// Keep every layer inline (no `dist-outline-layers`).
    pub no_outline_layers: bool,
    /// Also keep the linked executable here.
    pub keep_exe: Option<String>,
    /// Only compile and link (`keep_exe` holds the program).
    pub no_run: bool,
    /// Write the module it would lower (the step and its generated `main`)
    /// here, and stop.
    pub emit_mlir: Option<String>,
    /// The runtime library to link (`.so` or `.a`) instead of the one
    /// beside dist-run.
    pub runtime: Option<String>,
    /// Run on GPUs (PTX kernels, NCCL collectives).
    pub gpu: bool,
    /// The GPU architecture (`dist-compile-gpu-kernels`' default without).
    pub chip: Option<Chip>,
    /// `dist-schedule-gpu`'s block tile of contractions (its default
    /// without).
    pub matmul_tile: Option<MatmulTile>,
    /// What computes the products on the GPU (`dist-schedule-gpu`'s
    /// `matmul`; its default without).
    pub gpu_matmul: Option<GpuMatmul>,
    /// cuBLASLt's f32 products may round their inputs to TF32.
    pub gpu_tf32: bool,
    /// Replay the repeated step as a CUDA graph (captured once).
    pub gpu_graph: bool,
    /// The CPU to compile for (`native` by default: the program runs here).
    pub mcpu: String,
    /// Calls of the step (all timed, the last one's results written).
    pub repeat: usize,
    /// The MPI launcher (with arguments of its own), instead of
    /// `DIST_MPIEXEC` or `mpiexec`.
    pub mpiexec: Option<String>,
    /// Attach the op to each diagnostic about it (off: an error on a
    /// function would print the whole function).
    pub print_op_on_diagnostic: bool,
    /// Run a step even if its peak does not fit this machine's memory (all
    /// processes on this machine): for a launcher that spreads them over
    /// several hosts.
    pub skip_memory_check: bool,
}

impl RunOptions {
    /// Whether the step runs partitioned (with the runtime's collectives):
    /// on several devices, or as microbatches, even on a mesh of one.
    pub fn partitioned(&self) -> bool {
        self.processes > 1 || self.microbatches.is_some()
    }
}

/// Compiles and runs; returns the process's success.
pub fn run(options: &RunOptions) -> Result<bool, Error> {
    dist_passes::register_all();
    let context = context_with_all_dialects();
    context.load_all_available_dialects();
    dist_dialect::ir::pass::set_print_op_on_diagnostic(&context, options.print_op_on_diagnostic);
    context.attach_diagnostic_handler(|d| {
        eprintln!("{}", Diag::from_mlir(&d));
        true
    });
    let source = std::fs::read_to_string(&options.program).map_err(|source| Error::Input {
        path: options.program.clone(),
        source,
    })?;
    let mut module = parse_module(&context, &source, &options.program)
        .ok_or_else(|| Error::Usage(format!("{} does not parse", options.program)))?;
    if find_function(&module, &options.entry).is_none() {
        return Err(Error::Usage(format!(
            "{} has no function {}; {}",
            options.program,
            symbol_ref(&options.entry),
            functions_text(&module)
        )));
    }
    let planned = with_plan_defaults(options, &module);
    let options = &planned;
    symbols::privatize_all_but(&module, &options.entry);
    build::run_pipeline(&context, &mut module, "symbol-dce")?;
    let named_results = if options.grad {
        differentiate(&context, &mut module, options, &source)?
    } else {
        Vec::new()
    };
    let entry = find_function(&module, &options.entry).expect("the entry survives the passes");
    let globals = ports(entry, true)?;
    let global_results = ports(entry, false)?;
    let names = argument_names(entry, &source, &options.program);
    // A program only built reads its inputs where it runs.
    let files = if options.no_run || options.emit_mlir.is_some() {
        Vec::new()
    } else {
        input_files(options, &names)?
    };
    check_inputs(&options.entry, &names, &files, &globals)?;
    check_results(&options.entry, &global_results)?;

    let started = Instant::now();
    distribute(&context, &mut module, options)?;
    let entry = find_function(&module, &options.entry).expect("the entry survives the passes");
    // A GPU step's buffers live in the GPU's memory, which the driver
    // knows and this check does not.
    if !options.gpu && !options.skip_memory_check {
        memory::check(entry, options.processes)?;
    }
    let locals = ports(entry, true)?;
    let results = ports(entry, false)?;
    let step_symbol = rename_definitions(&module, &options.entry)?;
    let step = Ports {
        step: &step_symbol,
        globals: &globals,
        global_results: &global_results,
        locals: &locals,
        results: &results,
    };
    main_fn::append(&context, &module, options, &step)?;
    symbols::make_internal(&module, &step_symbol);
    if let Some(path) = &options.emit_mlir {
        std::fs::write(path, module.as_operation().to_string()).map_err(|source| Error::Output {
            path: path.clone(),
            source,
        })?;
        return Ok(true);
    }
    build::lower(&context, &mut module, options)?;
    let passes = started.elapsed();
    let executable = build::compile_and_link(&module, options)?;
    if options.no_run {
        return Ok(true);
    }
    // After --keep-exe, so that a machine without a GPU still builds the
    // program for one that has it.
    if options.gpu {
        probe_gpu()?;
    }
    warn_if_oversubscribed(options);
    let (succeeded, ran) = launch(options, &executable, &files)?;
    if options.timing {
        report_timing(options, passes, &executable, ran);
    }
    if succeeded {
        name_results(&options.out, &named_results)?;
    }
    Ok(succeeded)
}

/// `options` with the choices of the module's `dist.plan` (what
/// `dist-auto-parallel` chose besides layouts) added: a plan that
/// recomputes or overlaps runs so whether or not `--recompute` and
/// `--overlap` are given. Recomputation needs `--grad` (the plan's program
/// is a forward program): without it, a warning says it is not applied.
fn with_plan_defaults(options: &RunOptions, module: &Module<'_>) -> RunOptions {
    let mut planned = options.clone();
    let Ok(plan) = module.as_operation().attribute(dist_dialect::ops::attr::PLAN) else {
        return planned;
    };
    let choice = |name: &str| {
        dictionary_entry(plan, name)
            .and_then(|a| BoolAttribute::try_from(a).ok())
            .is_some_and(|b| b.value())
    };
    if choice("recompute") && !options.grad {
        eprintln!(
            "dist-run: warning: the program's dist.plan recomputes the backward, which --grad derives: without it, nothing is recomputed"
        );
    }
    planned.recompute |= choice("recompute") && options.grad;
    planned.overlap |= choice("overlap");
    planned
}

/// `--grad`: the entry's backward appended. Returns the index and name of
/// the loss and of each differentiated argument's gradient.
fn differentiate(
    context: &melior::Context,
    module: &mut Module<'_>,
    options: &RunOptions,
    source: &str,
) -> Result<Vec<(usize, String)>, Error> {
    let entry = find_function(module, &options.entry).expect("the entry is public");
    let differentiated = entry.arguments_with(dist_dialect::ops::attr::REQUIRES_GRAD);
    // An entry that asks for no gradient is a mistake of the command line,
    // not a no-op.
    if differentiated.is_empty() {
        return Err(Error::Usage(format!(
            "--grad: no argument of @{} carries dist.requires_grad, so there is no gradient to derive",
            options.entry
        )));
    }
    let names = argument_names(entry, source, &options.program);
    // The gradients follow every forward result, the loss first of them.
    let forward_results = entry.result_types().len();
    let mut named_results = vec![(0, "loss".to_owned())];
    named_results.extend(
        differentiated
            .into_iter()
            .enumerate()
            .filter_map(|(k, i)| names.get(i).map(|n| (forward_results + k, format!("grad.{n}")))),
    );
    let backward = AppendBackwardOptions {
        recompute: options.recompute,
    };
    let pass = with_options("dist-append-backward", &backward);
    build::run_pipeline(context, module, &format!("func.func({pass})"))?;
    Ok(named_results)
}

/// The step partitioned for the mesh's devices (or its microbatches), or,
/// on one device, its collectives elided: every group is that device.
fn distribute(context: &melior::Context, module: &mut Module<'_>, options: &RunOptions) -> Result<(), Error> {
    if !options.partitioned() {
        return build::run_pipeline(context, module, "func.func(dist-elide-collectives)");
    }
    let devices = mesh_devices(module)?;
    if devices != options.processes as i64 {
        let reference = if options.microbatches.is_some() {
            " (--microbatches runs the partitioned step)"
        } else {
            " (or -n 1 for the reference)"
        };
        return Err(Error::Usage(format!(
            "the mesh has {devices} devices: run with -n {devices}{reference}"
        )));
    }
    build::partition(context, module, options)
}

/// `loss.npy` and `grad.<argument>.npy` beside `result<K>.npy` (the same
/// file, linked where the file system allows).
fn name_results(out: &str, names: &[(usize, String)]) -> Result<(), Error> {
    let out = std::path::Path::new(out);
    for (k, name) in names {
        let (from, to) = (out.join(format!("result{k}.npy")), out.join(format!("{name}.npy")));
        let _ = std::fs::remove_file(&to);
        std::fs::hard_link(&from, &to)
            .or_else(|_| std::fs::copy(&from, &to).map(|_| ()))
            .map_err(|source| Error::Output {
                path: to.display().to_string(),
                source,
            })?;
    }
    Ok(())
}

/// More processes than this machine has cores share them: a step's time
/// is then the machine's more than the program's. (A launcher of its own
/// may place them on other hosts: no warning.)
fn warn_if_oversubscribed(options: &RunOptions) {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let own_launcher = options.mpiexec.is_some() || std::env::var_os("DIST_MPIEXEC").is_some();
    if options.processes > cores && !own_launcher {
        eprintln!(
            "dist-run: warning: {} processes share this machine's {cores} core{}: they run, but their timings \
             measure the sharing more than the step",
            options.processes,
            if cores == 1 { "" } else { "s" }
        );
    }
}

/// Runs the executable on the inputs (under the MPI launcher when
/// sharded); its success and how long it ran.
fn launch(options: &RunOptions, executable: &Executable, files: &[String]) -> Result<(bool, Duration), Error> {
    std::fs::create_dir_all(&options.out).map_err(|source| Error::Output {
        path: options.out.clone(),
        source,
    })?;
    let mut command = if options.processes > 1 {
        crate::launch::command(options.mpiexec.as_deref(), options.processes, &executable.path)?
    } else {
        Command::new(&executable.path)
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
    let spans = options.trace.as_ref().map(|_| executable.path.with_extension("trace"));
    if let Some(path) = &options.trace {
        // A failed run writes no trace: none from an earlier run may look
        // like its.
        let _ = std::fs::remove_file(path);
    }
    if let Some(dir) = &spans {
        std::fs::create_dir_all(dir).map_err(|source| Error::Output {
            path: dir.display().to_string(),
            source,
        })?;
        command.env("DIST_RUN_TRACE", dir);
    }
    let launched = Instant::now();
    let status = command
        .status()
        .map_err(|e| Error::Codegen(format!("cannot launch the program: {e}")))?;
    let ran = launched.elapsed();
    if let (Some(dir), Some(path)) = (&spans, &options.trace)
        && status.success()
    {
        let line = trace::merge(dir, options.processes, path).map_err(Error::Codegen)?;
        eprintln!("dist-run: {line}");
    }
    Ok((status.success(), ran))
}

fn report_timing(options: &RunOptions, passes: Duration, executable: &Executable, ran: Duration) {
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    eprintln!(
        "dist-run: compile {:.0} ms (passes {:.0}, codegen {:.0}, link {:.0}); run {:.0} ms on {} process{}",
        ms(passes + executable.codegen + executable.link),
        ms(passes),
        ms(executable.codegen),
        ms(executable.link),
        ms(ran),
        options.processes,
        if options.processes == 1 { "" } else { "es" }
    );
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
