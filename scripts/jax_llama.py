"""The Llama step of `dist-gen llama` written independently in JAX, as Llama
code has it (repeat_kv for the grouped heads, rotate_half, a -inf causal
mask, log_softmax for the loss), on the inputs dist-run reads.

usage:
  jax_llama.py rope INPUT_DIR BASE
      overwrites INPUT_DIR/cos.npy and sin.npy (shape [seq, head_dim], as
      npy.py wrote them) with Llama's rotary tables for that base:
      angle[p, i] = p * BASE^(-2 (i mod head_dim/2) / head_dim).
  jax_llama.py grad INPUT_DIR OUT_DIR LAYERS HEADS KV_HEADS [moe EXPERTS TOP_K
                    CAPACITY_FACTOR AUX_LOSS_COEF BATCH_GROUPS SEQ_GROUPS]
      writes the loss and its gradients with respect to the parameters, in
      argument order, computed in float64 and written as float32
      (result0.npy, result1.npy, ...), as dist-run --grad writes them, for
      `npy.py compare`. With `moe`, the step of `dist-gen moe`: every MLP a
      mixture of experts (moe_mlp below, GShard's dispatch as MaxText and
      GSPMD write it with einsums), its tokens in BATCH_GROUPS x SEQ_GROUPS
      groups (dp x ep and sp of the generated program), and each layer's
      load-balancing loss (Switch's, top-k counted) weighted by AUX_LOSS_COEF.
  jax_llama.py bench INPUT_DIR DIST_RESULTS_DIR LAYERS HEADS KV_HEADS REPEAT [bf16]
      jits the float32 step and prints, for each of DIST_RESULTS_DIR's
      comma-separated directories, `xla compile <ms> step <ms> flops <n>
      loss <x> max-diff <d>`: XLA's compile time, the median step time over
      REPEAT calls, the step's FLOPs by XLA's cost analysis, the loss, and
      the largest difference between its loss and gradients and dist-run's
      results, relative to each tensor's largest magnitude. With bf16, the
      mixed-precision step of `dist-gen llama --dtype bf16` (the float32
      parameters and rotary tables cast to bfloat16 in the step, the logits
      cast back to float32 for the loss), and after the line
      `f64-error <e> xla-f64-error <x>`: the error of dist-run's results and
      of XLA's bf16 step against the step in float64 (jax_timing's
      relative_error).

  jax_llama.py adamw INPUT_DIR DIST_RESULTS_DIR LAYERS HEADS KV_HEADS
      the step of `dist-gen llama --optimizer adamw --dtype bf16`: the
      mixed-precision gradients, then AdamW (PyTorch's defaults with weight
      decay 0.01, dist.adamw's formula) on the float32 parameters and
      moments m_<param>, v_<param> at step count `step`; prints
      `f64-error <e> xla-f64-error <x>` for dist-run's results (the loss,
      then each parameter's new value, m and v) and XLA's, against the same
      step in float64, a line for each of DIST_RESULTS_DIR's comma-separated
      directories.

Several result directories of the same inputs share one process, one
compile and one reference. The head dim and the sizes come from the inputs' shapes.
"""

import math
import os
import sys

import jax

jax.config.update("jax_platforms", "cpu")
jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax_timing import adamw as adamw_update, compile_and_time, load_results, relative_error  # noqa: E402

EPS = 1e-5
PER_LAYER = ["attn_norm", "wq", "wk", "wv", "wo", "mlp_norm", "w1", "w3", "w2"]
# dist-gen moe's: the router wg before the experts' w1, w3, w2.
PER_MOE_LAYER = PER_LAYER[:6] + ["wg"] + PER_LAYER[6:]


def param_names(layers, per_layer=PER_LAYER):
    """The parameters in dist-gen llama's (or moe's) argument order."""
    names = ["embed"]
    for layer in range(layers):
        names += [f"{n}_{layer}" for n in per_layer]
    return names + ["final_norm", "lm_head"]


def dense_mlp(m, w):
    return (jax.nn.silu(m @ w["w1"]) * (m @ w["w3"])) @ w["w2"], 0.0


