"""Tiny transformer block LM loss, Megatron-style shardings on a (dp, tp) mesh.

batch 2, seq 8, hidden 16, heads 2, vocab 32, mlp 64; tied embedding.
"""
import jax
import jax.numpy as jnp

B, S, D, H, V, F = 2, 8, 16, 2, 32, 64


def layer_norm(x, scale, bias, eps=1e-5):
    mu = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean((x - mu) ** 2, axis=-1, keepdims=True)
    return (x - mu) * jax.lax.rsqrt(var + eps) * scale + bias


def attention(x, wq, wk, wv, wo):
    def heads(t):  # [B,S,D] -> [B,H,S,D/H]
        return t.reshape(B, S, H, D // H).transpose(0, 2, 1, 3)
    q, k, v = heads(x @ wq), heads(x @ wk), heads(x @ wv)
    scores = jnp.einsum("bhqd,bhkd->bhqk", q, k) / jnp.sqrt(D // H).astype(x.dtype)
    causal = jnp.tril(jnp.ones((S, S), dtype=bool))
    scores = jnp.where(causal, scores, jnp.finfo(x.dtype).min)
    p = jax.nn.softmax(scores, axis=-1)
    o = jnp.einsum("bhqk,bhkd->bhqd", p, v).transpose(0, 2, 1, 3).reshape(B, S, D)
    return o @ wo


def fn(tokens, targets, embed, ln1_s, ln1_b, wq, wk, wv, wo,
       ln2_s, ln2_b, w1, w2, lnf_s, lnf_b):
    x = jnp.take(embed, tokens, axis=0)                       # [B,S,D]
    x = x + attention(layer_norm(x, ln1_s, ln1_b), wq, wk, wv, wo)
    h = jax.nn.gelu(layer_norm(x, ln2_s, ln2_b) @ w1, approximate=True)
    x = x + h @ w2
    logits = layer_norm(x, lnf_s, lnf_b) @ embed.T           # tied, [B,S,V]
    logp = jax.nn.log_softmax(logits, axis=-1)
    nll = -jnp.take_along_axis(logp, targets[..., None], axis=-1)[..., 0]
    return jnp.mean(nll)


VEC = ((D,), "float32", ())
ARGS = [
    ((B, S), "int32", ("dp", None)),      # tokens
    ((B, S), "int32", ("dp", None)),      # targets
    ((V, D), "float32", ("tp", None)),    # embed (vocab-parallel)
    VEC, VEC,                             # ln1 scale, bias
    ((D, D), "float32", (None, "tp")),    # wq (column-parallel)
    ((D, D), "float32", (None, "tp")),    # wk
    ((D, D), "float32", (None, "tp")),    # wv
    ((D, D), "float32", ("tp", None)),    # wo (row-parallel)
    VEC, VEC,                             # ln2 scale, bias
    ((D, F), "float32", (None, "tp")),    # w1 (column-parallel)
    ((F, D), "float32", ("tp", None)),    # w2 (row-parallel)
    VEC, VEC,                             # final ln scale, bias
]
OUT = ()  # scalar loss, replicated
