"""An MLP written with Flax's layers (nn.Dense, nn.gelu, nn.LayerNorm) and
optax's softmax_cross_entropy_with_integer_labels, as a user writes one:
the parameters are the function's arguments (the tree Flax's init makes,
passed leaf by leaf), the data split over dp and the first layer over tp.

    scripts/jax-export.py examples/jax/flax_mlp.py --mesh dp=2,tp=2 --out mlp.mlir
    dist-opt --allow-unregistered-dialect mlp.mlir --convert-stablehlo-to-dist="requires-grad=1,2,3,4,5,6"
"""
import flax.linen as nn
import jax.numpy as jnp
import optax


class MLP(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.Dense(32)(x)
        x = nn.gelu(x)
        x = nn.LayerNorm()(x)
        return nn.Dense(10)(x)


model = MLP()


def fn(x, k1, b1, scale, bias, k2, b2, labels):
    params = {"Dense_0": {"kernel": k1, "bias": b1}, "LayerNorm_0": {"scale": scale, "bias": bias},
              "Dense_1": {"kernel": k2, "bias": b2}}
    logits = model.apply({"params": params}, x)
    return optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()


ARGS = [
    ((8, 16), "float32", ("dp", None)),
    ((16, 32), "float32", (None, "tp")),
    ((32,), "float32", ("tp",)),
    ((32,), "float32", ()),
    ((32,), "float32", ()),
    ((32, 10), "float32", ()),
    ((10,), "float32", ()),
    ((8,), "int32", ("dp",)),
]
OUT = ()
GRAD = [1, 2, 3, 4, 5, 6]  # the parameters (--grad)
