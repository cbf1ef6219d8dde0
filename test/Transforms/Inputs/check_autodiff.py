"""Numerical check of dist-append-backward's gradient rules.

For every differentiable op (every matmul transpose and broadcast, the
elementwise ops with trailing broadcast and a repeated operand, scale,
relu, gelu in both forms, the reductions, softmax, layer_norm, embedding
with and without a shard offset, top_k, reshape, transpose), a forward function

    loss = reduce_sum(mul(op(inputs), w))

marks its float inputs dist.requires_grad; dist-append-backward writes its
backward, the program is lowered and run by mlir-runner on seeded random
inputs, and each gradient is compared with central finite differences of
an independent float64 reference of the op (check_linalg.py's), which is
the gradient of sum(w * op(inputs)). Prints one line per case and a
summary; exits non-zero on any mismatch.

usage: check_autodiff.py DIST_OPT MLIR_RUNNER SHARED_LIBS
"""

import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../Conversion/Inputs"))
import check_linalg as ref  # noqa: E402
from check_linalg import T, rand, grad, mlir_type  # noqa: E402


def distinct(shape, rng):
    """Values of `shape` spread evenly over [-1, 1] in random order: no two
    within a finite difference's step, so none straddles a tie of a
    maximum (a near tie of random values made one mismatch)."""
    n = ref.numel(shape)
    values = [-1 + 2 * k / (n - 1) for k in range(n)]
    rng.shuffle(values)
    return T(shape, values)


