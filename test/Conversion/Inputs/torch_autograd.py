"""PyTorch autograd of a torch-export SPEC file's model, in float64, on the
inputs in INPUT_DIR (arg0.npy, arg1.npy, ...: what `npy.py inputs` writes
for the imported program: the parameters in named_parameters() order, then
the inputs). Writes the loss and the gradients of the parameters that
require grad, in their order, as dist-run --grad does (result0.npy,
result1.npy, ...), so that `npy.py compare` checks a dist-run output
against it.

usage: torch_autograd.py SPEC.py INPUT_DIR OUT_DIR
"""
import importlib.util
import os
import sys

import numpy as np
import torch


def main():
    spec_path, src, out = sys.argv[1:4]
    loader = importlib.util.spec_from_file_location("spec", spec_path)
    spec = importlib.util.module_from_spec(loader)
    loader.loader.exec_module(spec)
    model = spec.model.double()
    named = list(model.named_parameters())
    arrays = [np.load(os.path.join(src, f"arg{i}.npy")) for i in range(len(named) + len(spec.inputs))]
    with torch.no_grad():
        for (_, p), a in zip(named, arrays):
            p.copy_(torch.from_numpy(a.astype(np.float64)))
    inputs = [torch.from_numpy(a.astype(np.float64) if a.dtype.kind == "f" else a) for a in arrays[len(named):]]
    loss = model(*inputs)
    trained = [p for _, p in named if p.requires_grad]
    grads = torch.autograd.grad(loss, trained)
    os.makedirs(out, exist_ok=True)
    for k, r in enumerate([loss, *grads]):
        np.save(os.path.join(out, f"result{k}.npy"), r.detach().numpy().astype(np.float32))


if __name__ == "__main__":
    main()
