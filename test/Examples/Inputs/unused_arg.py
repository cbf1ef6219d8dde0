"""An MLP loss that does not read its second argument (a step count, a
dropout key a config turned off): with JAX's default the export would drop
it and shift the later arguments' indices."""
import jax
import jax.numpy as jnp


def fn(x, step, w1, w2):
    return jnp.mean(jnp.tanh(x @ w1) @ w2)


ARGS = [
    ((8, 16), "float32", ("dp", None)),   # x
    ((), "float32", ()),                  # step, unused
    ((16, 32), "float32", (None, "tp")),  # w1
    ((32, 4), "float32", ("tp", None)),   # w2
]
OUT = ()
