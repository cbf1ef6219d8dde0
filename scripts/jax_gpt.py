"""The GPT training step of `dist-gen gpt` written in JAX, for
scripts/bench-vs-xla.sh: the same model (tied embedding, per layer
layer_norm, attention with 1/sqrt(head_dim) scale and softmax, output
projection and residual, layer_norm, MLP with bias and tanh gelu, residual;
final layer_norm, logits through the embedding, mean squared error), its
gradients by JAX's autodiff, on the inputs dist-run reads.

usage: jax_gpt.py INPUT_DIR DIST_RESULTS_DIR LAYERS HEADS HEAD_DIM REPEAT [bf16]
       jax_gpt.py INPUT_DIR DIST_RESULTS_DIR LAYERS HEADS HEAD_DIM adamw

Prints `xla compile <ms> step <ms> flops <n> loss <x> max-diff <d>`: XLA's
jit compile time, the median step time over REPEAT calls, the step's FLOPs
by XLA's cost analysis, the loss, and the largest difference between its
loss and gradients and dist-run's results (relative to max(1, |value|)).

With bf16, the mixed-precision step of `dist-gen gpt --dtype bf16`: the f32
parameters cast to bfloat16 in the step, the model computed in bfloat16,
the logits cast back to float32 for the loss, the gradients (of the f32
parameters) in float32; the difference is then relative to each tensor's
largest value, and `f64-error <e> xla-f64-error <x>` follow it: the error
of dist-run's results and of XLA's bf16 step against the same step in
float64, each the largest over the loss and gradients of |a - b| / |b|
(2-norms of whole tensors). Two bf16 steps that round at other points
differ from each other by about their errors, so the errors are what
tells whether one computes as mixed precision should (f32 accumulation).

With adamw, the step of `dist-gen gpt --optimizer adamw --dtype bf16`: the
mixed-precision gradients, then AdamW (jax_timing.adamw) on the float32
parameters and moments m_<param>, v_<param> at step count `step`; prints
`f64-error <e> xla-f64-error <x>` for dist-run's results (the loss, then
each parameter's new value, m and v) and XLA's, against the same step in
float64.

DIST_RESULTS_DIR may name several comma-separated directories of results
of the same inputs: one line is printed for each, from one compile and one
reference.
"""

import math
import os
import sys

import jax
import jax.numpy as jnp
import numpy as np
from jax_timing import adamw, compile_and_time, load_results, relative_error

# On the CPU unless JAX_PLATFORMS says otherwise (scripts/gpu-bundle.sh's
# run.sh sets cuda); float32 products in full float32 on every platform
# (a GPU's default would round operands to tf32), as the compared step does.
if "JAX_PLATFORMS" not in os.environ:
    jax.config.update("jax_platforms", "cpu")
jax.config.update("jax_default_matmul_precision", "highest")


def layer_norm(x, g, b, eps=1e-5):
    mean = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean((x - mean) ** 2, axis=-1, keepdims=True)
    return (x - mean) * jax.lax.rsqrt(var + eps) * g + b


def model(heads, head_dim, compute):
    scale = 1.0 / math.sqrt(head_dim)

    def split(t):
        b, s, _ = t.shape
        return t.reshape(b, s, heads, head_dim).transpose(0, 2, 1, 3)

    def loss(params, ids, targets):
        params = jax.tree_util.tree_map(lambda p: p.astype(compute), params)
        table, lnf_g, lnf_b, layers = params
        x = table[ids]
        for ln1_g, ln1_b, wq, wk, wv, wo, ln2_g, ln2_b, w1, b1, w2 in layers:
            h = layer_norm(x, ln1_g, ln1_b)
            q, k, v = split(h @ wq), split(h @ wk), split(h @ wv)
            probs = jax.nn.softmax((q @ k.swapaxes(-1, -2)) * scale, axis=-1)
            ctx = (probs @ v).transpose(0, 2, 1, 3).reshape(x.shape)
            x = x + ctx @ wo
            a = jax.nn.gelu(layer_norm(x, ln2_g, ln2_b) @ w1 + b1, approximate=True)
            x = x + a @ w2
        logits = (layer_norm(x, lnf_g, lnf_b) @ table.T).astype(targets.dtype)
        return jnp.mean((logits - targets) ** 2)

    return jax.jit(jax.value_and_grad(loss))


