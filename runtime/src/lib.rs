//! The runtime of per-device programs: MPI set-up, one communicator per
//! mesh-axis group (created on first use, then cached), and the
//! collectives `convert-dist-to-runtime` calls, sync and async, behind a C
//! ABI.
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
//! The other jobs have modules of their own: memref descriptors and
//! `memrefCopy` (`memref`), inputs and results as `.npy` files (`io`), the
//! step's timing (`timing`), the process's allocator and float settings
//! (`process`), the contractions on BLAS (`blas`), the GPU's driver calls
//! (`cuda`) and NCCL (`nccl`), point-to-point transfers (`p2p`) and the
//! trace (`trace`).

mod alloc;
mod blas;
mod contraction;
mod cublaslt;
mod cuda;
mod dl;
mod io;
mod libcalls;
mod memref;
mod mpi;
mod nccl;
mod p2p;
mod process;
mod timing;
mod trace;

use dist_npy::{bf16_to_f32, f32_to_bf16};
use std::collections::HashMap;
use std::ffi::c_int;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};
use thiserror::Error;

pub use cuda::CudaError;
pub use dl::LoadError;
pub use memref::{MemRef1, UnrankedMemRef};
pub use nccl::NcclError;

/// Why a collective on the GPU failed.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum GpuError {
    #[error(transparent)]
    Cuda(#[from] CudaError),
    #[error(transparent)]
    Nccl(#[from] NcclError),
    #[error("dist.send and dist.recv run on MPI only: NCCL's point-to-point transfers are not implemented")]
    PointToPoint,
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
}

/// A mesh: axis sizes and the MPI rank at each position (row-major).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Mesh {
    pub sizes: Vec<i64>,
    pub devices: Vec<i64>,
}

impl Mesh {
    /// Reads `[rank, sizes..., device count, devices...]`.
    pub fn decode(words: &[i64]) -> Result<Self, RuntimeError> {
        let bad = || RuntimeError::Mesh(words.to_vec());
        let (&rank, rest) = words.split_first().ok_or_else(bad)?;
        let rank = usize::try_from(rank).map_err(|_| bad())?;
        let sizes = rest.get(..rank).ok_or_else(bad)?.to_vec();
        let count: i64 = sizes.iter().product();
        let (&n, devices) = rest.get(rank..).and_then(<[i64]>::split_first).ok_or_else(bad)?;
        let devices = match n {
            0 => (0..count).collect(),
            n if n == count && devices.len() == n as usize => devices.to_vec(),
            _ => return Err(bad()),
        };
        if sizes.iter().any(|&s| s < 1) {
            return Err(bad());
        }
        Ok(Self { sizes, devices })
    }

    /// The mesh coordinates of MPI rank `rank`.
    fn coordinates(&self, rank: i32) -> Result<Vec<i64>, RuntimeError> {
        let mut p = self
            .devices
            .iter()
            .position(|&d| d == i64::from(rank))
            .ok_or(RuntimeError::NotInMesh(rank))? as i64;
        let mut coords = vec![0; self.sizes.len()];
        for (c, &s) in coords.iter_mut().zip(&self.sizes).rev() {
            *c = p % s;
            p /= s;
        }
        Ok(coords)
    }

    /// This rank's index in its group over `axes` (major to minor), and the
    /// index of the group (its position along the other axes).
    pub fn group_position(&self, rank: i32, axes: &[i64]) -> Result<(i64, i64), RuntimeError> {
        let coords = self.coordinates(rank)?;
        let index_over = |dims: &mut dyn Iterator<Item = usize>| dims.fold(0, |acc, d| acc * self.sizes[d] + coords[d]);
        let group: Vec<usize> = axes.iter().map(|&a| a as usize).collect();
        if group.iter().any(|&a| a >= self.sizes.len()) {
            return Err(RuntimeError::Mesh(axes.to_vec()));
        }
        let within = index_over(&mut group.iter().copied());
        let color = index_over(&mut (0..self.sizes.len()).filter(|d| !group.contains(d)));
        Ok((within, color))
    }

    /// The MPI ranks of this rank's group over `axes`, by their index in
    /// the group (`group_position`'s).
    pub fn group_ranks(&self, rank: i32, axes: &[i64]) -> Result<Vec<i32>, RuntimeError> {
        let coords = self.coordinates(rank)?;
        self.group_position(rank, axes)?;
        let members = (0..self.group_size(axes)).map(|mut index| {
            let mut member = coords.clone();
            for &a in axes.iter().rev() {
                let size = self.sizes[a as usize];
                member[a as usize] = index % size;
                index /= size;
            }
            let position = member.iter().zip(&self.sizes).fold(0, |acc, (&c, &s)| acc * s + c);
            self.devices[position as usize] as i32
        });
        Ok(members.collect())
    }

