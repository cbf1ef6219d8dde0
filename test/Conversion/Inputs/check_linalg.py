"""Numerical check of convert-dist-to-linalg.

Each case runs one dist op on seeded random inputs through dist-opt's
lowering to LLVM and mlir-runner, and compares every result with an
independent float64 reference written here: forward ops by their
definitions, gradient ops by central finite differences of the forward
reference (the gradient of sum(dout * f(inputs))). Prints one line per case
and a summary; exits non-zero on any mismatch.

usage: check_linalg.py DIST_OPT MLIR_RUNNER SHARED_LIBS [--cpu-pipeline | --dense-scatter | --cublaslt]
       check_linalg.py --emit DIR
       check_linalg.py --check DIR RESULTS_DIR

With --cpu-pipeline the program goes through dist-lower-to-cpu, as
dist-run compiles it (contractions on the runtime's BLAS, polynomial math,
outlined loop nests); SHARED_LIBS must then include libdist_runtime.so.
With --dense-scatter the tensor-level lowering is the GPU pipeline's:
scatters written densely (convert-dist-to-linalg=scatter=dense), each
contraction's neighbouring batch or M dims collapsed into one loop
(dist-collapse-contraction-dims), full reductions split into rows and ops
on scalars given a unit loop (dist-split-full-reductions), reductions and
their elementwise epilogues as one op (dist-fuse-reduction-epilogues), and
inserted
slices (concatenations,
pads) written in place by copies (dist-copy-inserted-slices,
eliminate-empty-tensors).

With --cublaslt the program goes through dist-lower-to-cpu with every
contraction on the runtime's cuBLASLt GEMMs instead
(dist-call-blas{library=cublaslt}, after the GPU pipeline's collapsed
contraction dims), so that the layouts, transposes and batch strides the
runtime gives cuBLASLt are checked by the products they give: the loader's
path must lead to stand-ins for the CUDA driver and cuBLASLt
(test/dist-run/Inputs/mock_cuda.c, mock_cublaslt.c, which computes on the
host), and SHARED_LIBS must include libdist_runtime.so.

--emit writes the f32 cases as one program for dist-run instead (DIR/ops.mlir:
@ops takes every case's inputs as arguments and returns every result), its
inputs (DIR/in, with DIR/ops.flags listing them in argument order, relative
to DIR) and the expected results (DIR/expected); --check then compares a
run's RESULTS_DIR with them, case by case. scripts/gpu-bundle.sh runs the
cases so on a GPU.
"""

import itertools
import math
import os
import random
import struct
import re
import subprocess
import sys

# npy.py: beside this file in a GPU bundle, in scripts/ in the repository.
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "..", "..", "scripts")]

TOLERANCE = 2e-4  # relative to max(1, |expected|), f32 against f64
BF16_TOLERANCE = 2 ** -6  # two bf16 ulps between 1 and 2


def numel(shape):
    return math.prod(shape)


def indices(shape):
    return itertools.product(*[range(d) for d in shape])


def flat(shape, idx):
    f = 0
    for d, i in zip(shape, idx):
        f = f * d + i
    return f


class T:
    """A dense row-major float64 tensor."""

    def __init__(self, shape, data):
        self.shape, self.data = list(shape), list(data)
        assert len(self.data) == numel(self.shape)

    def at(self, idx):
        return self.data[flat(self.shape, idx)]


def rand(shape, rng, lo=-1.0, hi=1.0):
    return T(shape, [rng.uniform(lo, hi) for _ in range(numel(shape))])


def mlir_type(shape, element="f32"):
    return "tensor<" + "".join(f"{d}x" for d in shape) + element + ">"


def literal(t, element="f32"):
    if element == "i1":
        body = ", ".join("true" if v else "false" for v in t.data)
    elif element.startswith("i"):
        body = ", ".join(str(int(v)) for v in t.data)
    else:
        body = ", ".join(f"{v:.9e}" if math.isfinite(v) else non_finite(v, element) for v in t.data)
    return f"dense<[{body}]> : {mlir_type([numel(t.shape)], element)}"


def non_finite(v, element):
    """An infinity or NaN as MLIR spells it: the hex of its bits."""
    code, digits = {"f32": ("<f", 8), "f64": ("<d", 16)}[element]
    bits = int.from_bytes(struct.pack(code, v), "little")
    return f"0x{bits:0{digits}X}"


# ---- references -----------------------------------------------------------

def matmul(x, y, tx=False, ty=False):
    xs, ys = x.shape, y.shape
    m, k = (xs[-1], xs[-2]) if tx else (xs[-2], xs[-1])
    n = ys[-2] if ty else ys[-1]
    bx, by = xs[:-2], ys[:-2]
    nb = max(len(bx), len(by))
    px, py = [1] * (nb - len(bx)) + bx, [1] * (nb - len(by)) + by
    batch = [max(a, b) for a, b in zip(px, py)]
    out = []
    for b in indices(batch):
        ib = [0 if px[i] == 1 else b[i] for i in range(nb)][nb - len(bx):]
        jb = [0 if py[i] == 1 else b[i] for i in range(nb)][nb - len(by):]
        for i in range(m):
            for j in range(n):
                s = 0.0
                for l in range(k):
                    a = x.at(ib + ([l, i] if tx else [i, l]))
                    c = y.at(jb + ([j, l] if ty else [l, j]))
                    s += a * c
                out.append(s)
    return T(batch + [m, n], out)


def broadcast(x, y, f):
    """`f(x, y)` elementwise with NumPy broadcasting."""
    r = max(len(x.shape), len(y.shape))
    px, py = [1] * (r - len(x.shape)) + x.shape, [1] * (r - len(y.shape)) + y.shape
    out = [max(a, b) for a, b in zip(px, py)]

    def pick(t, padded, i):
        return t.at([0 if padded[d] == 1 else i[d] for d in range(r)][r - len(t.shape):])

    return T(out, [f(pick(x, px, i), pick(y, py, i)) for i in indices(out)])


def sigmoid(v):
    return 1 / (1 + math.exp(-v))


# The math functions: the definition and the range of the inputs they take.
FUNCTIONS = {
    "exp": (math.exp, -2, 2),
    "log": (math.log, 0.2, 3),
    "sqrt": (math.sqrt, 0.2, 3),
    "rsqrt": (lambda v: 1 / math.sqrt(v), 0.2, 3),
    "sigmoid": (sigmoid, -4, 4),
    "silu": (lambda v: v * sigmoid(v), -4, 4),
    "tanh": (math.tanh, -3, 3),
    "neg": (lambda v: -v, -2, 2),
    "reciprocal": (lambda v: 1 / v, 0.5, 2),
    "abs": (abs, -2, 2),
    "square": (lambda v: v * v, -2, 2),
    "sin": (math.sin, -4, 4),
    "cos": (math.cos, -4, 4),
    "erf": (math.erf, -3, 3),
    "erfc": (math.erfc, -2, 4),
    "log1p": (math.log1p, -0.5, 3),
    "expm1": (math.expm1, -2, 2),
    "atan": (math.atan, -4, 4),
    "sign": (lambda v: float((v > 0) - (v < 0)), -2, 2),
    "floor": (lambda v: float(math.floor(v)), -3, 3),
    "ceil": (lambda v: float(math.ceil(v)), -3, 3),
    "round": (lambda v: float(round(v)), -3, 3),
}
# Those whose gradient is an op of its own (sign, floor, ceil and round have
# none: their gradient is zero).
GRADIENT_OPS = ("sqrt", "rsqrt", "sigmoid", "silu", "tanh", "reciprocal", "abs", "square", "sin", "cos", "erf", "erfc", "log1p", "expm1", "atan")
BINARIES = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "div": lambda a, b: a / b,
    "maximum": max,
    "minimum": min,
    "pow": lambda a, b: a ** b,
    "rem": math.fmod,
}


