//! The contractions `dist-call-blas` hands the runtime, read as GEMMs: each
//! operand arrives as a strided memref with the role of each of its dims
//! (batch loop, m, n, k, or a broadcast size-1 dim), packed four bits a dim.
//! [`plan`] decodes them into loop sizes and per-loop strides and folds the
//! batch into m where the layouts allow (a batched activation times a
//! weight is one GEMM); the CPU's OpenBLAS (`blas`) and the GPU's cuBLASLt
//! (`cublaslt`) run what it gives.

use crate::UnrankedMemRef;

/// The loop a dim of an operand runs on (`roles` of `distLinalgContractionRoles`,
/// decoded): batch loop `b`, m, n or k; `None` for a broadcast dim.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Batch(usize),
    M,
    N,
    K,
}

/// Decodes the packed roles of a `rank`-dim operand: 4 bits a dim, the
/// first dim lowest; 0 is a broadcast dim, `r + 1` role `r` (batch loops
/// first, then m, n, k).
pub fn decode(packed: i64, rank: usize, batch_loops: usize) -> Vec<Option<Role>> {
    (0..rank)
        .map(|d| match (packed >> (4 * d)) & 0xF {
            0 => None,
            r => Some(match (r - 1) as usize {
                b if b < batch_loops => Role::Batch(b),
                b if b == batch_loops => Role::M,
                b if b == batch_loops + 1 => Role::N,
                _ => Role::K,
            }),
        })
        .collect()
}

/// An operand as the GEMMs see it: the base pointer and the stride along
/// each loop (0 where it does not vary).
#[derive(Debug, Clone)]
pub struct Operand<T> {
    pub base: *mut T,
    pub batch: Vec<i64>,
    pub m: i64,
    pub n: i64,
    pub k: i64,
}

impl<T> Operand<T> {
    /// The same operand with m and n exchanged: `C^T = B^T A^T` reads the
    /// product's operands this way.
    pub fn swapped(&self) -> Self {
        Operand {
            base: self.base,
            batch: self.batch.clone(),
            m: self.n,
            n: self.m,
            k: self.k,
        }
    }

    /// The operand's base at batch index `index`.
    pub fn at(&self, index: &[i64]) -> *mut T {
        let offset: i64 = self.batch.iter().zip(index).map(|(s, i)| s * i).sum();
        // SAFETY: inside the operand (the index is within the loop sizes).
        unsafe { self.base.offset(offset as isize) }
    }
}

/// The loop sizes: batch loops, m, n, k.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sizes {
    pub batch: Vec<i64>,
    pub m: i64,
    pub n: i64,
    pub k: i64,
}

impl Sizes {
    /// The sizes of the transposed product (m and n exchanged).
    pub fn swapped(&self) -> Self {
        Sizes {
            m: self.n,
            n: self.m,
            ..self.clone()
        }
    }
}

fn operand<T>(memref: &UnrankedMemRef, roles: &[Option<Role>], sizes: &mut Sizes) -> Operand<T> {
    // SAFETY: the descriptor is live for the call (the caller's contract).
    let (aligned, offset, dims, strides) = unsafe { memref.parts() };
    // SAFETY: the offset is inside the allocation.
    let base = unsafe { (aligned as *mut T).add(offset as usize) };
    let mut o = Operand {
        base,
        batch: vec![0; sizes.batch.len()],
        m: 0,
        n: 0,
        k: 0,
    };
    for ((role, &size), &stride) in roles.iter().zip(dims).zip(strides) {
        // A size-1 dim adds nothing to any address.
        let stride = if size == 1 { 0 } else { stride };
        match role {
            Some(Role::Batch(b)) => (o.batch[*b], sizes.batch[*b]) = (stride, size.max(sizes.batch[*b])),
            Some(Role::M) => (o.m, sizes.m) = (stride, size),
            Some(Role::N) => (o.n, sizes.n) = (stride, size),
            Some(Role::K) => (o.k, sizes.k) = (stride, size),
            None => {}
        }
    }
    o
}

/// How a BLAS reads a `rows` x `cols` row-major matrix with these strides:
/// transposed or not, and the leading dimension; `None` unless one dim is
/// contiguous and the other steps over whole lines of it (BLAS's `ld >= n`).
pub fn layout(rows: i64, cols: i64, row_stride: i64, col_stride: i64) -> Option<(bool, i64)> {
    if (col_stride == 1 || cols == 1) && (rows == 1 || row_stride >= cols) {
        Some((false, row_stride.max(cols).max(1)))
    } else if (row_stride == 1 || rows == 1) && (cols == 1 || col_stride >= rows) {
        Some((true, col_stride.max(rows).max(1)))
    } else {
        None
    }
}

/// A contraction `C += A . B` read as GEMMs: its operands and loop sizes,
/// the batch already folded into m where the layouts allowed.
pub struct Gemms<T> {
    pub a: Operand<T>,
    pub b: Operand<T>,
    pub c: Operand<f32>,
    pub sizes: Sizes,
}

impl<T> Gemms<T> {
    /// Whether the GEMMs read every operand in place (else the CPU packs
    /// it per batch index).
    pub fn readable(&self) -> [bool; 3] {
        let s = &self.sizes;
        [
            layout(s.m, s.k, self.a.m, self.a.k).is_some(),
            layout(s.k, s.n, self.b.k, self.b.n).is_some(),
            layout(s.m, s.n, self.c.m, self.c.n).is_some(),
        ]
    }

