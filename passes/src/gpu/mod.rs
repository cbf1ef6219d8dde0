//! GPU code generation: contractions in one loop per role
//! (`dist-collapse-contraction-dims`), full reductions split over a grid
//! (`dist-split-full-reductions`), reductions and their elementwise
//! epilogues as one op (`dist-fuse-reduction-epilogues`), slices written in place
//! (`dist-copy-inserted-slices`), the tiling plan and its transform schedule
//! (`dist-schedule-gpu`), shared and managed memory for the launches
//! (`dist-finalize-gpu-launches`), launches chained on one stream
//! (`dist-chain-gpu-launches`), bf16 products on the tensor cores
//! (`dist-lower-gpu-mma`), and PTX for the kernels
//! (`dist-compile-gpu-kernels`).

pub mod chain;
pub mod collapse;
pub mod compile;
pub mod epilogues;
pub mod fills;
pub mod finalize;
pub mod mma;
pub mod plan;
pub mod product_bias;
pub mod reductions;
pub mod schedule;
pub mod slices;
pub mod tensor_ir;
