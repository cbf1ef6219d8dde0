#!/usr/bin/env python3
"""Export a PyTorch model's loss, with a sharding plan, to generic-form StableHLO MLIR.

Usage:
    scripts/torch-export.py SPEC.py --mesh dp=2,tp=2 [--grad] [--out FILE] [--pretty]

The PyTorch twin of scripts/jax-export.py: the output is what the JAX path
gives (StableHLO with Shardy's `sdy.mesh` and `#sdy.sharding` on the
arguments, in MLIR's generic form), read by `dist-opt
--allow-unregistered-dialect --convert-stablehlo-to-dist`.

Run by a Python without them, the script runs itself again with the
PyTorch it installs on first use into the ignored .tools/torch-venv:
torch 2.15.0, torch-mlir 20261001 and transformers 5.23.0 from PyPI,
pinned so that exports are reproducible. torch-mlir's wheels are built
for one CPython version, 3.11, so that environment is made with a
python3.11.

SPEC.py is an ordinary Python file defining:

    model        an nn.Module whose forward(*inputs) returns the scalar loss.
    inputs       a tuple of example tensors (their shapes and dtypes are the
                 program's; their values are not exported).
    PLAN         a dict from a parameter-name glob (fnmatch: `*` also matches
                 dots) to a PartitionSpec-style tuple, one entry per dim,
                 each None (replicated), an axis name or a tuple of axis
                 names, e.g. {"*.q_proj.weight": ("tp", None)}; a shorter
                 tuple leaves the trailing dims replicated, as JAX's
                 PartitionSpec does ({"*.q_proj.*": ("tp",)} splits a
                 weight and its bias). The first matching entry wins;
                 unlisted parameters are replicated.
    INPUT_SPECS  one such tuple per input.

The exported function's arguments are the parameters in
`model.named_parameters()` order (tied weights once), then the inputs:
`arg0, arg1, ...` as `dist-run --input` names them. The parameters that
require grad carry `dist.requires_grad`, which --convert-stablehlo-to-dist
keeps (its `requires-grad=` option overrides it). Buffers (a rotary
embedding's `inv_freq`) are constants of the program. The result, the
loss, is replicated.

The model is captured by torch.export (through torch_mlir.fx.export_and_import
with the parameters passed as arguments by torch.func.functional_call) and
lowered by torch-mlir to StableHLO. What torch.export itself refuses (a
`view` of a non-contiguous tensor, data-dependent control flow) is refused
here with its message: that is outside this project.

--grad exports the framework's own backward where torch-mlir can import
it: the loss and the gradients of the parameters that require grad, in
their order, each with its parameter's sharding (the layout `dist-run
--grad` writes): AOTAutograd's joint forward-backward graph
(aot_export_module with trace_joint). Where that trace or its import fails
(torch-mlir lowers no backward of scaled_dot_product_attention, say), the
script says so on one line and exits 1.
"""
import fnmatch
import importlib.util
import os
import subprocess
import sys

import export_cli

PINNED = ["torch==2.15.0", "torch-mlir==20261001", "transformers==5.23.0"]
PYTHON = (3, 11)


def fail(message):
    sys.exit(f"torch-export: {message}")


