//! Contractions on OpenBLAS and oneDNN: the calls `dist-call-blas` makes of
//! f32 linalg contractions (matmuls, batched and broadcast, any transpose),
//! and of bf16 ones accumulated in f32 (`dnnl_gemm_bf16bf16f32`: the
//! `avx512_bf16` dot products where the CPU has them, 2.1x OpenBLAS's sgemm
//! here; oneDNN converts where it does not). Debian's OpenBLAS 0.3.21 has
//! no bf16 GEMM of its own.
//!
//! Each operand arrives as a strided memref with the role of each of its
//! dims (batch loop, m, n, k, or a broadcast size-1 dim). Batches fold into
//! m where the layouts allow (a batched activation times a weight is one
//! GEMM); otherwise one GEMM runs per batch index. An operand that is
//! neither row- nor column-contiguous in its matrix dims is copied first.
//! OpenBLAS runs on one thread per process: MPI ranks are the parallelism.
//! oneDNN runs on one thread too (`OMP_NUM_THREADS=1` unless set). Each
//! library is loaded on first use (`libopenblas.so.0`, `libdnnl.so.2`);
//! OpenBLAS after one correction to
//! its CPU detection: OpenBLAS 0.3.21 (Debian 12) knows no AVX-512 CPU
//! newer than itself. It takes AMD's (Zen 4) for Haswell and runs AVX2
//! kernels, 1.3x slower on the GPT step than its AVX-512 (SkylakeX) ones,
//! and Intel's Sapphire Rapids for a Prescott, with SSE3 kernels, 6.6x
//! slower. Unless `OPENBLAS_CORETYPE` is set, every CPU with AVX-512 gets
//! `SKYLAKEX`, the best f32 kernels 0.3.21 has (its Cooper Lake and
//! Sapphire Rapids targets differ from it in bf16 only).

use crate::UnrankedMemRef;
use crate::dl::{Library, LoadError, library};
use dist_npy::Bf16;
use std::ffi::{c_char, c_int};
use std::sync::OnceLock;
use thiserror::Error;

const ROW_MAJOR: c_int = 101;
const NO_TRANS: c_int = 111;
const TRANS: c_int = 112;

/// Why a contraction library could not be loaded.
#[derive(Debug, Error)]
enum LibraryError {
    #[error("matmuls on the CPU need OpenBLAS (libopenblas.so.0): {0}")]
    NoOpenBlas(LoadError),
    #[error("bf16 matmuls on the CPU need oneDNN (libdnnl.so.2): {0}")]
    NoOneDnn(LoadError),
    /// The library lacks a function the runtime uses.
    #[error(transparent)]
    Load(#[from] LoadError),
}

library! {
    /// The OpenBLAS functions the runtime uses.
    Blas {
        cblas_sgemm: fn(c_int, c_int, c_int, c_int, c_int, c_int, f32, *const f32, c_int, *const f32, c_int, f32,
            *mut f32, c_int) -> ();
        openblas_set_num_threads: fn(c_int) -> ();
    }
}

// SAFETY: the table holds plain function pointers.
unsafe impl Send for Blas {}
unsafe impl Sync for Blas {}

static BLAS: OnceLock<Result<Blas, LibraryError>> = OnceLock::new();

library! {
    /// The oneDNN function the runtime uses. It is exported (`DNNL_API`)
    /// but declared only in oneDNN's own tests, not in `dnnl.h`; the
    /// signature is that of oneDNN 1.x to 3.x (checked against 2.6,
    /// Debian 12's), and a build without it fails at load, naming it.
    Dnnl {
        dnnl_gemm_bf16bf16f32: fn(c_char, c_char, i64, i64, i64, f32, *const Bf16, i64, *const Bf16, i64, f32,
            *mut f32, i64) -> c_int;
    }
}

// SAFETY: the table holds plain function pointers.
unsafe impl Send for Dnnl {}
unsafe impl Sync for Dnnl {}

static DNNL: OnceLock<Result<Dnnl, LibraryError>> = OnceLock::new();

/// oneDNN on one thread, loaded on first use, or why it is missing.
fn dnnl() -> &'static Dnnl {
    DNNL.get_or_init(|| {
        let library = Library::open("libdnnl.so.2").map_err(LibraryError::NoOneDnn)?;
        Ok(Dnnl::load(&library)?)
    })
    .as_ref()
    .unwrap_or_else(|e| crate::fail_text(e))
}

