//! From the program with its `main` to an executable: the lowering
//! pipelines, code generation and the link with the runtime.

use super::RunOptions;
use crate::Error;
use crate::codegen::{Emit, Subnormals, emit};
use dist_passes::analysis::pipeline_report::PipelineReportOptions;
use dist_passes::gpu::compile::CompileOptions;
use dist_passes::gpu::schedule::ScheduleGpuOptions;
use dist_passes::pass::options::Positive;
use dist_passes::pass_pipelines::{self, with_options};
use dist_passes::pipeline::{self, StageOptions};
use dist_passes::transforms::schedule_pipeline::SchedulePipelineOptions;
use dist_passes::transforms::split_microbatches::SplitMicrobatchesOptions;
use melior::ir::Module;
use melior::pass::PassManager;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// Runs `pipeline` (inside `builtin.module(...)`) on `module`; a failing
/// pass has reported its diagnostics to the context.
pub fn run_pipeline(context: &melior::Context, module: &mut Module<'_>, pipeline: &str) -> Result<(), Error> {
    let pm = PassManager::new(context);
    dist_dialect::ir::pass::add_pipeline(&pm, &format!("builtin.module({pipeline})"))
        .map_err(|e| Error::Pipeline(e.to_string()))?;
    pm.run(module).map_err(|_| Error::PassFailed(pipeline.to_owned()))
}

/// The global view to the per-device program (`-n` > 1), as
/// `dist-lower-to-local` with `--bucket-mib`, `--argument-reshards` and
/// `--overlap`; with `--microbatches`, between `dist-split-microbatches`
/// and `dist-schedule-pipeline`.
pub fn partition(context: &melior::Context, module: &mut Module<'_>, options: &RunOptions) -> Result<(), Error> {
    let stages = StageOptions {
        schedule: options.schedule.unwrap_or(StageOptions::default().schedule),
        ..StageOptions::default()
    };
    if let Some(microbatches) = options.microbatches {
        let microbatches = Positive(microbatches);
        if options.trace.is_some() {
            // The modelled bubble, printed beside the measured one: the
            // report reads a propagated copy of the step.
            let copy = dist_dialect::ir::clone_op(module.as_operation());
            let mut copy = Module::from_operation(copy).expect("a copy of a module is one");
            let report = PipelineReportOptions {
                pipeline: pipeline::Options {
                    microbatches,
                    stages: stages.clone(),
                },
                ..PipelineReportOptions::default()
            };
            run_pipeline(
                context,
                &mut copy,
                &format!(
                    "func.func(dist-propagate-sharding{{remarks=none}}),{}",
                    with_options("dist-pipeline-report", &report)
                ),
            )?;
        }
        let split = SplitMicrobatchesOptions {
            microbatches,
            ..SplitMicrobatchesOptions::default()
        };
        run_pipeline(context, module, &with_options("dist-split-microbatches", &split))?;
    }
    run_pipeline(
        context,
        module,
        &pass_pipelines::lower_to_local(&options.resolve, options.overlap),
    )?;
    if options.microbatches.is_some() {
        let schedule = SchedulePipelineOptions {
            trace_jobs: options.trace.is_some(),
            stages,
        };
        run_pipeline(context, module, &with_options("dist-schedule-pipeline", &schedule))?;
    }
    Ok(())
}

/// The program lowered to the LLVM dialect, for the CPU or the GPU.
pub fn lower(context: &melior::Context, module: &mut Module<'_>, options: &RunOptions) -> Result<(), Error> {
    if options.gpu {
        let mut compile = CompileOptions::default();
        let mut schedule = ScheduleGpuOptions::default();
        compile.chip = options.chip.unwrap_or(compile.chip);
        schedule.matmul_tile = options.matmul_tile.unwrap_or(schedule.matmul_tile);
        schedule.matmul = options.gpu_matmul.unwrap_or(schedule.matmul);
        run_pipeline(
            context,
            module,
            &pass_pipelines::lower_to_gpu(&compile, &schedule, options.gpu_tf32),
        )
    } else {
        if !options.no_outline_layers {
            run_pipeline(context, module, "dist-outline-layers")?;
        }
        // By its registered name, which a failure names.
        run_pipeline(context, module, "dist-lower-to-cpu")
    }
}

/// A linked executable in a scratch directory, removed on drop.
pub struct Executable {
    pub path: PathBuf,
    dir: PathBuf,
    /// Time spent in code generation and in the link.
    pub codegen: Duration,
    pub link: Duration,
}

impl Drop for Executable {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Compiles the lowered `module` to an object and links it with the
/// runtime (and `--keep-exe`'s copy).
pub fn compile_and_link(module: &Module<'_>, options: &RunOptions) -> Result<Executable, Error> {
    let started = Instant::now();
    let object = emit(
        module,
        Emit::Object,
        options.opt_level,
        &options.mcpu,
        Subnormals::Flushed,
    )?;
    let codegen = started.elapsed();
    let dir = std::env::temp_dir().join(format!("dist-run-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| Error::Codegen(e.to_string()))?;
    let mut executable = Executable {
        path: dir.join("step"),
        dir,
        codegen,
        link: Duration::ZERO,
    };
    let object_path = executable.dir.join("step.o");
    std::fs::write(&object_path, object).map_err(|e| Error::Codegen(e.to_string()))?;
    let mut link = Command::new("cc");
    link.arg(&object_path).arg("-o").arg(&executable.path);
    link_runtime(&mut link, options.runtime.as_deref())?;
    let linked = link
        .status()
        .map_err(|e| Error::Codegen(format!("cannot run cc: {e}")))?;
    if !linked.success() {
        return Err(Error::Codegen("linking with the runtime failed".into()));
    }
    if let Some(path) = &options.keep_exe {
        std::fs::copy(&executable.path, path).map_err(|source| Error::Output {
            path: path.clone(),
            source,
        })?;
    }
    executable.link = started.elapsed() - codegen;
    Ok(executable)
}

/// Adds the runtime to `link`: `library` (a shared object, found again at
/// run time through an rpath, or a static archive with the system
/// libraries a Rust static library needs), else the `libdist_runtime.so`
/// beside this executable.
fn link_runtime(link: &mut Command, library: Option<&str>) -> Result<(), Error> {
    let shared = match library {
        Some(path) if path.ends_with(".a") => {
            // rustc --print native-static-libs for the runtime's archive.
            link.arg(path)
                .args(["-lgcc_s", "-lutil", "-lrt", "-lpthread", "-lm", "-ldl", "-lc"]);
            return Ok(());
        }
        Some(path) => {
            std::fs::canonicalize(path).map_err(|e| Error::Codegen(format!("--runtime: cannot read {path}: {e}")))?
        }
        None => runtime_dir()?.join("libdist_runtime.so"),
    };
    let dir = shared.parent().map(Path::to_path_buf).unwrap_or_default();
    let name = shared.file_name().unwrap_or_default().to_string_lossy();
    // By -l:NAME, so that the program records the library's name, not this path.
    link.arg(format!("-L{}", dir.display()))
        .arg(format!("-l:{name}"))
        .arg(format!("-Wl,-rpath,{}", dir.display()))
        .arg("-lm");
    Ok(())
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
