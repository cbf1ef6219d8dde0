//! The communicators of mesh-axis groups: MPI's, split from the world on
//! first use, and NCCL's, made from a unique id the group's first rank
//! broadcasts over the MPI one. Both are cached for the process.

use crate::collectives::GPU_COLLECTIVES;
use crate::mesh::Mesh;
use crate::world::{State, check, state};
use crate::{GpuError, RuntimeError, mpi, nccl};
use std::ffi::c_int;
use std::sync::atomic::Ordering;

/// Makes the communicators of this rank's group over `axes` of `mesh`
/// before the step, which then only uses them: MPI's, and on the GPU
/// backend NCCL's, for the group's collectives or (`p2p`) for its
/// transfers each way. Every rank calls this for the same groups in the
/// same order (each creation is collective over its group).
pub fn prepare(mesh: &[i64], axes: &[i64], p2p: bool) -> Result<(), RuntimeError> {
    let mut guard = state();
    let s = guard.as_mut().ok_or(RuntimeError::NotInitialized)?;
    let mesh = Mesh::decode(mesh)?;
    let comm = communicator(s, &mesh, axes)?;
    if GPU_COLLECTIVES.load(Ordering::Acquire) {
        let channels: &[Channel] = if p2p {
            &[Channel::Upward, Channel::Downward]
        } else {
            &[Channel::Collectives]
        };
        for &channel in channels {
            nccl_communicator(s, &mesh, comm, axes, channel)?;
        }
    }
    Ok(())
}

/// The communicator of this rank's group over `axes` of `mesh`, created by
/// a split of the world the first time (every rank takes part, since every
/// rank runs the same program).
pub(crate) fn communicator(s: &mut State, mesh: &Mesh, axes: &[i64]) -> Result<i64, RuntimeError> {
    if let Some(&c) = s.comms.get(&(mesh.clone(), axes.to_vec())) {
        return Ok(c);
    }
    let count: i64 = mesh.sizes.iter().product();
    if count != i64::from(s.world) {
        return Err(RuntimeError::WorldSize {
            mesh: count,
            world: s.world,
        });
    }
    let ranks = mesh.group_ranks(s.rank, axes)?;
    let mut comm = 0;
    // SAFETY: the group's ranks, as many as the count says, and an
    // out-pointer; every rank of the group makes it (they run the same
    // program, or the same stage's).
    check(
        "MPI_Comm_create_group",
        unsafe { mpi::dist_mpi_comm_create(ranks.as_ptr(), ranks.len() as c_int, &mut comm) },
        s.rank,
    )?;
    s.comms.insert((mesh.clone(), axes.to_vec()), comm);
    Ok(comm)
}

/// What an NCCL communicator of a group carries: its collectives, or the
/// point-to-point transfers toward higher or lower positions in the group
/// (`p2p::device`), each on a communicator and stream of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Channel {
    Collectives,
    Upward,
    Downward,
}

/// The NCCL communicator of `channel` for this rank's group over `axes` of
/// `mesh`, whose MPI communicator is `comm`: made on first
/// use (`dist_rt_prepare_group` makes them before the step) from a unique
/// id the group's first rank broadcasts over MPI.
pub(crate) fn nccl_communicator(
    s: &mut State,
    mesh: &Mesh,
    comm: i64,
    axes: &[i64],
    channel: Channel,
) -> Result<usize, RuntimeError> {
    let key = (mesh.clone(), axes.to_vec(), channel);
    if let Some(&c) = s.nccl_comms.get(&key) {
        return Ok(c);
    }
    let nccl = nccl::nccl().map_err(GpuError::from)?;
    let (position, _) = mesh.group_position(s.rank, axes)?;
    let mut id = if position == 0 {
        nccl.unique_id().map_err(GpuError::from)?
    } else {
        nccl::UniqueId { internal: [0; 128] }
    };
    // SAFETY: a broadcast of the id's 128 bytes over the group.
    check(
        "MPI_Bcast",
        unsafe { mpi::dist_mpi_bcast(comm, (&raw mut id).cast(), 128, 0) },
        s.rank,
    )?;
    let c = nccl
        .communicator(id, mesh.group_size(axes), position)
        .map_err(GpuError::from)?;
    s.nccl_comms.insert(key, c);
    Ok(c)
}