def elementwise(x, f):
    return T(x.shape, [f(v) for v in x.data])


def gelu(v, tanh):
    if tanh:
        return 0.5 * v * (1 + math.tanh(math.sqrt(2 / math.pi) * (v + 0.044715 * v ** 3)))
    return 0.5 * v * (1 + math.erf(v / math.sqrt(2)))


def reduce(x, dims, keep, mean):
    out_shape = [1 if d in dims else s for d, s in enumerate(x.shape) if keep or d not in dims]
    acc = [0.0] * numel(out_shape)
    for i in indices(x.shape):
        o = [0 if d in dims else i[d] for d in range(len(i)) if keep or d not in dims]
        acc[flat(out_shape, o)] += x.at(i)
    count = numel([x.shape[d] for d in dims])
    return T(out_shape, [a / count for a in acc] if mean else acc)


def reduce_choice(x, dims, keep, choose):
    """The largest (`choose` = max) or smallest element over `dims`."""
    out_shape = [1 if d in dims else s for d, s in enumerate(x.shape) if keep or d not in dims]
    acc = [None] * numel(out_shape)
    for i in indices(x.shape):
        o = flat(out_shape, [0 if d in dims else i[d] for d in range(len(i)) if keep or d not in dims])
        acc[o] = x.at(i) if acc[o] is None else choose(acc[o], x.at(i))
    return T(out_shape, acc)


def softmax(x, axis):
    out = list(x.data)
    other = [s for d, s in enumerate(x.shape) if d != axis]
    for o in indices(other):
        idx = [list(o[:axis]) + [a] + list(o[axis:]) for a in range(x.shape[axis])]
        vals = [x.at(i) for i in idx]
        mx = max(vals)
        e = [math.exp(v - mx) for v in vals]
        s = sum(e)
        for i, v in zip(idx, e):
            out[flat(x.shape, i)] = v / s
    return T(x.shape, out)


def layer_norm(x, scale, bias, begin, eps=1e-5):
    lead, norm = x.shape[:begin], x.shape[begin:]
    y, means, rstds = [0.0] * numel(x.shape), [], []
    for o in indices(lead):
        idx = [list(o) + list(n) for n in indices(norm)]
        vals = [x.at(i) for i in idx]
        mu = sum(vals) / len(vals)
        var = sum((v - mu) ** 2 for v in vals) / len(vals)
        r = 1 / math.sqrt(var + eps)
        means.append(mu)
        rstds.append(r)
        for i, n in zip(idx, indices(norm)):
            y[flat(x.shape, i)] = (x.at(i) - mu) * r * scale.at(n) + bias.at(n)
    return T(x.shape, y), T(lead, means), T(lead, rstds)


def rms_norm(x, scale, begin, eps=1e-5):
    lead, norm = x.shape[:begin], x.shape[begin:]
    y, rstds = [0.0] * numel(x.shape), []
    for o in indices(lead):
        idx = [list(o) + list(n) for n in indices(norm)]
        r = 1 / math.sqrt(sum(x.at(i) ** 2 for i in idx) / len(idx) + eps)
        rstds.append(r)
        for i, n in zip(idx, indices(norm)):
            y[flat(x.shape, i)] = x.at(i) * r * scale.at(n)
    return T(x.shape, y), T(lead, rstds)


def embedding(ids, table, offset=None):
    rows, hidden = table.shape
    out = []
    for i in indices(ids.shape):
        row = int(ids.at(i)) - (offset or 0)
        for h in range(hidden):
            out.append(table.at([row, h]) if 0 <= row < rows else 0.0)
    return T(ids.shape + [hidden], out)


def transpose(x, perm):
    shape = [x.shape[p] for p in perm]
    return T(shape, [x.at([i[perm.index(d)] for d in range(len(perm))]) for i in indices(shape)])


def slice_(x, offsets, sizes):
    return T(sizes, [x.at([o + i for o, i in zip(offsets, idx)]) for idx in indices(sizes)])


def concat(parts, dim):
    shape = list(parts[0].shape)
    shape[dim] = sum(p.shape[dim] for p in parts)
    out = []
    for idx in indices(shape):
        at = idx[dim]
        for p in parts:
            if at < p.shape[dim]:
                out.append(p.at(list(idx[:dim]) + [at] + list(idx[dim + 1:])))
                break
            at -= p.shape[dim]
    return T(shape, out)


def causal_mask(x, fill, query_offset=0, key_offset=0):
    """`fill` where the key position (last dim) exceeds the query's."""
    r = len(x.shape)
    return T(x.shape, [fill if i[r - 1] + key_offset > i[r - 2] + query_offset else x.at(i)
                       for i in indices(x.shape)])


def take_along(x, idx, offset=0):
    """x[..., idx[...] - offset], 0 where that is outside x's last dim."""
    n = x.shape[-1]
    return T(idx.shape, [x.at(list(i) + [int(idx.at(i)) - offset]) if 0 <= int(idx.at(i)) - offset < n else 0.0
                         for i in indices(idx.shape)])


def total_order(v):
    """An integer that orders f32 values as their total order does (XLA's
    sort: -NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN)."""
    bits = struct.unpack("<i", struct.pack("<f", v))[0]
    return bits ^ 0x7FFFFFFF if bits < 0 else bits


def top_k(x, k):
    """The k largest entries of each row (the last dim) in the total order,
    largest first, equal ones in index order, and their indices."""
    n = x.shape[-1]
    values, picked = [], []
    for i in indices(x.shape[:-1]):
        row = [x.at(list(i) + [e]) for e in range(n)]
        order = sorted(range(n), key=lambda e: (-total_order(row[e]), e))[:k]
        values += [row[e] for e in order]
        picked += order
    shape = x.shape[:-1] + [k]
    return T(shape, values), T(shape, picked)


def cross_entropy(x, labels, ignore=None):
    """The mean over positions of logsumexp(row) - row[label], over the
    positions whose label is not `ignore`."""
    total, count = 0.0, 0
    for i in indices(labels.shape):
        if labels.at(i) == ignore:
            continue
        row = [x.at(list(i) + [v]) for v in range(x.shape[-1])]
        m = max(row)
        total += math.log(sum(math.exp(v - m) for v in row)) + m - row[int(labels.at(i))]
        count += 1
    return T([], [total / count])


def array(values):
    return "array<i64: " + ", ".join(map(str, values)) + ">"


