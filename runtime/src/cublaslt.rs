//! Contractions on the GPU through cuBLASLt, as XLA and PyTorch run them:
//! the calls `dist-call-blas{library=cublaslt}` makes of f32 and bf16
//! linalg contractions (bf16 accumulated in f32), read as GEMMs by the
//! CPU path's planner (`contraction::plan`: roles decoded, batches folded
//! into m). What stays a batch runs as one strided-batched GEMM where its
//! loops walk each operand evenly, otherwise a GEMM per index of the outer
//! loops. Every call is queued on the compute stream, in order with the
//! kernels and collectives around it; nothing waits.
//!
//! cuBLASLt is column-major: the row-major `C = A B` is computed as
//! `C^T = B^T A^T`, each row-major matrix read as its column-major
//! transpose. Descriptors, layouts and the heuristic's algorithm are made
//! once per shape and kept; one 32 MiB workspace (cuBLAS's recommendation
//! for Hopper) serves every call.
//!
//! The library is loaded at first use (`dlopen`): `libcublasLt.so.13`, then
//! `.so.12`, from the loader's path, then from the lib folders of the
//! `nvidia-*` Python wheels (`nvidia-cublas`, which PyTorch and JAX
//! install), found by asking `python3` where the `nvidia` package lives.

use crate::UnrankedMemRef;
use crate::contraction::{self, Operand, Sizes, layout};
use crate::cuda::{self, Handle};
use crate::dl::{Library, LoadError, library};
use dist_npy::Bf16;
use std::collections::HashMap;
use std::ffi::{CStr, c_char, c_int, c_void};
use std::sync::{Mutex, OnceLock};

library! {
    /// The cuBLASLt functions the runtime uses (cublasLt.h, CUDA 12 and 13).
    Lt {
        cublasLtCreate: fn(*mut Handle) -> c_int;
        cublasLtGetStatusString: fn(c_int) -> *const c_char;
        cublasLtMatmulDescCreate: fn(*mut Handle, c_int, c_int) -> c_int;
        cublasLtMatmulDescSetAttribute: fn(Handle, c_int, *const c_void, usize) -> c_int;
        cublasLtMatrixLayoutCreate: fn(*mut Handle, c_int, u64, u64, i64) -> c_int;
        cublasLtMatrixLayoutSetAttribute: fn(Handle, c_int, *const c_void, usize) -> c_int;
        cublasLtMatmulPreferenceCreate: fn(*mut Handle) -> c_int;
        cublasLtMatmulPreferenceSetAttribute: fn(Handle, c_int, *const c_void, usize) -> c_int;
        cublasLtMatmulPreferenceDestroy: fn(Handle) -> c_int;
        cublasLtMatmulAlgoGetHeuristic: fn(Handle, Handle, Handle, Handle, Handle, Handle, Handle, c_int,
            *mut HeuristicResult, *mut c_int) -> c_int;
        cublasLtMatmul: fn(Handle, Handle, *const c_void, *const c_void, Handle, *const c_void, Handle,
            *const c_void, *const c_void, Handle, *mut c_void, Handle, *const [u64; 8], *mut c_void, usize,
            Handle) -> c_int;
    }
}

/// `cublasLtMatmulHeuristicResult_t`.
#[repr(C)]
#[derive(Clone, Copy, Default)]
pub struct HeuristicResult {
    algo: [u64; 8],
    workspace_size: usize,
    state: c_int,
    waves_count: f32,
    reserved: [c_int; 4],
}

