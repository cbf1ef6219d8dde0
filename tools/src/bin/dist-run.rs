//! `dist-run prog.mlir --entry step -n 4 --input x=x.npy ... --out DIR`:
//! compiles the step for N devices, runs it under mpiexec and writes every
//! result as DIR/result<K>.npy (global arrays). `-n 1` (the default) runs
//! the unpartitioned program, the reference.

use dist_tools::run::{RunOptions, run};
use std::process::ExitCode;

const USAGE: &str = "usage: dist-run PROGRAM.mlir --entry NAME [-n N] --input ARG=FILE.npy ... --out DIR\n\
    \x20      [--input-dir DIR] [--grad [--recompute]] [--overlap] [--bucket-mib MIB] [--argument-reshards shared|per-use]\n\
    \x20      [--reduce-dtype f32|bf16|same] [--microbatches M [--schedule gpipe|1f1b|zb-h1]]\n\
    \x20      [-O2|-O3] [--timing] [--trace FILE.json] [--repeat K]\n\
    \x20      [--keep-exe FILE [--no-run]] [--emit-mlir FILE] [--runtime LIB] [--mcpu CPU]\n\
    \x20      [--device cpu|gpu] [--chip sm_80|sm_90] [--matmul-tile M,N,K] [--mpiexec LAUNCHER]\n\
    \x20      [--no-memory-check] [--no-outline-layers] [--mlir-print-op-on-diagnostic]\n\n\
    Compiles the function NAME of PROGRAM for N devices (its mesh must have N;\n\
    N is 1 by default: -n 1 runs the unpartitioned program on one device, every\n\
    collective the identity, as the reference), links it with the dist\n\
    runtime, runs it under mpiexec with each global input FILE.npy (every rank\n\
    takes its shard; an argument declared partial = sum{...} is whole on the\n\
    first device of each group over those axes and zero on the others, so\n\
    that their sum is FILE), and writes every result as DIR/result<K>.npy\n\
    (with --grad also as DIR/loss.npy and DIR/grad.<ARG>.npy). Each FILE\n\
    must have its argument's global shape; an f32 argument takes float32 or\n\
    float64 (rounded), an f64 one float64 or float32, a bf16 one bfloat16\n\
    (ml_dtypes', as JAX saves it) or float32 or float64 (rounded), an i32\n\
    one int32 (JAX's token ids), an i64 one int64 or int32; each result is\n\
    written in its own element type (f32, f64, bf16, i32 or i64). --input-dir\n\
    reads each argument without an --input from DIR/<ARG>.npy. --grad runs\n\
    dist-append-backward first: NAME is a forward program whose first result\n\
    is the loss, and the gradients of its dist.requires_grad arguments follow\n\
    it as results; --recompute recomputes the activations in that backward\n\
    (dist-append-backward's recompute option). --overlap\n\
    splits matmul gradients and overlaps collectives; --bucket-mib coalesces\n\
    gradient all-reduces and reduce-scatters; --argument-reshards per-use gathers a split\n\
    argument (a ZeRO-3 parameter) again before each op that reads it instead\n\
    of once (shared); --reduce-dtype is the type partial values are reduced\n\
    in (dist-resolve-partial's reduce-dtype: f32 by default, so bf16\n\
    gradients are summed in f32). --microbatches M runs the step as M\n\
    microbatches one after another on each device, their gradients summed\n\
    before the optimizer (gradient accumulation; dist-split-microbatches\n\
    splits the arguments marked dist.batch_dim, dist-schedule-pipeline\n\
    orders the work by --schedule, 1f1b by default); it runs the\n\
    partitioned step, with -n the mesh's device count even for one.\n\
    --timing reports compile and run times on stderr,\n\
    and the median time of the step calls; --trace writes each rank's measured\n\
    spans of every step call (collectives, waits for async ones, the compute\n\
    between them, async collectives in flight) as a Chrome trace, one process\n\
    per rank, and prints the mean shares of compute and communication\n\
    (docs/partition-and-lowering.md); with --microbatches each part of a\n\
    microbatch's work (F3, B3, W3) is a span of its own, the sends and\n\
    receives between stages are traced, the modelled bubble\n\
    (dist-pipeline-report) is printed before the run and the measured one\n\
    after it, both idle time over compute time; --repeat K calls the step K\n\
    times after loading the inputs (the last call's results are written);\n\
    --mcpu\n\
    names the CPU to compile for (default native: this machine's, vector\n\
    units included; x86-64 for a generic one);\n\
    --keep-exe keeps the linked program (it reads DIST_RUN_INPUT_<K> and\n\
    DIST_RUN_OUT; with DIST_RUN_TIMING set it prints the step's median time);\n\
    --no-run stops after that, and needs no inputs nor --out. --emit-mlir\n\
    writes the module dist-run would lower (the step, partitioned or not,\n\
    with its generated main) to FILE and stops, needing no inputs nor --out.\n\
    --runtime\n\
    links LIB (a libdist_runtime.so or .a) instead of the runtime beside\n\
    dist-run: the archive of a build without its mpi feature makes a\n\
    one-process program that needs no MPI at run time\n\
    (scripts/gpu-bundle.sh). --device gpu compiles the step to PTX kernels\n\
    for --chip (default sm_90; libdevice from CUDA_ROOT; kernels at LLVM -O3,\n\
    -O2/-O3 set the host's level; --matmul-tile is dist-schedule-gpu's block\n\
    tile of contractions, default 64,64,16) and runs it on the GPUs, one per\n\
    process, with collectives on NCCL; without a GPU it says so and fails.\n\
    --mpiexec (or the DIST_MPIEXEC environment variable) names the MPI\n\
    launcher, with arguments of its own (default mpiexec); Open MPI's is\n\
    recognized by its --version and run as root, and beyond its slot count,\n\
    as it requires. The runtime must be built against the launcher's MPI. A\n\
    step whose per-device peak (dist-opt --dist-memory-report's) times N\n\
    exceeds the memory of this machine (or of the job's cgroup) is refused\n\
    before it compiles;\n\
    --no-memory-check runs it anyway (ranks spread over hosts).\n\
    --no-outline-layers compiles every layer inline: by default identical\n\
    layers are compiled once (dist-outline-layers, before the lowering).\n\
    --mlir-print-op-on-diagnostic\n\
    prints the op each diagnostic is about after it (mlir-opt's flag).\n";

