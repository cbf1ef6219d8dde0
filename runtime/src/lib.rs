//! The runtime of per-device programs: MPI set-up, one communicator per
//! mesh-axis group (created on first use, then cached), and the
//! collectives `convert-dist-to-runtime` calls, sync and async, behind a C
//! ABI. This file holds the crate's errors and how a job ends; each job
//! has a module of its own (listed at the end of this comment).
//!
//! Buffers cross the ABI as MLIR's C-interface memref descriptors of rank 1
//! (`_mlir_ciface_*` functions take pointers to them). A mesh crosses as an
//! `i64` list `[rank, sizes..., device count, devices...]` (no devices:
//! row-major numbering; otherwise `devices[p]` is the MPI rank at mesh
//! position `p`), the axes of a collective as mesh axis indices, major to
//! minor. Reduction kinds are `dist`'s: 0 sum, 1 avg, 2 max, 3 min.
//! Collectives work on contiguous blocks: `reduce_scatter` and `all_gather`
//! split or join the leading dim, `all_to_all` sends block `i` of its input
//! to group rank `i` and places the block from rank `i` at position `i`;
//! the lowering moves other dims into place. An MPI error is reported with
//! the call and the rank, then the job is aborted (a collective cannot be
//! retried on one rank alone).
//!
//! The jobs: the C ABI the compiled program calls (`abi`), MPI's state and
//! the job's processes (`world`), meshes and their groups (`mesh`), the
//! groups' MPI and NCCL communicators (`communicators`), collectives and
//! their dispatch between MPI and NCCL (`collectives`), point-to-point
//! transfers (`p2p`), memref descriptors and `memrefCopy` (`memref`),
//! inputs and results as `.npy` files (`io`), the step's timing
//! (`timing`), the process's allocator and float settings (`process`), the
//! contractions' planning (`contraction`) on BLAS (`blas`) and cuBLASLt
//! (`cublaslt`), the GPU's driver calls (`cuda`) and NCCL (`nccl`),
//! compiler support functions (`libcalls`) and the trace (`trace`).

mod abi;
mod alloc;
mod blas;
mod collectives;
mod communicators;
mod contraction;
mod cublaslt;
mod cuda;
mod dl;
mod graph;
mod io;
mod libcalls;
mod memref;
mod mesh;
mod mpi;
mod nccl;
mod p2p;
mod process;
mod timing;
mod trace;
mod world;

use thiserror::Error;

pub use abi::*;
pub use cuda::CudaError;
pub use dl::LoadError;
pub use memref::{MemRef1, UnrankedMemRef};
pub use mesh::Mesh;
pub use nccl::NcclError;
pub use world::{axis_index, finalize, init, mpi_flavour, rank_and_size};

/// Why a collective on the GPU failed.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum GpuError {
    #[error(transparent)]
    Cuda(#[from] CudaError),
    #[error(transparent)]
    Nccl(#[from] NcclError),
}

/// Errors of the runtime.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum RuntimeError {
    #[error("{call} failed on rank {rank}: {message}")]
    Mpi {
        call: &'static str,
        rank: i32,
        message: String,
    },
    #[error("bad mesh descriptor {0:?}")]
    Mesh(Vec<i64>),
    #[error("the mesh has {mesh} devices but the job has {world} processes")]
    WorldSize { mesh: i64, world: i32 },
    #[error(
        "{launcher} started {launched} processes, but MPI sees a job of {world}: this runtime is built against \
         {runtime}; launch it with that MPI's mpiexec (dist-run --mpiexec or DIST_MPIEXEC)"
    )]
    Launcher {
        launcher: &'static str,
        launched: i32,
        world: i32,
        runtime: String,
    },
    #[error("a transfer of {0} bytes: MPI counts at most 2^31 - 1")]
    TooLarge(usize),
    #[error("device {peer} is not in a group of {size}")]
    Peer { peer: i64, size: i64 },
    #[error("rank {0} is not a device of the mesh")]
    NotInMesh(i32),
    #[error("the runtime is not initialized")]
    NotInitialized,
    #[error("GPU: {0}")]
    Gpu(#[from] GpuError),
    #[error("cannot write the trace: {0}")]
    Trace(String),
    #[error(
        "the receive of tag {tag} from device {peer} of its group got the message of tag {got}: NCCL pairs the \
         transfers between two devices in the order each queues them, and these two queue them in different orders"
    )]
    TransferOrder { peer: i64, tag: i64, got: i64 },
}

impl From<CudaError> for RuntimeError {
    fn from(e: CudaError) -> Self {
        RuntimeError::Gpu(e.into())
    }
}

impl From<NcclError> for RuntimeError {
    fn from(e: NcclError) -> Self {
        RuntimeError::Gpu(e.into())
    }
}

/// Prints `message` on stderr in one write: the job is aborted next, and a
/// line written piece by piece (as `eprintln!` writes its arguments) may be
/// cut when another rank's abort ends this process.
fn say(message: &dyn std::fmt::Display) {
    use std::io::Write;
    let line = format!("dist-runtime: {message}\n");
    let _ = std::io::stderr().write_all(line.as_bytes());
}

/// Reports an error (a runtime error, or what went wrong) and ends the job:
/// the compiled program has no way to recover from a failed collective.
pub(crate) fn fail(message: impl std::fmt::Display) -> ! {
    say(&message);
    // Under an MPI launcher the other ranks would wait for this one forever,
    // even when it fails before MPI starts (the GPU opens in a constructor):
    // the job is aborted.
    let launched = ["PMI_RANK", "PMIX_RANK", "OMPI_COMM_WORLD_RANK"]
        .iter()
        .any(|v| std::env::var_os(v).is_some());
    if world::state().is_some() || launched {
        // SAFETY: initializing MPI (a no-op when it is) and aborting the
        // job are always allowed.
        unsafe {
            mpi::dist_mpi_init();
            mpi::dist_mpi_abort(1)
        };
    }
    std::process::exit(1)
}
