//! The named pipelines `dist-opt` registers, and `dist-pipeline`, the pass
//! that runs one inside a pass ([`pipeline_parallel`]).

pub mod pipeline_parallel;

use crate::gpu::compile::CompileOptions;
use crate::gpu::schedule::{GpuMatmul, ScheduleGpuOptions};
use crate::pass::PipelineInfo;
use crate::pass::options::PassOptions;
use crate::transforms::resolve_partial::ResolvePartialOptions;

/// From local (partitioned) or single-device dist IR to the LLVM dialect:
/// compute to linalg, collectives to runtime calls, bufferization with the
/// upstream ownership-based deallocation, loops, and LLVM. Buffers are
/// allocated through the runtime (`_mlir_memref_to_llvm_alloc`), which ends
/// the job with a message where malloc's null result would be written
/// through.
pub const LOWER_TO_LLVM: &str = "func.func(convert-dist-to-linalg,dist-approximate-math,linalg-fuse-elementwise-ops),\
    convert-dist-to-runtime,inline,symbol-dce,\
    one-shot-bufferize{allow-return-allocs-from-loops bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},\
    dist-canonicalize-globals,ownership-based-buffer-deallocation,dist-split-deallocs,buffer-deallocation-simplification,bufferization-lower-deallocations,\
    convert-bufferization-to-memref,dist-call-blas,dist-outline-loops,dist-strip-call-descriptors,func.func(convert-linalg-to-loops),convert-scf-to-cf,\
    expand-strided-metadata,lower-affine,finalize-memref-to-llvm{use-generic-functions},convert-math-to-llvm,convert-math-to-libm,convert-to-llvm,\
    reconcile-unrealized-casts";

/// Local linalg (with runtime calls) to GPU kernels in NVVM `gpu.module`s
/// and an asynchronous host program: the tensor-level rewrites that give
/// every op a grid (collapsed contractions, split full reductions, fused
/// reduction epilogues, slices written in place), products on cuBLASLt
/// (unless `matmul=generated`; a bias added to one is its epilogue), each other op tiled onto
/// blocks and threads by the transform schedule of `dist-schedule-gpu`
/// (contractions through shared memory, within `schedule`'s limits),
/// bufferization and deallocation, kernel outlining (constants and index
/// computations sunk into each kernel first, so that its loops have static
/// bounds rather than kernel parameters), launches chained on
/// one stream with buffers in device memory where only the device touches
/// them, NVVM lowering. Nothing canonicalizes
/// between the two halves of the schedule: promotion needs the tiles'
/// subviews, which folding a single-trip loop would remove.
pub fn gpu_kernels(schedule: &ScheduleGpuOptions, tf32: bool) -> String {
    let (biases, products) = match (schedule.matmul, tf32) {
        (GpuMatmul::Generated, _) => ("", ""),
        (GpuMatmul::CublasLt, false) => ("dist-fuse-product-bias,", "dist-call-blas{library=cublaslt},"),
        (GpuMatmul::CublasLt, true) => ("dist-fuse-product-bias,", "dist-call-blas{library=cublaslt-tf32},"),
    };
    format!(
        "func.func(convert-dist-to-linalg{{scatter=dense}}),convert-dist-to-runtime,inline,symbol-dce,\
         linalg-fuse-elementwise-ops,dist-collapse-contraction-dims,dist-split-full-reductions,dist-fuse-reduction-epilogues,canonicalize,{biases}dist-copy-inserted-slices,eliminate-empty-tensors,{},transform-interpreter{{entry-point=__dist_gpu_tile}},\
         one-shot-bufferize{{allow-return-allocs-from-loops bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map}},\
         dist-canonicalize-globals,ownership-based-buffer-deallocation,dist-split-deallocs,buffer-deallocation-simplification,bufferization-lower-deallocations,\
         transform-interpreter{{entry-point=__dist_gpu_map}},canonicalize,cse,canonicalize,dist-lower-gpu-mma,\
         convert-bufferization-to-memref,{products}dist-finalize-gpu-launches,func.func(convert-linalg-to-loops),\
         gpu-launch-sink-index-computations,gpu-kernel-outlining,dist-chain-gpu-launches,convert-scf-to-cf,expand-strided-metadata,lower-affine,\
         gpu.module(convert-gpu-to-nvvm,canonicalize,cse,reconcile-unrealized-casts)",
        with_options("dist-schedule-gpu", schedule)
    )
}