def reexec_with_torch():
    """Runs this script again with .tools/torch-venv's Python when this one
    lacks torch or torch-mlir, making that environment first if needed."""
    if all(importlib.util.find_spec(m) is not None for m in ("torch", "torch_mlir")):
        return
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    venv = os.path.join(root, ".tools", "torch-venv")
    python = os.path.join(venv, "bin", "python")
    if os.path.abspath(sys.executable) == os.path.abspath(python):
        fail(f"{venv} lacks torch or torch-mlir: remove it to reinstall")
    if not os.path.exists(python):
        if sys.version_info[:2] != PYTHON:
            fail("torch-mlir's wheels are built for CPython %d.%d: run this script with python%d.%d"
                 % (PYTHON + PYTHON))
        print(f"torch-export: installing {' '.join(PINNED)} into .tools/torch-venv", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
        subprocess.run([python, "-m", "pip", "install", "-q", *PINNED], stdout=sys.stderr, check=True)
    os.execv(python, [python, os.path.abspath(__file__), *sys.argv[1:]])



def load_spec(path):
    loader = importlib.util.spec_from_file_location("torch_export_spec", path)
    module = importlib.util.module_from_spec(loader)
    loader.loader.exec_module(module)
    for name in ("model", "inputs", "PLAN", "INPUT_SPECS"):
        if not hasattr(module, name):
            fail(f"{path} defines no {name}")
    if len(module.INPUT_SPECS) != len(module.inputs):
        fail(f"{path}: INPUT_SPECS has {len(module.INPUT_SPECS)} entries for {len(module.inputs)} inputs")
    return module


def sdy_sharding(spec, rank, what, axes):
    """`#sdy.sharding<@mesh, [...]>` of a PartitionSpec-style tuple."""
    spec = tuple(spec)
    if len(spec) > rank:
        fail(f"the spec {spec} of {what} has {len(spec)} entries for rank {rank}")
    dims = []
    for entry in spec + (None,) * (rank - len(spec)):
        names = () if entry is None else (entry,) if isinstance(entry, str) else tuple(entry)
        for name in names:
            if name not in axes:
                fail(f"the spec of {what} names axis {name!r}, which the mesh ({', '.join(axes)}) lacks")
        dims.append("{" + ", ".join(f'"{n}"' for n in names) + "}")
    return f"#sdy.sharding<@mesh, [{', '.join(dims)}]>"


def plan_spec(plan, name):
    """The PartitionSpec of parameter `name`: the first glob that matches."""
    for pattern, spec in plan.items():
        if fnmatch.fnmatchcase(name, pattern):
            return spec
    return ()


def inline_literals():
    """Makes torch-mlir write tensor literals (buffers) as dense elements
    instead of dense_resource blobs, which the importer reads as values."""
    import numpy as np
    from torch_mlir.extras import fx_importer
    from torch_mlir.ir import DenseElementsAttr

    class Dense:
        @staticmethod
        def get_from_buffer(buffer, _name, tensor_type):
            array = np.asarray(buffer).reshape(tensor_type.shape)
            return DenseElementsAttr.get(array, type=tensor_type.element_type)

    fx_importer.DenseResourceElementsAttr = Dense


def main():
    reexec_with_torch()
    opts = export_cli.arguments("torch-export", __doc__, "Python file defining model, inputs, PLAN and INPUT_SPECS",
                                 "export the loss and the gradients of the parameters that require grad")
    axes = opts.axes

    import torch
    from torch_mlir import fx, ir

    spec = load_spec(opts.spec)
    model = spec.model
    named = list(model.named_parameters())
    names = [n for n, _ in named]
    # A non-persistent buffer (inv_freq) is outside the state dict that
    # torch-mlir's frozen import reads constants from.
    for module in model.modules():
        module._non_persistent_buffers_set.clear()
    inline_literals()

    class Flat(torch.nn.Module):
        """The model with its parameters as leading arguments."""

        def __init__(self):
            super().__init__()
            self.model = model

        def forward(self, *args):
            params = dict(zip(names, args[:len(names)]))
            return torch.func.functional_call(self.model, params, tuple(args[len(names):]))

    params = [p.detach() for _, p in named]
    trained = [i for i, (_, p) in enumerate(named) if p.requires_grad]
    try:
        if opts.grad:
            module = export_grad(model, spec.inputs)
        else:
            module = fx.export_and_import(Flat(), *params, *spec.inputs, output_type="stablehlo")
    except Exception as e:  # torch.export's and torch-mlir's own refusals
        if opts.grad:
            fail(f"--grad: torch-mlir cannot import this model's forward-backward graph ({reason(e)}); "
                 "export the forward and let dist-run --grad differentiate it")
        fail(f"torch.export / torch-mlir refused the model: {reason(e)}")

    mesh_axes = [n for n, _ in axes]
    arg_specs = [sdy_sharding(plan_spec(spec.PLAN, n), p.dim(), n, mesh_axes) for n, p in named]
    arg_specs += [sdy_sharding(s, x.dim(), f"input {i}", mesh_axes) for i, (s, x) in
                  enumerate(zip(spec.INPUT_SPECS, spec.inputs))]
    result_specs = ["#sdy.sharding<@mesh, []>"] + ([arg_specs[i] for i in trained] if opts.grad else [])
    # A --grad export is a whole step: nothing left to differentiate.
    marked = [i in trained and not opts.grad for i in range(len(arg_specs))]
    annotate(module, ir, axes, arg_specs, marked, result_specs)
    export_cli.write(module, opts)


def reason(error):
    """One line of a refusal: the op torch-mlir could not lower, or the
    first line that names an error."""
    import re
    text = str(error)
    op = re.search(r'name = "(torch\.aten\.[A-Za-z0-9_.]+)"', text)
    if op:
        return f"torch-mlir has no lowering of {op.group(1)}"
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    named = [line for line in lines if "error:" in line or "exception:" in line]
    return (named or lines or [type(error).__name__])[0]


def export_grad(model, inputs):
    """The loss and the gradients of the parameters that require grad, in
    their order: AOTAutograd's joint forward-backward graph of `model`
    (its parameters lifted to leading arguments, its buffers constants),
    imported by torch-mlir."""
    import torch
    from torch._functorch.aot_autograd import aot_export_module
    from torch_mlir import fx
    from torch_mlir.extras.fx_decomp_util import get_decomposition_table

    # Buffers as plain tensors of their modules: constants of the graph,
    # not arguments.
    for module in model.modules():
        for name, buffer in list(module._buffers.items()):
            del module._buffers[name]
            setattr(module, name, buffer)

    class Loss(torch.nn.Module):
        """The model with a tuple result, as AOTAutograd exports it."""

        def __init__(self):
            super().__init__()
            self.model = model

        def forward(self, *args):
            return (self.model(*args),)

    graph, _ = aot_export_module(Loss(), list(inputs), trace_joint=True, output_loss_index=0,
                                 decompositions=get_decomposition_table())
    return fx.stateless_fx_import(graph, output_type="stablehlo")


def annotate(module, ir, axes, arg_specs, requires_grad, result_specs):
    """Adds the mesh, the arguments' shardings and requires-grad marks and
    the results' shardings to the exported @main."""
    context = module.context
    context.allow_unregistered_dialects = True
    with context, ir.Location.unknown():
        body = module.body
        main = next(op for op in body.operations if op.operation.name == "func.func")
        mesh = ", ".join(f'"{n}"={s}' for n, s in axes)
        op = ir.Operation.parse(f'"sdy.mesh"() <{{mesh = #sdy.mesh<[{mesh}]>, sym_name = "mesh"}}> : () -> ()')
        ir.InsertionPoint(main).insert(op)
        arg_count = len(ir.FunctionType(ir.TypeAttr(main.attributes["function_type"]).value).inputs)
        if arg_count != len(arg_specs):
            fail(f"the export has {arg_count} arguments where the model has {len(arg_specs)} parameters and inputs")

        def dictionary(entries):
            return ir.DictAttr.get({k: ir.Attribute.parse(v) if isinstance(v, str) else v for k, v in entries})

        main.attributes["arg_attrs"] = ir.ArrayAttr.get([
            dictionary([("sdy.sharding", s)] + ([("dist.requires_grad", ir.UnitAttr.get())] if g else []))
            for s, g in zip(arg_specs, requires_grad)])
        main.attributes["res_attrs"] = ir.ArrayAttr.get([dictionary([("sdy.sharding", s)]) for s in result_specs])


if __name__ == "__main__":
    main()