/// `value` of `flag` as a count of at least 1.
fn positive(flag: &str, value: &str) -> Result<usize, String> {
    value
        .parse()
        .ok()
        .filter(|&n| n >= 1)
        .ok_or_else(|| format!("{flag} needs a positive count, not '{value}'"))
}

fn parse(args: &[String]) -> Result<RunOptions, String> {
    let mut o = RunOptions {
        processes: 1,
        repeat: 1,
        mcpu: "native".into(),
        opt_level: 2,
        ..RunOptions::default()
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with('-') => (f, Some(v.to_owned())),
            _ => (arg.as_str(), None),
        };
        let mut value = || {
            inline
                .clone()
                .or_else(|| it.next().cloned())
                .ok_or_else(|| format!("option '{flag}' needs a value"))
        };
        match flag {
            "--entry" => o.entry = value()?,
            "-n" | "--np" => o.processes = positive("-n", &value()?)?,
            "--input" => {
                let v = value()?;
                let (name, file) = v
                    .split_once('=')
                    .ok_or_else(|| format!("--input takes ARG=FILE.npy, not '{v}'"))?;
                o.inputs
                    .push((name.trim_start_matches('%').to_owned(), file.to_owned()));
            }
            "--input-dir" => o.input_dir = Some(value()?),
            "--out" => o.out = value()?,
            "--grad" => o.grad = true,
            "--recompute" => o.recompute = true,
            "--overlap" => o.overlap = true,
            "--microbatches" => o.microbatches = Some(positive("--microbatches", &value()?)?),
            "--schedule" => {
                let v = value()?;
                if dist_passes::pipeline::schedule::Schedule::parse(&v).is_none() {
                    let names = dist_passes::pipeline::schedule::Schedule::NAMES;
                    return Err(format!("--schedule takes {}, not '{v}'", names.join(", ")));
                }
                o.schedule = Some(v);
            }
            "--no-memory-check" => o.skip_memory_check = true,
            "--timing" => o.timing = true,
            "--trace" => o.trace = Some(value()?),
            "--no-outline-layers" => o.no_outline_layers = true,
            "--keep-exe" => o.keep_exe = Some(value()?),
            "--no-run" => o.no_run = true,
            "--emit-mlir" => o.emit_mlir = Some(value()?),
            "--runtime" => {
                let path = value()?;
                if !std::path::Path::new(&path).is_file() {
                    return Err(format!("--runtime: no such library '{path}'"));
                }
                o.runtime = Some(path);
            }
            // --bucket-mb: the earlier name.
            "--bucket-mib" | "--bucket-mb" => o.bucket_mib = Some(value()?),
            "--argument-reshards" => {
                let v = value()?;
                if !matches!(v.as_str(), "shared" | "per-use") {
                    return Err(format!("--argument-reshards takes shared or per-use, not '{v}'"));
                }
                o.argument_reshards = Some(v);
            }
            "--reduce-dtype" => {
                let v = value()?;
                if !matches!(v.as_str(), "f32" | "bf16" | "same") {
                    return Err(format!("--reduce-dtype takes f32, bf16 or same, not '{v}'"));
                }
                o.reduce_dtype = Some(v);
            }
            "--mpiexec" => o.mpiexec = Some(value()?),
            "--mcpu" => o.mcpu = value()?,
            "--repeat" => o.repeat = positive("--repeat", &value()?)?,
            "--device" => {
                let v = value()?;
                o.gpu = match v.as_str() {
                    "cpu" => false,
                    "gpu" => true,
                    _ => return Err(format!("--device takes cpu or gpu, not '{v}'")),
                };
            }
            "--chip" => {
                let v = value()?;
                let chips = dist_passes::gpu::compile::CHIPS;
                if !chips.contains(&v.as_str()) {
                    return Err(format!("--chip takes {}, not '{v}'", chips.join(" or ")));
                }
                o.chip = Some(v);
            }
            "--matmul-tile" => o.matmul_tile = Some(value()?),
            "--mlir-print-op-on-diagnostic" => {
                o.print_op_on_diagnostic = dist_tools::cli::boolean(flag.trim_start_matches('-'), inline.as_deref())
                    .map_err(|e| e.to_string())?
            }
            "-O2" => o.opt_level = 2,
            "-O3" => o.opt_level = 3,
            f if f.starts_with('-') => return Err(format!("unknown option '{f}'")),
            _ if o.program.is_empty() => o.program = arg.clone(),
            _ => return Err(format!("unexpected argument '{arg}'")),
        }
    }
    if o.chip.is_some() && !o.gpu {
        return Err("--chip needs --device gpu".into());
    }
    if o.matmul_tile.is_some() && !o.gpu {
        return Err("--matmul-tile needs --device gpu".into());
    }
    if o.schedule.is_some() && o.microbatches.is_none() {
        return Err("--schedule needs --microbatches: it orders the microbatches' work".into());
    }
    if o.recompute && !o.grad {
        return Err("--recompute needs --grad: it shapes the backward that --grad derives".into());
    }
    if o.no_run && o.keep_exe.is_none() {
        return Err("--no-run needs --keep-exe: without it nothing would be left".into());
    }
    if o.program.is_empty() || o.entry.is_empty() || (o.out.is_empty() && !o.no_run && o.emit_mlir.is_none()) {
        return Err("a program, --entry and --out are required".into());
    }
    Ok(o)
}

fn main() -> ExitCode {
    dist_tools::exit_on_closed_pipe();
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--help" || a == "-h") {
        print!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    let options = match parse(&args) {
        Ok(o) => o,
        Err(message) => {
            eprintln!("dist-run: {message}\n{USAGE}");
            return ExitCode::from(2);
        }
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
