//! Inputs read from and results written to `.npy` files, one pair of
//! entry points per element type.

use crate::memref::MemRef1;
use crate::{fail, rank_and_size};
use dist_npy::{Bf16, Bool, Scalar};

/// The path of input `index` (`DIST_RUN_INPUT_<index>`, set by `dist-run`).
fn input_path(index: i64) -> String {
    std::env::var(format!("DIST_RUN_INPUT_{index}"))
        .unwrap_or_else(|_| fail(format!("input #{index} has no file (DIST_RUN_INPUT_{index})")))
}

/// Reads input `index`, an argument of `shape` and element type `T`, into
/// `out`, which holds its elements (in host or managed memory, or in a
/// device block, which it is copied to); the array must have that shape
/// and a dtype the argument accepts (see `dist_npy`).
///
/// # Safety
/// `out` and `shape` are live, contiguous buffers, `out` of the shape's
/// element count.
unsafe fn load<T: Scalar>(index: i64, out: &MemRef1<T>, shape: &MemRef1<i64>) {
    let path = input_path(index);
    let array = dist_npy::read(&path).unwrap_or_else(|e| fail(&e));
    // SAFETY: guaranteed by the caller.
    let expected = unsafe { shape.slice() };
    if let Some(why) = dist_npy::mismatch(&array.shape, array.element, expected, T::MLIR) {
        fail(format!("{path}: {why}"));
    }
    let values: Vec<T> = array.to_f64().into_iter().map(T::from_f64).collect();
    let count = (out.size as usize).min(values.len());
    // SAFETY: guaranteed by the caller.
    let data = unsafe { out.data() };
    if crate::cuda::device_block(data.cast()) {
        // SAFETY: `out` is a device block of `out.size` elements (guaranteed
        // by the caller), of which `count` are copied.
        unsafe { crate::cuda::copy_to_device(data.cast(), values.as_ptr().cast(), count * size_of::<T>()) };
        return;
    }
    // SAFETY: guaranteed by the caller.
    let slots = unsafe { std::slice::from_raw_parts_mut(out.data(), out.size as usize) };
    slots[..count].copy_from_slice(&values[..count]);
}

/// On rank 0, writes result `index` (of `shape`) to
/// `DIST_RUN_OUT/result<index>.npy` in its own element type (copied from
/// the device first where it is in a device block).
///
/// # Safety
/// `values` and `shape` are live, contiguous buffers.
unsafe fn store<T: Scalar>(index: i64, values: &MemRef1<T>, shape: &MemRef1<i64>) {
    if rank_and_size().map_or(0, |(r, _)| r) != 0 {
        return;
    }
    let dir = std::env::var("DIST_RUN_OUT").unwrap_or_else(|_| ".".to_owned());
    // SAFETY: guaranteed by the caller.
    let shape = unsafe { shape.slice() };
    let path = format!("{dir}/result{index}.npy");
    // SAFETY: guaranteed by the caller.
    let data = unsafe { values.data() };
    if crate::cuda::device_block(data.cast()) {
        let mut host = vec![T::from_f64(0.0); values.size as usize];
        // SAFETY: `values` is a device block of `values.size` elements
        // (guaranteed by the caller), as many as `host` holds.
        unsafe { crate::cuda::copy_from_device(host.as_mut_ptr().cast(), data.cast(), host.len() * size_of::<T>()) };
        dist_npy::write(&path, shape, &host).unwrap_or_else(|e| fail(&e));
        return;
    }
    // SAFETY: guaranteed by the caller.
    let values = unsafe { values.slice() };
    dist_npy::write(&path, shape, values).unwrap_or_else(|e| fail(&e));
}

/// The entry points that read inputs and write results, one pair per
/// element type a program's arguments and results may have
/// (`runtime_abi::IO_ELEMENTS`).
macro_rules! io_entry_points {
    ($($load:ident $store:ident: $t:ty;)*) => {$(
        /// Fills `out` with an input, an argument of global `shape`.
        ///
        /// # Safety
        /// Called by compiled code with live, contiguous rank-1 buffers,
        /// `out` of the shape's element count.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $load(index: i64, out: &MemRef1<$t>, shape: &MemRef1<i64>) {
            // SAFETY: guaranteed by the caller.
            unsafe { load(index, out, shape) };
        }

        /// On rank 0, writes a result of `shape`.
        ///
        /// # Safety
        /// Called by compiled code with live, contiguous rank-1 buffers.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $store(index: i64, values: &MemRef1<$t>, shape: &MemRef1<i64>) {
            // SAFETY: guaranteed by the caller.
            unsafe { store(index, values, shape) };
        }
    )*};
}

io_entry_points! {
    _mlir_ciface_dist_rt_load_f32 _mlir_ciface_dist_rt_store_f32: f32;
    _mlir_ciface_dist_rt_load_f64 _mlir_ciface_dist_rt_store_f64: f64;
    _mlir_ciface_dist_rt_load_bf16 _mlir_ciface_dist_rt_store_bf16: Bf16;
    _mlir_ciface_dist_rt_load_i32 _mlir_ciface_dist_rt_store_i32: i32;
    _mlir_ciface_dist_rt_load_i64 _mlir_ciface_dist_rt_store_i64: i64;
    _mlir_ciface_dist_rt_load_i1 _mlir_ciface_dist_rt_store_i1: Bool;
}
