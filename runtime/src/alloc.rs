//! The allocator of compiled programs. `dist-lower-to-cpu` lowers
//! `memref.alloc` to these (`finalize-memref-to-llvm{use-generic-functions}`)
//! instead of to malloc, whose null result the generated code would write
//! through: an allocation that fails ends the job with a message naming
//! its size.

use std::ffi::c_void;

unsafe extern "C" {
    fn malloc(size: usize) -> *mut c_void;
    fn aligned_alloc(alignment: usize, size: usize) -> *mut c_void;
    fn free(pointer: *mut c_void);
}

/// `pointer`, unless the allocation of `bytes` failed. The message is
/// formatted on the stack: the heap may be what ran out.
fn checked(pointer: *mut c_void, bytes: u64) -> *mut c_void {
    if pointer.is_null() && bytes > 0 {
        use std::io::Write;
        let mut buffer = [0u8; 128];
        let mut out = &mut buffer[..];
        let _ = write!(
            out,
            "out of memory: a buffer of {bytes} bytes ({:.2} GiB) cannot be allocated",
            bytes as f64 / (1u64 << 30) as f64
        );
        let written = 128 - out.len();
        crate::fail(std::str::from_utf8(&buffer[..written]).unwrap_or("out of memory"));
    }
    pointer
}

#[unsafe(no_mangle)]
pub extern "C" fn _mlir_memref_to_llvm_alloc(bytes: u64) -> *mut c_void {
    // A size that does not fit the address space fails as malloc would.
    let size = usize::try_from(bytes).unwrap_or(usize::MAX);
    // SAFETY: malloc takes any size.
    checked(unsafe { malloc(size) }, bytes)
}

/// The lowering calls this one for allocations with an alignment (an
/// `alignment` attribute, or `use-aligned-alloc`); the runtime must define
/// it wherever it defines the plain one.
#[unsafe(no_mangle)]
pub extern "C" fn _mlir_memref_to_llvm_aligned_alloc(alignment: u64, bytes: u64) -> *mut c_void {
    // aligned_alloc wants a power-of-two alignment and a size that is a
    // multiple of it (the lowering pads the size; this keeps the contract
    // whatever the caller).
    let alignment = usize::try_from(alignment.max(1).next_power_of_two()).unwrap_or(usize::MAX);
    let size = usize::try_from(bytes)
        .ok()
        .and_then(|b| b.checked_next_multiple_of(alignment))
        .unwrap_or(usize::MAX);
    // SAFETY: the alignment is a power of two and the size its multiple
    // (or a size no allocation satisfies, which returns null).
    checked(unsafe { aligned_alloc(alignment, size) }, bytes)
}

/// # Safety
/// `pointer` came from one of the two allocators above (or is null) and is
/// not used again.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn _mlir_memref_to_llvm_free(pointer: *mut c_void) {
    // SAFETY: guaranteed by the caller.
    unsafe { free(pointer) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allocations_that_succeed_are_returned_and_freed() {
        let p = _mlir_memref_to_llvm_aligned_alloc(64, 100);
        assert!(!p.is_null() && (p as usize).is_multiple_of(64));
        // SAFETY: allocated above, not used again.
        unsafe { _mlir_memref_to_llvm_free(p) };
        let q = _mlir_memref_to_llvm_alloc(0);
        // SAFETY: malloc(0) may return null or a pointer free accepts.
        unsafe { _mlir_memref_to_llvm_free(q) };
    }
}
