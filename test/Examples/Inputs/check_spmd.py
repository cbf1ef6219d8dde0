"""Differential test of the whole pipeline: a global training step run
unpartitioned on one process (the reference) against the same step
propagated, resolved, partitioned and lowered, run on N MPI processes with
the dist runtime. Both run in mlir-runner. A wrapper `main` feeds the same
seeded random global inputs to both: the sharded run slices each device's
shard (dist.all_slice at its mesh index) and gathers each result back
(dist.all_gather; dist.all_reduce for a result declared partial). Every
result must agree to TOLERANCE relative on every rank.

usage: check_spmd.py DIST_OPT RUNNER LIBS PROGRAM ENTRY NPROCS [PASS FLAG ...]

Integer inputs (token ids) are drawn from [0, ID_RANGE) (environment,
default 128).
"""

import os
import random
import re
import subprocess
import sys
import tempfile

TOLERANCE = 1e-5

LOWER = ["--dist-lower-to-cpu"]


def split_top(text):
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c in "<({[":
            depth += 1
        elif c in ">)}]":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    if text[start:].strip():
        parts.append(text[start:].strip())
    return parts


def signature(module, entry):
    """(args, results) of `entry`: each (type, sharding text or None)."""
    line = next(l for l in module.splitlines() if f"func.func @{entry}(" in l)
    head = line[line.index("(") + 1:]
    depth, i = 1, 0
    while depth:
        depth += {"(": 1, ")": -1}.get(head[i], 0)
        i += 1
    args_text, rest = head[:i - 1], head[i:]
    results_text = rest.split("->", 1)[1].strip().rstrip("{").strip()
    if results_text.startswith("("):
        results_text = results_text[1:-1]

    def entry_of(part):
        part = part.split(":", 1)[1].strip() if part.startswith("%") else part
        m = re.search(r"dist\.(?:local|sharding) = (#dist\.sharding<[^{]*?\[.*?\](?:, partial = \w+\{[^}]*\})?>)", part)
        ty = part.split(" {", 1)[0].strip()
        return ty, (m.group(1) if m else None)

    return [entry_of(p) for p in split_top(args_text)], [entry_of(p) for p in split_top(results_text)]


def shape_of(ty):
    inner = ty[len("tensor<"):-1]
    dims = inner.split("x")[:-1]
    return [int(d) for d in dims]


def dims_of(sharding):
    """Axes of each dim, and (kind, axes) of the partial status, if any."""
    body = sharding[sharding.index("[") + 1:]
    depth, i = 1, 0
    while depth:
        depth += {"[": 1, "]": -1}.get(body[i], 0)
        i += 1
    dims = [re.findall(r'"(\w+)"', d) for d in re.findall(r"\{([^}]*)\}", body[:i - 1])]
    partial = re.search(r"partial = (\w+)\{([^}]*)\}", body[i:])
    return dims, (partial.group(1), re.findall(r'"(\w+)"', partial.group(2))) if partial else None


def literal(values):
    return "dense<[" + ", ".join(f"{v:.9e}" for v in values) + "]>"


def main_function(entry, globals_, args, results, sharded):
    """The wrapper: global constants in, every result printed (global)."""
    lines = ["  func.func @main() {"]
    if sharded:
        lines.append("    %init = func.call @dist_rt_init() : () -> i32")
    names = []
    for k, ((gty, _), (lty, sharding), values) in enumerate(zip(globals_, args, inputs_of(globals_))):
        n = len(values)
        shape = shape_of(gty)
        e = element_of(gty)
        text = literal(values) if e == "f32" else "dense<[" + ", ".join(map(str, values)) + "]>"
        lines.append(f"    %flat{k} = arith.constant {text} : tensor<{n}x{e}>")
        lines.append(f"    %shape{k} = arith.constant dense<[{', '.join(map(str, shape))}]> : tensor<{len(shape)}xindex>")
        lines.append(f"    %g{k} = tensor.reshape %flat{k}(%shape{k}) : (tensor<{n}x{e}>, tensor<{len(shape)}xindex>) -> {gty}")
        value, cur = f"%g{k}", shape
        if sharded and sharding:
            dims, _ = dims_of(sharding)
            for d, axes in enumerate(dims):
                if not axes:
                    continue
                nxt = list(cur)
                nxt[d] = shape_of(lty)[d]
                axes_text = ", ".join(f'"{a}"' for a in axes)
                lines.append(f"    %s{k}_{d} = dist.all_slice {value} on @mesh axes = [{axes_text}] dim = {d} : "
                             f"{ty_of(cur, e)} -> {ty_of(nxt, e)}")
                value, cur = f"%s{k}_{d}", nxt
        names.append((value, ty_of(cur, e)))
    result_types = [ty for ty, _ in results]
    call = ", ".join(v for v, _ in names)
    lines.append(f"    %r:{len(results)} = func.call @{entry}({call}) : ({', '.join(t for _, t in names)}) -> ({', '.join(result_types)})")
    for k, (ty, sharding) in enumerate(results):
        value, cur = f"%r#{k}", shape_of(ty)
        if sharded and sharding:
            dims, partial = dims_of(sharding)
            if partial:
                kind, axes = partial
                axes_text = ", ".join(f'"{a}"' for a in axes)
                lines.append(f"    %p{k} = dist.all_reduce {value} on @mesh axes = [{axes_text}] kind = {kind} : {ty_of(cur)} -> {ty_of(cur)}")
                value = f"%p{k}"
            for d, axes in enumerate(dims):
                if not axes:
                    continue
                nxt = list(cur)
                nxt[d] = cur[d] * group(axes)
                axes_text = ", ".join(f'"{a}"' for a in axes)
                lines.append(f"    %a{k}_{d} = dist.all_gather {value} on @mesh axes = [{axes_text}] dim = {d} : "
                             f"{ty_of(cur)} -> {ty_of(nxt)}")
                value, cur = f"%a{k}_{d}", nxt
        lines.append(f"    %u{k} = tensor.cast {value} : {ty_of(cur)} to tensor<*xf32>")
        lines.append(f"    func.call @printMemrefF32(%u{k}) : (tensor<*xf32>) -> ()")
    if sharded:
        lines.append("    %fin = func.call @dist_rt_finalize() : () -> i32")
    lines.append("    return")
    lines.append("  }")
    lines.append("  func.func private @printMemrefF32(tensor<*xf32>)")
    if sharded:
        lines.append("  func.func private @dist_rt_init() -> i32")
        lines.append("  func.func private @dist_rt_finalize() -> i32")
    return "\n".join(lines) + "\n"


