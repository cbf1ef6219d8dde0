//! The GPU backend's host side on the CUDA driver API, loaded at run time:
//! the `mgpu*` functions that MLIR's `gpu-to-llvm` lowering calls (module
//! load, kernel launch, streams, managed memory), one context per process on
//! the device of its local rank, a compute stream shared by every launch and
//! a communication stream for NCCL.

use crate::dl::{Library, LoadError, library};
use crate::memref::MemRef1;
use std::collections::{BTreeMap, HashMap};
use std::ffi::{CStr, c_char, c_int, c_uint, c_void};
use std::sync::{Mutex, OnceLock};
use thiserror::Error;

pub type Handle = *mut c_void;

/// Why the GPU could not be opened, or a driver call that failed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CudaError {
    #[error("no CUDA driver (an NVIDIA GPU and its driver are needed): {0}")]
    NoDriver(LoadError),
    /// The driver lacks a function the runtime uses.
    #[error(transparent)]
    Load(#[from] LoadError),
    #[error("the CUDA driver sees no GPU")]
    NoDevice,
    #[error("process {local_rank} on this node has no GPU of its own: the node has {count} (one process per GPU)")]
    NotOwnDevice { local_rank: i64, count: c_int },
    /// `message` is the driver's text for `code`, or `error <code>` where
    /// it has none.
    #[error("{call} failed: {message}")]
    Call {
        call: &'static str,
        code: c_int,
        message: String,
    },
}

library! {
    /// The driver API functions the runtime uses.
    Driver {
        cuInit: fn(c_uint) -> c_int;
        cuDeviceGetCount: fn(*mut c_int) -> c_int;
        cuDeviceGet: fn(*mut c_int, c_int) -> c_int;
        cuDevicePrimaryCtxRetain: fn(*mut Handle, c_int) -> c_int;
        cuCtxSetCurrent: fn(Handle) -> c_int;
        cuModuleLoadData: fn(*mut Handle, *const c_void) -> c_int;
        cuModuleGetFunction: fn(*mut Handle, Handle, *const c_char) -> c_int;
        cuLaunchKernel: fn(Handle, c_uint, c_uint, c_uint, c_uint, c_uint, c_uint, c_uint, Handle, *mut *mut c_void, *mut *mut c_void) -> c_int;
        cuStreamCreate: fn(*mut Handle, c_uint) -> c_int;
        cuStreamSynchronize: fn(Handle) -> c_int;
        cuStreamWaitEvent: fn(Handle, Handle, c_uint) -> c_int;
        cuEventCreate: fn(*mut Handle, c_uint) -> c_int;
        cuEventRecord: fn(Handle, Handle) -> c_int;
        cuEventSynchronize: fn(Handle) -> c_int;
        cuEventQuery: fn(Handle) -> c_int;
        cuEventDestroy_v2: fn(Handle) -> c_int;
        cuEventElapsedTime: fn(*mut f32, Handle, Handle) -> c_int;
        cuMemAllocManaged: fn(*mut u64, usize, c_uint) -> c_int;
        cuMemAlloc_v2: fn(*mut u64, usize) -> c_int;
        cuMemFree_v2: fn(u64) -> c_int;
        cuMemAllocHost_v2: fn(*mut *mut c_void, usize) -> c_int;
        cuMemFreeHost: fn(*mut c_void) -> c_int;
        cuMemsetD32Async: fn(u64, c_uint, usize, Handle) -> c_int;
        cuMemsetD16Async: fn(u64, u16, usize, Handle) -> c_int;
        cuMemcpyAsync: fn(u64, u64, usize, Handle) -> c_int;
        cuMemcpyHtoD_v2: fn(u64, *const c_void, usize) -> c_int;
        cuMemcpyDtoH_v2: fn(*mut c_void, u64, usize) -> c_int;
        cuGetErrorString: fn(c_int, *mut *const c_char) -> c_int;
        cuStreamBeginCapture_v2: fn(Handle, c_uint) -> c_int;
        cuStreamEndCapture: fn(Handle, *mut Handle) -> c_int;
        cuGraphInstantiateWithFlags: fn(*mut Handle, Handle, u64) -> c_int;
        cuGraphLaunch: fn(Handle, Handle) -> c_int;
        cuGraphDestroy: fn(Handle) -> c_int;
    }
}

