//! Point-to-point transfers between two devices of a group: a pipeline's
//! stages pass their boundary values (`dist.send`, `dist.recv`).
//!
//! On the CPU backend they run on MPI ([`host`]): a send does not wait for
//! its receive, a receive blocks until its data has arrived. On the GPU
//! backend they run on NCCL ([`device`]), queued on streams: neither the
//! sender nor the receiver's host waits, and the compute stream waits for a
//! receive only before the kernels that read it.

mod device;
mod host;

pub(crate) use device::Staged;
pub(crate) use host::Outgoing;

use crate::collectives::GPU_COLLECTIVES;
use crate::communicators::communicator;
use crate::mesh::Mesh;
use crate::world::{State, state};
use crate::{RuntimeError, trace};
use std::sync::atomic::Ordering;

/// Where a transfer goes: this device's group over `axes` of `mesh`, and the
/// other device's position in it.
pub struct Route<'a> {
    pub mesh: &'a [i64],
    pub axes: &'a [i64],
    pub peer: i64,
    pub tag: i64,
}

/// The group's MPI communicator, the decoded mesh and this device's
/// position in the group, after checking that the peer is another device
/// of it.
fn resolve(s: &mut State, route: &Route<'_>) -> Result<(i64, Mesh, i64), RuntimeError> {
    let mesh = Mesh::decode(route.mesh)?;
    let size = mesh.group_size(route.axes);
    if !(0..size).contains(&route.peer) {
        return Err(RuntimeError::Peer { peer: route.peer, size });
    }
    let (position, _) = mesh.group_position(s.rank, route.axes)?;
    Ok((communicator(s, &mesh, route.axes)?, mesh, position))
}

/// Sends the `bytes` bytes at `data` along `route`, without waiting for
/// them to be received.
///
/// # Safety
/// `data` holds `bytes` bytes: host memory on the CPU backend, device
/// memory on the GPU's, whose writers were queued on the compute stream.
pub unsafe fn send(route: &Route<'_>, data: *const u8, bytes: usize) -> Result<(), RuntimeError> {
    let start = trace::now();
    let mut guard = state();
    let s = guard.as_mut().ok_or(RuntimeError::NotInitialized)?;
    let (comm, mesh, position) = resolve(s, route)?;
    // SAFETY: guaranteed by the caller.
    unsafe {
        if GPU_COLLECTIVES.load(Ordering::Acquire) {
            device::send(s, (&mesh, comm, position), route, data, bytes)?;
        } else {
            host::send(s, comm, route, std::slice::from_raw_parts(data, bytes))?;
        }
    }
    drop(guard);
    if trace::enabled() {
        trace::transfer(&format!("send to {}", route.peer), start, trace::now());
    }
    Ok(())
}

/// Receives into the `bytes` bytes at `out` what device `route.peer` sends
/// with the same tag: on the CPU backend when this returns, on the GPU's
/// before the kernels queued after this.
///
/// # Safety
/// `out` holds `bytes` bytes, this call's alone: host memory on the CPU
/// backend, device memory on the GPU's.
pub unsafe fn recv(route: &Route<'_>, out: *mut u8, bytes: usize) -> Result<(), RuntimeError> {
    let start = trace::now();
    let mut guard = state();
    let s = guard.as_mut().ok_or(RuntimeError::NotInitialized)?;
    let (comm, mesh, position) = resolve(s, route)?;
    if GPU_COLLECTIVES.load(Ordering::Acquire) {
        // SAFETY: guaranteed by the caller.
        unsafe { device::recv(s, (&mesh, comm, position), route, out, bytes)? };
    } else {
        let rank = s.rank;
        // Without the lock: the sender may be this process's other thread
        // of a threaded test, and sends take it.
        drop(guard);
        // SAFETY: guaranteed by the caller.
        unsafe { host::recv(comm, rank, route, std::slice::from_raw_parts_mut(out, bytes))? };
    }
    if trace::enabled() {
        trace::transfer(&format!("recv from {}", route.peer), start, trace::now());
    }
    Ok(())
}

/// After a step: every receive on NCCL got the message its tag names.
pub fn check_arrivals() -> Result<(), RuntimeError> {
    match state().as_mut() {
        Some(s) => device::check_arrivals(s),
        None => Ok(()),
    }
}

/// Completes every transfer still in flight and frees what they held
/// (before MPI ends).
pub(crate) fn flush(s: &mut State) -> Result<(), RuntimeError> {
    host::flush(s)?;
    device::flush(s)
}
