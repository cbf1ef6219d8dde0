//! The MPI shim (`src/mpi.c`): communicators and requests by index.
//!
//! Without the `mpi` feature the same functions serve a world of one
//! process (`solo`): the runtime then needs no MPI library, as for a
//! single-GPU program carried to a machine that has none.

#[cfg(not(feature = "mpi"))]
pub use solo::*;

#[cfg(feature = "mpi")]
use std::ffi::{c_char, c_int, c_void};

#[cfg(feature = "mpi")]
unsafe extern "C" {
    pub fn dist_mpi_init() -> c_int;
    pub fn dist_mpi_flavour() -> *const c_char;
    pub fn dist_mpi_finalize() -> c_int;
    pub fn dist_mpi_rank(rank: *mut c_int) -> c_int;
    pub fn dist_mpi_size(size: *mut c_int) -> c_int;
    pub fn dist_mpi_comm_create(ranks: *const c_int, n: c_int, comm: *mut i64) -> c_int;
    pub fn dist_mpi_allreduce(
        comm: i64,
        input: *const c_void,
        output: *mut c_void,
        n: i64,
        dtype: c_int,
        op: c_int,
        request: i64,
    ) -> c_int;
    pub fn dist_mpi_reduce_scatter(
        comm: i64,
        input: *const c_void,
        output: *mut c_void,
        n: i64,
        dtype: c_int,
        op: c_int,
        request: i64,
    ) -> c_int;
    pub fn dist_mpi_allgather(
        comm: i64,
        input: *const c_void,
        output: *mut c_void,
        n: i64,
        dtype: c_int,
        request: i64,
    ) -> c_int;
    pub fn dist_mpi_alltoall(
        comm: i64,
        input: *const c_void,
        output: *mut c_void,
        n: i64,
        dtype: c_int,
        request: i64,
    ) -> c_int;
    pub fn dist_mpi_wait(request: i64) -> c_int;
    pub fn dist_mpi_test(request: i64, done: *mut c_int) -> c_int;
    pub fn dist_mpi_isend(comm: i64, buf: *const c_void, bytes: i64, peer: c_int, tag: c_int, request: i64) -> c_int;
    pub fn dist_mpi_recv(comm: i64, buf: *mut c_void, bytes: i64, peer: c_int, tag: c_int) -> c_int;
    pub fn dist_mpi_bcast(comm: i64, buf: *mut c_void, bytes: i64, root: c_int) -> c_int;
    pub fn dist_mpi_error_string(code: c_int, buf: *mut c_char, len: c_int);
    pub fn dist_mpi_abort(code: c_int);
}

/// The shim's functions for a world of one process: every group is this
/// process alone, so each collective copies its input to its output and
/// completes at once. Same signatures and error codes (0) as `mpi.c`.
#[cfg(not(feature = "mpi"))]
mod solo {
    use crate::collectives::Dtype;
    use std::ffi::{c_char, c_int, c_void};

    /// Copies `n` elements of `dtype` from `input` to `output` (nothing when
    /// they are the same buffer, MPI's in-place form).
    ///
    /// # Safety
    /// Both point at `n` elements of `dtype`, in buffers that do not
    /// partly overlap.
    unsafe fn copy(input: *const c_void, output: *mut c_void, n: i64, dtype: c_int) -> c_int {
        let size = [Dtype::F32, Dtype::F64, Dtype::I32, Dtype::I64, Dtype::BF16, Dtype::Bool]
            .into_iter()
            .find(|d| *d as c_int == dtype)
            .map_or(4, Dtype::size);
        if input != output.cast_const() && n > 0 {
            // SAFETY: the caller's contract.
            unsafe { std::ptr::copy_nonoverlapping(input.cast::<u8>(), output.cast::<u8>(), n as usize * size) };
        }
        0
    }

    /// # Safety
    /// Always safe; `unsafe` only to match the MPI shim's signature.
    pub unsafe fn dist_mpi_init() -> c_int {
        0
    }

    /// # Safety
    /// Always safe; `unsafe` only to match the MPI shim's signature.
    pub unsafe fn dist_mpi_flavour() -> *const c_char {
        c"no MPI (a single process)".as_ptr()
    }

    /// # Safety
    /// Always safe; `unsafe` only to match the MPI shim's signature.
    pub unsafe fn dist_mpi_finalize() -> c_int {
        0
    }

