//! The collectives of the compiled program and their dispatch: on MPI
//! (blocking, or started and waited for), or on NCCL on the GPU's streams
//! once `dist_rt_use_gpu` has switched them.

use crate::communicators::{self, Channel, communicator};
use crate::memref::MemRef1;
use crate::mesh::Mesh;
use crate::world::{State, check, rank_and_size, state};
use crate::{GpuError, RuntimeError, cuda, fail, mpi, nccl, trace};
use dist_npy::{bf16_to_f32, f32_to_bf16};
use std::ffi::c_int;
use std::sync::atomic::{AtomicBool, Ordering};

/// An async collective waiting for `dist_rt_wait`.
pub(crate) struct Pending {
    /// An avg divides the sum once it has arrived: the output and the
    /// divisor, by element type.
    average: Option<(*mut u8, usize, f64, Dtype)>,
    /// On the GPU backend: the event that ends the NCCL collective.
    done: Option<usize>,
}

// SAFETY: the pointer is only touched by the thread that waits, under the
// state's lock.
unsafe impl Send for Pending {}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dtype {
    F32 = 0,
    F64 = 1,
    /// Integers only move (gathered token ids): never reduced.
    I32 = 2,
    I64 = 3,
    /// bfloat16 (stored as its 16 bits): moved as such, reduced in f32 by
    /// the shim's own MPI operations.
    BF16 = 4,
    /// Booleans (`i1`, one byte each): only move, as integers do.
    Bool = 5,
}

impl Dtype {
    /// Bytes per element.
    pub(crate) fn size(self) -> usize {
        match self {
            Dtype::Bool => 1,
            Dtype::BF16 => 2,
            Dtype::F32 | Dtype::I32 => 4,
            Dtype::F64 | Dtype::I64 => 8,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    AllReduce,
    ReduceScatter,
    AllGather,
    AllToAll,
}

/// One collective call from the compiled program.
pub(crate) struct Call {
    kind: Kind,
    dtype: Dtype,
    element: usize,
    input: (*const u8, i64),
    output: (*mut u8, i64),
    mesh: Vec<i64>,
    axes: Vec<i64>,
    reduction: i32,
}

impl Call {
    /// The call of a collective on these rank-1 buffers.
    ///
    /// # Safety
    /// The descriptors must describe live, contiguous buffers.
    pub(crate) unsafe fn of<T>(
        kind: Kind,
        dtype: Dtype,
        input: &MemRef1<T>,
        output: &MemRef1<T>,
        mesh: &MemRef1<i64>,
        axes: &MemRef1<i64>,
        reduction: i32,
    ) -> Self {
        debug_assert_eq!(
            std::mem::size_of::<T>(),
            dtype.size(),
            "the entry point's element is its dtype's"
        );
        // SAFETY: guaranteed by the caller.
        unsafe {
            Call {
                kind,
                dtype,
                element: dtype.size(),
                input: (input.data() as *const u8, input.size),
                output: (output.data() as *mut u8, output.size),
                mesh: mesh.slice().to_vec(),
                axes: axes.slice().to_vec(),
                reduction,
            }
        }
    }
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::AllReduce => "all_reduce",
            Kind::ReduceScatter => "reduce_scatter",
            Kind::AllGather => "all_gather",
            Kind::AllToAll => "all_to_all",
        }
    }
}

impl Dtype {
    fn name(self) -> &'static str {
        match self {
            Dtype::F32 => "f32",
            Dtype::F64 => "f64",
            Dtype::I32 => "i32",
            Dtype::I64 => "i64",
            Dtype::BF16 => "bf16",
            Dtype::Bool => "i1",
        }
    }
}

/// Runs `call` (traced when `dist-run --trace` asks); `async_` returns the
/// request to wait for.
pub(crate) fn collective(call: Call, async_: bool) -> Result<i64, RuntimeError> {
    if !trace::enabled() {
        return run_collective(call, async_);
    }
    let name = format!(
        "{} {} {} B",
        call.kind.name(),
        call.dtype.name(),
        call.input.1 * call.element as i64
    );
    let start = trace::now();
    let request = run_collective(call, async_)?;
    let end = trace::now();
    if async_ {
        trace::started(rank_and_size().map_or(0, |(r, _)| r), request, &name, start, end);
    } else {
        trace::collective(&name, start, end);
    }
    Ok(request)
}

