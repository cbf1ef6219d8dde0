//! MLIR's memref descriptors as the compiled program passes them, and
//! `memrefCopy`, which its lowering of `memref.copy` calls.

/// A rank-1 memref descriptor, as MLIR's C interface passes it.
#[repr(C)]
#[derive(Debug)]
pub struct MemRef1<T> {
    pub allocated: *mut T,
    pub aligned: *mut T,
    pub offset: i64,
    pub size: i64,
    pub stride: i64,
}

impl<T> MemRef1<T> {
    /// The first element.
    ///
    /// # Safety
    /// The descriptor must describe live, contiguous memory (stride 1).
    pub(crate) unsafe fn data(&self) -> *mut T {
        // SAFETY: guaranteed by the caller.
        unsafe { self.aligned.add(self.offset as usize) }
    }

    /// # Safety
    /// As [`Self::data`], and no other reference may alias the elements.
    pub(crate) unsafe fn slice(&self) -> &[T] {
        // SAFETY: guaranteed by the caller.
        unsafe { std::slice::from_raw_parts(self.data(), self.size as usize) }
    }
}

/// MLIR's unranked memref descriptor: the rank, then a ranked descriptor
/// (`allocated`, `aligned`, `offset`, `sizes[rank]`, `strides[rank]`).
#[repr(C)]
pub struct UnrankedMemRef {
    pub(crate) rank: i64,
    pub(crate) descriptor: *const i64,
}

impl UnrankedMemRef {
    /// The aligned base, offset, sizes and strides.
    ///
    /// # Safety
    /// `descriptor` points at a live ranked descriptor of `rank`.
    pub(crate) unsafe fn parts(&self) -> (*mut u8, i64, &[i64], &[i64]) {
        let rank = self.rank as usize;
        // SAFETY: guaranteed by the caller; pointers and i64 have one size.
        unsafe {
            let aligned = *self.descriptor.add(1) as *mut u8;
            let offset = *self.descriptor.add(2);
            let sizes = std::slice::from_raw_parts(self.descriptor.add(3), rank);
            let strides = std::slice::from_raw_parts(self.descriptor.add(3 + rank), rank);
            (aligned, offset, sizes, strides)
        }
    }
}

/// `memref.copy` between memrefs of any layout, which MLIR lowers to this
/// call (MLIR's own is in libmlir_c_runner_utils, which programs do not
/// link): element by element along the strides, `elem_size` bytes each.
///
/// # Safety
/// Called by compiled code with live descriptors of one shape.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn memrefCopy(elem_size: i64, src: &UnrankedMemRef, dst: &UnrankedMemRef) {
    // SAFETY: guaranteed by the caller.
    let ((from, from_offset, sizes, from_strides), (to, to_offset, _, to_strides)) =
        unsafe { (src.parts(), dst.parts()) };
    if sizes.contains(&0) {
        return;
    }
    let size = elem_size as isize;
    let mut index = vec![0i64; sizes.len()];
    let (mut a, mut b) = (from_offset, to_offset);
    loop {
        // SAFETY: the offsets (strides may be negative) stay inside both
        // memrefs.
        unsafe {
            std::ptr::copy_nonoverlapping(
                from.offset(a as isize * size),
                to.offset(b as isize * size),
                size as usize,
            )
        };
        // The next index, odometer order, last dim fastest.
        let mut d = sizes.len();
        loop {
            if d == 0 {
                return;
            }
            d -= 1;
            index[d] += 1;
            a += from_strides[d];
            b += to_strides[d];
            if index[d] < sizes[d] {
                break;
            }
            a -= from_strides[d] * sizes[d];
            b -= to_strides[d] * sizes[d];
            index[d] = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memref_copy_follows_both_layouts() {
        // A 2 x 3 transposed view (strides 1, 2) of [0..6], copied into a
        // row-major buffer at offset 1.
        let source: Vec<f32> = (0..6).map(|v| v as f32).collect();
        let mut target = vec![0f32; 7];
        let view = |base: *const f32, offset: i64, strides: [i64; 2]| {
            [base as i64, base as i64, offset, 2, 3, strides[0], strides[1]]
        };
        let from = view(source.as_ptr(), 0, [1, 2]);
        let to = view(target.as_mut_ptr(), 1, [3, 1]);
        let (src, dst) = (
            UnrankedMemRef {
                rank: 2,
                descriptor: from.as_ptr(),
            },
            UnrankedMemRef {
                rank: 2,
                descriptor: to.as_ptr(),
            },
        );
        // SAFETY: both descriptors describe live buffers of 2 x 3 floats.
        unsafe { memrefCopy(4, &src, &dst) };
        assert_eq!(target, [0.0, 0.0, 2.0, 4.0, 1.0, 3.0, 5.0]);
    }
}