def grad(f, inputs, wrt, dout, h=1e-4):
    """d sum(dout * f(*inputs)) / d inputs[wrt], by central differences."""
    x = inputs[wrt]
    g = []
    for k in range(len(x.data)):
        vals = []
        for sign in (1, -1):
            moved = T(x.shape, x.data)
            moved.data[k] += sign * h
            args = list(inputs)
            args[wrt] = moved
            out = f(*args)
            vals.append(sum(a * b for a, b in zip(dout.data, out.data)))
        g.append((vals[0] - vals[1]) / (2 * h))
    return T(x.shape, g)


# ---- cases ----------------------------------------------------------------

def cases(rng):
    def mm_case(xs, ys, tx, ty):
        x, y = rand(xs, rng), rand(ys, rng)
        out = matmul(x, y, tx, ty)
        dout = rand(out.shape, rng)
        attrs = " {" + ", ".join(a for a, on in (("transpose_x", tx), ("transpose_y", ty)) if on) + "}" if tx or ty else ""
        f = lambda a, b: matmul(a, b, tx, ty)
        yield (f"matmul {xs}x{ys} tx={tx} ty={ty}", "dist.matmul", attrs, [x, y], [out])
        yield (f"matmul_grad {xs}x{ys} tx={tx} ty={ty}", "dist.matmul_grad", attrs, [x, y, dout],
               [grad(f, [x, y], 0, dout), grad(f, [x, y], 1, dout)])

    for tx, ty in itertools.product([False, True], repeat=2):
        for xs, ys in (([3, 4], [4, 5]), ([2, 3, 4], [4, 5]), ([2, 3, 4], [2, 4, 5]), ([1, 3, 4], [2, 4, 5]), ([2, 2, 3, 4], [2, 4, 5])):
            xs = xs[:-2] + ([xs[-1], xs[-2]] if tx else xs[-2:])
            ys = ys[:-2] + ([ys[-1], ys[-2]] if ty else ys[-2:])
            yield from mm_case(xs, ys, tx, ty)

    # NumPy broadcasting: y of x's trailing dims, a size-1 dim of y, both
    # stretched. The divisor stays away from 0, a power's base above it.
    for xs, ys in (([2, 3, 4], [3, 4]), ([2, 3, 4], [2, 3, 1]), ([2, 1, 4], [3, 1])):
        for name, f in BINARIES.items():
            x = rand(xs, rng, 0.5, 2) if name == "pow" else rand(xs, rng)
            y = rand(ys, rng, 0.5, 2) if name in ("div", "rem") else rand(ys, rng)
            g = lambda a, b, f=f: broadcast(a, b, f)
            out = g(x, y)
            d = rand(out.shape, rng)
            yield (f"{name} {xs} by {ys}", f"dist.{name}", "", [x, y], [out])
            yield (f"{name}_grad {xs} by {ys}", f"dist.{name}_grad", "", [x, y, d],
                   [grad(g, [x, y], 0, d), grad(g, [x, y], 1, d)])

    for name, (f, lo, hi) in FUNCTIONS.items():
        x, d = rand([3, 5], rng, lo, hi), rand([3, 5], rng)
        g = lambda a, f=f: elementwise(a, f)
        yield (name, f"dist.{name}", "", [x], [g(x)])
        if name in GRADIENT_OPS:
            yield (f"{name}_grad", f"dist.{name}_grad", "", [x, d], [grad(g, [x], 0, d)])

    x = rand([3, 5], rng, -3, 3)
    d = rand([3, 5], rng)
    yield ("scale", "dist.scale", " {factor = -2.5 : f64}", [x], [elementwise(x, lambda v: -2.5 * v)])
    # Casts both ways between f32 and f64 (the f32 side rounds).
    yield ("cast f32 to f64", "dist.cast", "", [x], [("f64", x)])
    yield ("cast f64 to f32", "dist.cast", "", [("f64", x)], [x])
    # The padding of a dim of 4 entries on the shard starting at 2: its
    # columns 2.. are past the end.
    pad = T(x.shape, [v if 2 + j < 4 else -2.5 for (i, j), v in zip(indices(x.shape), x.data)])
    yield ("mask_padding", "dist.mask_padding", " {dim = 1 : i64, size = 4 : i64, fill = -2.5 : f64}",
           [x, ("offset", 2)], [pad])
    relu = lambda a: elementwise(a, lambda v: max(v, 0.0))
    yield ("relu", "dist.relu", "", [x], [relu(x)])
    yield ("relu_grad", "dist.relu_grad", "", [x, d], [grad(relu, [x], 0, d)])
    for tanh in (False, True):
        attrs = ' {approximate = "tanh"}' if tanh else ""
        g = lambda a, tanh=tanh: elementwise(a, lambda v: gelu(v, tanh))
        yield (f"gelu tanh={tanh}", "dist.gelu", attrs, [x], [g(x)])
        yield (f"gelu_grad tanh={tanh}", "dist.gelu_grad", attrs, [x, d], [grad(g, [x], 0, d)])

    x = rand([2, 3, 4], rng)
    for dims, keep in (([1], False), ([0, 2], True), ([0, 1, 2], False)):
        for mean in (False, True):
            name = "reduce_mean" if mean else "reduce_sum"
            attrs = " {dims = array<i64: " + ", ".join(map(str, dims)) + ">" + (", keepdim" if keep else "") + "}"
            f = lambda a, dims=dims, keep=keep, mean=mean: reduce(a, dims, keep, mean)
            out = f(x)
            d = rand(out.shape, rng)
            yield (f"{name} {dims} keep={keep}", f"dist.{name}", attrs, [x], [out])
            yield (f"{name}_grad {dims} keep={keep}", f"dist.{name}_grad", attrs, [x, d], [grad(f, [x], 0, d)])

    x = rand([2, 3, 4], rng)
    for dims, keep in (([1], False), ([0, 2], True)):
        for name, choose in (("reduce_max", max), ("reduce_min", min)):
            attrs = " {dims = array<i64: " + ", ".join(map(str, dims)) + ">" + (", keepdim" if keep else "") + "}"
            f = lambda a, dims=dims, keep=keep, choose=choose: reduce_choice(a, dims, keep, choose)
            out = f(x)
            d = rand(out.shape, rng)
            yield (f"{name} {dims} keep={keep}", f"dist.{name}", attrs, [x], [out])
            yield (f"{name}_grad {dims} keep={keep}", f"dist.{name}_grad", attrs, [x, out, d], [grad(f, [x], 0, d)])

    x, d = rand([2, 3, 5], rng, -2, 2), rand([2, 3, 5], rng)
    for axis in (-1, 1):
        f = lambda a, axis=axis: softmax(a, axis % 3)
        y = f(x)
        yield (f"softmax axis={axis}", "dist.softmax", f" {{axis = {axis} : i64}}", [x], [y])
        yield (f"softmax_grad axis={axis}", "dist.softmax_grad", f" {{axis = {axis} : i64}}", [y, d], [grad(f, [x], 0, d)])

    x, g, b = rand([2, 3, 4], rng), rand([4], rng, 0.5, 1.5), rand([4], rng)
    for begin, (gs, ) in ((2, ([4],)), (1, ([3, 4],))):
        g, b = rand(gs, rng, 0.5, 1.5), rand(gs, rng)
        y, mean, rstd = layer_norm(x, g, b, begin)
        attrs = f" {{begin_norm_axis = {begin} : i64}}"
        yield (f"layer_norm begin={begin}", "dist.layer_norm", attrs, [x, g, b], [y, mean, rstd])
        d = rand(x.shape, rng)
        f = lambda a, s, c, begin=begin: layer_norm(a, s, c, begin)[0]
        yield (f"layer_norm_grad begin={begin}", "dist.layer_norm_grad", attrs, [x, g, mean, rstd, d],
               [grad(f, [x, g, b], 0, d), grad(f, [x, g, b], 1, d), grad(f, [x, g, b], 2, d)])

    for begin, gs in ((2, [4]), (1, [3, 4])):
        g = rand(gs, rng, 0.5, 1.5)
        y, rstd = rms_norm(x, g, begin)
        attrs = f" {{begin_norm_axis = {begin} : i64}}"
        yield (f"rms_norm begin={begin}", "dist.rms_norm", attrs, [x, g], [y, rstd])
        d = rand(x.shape, rng)
        f = lambda a, s, begin=begin: rms_norm(a, s, begin)[0]
        yield (f"rms_norm_grad begin={begin}", "dist.rms_norm_grad", attrs, [x, g, rstd, d],
               [grad(f, [x, g], 0, d), grad(f, [x, g], 1, d)])

    ids = T([2, 3], [rng.randrange(0, 10) for _ in range(6)])
    table = rand([10, 4], rng)
    d = rand([2, 3, 4], rng)
    yield ("embedding", "dist.embedding", "", [("i64", ids), table], [embedding(ids, table)])
    f = lambda t: embedding(ids, t)
    yield ("embedding_grad", "dist.embedding_grad", "", [("i64", ids), table, d], [grad(f, [table], 0, d)])
    shard = T([4, 4], table.data[16:32])  # rows 4..7 of the table
    yield ("embedding offset", "dist.embedding", "", [("i64", ids), shard, ("offset", 4)], [embedding(ids, shard, 4)])
    f = lambda t: embedding(ids, t, 4)
    yield ("embedding_grad offset", "dist.embedding_grad", "", [("i64", ids), shard, d, ("offset", 4)],
           [grad(f, [shard], 0, d)])

    # Optimizer steps, at step 3 (the bias corrections differ from 1).
    p, g, m, v = rand([3, 5], rng), rand([3, 5], rng), rand([3, 5], rng), rand([3, 5], rng, 0.0, 1.0)
    step = T([], [3.0])
    lr, b1, b2, eps, wd = 1e-2, 0.9, 0.999, 1e-8, 0.1
    m1 = [b1 * a + (1 - b1) * d for a, d in zip(m.data, g.data)]
    v1 = [b2 * a + (1 - b2) * d * d for a, d in zip(v.data, g.data)]
    p1 = [w - lr * ((a / (1 - b1 ** 3)) / (math.sqrt(c / (1 - b2 ** 3)) + eps) + wd * w)
          for w, a, c in zip(p.data, m1, v1)]
    attrs = f" {{lr = {lr:e} : f64, beta1 = {b1:e} : f64, beta2 = {b2:e} : f64, epsilon = {eps:e} : f64, weight_decay = {wd:e} : f64}}"
    yield ("adamw", "dist.adamw", attrs, [p, g, m, v, step], [T(p.shape, p1), T(p.shape, m1), T(p.shape, v1)])
    yield ("sgd", "dist.sgd", " {lr = 0.05 : f64}", [p, g], [T(p.shape, [w - 0.05 * d for w, d in zip(p.data, g.data)])])
    buf1 = [0.9 * a + d for a, d in zip(m.data, g.data)]
    yield ("sgd momentum", "dist.sgd", " {lr = 0.05 : f64, momentum = 0.9 : f64}", [p, g, m],
           [T(p.shape, [w - 0.05 * a for w, a in zip(p.data, buf1)]), T(p.shape, buf1)])
    # The f64 forms (the step count stays a rank-0 f32).
    f64 = lambda *ts: [("f64", t) for t in ts]
    yield ("adamw f64", "dist.adamw", attrs, [*f64(p, g, m, v), step],
           f64(T(p.shape, p1), T(p.shape, m1), T(p.shape, v1)))
    yield ("sgd momentum f64", "dist.sgd", " {lr = 0.05 : f64, momentum = 0.9 : f64}", f64(p, g, m),
           f64(T(p.shape, [w - 0.05 * a for w, a in zip(p.data, buf1)]), T(p.shape, buf1)))

    x = rand([2, 3, 6], rng)
    for offsets, sizes in (([0, 0, 3], [2, 3, 3]), ([1, 1, 0], [1, 2, 6])):
        attrs = f" {{offsets = {array(offsets)}, sizes = {array(sizes)}}}"
        f = lambda a, offsets=offsets, sizes=sizes: slice_(a, offsets, sizes)
        d = rand(sizes, rng)
        yield (f"slice {offsets} {sizes}", "dist.slice", attrs, [x], [f(x)])
        yield (f"slice_grad {offsets} {sizes}", "dist.slice_grad", f" {{offsets = {array(offsets)}}}", [d],
               [grad(f, [x], 0, d)])
    for dim, widths in ((2, [2, 3]), (0, [1, 2, 1])):
        parts = [rand([w if d == dim else n for d, n in enumerate([2, 3, 4])], rng) for w in widths]
        f = lambda *ps, dim=dim: concat(list(ps), dim)
        out = f(*parts)
        d = rand(out.shape, rng)
        yield (f"concat dim={dim} {widths}", "dist.concat", f" {{dim = {dim} : i64}}", parts, [out])
        yield (f"concat_grad dim={dim} {widths}", "dist.concat_grad", f" {{dim = {dim} : i64}}", [d],
               [grad(f, parts, i, d) for i in range(len(parts))])

    # A whole square of positions, and the shard of queries 4..7 against
    # keys 0..7 (offsets as dist-partition gives them).
    for shape, offsets in (([2, 5, 5], []), ([2, 4, 8], [4, 0])):
        x, d = rand(shape, rng), rand(shape, rng)
        extra = [("offset", o) for o in offsets]
        yield (f"causal_mask {shape} {offsets}", "dist.causal_mask", "", [x] + extra,
               [causal_mask(x, -math.inf, *offsets)])
        yield (f"causal_mask_grad {shape} {offsets}", "dist.causal_mask_grad", "", [d] + extra,
               [causal_mask(d, 0.0, *offsets)])

    # Picking one logit per position: from the whole vocabulary, and from
    # the shard of entries 4..7 (the others give 0); the gradient scatters
    # dout, or a scalar, to the picked entries.
    idx = T([2, 3], [rng.randrange(0, 8) for _ in range(6)])
    x = rand([2, 3, 8], rng)
    shard = T([2, 3, 4], [x.at([i, j, 4 + v]) for i in range(2) for j in range(3) for v in range(4)])
    d = rand([2, 3], rng)
    yield ("take_along", "dist.take_along", "", [x, ("i64", idx)], [take_along(x, idx)])
    yield ("take_along offset", "dist.take_along", "", [shard, ("i64", idx), ("offset", 4)],
           [take_along(shard, idx, 4)])
    f = lambda a: take_along(a, idx)
    yield ("take_along_grad", "dist.take_along_grad", "", [("i64", idx), d], [grad(f, [x], 0, d)])
    f = lambda a: take_along(a, idx, 4)
    yield ("take_along_grad offset", "dist.take_along_grad", "", [("i64", idx), d, ("offset", 4)],
           [grad(f, [shard], 0, d)])
    c = T([], [0.75])
    yield ("take_along_grad scalar", "dist.take_along_grad", "", [("i64", idx), c],
           [grad(lambda a: take_along(a, idx), [x], 0, T(idx.shape, [0.75] * 6))])
    # The k largest of the last dim, in order, ties in index order, +0.0
    # above -0.0 (entries
    # 0.1 apart, so that finite differences stay clear of a tie); the
    # gradient adds dvalues to the picked entries.
    spread = T([3, 4, 6], [v for _ in range(12) for v in rng.sample([0.1 * i - 0.25 for i in range(6)], 6)])
    tied = T([2, 5], [1.0, 3.0, 3.0, -2.0, 3.0, -0.0, 0.5, 0.0, -0.0, 0.0])
    for name, t, k in (("top_k", spread, 2), ("top_k ties", tied, 4)):
        values, picked = top_k(t, k)
        yield (name, "dist.top_k", f" {{k = {k} : i64}}", [t], [values, ("i64", picked)])
    picked = top_k(spread, 2)[1]
    d = rand([3, 4, 2], rng)
    yield ("top_k_grad", "dist.top_k_grad", "", [("i64", picked), d],
           [grad(lambda a: top_k(a, 2)[0], [spread], 0, d)])
    x = rand([2, 3, 8], rng, -3, 3)
    yield ("cross_entropy", "dist.cross_entropy", "", [x, ("i64", idx)], [cross_entropy(x, idx)])
    dloss = T([], [1.5])
    yield ("cross_entropy_grad", "dist.cross_entropy_grad", "", [x, ("i64", idx), dloss],
           [grad(lambda a: cross_entropy(a, idx), [x], 0, dloss)])
    # PyTorch's ignore_index: two of six positions left out of the mean.
    held = T(idx.shape, [-100 if k in (1, 4) else v for k, v in enumerate(idx.data)])
    attrs = " {ignore_index = -100 : i64}"
    yield ("cross_entropy ignore_index", "dist.cross_entropy", attrs, [x, ("i64", held)],
           [cross_entropy(x, held, -100)])
    yield ("cross_entropy_grad ignore_index", "dist.cross_entropy_grad", attrs, [x, ("i64", held), dloss],
           [grad(lambda a: cross_entropy(a, held, -100), [x], 0, dloss)])

    x = rand([2, 3, 4], rng)
    yield ("reshape", "dist.reshape", "", [x], [T([6, 4], x.data)])
    yield ("transpose", "dist.transpose", " {perm = array<i64: 2, 0, 1>}", [x], [transpose(x, [2, 0, 1])])

    yield from bf16_cases(rng)
    yield from logic_cases(rng)