    /// The number of devices in a group over `axes`.
    pub fn group_size(&self, axes: &[i64]) -> i64 {
        axes.iter().map(|&a| self.sizes[a as usize]).product()
    }
}

/// An async collective waiting for `dist_rt_wait`.
struct Pending {
    /// An avg divides the sum once it has arrived: the output and the
    /// divisor, by element type.
    average: Option<(*mut u8, usize, f64, Dtype)>,
    /// On the GPU backend: the event that ends the NCCL collective.
    done: Option<usize>,
}

// SAFETY: the pointer is only touched by the thread that waits, under the
// state's lock.
unsafe impl Send for Pending {}

struct State {
    rank: i32,
    world: i32,
    comms: HashMap<(Mesh, Vec<i64>), i64>,
    /// NCCL communicators of the same groups (GPU backend).
    nccl_comms: HashMap<(Mesh, Vec<i64>), usize>,
    pending: HashMap<i64, Pending>,
    next_request: i64,
    /// The point-to-point sends that may be in flight.
    outgoing: Vec<p2p::Outgoing>,
}

static STATE: Mutex<Option<State>> = Mutex::new(None);

fn state() -> MutexGuard<'static, Option<State>> {
    STATE.lock().unwrap_or_else(|e| e.into_inner())
}

fn check(call: &'static str, code: c_int, rank: i32) -> Result<(), RuntimeError> {
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

/// The communicator of this rank's group over `axes` of `mesh`, created by
/// a split of the world the first time (every rank takes part, since every
/// rank runs the same program).
fn communicator(s: &mut State, mesh: &Mesh, axes: &[i64]) -> Result<i64, RuntimeError> {
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

/// Reports a runtime error and ends the job: the compiled program has no
/// way to recover from a failed collective.
fn fail(error: RuntimeError) -> ! {
    eprintln!("dist-runtime: {error}");
    // SAFETY: aborting the job is always allowed.
    unsafe { mpi::dist_mpi_abort(1) };
    std::process::exit(1)
}

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
struct Call {
    kind: Kind,
    dtype: Dtype,
    element: usize,
    input: (*const u8, i64),
    output: (*mut u8, i64),
    mesh: Vec<i64>,
    axes: Vec<i64>,
    reduction: i32,
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
fn collective(call: Call, async_: bool) -> Result<i64, RuntimeError> {
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
static GPU_COLLECTIVES: AtomicBool = AtomicBool::new(false);

/// Runs `call` on NCCL over the group of `comm`; returns the event that
/// ends it. The group's NCCL communicator is made on first use from a
/// unique id its first rank broadcasts over MPI.
fn nccl_collective(s: &mut State, mesh: &Mesh, comm: i64, call: &Call, group: i64) -> Result<usize, RuntimeError> {
    let gpu = cuda::gpu().map_err(GpuError::from)?;
    let key = (mesh.clone(), call.axes.clone());
    let nccl_comm = match s.nccl_comms.get(&key) {
        Some(&c) => c,
        None => {
            let nccl = nccl::nccl().map_err(GpuError::from)?;
            let (position, _) = mesh.group_position(s.rank, &call.axes)?;
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
            let c = nccl.communicator(id, group, position).map_err(GpuError::from)?;
            s.nccl_comms.insert(key, c);
            c
        }
    };
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
        Err(e) => fail_text(e),
    }
}

/// This rank's index in its group over `axes` of `mesh`.
pub fn axis_index(mesh: &[i64], axes: &[i64]) -> Result<i64, RuntimeError> {
    let (rank, _) = rank_and_size()?;
    Ok(Mesh::decode(mesh)?.group_position(rank, axes)?.0)
}

/// # Safety
/// The descriptors must describe live, contiguous buffers.
unsafe fn call_of<T>(
    kind: Kind,
    dtype: Dtype,
    input: &MemRef1<T>,
    output: &MemRef1<T>,
    mesh: &MemRef1<i64>,
    axes: &MemRef1<i64>,
    reduction: i32,
) -> Call {
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
            let call = unsafe { call_of(Kind::$kind, Dtype::$dtype, input, output, mesh, axes, reduction) };
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
            let call = unsafe { call_of(Kind::$kind, Dtype::$dtype, input, output, mesh, axes, reduction) };
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
        /// Called by compiled code with live, contiguous rank-1 buffers.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $send(
            input: &MemRef1<$t>,
            mesh: &MemRef1<i64>,
            axes: &MemRef1<i64>,
            peer: i64,
            tag: i64,
        ) {
            // SAFETY: guaranteed by the caller.
            let (data, mesh, axes) = unsafe { (input.slice(), mesh.slice(), axes.slice()) };
            // SAFETY: the elements are plain numbers, viewed as their bytes.
            let bytes = unsafe { std::slice::from_raw_parts(data.as_ptr().cast::<u8>(), std::mem::size_of_val(data)) };
            p2p::send(mesh, axes, peer, tag, bytes).unwrap_or_else(|e| fail(e));
        }

        /// `dist.recv`: into the buffer from device `peer` of the group
        /// over `axes`, waiting until it has arrived.
        ///
        /// # Safety
        /// Called by compiled code with live, contiguous rank-1 buffers.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $recv(
            output: &MemRef1<$t>,
            mesh: &MemRef1<i64>,
            axes: &MemRef1<i64>,
            peer: i64,
            tag: i64,
        ) {
            // SAFETY: guaranteed by the caller; the output is this call's alone.
            let (out, mesh, axes) = unsafe {
                let out = std::slice::from_raw_parts_mut(output.data().cast::<u8>(), output.size as usize * std::mem::size_of::<$t>());
                (out, mesh.slice(), axes.slice())
            };
            p2p::recv(mesh, axes, peer, tag, out).unwrap_or_else(|e| fail(e));
        }
    )*};
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

