#!/usr/bin/env python3
"""Writes what the tools print for every lit input into a folder, so that a
refactoring can be shown to change no output: run it before and after, then
`diff -r BEFORE AFTER`.

- For each `dist-opt ...` command of a RUN line under test/ (the part of a
  pipe that starts with dist-opt, `%s`/`%S` substituted; commands that need
  a lit temporary or another substitution are skipped), its stdout and
  stderr.
- `dist-gen gpt` and `dist-gen llama` at 1 and 8 layers with and without
  `--sp`, raw and after the partition and CPU lowering pipelines, and
  Llama's other shapes (GQA, ZeRO, bf16, pipeline stages).
- The module `dist-run` compiles (`--emit-mlir`: the step, partitioned or
  not, with its generated `main`), for the shipped examples and the
  generators' steps, on one device and on their meshes, with the options
  that change it (--grad, --recompute, --overlap, buckets, microbatches and
  schedules, --device gpu).
- The tools' own outputs on good and bad command lines: `--help`, a
  missing value, a mistyped flag, a bad value, a missing file.

usage: scripts/snapshot-outputs.py OUT_DIR [BIN_DIR]   (BIN_DIR: target/debug)
"""
import os
import shlex
import subprocess
import sys
import tempfile

from lit_runs import dist_opt_commands

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def capture(argv, bin_dir, stdin=None):
    argv = [os.path.join(bin_dir, argv[0])] + argv[1:]
    done = subprocess.run(argv, input=stdin, capture_output=True, timeout=600, cwd=ROOT)
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
    generated = {}
    for model in ("gpt", "llama"):
        for layers in ("1", "8"):
            for sp in ([], ["--sp", "2"]):
                gen = ["dist-gen", model, "--layers", layers, "--dp", "2", "--tp", "2"] + sp
                name = f"dist-gen-{model}-{layers}{'-sp' if sp else ''}"
                program, err, code = capture(gen, bin_dir)
                write(out_dir, name, program, err, code)
                generated[name] = program
                partitioned = capture(["dist-opt", "-", "--dist-lower-to-local"], bin_dir, program)
                write(out_dir, name + ".partitioned", *partitioned)
                write(out_dir, name + ".llvm", *capture(["dist-opt", "-", "--dist-lower-to-cpu"], bin_dir,
                                                         partitioned[0]))
                count += 3
    for name, extra in LLAMA_SHAPES.items():
        gen = ["dist-gen", "llama", "--layers", "2"] + extra
        program, err, code = capture(gen, bin_dir)
        write(out_dir, f"dist-gen-llama-{name}", program, err, code)
        generated[f"dist-gen-llama-{name}"] = program
        count += 1
    with tempfile.TemporaryDirectory() as work:
        for name, program in generated.items():
            with open(os.path.join(work, name + ".mlir"), "wb") as f:
                f.write(program)
        for name, (program, argv) in DIST_RUN.items():
            path = program if os.path.isabs(program) else os.path.join(ROOT, program)
            if program.startswith("dist-gen-"):
                path = os.path.join(work, program + ".mlir")
            emitted = os.path.join(work, "emitted.mlir")
            if os.path.exists(emitted):
                os.remove(emitted)
            stdout, stderr, code = capture(["dist-run", path] + argv + ["--emit-mlir", emitted], bin_dir)
            module = open(emitted, "rb").read() if os.path.exists(emitted) else b""
            write(out_dir, f"dist-run-{name}", module + stdout, stderr.replace(work.encode(), b"WORK"), code)
            count += 1
        for name, argv in COMMAND_LINES.items():
            argv = [a.replace("WORK", work) for a in argv]
            stdout, stderr, code = capture(argv, bin_dir)
            write(out_dir, f"cli-{name}", stdout, stderr.replace(work.encode(), b"WORK"), code)
            count += 1
    print(f"{count} outputs in {out_dir}")


# dist-gen llama beyond the four above: grouped-query attention, ZeRO with
# AdamW, bf16, pipeline stages, recomputation, an uneven vocabulary.
LLAMA_SHAPES = {
    "gqa-zero3": ["--dp", "2", "--tp", "2", "--heads", "8", "--kv-heads", "2", "--optimizer", "adamw", "--zero", "3"],
    "bf16": ["--dp", "2", "--tp", "2", "--dtype", "bf16", "--forward-only"],
    "pp2": ["--pp", "2", "--dp", "1", "--tp", "2", "--forward-only"],
    "recompute": ["--dp", "2", "--tp", "2", "--recompute"],
    "uneven": ["--dp", "2", "--tp", "4", "--vocab", "1001", "--forward-only"],
}