const CU_MEM_ATTACH_GLOBAL: c_uint = 1;
const CU_STREAM_NON_BLOCKING: c_uint = 1;
/// The legacy default stream's handle (`CU_STREAM_LEGACY`).
const CU_STREAM_LEGACY: Handle = 1 as Handle;
const CU_EVENT_DISABLE_TIMING: c_uint = 2;
/// `cuEventQuery`'s answer for work still queued.
const CUDA_ERROR_NOT_READY: c_int = 600;

/// The process's GPU: the driver, its context and streams, and the kernel
/// modules loaded so far (by the address of their embedded PTX).
pub struct Gpu {
    pub driver: Driver,
    pub device: c_int,
    pub compute: Handle,
    pub comm: Handle,
    /// Point-to-point transfers toward higher and lower positions in their
    /// group, a stream each (`p2p::device`).
    pub p2p: [Handle; 2],
    modules: Mutex<HashMap<usize, usize>>,
    pool: Mutex<Pool>,
    /// With `DIST_RT_GPU_PROFILE` set: each kernel's name, launches and
    /// milliseconds, reported on stderr when the process exits.
    profile: Option<Mutex<Profile>>,
}

#[derive(Default)]
pub struct Profile {
    /// Kernel modules by handle: their load order (names repeat across
    /// modules).
    modules: HashMap<usize, usize>,
    names: HashMap<usize, String>,
    kernels: std::collections::BTreeMap<String, KernelTimes>,
}

/// One kernel's launches and their device time (ms). The fastest launch
/// shows the kernel without the first touches of managed memory, which
/// migrate pages inside the first launches.
#[derive(Default)]
struct KernelTimes {
    launches: u64,
    total: f64,
    fastest: f64,
}

// SAFETY: the compiled program calls the runtime from its main thread only,
// where the context was made current; the caches are behind mutexes.
unsafe impl Send for Gpu {}
unsafe impl Sync for Gpu {}

static GPU: OnceLock<Result<Gpu, CudaError>> = OnceLock::new();

impl Gpu {
    /// The driver's message for `code`, with the call that returned it.
    pub fn check(&self, call: &'static str, code: c_int) -> Result<(), CudaError> {
        if code == 0 {
            return Ok(());
        }
        let mut text: *const c_char = std::ptr::null();
        // SAFETY: an out-pointer; the driver returns a static string.
        let message = unsafe {
            if (self.driver.cuGetErrorString)(code, &mut text) == 0 && !text.is_null() {
                CStr::from_ptr(text).to_string_lossy().into_owned()
            } else {
                format!("error {code}")
            }
        };
        Err(CudaError::Call { call, code, message })
    }

    fn open(local_rank: i64) -> Result<Self, CudaError> {
        let library = Library::open("libcuda.so.1").map_err(CudaError::NoDriver)?;
        let driver = Driver::load(&library)?;
        let mut gpu = Gpu {
            driver,
            device: 0,
            compute: std::ptr::null_mut(),
            comm: std::ptr::null_mut(),
            p2p: [std::ptr::null_mut(); 2],
            modules: Mutex::new(HashMap::new()),
            pool: Mutex::new(Pool::default()),
            profile: std::env::var_os("DIST_RT_GPU_PROFILE").map(|_| Mutex::new(Profile::default())),
        };
        let d = &gpu.driver;
        let mut count = 0;
        let mut context = std::ptr::null_mut();
        // SAFETY: driver calls on out-pointers that live for the call.
        unsafe {
            gpu.check("cuInit", (d.cuInit)(0))?;
            gpu.check("cuDeviceGetCount", (d.cuDeviceGetCount)(&mut count))?;
            if count == 0 {
                return Err(CudaError::NoDevice);
            }
            if local_rank >= i64::from(count) {
                return Err(CudaError::NotOwnDevice { local_rank, count });
            }
            let mut device = 0;
            gpu.check("cuDeviceGet", (d.cuDeviceGet)(&mut device, local_rank as c_int))?;
            gpu.check(
                "cuDevicePrimaryCtxRetain",
                (d.cuDevicePrimaryCtxRetain)(&mut context, device),
            )?;
            gpu.check("cuCtxSetCurrent", (d.cuCtxSetCurrent)(context))?;
            let (mut compute, mut comm) = (std::ptr::null_mut(), std::ptr::null_mut());
            gpu.check(
                "cuStreamCreate",
                (d.cuStreamCreate)(&mut compute, CU_STREAM_NON_BLOCKING),
            )?;
            gpu.check("cuStreamCreate", (d.cuStreamCreate)(&mut comm, CU_STREAM_NON_BLOCKING))?;
            let mut p2p = [std::ptr::null_mut(); 2];
            for stream in &mut p2p {
                gpu.check("cuStreamCreate", (d.cuStreamCreate)(stream, CU_STREAM_NON_BLOCKING))?;
            }
            gpu.p2p = p2p;
            gpu.device = device;
            gpu.compute = compute;
            gpu.comm = comm;
            atexit(release_pool);
            if gpu.profile.is_some() {
                atexit(report_profile);
            }
        }
        Ok(gpu)
    }

