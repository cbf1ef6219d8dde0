"""The reference of cast-bf16.mlir: its step in JAX, bf16 compute between
casts of float32 inputs, the product accumulated in float32 and rounded to
bf16, as mixed-precision training writes it.

usage: mixed_precision.py INPUT_DIR RESULTS_DIR

Prints the loss and, per gradient, its largest difference from dist-run's
relative to the tensor's largest value; exits 1 above 2e-2 (bf16 keeps 8
significant bits, 4e-3 relative; the two backward passes round different
intermediates to bf16) or when a gradient is not float32.
"""

import os
import sys

import jax
import jax.numpy as jnp
import numpy as np

jax.config.update("jax_platforms", "cpu")


def step(x, w):
    y = jnp.matmul(x.astype(jnp.bfloat16), w.astype(jnp.bfloat16), preferred_element_type=jnp.float32)
    y = y.astype(jnp.bfloat16)
    return (y * y).astype(jnp.float32).sum()


def main():
    inputs, results = sys.argv[1:3]
    x, w = (np.load(os.path.join(inputs, f"{n}.npy")) for n in ("x", "w"))
    loss, grads = jax.value_and_grad(step, argnums=(0, 1))(x, w)
    ours = [np.load(os.path.join(results, f"result{k}.npy")) for k in range(3)]
    worst = abs(float(loss) - float(ours[0])) / abs(float(loss))
    for theirs, mine in zip(grads, ours[1:]):
        theirs = np.asarray(theirs, dtype=np.float32)
        if mine.dtype != np.float32:
            sys.exit(f"a gradient is {mine.dtype}, not float32")
        worst = max(worst, float(np.abs(theirs - mine).max() / np.abs(theirs).max()))
    print(f"loss {float(ours[0]):.4f} (jax {float(loss):.4f}); max difference {worst:.1e}")
    sys.exit(0 if worst <= 2e-2 else 1)


if __name__ == "__main__":
    main()