/// The element type of a contraction's inputs (its output is f32) and its
/// library GEMM: `C[m, n] += A[m, k] B[k, n]`, row-major, each input
/// transposed or not.
pub trait Factor: Copy {
    /// # Safety
    /// The pointers address matrices of these sizes and leading dims.
    #[allow(clippy::too_many_arguments)]
    unsafe fn gemm(
        trans: (bool, bool),
        mnk: (i64, i64, i64),
        a: *const Self,
        lda: i64,
        b: *const Self,
        ldb: i64,
        c: *mut f32,
        ldc: i64,
    );
}

impl Factor for f32 {
    unsafe fn gemm(
        (ta, tb): (bool, bool),
        (m, n, k): (i64, i64, i64),
        a: *const f32,
        lda: i64,
        b: *const f32,
        ldb: i64,
        c: *mut f32,
        ldc: i64,
    ) {
        let trans = |t: bool| if t { TRANS } else { NO_TRANS };
        // SAFETY: guaranteed by the caller.
        unsafe {
            (blas().cblas_sgemm)(
                ROW_MAJOR,
                trans(ta),
                trans(tb),
                m as c_int,
                n as c_int,
                k as c_int,
                1.0,
                a,
                lda as c_int,
                b,
                ldb as c_int,
                1.0,
                c,
                ldc as c_int,
            )
        };
    }
}

impl Factor for Bf16 {
    unsafe fn gemm(
        (ta, tb): (bool, bool),
        (m, n, k): (i64, i64, i64),
        a: *const Bf16,
        lda: i64,
        b: *const Bf16,
        ldb: i64,
        c: *mut f32,
        ldc: i64,
    ) {
        let trans = |t: bool| (if t { b'T' } else { b'N' }) as c_char;
        // SAFETY: guaranteed by the caller.
        let status =
            unsafe { (dnnl().dnnl_gemm_bf16bf16f32)(trans(ta), trans(tb), m, n, k, 1.0, a, lda, b, ldb, 1.0, c, ldc) };
        if status != 0 {
            crate::fail_text(format!(
                "oneDNN's bf16 GEMM failed (status {status}) on {m} x {n} x {k}"
            ));
        }
    }
}

/// Whether the CPU has the AVX-512 subsets OpenBLAS's SkylakeX kernels use.
#[cfg(target_arch = "x86_64")]
fn has_avx512() -> bool {
    std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512bw")
        && std::arch::is_x86_feature_detected!("avx512dq")
        && std::arch::is_x86_feature_detected!("avx512vl")
}

#[cfg(not(target_arch = "x86_64"))]
fn has_avx512() -> bool {
    false
}

/// Picks OpenBLAS's AVX-512 kernels where it would not (see the module
/// doc), and one OpenMP thread for oneDNN unless the environment says
/// otherwise (each rank is one core's; whichever OpenMP runtime oneDNN was
/// built on reads the variable when it loads). Runs when a program loads
/// the runtime, before `main` starts any thread (MPI's progress threads
/// read the environment), and before either library loads and reads it.
extern "C" fn choose_blas_kernels() {
    if std::env::var_os("OPENBLAS_CORETYPE").is_none() && has_avx512() {
        // SAFETY: no other thread exists yet (see above).
        unsafe { std::env::set_var("OPENBLAS_CORETYPE", "SKYLAKEX") };
    }
    if std::env::var_os("OMP_NUM_THREADS").is_none() {
        // SAFETY: as above.
        unsafe { std::env::set_var("OMP_NUM_THREADS", "1") };
    }
}

