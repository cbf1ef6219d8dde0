//! MPI's state in this process: the job's processes, the communicators and
//! requests the runtime holds, and MPI's set-up and end.

use crate::collectives::Pending;
use crate::communicators::Channel;
use crate::mesh::Mesh;
use crate::{GpuError, RuntimeError, mpi, nccl, p2p};
use std::collections::HashMap;
use std::ffi::c_int;
use std::sync::{Mutex, MutexGuard};

pub(crate) struct State {
    pub rank: i32,
    pub world: i32,
    pub comms: HashMap<(Mesh, Vec<i64>), i64>,
    /// NCCL communicators of the same groups (GPU backend), by use.
    pub nccl_comms: HashMap<(Mesh, Vec<i64>, Channel), usize>,
    pub pending: HashMap<i64, Pending>,
    pub next_request: i64,
    /// The point-to-point sends on MPI that may be in flight.
    pub outgoing: Vec<p2p::Outgoing>,
    /// The point-to-point transfers on NCCL: their staging buffers, and
    /// the receives whose tags are still to check.
    pub staged: p2p::Staged,
}

static STATE: Mutex<Option<State>> = Mutex::new(None);

pub(crate) fn state() -> MutexGuard<'static, Option<State>> {
    STATE.lock().unwrap_or_else(|e| e.into_inner())
}

pub(crate) fn check(call: &'static str, code: c_int, rank: i32) -> Result<(), RuntimeError> {
    if code == 0 {
        return Ok(());
    }
    let mut buf = vec![0u8; 1024];
    // SAFETY: the buffer holds 1024 bytes, as the length says.
    unsafe { mpi::dist_mpi_error_string(code, buf.as_mut_ptr().cast(), buf.len() as c_int) };
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    Err(RuntimeError::Mpi {
        call,
        rank,
        message: String::from_utf8_lossy(&buf[..end]).into_owned(),
    })
}

/// Initializes MPI (if the host program has not) and the runtime.
pub fn init() -> Result<(), RuntimeError> {
    // SAFETY: plain MPI calls on out-pointers that live for the call.
    let (rank, world) = unsafe {
        check("MPI_Init", mpi::dist_mpi_init(), -1)?;
        let (mut rank, mut world) = (0, 0);
        check("MPI_Comm_rank", mpi::dist_mpi_rank(&mut rank), -1)?;
        check("MPI_Comm_size", mpi::dist_mpi_size(&mut world), rank)?;
        (rank, world)
    };
    check_launcher(world, |name| std::env::var(name).ok())?;
    *state() = Some(State {
        rank,
        world,
        comms: HashMap::new(),
        nccl_comms: HashMap::new(),
        pending: HashMap::new(),
        next_request: 0,
        outgoing: Vec::new(),
        staged: p2p::Staged::default(),
    });
    Ok(())
}

/// The MPI this runtime is built against.
pub fn mpi_flavour() -> String {
    // SAFETY: the shim returns a static C string.
    unsafe { std::ffi::CStr::from_ptr(mpi::dist_mpi_flavour()) }
        .to_string_lossy()
        .into_owned()
}

/// Fails when a launcher started more processes than MPI sees in the job:
/// the launcher of another MPI (Open MPI's `mpiexec` with an MPICH build,
/// or the reverse) starts each process as a singleton. `env` reads the
/// launcher's variables.
fn check_launcher(world: i32, env: impl Fn(&str) -> Option<String>) -> Result<(), RuntimeError> {
    let launchers = [
        ("Open MPI", "OMPI_COMM_WORLD_SIZE"),
        ("a PMI launcher (MPICH's Hydra)", "PMI_SIZE"),
    ];
    for (launcher, variable) in launchers {
        if let Some(launched) = env(variable).and_then(|v| v.parse::<i32>().ok())
            && launched != world
        {
            return Err(RuntimeError::Launcher {
                launcher,
                launched,
                world,
                runtime: mpi_flavour(),
            });
        }
    }
    Ok(())
}

/// Frees the communicators and finalizes MPI.
pub fn finalize() -> Result<(), RuntimeError> {
    let mut state = state().take();
    if let Some(s) = &mut state {
        p2p::flush(s)?;
    }
    let rank = state.as_ref().map_or(-1, |s| s.rank);
    // NCCL communicators go before the MPI ones their ids came over.
    if let Some(s) = &state
        && !s.nccl_comms.is_empty()
    {
        let nccl = nccl::nccl().map_err(GpuError::from)?;
        for &comm in s.nccl_comms.values() {
            nccl.destroy(comm).map_err(GpuError::from)?;
        }
    }
    // SAFETY: no collective is in flight once the program has returned.
    check("MPI_Finalize", unsafe { mpi::dist_mpi_finalize() }, rank)
}

/// This process's MPI rank and the number of processes.
pub fn rank_and_size() -> Result<(i32, i32), RuntimeError> {
    state()
        .as_ref()
        .map(|s| (s.rank, s.world))
        .ok_or(RuntimeError::NotInitialized)
}

/// Whether `flag` holds on every process of the job (on each; a job
/// without MPI is one process).
pub(crate) fn on_every_rank(flag: bool) -> Result<bool, RuntimeError> {
    let mut guard = state();
    let Some(s) = guard.as_mut().filter(|s| s.world > 1) else {
        return Ok(flag);
    };
    let everyone = Mesh::decode(&[1, i64::from(s.world), 0])?;
    let comm = crate::communicators::communicator(s, &everyone, &[0])?;
    let (mine, mut all) = (f64::from(u8::from(flag)), 0.0f64);
    // SAFETY: one f64 each way, a blocking min over the world.
    let code = unsafe {
        mpi::dist_mpi_allreduce(
            comm,
            (&raw const mine).cast(),
            (&raw mut all).cast(),
            1,
            crate::collectives::Dtype::F64 as c_int,
            3,
            -1,
        )
    };
    check("MPI_Allreduce", code, s.rank)?;
    Ok(all == 1.0)
}

/// This rank's index in its group over `axes` of `mesh`.
pub fn axis_index(mesh: &[i64], axes: &[i64]) -> Result<i64, RuntimeError> {
    let (rank, _) = rank_and_size()?;
    Ok(Mesh::decode(mesh)?.group_position(rank, axes)?.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_foreign_launcher_is_named() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| pairs.iter().find(|(n, _)| *n == name).map(|(_, v)| v.to_string())
        };
        assert!(check_launcher(4, env(&[("PMI_SIZE", "4")])).is_ok());
        assert!(check_launcher(1, env(&[])).is_ok());
        let err = check_launcher(1, env(&[("OMPI_COMM_WORLD_SIZE", "4")])).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("Open MPI started 4 processes, but MPI sees a job of 1")
        );
        assert!(err.to_string().contains(&format!("built against {}", mpi_flavour())));
    }
}
