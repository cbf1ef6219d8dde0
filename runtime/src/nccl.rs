//! Collectives on NCCL (loaded at run time) for the GPU backend: one NCCL
//! communicator per mesh-axis group, its unique id broadcast over the
//! group's MPI communicator; every collective runs on the communication
//! stream after an event from the compute stream, and records an event the
//! wait makes the compute stream (and the host) wait for.

use crate::GpuError;
use crate::cuda::Gpu;
use crate::dl::{Library, LoadError, library};
use std::ffi::{CStr, c_char, c_int, c_void};
use std::sync::OnceLock;
use thiserror::Error;

type Comm = *mut c_void;

/// `ncclUint8`: point-to-point transfers move bytes.
const NCCL_UINT8: c_int = 1;

/// Why NCCL could not be loaded, or an NCCL call that failed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum NcclError {
    #[error("collectives on the GPU need NCCL (libnccl.so.2): {0}")]
    NoLibrary(LoadError),
    /// NCCL lacks a function the runtime uses.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// `message` is NCCL's text for `code`.
    #[error("{call} failed: {message}")]
    Call {
        call: &'static str,
        code: c_int,
        message: String,
    },
}

/// `ncclUniqueId`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct UniqueId {
    pub internal: [c_char; 128],
}

library! {
    /// The NCCL functions the runtime uses.
    Nccl {
        ncclGetUniqueId: fn(*mut UniqueId) -> c_int;
        ncclCommInitRank: fn(*mut Comm, c_int, UniqueId, c_int) -> c_int;
        ncclAllReduce: fn(*const c_void, *mut c_void, usize, c_int, c_int, Comm, *mut c_void) -> c_int;
        ncclReduceScatter: fn(*const c_void, *mut c_void, usize, c_int, c_int, Comm, *mut c_void) -> c_int;
        ncclAllGather: fn(*const c_void, *mut c_void, usize, c_int, Comm, *mut c_void) -> c_int;
        ncclSend: fn(*const c_void, usize, c_int, c_int, Comm, *mut c_void) -> c_int;
        ncclRecv: fn(*mut c_void, usize, c_int, c_int, Comm, *mut c_void) -> c_int;
        ncclGroupStart: fn() -> c_int;
        ncclGroupEnd: fn() -> c_int;
        ncclCommDestroy: fn(Comm) -> c_int;
        ncclGetErrorString: fn(c_int) -> *const c_char;
    }
}

// SAFETY: the table holds plain function pointers.
unsafe impl Send for Nccl {}
unsafe impl Sync for Nccl {}

static NCCL: OnceLock<Result<Nccl, NcclError>> = OnceLock::new();

/// NCCL, loaded on first use, or why it is missing.
pub fn nccl() -> Result<&'static Nccl, NcclError> {
    NCCL.get_or_init(|| {
        let library = Library::open("libnccl.so.2").map_err(NcclError::NoLibrary)?;
        Ok(Nccl::load(&library)?)
    })
    .as_ref()
    .map_err(Clone::clone)
}

impl Nccl {
    fn check(&self, call: &'static str, code: c_int) -> Result<(), NcclError> {
        if code == 0 {
            return Ok(());
        }
        // SAFETY: NCCL returns a static string for any code.
        let message = unsafe { CStr::from_ptr((self.ncclGetErrorString)(code)) }.to_string_lossy();
        Err(NcclError::Call {
            call,
            code,
            message: message.into_owned(),
        })
    }

    /// A communicator over `size` ranks from `id`, as rank `rank`.
    pub fn communicator(&self, id: UniqueId, size: i64, rank: i64) -> Result<usize, NcclError> {
        let mut comm = std::ptr::null_mut();
        // SAFETY: an out-pointer; every rank of the group calls this.
        self.check("ncclCommInitRank", unsafe {
            (self.ncclCommInitRank)(&mut comm, size as c_int, id, rank as c_int)
        })?;
        Ok(comm as usize)
    }

    /// Frees a communicator made by [`Nccl::communicator`].
    pub fn destroy(&self, comm: usize) -> Result<(), NcclError> {
        // SAFETY: `comm` is live and destroyed once.
        self.check("ncclCommDestroy", unsafe { (self.ncclCommDestroy)(comm as Comm) })
    }

    /// Queues on `stream` a send of the `bytes` bytes at `buffer` to rank
    /// `peer` of `comm`.
    ///
    /// # Safety
    /// `buffer` is device memory that holds `bytes` bytes until the send has
    /// completed on `stream`.
    pub unsafe fn send(
        &self,
        buffer: *const c_void,
        bytes: usize,
        peer: i64,
        comm: usize,
        stream: *mut c_void,
    ) -> Result<(), NcclError> {
        // SAFETY: guaranteed by the caller.
        self.check("ncclSend", unsafe {
            (self.ncclSend)(buffer, bytes, NCCL_UINT8, peer as c_int, comm as Comm, stream)
        })
    }

