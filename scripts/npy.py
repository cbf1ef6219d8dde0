"""Small .npy helpers for the demo and tests (no numpy needed).

  npy.py inputs PROGRAM ENTRY DIR [--id-range N] [--seed S] [--nonnegative PREFIX] [--scale X]
                [--ignore ARG=V]
      writes a seeded random input DIR/<arg>.npy for each argument of ENTRY
      and prints the --input flags for dist-run: float arguments uniform in
      [-X, X) (default X = 1), except the second moments of the optimizer
      steps, which must not be negative (the argument an AdamW step reads as
      its fourth operand, v, as dist-gen's programs pass it), and any
      argument whose name starts with PREFIX: uniform in [0, X); a scalar
      f32 argument 1.0 (the loss gradient seed, or the first optimizer
      step); integer arguments uniform in [0, N) (default 128); boolean
      ones (i1) true or false by a coin. --ignore sets a seeded quarter of
      integer argument ARG's entries to V (labels PyTorch's loss leaves out:
      --ignore arg22=-100).
  npy.py compare REFERENCE_DIR DIR [--per-tensor] [--tolerance X]
      prints the loss (result0) and the largest difference between the
      results, relative to max(1, |reference|); exits 1 above 1e-5, or when
      a value is NaN or infinite where the reference is finite (or differs
      from a non-finite reference). With --per-tensor the difference is
      relative to the largest magnitude of each reference tensor instead
      (small gradients count in full), and the bound is 1e-4. --tolerance
      sets the bound (bf16 steps: 2e-2).
  npy.py balance IN_DIR OUT_DIR SP [--names ids,labels] [--dim 1]
      the inputs of `dist-gen llama --sp SP --balance`: OUT_DIR gets every
      IN_DIR/*.npy, the named ones (the tokens and labels) permuted along
      --dim (the sequence) so that a contiguous split over SP shards gives
      shard i the chunks i and 2 SP - 1 - i of the sequence's 2 SP equal
      chunks, and positions.npy, each permuted token's position (int64).
      The step on OUT_DIR equals the unbalanced step on IN_DIR. Prints the
      causal attention's (query, key) pairs per shard, split contiguously
      and balanced.
  npy.py convert IN OUT [--shape D0,D1,...] [--dtype f4|f8|bf16|i4|i8|b1]
      writes IN's values to OUT with another shape (same element count) or
      dtype, to test what dist-run accepts.

bfloat16 is read and written as ml_dtypes stores it (numpy's 2-byte void
'<V2', what np.save writes for a JAX bf16 array), rounded to nearest even.
"""

import glob
import math
import os
import random
import re
import struct
import sys


def bf16_bits(value):
    """The bfloat16 nearest to `value` (through float32, as ml_dtypes
    converts), ties to even, as its 16 bits; past float32's range, an
    infinity."""
    if math.isfinite(value) and abs(value) > 3.4028234663852886e38:
        value = math.copysign(math.inf, value)
    bits = struct.unpack("<I", struct.pack("<f", value))[0]
    if math.isnan(value):
        return (bits >> 16) | 0x40
    return ((bits + 0x7fff + ((bits >> 16) & 1)) >> 16) & 0xffff


def bf16_value(bits):
    return struct.unpack("<f", struct.pack("<I", bits << 16))[0]


# dtype: (descr, struct format, to stored, from stored)
DTYPES = {
    "f4": ("<f4", "f", float, float),
    "f8": ("<f8", "d", float, float),
    "bf16": ("<V2", "H", bf16_bits, bf16_value),
    "i4": ("<i4", "i", int, int),
    "i8": ("<i8", "q", int, int),
    "b1": ("|b1", "?", bool, int),
}


def write(path, shape, values, dtype):
    code, fmt, store, _ = DTYPES[dtype]
    dims = ", ".join(map(str, shape)) + ("," if len(shape) == 1 else "")
    header = f"{{'descr': '{code}', 'fortran_order': False, 'shape': ({dims}), }}"
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack(f"<{len(values)}{fmt}", *map(store, values)))


