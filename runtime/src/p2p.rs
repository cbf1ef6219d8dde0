//! Point-to-point transfers between two devices of a group: a pipeline's
//! stages pass their boundary values (`dist.send`, `dist.recv`).
//!
//! A send does not wait for its receive: the data is copied and sent
//! (`MPI_Isend`) while the sender goes on, and the copy is freed once the
//! send has completed. A stage that sends before it receives (1F1B's steady
//! state) so never waits for its neighbour to receive; a receive blocks
//! until its data has arrived.
//!
//! On the GPU backend too the transfers run on MPI, from and into managed
//! memory: the calls are not ordered on the compute stream, so
//! `dist-chain-gpu-launches` keeps their buffers managed and waits for the
//! stream before each (the kernels that wrote a send's buffer, or last read
//! a receive's, have finished). NCCL's `ncclSend`/`ncclRecv` on the
//! streams would spare those waits and the pages' migration.

use crate::communicators::communicator;
use crate::mesh::Mesh;
use crate::world::{State, check, state};
use crate::{RuntimeError, mpi, trace};
use std::ffi::c_int;

/// A send that may be in flight: its request, and the copy it reads.
pub(crate) struct Outgoing {
    request: i64,
    _data: Vec<u8>,
}

/// The communicator of this device's group over `axes`, after checking
/// that `peer` is another device of it.
fn peer_communicator(s: &mut State, mesh: &[i64], axes: &[i64], peer: i64) -> Result<i64, RuntimeError> {
    let mesh = Mesh::decode(mesh)?;
    let size = mesh.group_size(axes);
    if !(0..size).contains(&peer) {
        return Err(RuntimeError::Peer { peer, size });
    }
    communicator(s, &mesh, axes)
}

/// Sends `data` to device `peer` of this device's group over `axes` with
/// `tag`, without waiting for it to be received.
pub fn send(mesh: &[i64], axes: &[i64], peer: i64, tag: i64, data: &[u8]) -> Result<(), RuntimeError> {
    fits(data.len())?;
    let start = trace::now();
    let mut guard = state();
    let s = guard.as_mut().ok_or(RuntimeError::NotInitialized)?;
    let comm = peer_communicator(s, mesh, axes, peer)?;
    reap(s)?;
    let data = data.to_vec();
    let request = s.next_request;
    s.next_request += 1;
    // SAFETY: the copy lives in `s.outgoing` until the send has completed.
    let code = unsafe {
        mpi::dist_mpi_isend(
            comm,
            data.as_ptr().cast(),
            data.len() as i64,
            peer as c_int,
            tag as c_int,
            request,
        )
    };
    check("MPI_Isend", code, s.rank)?;
    s.outgoing.push(Outgoing { request, _data: data });
    drop(guard);
    if trace::enabled() {
        trace::transfer(&format!("send to {peer}"), start, trace::now());
    }
    Ok(())
}

/// Receives into `out` what device `peer` of this device's group over
/// `axes` sends with `tag`, waiting until it has arrived.
pub fn recv(mesh: &[i64], axes: &[i64], peer: i64, tag: i64, out: &mut [u8]) -> Result<(), RuntimeError> {
    fits(out.len())?;
    let (comm, rank) = {
        let mut guard = state();
        let s = guard.as_mut().ok_or(RuntimeError::NotInitialized)?;
        (peer_communicator(s, mesh, axes, peer)?, s.rank)
    };
    // Without the lock: the sender may be this process's other thread of
    // a threaded test, and sends take it.
    let start = trace::now();
    // SAFETY: `out` holds as many bytes as the count says.
    let code = unsafe {
        mpi::dist_mpi_recv(
            comm,
            out.as_mut_ptr().cast(),
            out.len() as i64,
            peer as c_int,
            tag as c_int,
        )
    };
    check("MPI_Recv", code, rank)?;
    if trace::enabled() {
        trace::transfer(&format!("recv from {peer}"), start, trace::now());
    }
    Ok(())
}

/// MPI counts bytes in an `int`.
fn fits(bytes: usize) -> Result<(), RuntimeError> {
    if bytes > i32::MAX as usize {
        return Err(RuntimeError::TooLarge(bytes));
    }
    Ok(())
}

/// Frees the copies of the sends that have completed.
fn reap(s: &mut State) -> Result<(), RuntimeError> {
    let mut failed = 0;
    s.outgoing.retain(|o| {
        let mut done: c_int = 0;
        // SAFETY: the request is one of this state's sends.
        let code = unsafe { mpi::dist_mpi_test(o.request, &mut done) };
        if code != 0 {
            failed = code;
        }
        code != 0 || done == 0
    });
    check("MPI_Test", failed, s.rank)
}

/// Waits for every send still in flight (before MPI ends).
pub(crate) fn flush(s: &mut State) -> Result<(), RuntimeError> {
    for o in std::mem::take(&mut s.outgoing) {
        // SAFETY: the request is one of this state's sends.
        check("MPI_Wait", unsafe { mpi::dist_mpi_wait(o.request) }, s.rank)?;
    }
    Ok(())
}
