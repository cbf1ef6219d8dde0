"""Randomized differential test: random valid annotations on a training
step, each run sharded on N MPI processes and unsharded, compared by
check_spmd.py. Seeded, so every run checks the same cases.

  random_shardings.py DIST_OPT RUNNER LIBS PROGRAM ENTRY CASES SEED MODE

MODE `any`: every argument gets a random sharding (each dim split over a
random subset of the mesh axes that divides it, each axis at most once), on
a random 1-D or 2-D mesh of 2 or 4 devices. MODE `keep`: each argument
keeps its annotation (axes renamed onto the chosen mesh) or loses it, for
programs whose ops constrain which dims may split (layer norms, softmax).
"""

import os
import random
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "scripts"))
import npy  # noqa: E402  (the repository's scripts/npy.py)

MESHES = [[("x", 2)], [("x", 4)], [("x", 2), ("y", 2)]]


def arguments(text, entry):
    start = text.index(f"func.func @{entry}(") + len(f"func.func @{entry}(")
    depth, i = 0, start
    while True:
        c = text[i]
        if c in "(<{[":
            depth += 1
        elif c in ")>}]":
            if depth == 0:
                break
            depth -= 1
        i += 1
    return start, i


def random_sharding(rng, shape, mesh):
    free = [a for a, _ in mesh]
    rng.shuffle(free)
    dims = [[] for _ in shape]
    for axis in free:
        if rng.random() < 0.5:
            continue
        sizes = dict(mesh)

        def split(d):
            n = sizes[axis]
            for a in dims[d]:
                n *= sizes[a]
            return n

        options = [d for d, s in enumerate(shape) if s % split(d) == 0]
        if options:
            dims[rng.choice(options)].append(axis)
    return dims


def sharding_text(dims):
    return "#dist.sharding<@mesh, [" + ", ".join("{" + ", ".join(f'"{a}"' for a in d) + "}" for d in dims) + "]>"


def drop_result_shardings(text):
    """`text` from the end of the argument list on, without the result
    annotations (they name the old mesh's axes); the body is untouched."""
    out, i = [], 0
    while i < len(text):
        if text.startswith(" {dist.sharding", i):
            i += 1  # the space; then the braced annotation
            depth = 0
            while True:
                depth += {"{": 1, "}": -1}.get(text[i], 0)
                i += 1
                if depth == 0:
                    break
            continue
        if text[i] == "{":
            return "".join(out) + text[i:]
        out.append(text[i])
        i += 1
    return "".join(out)


def make_case(rng, text, entry, mode):
    mesh = rng.choice(MESHES)
    mesh_decl = "dist.mesh @mesh = <[" + ", ".join(f'"{a}"={s}' for a, s in mesh) + "]>"
    text = re.sub(r"dist\.mesh @mesh = <\[[^\]]*\]>", mesh_decl, text, count=1)
    start, end = arguments(text, entry)
    args = npy.split_top_level(text[start:end])
    names = [a for a, _ in mesh]
    new_args, chosen = [], []
    for a in args:
        m = re.match(r"(\s*%\w+\s*:\s*tensor<([^>]*)>)", a)
        head, dims_text = m.group(1), m.group(2)
        shape = [int(d) for d in dims_text.split("x")[:-1]]
        if mode == "any" and shape and not dims_text.endswith("i64"):
            dims = random_sharding(rng, shape, mesh)
        else:
            old = re.search(r"#dist\.sharding<@mesh, \[(.*)\]>", a)
            keep = old and rng.random() < 0.6
            dims = [[] for _ in shape]
            if keep:
                # Megatron's axes onto this mesh: dp -> the first, tp -> the last.
                rename = {"dp": names[0], "tp": names[-1], "sp": names[0]}
                parsed = [re.findall(r'"(\w+)"', d) for d in re.findall(r"\{([^}]*)\}", old.group(1))]
                used = set()
                for d, axes in enumerate(parsed):
                    for axis in axes:
                        target = rename.get(axis)
                        size = dict(mesh)[target]
                        if target not in used and shape[d] % size == 0:
                            dims[d].append(target)
                            used.add(target)
        chosen.append(dims)
        if any(dims):
            new_args.append(f"{head} {{dist.sharding = {sharding_text(dims)}}}")
        else:
            new_args.append(head)
    body = text[:start] + ",".join(new_args) + drop_result_shardings(text[end:])
    devices = 1
    for _, s in mesh:
        devices *= s
    return body, mesh, chosen, devices


def main():
    dist_opt, runner, libs, program, entry, cases, seed, mode = sys.argv[1:9]
    rng = random.Random(int(seed))
    text = open(program).read()
    checker = os.path.join(os.path.dirname(__file__), "check_spmd.py")
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(int(cases)):
            body, mesh, chosen, devices = make_case(rng, text, entry, mode)
            path = os.path.join(tmp, f"case{k}.mlir")
            with open(path, "w") as f:
                f.write(body)
            r = subprocess.run([sys.executable, checker, dist_opt, runner, libs, path, entry, str(devices),
                                "--dist-resolve-partial"], capture_output=True, text=True)
            last = (r.stdout.strip().splitlines() or [""])[-2:]
            ok = r.returncode == 0
            failures += not ok
            mesh_text = "x".join(f"{a}={s}" for a, s in mesh)
            print(f"{'ok  ' if ok else 'FAIL'} case {k}: mesh {mesh_text}, shardings {chosen}: {' '.join(last)}")
            if not ok:
                print(r.stdout[-2000:] + r.stderr[-2000:])
    print(f"{int(cases) - failures} of {cases} random cases match")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