def read_with_shape(path):
    data = open(path, "rb").read()
    n = struct.unpack("<H", data[8:10])[0]
    header = data[10:10 + n].decode()
    code = re.search(r"'descr': '([^']+)'", header).group(1)
    shape = [int(d) for d in re.search(r"'shape': \(([^)]*)\)", header).group(1).replace(",", " ").split()]
    dtype = next((d for d, spec in DTYPES.items() if spec[0] == code), None)
    if dtype is None:
        sys.exit(f"npy.py: {path} has dtype {code}: float32, float64, bfloat16, int32, int64 or bool only")
    _, fmt, _, load = DTYPES[dtype]
    body = data[10 + n:]
    return shape, dtype, [load(v) for v in struct.unpack(f"<{len(body) // struct.calcsize(fmt)}{fmt}", body)]


def read(path):
    return read_with_shape(path)[2]


def split_top_level(text):
    """The comma-separated items of `text` at bracket depth 0, up to the
    first unmatched closing bracket (the end of an argument list)."""
    items, depth, cur = [], 0, ""
    for c in text:
        if c in "(<{[":
            depth += 1
        elif c in ")>}]":
            if depth == 0:
                break
            depth -= 1
        if c == "," and depth == 0:
            items.append(cur)
            cur = ""
        else:
            cur += c
    items.append(cur)
    return items


def function_text(text, entry):
    """The text of `func.func @ENTRY(` onwards (the name bare or quoted,
    with or without a visibility)."""
    m = re.search(r'func\.func (?:(?:public|private|nested) )?@(?:%s|"%s")\(' % (re.escape(entry), re.escape(entry)), text)
    if not m:
        sys.exit(f"npy.py: no function @{entry}")
    return text[m.end():]


def second_moments(text):
    """The names of the values dist.adamw reads as its second moment
    (operand 3) in `text` (one function's), custom or generic form."""
    operands = r"\s*%([\w.$]+)\s*,\s*%([\w.$]+)\s*,\s*%([\w.$]+)\s*,\s*%([\w.$]+)"
    found = re.findall(r"dist\.adamw" + operands, text) + re.findall(r'"dist\.adamw"\(' + operands, text)
    return {m[3] for m in found}


def signature(program, entry):
    args = split_top_level(function_text(open(program).read(), entry))
    out = []
    for a in args:
        m = re.match(r"\s*%(\w+)\s*:\s*tensor<([^>]*)>", a)
        dims = m.group(2).split("x")
        out.append((m.group(1), [int(d) for d in dims[:-1]], dims[-1]))
    return out


def balanced_order(length, shards):
    """The positions a contiguous split over `shards` then holds, in order:
    shard i's chunks i and 2 shards - 1 - i of 2 shards equal chunks."""
    chunks = 2 * shards
    if length % chunks:
        sys.exit(f"npy.py: a sequence of {length} does not split into 2 x {shards} equal chunks")
    size = length // chunks
    order = []
    for i in range(shards):
        for c in (i, chunks - 1 - i):
            order.extend(range(c * size, (c + 1) * size))
    return order


def permute(values, shape, dim, order):
    """`values` (row-major, of `shape`) with index j along `dim` taken from
    index order[j]."""
    inner = 1
    for d in shape[dim + 1:]:
        inner *= d
    outer = len(values) // (shape[dim] * inner)
    out = []
    for o in range(outer):
        base = o * shape[dim] * inner
        for j in order:
            out.extend(values[base + j * inner:base + (j + 1) * inner])
    return out


