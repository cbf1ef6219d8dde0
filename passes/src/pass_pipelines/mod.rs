//! The named pipelines `dist-opt` registers, and `dist-pipeline`, the pass
//! that runs one inside a pass ([`pipeline_parallel`]).

pub mod pipeline_parallel;

use crate::gpu::compile::CompileOptions;
use crate::gpu::schedule::ScheduleGpuOptions;
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
    one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},\
    dist-canonicalize-globals,ownership-based-buffer-deallocation,dist-split-deallocs,buffer-deallocation-simplification,bufferization-lower-deallocations,\
    convert-bufferization-to-memref,dist-call-blas,dist-outline-loops,dist-strip-call-descriptors,func.func(convert-linalg-to-loops),convert-scf-to-cf,\
    expand-strided-metadata,lower-affine,finalize-memref-to-llvm{use-generic-functions},convert-math-to-llvm,convert-math-to-libm,convert-to-llvm,\
    reconcile-unrealized-casts";

/// Local linalg (with runtime calls) to GPU kernels in NVVM `gpu.module`s
/// and an asynchronous host program: the tensor-level rewrites that give
/// every op a grid (collapsed contractions, split full reductions, fused
/// reduction epilogues, slices written in place), each op tiled onto
/// blocks and threads by the transform schedule of `dist-schedule-gpu`
/// (contractions through shared memory, within `schedule`'s limits),
/// bufferization and deallocation, kernel outlining, launches chained on
/// one stream with buffers in device memory where only the device touches
/// them, NVVM lowering. Nothing canonicalizes
/// between the two halves of the schedule: promotion needs the tiles'
/// subviews, which folding a single-trip loop would remove.
pub fn gpu_kernels(schedule: &ScheduleGpuOptions) -> String {
    format!(
        "func.func(convert-dist-to-linalg{{scatter=dense}}),convert-dist-to-runtime,inline,symbol-dce,\
         linalg-fuse-elementwise-ops,dist-collapse-contraction-dims,dist-split-full-reductions,dist-fuse-reduction-epilogues,canonicalize,dist-copy-inserted-slices,eliminate-empty-tensors,{},transform-interpreter{{entry-point=__dist_gpu_tile}},\
         one-shot-bufferize{{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map}},\
         dist-canonicalize-globals,ownership-based-buffer-deallocation,dist-split-deallocs,buffer-deallocation-simplification,bufferization-lower-deallocations,\
         transform-interpreter{{entry-point=__dist_gpu_map}},canonicalize,cse,canonicalize,dist-lower-gpu-mma,\
         convert-bufferization-to-memref,dist-finalize-gpu-launches,func.func(convert-linalg-to-loops),\
         gpu-kernel-outlining,dist-chain-gpu-launches,convert-scf-to-cf,expand-strided-metadata,lower-affine,\
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

/// `dist-lower-to-gpu` with the kernels' compile options and
/// `dist-schedule-gpu`'s limits.
pub fn lower_to_gpu(compile: &CompileOptions, schedule: &ScheduleGpuOptions) -> String {
    let kernels = if *schedule == ScheduleGpuOptions::default() {
        // By its registered name, which a failure names.
        "dist-lower-to-gpu-kernels".to_owned()
    } else {
        gpu_kernels(schedule)
    };
    format!(
        "{kernels},{},dist-lower-gpu-host-to-llvm",
        with_options("dist-compile-gpu-kernels", compile)
    )
}

/// The pipelines this crate registers, in `--help` order.
pub const PIPELINES: &[PipelineInfo] = &[
    PipelineInfo {
        argument: "dist-lower-to-local",
        aliases: &["dist-partition-pipeline"],
        summary: "Global view to per-device programs: expand composite ops, propagate shardings, resolve partial \
                  values, partition",
        pipeline: || lower_to_local(&ResolvePartialOptions::default(), false),
    },
    PipelineInfo {
        argument: "dist-lower-to-cpu",
        aliases: &["dist-lower-to-llvm"],
        summary: "Lower local or single-device dist IR to the LLVM dialect (linalg, runtime calls, bufferization, \
                  deallocation, loops; buffers allocated by the runtime)",
        pipeline: || LOWER_TO_LLVM.to_owned(),
    },
    PipelineInfo {
        argument: "dist-lower-to-gpu-kernels",
        aliases: &["dist-gpu-kernels"],
        summary: "Lower local or single-device dist IR to GPU kernels (NVVM gpu.modules) and a host program that \
                  launches them asynchronously on one stream",
        pipeline: || gpu_kernels(&ScheduleGpuOptions::default()),
    },
    PipelineInfo {
        argument: "dist-lower-gpu-host-to-llvm",
        aliases: &["dist-gpu-host-to-llvm"],
        summary: "Lower a host program with gpu.binary kernels to the LLVM dialect",
        pipeline: || GPU_HOST_TO_LLVM.to_owned(),
    },
    PipelineInfo {
        argument: "dist-lower-to-gpu",
        aliases: &[],
        summary: "dist-lower-to-gpu-kernels, dist-compile-gpu-kernels (sm_90) and dist-lower-gpu-host-to-llvm",
        pipeline: || lower_to_gpu(&CompileOptions::default(), &ScheduleGpuOptions::default()),
    },
];