    /// Queues on `stream` a receive of `bytes` bytes into `buffer` from
    /// rank `peer` of `comm`.
    ///
    /// # Safety
    /// `buffer` is device memory that holds `bytes` bytes, not otherwise
    /// used until the receive has completed on `stream`.
    pub unsafe fn recv(
        &self,
        buffer: *mut c_void,
        bytes: usize,
        peer: i64,
        comm: usize,
        stream: *mut c_void,
    ) -> Result<(), NcclError> {
        // SAFETY: guaranteed by the caller.
        self.check("ncclRecv", unsafe {
            (self.ncclRecv)(buffer, bytes, NCCL_UINT8, peer as c_int, comm as Comm, stream)
        })
    }

    /// A fresh unique id (on the group's first rank).
    pub fn unique_id(&self) -> Result<UniqueId, NcclError> {
        let mut id = UniqueId { internal: [0; 128] };
        // SAFETY: an out-pointer.
        self.check("ncclGetUniqueId", unsafe { (self.ncclGetUniqueId)(&mut id) })?;
        Ok(id)
    }
}

/// What to run: the runtime's collective on device buffers.
pub struct Launch {
    pub kind: crate::collectives::Kind,
    pub dtype: crate::collectives::Dtype,
    pub element: usize,
    pub input: *const c_void,
    pub output: *mut c_void,
    pub input_len: usize,
    pub output_len: usize,
    pub reduction: i32,
    pub group: i64,
    pub comm: usize,
}

/// Enqueues `launch` on the communication stream after the work queued so
/// far on the compute stream; returns the event that marks its end.
pub fn enqueue(gpu: &Gpu, launch: &Launch) -> Result<*mut c_void, GpuError> {
    let nccl = nccl()?;
    gpu.order(gpu.comm, gpu.record(gpu.compute)?)?;
    // ncclUint8 = 1, ncclInt32 = 2, ncclInt64 = 4, ncclFloat32 = 7,
    // ncclFloat64 = 8, ncclBfloat16 = 9;
    // ncclSum 0, ncclMax 2, ncclMin 3, ncclAvg 4 (dist's kinds: 0 sum,
    // 1 avg, 2 max, 3 min).
    let dtype = match launch.dtype {
        crate::collectives::Dtype::F32 => 7,
        crate::collectives::Dtype::F64 => 8,
        crate::collectives::Dtype::I32 => 2,
        crate::collectives::Dtype::I64 => 4,
        crate::collectives::Dtype::BF16 => 9,
        crate::collectives::Dtype::Bool => 1,
    };
    let op = match launch.reduction {
        1 => 4,
        2 => 2,
        3 => 3,
        _ => 0,
    };
    let (comm, stream) = (launch.comm as Comm, gpu.comm);
    // SAFETY: the buffers are device-accessible (managed) and live until
    // the wait, as the lowering guarantees.
    unsafe {
        match launch.kind {
            crate::collectives::Kind::AllReduce => nccl.check(
                "ncclAllReduce",
                (nccl.ncclAllReduce)(launch.input, launch.output, launch.input_len, dtype, op, comm, stream),
            )?,
            crate::collectives::Kind::ReduceScatter => nccl.check(
                "ncclReduceScatter",
                (nccl.ncclReduceScatter)(launch.input, launch.output, launch.output_len, dtype, op, comm, stream),
            )?,
            crate::collectives::Kind::AllGather => nccl.check(
                "ncclAllGather",
                (nccl.ncclAllGather)(launch.input, launch.output, launch.input_len, dtype, comm, stream),
            )?,
            crate::collectives::Kind::AllToAll => {
                let block = launch.input_len / launch.group.max(1) as usize;
                let bytes = block * launch.element;
                nccl.check("ncclGroupStart", (nccl.ncclGroupStart)())?;
                for peer in 0..launch.group {
                    let offset = peer as usize * bytes;
                    nccl.check(
                        "ncclSend",
                        (nccl.ncclSend)(launch.input.byte_add(offset), block, dtype, peer as c_int, comm, stream),
                    )?;
                    nccl.check(
                        "ncclRecv",
                        (nccl.ncclRecv)(
                            launch.output.byte_add(offset),
                            block,
                            dtype,
                            peer as c_int,
                            comm,
                            stream,
                        ),
                    )?;
                }
                nccl.check("ncclGroupEnd", (nccl.ncclGroupEnd)())?;
            }
        }
    }
    Ok(gpu.record(gpu.comm)?)
}