    /// The batch indices in row-major order.
    pub fn batch_indices(&self) -> impl Iterator<Item = Vec<i64>> + '_ {
        let all: Vec<usize> = (0..self.sizes.batch.len()).collect();
        indices(&self.sizes.batch, all)
    }
}

/// The indices of a loop nest of `sizes` that step `loops` in row-major
/// order, the other loops held at 0.
pub fn indices(sizes: &[i64], loops: Vec<usize>) -> impl Iterator<Item = Vec<i64>> + '_ {
    let count: i64 = loops.iter().map(|&d| sizes[d]).product();
    (0..count).map(move |flat| {
        let mut rest = flat;
        let mut index = vec![0; sizes.len()];
        for &d in loops.iter().rev() {
            index[d] = rest % sizes[d];
            rest /= sizes[d];
        }
        index
    })
}

/// Decodes a contraction's operands (`roles`: each operand's packed dim
/// roles; `batch_loops` batch loops) and folds its batch into m where C
/// and A step through the batch by whole m-blocks of rows and B is the same
/// matrix for every batch index. `None` if it is empty (nothing to add).
///
/// # Safety
/// The descriptors are live memrefs of the shapes the roles relate, `a`
/// and `b` of `T`, `c` of f32.
pub unsafe fn plan<T>(
    a: &UnrankedMemRef,
    b: &UnrankedMemRef,
    c: &UnrankedMemRef,
    roles: [i64; 3],
    batch_loops: usize,
) -> Option<Gemms<T>> {
    let mut sizes = Sizes {
        batch: vec![1; batch_loops],
        m: 1,
        n: 1,
        k: 1,
    };
    let [ra, rb, rc] =
        [(a, roles[0]), (b, roles[1]), (c, roles[2])].map(|(o, r)| decode(r, o.rank as usize, batch_loops));
    let (oa, ob, oc) = (
        operand::<T>(a, &ra, &mut sizes),
        operand::<T>(b, &rb, &mut sizes),
        operand::<f32>(c, &rc, &mut sizes),
    );
    if sizes.m == 0 || sizes.n == 0 || sizes.k == 0 || sizes.batch.contains(&0) {
        return None;
    }
    let foldable = oc.n == 1
        && oa.k == 1
        && layout(sizes.k, sizes.n, ob.k, ob.n).is_some()
        && ob.batch.iter().all(|&s| s == 0)
        && fold_stride(&oa.batch, &sizes.batch, sizes.m * oa.m)
        && fold_stride(&oc.batch, &sizes.batch, sizes.m * oc.m);
    if !foldable {
        return Some(Gemms {
            a: oa,
            b: ob,
            c: oc,
            sizes,
        });
    }
    fn flat<U>(o: Operand<U>) -> Operand<U> {
        Operand { batch: Vec::new(), ..o }
    }
    let m = sizes.m * sizes.batch.iter().product::<i64>();
    Some(Gemms {
        a: flat(oa),
        b: flat(ob),
        c: flat(oc),
        sizes: Sizes {
            batch: Vec::new(),
            m,
            ..sizes
        },
    })
}

/// Whether batch strides `strides` walk whole blocks of `block` elements in
/// row-major batch order (the innermost batch loop stepping by `block`).
fn fold_stride(strides: &[i64], sizes: &[i64], block: i64) -> bool {
    let mut expected = block;
    for (&stride, &size) in strides.iter().zip(sizes).rev() {
        if size != 1 && stride != expected {
            return false;
        }
        expected *= size;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_unpack_four_bits_a_dim() {
        // [batch 0, m, k] of a batched x; [k, n] of a weight; a broadcast dim.
        assert_eq!(
            decode(0x421, 3, 1),
            [Some(Role::Batch(0)), Some(Role::M), Some(Role::K)]
        );
        assert_eq!(decode(0x34, 2, 1), [Some(Role::K), Some(Role::N)]);
        assert_eq!(decode(0x0, 1, 0), [None]);
    }

    #[test]
    fn batches_fold_when_blocks_are_contiguous() {
        assert!(fold_stride(&[64], &[4], 64));
        assert!(fold_stride(&[512, 64], &[2, 8], 64));
        assert!(!fold_stride(&[128], &[4], 64));
        assert!(fold_stride(&[7], &[1], 64));
    }

    #[test]
    fn indices_step_the_named_loops_row_major() {
        let all: Vec<Vec<i64>> = indices(&[2, 3], vec![0, 1]).collect();
        assert_eq!(all, [[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [1, 2]]);
        let outer: Vec<Vec<i64>> = indices(&[2, 3], vec![0]).collect();
        assert_eq!(outer, [[0, 0], [1, 0]]);
        assert_eq!(indices(&[], vec![]).count(), 1);
    }

    #[test]
    fn layouts_pick_the_contiguous_dim() {
        assert_eq!(layout(4, 8, 8, 1), Some((false, 8)));
        assert_eq!(layout(4, 8, 1, 4), Some((true, 4)));
        assert_eq!(layout(4, 8, 16, 2), None);
        assert_eq!(layout(1, 8, 0, 1), Some((false, 8)));
        // Overlapping rows (a stride below the row length) are packed.
        assert_eq!(layout(4, 8, 4, 1), None);
        assert_eq!(layout(4, 8, 1, 2), None);
    }
}
