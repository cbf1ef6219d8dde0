"""The Llama block of llama-block.mlir against JAX: it is a one-layer Llama
(4 query heads sharing 2 key/value heads), so scripts/jax_llama.py's model,
written independently as the usual Llama code has it, differentiates it in
float64 once the block's parameters take that model's names. Writes the
loss and its gradients with respect to the parameters, in argument order,
as dist-run --grad does (result0.npy, result1.npy, ...), so that `npy.py
compare` checks a dist-run output against it.

usage: llama_jax.py INPUT_DIR OUT_DIR
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "scripts"))
import jax_llama  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

# The block's parameters, in argument order, by the model's names.
PARAMS = {"embed": "embed", "attn_norm": "attn_norm_0", "wq": "wq_0", "wk": "wk_0", "wv": "wv_0",
          "wo": "wo_0", "mlp_norm": "mlp_norm_0", "wgate": "w1_0", "wup": "w3_0", "wdown": "w2_0",
          "final_norm": "final_norm", "lm_head": "lm_head"}


def main():
    src, out = sys.argv[1], sys.argv[2]
    read = lambda name: np.load(os.path.join(src, f"{name}.npy"))
    params = {model: jnp.asarray(read(block), dtype=jnp.float64) for block, model in PARAMS.items()}
    data = [jnp.asarray(read("ids")), jnp.asarray(read("labels")),
            jnp.asarray(read("cos"), dtype=jnp.float64), jnp.asarray(read("sin"), dtype=jnp.float64)]
    loss, grads = jax_llama.model(1, 4, 2)(params, *data)
    os.makedirs(out, exist_ok=True)
    for i, r in enumerate([loss] + [grads[model] for model in PARAMS.values()]):
        np.save(os.path.join(out, f"result{i}.npy"), np.asarray(r, dtype=np.float32))


if __name__ == "__main__":
    main()