    /// An event recorded on `stream` now.
    pub fn record(&self, stream: Handle) -> Result<Handle, CudaError> {
        let mut event = std::ptr::null_mut();
        // SAFETY: driver calls on a live stream and an out-pointer.
        unsafe {
            self.check(
                "cuEventCreate",
                (self.driver.cuEventCreate)(&mut event, CU_EVENT_DISABLE_TIMING),
            )?;
            self.check("cuEventRecord", (self.driver.cuEventRecord)(event, stream))?;
        }
        Ok(event)
    }

    /// Makes the compute stream wait for `event` (a collective's end), then
    /// releases it (the driver keeps it until it completes). The host does
    /// not wait: kernels launched after this start after the collective, and
    /// the host touches its buffers only after a synchronisation of the
    /// compute stream, which `dist-chain-gpu-launches` places before any
    /// host access to device memory.
    pub fn finish(&self, event: Handle) -> Result<(), CudaError> {
        self.order(self.compute, event)
    }

    /// Makes `stream` wait for `event`, then releases the event.
    pub fn order(&self, stream: Handle, event: Handle) -> Result<(), CudaError> {
        // SAFETY: `event` was recorded and is destroyed once.
        unsafe {
            self.check("cuStreamWaitEvent", (self.driver.cuStreamWaitEvent)(stream, event, 0))?;
            self.check("cuEventDestroy", (self.driver.cuEventDestroy_v2)(event))
        }
    }

    /// Waits on the host for `event` (at once when it has completed, as
    /// after a synchronisation of its stream), then releases it.
    pub fn complete(&self, event: Handle) -> Result<(), CudaError> {
        // SAFETY: `event` was recorded and is destroyed once.
        unsafe {
            let code = (self.driver.cuEventQuery)(event);
            if code == CUDA_ERROR_NOT_READY {
                self.check("cuEventSynchronize", (self.driver.cuEventSynchronize)(event))?;
            } else {
                self.check("cuEventQuery", code)?;
            }
            self.check("cuEventDestroy", (self.driver.cuEventDestroy_v2)(event))
        }
    }
}

unsafe extern "C" {
    fn atexit(callback: extern "C" fn()) -> c_int;
}

/// Prints the kernel profile: one line per kernel, then the total.
extern "C" fn report_profile() {
    let Some(Ok(gpu)) = GPU.get() else { return };
    let Some(profile) = &gpu.profile else { return };
    let profile = profile.lock().unwrap_or_else(|e| e.into_inner());
    let mut total = 0.0;
    for (name, times) in &profile.kernels {
        eprintln!(
            "dist-runtime: kernel {name}: {} launches, {:.3} ms, fastest {:.4} ms",
            times.launches, times.total, times.fastest
        );
        total += times.total;
    }
    eprintln!("dist-runtime: kernels: {total:.3} ms on device {}", gpu.device);
}