// cudaDataType_t, cublasComputeType_t and the attribute enums of cublasLt.h.
const CUDA_R_32F: c_int = 0;
const CUDA_R_16BF: c_int = 14;
const COMPUTE_32F: c_int = 68;
const COMPUTE_32F_FAST_TF32: c_int = 77;
const DESC_TRANSA: c_int = 3;
const DESC_TRANSB: c_int = 4;
const DESC_EPILOGUE: c_int = 7;
const DESC_BIAS_POINTER: c_int = 8;
const DESC_BIAS_DATA_TYPE: c_int = 26;
/// `CUBLASLT_EPILOGUE_BIAS`: D's rows (C's n) plus a bias vector.
const EPILOGUE_BIAS: c_int = 4;
const LAYOUT_BATCH_COUNT: c_int = 5;
const LAYOUT_STRIDED_BATCH_OFFSET: c_int = 6;
const PREF_MAX_WORKSPACE_BYTES: c_int = 1;
/// `CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_{A,B,C,D}_BYTES`, in that order.
const PREF_MIN_ALIGNMENT_BYTES: [c_int; 4] = [5, 6, 7, 8];
/// The alignment cuBLASLt assumes of every matrix unless told less.
const MAX_ALIGNMENT: u32 = 256;
const WORKSPACE_BYTES: u64 = 32 << 20;

/// An input element type cuBLASLt multiplies into f32.
pub trait Factor: Copy {
    const DATA_TYPE: c_int;
    const NAME: &'static str;
}

impl Factor for f32 {
    const DATA_TYPE: c_int = CUDA_R_32F;
    const NAME: &'static str = "f32";
}

impl Factor for Bf16 {
    const DATA_TYPE: c_int = CUDA_R_16BF;
    const NAME: &'static str = "bf16";
}

/// One column-major GEMM's shape as cuBLASLt is asked it, with its batch:
/// the key of the cache.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Shape {
    data_type: c_int,
    compute: c_int,
    /// `op(A)` and `op(B)` transposed.
    trans: (bool, bool),
    mnk: (i64, i64, i64),
    ld: (i64, i64, i64),
    /// Batch count and each matrix's batch stride.
    batch: (i64, [i64; 3]),
    /// The bytes every address of A, B and C (D is C) is a multiple of, up
    /// to 256: the heuristic must not pick an algorithm that needs more.
    alignment: [u32; 3],
    /// With a bias epilogue, the bytes the bias vector's address is a
    /// multiple of (the heuristic reads the pointer for it).
    bias: Option<u32>,
}

/// What cuBLASLt keeps for a shape: the descriptors and the algorithm its
/// heuristic picked.
struct Prepared {
    desc: Handle,
    layouts: [Handle; 3],
    algo: [u64; 8],
}

struct State {
    lt: Lt,
    handle: Handle,
    workspace: *mut c_void,
    prepared: Mutex<HashMap<Shape, Prepared>>,
}

// SAFETY: handles are used from the program's main thread; the cache is
// behind a mutex.
unsafe impl Send for State {}
unsafe impl Sync for State {}

static STATE: OnceLock<Result<State, String>> = OnceLock::new();

/// The lib folders of the `nvidia-*` wheels of the first `python3` on the
/// path (empty without one).
fn wheel_folders() -> Vec<String> {
    let query = "import glob, os, nvidia\n\
                 for p in nvidia.__path__:\n    print('\\n'.join(sorted(glob.glob(os.path.join(p, '*', 'lib')))))";
    std::process::Command::new("python3")
        .args(["-c", query])
        .stderr(std::process::Stdio::null())
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).lines().map(str::to_owned).collect())
        .unwrap_or_default()
}

/// cuBLASLt from the loader's path or a wheel, or what was tried.
fn open() -> Result<Library, String> {
    const NAMES: [&str; 2] = ["libcublasLt.so.13", "libcublasLt.so.12"];
    let mut tried = Vec::new();
    for name in NAMES {
        match Library::open(name) {
            Ok(library) => return Ok(library),
            Err(e) => tried.push(e.to_string()),
        }
    }
    for folder in wheel_folders() {
        for name in NAMES {
            let path = format!("{folder}/{name}");
            if std::path::Path::new(&path).exists() {
                // Leaked once: the library's name lives as long as it does.
                match Library::open(Box::leak(path.into_boxed_str())) {
                    Ok(library) => return Ok(library),
                    Err(e) => tried.push(e.to_string()),
                }
            }
        }
    }
    Err(format!(
        "products on the GPU use cuBLASLt (libcublasLt.so.13 or .so.12, on the loader's path or in the \
         nvidia-cublas Python wheel), which was not found ({}); dist-run --gpu-matmul=generated compiles them \
         as kernels instead",
        tried.join("; ")
    ))
}