def main():
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help", "help"):
        print(__doc__.strip())
        return
    if sys.argv[1] == "inputs":
        program, entry, out = sys.argv[2:5]
        opts = dict(zip(sys.argv[5::2], sys.argv[6::2]))
        rng = random.Random(int(opts.get("--seed", "1")))
        id_range = int(opts.get("--id-range", "128"))
        nonnegative = opts.get("--nonnegative")
        scale = float(opts.get("--scale", "1"))
        ignored, _, ignore_value = opts.get("--ignore", "").partition("=")
        body = function_text(open(program).read(), entry)
        moments = second_moments(body[:body.find("func.func")] if "func.func" in body else body)
        os.makedirs(out, exist_ok=True)
        flags = []
        for name, shape, element in signature(program, entry):
            n = 1
            for d in shape:
                n *= d
            path = os.path.join(out, f"{name}.npy")
            dtype = {"f64": "f8", "bf16": "bf16"}.get(element, "f4")
            if element == "i1":
                write(path, shape, [rng.randrange(2) for _ in range(n)], "b1")
            elif element.startswith("i"):
                ids = [rng.randrange(id_range) for _ in range(n)]
                if name == ignored:
                    ids = [int(ignore_value) if rng.randrange(4) == 0 else i for i in ids]
                write(path, shape, ids, "i4" if element == "i32" else "i8")
            elif not shape:
                write(path, shape, [1.0], dtype)
            else:
                low = 0.0 if name in moments or (nonnegative and name.startswith(nonnegative)) else -1.0
                write(path, shape, [scale * rng.uniform(low, 1) for _ in range(n)], dtype)
            flags.append(f"--input {name}={path}")
        print(" ".join(flags))
    elif sys.argv[1] == "compare":
        ref, got = sys.argv[2:4]
        per_tensor = "--per-tensor" in sys.argv[4:]
        flags = sys.argv[4:]
        bound = float(flags[flags.index("--tolerance") + 1]) if "--tolerance" in flags else (1e-4 if per_tensor else 1e-5)
        worst = 0.0
        broken = []
        files = sorted(glob.glob(os.path.join(ref, "result*.npy")))
        for f in files:
            a, b = read(f), read(os.path.join(got, os.path.basename(f)))
            if len(a) != len(b):
                sys.exit(f"{os.path.basename(f)}: {len(b)} values, reference {len(a)}")
            # Non-finite values where the reference is finite (or another
            # non-finite one) fail however small the other differences.
            bad = 0
            largest = max((abs(x) for x in a if math.isfinite(x)), default=0.0)
            for x, y in zip(a, b):
                if math.isfinite(x) and math.isfinite(y):
                    scale = largest if per_tensor else max(1.0, abs(x))
                    worst = max(worst, abs(x - y) / scale if scale > 0 else abs(x - y))
                elif not (x == y or (math.isnan(x) and math.isnan(y))):
                    bad += 1
            if bad:
                broken.append(f"{os.path.basename(f)}: {bad} of {len(a)} values are NaN or infinite "
                              "where the reference is finite (or differ from its non-finite value)")
        loss = read(os.path.join(ref, "result0.npy"))[0]
        sharded_loss = read(os.path.join(got, "result0.npy"))[0]
        measure = "relative to each tensor's largest value" if per_tensor else "against -n 1"
        print(f"loss {sharded_loss:.6f} (reference {loss:.6f}); {len(files)} results; "
              f"max difference {measure}: {worst:.2e}")
        for line in broken:
            print(line)
        sys.exit(1 if worst > bound or broken else 0)
    elif sys.argv[1] == "balance":
        source, out, shards = sys.argv[2], sys.argv[3], int(sys.argv[4])
        opts = dict(zip(sys.argv[5::2], sys.argv[6::2]))
        names = opts.get("--names", "ids,labels").split(",")
        dim = int(opts.get("--dim", "1"))
        os.makedirs(out, exist_ok=True)
        order = None
        for f in sorted(glob.glob(os.path.join(source, "*.npy"))):
            shape, dtype, values = read_with_shape(f)
            name = os.path.basename(f)[:-4]
            if name in names:
                order = balanced_order(shape[dim], shards)
                values = permute(values, shape, dim, order)
            write(os.path.join(out, os.path.basename(f)), shape, values, dtype)
        if order is None:
            sys.exit(f"npy.py: none of {', '.join(names)} is in {source}")
        write(os.path.join(out, "positions.npy"), [len(order)], order, "i8")
        # The causal attention's work per shard: the (query, key) pairs a
        # query's mask lets through, sum of (position + 1) over its queries.
        size = len(order) // shards
        def pairs(positions):
            return [sum(p + 1 for p in positions[i * size:(i + 1) * size]) for i in range(shards)]
        print(f"causal (query, key) pairs per sp shard: contiguous {' '.join(map(str, pairs(range(len(order)))))}; "
              f"balanced {' '.join(map(str, pairs(order)))}")
    elif sys.argv[1] == "convert":
        source, out = sys.argv[2:4]
        opts = dict(zip(sys.argv[4::2], sys.argv[5::2]))
        shape, dtype, values = read_with_shape(source)
        if "--shape" in opts:
            shape = [int(d) for d in opts["--shape"].split(",") if d]
        dtype = opts.get("--dtype", dtype)
        if dtype.startswith("i"):
            values = [int(v) for v in values]
        write(out, shape, values, dtype)


if __name__ == "__main__":
    main()
