//! `dist-run prog.mlir --entry step -n 4 --input x=x.npy ... --out DIR`:
//! compiles the step for N devices, runs it under mpiexec and writes every
//! result as DIR/result<K>.npy (global arrays). `-n 1` (the default) runs
//! the unpartitioned program, the reference.

use clap::error::ErrorKind;
use clap::{ArgAction, CommandFactory, Parser, ValueEnum};
use dist_passes::gpu::compile::Chip;
use dist_passes::gpu::schedule::{GpuMatmul, MatmulTile, ScheduleGpuOptions};
use dist_passes::pass::options::{NonNegative, Positive};
use dist_passes::pipeline::schedule::Schedule;
use dist_passes::transforms::resolve_partial::{ArgumentReshards, ReduceDtype, ResolvePartialOptions};
use dist_tools::pass_values::PassValue;
use dist_tools::run::{RunOptions, run};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "dist-run",
    version,
    about = "Compiles a training step for N devices, runs it under MPI and writes its results as .npy files",
    long_about = "Compiles the function NAME of PROGRAM for N devices (its mesh must have N; N is 1 by \
    default: -n 1 runs the unpartitioned program on one device, every collective the identity, as the \
    reference), links it with the dist runtime, runs it under mpiexec with each global input FILE.npy \
    and writes every result as DIR/result<K>.npy (with --grad also as DIR/loss.npy and \
    DIR/grad.<ARG>.npy).\n\n\
    Every rank takes its shard of each input; an argument declared partial = sum{...} is whole on the \
    first device of each group over those axes and zero on the others, so that their sum is FILE. Each \
    FILE must have its argument's global shape; an f32 argument takes float32 or float64 (rounded), an \
    f64 one float64 or float32, a bf16 one bfloat16 (ml_dtypes', as JAX saves it) or float32 or float64 \
    (rounded), an i32 one int32 (JAX's token ids), an i64 one int64 or int32, an i1 one bool (a mask); \
    each result is written in its own element type (f32, f64, bf16, i32, i64 or i1 as numpy's bool).\n\n\
    A step whose per-device peak (dist-opt --dist-memory-report's) times N exceeds the memory of this \
    machine (or of the job's cgroup) is refused before it compiles. The runtime must be built against \
    the launcher's MPI; Open MPI's launcher is recognized by its --version and run as root, and beyond \
    its slot count, as it requires."
)]
struct Cli {
    /// The program (.mlir).
    #[arg(value_name = "PROGRAM")]
    program: String,
    /// The function to run.
    #[arg(long, value_name = "NAME")]
    entry: String,
    /// Devices (processes); the mesh must have as many. 1 runs the
    /// unpartitioned program, the reference.
    #[arg(short = 'n', long = "np", default_value = "1", value_name = "N", value_parser = PassValue::<Positive>::new())]
    processes: Positive,
    /// The global input of argument ARG (its name, or %ARG); repeatable.
    #[arg(long = "input", value_name = "ARG=FILE.npy", value_parser = input)]
    inputs: Vec<(String, String)>,
    /// Reads each argument without an --input from DIR/<ARG>.npy.
    #[arg(long, value_name = "DIR")]
    input_dir: Option<String>,
    /// Where the results are written.
    #[arg(long, value_name = "DIR", required_unless_present_any = ["no_run", "emit_mlir"])]
    out: Option<String>,
    /// Derive the backward first (dist-append-backward): NAME is a forward
    /// program whose first result is the loss, and the gradients of its
    /// dist.requires_grad arguments follow it as results.
    #[arg(long)]
    grad: bool,
    /// Recompute the activations in the backward (dist-append-backward's
    /// recompute).
    #[arg(long)]
    recompute: bool,
    /// Split matmul gradients and overlap collectives with compute.
    #[arg(long)]
    overlap: bool,
    /// Coalesce gradient all-reduces and reduce-scatters into buckets of at
    /// most MIB MiB (dist-resolve-partial's bucket-mib).
    #[arg(long, alias = "bucket-mb", value_name = "MIB", value_parser = PassValue::<NonNegative>::new())]
    bucket_mib: Option<NonNegative>,
    /// shared gathers a split argument (a ZeRO-3 parameter) once for all
    /// its uses; per-use again before each op that reads it.
    #[arg(long, value_name = "MODE", value_parser = PassValue::<ArgumentReshards>::new())]
    argument_reshards: Option<ArgumentReshards>,
    /// The type partial values are reduced in (dist-resolve-partial's
    /// reduce-dtype; f32 by default, so bf16 gradients are summed in f32).
    #[arg(long, value_name = "TYPE", value_parser = PassValue::<ReduceDtype>::new())]
    reduce_dtype: Option<ReduceDtype>,
    /// Run the step as M microbatches one after another on each device,
    /// their gradients summed before the optimizer (dist-split-microbatches
    /// splits the arguments marked dist.batch_dim); this runs the
    /// partitioned step, so -n is the mesh's device count even for one.
    #[arg(long, value_name = "M", value_parser = PassValue::<Positive>::new())]
    microbatches: Option<Positive>,
    /// The order of the microbatches' work (dist-schedule-pipeline's
    /// schedule) [default: 1f1b].
    #[arg(long, value_parser = PassValue::<Schedule>::new())]
    schedule: Option<Schedule>,
    /// The host code's LLVM optimization level (-O2 or -O3).
    #[arg(short = 'O', default_value_t = 2, value_name = "LEVEL", value_parser = clap::value_parser!(u8).range(2..=3))]
    opt_level: u8,
    /// Report compile and run times and the median time of the step calls
    /// (stderr).
    #[arg(long)]
    timing: bool,
    /// Write each rank's measured spans of every step call (collectives,
    /// waits for async ones, the compute between them; with --microbatches
    /// each microbatch's F, B and W and the transfers between stages) as a
    /// Chrome trace, and print the mean shares of compute and communication
    /// (with --microbatches the modelled bubble before the run and the
    /// measured one after it).
    #[arg(long, value_name = "FILE.json")]
    trace: Option<String>,
    /// Calls of the step after loading the inputs (the last call's results
    /// are written).
    #[arg(long, default_value = "1", value_name = "K", value_parser = PassValue::<Positive>::new())]
    repeat: Positive,
    /// Keep the linked program (it reads DIST_RUN_INPUT_<K> and
    /// DIST_RUN_OUT; with DIST_RUN_TIMING set it prints the step's median
    /// time).
    #[arg(long, value_name = "FILE")]
    keep_exe: Option<String>,
    /// Stop after --keep-exe: no inputs nor --out needed.
    #[arg(long)]
    no_run: bool,
    /// Write the module dist-run would lower (the step, partitioned or not,
    /// with its generated main) and stop: no inputs nor --out needed.
    #[arg(long, value_name = "FILE")]
    emit_mlir: Option<String>,
    /// Link this libdist_runtime (.so or .a) instead of the one beside
    /// dist-run: the archive of a build without its mpi feature makes a
    /// one-process program that needs no MPI at run time.
    #[arg(long, value_name = "LIB", value_parser = library)]
    runtime: Option<String>,
    /// The CPU to compile for: native (this machine's, vector units
    /// included) or x86-64 for a generic one.
    #[arg(long, default_value = "native", value_name = "CPU")]
    mcpu: String,
    /// Where the step runs: gpu compiles it to PTX kernels and runs it on
    /// the GPUs, one per process, with collectives on NCCL.
    #[arg(long, value_enum, default_value_t = Device::Cpu)]
    device: Device,
    /// The GPU architecture [default: sm_90].
    #[arg(long, value_parser = PassValue::<Chip>::new())]
    chip: Option<Chip>,
    /// dist-schedule-gpu's block tile of generated products (with
    /// --gpu-matmul=generated) [default: 64,64,16].
    #[arg(long, value_name = "M,N,K", value_parser = PassValue::<MatmulTile>::new())]
    matmul_tile: Option<MatmulTile>,
    /// What computes the products on the GPU: cuBLASLt (loaded at run
    /// time), or kernels generated from the schedule [default: cublaslt].
    #[arg(long, value_parser = PassValue::<GpuMatmul>::new())]
    gpu_matmul: Option<GpuMatmul>,
    /// Let cuBLASLt round f32 products' inputs to TF32 (tensor cores; about
    /// 1e-3 relative error, as JAX's and PyTorch's default GPU matmuls).
    #[arg(long)]
    gpu_tf32: bool,
    /// Run every call of --repeat as it is: by default on the GPU the
    /// second call is captured as a CUDA graph and the later ones (but the
    /// last) replay it.
    #[arg(long)]
    no_gpu_graph: bool,
    /// The MPI launcher, with arguments of its own [default: $DIST_MPIEXEC
    /// or mpiexec].
    #[arg(long, value_name = "LAUNCHER")]
    mpiexec: Option<String>,
    /// Run a step whose peak exceeds this machine's memory anyway (ranks
    /// spread over hosts).
    #[arg(long)]
    no_memory_check: bool,
    /// Compile every layer inline: by default identical layers are compiled
    /// once (dist-outline-layers).
    #[arg(long)]
    no_outline_layers: bool,
    /// Print the op each diagnostic is about after it (mlir-opt's flag).
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true,
          default_value = "false", default_missing_value = "true", value_name = "BOOL")]
    mlir_print_op_on_diagnostic: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Device {
    Cpu,
    Gpu,
}