pub(crate) fn fail_text(message: impl std::fmt::Display) -> ! {
    eprintln!("dist-runtime: {message}");
    // Under an MPI launcher the other ranks would wait for this one forever,
    // even when it fails before MPI starts (the GPU opens in a constructor):
    // the job is aborted.
    let launched = ["PMI_RANK", "PMIX_RANK", "OMPI_COMM_WORLD_RANK"]
        .iter()
        .any(|v| std::env::var_os(v).is_some());
    if state().is_some() || launched {
        // SAFETY: initializing MPI (a no-op when it is) and aborting the
        // job are always allowed.
        unsafe {
            mpi::dist_mpi_init();
            mpi::dist_mpi_abort(1)
        };
    }
    std::process::exit(1)
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

    #[test]
    fn a_group_lists_its_ranks_by_their_index() {
        // 2 x 4, rank 6 at (1, 2): its row over axis 1, its column over 0,
        // and both axes listed minor first.
        let mesh = Mesh::decode(&[2, 2, 4, 0]).unwrap();
        assert_eq!(mesh.group_ranks(6, &[1]).unwrap(), [4, 5, 6, 7]);
        assert_eq!(mesh.group_ranks(6, &[0]).unwrap(), [2, 6]);
        assert_eq!(mesh.group_ranks(6, &[1, 0]).unwrap(), [0, 4, 1, 5, 2, 6, 3, 7]);
        // An explicit order maps positions to ranks.
        let ring = Mesh::decode(&[1, 4, 4, 0, 2, 3, 1]).unwrap();
        assert_eq!(ring.group_ranks(3, &[0]).unwrap(), [0, 2, 3, 1]);
    }

    #[test]
    fn meshes_decode_and_place_ranks() {
        let mesh = Mesh::decode(&[2, 2, 4, 0]).unwrap();
        assert_eq!(mesh.sizes, [2, 4]);
        // Rank 6 is at (1, 2): index 2 of its tp group (color 1), index 1
        // of its dp group (color 2), 6 over both.
        assert_eq!(mesh.group_position(6, &[1]).unwrap(), (2, 1));
        assert_eq!(mesh.group_position(6, &[0]).unwrap(), (1, 2));
        assert_eq!(mesh.group_position(6, &[0, 1]).unwrap(), (6, 0));
        assert_eq!(mesh.group_position(6, &[1, 0]).unwrap(), (5, 0));
        assert_eq!(mesh.group_size(&[0, 1]), 8);
        let ring = Mesh::decode(&[1, 4, 4, 0, 2, 3, 1]).unwrap();
        assert_eq!(ring.group_position(3, &[0]).unwrap(), (2, 0));
        assert!(Mesh::decode(&[1, 4, 2, 0, 1]).is_err());
        assert!(Mesh::decode(&[2, 2]).is_err());
        assert_eq!(mesh.group_position(9, &[0]), Err(RuntimeError::NotInMesh(9)));
    }
}
