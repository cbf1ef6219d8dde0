"""Runs test/dist-run/reductions.mlir with dist-run on inputs in [1, 2) and
compares every result with a float64 reference computed here.

usage: check_reductions.py PROGRAM WORKDIR
"""

import math
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "scripts"))
import npy  # noqa: E402

TOLERANCE = 1e-6


def rows_of(values, width):
    return [values[i:i + width] for i in range(0, len(values), width)]


def layer_norm(row, eps=1e-5):
    mean = math.fsum(row) / len(row)
    var = math.fsum((v - mean) ** 2 for v in row) / len(row)
    rstd = 1.0 / math.sqrt(var + eps)
    return mean, rstd


def main():
    program, work = sys.argv[1:3]
    rng = random.Random(7)
    inputs = os.path.join(work, "in")
    os.makedirs(inputs, exist_ok=True)
    data = {}
    for name, shape, _ in npy.signature(program, "reductions"):
        n = math.prod(shape)
        # Stored as float32: the reference starts from the same numbers.
        values = [rng.uniform(1.0, 2.0) for _ in range(n)]
        path = os.path.join(inputs, f"{name}.npy")
        npy.write(path, shape, values, "f4")
        data[name] = npy.read(path)
    out = os.path.join(work, "out")
    subprocess.run(["dist-run", program, "--entry", "reductions", "-n", "1", "--input-dir", inputs,
                    "--out", out], check=True)
    got = [npy.read(os.path.join(out, f"result{k}.npy")) for k in range(9)]

    x, rows, long = data["x"], rows_of(data["rows"], 64), rows_of(data["long"], 65536)
    g, b, w, dy = data["g"], data["b"], rows_of(data["w"], 48), rows_of(data["dy"], 48)
    stats = [layer_norm(row) for row in long]
    ln = [(v - m) * r * gi + bi for row, (m, r) in zip(long, stats) for v, gi, bi in zip(row, g, b)]
    softmax = []
    for row in long:
        top = max(row)
        exps = [math.exp(v - top) for v in row]
        total = math.fsum(exps)
        softmax += [e / total for e in exps]
    expected = [
        ("mean of 512x512", [math.fsum(x) / len(x)], 0.0),
        ("sum over 2048 rows", [math.fsum(r[j] for r in rows) for j in range(64)], 0.0),
        # Elementwise: relative to max(1, |y|), as y crosses zero.
        ("layer_norm y over 65536", ln, 1.0),
        ("layer_norm mean over 65536", [m for m, _ in stats], 0.0),
        ("layer_norm rstd over 65536", [r for _, r in stats], 0.0),
        ("softmax over 65536", softmax, 0.0),
        ("bias gradient over 2048 rows", [math.fsum(r[j] for r in dy) for j in range(48)], 0.0),
        ("weight gradient over 2048 rows",
         [math.fsum(rows[i][a] * dy[i][c] for i in range(2048)) for a in range(64) for c in range(48)], 0.0),
        ("matmul over 2048, y transposed",
         [math.fsum(a * c for a, c in zip(pr, qr)) for pr in rows_of(data["p"], 2048) for qr in rows_of(data["q"], 2048)],
         0.0),
    ]
    failures = 0
    for (name, reference, floor), result in zip(expected, got):
        worst = max(abs(a - e) / max(abs(e), floor) for a, e in zip(result, reference))
        ok = worst <= TOLERANCE and len(result) == len(reference)
        failures += not ok
        print(f"{name}: max relative error {worst:.1e} {'ok' if ok else 'FAIL'}")
    print(f"{'all' if not failures else 'not all'} within {TOLERANCE:g}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
