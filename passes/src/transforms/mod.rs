//! Passes that rewrite dist IR, and the module transforms of the lowering.

pub mod append_backward;
pub mod auto_parallel;
pub mod canonicalize_globals;
pub mod decompose;
pub mod elide_collectives;
pub mod outline_layers;
pub mod outline_loops;
pub mod overlap_collectives;
pub mod partition;
pub mod propagate_sharding;
pub mod resolve_partial;
pub mod schedule_pipeline;
pub mod split_deallocs;
pub mod split_matmul_grad;
pub mod split_microbatches;
pub mod strip_call_descriptors;