fn run_collective(call: Call, async_: bool) -> Result<i64, RuntimeError> {
    let mut guard = state();
    let s = guard.as_mut().ok_or(RuntimeError::NotInitialized)?;
    let mesh = Mesh::decode(&call.mesh)?;
    let comm = communicator(s, &mesh, &call.axes)?;
    let group = mesh.group_size(&call.axes);
    let request = if async_ {
        s.next_request += 1;
        s.next_request - 1
    } else {
        -1
    };
    let (input, n_in) = call.input;
    let (output, n_out) = call.output;
    if GPU_COLLECTIVES.load(Ordering::Acquire) {
        let done = nccl_collective(s, &mesh, comm, &call, group)?;
        if async_ {
            s.pending.insert(
                request,
                Pending {
                    average: None,
                    done: Some(done),
                },
            );
        } else {
            cuda::gpu()
                .and_then(|g| g.finish(done as *mut _))
                .map_err(GpuError::from)?;
        }
        return Ok(request);
    }
    let dtype = call.dtype as c_int;
    // avg is a sum divided by the group size; only reductions have a kind
    // (and only float ones have entry points).
    let reduces = matches!(call.kind, Kind::AllReduce | Kind::ReduceScatter);
    let (op, average) = match call.reduction {
        1 if reduces => (0, Some((output, n_out as usize, group as f64, call.dtype))),
        k => (k, None),
    };
    let rank = s.rank;
    // SAFETY: the descriptors describe live buffers of the sizes given, and
    // the lowering keeps them alive until the wait.
    let (name, code) = unsafe {
        match call.kind {
            Kind::AllReduce => (
                "MPI_Allreduce",
                mpi::dist_mpi_allreduce(comm, input.cast(), output.cast(), n_in, dtype, op, request),
            ),
            Kind::ReduceScatter => (
                "MPI_Reduce_scatter_block",
                mpi::dist_mpi_reduce_scatter(comm, input.cast(), output.cast(), n_out, dtype, op, request),
            ),
            Kind::AllGather => (
                "MPI_Allgather",
                mpi::dist_mpi_allgather(comm, input.cast(), output.cast(), n_in, dtype, request),
            ),
            Kind::AllToAll => (
                "MPI_Alltoall",
                mpi::dist_mpi_alltoall(comm, input.cast(), output.cast(), n_in / group.max(1), dtype, request),
            ),
        }
    };
    check(name, code, rank)?;
    debug_assert!(call.element > 0);
    if async_ {
        s.pending.insert(request, Pending { average, done: None });
    } else if let Some(avg) = average {
        divide(avg);
    }
    Ok(request)
}

fn divide((out, n, divisor, dtype): (*mut u8, usize, f64, Dtype)) {
    // SAFETY: `out` holds `n` elements of `dtype`, written by the collective.
    unsafe {
        match dtype {
            Dtype::F32 => std::slice::from_raw_parts_mut(out.cast::<f32>(), n)
                .iter_mut()
                .for_each(|v| *v /= divisor as f32),
            Dtype::F64 => std::slice::from_raw_parts_mut(out.cast::<f64>(), n)
                .iter_mut()
                .for_each(|v| *v /= divisor),
            Dtype::BF16 => std::slice::from_raw_parts_mut(out.cast::<u16>(), n)
                .iter_mut()
                .for_each(|v| *v = f32_to_bf16(bf16_to_f32(*v) / divisor as f32)),
            Dtype::I32 | Dtype::I64 | Dtype::Bool => unreachable!("no integer entry point reduces"),
        }
    }
}

/// Waits for request `request`.
pub fn wait(request: i64) -> Result<(), RuntimeError> {
    let start = trace::now();
    run_wait(request)?;
    if trace::enabled() {
        trace::waited(rank_and_size().map_or(0, |(r, _)| r), request, start, trace::now());
    }
    Ok(())
}

fn run_wait(request: i64) -> Result<(), RuntimeError> {
    let mut guard = state();
    let s = guard.as_mut().ok_or(RuntimeError::NotInitialized)?;
    match s.pending.remove(&request) {
        Some(Pending { done: Some(event), .. }) => {
            return cuda::gpu()
                .and_then(|g| g.finish(event as *mut _))
                .map_err(|e| GpuError::from(e).into());
        }
        pending => {
            // SAFETY: the request was started and not yet waited for.
            check("MPI_Wait", unsafe { mpi::dist_mpi_wait(request) }, s.rank)?;
            if let Some(Pending { average: Some(avg), .. }) = pending {
                divide(avg);
            }
        }
    }
    Ok(())
}

/// Whether collectives run on NCCL (set by `dist_rt_use_gpu`).
pub(crate) static GPU_COLLECTIVES: AtomicBool = AtomicBool::new(false);

/// Runs `call` on NCCL over the group of `comm` (its MPI communicator);
/// returns the event that ends it.
fn nccl_collective(s: &mut State, mesh: &Mesh, comm: i64, call: &Call, group: i64) -> Result<usize, RuntimeError> {
    let gpu = cuda::gpu().map_err(GpuError::from)?;
    let nccl_comm = communicators::nccl_communicator(s, mesh, comm, &call.axes, Channel::Collectives)?;
    let launch = nccl::Launch {
        kind: call.kind,
        dtype: call.dtype,
        element: call.element,
        input: call.input.0.cast(),
        output: call.output.0.cast(),
        input_len: call.input.1 as usize,
        output_len: call.output.1 as usize,
        reduction: call.reduction,
        group,
        comm: nccl_comm,
    };
    Ok(nccl::enqueue(gpu, &launch)? as usize)
}

/// Switches collectives to NCCL on this process's GPU, opening the GPU (the
/// device of the local rank); 0 on success, otherwise the job ends with the
/// reason (no driver, no GPU).
#[unsafe(no_mangle)]
pub extern "C" fn dist_rt_use_gpu() -> i32 {
    match cuda::gpu() {
        Ok(_) => {
            GPU_COLLECTIVES.store(true, Ordering::Release);
            0
        }
        Err(e) => fail(e),
    }
}