/// The GPU of this process (opened on first use, on the device of its local
/// rank), or why there is none.
pub fn gpu() -> Result<&'static Gpu, CudaError> {
    GPU.get_or_init(|| Gpu::open(local_rank()))
        .as_ref()
        .map_err(Clone::clone)
}

/// The rank among the processes on this node, as the launchers say it. The
/// GPU opens before `main` (upstream's constructors load the kernel modules),
/// so MPI cannot be asked: MPICH's and Open MPI's local ranks, Slurm's, then
/// the PMI ranks of a single-node job.
fn local_rank() -> i64 {
    [
        "MPI_LOCALRANKID",
        "OMPI_COMM_WORLD_LOCAL_RANK",
        "SLURM_LOCALID",
        "PMI_RANK",
        "PMIX_RANK",
    ]
    .iter()
    .find_map(|v| std::env::var(v).ok()?.parse().ok())
    .unwrap_or(0)
}

/// The GPU, or the job ends saying why there is none.
pub(crate) fn device() -> &'static Gpu {
    gpu().unwrap_or_else(|e| crate::fail(e))
}

fn checked(gpu: &Gpu, call: &'static str, code: c_int) {
    gpu.check(call, code).unwrap_or_else(|e| crate::fail(e));
}

/// Loads the kernel module whose PTX (NUL-terminated) is at `data`; the
/// driver JIT-compiles it. Upstream's constructors load each module once at
/// start-up; the cache keeps a second load of the same image from compiling
/// it again.
///
/// # Safety
/// `data` points at a NUL-terminated PTX image that outlives the process's
/// use of the module (it is a constant of the program).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mgpuModuleLoadJIT(data: *mut c_void, _opt_level: c_int) -> Handle {
    let gpu = device();
    let mut modules = gpu.modules.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&module) = modules.get(&(data as usize)) {
        return module as Handle;
    }
    let mut module = std::ptr::null_mut();
    // SAFETY: guaranteed by the caller; an out-pointer.
    checked(gpu, "cuModuleLoadData", unsafe {
        (gpu.driver.cuModuleLoadData)(&mut module, data)
    });
    modules.insert(data as usize, module as usize);
    if let Some(profile) = &gpu.profile {
        let mut profile = profile.lock().unwrap_or_else(|e| e.into_inner());
        let order = profile.modules.len();
        profile.modules.insert(module as usize, order);
    }
    module
}

/// Modules stay loaded for the next launch of the step; the driver frees
/// them when the process ends.
#[unsafe(no_mangle)]
pub extern "C" fn mgpuModuleUnload(_module: Handle) {}

/// # Safety
/// `module` came from [`mgpuModuleLoadJIT`]; `name` is a C string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mgpuModuleGetFunction(module: Handle, name: *const c_char) -> Handle {
    let gpu = device();
    let mut function = std::ptr::null_mut();
    // SAFETY: guaranteed by the caller; an out-pointer.
    checked(gpu, "cuModuleGetFunction", unsafe {
        (gpu.driver.cuModuleGetFunction)(&mut function, module, name)
    });
    if let Some(profile) = &gpu.profile {
        // SAFETY: `name` is a C string (guaranteed by the caller).
        let name = unsafe { CStr::from_ptr(name) }.to_string_lossy().into_owned();
        let mut profile = profile.lock().unwrap_or_else(|e| e.into_inner());
        let order = profile.modules.get(&(module as usize)).copied().unwrap_or_default();
        profile
            .names
            .insert(function as usize, format!("module {order:3} {name}"));
    }
    function
}

/// # Safety
/// `params` points at the kernel's arguments, as `gpu-to-llvm` packs them.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn mgpuLaunchKernel(
    function: Handle,
    grid_x: isize,
    grid_y: isize,
    grid_z: isize,
    block_x: isize,
    block_y: isize,
    block_z: isize,
    shared_bytes: i32,
    stream: Handle,
    params: *mut *mut c_void,
    extra: *mut *mut c_void,
    _param_count: usize,
) {
    let gpu = device();
    let name = |profile: &Profile| {
        profile
            .names
            .get(&(function as usize))
            .cloned()
            .unwrap_or_else(|| format!("{function:p}"))
    };
    gpu.timed(stream, name, || {
        // SAFETY: guaranteed by the caller.
        checked(gpu, "cuLaunchKernel", unsafe {
            (gpu.driver.cuLaunchKernel)(
                function,
                grid_x as c_uint,
                grid_y as c_uint,
                grid_z as c_uint,
                block_x as c_uint,
                block_y as c_uint,
                block_z as c_uint,
                shared_bytes as c_uint,
                stream,
                params,
                extra,
            )
        })
    });
}

