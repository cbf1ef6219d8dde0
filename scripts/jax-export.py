#!/usr/bin/env python3
"""Export a JAX function with NamedShardings to generic-form StableHLO MLIR.

Usage:
    scripts/jax-export.py SPEC.py --mesh dp=2,tp=2 [--grad] [--out FILE] [--pretty]

Run by a Python without JAX, the script runs itself again with the JAX that
scripts/setup.sh installs from PyPI into the ignored .tools/jax-venv (running
setup first when that environment is missing), as scripts/bench-vs-xla.sh
does: one pinned JAX (0.10.2), so exports are reproducible.

examples/jax/mlp.py and examples/jax/block.py are such SPEC files (an MLP and
a transformer block with causal attention, a tied embedding and a
cross-entropy); their exports on a 2 x 2 mesh are checked in under
test/Conversion/Inputs/stablehlo/ as the inputs of the StableHLO import.

A SPEC that imports flax or optax gets them on first use: flax 0.12.8 and
optax 0.2.8, which resolve with the pinned JAX, installed into the same
environment.

SPEC.py is an ordinary Python file defining:

    fn    the function to export (positional array arguments only).
    ARGS  a list with one entry per argument of fn: (shape, dtype, spec), e.g.
              ARGS = [((8, 16), "float32", ("dp", None)),
                      ((8,),    "int32",   ("dp",))]
          `spec` is a PartitionSpec tuple: one entry per dimension, each None
          (replicated), an axis name, or a tuple of axis names; () means fully
          replicated.
    OUT   (optional) the output sharding spec, in the same form; a list of
          specs if fn returns several arrays.  If omitted, output shardings are
          left unspecified (the partitioner chooses).

    GRAD  (with --grad) the indices of the arguments to differentiate.

--grad exports JAX's own backward with the function: jax.value_and_grad of
fn over the GRAD arguments, returning the loss, then their gradients in
GRAD's order, each with its argument's sharding (the loss with OUT's, or
replicated): the layout `dist-run --grad` writes. Imported by
--convert-stablehlo-to-dist (without requires-grad) it is a whole training
step that dist-run runs without --grad. Use it where the forward export
loses what JAX's differentiation sees: lax.stop_gradient, jax.custom_vjp,
remat policies.

--mesh gives the device mesh as NAME=SIZE pairs, in major-to-minor order.
The script forces that many host (CPU) devices through XLA_FLAGS before jax is
imported, so SPEC.py may import jax / jax.numpy at top level.

The function is lowered with
    jax.jit(fn, in_shardings=..., out_shardings=..., keep_unused=True).lower(*ShapeDtypeStructs)
(every argument kept, used or not, so that argument k of the export is
argument k of fn).
and printed with
    lowered.compiler_ir("stablehlo").operation.get_asm(print_generic_op_form=True)
(no debug locations, no constant elision).  Shardy is JAX's default partitioner
here, so shardings appear as an `sdy.mesh` op plus `#sdy.sharding<...>` argument
and result attributes.  The text is written to --out (default: stdout).
--pretty prints MLIR's custom (non-generic) form instead, for reading.
"""
import importlib.util
import math
import os
import subprocess
import sys

import export_cli



def reexec_with_jax():
    """Runs this script again with .tools/jax-venv's Python when this one
    has no JAX (without importing it: XLA_FLAGS must be set first)."""
    if importlib.util.find_spec("jax") is not None:
        return
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    python = os.path.join(root, ".tools", "jax-venv", "bin", "python")
    if not os.path.exists(python):
        subprocess.run([os.path.join(root, "scripts", "setup.sh")], cwd=root, stdout=sys.stderr, check=True)
    os.execv(python, [python, os.path.abspath(__file__), *sys.argv[1:]])


# Flax and optax as the SPEC files may use them: versions that resolve
# with the pinned JAX (which pip then keeps), installed into this Python's
# environment on first use.
LIBRARIES = {"flax": "flax==0.12.8", "optax": "optax==0.2.8"}


def load_spec(path):
    """The SPEC module, Flax and optax installed first if it imports them
    and they are missing."""
    while True:
        loader = importlib.util.spec_from_file_location("jax_export_spec", path)
        module = importlib.util.module_from_spec(loader)
        try:
            loader.loader.exec_module(module)
            return module
        except ModuleNotFoundError as e:
            top = (e.name or "").split(".")[0]
            if top not in LIBRARIES or importlib.util.find_spec(top) is not None:
                raise
            import jax
            print(f"jax-export: installing {' '.join(LIBRARIES.values())} (the SPEC imports {top})", file=sys.stderr)
            subprocess.run([sys.executable, "-m", "pip", "install", "-q", f"jax=={jax.__version__}",
                            *LIBRARIES.values()], stdout=sys.stderr, check=True)
            importlib.invalidate_caches()


def main():
    reexec_with_jax()
    opts = export_cli.arguments("jax-export", __doc__, "Python file defining fn, ARGS and optionally OUT",
                                 "export jax.value_and_grad of fn over the SPEC's GRAD arguments: the loss, then the gradients")

    axes = opts.axes
    ndev = math.prod(size for _, size in axes)
    # Must happen before jax is imported (by us or by the spec file).
    if "jax" in sys.modules:
        sys.exit("jax-export: jax was imported too early")
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "")
                               + f" --xla_force_host_platform_device_count={ndev}").strip()

    import jax
    from jax.sharding import Mesh, NamedSharding, PartitionSpec as P
    import numpy as np

    jax.config.update("jax_use_shardy_partitioner", True)  # default in JAX >= 0.7

    spec_mod = load_spec(opts.spec)

    devices = jax.devices()
    if len(devices) < ndev:
        sys.exit(f"jax-export: need {ndev} devices, have {len(devices)}")
    mesh = Mesh(np.array(devices[:ndev]).reshape([s for _, s in axes]),
                tuple(n for n, _ in axes))

    def sharding(spec):
        return NamedSharding(mesh, P(*spec))

    args, in_shardings = [], []
    for shape, dtype, spec in spec_mod.ARGS:
        s = sharding(spec)
        args.append(jax.ShapeDtypeStruct(tuple(shape), np.dtype(dtype), sharding=s))
        in_shardings.append(s)

    jit_kwargs = {"in_shardings": tuple(in_shardings)}
    out = getattr(spec_mod, "OUT", None)
    fn = spec_mod.fn
    if opts.grad:
        argnums = tuple(getattr(spec_mod, "GRAD", ()))
        if not argnums or any(not 0 <= i < len(args) for i in argnums):
            sys.exit(f"jax-export: --grad needs GRAD in {opts.spec}: the indices of the arguments to differentiate, "
                     f"each below {len(args)} (e.g. GRAD = [1, 2])")
        value_and_grad = jax.value_and_grad(spec_mod.fn, argnums=argnums)

        def fn(*a):
            loss, grads = value_and_grad(*a)
            return [loss, *grads]

        out = [() if out is None else out] + [spec_mod.ARGS[i][2] for i in argnums]
    if out is not None:
        jit_kwargs["out_shardings"] = (
            [sharding(s) for s in out] if isinstance(out, list) else sharding(out))

    # Every argument stays, used or not: the importer's requires-grad
    # indices are the SPEC's argument positions.
    lowered = jax.jit(fn, keep_unused=True, **jit_kwargs).lower(*args)
    module = lowered.compiler_ir("stablehlo")
    export_cli.write(module, opts)


if __name__ == "__main__":
    main()
