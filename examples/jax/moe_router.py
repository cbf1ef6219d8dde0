"""A mixture-of-experts layer as a JAX user writes it (Mixtral's router):
softmax over the experts, jax.lax.top_k of each token's two best, the two
weights renormalised, every expert's output combined by one-hots of the
chosen indices, and the Switch Transformer's load-balancing loss (the
fraction of choices each expert gets, which carries no gradient, times its
mean router probability). lax.top_k exports as the two-result chlo.top_k.

    scripts/jax-export.py examples/jax/moe_router.py --mesh dp=2,tp=2 --out fwd.mlir
    scripts/jax-export.py examples/jax/moe_router.py --mesh dp=2,tp=2 --grad --out step.mlir
"""
import jax
import jax.numpy as jnp

EXPERTS = 4
TOP_K = 2


def fn(x, w_router, w_experts, y):
    probs = jax.nn.softmax(x @ w_router, axis=-1)
    weights, experts = jax.lax.top_k(probs, TOP_K)
    weights = weights / jnp.sum(weights, axis=-1, keepdims=True)
    chosen = jax.nn.one_hot(experts, EXPERTS)
    combine = jnp.einsum("tk,tke->te", weights, chosen)
    outs = jnp.tanh(jnp.einsum("th,ehf->tef", x, w_experts))
    y_hat = jnp.einsum("te,tef->tf", combine, outs)
    fraction = jnp.mean(jnp.sum(chosen, axis=1), axis=0)
    balance = EXPERTS * jnp.sum(fraction * jnp.mean(probs, axis=0))
    return jnp.mean((y_hat - y) ** 2) + 0.01 * balance


ARGS = [
    ((16, 8), "float32", ("dp", None)),              # x
    ((8, EXPERTS), "float32", ()),                   # w_router
    ((EXPERTS, 8, 8), "float32", (None, None, "tp")),  # w_experts
    ((16, 8), "float32", ("dp", None)),              # y
]
OUT = ()
GRAD = [1, 2]