/// `ARG=FILE.npy`, the argument's name without its `%`.
fn input(value: &str) -> Result<(String, String), String> {
    let (name, file) = value.split_once('=').ok_or("must be ARG=FILE.npy")?;
    Ok((name.trim_start_matches('%').to_owned(), file.to_owned()))
}

/// A path to a library that exists.
fn library(path: &str) -> Result<String, String> {
    if std::path::Path::new(path).is_file() {
        Ok(path.to_owned())
    } else {
        Err("no such library".to_owned())
    }
}

impl Cli {
    /// The options, or what is wrong with their combination.
    fn options(self) -> Result<RunOptions, String> {
        let gpu = self.device == Device::Gpu;
        if self.chip.is_some() && !gpu {
            return Err("--chip needs --device gpu".into());
        }
        if self.matmul_tile.is_some() && !gpu {
            return Err("--matmul-tile needs --device gpu".into());
        }
        if self.gpu_matmul.is_some() && !gpu {
            return Err("--gpu-matmul needs --device gpu".into());
        }
        if self.no_gpu_graph && !gpu {
            return Err("--no-gpu-graph needs --device gpu".into());
        }
        let matmul = self.gpu_matmul.unwrap_or(ScheduleGpuOptions::default().matmul);
        if self.gpu_tf32 && !(gpu && matmul == GpuMatmul::CublasLt) {
            return Err("--gpu-tf32 needs --device gpu with products on cuBLASLt (--gpu-matmul=cublaslt)".into());
        }
        if gpu && self.matmul_tile.is_some() && matmul != GpuMatmul::Generated {
            return Err("--matmul-tile tiles the generated products: it needs --gpu-matmul=generated".into());
        }
        if self.schedule.is_some() && self.microbatches.is_none() {
            return Err("--schedule needs --microbatches: it orders the microbatches' work".into());
        }
        if self.schedule == Some(Schedule::Interleaved) {
            return Err(
                "--schedule interleaved-1f1b (model chunks on each device) is modelled by \
                        dist-pipeline-report, not run: use gpipe, 1f1b or zb-h1"
                    .into(),
            );
        }
        if self.recompute && !self.grad {
            return Err("--recompute needs --grad: it shapes the backward that --grad derives".into());
        }
        if self.no_run && self.keep_exe.is_none() {
            return Err("--no-run needs --keep-exe: without it nothing would be left".into());
        }
        let defaults = ResolvePartialOptions::default();
        Ok(RunOptions {
            program: self.program,
            entry: self.entry,
            processes: self.processes.0,
            inputs: self.inputs,
            input_dir: self.input_dir,
            out: self.out.unwrap_or_default(),
            grad: self.grad,
            recompute: self.recompute,
            overlap: self.overlap,
            microbatches: self.microbatches.map(|m| m.0),
            schedule: self.schedule,
            resolve: ResolvePartialOptions {
                bucket_mib: self.bucket_mib,
                argument_reshards: self.argument_reshards.unwrap_or(defaults.argument_reshards),
                reduce_dtype: self.reduce_dtype.unwrap_or(defaults.reduce_dtype),
                ..defaults
            },
            opt_level: self.opt_level,
            timing: self.timing,
            trace: self.trace,
            no_outline_layers: self.no_outline_layers,
            keep_exe: self.keep_exe,
            no_run: self.no_run,
            emit_mlir: self.emit_mlir,
            runtime: self.runtime,
            gpu,
            chip: self.chip,
            matmul_tile: self.matmul_tile,
            gpu_matmul: self.gpu_matmul,
            gpu_tf32: self.gpu_tf32,
            gpu_graph: !self.no_gpu_graph,
            mcpu: self.mcpu,
            repeat: self.repeat.0,
            mpiexec: self.mpiexec,
            print_op_on_diagnostic: self.mlir_print_op_on_diagnostic,
            skip_memory_check: self.no_memory_check,
        })
    }
}

fn main() -> ExitCode {
    dist_tools::exit_on_closed_pipe();
    let options = match Cli::parse().options() {
        Ok(options) => options,
        Err(message) => Cli::command().error(ErrorKind::ArgumentConflict, message).exit(),
    };
    match run(&options) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("dist-run: {e}");
            ExitCode::FAILURE
        }
    }
}
