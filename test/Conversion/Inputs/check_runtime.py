"""Runs a per-device program through convert-dist-to-runtime, the upstream
bufferization and LLVM lowering, and mlir-runner under `mpiexec -n 4`
linked with the dist runtime, and checks every rank's printed results
against the collectives' definitions computed here.

usage: check_runtime.py DIST_OPT MLIR_RUNNER SHARED_LIBS PROGRAM
"""

import os
import re
import subprocess
import sys
import tempfile

PIPELINE = [
    "--convert-dist-to-runtime", "--inline", "--symbol-dce",
    "--one-shot-bufferize=bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map",
    "--ownership-based-buffer-deallocation", "--buffer-deallocation-simplification",
    "--bufferization-lower-deallocations", "--convert-bufferization-to-memref",
    "--convert-linalg-to-loops", "--convert-scf-to-cf",
    "--expand-strided-metadata", "--lower-affine", "--finalize-memref-to-llvm",
    "--convert-math-to-libm", "--convert-to-llvm", "--reconcile-unrealized-casts",
]

DP, TP = 2, 2


def x(rank):
    return [[rank * 100 + 10 * i + j for j in range(4)] for i in range(2)]


def expected(rank):
    dp, tp = divmod(rank, TP)
    tp_group = [dp * TP + t for t in range(TP)]
    dp_group = [d * TP + tp for d in range(DP)]
    add = lambda ranks: [[sum(x(r)[i][j] for r in ranks) for j in range(4)] for i in range(2)]
    summed = add(tp_group)
    gathered = [sum((x(r)[i] for r in dp_group), []) for i in range(2)]
    scattered = [row[2 * tp:2 * tp + 2] for row in summed]
    # all_to_all over tp, split cols into 2 blocks, concat rows: block tp of
    # every group member, stacked in group order.
    exchanged = [x(r)[i][2 * tp:2 * tp + 2] for r in tp_group for i in range(2)]
    everyone = range(DP * TP)
    mean_x = [[sum(x(r)[i][j] for r in everyone) / 4 for j in range(4)] for i in range(2)]

    def scattered_of(r):
        d, t = divmod(r, TP)
        s = [[sum(x(q)[i][j] for q in range(d * TP, d * TP + TP)) for j in range(4)] for i in range(2)]
        return [row[2 * t:2 * t + 2] for row in s]

    mean_s = [[sum(scattered_of(r)[i][j] for r in everyone) / 4 for j in range(2)] for i in range(2)]
    sliced = [row[2 * tp:2 * tp + 2] for row in x(rank)]

    def gathered_of(r):
        t = r % TP
        return [sum((x(d * TP + t)[i] for d in range(DP)), []) for i in range(2)]

    def summed_over(ranks, of):
        m = [of(r) for r in ranks]
        return [[sum(v[i][j] for v in m) for j in range(len(m[0][0]))] for i in range(len(m[0]))]

    # Coalesced reduce_scatters: each operand as if alone.
    gathered_over_tp = summed_over(tp_group, gathered_of)
    coalesced = [scattered, [row[4 * tp:4 * tp + 4] for row in gathered_over_tp]]
    started = [[summed_over(dp_group, x)[dp]], [summed_over(dp_group, gathered_of)[dp]]]
    return [summed, gathered, scattered, exchanged, mean_x, mean_s, sliced, *coalesced, *started]


def flatten(m):
    return [float(v) for row in m for v in row]


def main():
    dist_opt, runner, libs, program = sys.argv[1:5]
    with tempfile.TemporaryDirectory() as tmp:
        lowered = os.path.join(tmp, "program.ll.mlir")
        subprocess.run([dist_opt, program, *PIPELINE, "-o", lowered], check=True)
        ran = subprocess.run(
            ["mpiexec", "-n", "4", "-outfile-pattern", os.path.join(tmp, "out.%r"), runner, lowered,
             "-e", "main", "-entry-point-result=void", f"-shared-libs={libs}"],
            capture_output=True, text=True)
        if ran.returncode:
            sys.exit(f"mpiexec failed:\n{ran.stdout}{ran.stderr}")
        failures = 0
        for rank in range(4):
            with open(os.path.join(tmp, f"out.{rank}")) as f:
                chunks = f.read().split("Unranked Memref")[1:]
            got = [[float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", c.split("data =", 1)[1])] for c in chunks]
            names = ["all_reduce", "all_gather", "reduce_scatter", "all_to_all", "async avg #0", "async avg #1",
                     "all_slice", "coalesced reduce_scatter #0", "coalesced reduce_scatter #1",
                     "async coalesced reduce_scatter #0", "async coalesced reduce_scatter #1"]
            for name, g, e in zip(names, got, expected(rank)):
                ok = g == flatten(e)
                failures += not ok
                print(f"{'ok  ' if ok else 'FAIL'} rank {rank} {name}" + ("" if ok else f": got {g}, want {flatten(e)}"))
            if len(got) != len(names):
                failures += 1
                print(f"FAIL rank {rank}: {len(got)} results printed")
        print(f"{'all' if not failures else failures} collectives {'match' if not failures else 'differ'}")
        sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