/// The host program with its `gpu.binary`s to the LLVM dialect: launches and
/// managed allocations become GPU runtime calls at translation.
pub const GPU_HOST_TO_LLVM: &str = "gpu-to-llvm,finalize-memref-to-llvm,convert-math-to-libm,convert-to-llvm,\
    reconcile-unrealized-casts";

/// `pass{options}`, or the bare name where every option has its default.
pub fn with_options(pass: &str, options: &dyn PassOptions) -> String {
    match options.render() {
        set if set.is_empty() => pass.to_owned(),
        set => format!("{pass}{{{set}}}"),
    }
}

/// `dist-lower-to-local` (composite ops expanded first) with
/// `dist-resolve-partial`'s options and, with `overlap`, the
/// matmul-gradient split and the collectives' overlap before partitioning.
pub fn lower_to_local(resolve: &ResolvePartialOptions, overlap: bool) -> String {
    let resolve = with_options("dist-resolve-partial", resolve);
    let overlap = if overlap {
        ",dist-split-matmul-grad,dist-overlap-collectives"
    } else {
        ""
    };
    format!("func.func(dist-decompose,dist-propagate-sharding{{remarks=none}},{resolve}{overlap},dist-partition)")
}

crate::pass::options::pass_options! {
    /// The options of the GPU pipelines (`dist-lower-to-gpu-kernels`,
    /// `dist-lower-to-gpu`).
    pub struct GpuPipelineOptions {
        matmul: GpuMatmul = "matmul", "cublaslt",
            "Products: cublaslt (the runtime's cuBLASLt calls, on the compute stream) or generated (kernels of dist-schedule-gpu's tiles)";
        tf32: bool = "tf32", "false",
            "With matmul=cublaslt: f32 products may round their inputs to TF32 (tensor cores; about 1e-3 relative)";
    }
}

impl GpuPipelineOptions {
    /// The options of an option text, or what is wrong with them.
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut options = Self::default();
        crate::pass::options::parse_text(&mut options, text)?;
        if options.tf32 && options.matmul != GpuMatmul::CublasLt {
            return Err("tf32 applies to products on cuBLASLt (matmul=cublaslt)".into());
        }
        Ok(options)
    }

    /// The options of an option text and the schedule they ask for
    /// (`dist-schedule-gpu`'s defaults but `matmul`).
    fn parse_with_schedule(text: &str) -> Result<(Self, ScheduleGpuOptions), String> {
        let options = Self::parse(text)?;
        let schedule = ScheduleGpuOptions {
            matmul: options.matmul,
            ..ScheduleGpuOptions::default()
        };
        Ok((options, schedule))
    }
}

/// `dist-lower-to-gpu` with the kernels' compile options,
/// `dist-schedule-gpu`'s limits (its `matmul` among them) and, for products
/// on cuBLASLt, whether f32 ones may round their inputs to TF32.
pub fn lower_to_gpu(compile: &CompileOptions, schedule: &ScheduleGpuOptions, tf32: bool) -> String {
    let limits_are_defaults = ScheduleGpuOptions {
        matmul: schedule.matmul,
        ..ScheduleGpuOptions::default()
    } == *schedule;
    let kernels = if limits_are_defaults {
        // By its registered name, which a failure names.
        let options = GpuPipelineOptions {
            matmul: schedule.matmul,
            tf32,
        };
        with_options("dist-lower-to-gpu-kernels", &options)
    } else {
        gpu_kernels(schedule, tf32)
    };
    format!(
        "{kernels},{},dist-lower-gpu-host-to-llvm",
        with_options("dist-compile-gpu-kernels", compile)
    )
}

/// `passes`, for a pipeline that takes no options.
fn without_options(options: &str, passes: String) -> Result<String, String> {
    if options.trim().is_empty() {
        Ok(passes)
    } else {
        Err(format!("takes no options (given '{options}')"))
    }
}

