"""jax.value_and_grad of a jax-export SPEC file's function, in float64, on
the inputs in INPUT_DIR (arg0.npy, arg1.npy, ...: what `npy.py inputs`
writes for the imported program). Writes the loss and the gradients with
respect to ARGNUMS, in argument order, as dist-run --grad does
(result0.npy, result1.npy, ...), so that `npy.py compare` checks a dist-run
output against it.

usage: jax_value_and_grad.py SPEC.py INPUT_DIR OUT_DIR ARGNUMS (e.g. 1,2)
"""
import importlib.util
import os
import sys

import jax

jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402


def main():
    spec_path, src, out, argnums = sys.argv[1:5]
    loader = importlib.util.spec_from_file_location("spec", spec_path)
    spec = importlib.util.module_from_spec(loader)
    loader.loader.exec_module(spec)
    argnums = tuple(int(i) for i in argnums.split(","))
    args = []
    for i in range(len(spec.ARGS)):
        a = np.load(os.path.join(src, f"arg{i}.npy"))
        args.append(jnp.asarray(a, dtype=jnp.float64) if a.dtype.kind == "f" else jnp.asarray(a))
    loss, grads = jax.value_and_grad(spec.fn, argnums=argnums)(*args)
    os.makedirs(out, exist_ok=True)
    for k, r in enumerate([loss, *grads]):
        np.save(os.path.join(out, f"result{k}.npy"), np.asarray(r, dtype=np.float32))


if __name__ == "__main__":
    main()