# Comparisons as StableHLO defines them: floats IEEE (ordered), integers
# signed, booleans unsigned.
DIRECTIONS = {
    "eq": lambda a, b: a == b,
    "ne": lambda a, b: a != b,
    "lt": lambda a, b: a < b,
    "le": lambda a, b: a <= b,
    "gt": lambda a, b: a > b,
    "ge": lambda a, b: a >= b,
}
INT32_MIN = -2 ** 31


def wrap32(v):
    """`v` wrapped to a signed 32-bit integer."""
    return (v + 2 ** 31) % 2 ** 32 - 2 ** 31


def int_div(a, b):
    """XLA's signed division: toward zero, x / 0 = -1, MIN / -1 = MIN."""
    if b == 0:
        return -1
    if a == INT32_MIN and b == -1:
        return INT32_MIN
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


INT_BINARIES = {
    "add": lambda a, b: wrap32(a + b),
    "sub": lambda a, b: wrap32(a - b),
    "mul": lambda a, b: wrap32(a * b),
    "div": int_div,
    "rem": lambda a, b: int_rem(a, b),
    "maximum": max,
    "minimum": min,
}


def int_rem(a, b):
    """XLA's signed remainder: of the dividend's sign, x % 0 = x, MIN % -1 = 0."""
    if b == 0:
        return a
    r = abs(a) % abs(b)
    return -r if a < 0 else r