def cases(rng):
    """(name, op, attrs, inputs, f, result count): `f` maps the float inputs
    to the op's first result; integer and index inputs are fixed."""
    for tx in (False, True):
        for ty in (False, True):
            for xs, ys in (([3, 4], [4, 5]), ([2, 3, 4], [4, 5]), ([2, 3, 4], [2, 4, 5]),
                           ([1, 3, 4], [2, 4, 5]), ([2, 2, 3, 4], [2, 4, 5])):
                xs = xs[:-2] + ([xs[-1], xs[-2]] if tx else xs[-2:])
                ys = ys[:-2] + ([ys[-1], ys[-2]] if ty else ys[-2:])
                flags = [a for a, on in (("transpose_x", tx), ("transpose_y", ty)) if on]
                attrs = " {" + ", ".join(flags) + "}" if flags else ""
                yield (f"matmul {xs}x{ys} tx={tx} ty={ty}", "dist.matmul", attrs,
                       [rand(xs, rng), rand(ys, rng)], lambda a, b, tx=tx, ty=ty: ref.matmul(a, b, tx, ty), 1)

    for name, f in ref.BINARIES.items():
        for xs, ys in (([2, 3, 4], [3, 4]), ([2, 3, 4], [2, 3, 4]), ([2, 1, 4], [3, 1])):
            y = rand(ys, rng, 0.5, 2) if name == "div" else rand(ys, rng)
            x = rand(xs, rng, 0.5, 2) if name == "pow" else rand(xs, rng)
            yield (f"{name} {xs} by {ys}", f"dist.{name}", "", [x, y],
                   lambda a, b, f=f: ref.broadcast(a, b, f), 1)
    for name, (f, lo, hi) in ref.FUNCTIONS.items():
        yield (name, f"dist.{name}", "", [rand([3, 5], rng, lo, hi)], lambda a, f=f: ref.elementwise(a, f), 1)
    # One value read twice: its two contributions are summed.
    yield ("mul x * x", "dist.mul", "", [rand([3, 5], rng), "same"], lambda a: ref.broadcast(a, a, lambda u, v: u * v), 1)

    x = rand([3, 5], rng, -3, 3)
    yield ("scale", "dist.scale", " {factor = -2.5 : f64}", [x], lambda a: ref.elementwise(a, lambda v: -2.5 * v), 1)
    yield ("relu", "dist.relu", "", [x], lambda a: ref.elementwise(a, lambda v: max(v, 0.0)), 1)
    for tanh in (False, True):
        attrs = ' {approximate = "tanh"}' if tanh else ""
        yield (f"gelu tanh={tanh}", "dist.gelu", attrs, [x], lambda a, tanh=tanh: ref.elementwise(a, lambda v: ref.gelu(v, tanh)), 1)

    for dims, keep in (([1], False), ([0, 2], True), ([0, 1, 2], False)):
        for mean in (False, True):
            name = "reduce_mean" if mean else "reduce_sum"
            attrs = " {dims = array<i64: " + ", ".join(map(str, dims)) + ">" + (", keepdim" if keep else "") + "}"
            yield (f"{name} {dims} keep={keep}", f"dist.{name}", attrs, [rand([2, 3, 4], rng)],
                   lambda a, dims=dims, keep=keep, mean=mean: ref.reduce(a, dims, keep, mean), 1)

    for dims, keep in (([1], False), ([0, 2], True)):
        for name, choose in (("reduce_max", max), ("reduce_min", min)):
            attrs = " {dims = array<i64: " + ", ".join(map(str, dims)) + ">" + (", keepdim" if keep else "") + "}"
            yield (f"{name} {dims} keep={keep}", f"dist.{name}", attrs, [distinct([2, 3, 4], rng)],
                   lambda a, dims=dims, keep=keep, choose=choose: ref.reduce_choice(a, dims, keep, choose), 1)

    for axis in (-1, 1):
        yield (f"softmax axis={axis}", "dist.softmax", f" {{axis = {axis} : i64}}", [rand([2, 3, 5], rng, -2, 2)],
               lambda a, axis=axis: ref.softmax(a, axis % 3), 1)

    for begin, norm in ((2, [4]), (1, [3, 4])):
        yield (f"layer_norm begin={begin}", "dist.layer_norm", f" {{begin_norm_axis = {begin} : i64}}",
               [rand([2, 3, 4], rng), rand(norm, rng, 0.5, 1.5), rand(norm, rng)],
               lambda a, s, c, begin=begin: ref.layer_norm(a, s, c, begin)[0], 3)

    for begin, norm in ((2, [4]), (1, [3, 4])):
        yield (f"rms_norm begin={begin}", "dist.rms_norm", f" {{begin_norm_axis = {begin} : i64}}",
               [rand([2, 3, 4], rng), rand(norm, rng, 0.5, 1.5)],
               lambda a, s, begin=begin: ref.rms_norm(a, s, begin)[0], 2)

    ids = T([2, 3], [rng.randrange(0, 10) for _ in range(6)])
    yield ("embedding", "dist.embedding", "", [("i64", ids), rand([10, 4], rng)], lambda t: ref.embedding(ids, t), 1)
    yield ("embedding offset", "dist.embedding", "", [("i64", ids), rand([4, 4], rng), ("offset", 4)],
           lambda t: ref.embedding(ids, t, 4), 1)

    yield ("slice", "dist.slice", f" {{offsets = {ref.array([0, 1, 2])}, sizes = {ref.array([2, 2, 3])}}}",
           [rand([2, 3, 6], rng)], lambda a: ref.slice_(a, [0, 1, 2], [2, 2, 3]), 1)
    yield ("concat", "dist.concat", " {dim = 1 : i64}", [rand([2, 1, 4], rng), rand([2, 3, 4], rng)],
           lambda a, b: ref.concat([a, b], 1), 1)
    labels = T([2, 3], [rng.randrange(0, 8) for _ in range(6)])
    yield ("take_along", "dist.take_along", "", [rand([2, 3, 8], rng), ("i64", labels)],
           lambda a: ref.take_along(a, labels), 1)
    yield ("cross_entropy", "dist.cross_entropy", "", [rand([2, 3, 8], rng, -3, 3), ("i64", labels)],
           lambda a: ref.cross_entropy(a, labels), 1)
    yield ("top_k", "dist.top_k", " {k = 2 : i64}", [distinct([2, 3, 5], rng)], lambda a: ref.top_k(a, 2)[0],
           ["tensor<2x3x2xi64>"])
    yield ("reshape", "dist.reshape", "", [rand([2, 3, 4], rng)], lambda a: T([6, 4], a.data), 1)
    yield ("transpose", "dist.transpose", " {perm = array<i64: 2, 0, 1>}", [rand([2, 3, 4], rng)],
           lambda a: ref.transpose(a, [2, 0, 1]), 1)


