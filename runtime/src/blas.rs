//! Contractions on OpenBLAS and oneDNN: the calls `dist-call-blas` makes of
//! f32 linalg contractions (matmuls, batched and broadcast, any transpose),
//! and of bf16 ones accumulated in f32 (`dnnl_gemm_bf16bf16f32`: the
//! `avx512_bf16` dot products where the CPU has them, 2.1x OpenBLAS's sgemm
//! here; oneDNN converts where it does not, and on a CPU without AVX-512,
//! where oneDNN 2.6 has no bf16 GEMM, the inputs are widened to f32 for
//! OpenBLAS). Debian's OpenBLAS 0.3.21 has
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
use crate::contraction::{self, Gemms, Operand, Sizes, layout};
use crate::dl::{Library, LoadError, library};
use dist_npy::Bf16;
use std::ffi::{c_char, c_int};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};
use thiserror::Error;

const ROW_MAJOR: c_int = 101;

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
    .unwrap_or_else(|e| crate::fail(e))
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
        // CBLAS's CblasNoTrans and CblasTrans.
        let trans = |t: bool| if t { 112 } else { 111 };
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
        if !DNNL_BF16_UNIMPLEMENTED.load(Ordering::Relaxed) {
            // SAFETY: guaranteed by the caller.
            let status = unsafe {
                (dnnl().dnnl_gemm_bf16bf16f32)(trans(ta), trans(tb), m, n, k, 1.0, a, lda, b, ldb, 1.0, c, ldc)
            };
            match status {
                0 => return,
                DNNL_UNIMPLEMENTED => DNNL_BF16_UNIMPLEMENTED.store(true, Ordering::Relaxed),
                _ => crate::fail(format!(
                    "oneDNN's bf16 GEMM failed (status {status}) on {m} x {n} x {k}"
                )),
            }
        }
        // oneDNN has no bf16 GEMM for this CPU (before AVX-512): the inputs
        // widened to f32, which is exact, on OpenBLAS's sgemm.
        let widened = |p: *const Bf16, t: bool, rows: i64, cols: i64, ld: i64| {
            let (rows, cols) = if t { (cols, rows) } else { (rows, cols) };
            let mut out = Vec::with_capacity((rows * cols) as usize);
            for r in 0..rows {
                // SAFETY: a row of the stored matrix.
                let row = unsafe { std::slice::from_raw_parts(p.offset((r * ld) as isize), cols as usize) };
                out.extend(row.iter().map(|v| dist_npy::bf16_to_f32(v.0)));
            }
            (out, cols.max(1))
        };
        let (wa, lda) = widened(a, ta, m, k, lda);
        let (wb, ldb) = widened(b, tb, k, n, ldb);
        // SAFETY: the widened copies are contiguous with these leading dims.
        unsafe { f32::gemm((ta, tb), (m, n, k), wa.as_ptr(), lda, wb.as_ptr(), ldb, c, ldc) };
    }
}

/// oneDNN's `dnnl_unimplemented`: its bf16 GEMM needs AVX-512 (oneDNN 2.6).
const DNNL_UNIMPLEMENTED: c_int = 3;

/// Set once oneDNN has answered that it has no bf16 GEMM for this CPU.
static DNNL_BF16_UNIMPLEMENTED: AtomicBool = AtomicBool::new(false);

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
    .unwrap_or_else(|e| crate::fail(e))
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
    if trans_c {
        // C^T = B^T A^T: the same product on the transposed operands.
        return gemm(&b.swapped(), &a.swapped(), &c.swapped(), &sizes.swapped(), (pb, pa, pc));
    }
    let (trans_a, lda) = layout(m, k, a.m, a.k).expect("A is contiguous along a dim (checked by the caller)");
    let (trans_b, ldb) = layout(k, n, b.k, b.n).expect("B is contiguous along a dim (checked by the caller)");
    // SAFETY: the pointers address matrices of these sizes and strides.
    unsafe { T::gemm((trans_a, trans_b), (m, n, k), pa, lda, pb, ldb, pc, ldc) };
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
    // SAFETY: guaranteed by the caller.
    let Some(gemms) = (unsafe { contraction::plan::<T>(a, b, c, roles, batch_loops) }) else {
        return;
    };
    let Gemms {
        a: oa,
        b: ob,
        c: oc,
        sizes,
    } = &gemms;
    // Operands BLAS cannot read along either matrix dim are packed per
    // batch index (an output is packed, accumulated and copied back).
    let [a_read, b_read, c_read] = gemms.readable();
    for index in gemms.batch_indices() {
        let (mut pa, mut pb, pc) = (oa.at(&index) as *const T, ob.at(&index) as *const T, oc.at(&index));
        let (mut ia, mut ib, mut ic) = (oa.clone(), ob.clone(), oc.clone());
        let (copy_a, copy_b);
        let mut copy_c = Vec::new();
        if !a_read {
            copy_a = packed(pa, sizes.m, sizes.k, oa.m, oa.k);
            (pa, ia.m, ia.k) = (copy_a.as_ptr(), sizes.k, 1);
        }
        if !b_read {
            copy_b = packed(pb, sizes.k, sizes.n, ob.k, ob.n);
            (pb, ib.k, ib.n) = (copy_b.as_ptr(), sizes.n, 1);
        }
        let mut target = pc;
        if !c_read {
            copy_c = packed(pc, sizes.m, sizes.n, oc.m, oc.n);
            (target, ic.m, ic.n) = (copy_c.as_mut_ptr(), sizes.n, 1);
        }
        gemm(&ia, &ib, &ic, sizes, (pa, pb, target));
        for (i, &v) in copy_c.iter().enumerate() {
            let (r, c) = (i as i64 / sizes.n, i as i64 % sizes.n);
            // SAFETY: inside the output, which nothing else reads meanwhile.
            unsafe { *pc.offset((r * oc.m + c * oc.n) as isize) = v };
        }
    }
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
}