impl Gpu {
    /// Runs `work`, which queues work on `stream`; with `DIST_RT_GPU_PROFILE`
    /// set, between two events whose elapsed time (waited for) is added to
    /// the profile's entry `name` gives.
    pub fn timed(&self, stream: Handle, name: impl FnOnce(&Profile) -> String, work: impl FnOnce()) {
        let Some(profile) = &self.profile else {
            return work();
        };
        let (mut start, mut end) = (std::ptr::null_mut(), std::ptr::null_mut());
        let mut ms = 0f32;
        // SAFETY: out-pointers and events on the live stream, destroyed once.
        unsafe {
            checked(self, "cuEventCreate", (self.driver.cuEventCreate)(&mut start, 0));
            checked(self, "cuEventRecord", (self.driver.cuEventRecord)(start, stream));
            work();
            checked(self, "cuEventCreate", (self.driver.cuEventCreate)(&mut end, 0));
            checked(self, "cuEventRecord", (self.driver.cuEventRecord)(end, stream));
            checked(self, "cuEventSynchronize", (self.driver.cuEventSynchronize)(end));
            checked(
                self,
                "cuEventElapsedTime",
                (self.driver.cuEventElapsedTime)(&mut ms, start, end),
            );
            checked(self, "cuEventDestroy", (self.driver.cuEventDestroy_v2)(start));
            checked(self, "cuEventDestroy", (self.driver.cuEventDestroy_v2)(end));
        }
        let mut profile = profile.lock().unwrap_or_else(|e| e.into_inner());
        let name = name(&profile);
        let entry = profile.kernels.entry(name).or_default();
        let ms = f64::from(ms);
        entry.fastest = if entry.launches == 0 { ms } else { entry.fastest.min(ms) };
        entry.launches += 1;
        entry.total += ms;
    }
}

/// Every launch uses the one compute stream, so that the events of the
/// collectives order against all kernels.
#[unsafe(no_mangle)]
pub extern "C" fn mgpuStreamCreate() -> Handle {
    device().compute
}

/// The compute stream lives as long as the process.
#[unsafe(no_mangle)]
pub extern "C" fn mgpuStreamDestroy(_stream: Handle) {}

/// # Safety
/// `stream` came from [`mgpuStreamCreate`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mgpuStreamSynchronize(stream: Handle) {
    if crate::graph::skip_wait() {
        return;
    }
    let gpu = device();
    // SAFETY: `stream` is the compute stream.
    checked(gpu, "cuStreamSynchronize", unsafe {
        (gpu.driver.cuStreamSynchronize)(stream)
    });
}

/// Managed memory for `host_shared` buffers (host code, kernels and NCCL
/// all touch them), device memory otherwise. Freed blocks are kept for the
/// next allocation of their size: `cuMemFree` synchronizes the device,
/// which would stall a collective in flight (deallocation frees a buffer
/// right after its last use, often between a start and its wait), and a
/// step allocates the same sizes every time.
#[unsafe(no_mangle)]
pub extern "C" fn mgpuMemAlloc(bytes: u64, _stream: Handle, host_shared: bool) -> *mut c_void {
    if bytes == 0 {
        return std::ptr::null_mut();
    }
    if host_shared {
        crate::graph::needs_host();
    }
    let gpu = device();
    let key = (bytes as usize, host_shared);
    let mut pool = gpu.pool.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(pointer) = pool.free.get_mut(&key).and_then(Vec::pop) {
        pool.blocks.insert(pointer, key);
        return pointer as *mut c_void;
    }
    pool.fresh(gpu, key) as *mut c_void
}

