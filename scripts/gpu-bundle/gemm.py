"""The GEMM programs beside cuBLAS, for run.sh.

usage: gemm.py BIN_DIR WORK_DIR SIZES VARIANTS

SIZES are N,N,... and VARIANTS the programs the bundle holds as
BIN_DIR/gemm-<N>-<variant>: M.N.K for the generated kernels of that
--matmul-tile (--gpu-matmul=generated), cublaslt for the product on the
runtime's cuBLASLt (f32), cublaslt-tf32 for the same with --gpu-tf32. For
each N: A and B uniform in [-1, 1) float32 (seeded), written as .npy; each
variant runs (its --repeat is built in, its median step time read from
DIST_RUN_TIMING's line) and its C is checked against a float64 product by
||C - R|| / ||R|| (1e-5; 5e-3 for TF32, whose inputs keep 10 bits);
cuBLAS runs the same product through torch.matmul, float32 with tf32 off
and then with tf32 on, median of 20 event-timed calls after 3 warm-ups,
and each variant is compared with cuBLAS at its own precision. Prints one
markdown row per variant; exits 1 when a variant fails or is wrong.
"""

import os
import re
import subprocess
import sys

import numpy as np
import torch


def cublas_ms(a, b, tf32):
    torch.backends.cuda.matmul.allow_tf32 = tf32
    for _ in range(3):
        a @ b
    times = []
    for _ in range(20):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        a @ b
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    return float(np.median(times))


def main():
    bin_dir, work, sizes, tiles = sys.argv[1:5]
    sizes = [int(n) for n in sizes.split(",")]
    tiles = tiles.split(",")
    failed = False
    print("| N | kernel | ms | TFLOP/s | of cuBLAS (same precision) | rel. error |")
    print("|---:|---|---:|---:|---:|---:|")
    for n in sizes:
        rng = np.random.default_rng(n)
        a = rng.uniform(-1, 1, (n, n)).astype(np.float32)
        b = rng.uniform(-1, 1, (n, n)).astype(np.float32)
        paths = [os.path.join(work, f"gemm-{n}-{x}.npy") for x in "ab"]
        np.save(paths[0], a)
        np.save(paths[1], b)
        ta, tb = torch.from_numpy(a).cuda(), torch.from_numpy(b).cuda()
        ref = (ta.double() @ tb.double()).cpu().numpy()
        flop = 2.0 * n**3
        fp32 = cublas_ms(ta, tb, False)
        tf32 = cublas_ms(ta, tb, True)
        for tile in tiles:
            out = os.path.join(work, f"gemm-{n}-{tile}-out")
            os.makedirs(out, exist_ok=True)
            env = dict(os.environ, DIST_RUN_INPUT_0=paths[0], DIST_RUN_INPUT_1=paths[1],
                       DIST_RUN_OUT=out, DIST_RUN_TIMING="1")
            run = subprocess.run([os.path.join(bin_dir, f"gemm-{n}-{tile}")], env=env,
                                 capture_output=True, text=True, timeout=300)
            sys.stderr.write(run.stderr)
            step = re.search(r"^step ([0-9.]+) ms", run.stderr, re.M)
            if run.returncode != 0 or not step:
                print(f"| {n} | dist {tile} | failed (exit {run.returncode}) | | | |")
                failed = True
                continue
            ms = float(step.group(1))
            c = np.load(os.path.join(out, "result0.npy")).astype(np.float64)
            error = float(np.linalg.norm(c - ref) / np.linalg.norm(ref))
            baseline, tolerance = (tf32, 5e-3) if "tf32" in tile else (fp32, 1e-5)
            failed |= not error < tolerance
            print(f"| {n} | dist {tile} | {ms:.3f} | {flop / ms / 1e9:.2f} | {baseline / ms:.2f} | {error:.1e} |")
        print(f"| {n} | cuBLAS fp32 | {fp32:.3f} | {flop / fp32 / 1e9:.2f} | 1 | |")
        print(f"| {n} | cuBLAS tf32 | {tf32:.3f} | {flop / tf32 / 1e9:.2f} | {fp32 / tf32:.2f} | |")
        sys.stdout.flush()
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