impl State {
    fn new() -> Result<Self, String> {
        // The context cuBLASLt works in is the device's primary one.
        cuda::device();
        let library = open()?;
        let lt = Lt::load(&library).map_err(|e: LoadError| e.to_string())?;
        let mut handle = std::ptr::null_mut();
        // SAFETY: an out-pointer.
        check(&lt, "cublasLtCreate", unsafe { (lt.cublasLtCreate)(&mut handle) })?;
        let workspace = cuda::mgpuMemAlloc(WORKSPACE_BYTES, std::ptr::null_mut(), false);
        Ok(State {
            lt,
            handle,
            workspace,
            prepared: Mutex::new(HashMap::new()),
        })
    }
}

fn check(lt: &Lt, call: &str, status: c_int) -> Result<(), String> {
    if status == 0 {
        return Ok(());
    }
    // SAFETY: cuBLASLt returns a static string for any status.
    let text = unsafe {
        let text = (lt.cublasLtGetStatusString)(status);
        if text.is_null() {
            format!("status {status}")
        } else {
            CStr::from_ptr(text).to_string_lossy().into_owned()
        }
    };
    Err(format!("{call} failed: {text}"))
}

fn state() -> &'static State {
    STATE
        .get_or_init(State::new)
        .as_ref()
        .unwrap_or_else(|e| crate::fail(e))
}

fn checked(state: &State, call: &str, status: c_int) {
    check(&state.lt, call, status).unwrap_or_else(|e| crate::fail(e));
}

