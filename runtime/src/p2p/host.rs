//! Point-to-point transfers on MPI (the CPU backend). A send does not wait
//! for its receive: the data is copied and sent (`MPI_Isend`) while the
//! sender goes on, and the copy is freed once the send has completed. A
//! stage that sends before it receives (1F1B's steady state) so never waits
//! for its neighbour to receive; a receive blocks until its data has
//! arrived.

use super::Route;
use crate::world::{State, check};
use crate::{RuntimeError, mpi};
use std::ffi::c_int;

/// A send that may be in flight: its request, and the copy it reads.
pub(crate) struct Outgoing {
    request: i64,
    _data: Vec<u8>,
}

/// Sends `data` over `comm` along `route`, without waiting for it to be
/// received.
pub(super) fn send(s: &mut State, comm: i64, route: &Route<'_>, data: &[u8]) -> Result<(), RuntimeError> {
    fits(data.len())?;
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
            route.peer as c_int,
            route.tag as c_int,
            request,
        )
    };
    check("MPI_Isend", code, s.rank)?;
    s.outgoing.push(Outgoing { request, _data: data });
    Ok(())
}

/// Receives into `out` over `comm` (this is rank `rank`) what `route.peer`
/// sends with `route.tag`, waiting until it has arrived.
pub(super) fn recv(comm: i64, rank: i32, route: &Route<'_>, out: &mut [u8]) -> Result<(), RuntimeError> {
    fits(out.len())?;
    // SAFETY: `out` holds as many bytes as the count says.
    let code = unsafe {
        mpi::dist_mpi_recv(
            comm,
            out.as_mut_ptr().cast(),
            out.len() as i64,
            route.peer as c_int,
            route.tag as c_int,
        )
    };
    check("MPI_Recv", code, rank)
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
pub(super) fn flush(s: &mut State) -> Result<(), RuntimeError> {
    for o in std::mem::take(&mut s.outgoing) {
        // SAFETY: the request is one of this state's sends.
        check("MPI_Wait", unsafe { mpi::dist_mpi_wait(o.request) }, s.rank)?;
    }
    Ok(())
}
