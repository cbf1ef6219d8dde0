//! The C ABI the compiled program calls: the collectives, their waits,
//! point-to-point transfers, the runtime's start and end, and the queries
//! of the device's place. Buffers arrive as rank-1 memref descriptors
//! (`_mlir_ciface_*`); a failure ends the job.

use crate::collectives::{Call, Dtype, Kind, collective, wait};
use crate::memref::MemRef1;
use crate::world::{axis_index, finalize, init, rank_and_size};
use crate::{communicators, fail, p2p, trace};

macro_rules! collectives {
    ($($sync:ident $start:ident: $kind:ident, $t:ty, $dtype:ident;)*) => {$(
        /// The collective named by the symbol, blocking.
        ///
        /// # Safety
        /// Called by compiled code with live, contiguous rank-1 buffers.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $sync(
            input: &MemRef1<$t>,
            output: &MemRef1<$t>,
            mesh: &MemRef1<i64>,
            axes: &MemRef1<i64>,
            reduction: i32,
        ) {
            // SAFETY: guaranteed by the caller.
            let call = unsafe { Call::of(Kind::$kind, Dtype::$dtype, input, output, mesh, axes, reduction) };
            collective(call, false).unwrap_or_else(|e| fail(e));
        }

        /// The collective named by the symbol, started; returns the request
        /// `_mlir_ciface_dist_rt_wait` completes.
        ///
        /// # Safety
        /// As the blocking form; the buffers must stay alive until the wait.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $start(
            input: &MemRef1<$t>,
            output: &MemRef1<$t>,
            mesh: &MemRef1<i64>,
            axes: &MemRef1<i64>,
            reduction: i32,
        ) -> i64 {
            // SAFETY: guaranteed by the caller.
            let call = unsafe { Call::of(Kind::$kind, Dtype::$dtype, input, output, mesh, axes, reduction) };
            collective(call, true).unwrap_or_else(|e| fail(e))
        }
    )*};
}

collectives! {
    _mlir_ciface_dist_rt_all_reduce_f32 _mlir_ciface_dist_rt_all_reduce_start_f32: AllReduce, f32, F32;
    _mlir_ciface_dist_rt_all_reduce_f64 _mlir_ciface_dist_rt_all_reduce_start_f64: AllReduce, f64, F64;
    _mlir_ciface_dist_rt_reduce_scatter_f32 _mlir_ciface_dist_rt_reduce_scatter_start_f32: ReduceScatter, f32, F32;
    _mlir_ciface_dist_rt_reduce_scatter_f64 _mlir_ciface_dist_rt_reduce_scatter_start_f64: ReduceScatter, f64, F64;
    _mlir_ciface_dist_rt_all_gather_f32 _mlir_ciface_dist_rt_all_gather_start_f32: AllGather, f32, F32;
    _mlir_ciface_dist_rt_all_gather_f64 _mlir_ciface_dist_rt_all_gather_start_f64: AllGather, f64, F64;
    _mlir_ciface_dist_rt_all_to_all_f32 _mlir_ciface_dist_rt_all_to_all_start_f32: AllToAll, f32, F32;
    _mlir_ciface_dist_rt_all_to_all_f64 _mlir_ciface_dist_rt_all_to_all_start_f64: AllToAll, f64, F64;
    _mlir_ciface_dist_rt_all_gather_i32 _mlir_ciface_dist_rt_all_gather_start_i32: AllGather, i32, I32;
    _mlir_ciface_dist_rt_all_gather_i64 _mlir_ciface_dist_rt_all_gather_start_i64: AllGather, i64, I64;
    _mlir_ciface_dist_rt_all_to_all_i32 _mlir_ciface_dist_rt_all_to_all_start_i32: AllToAll, i32, I32;
    _mlir_ciface_dist_rt_all_to_all_i64 _mlir_ciface_dist_rt_all_to_all_start_i64: AllToAll, i64, I64;
    _mlir_ciface_dist_rt_all_reduce_bf16 _mlir_ciface_dist_rt_all_reduce_start_bf16: AllReduce, u16, BF16;
    _mlir_ciface_dist_rt_reduce_scatter_bf16 _mlir_ciface_dist_rt_reduce_scatter_start_bf16: ReduceScatter, u16, BF16;
    _mlir_ciface_dist_rt_all_gather_bf16 _mlir_ciface_dist_rt_all_gather_start_bf16: AllGather, u16, BF16;
    _mlir_ciface_dist_rt_all_to_all_bf16 _mlir_ciface_dist_rt_all_to_all_start_bf16: AllToAll, u16, BF16;
    _mlir_ciface_dist_rt_all_gather_i1 _mlir_ciface_dist_rt_all_gather_start_i1: AllGather, u8, Bool;
    _mlir_ciface_dist_rt_all_to_all_i1 _mlir_ciface_dist_rt_all_to_all_start_i1: AllToAll, u8, Bool;
}