def logic_cases(rng):
    """Booleans and integers: comparisons, selection, logic, iota, casts and
    integer arithmetic (results print as f32, exact for these values)."""
    as_float = lambda t: T(t.shape, [float(v) for v in t.data])
    # Ties included: y takes some of x's values.
    x = T([2, 3, 4], [float(rng.randrange(-3, 4)) / 2 for _ in range(24)])
    y = T([3, 1], [float(rng.randrange(-3, 4)) / 2 for _ in range(3)])
    ints = T([2, 3, 4], [rng.randrange(-5, 6) for _ in range(24)])
    int_y = T([3, 1], [rng.randrange(-5, 6) for _ in range(3)])
    bools = T([2, 3, 4], [rng.randrange(2) for _ in range(24)])
    bool_y = T([3, 1], [rng.randrange(2) for _ in range(3)])
    for direction, f in DIRECTIONS.items():
        attrs = f' {{direction = "{direction}"}}'
        yield (f"compare {direction} f32", "dist.compare", attrs, [x, y], [("i1", broadcast(x, y, f))])
        yield (f"compare {direction} i32", "dist.compare", attrs, [("i32", ints), ("i32", int_y)],
               [("i1", broadcast(ints, int_y, f))])
        yield (f"compare {direction} i1", "dist.compare", attrs, [("i1", bools), ("i1", bool_y)],
               [("i1", broadcast(bools, bool_y, f))])
    bf = T(x.shape, [bf16(v) for v in x.data])
    yield ("compare lt bf16", "dist.compare", ' {direction = "lt"}', [("bf16", bf), ("bf16", T([], [0.25]))],
           [("i1", elementwise(bf, lambda v: v < 0.25))])

    # select: a [3, 1] predicate, a full on_true and a scalar on_false;
    # its gradient sums dout over on_false's broadcast dims.
    pred = T([3, 1], [1, 0, 1])
    a, c, d = rand([2, 3, 4], rng), T([], [0.5]), rand([2, 3, 4], rng)
    choose = lambda p, t, f: t if p else f
    sel = lambda t, f: T([2, 3, 4], [choose(pred.at([i[1], 0]), t.at(i), f.at([])) for i in indices([2, 3, 4])])
    yield ("select f32", "dist.select", "", [("i1", pred), a, c], [sel(a, c)])
    yield ("select_grad", "dist.select_grad", "", [("i1", pred), a, c, d],
           [grad(sel, [a, c], 0, d), grad(sel, [a, c], 1, d)])
    yield ("select i32", "dist.select", "", [("i1", bools), ("i32", ints), ("i32", int_y)],
           [("i32", T([2, 3, 4], [choose(bools.at(i), ints.at(i), int_y.at([i[1], 0])) for i in indices([2, 3, 4])]))])

    for name, f in (("and", lambda p, q: p & q), ("or", lambda p, q: p | q), ("xor", lambda p, q: p ^ q)):
        yield (f"{name} i1", f"dist.{name}", "", [("i1", bools), ("i1", bool_y)], [("i1", broadcast(bools, bool_y, f))])
        yield (f"{name} i32", f"dist.{name}", "", [("i32", ints), ("i32", int_y)], [("i32", broadcast(ints, int_y, f))])
    yield ("not i1", "dist.not", "", [("i1", bools)], [("i1", elementwise(bools, lambda v: 1 - v))])
    special = T([2, 3], [math.inf, -math.inf, math.nan, 0.0, -3.4e38, 1e-45])
    yield ("is_finite f32", "dist.is_finite", "", [special], [("i1", elementwise(special, math.isfinite))])
    yield ("is_finite bf16", "dist.is_finite", "", [("bf16", x)], [("i1", elementwise(x, math.isfinite))])
    yield ("not i32", "dist.not", "", [("i32", ints)], [("i32", elementwise(ints, lambda v: ~v))])

    yield ("iota i32 dim=1", "dist.iota", " {dim = 1 : i64}", [], [("i32", T([3, 4], [j for _, j in indices([3, 4])]))])
    yield ("iota f32 dim=0 offset=5", "dist.iota", " {dim = 0 : i64}", [("offset", 5)],
           [T([3, 4], [5.0 + i for i, _ in indices([3, 4])])])

    # Casts: toward zero into integers, != 0 into booleans, booleans as 0 / 1.
    f = T([2, 4], [-2.75, -1.0, -0.5, 0.0, 0.25, 1.5, 2.0, 3.99])
    yield ("cast f32 to i32", "dist.cast", "", [f], [("i32", elementwise(f, math.trunc))])
    yield ("cast f32 to i1", "dist.cast", "", [f], [("i1", elementwise(f, lambda v: v != 0))])
    yield ("cast bf16 to i64", "dist.cast", "", [("bf16", f)], [("i64", elementwise(f, math.trunc))])
    yield ("cast i32 to f32", "dist.cast", "", [("i32", ints)], [as_float(ints)])
    yield ("cast i1 to f32", "dist.cast", "", [("i1", bools)], [as_float(bools)])
    yield ("cast i1 to bf16", "dist.cast", "", [("i1", bools)], [("bf16", as_float(bools))])
    yield ("cast i1 to i32", "dist.cast", "", [("i1", bools)], [("i32", bools)])
    yield ("cast i32 to i1", "dist.cast", "", [("i32", ints)], [("i1", elementwise(ints, lambda v: v != 0))])
    big = T([4], [2 ** 40 + 7, -(2 ** 33) - 1, 5, -5])
    yield ("cast i64 to i32", "dist.cast", "", [("i64", big)], [("i32", elementwise(big, wrap32))])
    yield ("cast i32 to i64", "dist.cast", "", [("i32", ints)], [("i64", ints)])

    # Integer arithmetic: wrapping, toward zero, the trapping divisions defined.
    p = T([2, 4], [7, -7, 7, -7, INT32_MIN, INT32_MIN, 2 ** 30, 5])
    q = T([2, 4], [2, 2, -2, 0, -1, 1, 4, 0])
    for name, f in INT_BINARIES.items():
        yield (f"{name} i32", f"dist.{name}", "", [("i32", p), ("i32", q)], [("i32", broadcast(p, q, f))])
    yield ("add i32 broadcast", "dist.add", "", [("i32", ints), ("i32", int_y)],
           [("i32", broadcast(ints, int_y, lambda u, v: u + v))])

    # Reductions of integers (signed; sums wrap) and booleans (max is or,
    # min is and), from their identities: a row of all-false or all-true
    # booleans checks the starting values.
    for dims, keep in (([2], False), ([0, 2], True)):
        attrs = " {dims = array<i64: " + ", ".join(map(str, dims)) + ">" + (", keepdim" if keep else "") + "}"
        yield (f"reduce_sum i32 {dims}", "dist.reduce_sum", attrs, [("i32", ints)],
               [("i32", reduce(ints, dims, keep, False))])
        for name, choose in (("reduce_max", max), ("reduce_min", min)):
            yield (f"{name} i32 {dims}", f"dist.{name}", attrs, [("i32", ints)],
                   [("i32", reduce_choice(ints, dims, keep, choose))])
            rows = T([2, 3, 4], [0] * 4 + [1] * 4 + bools.data[8:])
            yield (f"{name} i1 {dims}", f"dist.{name}", attrs, [("i1", rows)],
                   [("i1", reduce_choice(rows, dims, keep, choose))])
    # Running sums, either way, of floats and integers (wrapping).
    def cumsum(t, dim, reverse):
        def at(i):
            n = t.shape[dim]
            ks = range(i[dim], n) if reverse else range(0, i[dim] + 1)
            return sum(t.at(list(i[:dim]) + [k] + list(i[dim + 1:])) for k in ks)
        return T(t.shape, [at(i) for i in indices(t.shape)])
    floats = rand([2, 3, 4], rng)
    yield ("cumsum f32 dim=1", "dist.cumsum", " {dim = 1 : i64}", [floats], [cumsum(floats, 1, False)])
    yield ("cumsum f32 dim=2 reverse", "dist.cumsum", " {dim = 2 : i64, reverse}", [floats], [cumsum(floats, 2, True)])
    yield ("cumsum i32 dim=0", "dist.cumsum", " {dim = 0 : i64}", [("i32", ints)], [("i32", cumsum(ints, 0, False))])
    huge = T([2, 2], [2 ** 31 - 1, 1, INT32_MIN, -1])
    yield ("reduce_sum i32 wraps", "dist.reduce_sum", " {dims = array<i64: 1>}", [("i32", huge)],
           [("i32", T([2], [INT32_MIN, 2 ** 31 - 1]))])
    yield ("cumsum i32 wraps", "dist.cumsum", " {dim = 1 : i64}", [("i32", huge)],
           [("i32", T([2, 2], [2 ** 31 - 1, INT32_MIN, INT32_MIN, 2 ** 31 - 1]))])