# The module dist-run compiles: (program, arguments), a generated program by
# its snapshot name.
DIST_RUN = {
    "gpt-block-n1": ("examples/gpt-block.mlir", ["--entry", "gpt_step"]),
    "gpt-block-n4-overlap": ("examples/gpt-block.mlir", ["--entry", "gpt_step", "-n", "4", "--overlap"]),
    "gpt-block-n4-buckets": ("examples/gpt-block.mlir", ["--entry", "gpt_step", "-n", "4", "--bucket-mib", "1"]),
    "mlp-grad-n1": ("examples/megatron-mlp-forward.mlir", ["--entry", "step", "--grad"]),
    "mlp-grad-n4": ("examples/megatron-mlp-forward.mlir", ["--entry", "step", "--grad", "-n", "4"]),
    "mlp-grad-recompute-n4": ("examples/megatron-mlp-forward.mlir",
                              ["--entry", "step", "--grad", "--recompute", "-n", "4"]),
    "llama-grad-n8": ("dist-gen-llama-1-sp", ["--entry", "llama_step", "-n", "8"]),
    "llama-zero3-n4": ("dist-gen-llama-gqa-zero3", ["--entry", "llama_step", "-n", "4"]),
    "llama-bf16-n4": ("dist-gen-llama-bf16", ["--entry", "llama_step", "--grad", "-n", "4"]),
    "llama-pp2-microbatches": ("dist-gen-llama-pp2",
                               ["--entry", "llama_step", "--grad", "-n", "4", "--microbatches", "4",
                                "--schedule", "zb-h1"]),
    "gpt-microbatches-n4": ("dist-gen-gpt-1", ["--entry", "gpt_step", "-n", "4", "--microbatches", "2"]),
    "gpt-block-gpu-n4": ("examples/gpt-block.mlir", ["--entry", "gpt_step", "-n", "4", "--device", "gpu"]),
    "partial-argument-n4": ("test/Gradients/partial-argument.mlir", ["--entry", "f", "--grad", "-n", "4"]),
}

# The tools on good and bad command lines (WORK: a scratch folder).
COMMAND_LINES = {
    "dist-run-help": ["dist-run", "--help"],
    "dist-run-nothing": ["dist-run"],
    "dist-run-typo": ["dist-run", "examples/gpt-block.mlir", "--entyr", "gpt_step", "--out", "WORK/o"],
    "dist-run-missing-value": ["dist-run", "examples/gpt-block.mlir", "--entry"],
    "dist-run-bad-count": ["dist-run", "examples/gpt-block.mlir", "--entry", "gpt_step", "-n", "zero",
                           "--out", "WORK/o"],
    "dist-run-bad-schedule": ["dist-run", "examples/gpt-block.mlir", "--entry", "gpt_step", "--microbatches",
                              "2", "--schedule", "2f2b", "--out", "WORK/o"],
    "dist-run-no-file": ["dist-run", "WORK/none.mlir", "--entry", "f", "--out", "WORK/o"],
    "dist-run-no-entry": ["dist-run", "examples/gpt-block.mlir", "--entry", "step", "--out", "WORK/o"],
    "dist-gen-help": ["dist-gen", "--help"],
    "dist-gen-nothing": ["dist-gen"],
    "dist-gen-unknown-model": ["dist-gen", "bert", "--layers", "1", "--dp", "1", "--tp", "1"],
    "dist-gen-bad-count": ["dist-gen", "gpt", "--layers", "many", "--dp", "1", "--tp", "1"],
    "dist-gen-missing": ["dist-gen", "llama", "--layers", "1"],
    "dist-gen-typo": ["dist-gen", "gpt", "--layer", "1", "--dp", "1", "--tp", "1"],
    "dist-fuzz-help": ["dist-fuzz", "--help"],
    "dist-fuzz-typo": ["dist-fuzz", "--run", "10"],
    "dist-fuzz-bad-count": ["dist-fuzz", "--runs", "ten"],
    "dist-fuzz-show": ["dist-fuzz", "--show", "3", "--seed", "16", "--corpus", "examples"],
    "dist-fuzz-grad-show": ["dist-fuzz", "--grad", "--show", "41", "--seed", "2"],
    "dist-opt-help": ["dist-opt", "--help"],
    "dist-opt-typo": ["dist-opt", "examples/gpt-block.mlir", "--dist-propogate-sharding"],
}


if __name__ == "__main__":
    main()