/// # Safety
/// `pointer` came from [`mgpuMemAlloc`] and is not used again.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mgpuMemFree(pointer: *mut c_void, _stream: Handle) {
    if pointer.is_null() {
        return;
    }
    let gpu = device();
    let mut pool = gpu.pool.lock().unwrap_or_else(|e| e.into_inner());
    match pool.blocks.remove(&(pointer as usize)) {
        Some(key) => pool.free.entry(key).or_default().push(pointer as usize),
        None => crate::fail(format!("mgpuMemFree of {pointer:p}, which mgpuMemAlloc did not return")),
    }
}

/// Blocks from the driver: those in use (by address, ordered for
/// [`device_block`]'s lookup), and those free by (size, managed).
#[derive(Default)]
struct Pool {
    blocks: BTreeMap<usize, (usize, bool)>,
    free: HashMap<(usize, bool), Vec<usize>>,
    /// The device copies of constants, by host address and bytes (their
    /// blocks are in `blocks`, never freed before exit).
    constants: HashMap<(usize, usize), usize>,
}

impl Pool {
    /// A new block of `key.0` bytes from the driver (managed memory where
    /// `key.1`), in use.
    fn fresh(&mut self, gpu: &Gpu, key: (usize, bool)) -> usize {
        let mut pointer = 0u64;
        // SAFETY: an out-pointer.
        let code = unsafe {
            if key.1 {
                (gpu.driver.cuMemAllocManaged)(&mut pointer, key.0, CU_MEM_ATTACH_GLOBAL)
            } else {
                (gpu.driver.cuMemAlloc_v2)(&mut pointer, key.0)
            }
        };
        checked(gpu, "cuMemAlloc", code);
        self.blocks.insert(pointer as usize, key);
        pointer as usize
    }
}

/// Whether `pointer` points into a block of device memory (not managed)
/// that [`mgpuMemAlloc`] handed out: the host cannot touch it, and the
/// runtime's readers and writers of `.npy` files stage it through host
/// memory ([`copy_to_device`], [`copy_from_device`]).
pub fn device_block(pointer: *const c_void) -> bool {
    let Some(Ok(gpu)) = GPU.get() else { return false };
    let pool = gpu.pool.lock().unwrap_or_else(|e| e.into_inner());
    let address = pointer as usize;
    pool.blocks
        .range(..=address)
        .next_back()
        .is_some_and(|(&start, &(bytes, managed))| !managed && address < start + bytes)
}

/// Copies `bytes` from host memory at `source` to device memory at
/// `target`; returns when the copy is done.
///
/// # Safety
/// `source` holds `bytes` bytes; `target` is in a device block of as many
/// ([`device_block`]).
pub unsafe fn copy_to_device(target: *mut c_void, source: *const c_void, bytes: usize) {
    crate::graph::needs_host();
    // SAFETY: guaranteed by the caller.
    unsafe { upload(device(), target as u64, source, bytes) };
}

/// Copies host memory to the device, done before any later work of the
/// compute stream: a copy from pageable memory returns once its bytes are
/// staged, its DMA still under way on the legacy stream, which the compute
/// stream (non-blocking) does not follow by itself; it is made to wait for
/// it on the device (the host does not wait).
///
/// # Safety
/// As [`copy_to_device`].
unsafe fn upload(gpu: &Gpu, target: u64, source: *const c_void, bytes: usize) {
    // SAFETY: guaranteed by the caller.
    checked(gpu, "cuMemcpyHtoD", unsafe {
        (gpu.driver.cuMemcpyHtoD_v2)(target, source, bytes)
    });
    if let Err(e) = gpu
        .record(CU_STREAM_LEGACY)
        .and_then(|copied| gpu.order(gpu.compute, copied))
    {
        crate::fail(e);
    }
}