def bf16(v):
    """The bfloat16 nearest to `v` (through float32, ties to even)."""
    bits = struct.unpack("<I", struct.pack("<f", v))[0]
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def bf16_cases(rng):
    """bf16 ops: inputs of bf16 values, each op computed in f32 (a
    reduction accumulated in f32) and its result rounded once, so within
    about a bf16 ulp of the float64 reference rounded to bf16 (a layer norm
    rounds its mean and rstd too)."""
    def rounded(t):
        return ("bf16", T(t.shape, [bf16(v) for v in t.data]))
    x, d = (rounded(rand([2, 3, 8], rng, -2, 2))[1] for _ in range(2))
    b = lambda *ts: [rounded(t) for t in ts]
    g = lambda a: elementwise(a, lambda v: gelu(v, True))
    attrs = ' {approximate = "tanh"}'
    yield ("bf16 gelu tanh", "dist.gelu", attrs, b(x), b(g(x)))
    yield ("bf16 gelu_grad tanh", "dist.gelu_grad", attrs, b(x, d), b(grad(g, [x], 0, d)))
    yield ("bf16 exp", "dist.exp", "", b(x), b(elementwise(x, math.exp)))
    f = lambda a: softmax(a, 2)
    y = f(x)
    yield ("bf16 softmax", "dist.softmax", " {axis = -1 : i64}", b(x), b(y))
    yield ("bf16 reduce_max", "dist.reduce_max", " {dims = array<i64: 2>}", b(x),
           b(reduce_choice(x, [2], False, max)))
    yield ("bf16 reduce_sum", "dist.reduce_sum", " {dims = array<i64: 0, 2>}", b(x), b(reduce(x, [0, 2], False, False)))
    w = rounded(rand([8, 5], rng))[1]
    yield ("bf16 matmul", "dist.matmul", "", b(x, w), b(matmul(x, w)))
    gamma, beta = (rounded(rand([8], rng))[1] for _ in range(2))
    yield ("bf16 layer_norm", "dist.layer_norm", " {begin_norm_axis = 2 : i64}", b(x, gamma, beta),
           b(*layer_norm(x, gamma, beta, 2)))
    # Sums of 1024 terms near 1: a bf16 running sum would stop near 256,
    # where its ulp (2) swallows each term.
    long_x = rounded(rand([2, 1024], rng, 0.9, 1.1))[1]
    long_w = rounded(rand([1024, 3], rng, 0.9, 1.1))[1]
    yield ("bf16 matmul k=1024", "dist.matmul", "", b(long_x, long_w), b(matmul(long_x, long_w)))
    yield ("bf16 reduce_sum of 1024", "dist.reduce_sum", " {dims = array<i64: 1>}", b(long_x),
           b(reduce(long_x, [1], False, False)))
    # Products of multiples of 16 x 8 x 16, which the GPU runs on its tensor
    # cores (mma.sync): plain, with a transposed weight, and batched.
    x, w = rounded(rand([32, 64], rng))[1], rounded(rand([64, 16], rng))[1]
    yield ("bf16 matmul 32x16x64", "dist.matmul", "", b(x, w), b(matmul(x, w)))
    wt = rounded(rand([16, 64], rng))[1]
    yield ("bf16 matmul transpose_y", "dist.matmul", " {transpose_y}", b(x, wt), b(matmul(x, wt, ty=True)))
    q, k = rounded(rand([2, 16, 32], rng))[1], rounded(rand([2, 32, 8], rng))[1]
    yield ("bf16 batched matmul", "dist.matmul", "", b(q, k), b(matmul(q, k)))
    # Full reductions of 4096 elements, which the GPU pipeline splits into
    # rows reduced in parallel and their combination
    # (dist-split-full-reductions): a sum, a mean, and a max from -inf.
    big = rand([8, 32, 16], rng)
    every = " {dims = array<i64: 0, 1, 2>}"
    yield ("reduce_sum of 4096", "dist.reduce_sum", every, [big], [reduce(big, [0, 1, 2], False, False)])
    yield ("reduce_mean of 4096", "dist.reduce_mean", every, [big], [reduce(big, [0, 1, 2], False, True)])
    yield ("reduce_max of 4096", "dist.reduce_max", every, [big], [reduce_choice(big, [0, 1, 2], False, max)])