def moe_mlp(experts, top_k, capacity_factor, batch_groups, seq_groups):
    """A Mixtral MLP in GShard's formulation: (its output, the layer's
    load-balancing loss, Switch's with top-k counting: summed over the
    layers, not pooled over them as Hugging Face's Mixtral does)."""
    def mlp(m, w):
        b, s, h = m.shape
        gb, gs = batch_groups, seq_groups
        x = m.reshape(gb, b // gb, gs, s // gs, h).transpose(0, 2, 1, 3, 4).reshape(gb * gs, -1, h)
        g, t, _ = x.shape
        capacity = min(t, max(1, math.ceil(capacity_factor * (t * top_k) / experts - 1e-9)))
        probs = jax.nn.softmax((x @ w["wg"]).astype(jnp.result_type(float)), axis=-1)
        top, idx = jax.lax.top_k(probs, top_k)
        gates = (top / top.sum(-1, keepdims=True)).astype(x.dtype)
        onehot = jax.nn.one_hot(idx, experts, dtype=jnp.int32)  # [g, t, k, e]
        # GShard's priority: every token's first choice, then every second one.
        queue = onehot.transpose(0, 2, 1, 3).reshape(g, top_k * t, experts)
        position = (jnp.cumsum(queue, axis=1) - 1).reshape(g, top_k, t, experts).transpose(0, 2, 1, 3)
        kept = (onehot == 1) & (position < capacity)
        slot = jax.nn.one_hot(jnp.where(kept, position, -1), capacity, dtype=x.dtype)  # [g, t, k, e, c]
        dispatch = slot.sum(2)
        combine = jnp.einsum("gtk,gtkec->gtec", gates, slot)
        inputs = jnp.einsum("gtec,gth->egch", dispatch, x)
        hidden = jax.nn.silu(jnp.einsum("egch,ehf->egcf", inputs, w["w1"])) * jnp.einsum("egch,ehf->egcf", inputs, w["w3"])
        outputs = jnp.einsum("egcf,efh->egch", hidden, w["w2"])
        y = jnp.einsum("gtec,egch->gth", combine, outputs)
        y = y.reshape(gb, gs, b // gb, s // gs, h).transpose(0, 2, 1, 3, 4).reshape(b, s, h)
        fraction = onehot.sum(2).reshape(-1, experts).mean(0)
        return y, experts * jnp.sum(fraction * probs.reshape(-1, experts).mean(0))
    return mlp


def rms_norm(x, g):
    return x * jax.lax.rsqrt(jnp.mean(x * x, axis=-1, keepdims=True) + EPS) * g


def rotate_half(x):
    half = x.shape[-1] // 2
    return jnp.concatenate([-x[..., half:], x[..., :half]], axis=-1)


def model(layers, heads, kv_heads, compute=None, mlp=dense_mlp, per_layer=PER_LAYER, aux_loss_coef=0.0):
    """The step; with `compute` (bfloat16), mixed precision: the parameters
    and rotary tables cast to it, the logits back to their own type. Each
    layer's `mlp` returns its output and a loss the step adds, weighted by
    `aux_loss_coef`."""
    def loss(p, ids, labels, cos, sin):
        wide = cos.dtype
        if compute is not None:
            p, cos, sin = jax.tree_util.tree_map(lambda a: a.astype(compute), (p, cos, sin))
        b, s = ids.shape
        head_dim = cos.shape[-1]

        def split(t, n):
            return t.reshape(b, s, n, head_dim).transpose(0, 2, 1, 3)

        x = p["embed"][ids]
        causal = jnp.tril(jnp.ones((s, s), dtype=bool))
        aux = 0.0
        for layer in range(layers):
            w = {n: p[f"{n}_{layer}"] for n in per_layer}
            h = rms_norm(x, w["attn_norm"])
            q, k, v = split(h @ w["wq"], heads), split(h @ w["wk"], kv_heads), split(h @ w["wv"], kv_heads)
            q = q * cos + rotate_half(q) * sin
            k = k * cos + rotate_half(k) * sin
            k = jnp.repeat(k, heads // kv_heads, axis=1)
            v = jnp.repeat(v, heads // kv_heads, axis=1)
            scores = q @ k.transpose(0, 1, 3, 2) / math.sqrt(head_dim)
            scores = jnp.where(causal, scores, -jnp.inf)
            o = jax.nn.softmax(scores, axis=-1) @ v
            x = x + o.transpose(0, 2, 1, 3).reshape(b, s, heads * head_dim) @ w["wo"]
            y, layer_aux = mlp(rms_norm(x, w["mlp_norm"]), w)
            x, aux = x + y, aux + layer_aux
        logits = (rms_norm(x, p["final_norm"]) @ p["lm_head"]).astype(wide)
        logp = jax.nn.log_softmax(logits, axis=-1)
        return -jnp.mean(jnp.take_along_axis(logp, labels[..., None], axis=-1)) + aux_loss_coef * aux

    return jax.value_and_grad(loss)


def load_inputs(src, layers, dtype, per_layer=PER_LAYER):
    def read(name):
        return np.load(os.path.join(src, f"{name}.npy"))

    names = param_names(layers, per_layer)
    params = {n: jnp.asarray(read(n), dtype=dtype) for n in names}
    data = [jnp.asarray(read("ids")), jnp.asarray(read("labels")),
            jnp.asarray(read("cos"), dtype=dtype), jnp.asarray(read("sin"), dtype=dtype)]
    return names, params, data


def rope(src, base):
    cos = np.load(os.path.join(src, "cos.npy"))
    seq, head_dim = cos.shape
    half = head_dim // 2
    inv_freq = base ** (-np.arange(half, dtype=np.float64) * 2 / head_dim)
    angles = np.arange(seq, dtype=np.float64)[:, None] * np.concatenate([inv_freq, inv_freq])[None, :]
    np.save(os.path.join(src, "cos.npy"), np.cos(angles).astype(np.float32))
    np.save(os.path.join(src, "sin.npy"), np.sin(angles).astype(np.float32))


def grad(src, out, layers, heads, kv_heads, moe=None):
    """With `moe` (EXPERTS TOP_K CAPACITY_FACTOR AUX_LOSS_COEF BATCH_GROUPS
    SEQ_GROUPS), dist-gen moe's step."""
    if moe is None:
        per_layer, step = PER_LAYER, model(layers, heads, kv_heads)
    else:
        experts, top_k, factor, coef, batch_groups, seq_groups = moe
        mlp = moe_mlp(int(experts), int(top_k), float(factor), int(batch_groups), int(seq_groups))
        per_layer = PER_MOE_LAYER
        step = model(layers, heads, kv_heads, mlp=mlp, per_layer=per_layer, aux_loss_coef=float(coef))
    names, params, data = load_inputs(src, layers, jnp.float64, per_layer)
    loss, grads = jax.jit(step)(params, *data)
    os.makedirs(out, exist_ok=True)
    for i, r in enumerate([loss] + [grads[n] for n in names]):
        np.save(os.path.join(out, f"result{i}.npy"), np.asarray(r, dtype=np.float32))


def bench(src, results, layers, heads, kv_heads, repeat, mixed):
    names, params, data = load_inputs(src, layers, jnp.float32)
    step = jax.jit(model(layers, heads, kv_heads, jnp.bfloat16 if mixed else None))
    compile_ms, step_ms, flops, value, grads = compile_and_time(step, (params, *data), repeat)
    theirs = [np.asarray(value)] + [np.asarray(grads[n]) for n in names]
    if mixed:
        _, wide, wide_data = load_inputs(src, layers, jnp.float64)
        loss, exact_grads = jax.jit(model(layers, heads, kv_heads))(wide, *wide_data)
        exact = [loss] + [exact_grads[n] for n in names]
    for ours in load_results(results, len(names) + 1):
        worst = max(float(np.max(np.abs(a - b)) / max(float(np.max(np.abs(b))), 1e-30)) for a, b in zip(ours, theirs))
        line = (f"xla compile {compile_ms:.0f} step {step_ms:.2f} flops {flops:.0f} "
                f"loss {float(value):.6f} max-diff {worst:.2e}")
        if mixed:
            line += f" f64-error {relative_error(ours, exact):.2e} xla-f64-error {relative_error(theirs, exact):.2e}"
        print(line)


def adamw_step(src, layers, heads, kv_heads, compute, dtype):
    """The loss, then each parameter's new value, m and v (dist-gen's
    result order), of one AdamW step on the gradients of `model`."""
    names, params, data = load_inputs(src, layers, dtype)
    moments = {k: {n: jnp.asarray(np.load(os.path.join(src, f"{k}_{n}.npy")), dtype=dtype) for n in names}
               for k in ("m", "v")}
    t = jnp.asarray(np.load(os.path.join(src, "step.npy")), dtype=dtype)
    loss, grads = jax.jit(model(layers, heads, kv_heads, compute))(params, *data)
    return [loss] + adamw_update([params[n] for n in names], [grads[n] for n in names],
                                 [moments["m"][n] for n in names], [moments["v"][n] for n in names], t)


def adamw(src, results, layers, heads, kv_heads):
    exact = adamw_step(src, layers, heads, kv_heads, None, jnp.float64)
    theirs = adamw_step(src, layers, heads, kv_heads, jnp.bfloat16, jnp.float32)
    for ours in load_results(results, len(exact)):
        print(f"f64-error {relative_error(ours, exact):.2e} xla-f64-error {relative_error(theirs, exact):.2e}")


def main():
    command, args = sys.argv[1], sys.argv[2:]
    if command == "rope":
        rope(args[0], float(args[1]))
    elif command == "grad" and args[5:6] == ["moe"] and len(args) == 12:
        grad(args[0], args[1], *map(int, args[2:5]), moe=args[6:])
    elif command == "grad" and len(args) == 5:
        grad(args[0], args[1], *map(int, args[2:5]))
    elif command == "bench":
        bench(args[0], args[1], *map(int, args[2:6]), args[6:] == ["bf16"])
    elif command == "adamw":
        adamw(args[0], args[1], *map(int, args[2:5]))
    else:
        sys.exit(f"unknown command {command}: rope, grad, bench or adamw")


if __name__ == "__main__":
    main()