impl Shape {
    /// Makes the descriptors of this shape and asks the heuristic for an
    /// algorithm.
    fn prepare(&self, state: &State, bias: *const f32) -> Prepared {
        let lt = &state.lt;
        let (m, n, k) = self.mnk;
        let mut desc = std::ptr::null_mut();
        let mut layouts = [std::ptr::null_mut(); 3];
        let op = |t: bool| -> c_int { t.into() };
        // The stored matrices: op(A) is m x k, op(B) k x n, C m x n.
        let stored = |t: bool, rows: i64, cols: i64| if t { (cols, rows) } else { (rows, cols) };
        let shapes = [
            (self.data_type, stored(self.trans.0, m, k), self.ld.0),
            (self.data_type, stored(self.trans.1, k, n), self.ld.1),
            (CUDA_R_32F, (m, n), self.ld.2),
        ];
        let set_int = |handle: Handle, attr: c_int, value: c_int, call: &str| {
            // SAFETY: a live descriptor and a value of the attribute's type.
            let status =
                unsafe { (lt.cublasLtMatmulDescSetAttribute)(handle, attr, (&value as *const c_int).cast(), 4) };
            checked(state, call, status);
        };
        // SAFETY: out-pointers and live descriptors.
        unsafe {
            checked(
                state,
                "cublasLtMatmulDescCreate",
                (lt.cublasLtMatmulDescCreate)(&mut desc, self.compute, CUDA_R_32F),
            );
            set_int(desc, DESC_TRANSA, op(self.trans.0), "cublasLtMatmulDescSetAttribute");
            set_int(desc, DESC_TRANSB, op(self.trans.1), "cublasLtMatmulDescSetAttribute");
            if self.bias.is_some() {
                set_int(desc, DESC_EPILOGUE, EPILOGUE_BIAS, "cublasLtMatmulDescSetAttribute");
                set_int(desc, DESC_BIAS_DATA_TYPE, CUDA_R_32F, "cublasLtMatmulDescSetAttribute");
                // The heuristic reads the pointer's alignment (each call
                // sets its own pointer, of the alignment in the key).
                set_bias(state, desc, bias);
            }
            for ((layout, (data_type, (rows, cols), ld)), stride) in layouts.iter_mut().zip(shapes).zip(self.batch.1) {
                checked(
                    state,
                    "cublasLtMatrixLayoutCreate",
                    (lt.cublasLtMatrixLayoutCreate)(layout, data_type, rows as u64, cols as u64, ld),
                );
                if self.batch.0 > 1 {
                    let count = self.batch.0 as i32;
                    checked(
                        state,
                        "cublasLtMatrixLayoutSetAttribute",
                        (lt.cublasLtMatrixLayoutSetAttribute)(
                            *layout,
                            LAYOUT_BATCH_COUNT,
                            (&count as *const i32).cast(),
                            4,
                        ),
                    );
                    checked(
                        state,
                        "cublasLtMatrixLayoutSetAttribute",
                        (lt.cublasLtMatrixLayoutSetAttribute)(
                            *layout,
                            LAYOUT_STRIDED_BATCH_OFFSET,
                            (&stride as *const i64).cast(),
                            8,
                        ),
                    );
                }
            }
            let mut preference = std::ptr::null_mut();
            checked(
                state,
                "cublasLtMatmulPreferenceCreate",
                (lt.cublasLtMatmulPreferenceCreate)(&mut preference),
            );
            checked(
                state,
                "cublasLtMatmulPreferenceSetAttribute",
                (lt.cublasLtMatmulPreferenceSetAttribute)(
                    preference,
                    PREF_MAX_WORKSPACE_BYTES,
                    (&WORKSPACE_BYTES as *const u64).cast(),
                    8,
                ),
            );
            let [alignment_a, alignment_b, alignment_c] = self.alignment;
            let alignments = [alignment_a, alignment_b, alignment_c, alignment_c];
            for (attr, bytes) in PREF_MIN_ALIGNMENT_BYTES.into_iter().zip(alignments) {
                checked(
                    state,
                    "cublasLtMatmulPreferenceSetAttribute",
                    (lt.cublasLtMatmulPreferenceSetAttribute)(preference, attr, (&bytes as *const u32).cast(), 4),
                );
            }
            let mut result = HeuristicResult::default();
            let mut found = 0;
            let [a, b, c] = layouts;
            checked(
                state,
                "cublasLtMatmulAlgoGetHeuristic",
                (lt.cublasLtMatmulAlgoGetHeuristic)(
                    state.handle,
                    desc,
                    a,
                    b,
                    c,
                    c,
                    preference,
                    1,
                    &mut result,
                    &mut found,
                ),
            );
            checked(
                state,
                "cublasLtMatmulPreferenceDestroy",
                (lt.cublasLtMatmulPreferenceDestroy)(preference),
            );
            if found == 0 {
                crate::fail(format!(
                    "cuBLASLt has no algorithm for a {m} x {n} x {k} product ({self:?}); \
                     dist-run --gpu-matmul=generated compiles products as kernels instead"
                ));
            }
            Prepared {
                desc,
                layouts,
                algo: result.algo,
            }
        }
    }
}

/// Points the bias epilogue of `desc` at `bias`.
fn set_bias(state: &State, desc: Handle, bias: *const f32) {
    // SAFETY: a live descriptor and a value of the attribute's type (a
    // device pointer).
    let status = unsafe {
        (state.lt.cublasLtMatmulDescSetAttribute)(desc, DESC_BIAS_POINTER, (&bias as *const *const f32).cast(), 8)
    };
    checked(state, "cublasLtMatmulDescSetAttribute", status);
}

/// The bytes every matrix of an operand starts at a multiple of, up to
/// [`MAX_ALIGNMENT`]: its base address and each batch step, in bytes.
fn alignment(base: usize, batch_strides: &[i64], element: usize) -> u32 {
    std::iter::once(base)
        .chain(batch_strides.iter().map(|&s| s.unsigned_abs() as usize * element))
        .filter(|&bytes| bytes != 0)
        .map(|bytes| 1u32 << bytes.trailing_zeros().min(MAX_ALIGNMENT.trailing_zeros()))
        .fold(MAX_ALIGNMENT, u32::min)
}

