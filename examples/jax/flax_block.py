"""A transformer block written with Flax's layers and optax's loss, as a
user writes one: nn.Embed, nn.LayerNorm, nn.MultiHeadDotProductAttention
with nn.make_causal_mask, nn.RMSNorm, nn.Dense, nn.gelu and Embed.attend
for the logits (a tied embedding), then
optax.softmax_cross_entropy_with_integer_labels. Its parameters are the
function's arguments, in the order of Flax's flattened tree (argument k is
leaf k; the token ids and labels come last), replicated; the batch is split
over dp.

    scripts/jax-export.py examples/jax/flax_block.py --mesh dp=2,tp=2 --out block.mlir
    dist-opt --allow-unregistered-dialect block.mlir --convert-stablehlo-to-dist="requires-grad=0,1,...,15"
"""
import flax.linen as nn
import jax
import jax.numpy as jnp
import optax

VOCAB, HIDDEN, HEADS, SEQ, BATCH = 64, 32, 4, 8, 4


class Block(nn.Module):
    @nn.compact
    def __call__(self, ids):
        embed = nn.Embed(VOCAB, HIDDEN)
        h = embed(ids)
        x = nn.LayerNorm()(h)
        mask = nn.make_causal_mask(ids)
        h = h + nn.MultiHeadDotProductAttention(num_heads=HEADS)(x, x, mask=mask)
        x = nn.RMSNorm()(h)
        h = h + nn.Dense(HIDDEN)(nn.gelu(nn.Dense(4 * HIDDEN)(x)))
        return embed.attend(nn.LayerNorm()(h))


model = Block()
params = jax.eval_shape(lambda: model.init(jax.random.PRNGKey(0), jnp.zeros((BATCH, SEQ), jnp.int32)))["params"]
leaves, tree = jax.tree_util.tree_flatten(params)


def fn(*args):
    p = jax.tree_util.tree_unflatten(tree, args[:-2])
    ids, labels = args[-2:]
    logits = model.apply({"params": p}, ids)
    return optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()


ARGS = [(l.shape, "float32", ()) for l in leaves] + [((BATCH, SEQ), "int32", ("dp", None))] * 2
OUT = ()
GRAD = list(range(len(leaves)))  # the parameters (--grad)
