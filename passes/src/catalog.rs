//! Every pass this crate ships, in `--help` order.

use crate::pass::PassInfo;
use crate::{analysis, conversion, gpu, pass_pipelines, transforms};

pub const PASSES: &[PassInfo] = &[
    conversion::from_stablehlo::INFO,
    transforms::append_backward::INFO,
    transforms::decompose::INFO,
    transforms::propagate_sharding::INFO,
    transforms::resolve_partial::INFO,
    analysis::verify_sharding::INFO,
    transforms::split_matmul_grad::INFO,
    transforms::overlap_collectives::INFO,
    analysis::overlap_report::INFO,
    analysis::pipeline_report::INFO,
    transforms::split_microbatches::INFO,
    transforms::partition::INFO,
    transforms::schedule_pipeline::INFO,
    pass_pipelines::pipeline_parallel::INFO,
    transforms::elide_collectives::INFO,
    conversion::to_linalg::INFO,
    conversion::to_runtime::INFO,
    transforms::canonicalize_globals::INFO,
    transforms::split_deallocs::INFO,
    conversion::call_blas::INFO,
    transforms::outline_layers::INFO,
    transforms::outline_loops::INFO,
    transforms::strip_call_descriptors::INFO,
    analysis::comm_report::INFO,
    analysis::memory_report::INFO,
    gpu::collapse::INFO,
    gpu::schedule::INFO,
    gpu::mma::INFO,
    gpu::finalize::INFO,
    gpu::chain::INFO,
    gpu::compile::INFO,
];