/// The batch loops as cuBLASLt runs them: the innermost loops that walk
/// every operand by one even stride merged into one strided batch
/// (count, stride of A, B and C), and the loops outside it, which the host
/// steps through. Loops of one iteration are dropped.
fn split_batch(sizes: &[i64], strides: [&[i64]; 3]) -> (Vec<usize>, i64, [i64; 3]) {
    let mut loops: Vec<usize> = (0..sizes.len()).filter(|&d| sizes[d] != 1).collect();
    let (mut count, mut step) = (1, [0; 3]);
    while let Some(&d) = loops.last() {
        let even = count == 1 || (0..3).all(|o| strides[o][d] == step[o] * count);
        if !even {
            break;
        }
        if count == 1 {
            step = [0, 1, 2].map(|o| strides[o][d]);
        }
        count *= sizes[d];
        loops.pop();
    }
    (loops, count, step)
}

/// `C += A . B` for the contraction the roles describe, queued on the
/// compute stream; `tf32` lets f32 products round their inputs to TF32.
/// With a `bias` vector along C's contiguous dim, `C = A . B + bias`
/// instead (cuBLASLt's bias epilogue; C is not read).
///
/// # Safety
/// The descriptors are live memrefs in device memory of the shapes the
/// roles relate, `a` and `b` of `T`, `c` and `bias` of f32.
pub unsafe fn contract<T: Factor>(
    a: &UnrankedMemRef,
    b: &UnrankedMemRef,
    c: &UnrankedMemRef,
    bias: Option<&UnrankedMemRef>,
    roles: [i64; 3],
    batch_loops: usize,
    tf32: bool,
) {
    // SAFETY: guaranteed by the caller.
    let Some(gemms) = (unsafe { contraction::plan::<T>(a, b, c, roles, batch_loops) }) else {
        return;
    };
    if gemms.readable().contains(&false) {
        crate::fail(format!(
            "a {} product reached cuBLASLt with an operand it cannot read in place (no contiguous matrix dim); \
             dist-call-blas hands it only readable layouts",
            T::NAME
        ));
    }
    let (mut oa, mut ob, mut oc, mut sizes) = (gemms.a, gemms.b, gemms.c, gemms.sizes);
    if layout(sizes.m, sizes.n, oc.m, oc.n).is_some_and(|(t, _)| t) {
        if bias.is_some() {
            crate::fail(format!(
                "a {} product with a bias epilogue whose output is column-major: the bias runs along D's rows, \
                 C's contiguous n dim, and dist-fuse-product-bias folds only a bias along it",
                T::NAME
            ));
        }
        // A column-major C: compute C^T = B^T A^T instead.
        (oa, ob, oc, sizes) = (ob.swapped(), oa.swapped(), oc.swapped(), sizes.swapped());
    }
    // SAFETY: guaranteed by the caller.
    let bias = bias.map(|bias| unsafe { bias_vector(bias, sizes.n) });
    run(&oa, &ob, &oc, bias, &sizes, tf32);
}

/// The first element of `bias`, a contiguous vector of `n` f32, C's
/// contiguous dim (cuBLASLt's bias runs along D's rows, which are C's n).
///
/// # Safety
/// `bias` is a live descriptor of f32.
unsafe fn bias_vector(bias: &UnrankedMemRef, n: i64) -> *const f32 {
    // SAFETY: guaranteed by the caller.
    let (aligned, offset, sizes, strides) = unsafe { bias.parts() };
    if sizes != [n] || (n > 1 && strides != [1]) {
        crate::fail(format!(
            "a GPU product's bias is a contiguous vector along the output's contiguous dim ({n} elements), not \
             sizes {sizes:?} strides {strides:?}; dist-fuse-product-bias folds only such a bias"
        ));
    }
    // SAFETY: the offset is inside the vector.
    unsafe { (aligned as *const f32).add(offset as usize) }
}