/// The device copy of the constant of `bytes` bytes at `host` (a global
/// of the program that kernels or stream-ordered calls read), written to
/// `result` as a `memref<?xi8>`: uploaded at the first call, the same block
/// at every later one, so that a step copies no constant (and its graph,
/// captured after the first step, replays with the block it read). The
/// block stays until exit, when the pool is returned to the driver.
///
/// # Safety
/// Called by compiled code: `host` holds `bytes` bytes that never change,
/// `result` is a descriptor to write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn _mlir_ciface_dist_rt_gpu_constant(result: &mut MemRef1<u8>, host: *const c_void, bytes: i64) {
    let gpu = device();
    let key = (host as usize, bytes as usize);
    let known = gpu
        .pool
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .constants
        .get(&key)
        .copied();
    let pointer = match known {
        Some(pointer) => pointer,
        None if key.1 == 0 => 0,
        None => {
            crate::graph::uploads_once();
            let pointer = {
                let mut pool = gpu.pool.lock().unwrap_or_else(|e| e.into_inner());
                let pointer = pool.fresh(gpu, (key.1, false));
                pool.constants.insert(key, pointer);
                pointer
            };
            // SAFETY: the block was just allocated with `bytes` bytes;
            // guaranteed by the caller for `host`.
            unsafe { upload(gpu, pointer as u64, host, key.1) };
            pointer
        }
    };
    *result = MemRef1 {
        allocated: pointer as *mut u8,
        aligned: pointer as *mut u8,
        offset: 0,
        size: bytes,
        stride: 1,
    };
}

/// Copies `bytes` from device memory at `source` to host memory at
/// `target`; returns when the copy is done.
///
/// # Safety
/// `target` holds `bytes` bytes; `source` is in a device block of as many
/// ([`device_block`]).
pub unsafe fn copy_from_device(target: *mut c_void, source: *const c_void, bytes: usize) {
    crate::graph::needs_host();
    let gpu = device();
    // SAFETY: guaranteed by the caller.
    checked(gpu, "cuMemcpyDtoH", unsafe {
        (gpu.driver.cuMemcpyDtoH_v2)(target, source as u64, bytes)
    });
}

/// Returns the pooled blocks to the driver at exit (best effort: the
/// driver may already be shutting down).
extern "C" fn release_pool() {
    let Some(Ok(gpu)) = GPU.get() else { return };
    let pool = std::mem::take(&mut *gpu.pool.lock().unwrap_or_else(|e| e.into_inner()));
    for pointer in pool.free.into_values().flatten().chain(pool.blocks.into_keys()) {
        // SAFETY: each block came from the driver and is freed once.
        unsafe { (gpu.driver.cuMemFree_v2)(pointer as u64) };
    }
}

/// Fills `count` 32-bit words at `pointer` with `value` on `stream` (a
/// product's or a reduction's initial output, written by
/// `dist-finalize-gpu-launches` as a `gpu.memset`).
///
/// # Safety
/// `pointer` came from [`mgpuMemAlloc`] and holds `count` words; `stream`
/// from [`mgpuStreamCreate`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mgpuMemset32(pointer: *mut c_void, value: u32, count: u64, stream: Handle) {
    let gpu = device();
    // SAFETY: guaranteed by the caller.
    checked(gpu, "cuMemsetD32Async", unsafe {
        (gpu.driver.cuMemsetD32Async)(pointer as u64, value, count as usize, stream)
    });
}

/// Copies `bytes` from `source` to `target` on `stream` (a copy between
/// device buffers, written by `dist-chain-gpu-launches` as a `gpu.memcpy`:
/// the reshapes into a collective's contiguous buffer).
///
/// # Safety
/// Both point at `bytes` bytes of memory the device reaches; `stream` came
/// from [`mgpuStreamCreate`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mgpuMemcpy(target: *mut c_void, source: *mut c_void, bytes: usize, stream: Handle) {
    let gpu = device();
    // SAFETY: guaranteed by the caller.
    checked(gpu, "cuMemcpyAsync", unsafe {
        (gpu.driver.cuMemcpyAsync)(target as u64, source as u64, bytes, stream)
    });
}

/// [`mgpuMemset32`] of 16-bit elements (bf16).
///
/// # Safety
/// As for [`mgpuMemset32`], of `count` 16-bit elements.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mgpuMemset16(pointer: *mut c_void, value: u16, count: u64, stream: Handle) {
    let gpu = device();
    // SAFETY: guaranteed by the caller.
    checked(gpu, "cuMemsetD16Async", unsafe {
        (gpu.driver.cuMemsetD16Async)(pointer as u64, value, count as usize, stream)
    });
}