#[used]
#[unsafe(link_section = ".init_array")]
static CHOOSE_BLAS_KERNELS: extern "C" fn() = choose_blas_kernels;

/// OpenBLAS on one thread, loaded on first use, or why it is missing.
fn blas() -> &'static Blas {
    BLAS.get_or_init(|| {
        let library = Library::open("libopenblas.so.0").map_err(LibraryError::NoOpenBlas)?;
        let blas = Blas::load(&library)?;
        // SAFETY: sets OpenBLAS's thread count; no preconditions.
        unsafe { (blas.openblas_set_num_threads)(1) };
        Ok(blas)
    })
    .as_ref()
    .unwrap_or_else(|e| crate::fail_text(e))
}

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
struct Operand<T> {
    base: *mut T,
    batch: Vec<i64>,
    m: i64,
    n: i64,
    k: i64,
}

/// The loop sizes: batch loops, m, n, k.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Sizes {
    batch: Vec<i64>,
    m: i64,
    n: i64,
    k: i64,
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

/// How BLAS reads a `rows` x `cols` matrix with these strides: transposed
/// or not, and the leading dimension; `None` unless one dim is contiguous
/// and the other steps over whole lines of it (BLAS's `ld >= n`).
fn layout(rows: i64, cols: i64, row_stride: i64, col_stride: i64) -> Option<(c_int, i64)> {
    if (col_stride == 1 || cols == 1) && (rows == 1 || row_stride >= cols) {
        Some((NO_TRANS, row_stride.max(cols).max(1)))
    } else if (row_stride == 1 || rows == 1) && (cols == 1 || col_stride >= rows) {
        Some((TRANS, col_stride.max(rows).max(1)))
    } else {
        None
    }
}

/// One `C[m, n] += A[m, k] B[k, n]` on matrices at these bases.
fn gemm<T: Factor>(
    a: &Operand<T>,
    b: &Operand<T>,
    c: &Operand<f32>,
    sizes: &Sizes,
    (pa, pb, pc): (*const T, *const T, *mut f32),
) {
    let (m, n, k) = (sizes.m, sizes.n, sizes.k);
    let Some((trans_c, ldc)) = layout(m, n, c.m, c.n) else {
        unreachable!("C is contiguous along one of its dims (checked by the caller)")
    };
    if trans_c == TRANS {
        // C^T = B^T A^T: the same product on the transposed operands.
        fn swap<U>(o: &Operand<U>) -> Operand<U> {
            Operand {
                base: o.base,
                batch: o.batch.clone(),
                m: o.n,
                n: o.m,
                k: o.k,
            }
        }
        let sizes = Sizes {
            m: n,
            n: m,
            ..sizes.clone()
        };
        return gemm(&swap(b), &swap(a), &swap(c), &sizes, (pb, pa, pc));
    }
    let (trans_a, lda) = layout(m, k, a.m, a.k).expect("A is contiguous along a dim (checked by the caller)");
    let (trans_b, ldb) = layout(k, n, b.k, b.n).expect("B is contiguous along a dim (checked by the caller)");
    // SAFETY: the pointers address matrices of these sizes and strides.
    unsafe {
        T::gemm(
            (trans_a == TRANS, trans_b == TRANS),
            (m, n, k),
            pa,
            lda,
            pb,
            ldb,
            pc,
            ldc,
        )
    };
}

/// A contiguous row-major copy of the `rows` x `cols` matrix at `base`
/// along strides `(rs, cs)`, for an operand BLAS cannot read.
fn packed<T: Copy>(base: *const T, rows: i64, cols: i64, rs: i64, cs: i64) -> Vec<T> {
    let mut out = Vec::with_capacity((rows * cols) as usize);
    for r in 0..rows {
        for c in 0..cols {
            // SAFETY: inside the operand.
            out.push(unsafe { *base.offset((r * rs + c * cs) as isize) });
        }
    }
    out
}

