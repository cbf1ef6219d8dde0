//! GPU code generation: contractions in one loop per role
//! (`dist-collapse-contraction-dims`), the tiling plan and its transform schedule
//! (`dist-schedule-gpu`), shared and managed memory for the launches
//! (`dist-finalize-gpu-launches`), launches chained on one stream
//! (`dist-chain-gpu-launches`), bf16 products on the tensor cores
//! (`dist-lower-gpu-mma`), and PTX for the kernels
//! (`dist-compile-gpu-kernels`).

pub mod chain;
pub mod collapse;
pub mod compile;
pub mod fills;
pub mod finalize;
pub mod mma;
pub mod plan;
pub mod schedule;
