"""The elementwise functions JAX writes as chlo ops or StableHLO ops that
dist has no op of its own for (tan, sinh, cosh, arctanh, arcsinh,
arccosh, arcsin, arccos, arctan, arctan2, cbrt, lax.round away from zero,
isinf, isposinf, isneginf), each weighted into one loss so that
jax.value_and_grad checks their values and their gradients: over random
inputs, arcsinh past the square's overflow, and special points (zeros,
ties, the quadrants' edges) of arctan2 and of rounding.

    scripts/jax-export.py examples/jax/functions.py --mesh dp=2 --out functions.mlir
"""
import jax
import jax.numpy as jnp
from jax import lax

# atan2's quadrants and their edges, and rounding's ties.
SPECIAL_Y = [0.0, 0.0, 1.0, -1.0, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5, 3.0, 0.0]
SPECIAL_X = [0.0, 1.0, 0.0, 0.0, -1.0, -1.0, 2.0, 2.0, -3.0, -3.0, -0.5, -2.0]
TIES = [0.5, -0.5, 1.5, -2.5, 0.49999997, -0.49999997, 2.0, -3.0]


def fn(x, y):
    t = 0.9 * jnp.tanh(x)
    terms = [
        jnp.tan(0.5 * x),
        jnp.sinh(x),
        jnp.cosh(x),
        jnp.arctanh(t),
        jnp.arcsinh(3.0 * x),
        jnp.arcsinh(1e20 * x),
        jnp.arccosh(1.0 + x * x + 1e-2),
        jnp.arcsin(t),
        jnp.arccos(t),
        jnp.arctan(2.0 * x),
        jnp.arctan2(y, x),
        jnp.cbrt(x),
        lax.round(3.0 * x) * x,
        jnp.where(jnp.isinf(jnp.where(x > 0.5, x / (x - x), x)), x, 2.0 * x),
        jnp.where(jnp.isposinf(jnp.where(x > 0, x / (x - x), x)), x, 3.0 * x),
        jnp.where(jnp.isneginf(jnp.where(x < 0, x / (x - x), x)), x, 4.0 * x),
    ]
    loss = sum((k + 1.0) * jnp.mean(term) for k, term in enumerate(terms))
    weights = jnp.arange(1.0, len(SPECIAL_Y) + 1.0)
    specials = jnp.sum(weights * jnp.arctan2(jnp.array(SPECIAL_Y), jnp.array(SPECIAL_X)))
    ties = jnp.sum(jnp.arange(1.0, len(TIES) + 1.0) * lax.round(jnp.array(TIES, dtype=jnp.float32)))
    return loss + (specials + ties) * jnp.mean(x)


ARGS = [
    ((8, 16), "float32", ("dp", None)),  # x
    ((8, 16), "float32", ("dp", None)),  # y
]
OUT = ()
GRAD = [0, 1]
