//! The MPI shim (`src/mpi.c`): communicators and requests by index.

use std::ffi::{c_char, c_int, c_void};

unsafe extern "C" {
    pub fn dist_mpi_init() -> c_int;
    pub fn dist_mpi_flavour() -> *const c_char;
    pub fn dist_mpi_finalize() -> c_int;
    pub fn dist_mpi_rank(rank: *mut c_int) -> c_int;
    pub fn dist_mpi_size(size: *mut c_int) -> c_int;
    pub fn dist_mpi_comm_split(color: c_int, key: c_int, comm: *mut i64) -> c_int;
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
    pub fn dist_mpi_bcast(comm: i64, buf: *mut c_void, bytes: i64, root: c_int) -> c_int;
    pub fn dist_mpi_error_string(code: c_int, buf: *mut c_char, len: c_int);
    pub fn dist_mpi_abort(code: c_int);
}