# ---- the program ----------------------------------------------------------

def materialize(inp, n):
    """Lines that define input `inp` as `%v{n}`; its name and type."""
    if isinstance(inp, tuple) and inp[0] == "offset":
        return [f"  %v{n} = arith.constant {inp[1]} : index"], f"%v{n}", "index"
    element, t = typed(inp)
    dims = ", ".join(map(str, t.shape))
    lines = [
        f"  %s{n} = arith.constant dense<[{dims}]> : tensor<{len(t.shape)}xindex>",
        f"  %f{n} = arith.constant {literal(t, element)}",
        f"  %v{n} = tensor.reshape %f{n}(%s{n}) : ({mlir_type([numel(t.shape)], element)}, "
        f"tensor<{len(t.shape)}xindex>) -> {mlir_type(t.shape, element)}",
    ]
    return lines, f"%v{n}", mlir_type(t.shape, element)


def print_lines(n, values, types):
    """Lines that print each of `values` (of `types`, f32, f64, or bf16 and
    integers, which print as f32) as a memref."""
    lines = []
    for i, (value, t) in enumerate(zip(values, types)):
        element = "f64" if t.endswith("f64>") else "f32"
        narrow = re.search(r"x?(bf16|i\d+)>$", t)
        if narrow:
            wide = t[:narrow.start(1)] + "f32>"
            lines.append(f"  %w{n}_{i} = dist.cast {value} : ({t}) -> {wide}")
            value, t = f"%w{n}_{i}", wide
        lines.append(f"  %u{n}_{i} = tensor.cast {value} : {t} to tensor<*x{element}>")
        lines.append(f"  call @printMemref{element.upper()}(%u{n}_{i}) : (tensor<*x{element}>) -> ()")
    return lines


def typed(t):
    """An input or output as (element type, tensor): f32 unless tagged."""
    return t if isinstance(t, tuple) else ("f32", t)


def program(all_cases):
    lines = ["func.func private @printMemrefF32(tensor<*xf32>)",
             "func.func private @printMemrefF64(tensor<*xf64>)", "func.func @main() {"]
    n = 0
    for _, op, attrs, inputs, outputs in all_cases:
        names, types = [], []
        for inp in inputs:
            n += 1
            defined, name, ty = materialize(inp, n)
            lines += defined
            names.append(name)
            types.append(ty)
        n += not inputs  # an op of no operands (iota) still names its results apart
        results = [f"%r{n}_{i}" for i in range(len(outputs))]
        out_types = [mlir_type(o.shape, element) for element, o in map(typed, outputs)]
        lhs = ", ".join(results) if len(results) == 1 else f"%r{n}:{len(results)}"
        lines.append(f"  {lhs} = {op} {', '.join(names)}{attrs} : ({', '.join(types)}) -> ({', '.join(out_types)})")
        values = results if len(results) == 1 else [f"%r{n}#{i}" for i in range(len(results))]
        lines += print_lines(n, values, out_types)
    lines += ["  return", "}"]
    return "\n".join(lines) + "\n"


PIPELINE = [
    "--convert-dist-to-linalg",
    "--one-shot-bufferize=bufferize-function-boundaries",
    "--convert-linalg-to-loops", "--convert-scf-to-cf", "--expand-strided-metadata",
    "--lower-affine", "--convert-math-to-libm", "--convert-math-to-llvm",
    "--convert-to-llvm", "--reconcile-unrealized-casts",
]


