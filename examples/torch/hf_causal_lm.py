"""A small Hugging Face transformers *ForCausalLM decoder other than Llama
(HF_MODEL: Qwen2 by default; Mistral, Gemma, Phi3, Qwen3, Olmo, Granite
also import), with its own loss against labels, the attention projections
split as Megatron splits them (q/k/v column-parallel, o row-parallel;
Phi3's fused qkv_proj stays replicated), the LM head over the vocabulary
and the data over dp:

    HF_MODEL=Gemma scripts/torch-export.py examples/torch/hf_causal_lm.py --mesh dp=2,tp=2 --out gemma.mlir
"""
import os

import torch
import transformers

torch.manual_seed(0)
NAME = os.environ.get("HF_MODEL", "Qwen2")
SIZES = dict(vocab_size=64, hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=4,
             num_key_value_heads=2, max_position_embeddings=16, tie_word_embeddings=False)
EXTRA = {"Gemma": dict(head_dim=8), "Phi3": dict(pad_token_id=0)}
CONFIG = getattr(transformers, NAME + "Config")(**SIZES, **EXTRA.get(NAME, {}))


class CausalLMLoss(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lm = getattr(transformers, NAME + "ForCausalLM")(CONFIG)

    def forward(self, ids, labels):
        return self.lm(input_ids=ids, labels=labels).loss


model = CausalLMLoss()
inputs = (torch.randint(0, CONFIG.vocab_size, (4, 8)), torch.randint(0, CONFIG.vocab_size, (4, 8)))
PLAN = {
    "*.q_proj.*": ("tp",),
    "*.k_proj.*": ("tp",),
    "*.v_proj.*": ("tp",),
    "*.o_proj.weight": (None, "tp"),
    "*lm_head.weight": ("tp", None),
}
INPUT_SPECS = [("dp", None), ("dp", None)]
