"""Causal grouped-query attention's loss and gradients in JAX, timed: the
peer of dist.attention in scripts/bench-attention.sh.

  jax_attention.py IN_DIR OUT_DIR REPEAT

reads q, k, v and w (IN_DIR/<name>.npy, as npy.py inputs writes them for
the bench's program), computes sum(attention(q, k, v) * w) and its
gradients with jax.jit(jax.value_and_grad(...)), writes them as
OUT_DIR/result<K>.npy (the loss, then dq, dk, dv: dist-run --grad's
order) and prints the median of REPEAT calls in milliseconds."""
import os
import sys
import time

import jax
import jax.numpy as jnp
import numpy as np


def main():
    src, out, repeat = sys.argv[1], sys.argv[2], int(sys.argv[3])
    q, k, v, w = (jnp.asarray(np.load(os.path.join(src, f"{n}.npy"))) for n in "qkvw")
    n, d = q.shape[-2], q.shape[-1]

    def loss(q, k, v):
        s = jnp.einsum("bhgqd,bhzkd->bhgqk", q, k) / np.sqrt(d)
        s = jnp.where(jnp.tril(jnp.ones((n, n), bool)), s, -jnp.inf)
        o = jnp.einsum("bhgqk,bhzkd->bhgqd", jax.nn.softmax(s, axis=-1), v)
        return jnp.sum(o * w)

    step = jax.jit(jax.value_and_grad(loss, argnums=(0, 1, 2)))
    value, grads = jax.block_until_ready(step(q, k, v))
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        jax.block_until_ready(step(q, k, v))
        times.append(time.perf_counter() - start)
    os.makedirs(out, exist_ok=True)
    for i, x in enumerate([value, *grads]):
        np.save(os.path.join(out, f"result{i}.npy"), np.asarray(x, np.float32))
    print(f"{sorted(times)[len(times) // 2] * 1e3:.2f}")


if __name__ == "__main__":
    main()
