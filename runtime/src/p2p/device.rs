//! Point-to-point transfers on NCCL (the GPU backend).
//!
//! NCCL pairs the sends and receives between two ranks in the order they
//! are queued, and a send completes only once its receive runs. On one
//! stream, two neighbouring stages of 1F1B would each queue a send before
//! the receive the other's send waits for, and wait for each other
//! forever. So a group's transfers run on two NCCL communicators, one for
//! the messages toward higher positions in the group (a pipeline's
//! forward) and one for those toward lower positions (its backward), each
//! on a stream of its own; on each, both stages queue their pairs in the
//! same order (the schedule's microbatch order).
//!
//! Every transfer goes through a staging buffer of its own (per
//! communicator, peer, tag and direction; made in the first step, reused by
//! the next): the sender copies its data there on the compute stream, so
//! that the program may free or overwrite its buffer at once and the
//! compute stream never waits for a send; the receiver receives there
//! without waiting for the compute stream (no buffer of the program's is
//! written), and the compute stream copies the data out before the kernels
//! queued after the receive. Neither host waits.
//!
//! Each staged message starts with its tag. After each step the receiver
//! checks that every message carried the tag its receive names: two stages
//! that queue their transfers in different orders stop the job instead of
//! swapping their data.

use super::Route;
use crate::communicators::{Channel, nccl_communicator};
use crate::cuda::{Gpu, Handle, gpu};
use crate::mesh::Mesh;
use crate::nccl::nccl;
use crate::world::State;
use crate::{GpuError, RuntimeError};
use std::collections::HashMap;
use std::ffi::c_void;

/// The bytes of the header each staged message starts with: its tag.
const HEADER: usize = 8;

/// One transfer's staging buffer: its communicator, peer, tag and side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Key {
    comm: usize,
    peer: i64,
    tag: i64,
    send: bool,
}

struct Staging {
    /// Device memory: the header, then the data.
    buffer: u64,
    bytes: usize,
    /// The end of the buffer's last use: its send, or the copy out of its
    /// receive.
    busy: Option<Handle>,
    /// A receive's: the pinned host word its header is copied to.
    header: *mut i64,
}

/// The staging buffers of the transfers so far, and the receives whose
/// tags are still to check.
#[derive(Default)]
pub(crate) struct Staged {
    buffers: HashMap<Key, Staging>,
    arrivals: Vec<Key>,
}

// SAFETY: the handles and pointers are only touched under the state's lock.
unsafe impl Send for Staged {}

impl Staging {
    fn new(gpu: &Gpu, bytes: usize, receives: bool) -> Result<Self, GpuError> {
        let mut buffer = 0u64;
        let mut header: *mut c_void = std::ptr::null_mut();
        // SAFETY: out-pointers.
        unsafe {
            gpu.check("cuMemAlloc", (gpu.driver.cuMemAlloc_v2)(&mut buffer, bytes + HEADER))?;
            if receives {
                gpu.check("cuMemAllocHost", (gpu.driver.cuMemAllocHost_v2)(&mut header, HEADER))?;
            }
        }
        Ok(Staging {
            buffer,
            bytes,
            busy: None,
            header: header.cast(),
        })
    }

    /// Frees the buffer once its last use has ended.
    fn release(mut self, gpu: &Gpu) -> Result<(), GpuError> {
        if let Some(busy) = self.busy.take() {
            gpu.complete(busy)?;
        }
        // SAFETY: both came from the driver and nothing uses them now.
        unsafe {
            gpu.check("cuMemFree", (gpu.driver.cuMemFree_v2)(self.buffer))?;
            if !self.header.is_null() {
                gpu.check("cuMemFreeHost", (gpu.driver.cuMemFreeHost)(self.header.cast()))?;
            }
        }
        Ok(())
    }
}

impl Staged {
    /// The staging buffer of `key` for `bytes` bytes of data, made on first
    /// use.
    fn buffer(&mut self, gpu: &Gpu, key: Key, bytes: usize) -> Result<&mut Staging, GpuError> {
        if let Some(old) = self.buffers.remove(&key) {
            if old.bytes == bytes {
                return Ok(self.buffers.entry(key).or_insert(old));
            }
            old.release(gpu)?;
        }
        let staging = Staging::new(gpu, bytes, !key.send)?;
        Ok(self.buffers.entry(key).or_insert(staging))
    }
}

/// Where a transfer runs: this device's group (its mesh, MPI communicator
/// and this device's position in it).
pub(super) type Group<'a> = (&'a Mesh, i64, i64);

/// The staging key and stream of this device's side (`send`) of the
/// transfer along `route`: the NCCL communicator and stream of the
/// messages toward higher positions in the group, or of those toward lower
/// ones.
fn endpoint(
    s: &mut State,
    (mesh, comm, position): Group<'_>,
    route: &Route<'_>,
    send: bool,
) -> Result<(Key, Handle), RuntimeError> {
    let (from, to) = if send {
        (position, route.peer)
    } else {
        (route.peer, position)
    };
    let (channel, stream) = if from < to {
        (Channel::Upward, 0)
    } else {
        (Channel::Downward, 1)
    };
    let comm = nccl_communicator(s, mesh, comm, route.axes, channel)?;
    let key = Key {
        comm,
        peer: route.peer,
        tag: route.tag,
        send,
    };
    Ok((key, gpu()?.p2p[stream]))
}