PER_LAYER = ["ln1_g", "ln1_b", "wq", "wk", "wv", "wo", "ln2_g", "ln2_b", "w1", "b1", "w2"]


def load(inputs, name, dtype=None):
    """INPUT_DIR/<name>.npy as a JAX array (of `dtype`, if given)."""
    return jnp.asarray(np.load(os.path.join(inputs, f"{name}.npy")), dtype=dtype)


def load_params(inputs, layers, dtype):
    """The parameters in dist-gen's argument order, as `model` takes them."""
    def one(name):
        return load(inputs, name, dtype)
    return (one("table"), one("lnf_g"), one("lnf_b"),
            [tuple(one(f"{n}_{l}") for n in PER_LAYER) for l in range(layers)])


def adamw_errors(inputs, results, layers, heads, head_dim):
    jax.config.update("jax_enable_x64", True)
    names = ["table", "lnf_g", "lnf_b"] + [f"{n}_{l}" for l in range(layers) for n in PER_LAYER]
    ids = load(inputs, "ids")

    def step(compute, dtype):
        params, targets = load_params(inputs, layers, dtype), load(inputs, "targets", dtype)
        loss, grads = model(heads, head_dim, compute)(params, ids, targets)
        flat = jax.tree_util.tree_leaves
        return [loss] + adamw(flat(params), flat(grads), [load(inputs, f"m_{n}", dtype) for n in names],
                              [load(inputs, f"v_{n}", dtype) for n in names], load(inputs, "step", dtype))

    exact, theirs = step(jnp.float64, jnp.float64), step(jnp.bfloat16, jnp.float32)
    for ours in load_results(results, len(exact)):
        print(f"f64-error {relative_error(ours, exact):.2e} xla-f64-error {relative_error(theirs, exact):.2e}")


def main():
    if sys.argv[6:] == ["adamw"]:
        adamw_errors(sys.argv[1], sys.argv[2], *map(int, sys.argv[3:6]))
        return
    inputs, results, layers, heads, head_dim, repeat = sys.argv[1:7]
    layers, heads, head_dim, repeat = int(layers), int(heads), int(head_dim), int(repeat)
    mixed = sys.argv[7:] == ["bf16"]
    compute = jnp.bfloat16 if mixed else jnp.float32
    if mixed:
        # The float64 reference; the other steps' inputs stay float32.
        jax.config.update("jax_enable_x64", True)

    params = load_params(inputs, layers, jnp.float32)
    ids, targets = load(inputs, "ids"), load(inputs, "targets")
    step = model(heads, head_dim, compute)

    compile_ms, step_ms, flops, value, grads = compile_and_time(step, (params, ids, targets), repeat)

    def flat(value, grads):
        return [np.asarray(value)] + [np.asarray(g) for g in jax.tree_util.tree_leaves(grads)]

    def largest_difference(ours, theirs):
        if len(ours) != len(theirs):
            return math.inf
        if mixed:
            return max(float(np.max(np.abs(a - b)) / max(float(np.max(np.abs(b))), 1e-30)) for a, b in zip(ours, theirs))
        return max(float(np.max(np.abs(a - b) / np.maximum(1.0, np.abs(b)))) for a, b in zip(ours, theirs))

    theirs = flat(value, grads)
    if mixed:
        wide = jax.tree_util.tree_map(lambda a: a.astype(jnp.float64), (params, targets))
        exact = flat(*model(heads, head_dim, jnp.float64)(wide[0], ids, wide[1]))
    # dist-gen's results: the loss, then one gradient per parameter in
    # argument order (the seed dloss is 1).
    for ours in load_results(results):
        line = (f"xla compile {compile_ms:.0f} step {step_ms:.2f} flops {flops:.0f} "
                f"loss {float(value):.6f} max-diff {largest_difference(ours, theirs):.2e}")
        if mixed:
            line += f" f64-error {relative_error(ours, exact):.2e} xla-f64-error {relative_error(theirs, exact):.2e}"
        print(line)


if __name__ == "__main__":
    main()