/// Queues the row-major `C[m, n] += A[m, k] B[k, n]` (C row-contiguous) as
/// column-major `C^T = B^T A^T` GEMMs; with a bias (of n), `C = A B + bias`.
fn run<T: Factor>(
    a: &Operand<T>,
    b: &Operand<T>,
    c: &Operand<f32>,
    bias: Option<*const f32>,
    sizes: &Sizes,
    tf32: bool,
) {
    let Sizes { m, n, k, .. } = *sizes;
    let readable = "checked by the caller";
    let (trans_a, lda) = layout(m, k, a.m, a.k).expect(readable);
    let (trans_b, ldb) = layout(k, n, b.k, b.n).expect(readable);
    let (_, ldc) = layout(m, n, c.m, c.n).expect(readable);
    let (outer, count, [stride_b, stride_a, stride_c]) = split_batch(&sizes.batch, [&b.batch, &a.batch, &c.batch]);
    let element = std::mem::size_of::<T>();
    let shape = Shape {
        data_type: T::DATA_TYPE,
        compute: if tf32 && T::DATA_TYPE == CUDA_R_32F {
            COMPUTE_32F_FAST_TF32
        } else {
            COMPUTE_32F
        },
        trans: (trans_b, trans_a),
        mnk: (n, m, k),
        ld: (ldb, lda, ldc),
        batch: (count, [stride_b, stride_a, stride_c]),
        alignment: [
            alignment(b.base as usize, &b.batch, element),
            alignment(a.base as usize, &a.batch, element),
            alignment(c.base as usize, &c.batch, 4),
        ],
        bias: bias.map(|pointer| alignment(pointer as usize, &[], 4)),
    };
    let state = state();
    let mut cache = state.prepared.lock().unwrap_or_else(|e| e.into_inner());
    let prepared = cache
        .entry(shape)
        .or_insert_with(|| shape.prepare(state, bias.unwrap_or(std::ptr::null())));
    if let Some(pointer) = bias {
        set_bias(state, prepared.desc, pointer);
    }
    let gpu = cuda::device();
    let stream = gpu.compute;
    let one = 1f32;
    // With the bias epilogue C is written, not accumulated into.
    let beta = if bias.is_some() { 0f32 } else { 1f32 };
    for index in contraction::indices(&sizes.batch, outer) {
        let [la, lb, lc] = prepared.layouts;
        let pc = c.at(&index);
        let name = |_: &cuda::Profile| {
            let precision = if shape.compute == COMPUTE_32F_FAST_TF32 {
                "tf32"
            } else {
                T::NAME
            };
            let epilogue = if bias.is_some() { " + bias" } else { "" };
            format!("cuBLASLt {precision} {m} x {n} x {k}{epilogue}, batch {count}")
        };
        gpu.timed(stream, name, || {
            // SAFETY: the pointers address device matrices of the shapes the
            // layouts describe; alpha and beta are host scalars (the default
            // pointer mode); D is C, accumulated in place (or, with a bias,
            // overwritten).
            let status = unsafe {
                (state.lt.cublasLtMatmul)(
                    state.handle,
                    prepared.desc,
                    (&one as *const f32).cast(),
                    b.at(&index).cast(),
                    la,
                    a.at(&index).cast(),
                    lb,
                    (&beta as *const f32).cast(),
                    pc.cast(),
                    lc,
                    pc.cast(),
                    lc,
                    &prepared.algo,
                    state.workspace,
                    WORKSPACE_BYTES as usize,
                    stream,
                )
            };
            checked(state, "cublasLtMatmul", status);
        });
    }
}

/// The compute mode argument of the entry points: 1 lets f32 inputs round
/// to TF32, 0 does not.
fn tf32_mode(compute: i64) -> bool {
    match compute {
        0 => false,
        1 => true,
        other => crate::fail(format!("a GPU product's compute mode is 0 or 1, not {other}")),
    }
}