    /// # Safety
    /// `rank` is writable.
    pub unsafe fn dist_mpi_rank(rank: *mut c_int) -> c_int {
        // SAFETY: the caller's contract.
        unsafe { *rank = 0 };
        0
    }

    /// # Safety
    /// `size` is writable.
    pub unsafe fn dist_mpi_size(size: *mut c_int) -> c_int {
        // SAFETY: the caller's contract.
        unsafe { *size = 1 };
        0
    }

    /// # Safety
    /// `comm` is writable.
    pub unsafe fn dist_mpi_comm_create(_ranks: *const c_int, _n: c_int, comm: *mut i64) -> c_int {
        // SAFETY: the caller's contract.
        unsafe { *comm = 0 };
        0
    }

    /// # Safety
    /// As [`copy`] with `n` elements.
    pub unsafe fn dist_mpi_allreduce(
        _comm: i64,
        input: *const c_void,
        output: *mut c_void,
        n: i64,
        dtype: c_int,
        _op: c_int,
        _request: i64,
    ) -> c_int {
        // SAFETY: the caller's contract.
        unsafe { copy(input, output, n, dtype) }
    }

    /// # Safety
    /// As [`copy`] with `n` (the output's count, the input's in a group of one).
    pub unsafe fn dist_mpi_reduce_scatter(
        _comm: i64,
        input: *const c_void,
        output: *mut c_void,
        n: i64,
        dtype: c_int,
        _op: c_int,
        _request: i64,
    ) -> c_int {
        // SAFETY: the caller's contract.
        unsafe { copy(input, output, n, dtype) }
    }

    /// # Safety
    /// As [`copy`] with `n` elements.
    pub unsafe fn dist_mpi_allgather(
        _comm: i64,
        input: *const c_void,
        output: *mut c_void,
        n: i64,
        dtype: c_int,
        _request: i64,
    ) -> c_int {
        // SAFETY: the caller's contract.
        unsafe { copy(input, output, n, dtype) }
    }

    /// # Safety
    /// As [`copy`] with `n` elements.
    pub unsafe fn dist_mpi_alltoall(
        _comm: i64,
        input: *const c_void,
        output: *mut c_void,
        n: i64,
        dtype: c_int,
        _request: i64,
    ) -> c_int {
        // SAFETY: the caller's contract.
        unsafe { copy(input, output, n, dtype) }
    }

    /// # Safety
    /// Always safe; `unsafe` only to match the MPI shim's signature.
    pub unsafe fn dist_mpi_wait(_request: i64) -> c_int {
        0
    }

    /// # Safety
    /// `done` is a valid out-pointer.
    pub unsafe fn dist_mpi_test(_request: i64, done: *mut c_int) -> c_int {
        // SAFETY: the caller's contract.
        unsafe { *done = 1 };
        0
    }

    /// Alone, a device has no peer: the runtime refuses a point-to-point
    /// transfer before it gets here (a group of one has no other device).
    ///
    /// # Safety
    /// Always safe; `unsafe` only to match the MPI shim's signature.
    pub unsafe fn dist_mpi_isend(
        _comm: i64,
        _buf: *const c_void,
        _bytes: i64,
        _peer: c_int,
        _tag: c_int,
        _request: i64,
    ) -> c_int {
        1
    }

    /// As [`dist_mpi_isend`].
    ///
    /// # Safety
    /// Always safe; `unsafe` only to match the MPI shim's signature.
    pub unsafe fn dist_mpi_recv(_comm: i64, _buf: *mut c_void, _bytes: i64, _peer: c_int, _tag: c_int) -> c_int {
        1
    }

    /// # Safety
    /// Always safe; `unsafe` only to match the MPI shim's signature.
    pub unsafe fn dist_mpi_bcast(_comm: i64, _buf: *mut c_void, _bytes: i64, _root: c_int) -> c_int {
        0
    }

    /// # Safety
    /// `buf` holds `len` > 0 bytes.
    pub unsafe fn dist_mpi_error_string(_code: c_int, buf: *mut c_char, len: c_int) {
        if len > 0 {
            // SAFETY: the caller's contract.
            unsafe { *buf = 0 };
        }
    }

    /// # Safety
    /// Always safe; `unsafe` only to match the MPI shim's signature.
    pub unsafe fn dist_mpi_abort(code: c_int) {
        std::process::exit(code)
    }
}
