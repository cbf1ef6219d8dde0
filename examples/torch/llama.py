"""Hugging Face transformers' LlamaForCausalLM (2 layers, grouped-query
attention) with its own loss against labels, split as Megatron splits it:
q/k/v/gate/up column-parallel, o/down row-parallel, the embedding and the
LM head over the vocabulary, the data over dp.

    scripts/torch-export.py examples/torch/llama.py --mesh dp=2,tp=2 --out llama.mlir
    dist-opt --allow-unregistered-dialect llama.mlir --convert-stablehlo-to-dist -o llama-dist.mlir
    dist-run llama-dist.mlir --entry main --grad -n 4 ...

The labels are the ids (HF shifts them inside the loss); entries of -100
are left out of the mean, as PyTorch's cross-entropy does.
"""
import torch
from transformers import LlamaConfig, LlamaForCausalLM

torch.manual_seed(0)
CONFIG = LlamaConfig(vocab_size=64, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                     num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=16,
                     tie_word_embeddings=False)


class CausalLMLoss(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.llama = LlamaForCausalLM(CONFIG)

    def forward(self, ids, labels):
        return self.llama(input_ids=ids, labels=labels).loss


model = CausalLMLoss()
inputs = (torch.randint(0, CONFIG.vocab_size, (4, 8)), torch.randint(0, CONFIG.vocab_size, (4, 8)))

# Linear weights are [out, in]: a column-parallel layer splits dim 0.
PLAN = {
    "*.embed_tokens.weight": ("tp", None),
    "*.q_proj.weight": ("tp", None),
    "*.k_proj.weight": ("tp", None),
    "*.v_proj.weight": ("tp", None),
    "*.o_proj.weight": (None, "tp"),
    "*.gate_proj.weight": ("tp", None),
    "*.up_proj.weight": ("tp", None),
    "*.down_proj.weight": (None, "tp"),
    "*lm_head.weight": ("tp", None),
}
INPUT_SPECS = [("dp", None), ("dp", None)]
