"""The GEMMs dist-run's runtime can call, side by side on one core: OpenBLAS's
f32 `cblas_sgemm` and oneDNN's `dnnl_gemm_bf16bf16f32` (bf16 inputs, f32
sums and output), at the GPT step's sizes; prints GFLOP/s of each, their
time ratio and the bf16 GEMM's largest error against the f32 product of
the same bf16 values (relative to its largest entry).

  OMP_NUM_THREADS=1 taskset -c 0 .tools/jax-venv/bin/python scripts/bench-bf16-gemm.py

(numpy and ml_dtypes from the JAX environment scripts/setup.sh installs;
the libraries as the runtime loads them, libopenblas.so.0 and libdnnl.so.2.)
"""

import ctypes
import os
import time

import ml_dtypes
import numpy as np

# The runtime's choice on an AMD CPU with AVX-512 (runtime/src/blas.rs).
os.environ.setdefault("OPENBLAS_CORETYPE", "SKYLAKEX")
blas = ctypes.CDLL("libopenblas.so.0")
dnnl = ctypes.CDLL("libdnnl.so.2")
blas.openblas_set_num_threads(1)
f32, i64, ptr = ctypes.c_float, ctypes.c_int64, ctypes.c_void_p
dnnl.dnnl_gemm_bf16bf16f32.argtypes = [ctypes.c_char, ctypes.c_char, i64, i64, i64, f32, ptr, i64, ptr, i64, f32,
                                       ptr, i64]
blas.cblas_sgemm.argtypes = [ctypes.c_int] * 6 + [f32, ptr, ctypes.c_int, ptr, ctypes.c_int, f32, ptr, ctypes.c_int]


def median_seconds(call, runs=10):
    call()
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        call()
        times.append(time.perf_counter() - started)
    return sorted(times)[runs // 2]


def main():
    rng = np.random.default_rng(1)
    print("| m x n x k | sgemm GFLOP/s | bf16 GEMM GFLOP/s | bf16 / sgemm time | bf16 GEMM error |")
    print("|---|---:|---:|---:|---:|")
    # The step's projections, MLP and logits (4 x 128 tokens, hidden 512),
    # a small attention product, and a large square one.
    for m, n, k in [(512, 512, 512), (512, 2048, 512), (512, 512, 2048), (512, 128, 512), (128, 128, 64),
                    (2048, 2048, 2048)]:
        a = rng.uniform(-1, 1, (m, k)).astype(np.float32)
        b = rng.uniform(-1, 1, (k, n)).astype(np.float32)
        c = np.zeros((m, n), np.float32)
        ab, bb = a.astype(ml_dtypes.bfloat16), b.astype(ml_dtypes.bfloat16)
        sgemm = median_seconds(lambda: blas.cblas_sgemm(101, 111, 111, m, n, k, 1.0, a.ctypes.data, k,
                                                        b.ctypes.data, n, 0.0, c.ctypes.data, n))
        bf16 = median_seconds(lambda: dnnl.dnnl_gemm_bf16bf16f32(b"N", b"N", m, n, k, 1.0, ab.ctypes.data, k,
                                                                 bb.ctypes.data, n, 0.0, c.ctypes.data, n))
        exact = ab.astype(np.float32) @ bb.astype(np.float32)
        error = float(np.max(np.abs(c - exact)) / np.max(np.abs(exact)))
        flops = 2 * m * n * k
        print(f"| {m} x {n} x {k} | {flops / sgemm / 1e9:.1f} | {flops / bf16 / 1e9:.1f} | {bf16 / sgemm:.2f} "
              f"| {error:.1e} |")


if __name__ == "__main__":
    main()
