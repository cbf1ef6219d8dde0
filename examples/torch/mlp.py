"""A PyTorch MLP (nn.Linear, nn.GELU, nn.LayerNorm) with
torch.nn.functional.cross_entropy against labels, some of them -100: the
first layer column-parallel, the second row-parallel, the data over dp.
Small enough that torch-mlir imports its joint forward-backward graph, so
it also exports with --grad (PyTorch's own backward):

    scripts/torch-export.py examples/torch/mlp.py --mesh dp=2,tp=2 --grad --out mlp-step.mlir
"""
import torch
import torch.nn.functional as F

torch.manual_seed(0)


class MLP(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.up = torch.nn.Linear(16, 32)
        self.act = torch.nn.GELU()
        self.norm = torch.nn.LayerNorm(32)
        self.down = torch.nn.Linear(32, 10)

    def forward(self, x, labels):
        logits = self.down(self.norm(self.act(self.up(x))))
        return F.cross_entropy(logits, labels, ignore_index=-100)


model = MLP()
inputs = (torch.randn(8, 16), torch.randint(0, 10, (8,)))
PLAN = {"up.weight": ("tp", None), "up.bias": ("tp",)}
INPUT_SPECS = [("dp", None), ("dp",)]