/// `C += A . B` for the contraction the roles describe.
///
/// # Safety
/// The descriptors are live memrefs of the shapes the roles relate, `a`
/// and `b` of `T`, `c` of f32.
pub unsafe fn contract<T: Factor>(
    a: &UnrankedMemRef,
    b: &UnrankedMemRef,
    c: &UnrankedMemRef,
    roles: [i64; 3],
    batch_loops: usize,
) {
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
        return;
    }
    // Fold the batch into m: C and A step through the batch by whole
    // m-blocks of rows and B is the same matrix for every batch index.
    let foldable = oc.n == 1
        && oa.k == 1
        && layout(sizes.k, sizes.n, ob.k, ob.n).is_some()
        && ob.batch.iter().all(|&s| s == 0)
        && fold_stride(&oa.batch, &sizes.batch, sizes.m * oa.m)
        && fold_stride(&oc.batch, &sizes.batch, sizes.m * oc.m);
    if foldable {
        let rows: i64 = sizes.m * sizes.batch.iter().product::<i64>();
        let folded = Sizes {
            batch: Vec::new(),
            m: rows,
            ..sizes.clone()
        };
        fn flat<U>(o: &Operand<U>) -> Operand<U> {
            Operand {
                base: o.base,
                batch: Vec::new(),
                m: o.m,
                n: o.n,
                k: o.k,
            }
        }
        return gemm(&flat(&oa), &flat(&ob), &flat(&oc), &folded, (oa.base, ob.base, oc.base));
    }
    // Operands BLAS cannot read along either matrix dim are packed per
    // batch index below (an output is packed, accumulated and copied back).
    let a_packed = layout(sizes.m, sizes.k, oa.m, oa.k).is_none();
    let b_packed = layout(sizes.k, sizes.n, ob.k, ob.n).is_none();
    let c_packed = layout(sizes.m, sizes.n, oc.m, oc.n).is_none();
    let count: i64 = sizes.batch.iter().product();
    let mut index = vec![0i64; batch_loops];
    for _ in 0..count {
        fn at<U>(o: &Operand<U>, index: &[i64]) -> *mut U {
            let offset: i64 = o.batch.iter().zip(index).map(|(s, i)| s * i).sum();
            // SAFETY: inside the operand.
            unsafe { o.base.offset(offset as isize) }
        }
        let (mut pa, mut pb, pc) = (
            at(&oa, &index) as *const T,
            at(&ob, &index) as *const T,
            at(&oc, &index),
        );
        let (mut ia, mut ib, mut ic) = (oa.clone(), ob.clone(), oc.clone());
        let (copy_a, copy_b);
        let mut copy_c = Vec::new();
        if a_packed {
            copy_a = packed(pa, sizes.m, sizes.k, oa.m, oa.k);
            (pa, ia.m, ia.k) = (copy_a.as_ptr(), sizes.k, 1);
        }
        if b_packed {
            copy_b = packed(pb, sizes.k, sizes.n, ob.k, ob.n);
            (pb, ib.k, ib.n) = (copy_b.as_ptr(), sizes.n, 1);
        }
        let mut target = pc;
        if c_packed {
            copy_c = packed(pc, sizes.m, sizes.n, oc.m, oc.n);
            (target, ic.m, ic.n) = (copy_c.as_mut_ptr(), sizes.n, 1);
        }
        gemm(&ia, &ib, &ic, &sizes, (pa, pb, target));
        for (i, &v) in copy_c.iter().enumerate() {
            let (r, c) = (i as i64 / sizes.n, i as i64 % sizes.n);
            // SAFETY: inside the output, which nothing else reads meanwhile.
            unsafe { *pc.offset((r * oc.m + c * oc.n) as isize) = v };
        }
        for d in (0..batch_loops).rev() {
            index[d] += 1;
            if index[d] < sizes.batch[d] {
                break;
            }
            index[d] = 0;
        }
    }
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