AXES = {}


def group(axes):
    n = 1
    for a in axes:
        n *= AXES[a]
    return n


def ty_of(shape, element="f32"):
    return "tensor<" + "".join(f"{d}x" for d in shape) + element + ">"


def element_of(ty):
    return ty[:-1].rsplit("x", 1)[-1] if "x" in ty else ty[len("tensor<"):-1]


INPUTS = {}


def inputs_of(globals_):
    if not INPUTS:
        rng = random.Random(7)
        for k, (ty, _) in enumerate(globals_):
            n = 1
            for d in shape_of(ty):
                n *= d
            if element_of(ty).startswith("i"):
                INPUTS[k] = [rng.randrange(int(os.environ.get("ID_RANGE", "128"))) for _ in range(n)]
            elif ty == "tensor<f32>":
                INPUTS[k] = [1.0]  # the loss gradient seed
            else:
                INPUTS[k] = [rng.uniform(-1, 1) for _ in range(n)]
    return [INPUTS[k] for k in range(len(globals_))]


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode:
        sys.exit(f"{' '.join(cmd[:3])}... failed:\n{r.stderr[:2000]}")
    return r.stdout


def with_main(module, main):
    end = module.rstrip().rindex("}")
    return module[:end] + main + "}\n"


def numbers(text):
    return [[float(v) for v in re.findall(r"-?\d+(?:\.\d+)?(?:e[-+]?\d+)?", c.split("data =", 1)[1])]
            for c in text.split("Unranked Memref")[1:]]


def main():
    dist_opt, runner, libs, program, entry, nprocs, *flags = sys.argv[1:]
    source = open(program).read()
    for name, size in re.findall(r'"(\w+)"=(\d+)', source.split("dist.mesh", 1)[1].split("\n", 1)[0]):
        AXES[name] = int(size)
    with tempfile.TemporaryDirectory() as tmp:
        # The reference: the global program on one process.
        reference = run([dist_opt, program, "--convert-dist-to-linalg"])
        globals_, global_results = signature(reference, entry)
        ref = run([dist_opt, "-", *LOWER], input=with_main(reference, main_function(entry, globals_, globals_, global_results, False)))
        expected = numbers(run([runner, "-", "-e", "main", "-entry-point-result=void", f"-shared-libs={libs}"], input=ref))
        # The sharded run.
        local = run([dist_opt, program, "--dist-propagate-sharding=remarks=none", *flags, "--dist-partition",
                     "--convert-dist-to-linalg"])
        args, results = signature(local, entry)
        lowered = os.path.join(tmp, "sharded.mlir")
        with open(lowered, "w") as f:
            f.write(run([dist_opt, "-", *LOWER], input=with_main(local, main_function(entry, globals_, args, results, True))))
        run(["mpiexec", "-n", nprocs, "-outfile-pattern", os.path.join(tmp, "out.%r"), runner, lowered,
             "-e", "main", "-entry-point-result=void", f"-shared-libs={libs}"])
        worst, failures = 0.0, 0
        for rank in range(int(nprocs)):
            got = numbers(open(os.path.join(tmp, f"out.{rank}")).read())
            for k, (g, e) in enumerate(zip(got, expected)):
                err = max((abs(a - b) / max(1.0, abs(b)) for a, b in zip(g, e)), default=0.0)
                if len(g) != len(e) or err > TOLERANCE:
                    failures += 1
                    print(f"FAIL rank {rank} result #{k}: error {err:.2e} ({len(g)} of {len(e)} values)")
                worst = max(worst, err)
            if len(got) != len(expected):
                failures += 1
                print(f"FAIL rank {rank}: {len(got)} of {len(expected)} results")
        loss = expected[0][0] if expected and expected[0] else float("nan")
        print(f"loss {loss:.6f}; {len(expected)} results on {nprocs} ranks; max relative error {worst:.1e}")
        print("match" if not failures else f"{failures} mismatches")
        sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