macro_rules! point_to_point {
    ($($send:ident $recv:ident: $t:ty;)*) => {$(
        /// `dist.send`: the buffer to device `peer` of the group over
        /// `axes`, without waiting.
        ///
        /// # Safety
        /// Called by compiled code with live, contiguous rank-1 buffers (on
        /// the GPU backend, the data in device memory).
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $send(
            input: &MemRef1<$t>,
            mesh: &MemRef1<i64>,
            axes: &MemRef1<i64>,
            peer: i64,
            tag: i64,
        ) {
            // SAFETY: guaranteed by the caller.
            unsafe {
                let route = p2p::Route { mesh: mesh.slice(), axes: axes.slice(), peer, tag };
                let bytes = input.size as usize * std::mem::size_of::<$t>();
                p2p::send(&route, input.data().cast(), bytes).unwrap_or_else(|e| fail(e));
            }
        }

        /// `dist.recv`: into the buffer from device `peer` of the group
        /// over `axes` (on the CPU backend, waiting until it has arrived).
        ///
        /// # Safety
        /// Called by compiled code with live, contiguous rank-1 buffers (on
        /// the GPU backend, the output in device memory).
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $recv(
            output: &MemRef1<$t>,
            mesh: &MemRef1<i64>,
            axes: &MemRef1<i64>,
            peer: i64,
            tag: i64,
        ) {
            // SAFETY: guaranteed by the caller; the output is this call's alone.
            unsafe {
                let route = p2p::Route { mesh: mesh.slice(), axes: axes.slice(), peer, tag };
                let bytes = output.size as usize * std::mem::size_of::<$t>();
                p2p::recv(&route, output.data().cast(), bytes).unwrap_or_else(|e| fail(e));
            }
        }
    )*};
}

/// Makes the communicators of this device's group over `axes` before the
/// first step (`p2p` nonzero: for point-to-point transfers; otherwise for
/// collectives).
///
/// # Safety
/// Called by compiled code with live rank-1 descriptors.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn _mlir_ciface_dist_rt_prepare_group(mesh: &MemRef1<i64>, axes: &MemRef1<i64>, p2p: i32) {
    // SAFETY: guaranteed by the caller.
    let (mesh, axes) = unsafe { (mesh.slice(), axes.slice()) };
    communicators::prepare(mesh, axes, p2p != 0).unwrap_or_else(|e| fail(e));
}

point_to_point! {
    _mlir_ciface_dist_rt_send_f32 _mlir_ciface_dist_rt_recv_f32: f32;
    _mlir_ciface_dist_rt_send_f64 _mlir_ciface_dist_rt_recv_f64: f64;
    _mlir_ciface_dist_rt_send_bf16 _mlir_ciface_dist_rt_recv_bf16: u16;
    _mlir_ciface_dist_rt_send_i32 _mlir_ciface_dist_rt_recv_i32: i32;
    _mlir_ciface_dist_rt_send_i64 _mlir_ciface_dist_rt_recv_i64: i64;
    _mlir_ciface_dist_rt_send_i1 _mlir_ciface_dist_rt_recv_i1: u8;
}

/// A pipelined step starts part `phase` (0, 1, 2: F, B, W; -1: none) of
/// microbatch `microbatch`'s work, which names its compute in a trace.
#[unsafe(no_mangle)]
pub extern "C" fn dist_rt_trace_job(phase: i64, microbatch: i64) {
    if trace::enabled() {
        let name = ["F", "B", "W"].get(phase as usize).map(|p| format!("{p}{microbatch}"));
        trace::job(name);
    }
}

/// Waits for an async collective.
#[unsafe(no_mangle)]
pub extern "C" fn _mlir_ciface_dist_rt_wait(request: i64) {
    wait(request).unwrap_or_else(|e| fail(e));
}

macro_rules! typed_waits {
    ($($name:ident: $t:ty;)*) => {$(
        /// Waits for an async collective whose input and output buffers the
        /// compiled code passes along, so that they stay alive until now.
        #[unsafe(no_mangle)]
        pub extern "C" fn $name(request: i64, _input: &MemRef1<$t>, _output: &MemRef1<$t>) {
            _mlir_ciface_dist_rt_wait(request);
        }
    )*};
}

typed_waits! {
    _mlir_ciface_dist_rt_wait_f32: f32;
    _mlir_ciface_dist_rt_wait_f64: f64;
    _mlir_ciface_dist_rt_wait_i32: i32;
    _mlir_ciface_dist_rt_wait_i64: i64;
    _mlir_ciface_dist_rt_wait_bf16: u16;
    _mlir_ciface_dist_rt_wait_i1: u8;
}

/// Starts the runtime (MPI included) for a compiled program; 0 on success.
#[unsafe(no_mangle)]
pub extern "C" fn dist_rt_init() -> i32 {
    match init() {
        Ok(()) => 0,
        Err(e) => fail(e),
    }
}

/// Ends the runtime and MPI; 0 on success.
#[unsafe(no_mangle)]
pub extern "C" fn dist_rt_finalize() -> i32 {
    match finalize() {
        Ok(()) => 0,
        Err(e) => fail(e),
    }
}

/// This process's MPI rank (after `dist_rt_init`).
#[unsafe(no_mangle)]
pub extern "C" fn dist_rt_rank() -> i32 {
    rank_and_size().map_or_else(|e| fail(e), |(r, _)| r)
}

/// This device's index in its group over `axes`.
///
/// # Safety
/// Called by compiled code with live rank-1 descriptors.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn _mlir_ciface_dist_rt_axis_index(mesh: &MemRef1<i64>, axes: &MemRef1<i64>) -> i64 {
    // SAFETY: guaranteed by the caller.
    let (mesh, axes) = unsafe { (mesh.slice(), axes.slice()) };
    axis_index(mesh, axes).unwrap_or_else(|e| fail(e))
}