/// The entry points of `C += A . B` for the linalg contractions that
/// `dist-call-blas` rewrote, one per input element type (C is f32): each
/// operand's packed dim roles and the number of batch loops (see
/// `blas::decode`).
macro_rules! contract_entry_points {
    ($($name:ident: $t:ty;)*) => {$(
        /// `C += A . B`, A and B of this element type.
        ///
        /// # Safety
        /// Called by compiled code with live descriptors of the shapes the
        /// roles relate.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $name(
            a: &UnrankedMemRef,
            b: &UnrankedMemRef,
            c: &UnrankedMemRef,
            roles_a: i64,
            roles_b: i64,
            roles_c: i64,
            batch_loops: i64,
        ) {
            // SAFETY: guaranteed by the caller.
            unsafe { contract::<$t>(a, b, c, [roles_a, roles_b, roles_c], batch_loops as usize) };
        }
    )*};
}

contract_entry_points! {
    _mlir_ciface_dist_rt_contract_f32: f32;
    _mlir_ciface_dist_rt_contract_bf16: Bf16;
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

    /// A strided view of `data` for the runtime: its descriptor words.
    fn view<T>(data: &mut [T], offset: i64, sizes: &[i64], strides: &[i64]) -> Vec<i64> {
        let base = data.as_mut_ptr() as i64;
        [vec![base, base, offset], sizes.to_vec(), strides.to_vec()].concat()
    }

    /// The unranked memref of a descriptor `view` made.
    fn memref(descriptor: &[i64], rank: i64) -> UnrankedMemRef {
        UnrankedMemRef {
            rank,
            descriptor: descriptor.as_ptr(),
        }
    }

    /// `C[b, m, n] += sum_k A[...] B[...]` by the definition, reading each
    /// operand at `index(b, m, n, k)`.
    fn reference(
        (b, m, n, k): (i64, i64, i64, i64),
        a: impl Fn(i64, i64, i64) -> f32,
        bm: impl Fn(i64, i64, i64) -> f32,
    ) -> Vec<f32> {
        let mut out = Vec::new();
        for i in 0..b {
            for r in 0..m {
                for c in 0..n {
                    out.push((0..k).map(|x| a(i, r, x) * bm(i, x, c)).sum());
                }
            }
        }
        out
    }

    #[test]
    fn gemms_follow_every_layout() {
        let values = |n: usize| (0..n).map(|v| ((v * 7) % 11) as f32 - 5.0).collect::<Vec<f32>>();
        // x [2, 3, 4] row-major times w [4, 5] read with strides [10, 2]
        // (not contiguous: packed, so no fold), into an output [2, 3, 5]
        // with strides [30, 10, 2] (not contiguous either).
        let mut x = values(24);
        let mut w = values(40);
        let mut out = vec![0f32; 60];
        let (xd, wd, od) = (
            view(&mut x, 0, &[2, 3, 4], &[12, 4, 1]),
            view(&mut w, 0, &[4, 5], &[10, 2]),
            view(&mut out, 0, &[2, 3, 5], &[30, 10, 2]),
        );
        // Roles: x [b, m, k] = 0x421, w [k, n] = 0x34, out [b, m, n] = 0x321.
        // SAFETY: the descriptors describe the live buffers above.
        unsafe {
            contract::<f32>(
                &memref(&xd, 3),
                &memref(&wd, 2),
                &memref(&od, 3),
                [0x421, 0x34, 0x321],
                1,
            )
        };
        let want = reference(
            (2, 3, 5, 4),
            |b, r, k| x[(b * 12 + r * 4 + k) as usize],
            |_, k, c| w[(k * 10 + c * 2) as usize],
        );
        let got: Vec<f32> = (0..2)
            .flat_map(|b| (0..3).flat_map(move |r| (0..5).map(move |c| (b, r, c))))
            .map(|(b, r, c)| out[(b * 30 + r * 10 + c * 2) as usize])
            .collect();
        assert_eq!(got, want);
        // The same with a contiguous weight, transposed ([n, k] = 0x43):
        // one folded GEMM, and a column-major output (strides [15, 1, 3]).
        let mut wt = values(20);
        let mut out = vec![0f32; 30];
        let (wd, od) = (
            view(&mut wt, 0, &[5, 4], &[4, 1]),
            view(&mut out, 0, &[2, 3, 5], &[15, 1, 3]),
        );
        // SAFETY: as above.
        unsafe {
            contract::<f32>(
                &memref(&xd, 3),
                &memref(&wd, 2),
                &memref(&od, 3),
                [0x421, 0x43, 0x321],
                1,
            )
        };
        let want = reference(
            (2, 3, 5, 4),
            |b, r, k| x[(b * 12 + r * 4 + k) as usize],
            |_, k, c| wt[(c * 4 + k) as usize],
        );
        let got: Vec<f32> = (0..2)
            .flat_map(|b| (0..3).flat_map(move |r| (0..5).map(move |c| (b, r, c))))
            .map(|(b, r, c)| out[(b * 15 + r + c * 3) as usize])
            .collect();
        assert_eq!(got, want);
    }

    #[test]
    fn bf16_gemms_accumulate_in_f32() {
        // x [2, 3, 4] times a transposed weight [5, 4] (0x43): small
        // integers, exact in bf16, so the f32 sums are exact too; added to
        // the f32 output's 300, an odd sum needs more bits than bf16's 8.
        let values = |n: usize| (0..n).map(|v| ((v * 7) % 11) as f32 - 5.0).collect::<Vec<f32>>();
        let (x, w) = (values(24), values(20));
        let mut xb: Vec<Bf16> = x.iter().map(|&v| Bf16(dist_npy::f32_to_bf16(v))).collect();
        let mut wb: Vec<Bf16> = w.iter().map(|&v| Bf16(dist_npy::f32_to_bf16(v))).collect();
        let mut out = vec![300f32; 30];
        let (xd, wd, od) = (
            view(&mut xb, 0, &[2, 3, 4], &[12, 4, 1]),
            view(&mut wb, 0, &[5, 4], &[4, 1]),
            view(&mut out, 0, &[2, 3, 5], &[15, 5, 1]),
        );
        // SAFETY: the descriptors describe the live buffers above.
        unsafe {
            contract::<Bf16>(
                &memref(&xd, 3),
                &memref(&wd, 2),
                &memref(&od, 3),
                [0x421, 0x43, 0x321],
                1,
            )
        };
        let want: Vec<f32> = reference(
            (2, 3, 5, 4),
            |b, r, k| x[(b * 12 + r * 4 + k) as usize],
            |_, k, c| w[(c * 4 + k) as usize],
        )
        .iter()
        .map(|v| v + 300.0)
        .collect();
        assert_eq!(out, want);
        // Into a column-major output (strides [15, 1, 3]): the transposed
        // product C^T = W X^T, per batch (no fold).
        let mut out_t = vec![300f32; 30];
        let ot = view(&mut out_t, 0, &[2, 3, 5], &[15, 1, 3]);
        // SAFETY: as above.
        unsafe {
            contract::<Bf16>(
                &memref(&xd, 3),
                &memref(&wd, 2),
                &memref(&ot, 3),
                [0x421, 0x43, 0x321],
                1,
            )
        };
        let got: Vec<f32> = (0..2)
            .flat_map(|b| (0..3).flat_map(move |r| (0..5).map(move |c| (b, r, c))))
            .map(|(b, r, c)| out_t[(b * 15 + r + c * 3) as usize])
            .collect();
        assert_eq!(got, want);
    }

    #[test]
    fn layouts_pick_the_contiguous_dim() {
        assert_eq!(layout(4, 8, 8, 1), Some((NO_TRANS, 8)));
        assert_eq!(layout(4, 8, 1, 4), Some((TRANS, 4)));
        assert_eq!(layout(4, 8, 16, 2), None);
        assert_eq!(layout(1, 8, 0, 1), Some((NO_TRANS, 8)));
        // Overlapping rows (a stride below the row length) are packed.
        assert_eq!(layout(4, 8, 4, 1), None);
        assert_eq!(layout(4, 8, 1, 2), None);
    }
}