def is_float(inp):
    return isinstance(inp, T)


def program(all_cases, rng):
    """The forward functions; @main, which calls each differentiated one
    and prints its gradients; the expected gradients of each case."""
    functions, main = [], ["func.func @main() {"]
    expected = []
    n = 0
    for k, (name, op, attrs, inputs, f, count) in enumerate(all_cases):
        floats = [i for i in inputs if is_float(i)]
        out = f(*floats)
        weight = rand(out.shape, rng)
        args, arg_types, values, operands, types = [], [], [], [], []
        for i, inp in enumerate(inputs):
            if inp == "same":  # the previous operand again
                operands.append(operands[-1])
                types.append(types[-1])
                continue
            n += 1
            defined, value, ty = ref.materialize(inp, n)
            main += defined
            values.append(value)
            arg_types.append(ty)
            marker = " {dist.requires_grad}" if is_float(inp) else ""
            args.append(f"%a{i}: {ty}{marker}")
            operands.append(f"%a{i}")
            types.append(ty)
        n += 1
        defined, w, wty = ref.materialize(weight, n)
        main += defined
        out_ty = mlir_type(out.shape)
        if isinstance(count, list):  # the types of the results after the first
            result_types = [out_ty] + count
            count = len(result_types)
        else:
            # layer_norm's statistics have the shape of the dims it does not normalize.
            stats_ty = mlir_type(out.shape[:len(out.shape) - len(inputs[-1].shape)]) if count > 1 else None
            result_types = [out_ty] + [stats_ty] * (count - 1)
        lhs = "%r" if count == 1 else f"%r:{count}"
        first = "%r" if count == 1 else "%r#0"
        dims = ", ".join(str(d) for d in range(len(out.shape)))
        functions += [
            f"func.func @case{k}({', '.join(args)}, %w: {wty}) -> tensor<f32> {{",
            f"  {lhs} = {op} {', '.join(operands)}{attrs} : ({', '.join(types)}) -> ({', '.join(result_types)})",
            f"  %p = dist.mul {first}, %w : ({out_ty}, {out_ty}) -> {out_ty}",
        ]
        if out.shape:
            functions.append(f"  %l = dist.reduce_sum %p {{dims = array<i64: {dims}>}} : ({out_ty}) -> tensor<f32>")
        else:  # already the scalar loss
            functions.append("  %l = dist.scale %p {factor = 1.0 : f64} : (tensor<f32>) -> tensor<f32>")
        functions += ["  return %l : tensor<f32>", "}"]
        grads = [grad(f, floats, i, weight) for i in range(len(floats))]
        grad_types = [mlir_type(g.shape) for g in grads]
        results = ", ".join(["tensor<f32>"] + grad_types)
        main.append(f"  %c{k}:{1 + len(grads)} = call @case{k}({', '.join(values + [w])}) : "
                    f"({', '.join(arg_types + [wty])}) -> ({results})")
        main += ref.print_lines(f"c{k}", [f"%c{k}#{i + 1}" for i in range(len(grads))], grad_types)
        expected.append((name, grads))
    main += ["  return", "}"]
    return "\n".join(functions) + "\n", "\n".join(main) + "\n", expected


def main():
    dist_opt, runner, libs = sys.argv[1:4]
    rng = random.Random(20261204)
    forward, main, expected = program(list(cases(rng)), rng)
    # The pass changes the functions' signatures, not their calls: @main,
    # written for the new signatures, joins the module after it.
    derived = subprocess.run([dist_opt, "-", "--dist-append-backward"], input=forward, capture_output=True, text=True)
    if derived.returncode:
        sys.exit(f"dist-append-backward failed:\n{derived.stderr}")
    module = derived.stdout.rstrip()
    source = module[:-1] + "func.func private @printMemrefF32(tensor<*xf32>)\n" + main + "}\n"
    printed = ref.lower_and_run(dist_opt, runner, libs, ref.PIPELINE, source)
    ref.report(expected, printed)


if __name__ == "__main__":
    main()
