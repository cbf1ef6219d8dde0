"""A classifier with GPT-J's rotary embedding (rotate_every_two: the even
and odd features by strided slices, x[..., ::2] and x[..., 1::2]) whose
loss counts the examples it gets wrong twice (jnp.argmax, which carries no
gradient): the strided slices, JAX's backward of them (padding with
interior padding) and the argmax, as a user writes them.

    scripts/jax-export.py examples/jax/rotary_argmax.py --mesh dp=2,tp=2 --out fwd.mlir
    scripts/jax-export.py examples/jax/rotary_argmax.py --mesh dp=2,tp=2 --grad --out step.mlir
"""
import jax
import jax.numpy as jnp


def rotate_every_two(x):
    x1 = x[..., ::2]
    x2 = x[..., 1::2]
    return jnp.stack((-x2, x1), axis=-1).reshape(x.shape)


def fn(x, w_in, w_out, labels):
    h = x @ w_in
    angles = jnp.arange(h.shape[-1] // 2) / (h.shape[-1] // 2)
    sin, cos = jnp.repeat(jnp.sin(angles), 2), jnp.repeat(jnp.cos(angles), 2)
    h = h * cos + rotate_every_two(h) * sin
    logits = jnp.tanh(h) @ w_out
    logp = jax.nn.log_softmax(logits)
    nll = -jnp.take_along_axis(logp, labels[:, None], axis=-1)[:, 0]
    wrong = jnp.argmax(logits, axis=-1) != labels
    return jnp.mean(nll * (1.0 + wrong))


ARGS = [
    ((16, 16), "float32", ("dp", None)),  # x
    ((16, 32), "float32", (None, "tp")),  # w_in
    ((32, 4), "float32", ("tp", None)),   # w_out
    ((16,), "int32", ("dp",)),            # labels
]
OUT = ()
GRAD = [1, 2]
