#!/usr/bin/env python3
"""Writes what dist-opt and dist-gen print for every lit input into a folder,
so that a refactoring can be shown to change no output: run it before and
after, then `diff -r BEFORE AFTER`.

For each `dist-opt ...` command of a RUN line under test/ (the part of a
pipe that starts with dist-opt, `%s`/`%S` substituted; commands that need a
lit temporary or another substitution are skipped), its stdout and stderr.
Also `dist-gen gpt` at 1 and 8 layers with and without `--sp`, raw and
after the partition and CPU lowering pipelines.

usage: scripts/snapshot-outputs.py OUT_DIR [BIN_DIR]   (BIN_DIR: target/debug)
"""
import os
import shlex
import subprocess
import sys

from lit_runs import dist_opt_commands

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def capture(argv, bin_dir, stdin=None):
    argv = [os.path.join(bin_dir, argv[0])] + argv[1:]
    done = subprocess.run(argv, input=stdin, capture_output=True, timeout=600)
    return done.stdout, done.stderr, done.returncode


def write(out_dir, name, stdout, stderr, code):
    with open(os.path.join(out_dir, name), "wb") as f:
        f.write(stdout)
        f.write(b"\n--- stderr ---\n")
        # Paths in diagnostics are the same before and after.
        f.write(stderr)
        f.write(f"\n--- exit {code} ---\n".encode())


def main():
    if len(sys.argv) < 2 or sys.argv[1].startswith("-"):
        sys.exit(__doc__.strip())
    out_dir = sys.argv[1]
    bin_dir = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, "target", "debug")
    os.makedirs(out_dir, exist_ok=True)
    # The PTX tests need libdevice, as under lit.
    cuda = os.path.join(ROOT, ".tools", "cuda", "nvidia", "cuda_nvcc")
    os.environ.setdefault("CUDA_ROOT", cuda)
    count = 0
    for dirpath, _, files in sorted(os.walk(os.path.join(ROOT, "test"))):
        for file in sorted(files):
            if not file.endswith(".mlir"):
                continue
            path = os.path.join(dirpath, file)
            rel = os.path.relpath(path, ROOT).replace("/", "_")
            for i, command in enumerate(dist_opt_commands(path)):
                write(out_dir, f"{rel}.{i}", *capture(shlex.split(command), bin_dir))
                count += 1
    for layers in ("1", "8"):
        for sp in ([], ["--sp", "2"]):
            gen = ["dist-gen", "gpt", "--layers", layers, "--dp", "2", "--tp", "2"] + sp
            name = f"dist-gen-gpt-{layers}{'-sp' if sp else ''}"
            program, err, code = capture(gen, bin_dir)
            write(out_dir, name, program, err, code)
            partitioned = capture(["dist-opt", "-", "--dist-lower-to-local"], bin_dir, program)
            write(out_dir, name + ".partitioned", *partitioned)
            write(out_dir, name + ".llvm", *capture(["dist-opt", "-", "--dist-lower-to-cpu"], bin_dir,
                                                     partitioned[0]))
            count += 3
    print(f"{count} outputs in {out_dir}")


if __name__ == "__main__":
    main()
