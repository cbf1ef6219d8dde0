"""An MLP whose loss JAX differentiates only in part: the prediction is
pulled towards a target it makes itself, held fixed by lax.stop_gradient
(as a TD target or a teacher's distillation target is). A forward export
loses the stop (StableHLO has none: JAX applies it while differentiating),
so its gradients are those of another function; export it with --grad,
JAX's backward with it:

    scripts/jax-export.py examples/jax/stop_gradient.py --mesh dp=2,tp=2 --grad --out step.mlir
    dist-opt --allow-unregistered-dialect step.mlir --convert-stablehlo-to-dist -o step.dist.mlir
    dist-run step.dist.mlir --entry main -n 4 --input-dir in --out out   # the loss, then dw1 and dw2
"""
import jax
import jax.numpy as jnp


def fn(x, w1, w2, y):
    h = jax.nn.relu(x @ w1)
    pred = h @ w2
    target = jax.lax.stop_gradient(0.5 * pred + 0.5 * y)
    return jnp.mean((pred - target) ** 2) + jnp.mean((pred - y) ** 2)


ARGS = [
    ((8, 16), "float32", ("dp", None)),   # x
    ((16, 32), "float32", (None, "tp")),  # w1
    ((32, 16), "float32", ("tp", None)),  # w2
    ((8, 16), "float32", ("dp", None)),   # y
]
OUT = ()
GRAD = [1, 2]