/// Queues the send of the `bytes` bytes at `data` along `route`.
///
/// # Safety
/// `data` is device memory holding `bytes` bytes, written by work queued on
/// the compute stream.
pub(super) unsafe fn send(
    s: &mut State,
    group: Group<'_>,
    route: &Route<'_>,
    data: *const u8,
    bytes: usize,
) -> Result<(), RuntimeError> {
    crate::graph::needs_host();
    let (key, stream) = endpoint(s, group, route, true)?;
    let gpu = gpu()?;
    let staging = s.staged.buffer(gpu, key, bytes)?;
    if let Some(sent) = staging.busy.take() {
        gpu.order(gpu.compute, sent)?;
    }
    let [low, high] = [route.tag as u32, (route.tag >> 32) as u32];
    // SAFETY: the staging buffer holds the header and `bytes` bytes; `data`
    // as many (guaranteed by the caller).
    unsafe {
        let d = &gpu.driver;
        gpu.check(
            "cuMemsetD32Async",
            (d.cuMemsetD32Async)(staging.buffer, low, 1, gpu.compute),
        )?;
        gpu.check(
            "cuMemsetD32Async",
            (d.cuMemsetD32Async)(staging.buffer + 4, high, 1, gpu.compute),
        )?;
        let copy = (d.cuMemcpyAsync)(staging.buffer + HEADER as u64, data as u64, bytes, gpu.compute);
        gpu.check("cuMemcpyAsync", copy)?;
    }
    gpu.order(stream, gpu.record(gpu.compute)?)?;
    // SAFETY: the staging buffer is not written again before `busy` ends.
    unsafe {
        nccl()?.send(
            staging.buffer as *const c_void,
            bytes + HEADER,
            route.peer,
            key.comm,
            stream,
        )?
    };
    staging.busy = Some(gpu.record(stream)?);
    Ok(())
}

/// Queues the receive into the `bytes` bytes at `out` from `route.peer`,
/// before the work queued on the compute stream after it.
///
/// # Safety
/// `out` is device memory holding `bytes` bytes, this call's alone.
pub(super) unsafe fn recv(
    s: &mut State,
    group: Group<'_>,
    route: &Route<'_>,
    out: *mut u8,
    bytes: usize,
) -> Result<(), RuntimeError> {
    crate::graph::needs_host();
    let (key, stream) = endpoint(s, group, route, false)?;
    let gpu = gpu()?;
    let staging = s.staged.buffer(gpu, key, bytes)?;
    if let Some(copied) = staging.busy.take() {
        gpu.order(stream, copied)?;
    }
    // SAFETY: the staging buffer holds the header and `bytes` bytes, and is
    // read only after the receive; `out` holds `bytes` (guaranteed by the
    // caller), the header word `HEADER`.
    unsafe {
        nccl()?.recv(
            staging.buffer as *mut c_void,
            bytes + HEADER,
            route.peer,
            key.comm,
            stream,
        )?;
        gpu.order(gpu.compute, gpu.record(stream)?)?;
        let d = &gpu.driver;
        let copy = (d.cuMemcpyAsync)(out as u64, staging.buffer + HEADER as u64, bytes, gpu.compute);
        gpu.check("cuMemcpyAsync", copy)?;
        let copy = (d.cuMemcpyAsync)(staging.header as u64, staging.buffer, HEADER, gpu.compute);
        gpu.check("cuMemcpyAsync", copy)?;
    }
    staging.busy = Some(gpu.record(gpu.compute)?);
    s.staged.arrivals.push(key);
    Ok(())
}

/// Checks that each receive since the last check got the message of its
/// tag (after a step, when the compute stream has finished).
pub(super) fn check_arrivals(s: &mut State) -> Result<(), RuntimeError> {
    if s.staged.arrivals.is_empty() {
        return Ok(());
    }
    let gpu = gpu()?;
    for key in std::mem::take(&mut s.staged.arrivals) {
        let staging = s.staged.buffers.get_mut(&key).expect("a receive's buffer");
        if let Some(copied) = staging.busy.take() {
            gpu.complete(copied)?;
        }
        // SAFETY: pinned host memory the header was copied to, now complete.
        let got = unsafe { staging.header.read_volatile() };
        if got != key.tag {
            return Err(RuntimeError::TransferOrder {
                peer: key.peer,
                tag: key.tag,
                got,
            });
        }
    }
    Ok(())
}

/// Checks the last receives, waits for every transfer and frees the
/// staging buffers.
pub(super) fn flush(s: &mut State) -> Result<(), RuntimeError> {
    check_arrivals(s)?;
    if s.staged.buffers.is_empty() {
        return Ok(());
    }
    let gpu = gpu()?;
    for (_, staging) in std::mem::take(&mut s.staged.buffers) {
        staging.release(gpu)?;
    }
    Ok(())
}