/// The entry points `dist-call-blas{library=cublaslt}` calls, one per input
/// element type (C is f32), plain and with a bias epilogue: each operand's
/// packed dim roles, the number of batch loops (see `contraction::decode`)
/// and the compute mode (0: f32, 1: TF32 inputs).
macro_rules! gpu_contract_entry_points {
    ($($plain:ident, $with_bias:ident: $t:ty;)*) => {$(
        /// `C += A . B` on the GPU, A and B of this element type.
        ///
        /// # Safety
        /// Called by compiled code with live descriptors of device memory of
        /// the shapes the roles relate.
        #[unsafe(no_mangle)]
        #[allow(clippy::too_many_arguments)]
        pub unsafe extern "C" fn $plain(
            a: &UnrankedMemRef,
            b: &UnrankedMemRef,
            c: &UnrankedMemRef,
            roles_a: i64,
            roles_b: i64,
            roles_c: i64,
            batch_loops: i64,
            compute: i64,
        ) {
            let roles = [roles_a, roles_b, roles_c];
            // SAFETY: guaranteed by the caller.
            unsafe { contract::<$t>(a, b, c, None, roles, batch_loops as usize, tf32_mode(compute)) };
        }

        /// `C = A . B + bias` on the GPU (the bias along C's contiguous
        /// dim, by cuBLASLt's bias epilogue), A and B of this element type.
        ///
        /// # Safety
        /// As the plain entry point, and `bias` is a live f32 vector in
        /// device memory.
        #[unsafe(no_mangle)]
        #[allow(clippy::too_many_arguments)]
        pub unsafe extern "C" fn $with_bias(
            a: &UnrankedMemRef,
            b: &UnrankedMemRef,
            c: &UnrankedMemRef,
            bias: &UnrankedMemRef,
            roles_a: i64,
            roles_b: i64,
            roles_c: i64,
            batch_loops: i64,
            compute: i64,
        ) {
            let roles = [roles_a, roles_b, roles_c];
            // SAFETY: guaranteed by the caller.
            unsafe { contract::<$t>(a, b, c, Some(bias), roles, batch_loops as usize, tf32_mode(compute)) };
        }
    )*};
}

gpu_contract_entry_points! {
    _mlir_ciface_dist_rt_gpu_contract_f32, _mlir_ciface_dist_rt_gpu_contract_bias_f32: f32;
    _mlir_ciface_dist_rt_gpu_contract_bf16, _mlir_ciface_dist_rt_gpu_contract_bias_bf16: Bf16;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn even_inner_batch_loops_merge_into_one_strided_batch() {
        // Heads [2, 8] of contiguous 64 x 64 blocks in A and C, B shared:
        // one batch of 16.
        let (a, b, c) = ([512, 64], [0, 0], [512, 64]);
        assert_eq!(split_batch(&[2, 8], [&a, &b, &c]), (vec![], 16, [64, 0, 64]));
        // A's outer loop steps by 1024, not 512: it stays on the host.
        let a = [1024, 64];
        assert_eq!(split_batch(&[2, 8], [&a, &b, &c]), (vec![0], 8, [64, 0, 64]));
        // Loops of one iteration are dropped; no batch is a count of one.
        assert_eq!(
            split_batch(&[1, 4], [&[9, 5], &[9, 0], &[9, 7]]),
            (vec![], 4, [5, 0, 7])
        );
        assert_eq!(split_batch(&[], [&[], &[], &[]]), (vec![], 1, [0, 0, 0]));
    }

    #[test]
    fn alignment_is_the_least_of_the_base_and_the_batch_steps() {
        assert_eq!(alignment(0x1000, &[], 4), 256);
        assert_eq!(alignment(0x1010, &[], 4), 16);
        // A batch step of 3 f32 elements (12 bytes) starts matrices at 4-byte
        // multiples; a broadcast (stride 0) adds nothing.
        assert_eq!(alignment(0x1000, &[3, 0], 4), 4);
        assert_eq!(alignment(0x1000, &[64], 2), 128);
    }
}