/// The pipelines this crate registers, in `--help` order.
pub const PIPELINES: &[PipelineInfo] = &[
    PipelineInfo {
        argument: "dist-lower-to-local",
        aliases: &["dist-partition-pipeline"],
        summary: "Global view to per-device programs: expand composite ops, propagate shardings, resolve partial \
                  values, partition",
        options: Vec::new,
        pipeline: |options| without_options(options, lower_to_local(&ResolvePartialOptions::default(), false)),
    },
    PipelineInfo {
        argument: "dist-lower-to-cpu",
        aliases: &["dist-lower-to-llvm"],
        summary: "Lower local or single-device dist IR to the LLVM dialect (linalg, runtime calls, bufferization, \
                  deallocation, loops; buffers allocated by the runtime)",
        options: Vec::new,
        pipeline: |options| without_options(options, LOWER_TO_LLVM.to_owned()),
    },
    PipelineInfo {
        argument: "dist-lower-to-gpu-kernels",
        aliases: &["dist-gpu-kernels"],
        summary: "Lower local or single-device dist IR to GPU kernels (NVVM gpu.modules) and a host program that \
                  launches them asynchronously on one stream",
        options: GpuPipelineOptions::info,
        pipeline: |options| {
            let (options, schedule) = GpuPipelineOptions::parse_with_schedule(options)?;
            Ok(gpu_kernels(&schedule, options.tf32))
        },
    },
    PipelineInfo {
        argument: "dist-lower-gpu-host-to-llvm",
        aliases: &["dist-gpu-host-to-llvm"],
        summary: "Lower a host program with gpu.binary kernels to the LLVM dialect",
        options: Vec::new,
        pipeline: |options| without_options(options, GPU_HOST_TO_LLVM.to_owned()),
    },
    PipelineInfo {
        argument: "dist-lower-to-gpu",
        aliases: &[],
        summary: "dist-lower-to-gpu-kernels, dist-compile-gpu-kernels (sm_90) and dist-lower-gpu-host-to-llvm",
        options: GpuPipelineOptions::info,
        pipeline: |options| {
            let (options, schedule) = GpuPipelineOptions::parse_with_schedule(options)?;
            Ok(lower_to_gpu(&CompileOptions::default(), &schedule, options.tf32))
        },
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    fn pipeline(argument: &str) -> &'static PipelineInfo {
        PIPELINES.iter().find(|p| p.argument == argument).expect("registered")
    }

    #[test]
    fn gpu_pipelines_put_products_on_cublaslt_unless_asked_otherwise() {
        let kernels = pipeline("dist-lower-to-gpu-kernels");
        let default = (kernels.pipeline)("").unwrap();
        assert!(default.contains("dist-call-blas{library=cublaslt},"));
        assert!(!default.contains("matmul=generated"));
        let generated = (kernels.pipeline)("matmul=generated").unwrap();
        assert!(!generated.contains("dist-call-blas"));
        assert!(generated.contains("dist-schedule-gpu{matmul=generated}"));
        // A bare option is true, as in mlir-opt's option syntax.
        assert!(
            (kernels.pipeline)("tf32")
                .unwrap()
                .contains("dist-call-blas{library=cublaslt-tf32},")
        );
        assert_eq!(
            (kernels.pipeline)("matmul=generated tf32=true").unwrap_err(),
            "tf32 applies to products on cuBLASLt (matmul=cublaslt)"
        );
        assert!((kernels.pipeline)("chip=sm_80").unwrap_err().contains("chip"));
        // The whole pipeline names its first part by its registered name,
        // with the options that differ from their defaults.
        let whole = pipeline("dist-lower-to-gpu");
        assert!((whole.pipeline)("").unwrap().starts_with("dist-lower-to-gpu-kernels,"));
        assert!(
            (whole.pipeline)("matmul=generated")
                .unwrap()
                .starts_with("dist-lower-to-gpu-kernels{matmul=generated},")
        );
    }

    #[test]
    fn pipelines_without_options_refuse_some() {
        let cpu = pipeline("dist-lower-to-cpu");
        assert_eq!((cpu.pipeline)(" ").unwrap(), LOWER_TO_LLVM);
        assert_eq!((cpu.pipeline)("x=1").unwrap_err(), "takes no options (given 'x=1')");
    }
}