def lower_and_run(dist_opt, runner, libs, pipeline, source):
    """The values each printMemrefF32 call of `source`'s @main printed."""
    lowered = subprocess.run([dist_opt, "-", *pipeline], input=source, capture_output=True, text=True)
    if lowered.returncode:
        sys.exit(f"lowering failed:\n{lowered.stderr}")
    ran = subprocess.run([runner, "-", "-e", "main", "-entry-point-result=void", f"-shared-libs={libs}"],
                         input=lowered.stdout, capture_output=True, text=True)
    if ran.returncode:
        sys.exit(f"mlir-runner failed:\n{ran.stderr}")
    return [[float(v) for v in re.findall(r"-?(?:\d+\.?\d*(?:e[-+]?\d+)?|nan|inf)", chunk.split("data =", 1)[1])]
            for chunk in ran.stdout.split("Unranked Memref")[1:]]


def report(named_outputs, printed):
    """Compares the printed values with each case's expected outputs, in
    order; prints a line per case and a summary; exits 1 on a mismatch."""
    k, failures = 0, 0
    for name, outputs in named_outputs:
        worst = 0.0
        bound = BF16_TOLERANCE if any(typed(o)[0] == "bf16" for o in outputs) else TOLERANCE
        for _, expected in map(typed, outputs):
            got = printed[k]
            k += 1
            if len(got) != len(expected.data):
                worst = math.inf
                continue
            for a, e in zip(got, expected.data):
                # Equal infinities agree; a NaN never does.
                error = 0.0 if a == e else abs(a - e) / max(1.0, abs(e))
                worst = max(worst, math.inf if math.isnan(error) else error)
        ok = worst <= bound
        failures += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {name}: max error {worst:.2e}")
    print(f"{len(named_outputs) - failures} of {len(named_outputs)} cases within {TOLERANCE:g} "
          f"(bf16 results: {BF16_TOLERANCE:g})")
    sys.exit(1 if failures else 0)


# The element types dist-run reads and writes, as scripts/npy.py names them.
NPY_DTYPES = {"f32": "f4", "bf16": "bf16", "i32": "i4", "i64": "i8", "i1": "b1"}


def device_cases(all_cases):
    """The cases dist-run feeds and writes (no f64): what the GPU bundle runs."""
    return [c for c in all_cases
            if all(typed(t)[0] in NPY_DTYPES for t in c[4])
            and all(not isinstance(t, tuple) or t[0] in (*NPY_DTYPES, "offset") for t in c[3])]


def emit(all_cases, out):
    """Writes `all_cases` as @ops with its inputs and expected results."""
    import npy
    for sub in ("in", "expected"):
        os.makedirs(os.path.join(out, sub), exist_ok=True)
    args, body, results, flags, names = [], [], [], [], []
    n = 0
    for name, op, attrs, inputs, outputs in all_cases:
        operands, types = [], []
        for inp in inputs:
            n += 1
            if isinstance(inp, tuple) and inp[0] == "offset":
                body.append(f"  %v{n} = arith.constant {inp[1]} : index")
                operands.append(f"%v{n}")
                types.append("index")
                continue
            element, t = typed(inp)
            ty = mlir_type(t.shape, element)
            args.append(f"%a{n}: {ty}")
            operands.append(f"%a{n}")
            types.append(ty)
            path = os.path.join("in", f"a{n}.npy")
            values = [int(v) for v in t.data] if element.startswith("i") else t.data
            npy.write(os.path.join(out, path), t.shape, values, NPY_DTYPES[element])
            flags.append(f"--input a{n}={path}")
        n += not inputs
        out_types = [mlir_type(o.shape, element) for element, o in map(typed, outputs)]
        lhs = f"%r{n}" if len(outputs) == 1 else f"%r{n}:{len(outputs)}"
        body.append(f"  {lhs} = {op} {', '.join(operands)}{attrs} : ({', '.join(types)}) -> ({', '.join(out_types)})")
        for i, (element, o) in enumerate(map(typed, outputs)):
            values = [int(v) for v in o.data] if element.startswith("i") else o.data
            npy.write(os.path.join(out, "expected", f"result{len(results)}.npy"), o.shape, values, NPY_DTYPES[element])
            results.append((f"%r{n}" if len(outputs) == 1 else f"%r{n}#{i}", out_types[i]))
        names.append(f"{len(outputs)} {name}")
    program = [f"func.func @ops({', '.join(args)}) -> ({', '.join(t for _, t in results)}) {{", *body,
               f"  return {', '.join(v for v, _ in results)} : {', '.join(t for _, t in results)}", "}"]
    with open(os.path.join(out, "ops.mlir"), "w") as f:
        f.write("\n".join(program) + "\n")
    with open(os.path.join(out, "ops.flags"), "w") as f:
        f.write(" ".join(flags) + "\n")
    with open(os.path.join(out, "cases.txt"), "w") as f:
        f.write("\n".join(names) + "\n")


def check(out, results):
    """Compares RESULTS_DIR/result<k>.npy with the expected ones, by case."""
    import npy
    named, printed, k = [], [], 0
    for line in open(os.path.join(out, "cases.txt")):
        count, name = line.rstrip("\n").split(" ", 1)
        outputs = []
        for _ in range(int(count)):
            shape, dtype, data = npy.read_with_shape(os.path.join(out, "expected", f"result{k}.npy"))
            outputs.append(("bf16", T(shape, data)) if dtype == "bf16" else T(shape, data))
            got = os.path.join(results, f"result{k}.npy")
            printed.append(npy.read(got) if os.path.exists(got) else [])
            k += 1
        named.append((name, outputs))
    report(named, printed)


def main():
    rng = random.Random(20261203)
    if sys.argv[1] == "--emit":
        emit(device_cases(list(cases(rng))), sys.argv[2])
        return
    if sys.argv[1] == "--check":
        check(sys.argv[2], sys.argv[3])
        return
    dist_opt, runner, libs = sys.argv[1:4]
    pipeline = ["--dist-lower-to-cpu"] if "--cpu-pipeline" in sys.argv[4:] else PIPELINE
    if "--dense-scatter" in sys.argv[4:]:
        pipeline = ["--convert-dist-to-linalg=scatter=dense", "--dist-collapse-contraction-dims",
                    "--dist-split-full-reductions", "--dist-fuse-reduction-epilogues", "--dist-copy-inserted-slices",
                    "--eliminate-empty-tensors",
                    *PIPELINE[1:]]
    if "--cublaslt" in sys.argv[4:]:
        dumped = subprocess.run([dist_opt, "-", "--dist-lower-to-cpu", "--dump-pass-pipeline", "-o", os.devnull],
                                input="", capture_output=True, text=True, check=True).stderr.strip()
        text = re.sub(r"dist-call-blas(\{[^}]*\})?", "dist-call-blas{library=cublaslt}", dumped)
        text = text.replace("symbol-dce,", "symbol-dce,dist-collapse-contraction-dims,", 1)
        pipeline = [f"--pass-pipeline={text}"]
    all_cases = list(cases(rng))
    printed = lower_and_run(dist_opt, runner, libs, pipeline, program(all_cases))
    report([(name, outputs) for name, _, _, _, outputs in all_cases], printed)


if __name__ == "__main__":
    main()
