"""The Llama block of llama-block.mlir, written independently in JAX (float64)
as the usual Llama code has it: repeat_kv for the grouped heads, rotate_half,
a -inf causal mask, log_softmax for the loss. Writes the loss and its
gradients with respect to the parameters, in argument order, as dist-run
--grad does (result0.npy, result1.npy, ...), so that `npy.py compare`
checks a dist-run output against it.

usage: llama_jax.py INPUT_DIR OUT_DIR
"""
import os
import sys

import jax

jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

PARAMS = ["embed", "attn_norm", "wq", "wk", "wv", "wo", "mlp_norm", "wgate", "wup", "wdown",
          "final_norm", "lm_head"]
HEADS, KV_HEADS, HEAD_DIM, EPS = 4, 2, 8, 1e-5


def rms_norm(x, g):
    return x * jax.lax.rsqrt(jnp.mean(x * x, axis=-1, keepdims=True) + EPS) * g


def rotate_half(x):
    half = x.shape[-1] // 2
    return jnp.concatenate([-x[..., half:], x[..., :half]], axis=-1)


def loss_fn(p, ids, labels, cos, sin):
    b, s = ids.shape
    x = p["embed"][ids]
    h = rms_norm(x, p["attn_norm"])
    q = (h @ p["wq"]).reshape(b, s, HEADS, HEAD_DIM).transpose(0, 2, 1, 3)
    k = (h @ p["wk"]).reshape(b, s, KV_HEADS, HEAD_DIM).transpose(0, 2, 1, 3)
    v = (h @ p["wv"]).reshape(b, s, KV_HEADS, HEAD_DIM).transpose(0, 2, 1, 3)
    q = q * cos + rotate_half(q) * sin
    k = k * cos + rotate_half(k) * sin
    k = jnp.repeat(k, HEADS // KV_HEADS, axis=1)
    v = jnp.repeat(v, HEADS // KV_HEADS, axis=1)
    scores = q @ k.transpose(0, 1, 3, 2) / jnp.sqrt(HEAD_DIM)
    causal = jnp.tril(jnp.ones((s, s), dtype=bool))
    scores = jnp.where(causal, scores, -jnp.inf)
    o = jax.nn.softmax(scores, axis=-1) @ v
    x = x + o.transpose(0, 2, 1, 3).reshape(b, s, HEADS * HEAD_DIM) @ p["wo"]
    m = rms_norm(x, p["mlp_norm"])
    x = x + (jax.nn.silu(m @ p["wgate"]) * (m @ p["wup"])) @ p["wdown"]
    logits = rms_norm(x, p["final_norm"]) @ p["lm_head"]
    logp = jax.nn.log_softmax(logits, axis=-1)
    return -jnp.mean(jnp.take_along_axis(logp, labels[..., None], axis=-1))


def main():
    src, out = sys.argv[1], sys.argv[2]
    read = lambda name: np.load(os.path.join(src, f"{name}.npy"))
    p = {name: jnp.asarray(read(name), dtype=jnp.float64) for name in PARAMS}
    args = [jnp.asarray(read("ids")), jnp.asarray(read("labels")),
            jnp.asarray(read("cos"), dtype=jnp.float64), jnp.asarray(read("sin"), dtype=jnp.float64)]
    loss, grads = jax.value_and_grad(loss_fn)(p, *args)
    os.makedirs(out, exist_ok=True)
    results = [loss] + [grads[name] for name in PARAMS]
    for i, r in enumerate(results):
        np.save(os.path.join(out, f"result{i}.npy"), np.asarray(r, dtype=np.float32))


if __name__ == "__main__":
    main()
