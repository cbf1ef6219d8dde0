"""2-layer MLP loss on a (dp, tp) mesh."""
import jax
import jax.numpy as jnp


def fn(x, w1, w2, y):
    h = jax.nn.relu(x @ w1)
    return jnp.mean((h @ w2 - y) ** 2)


ARGS = [
    ((8, 16), "float32", ("dp", None)),   # x
    ((16, 32), "float32", (None, "tp")),  # w1
    ((32, 16), "float32", ("tp", None)),  # w2
    ((8, 16), "float32", ("dp", None)),   # y
]
OUT = ()  # scalar loss, replicated
