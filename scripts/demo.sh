#!/usr/bin/env bash
# The main job. First the reports on the shipped Megatron MLP step: its
# collectives (after propagation, partial resolution with gradient buckets,
# split matmul gradients and overlap) and how much communication the cost
# model says stays exposed. Then the shipped GPT-block training step on its
# 2 x 2 mesh through the whole pipeline (partition, lowering, LLVM, the MPI
# runtime) on 4 processes, against the unpartitioned run: the loss and the
# largest difference of any result. Last, dist-gen's Llama step (two
# layers, grouped-query attention, rotary embeddings, SwiGLU, the
# vocabulary-parallel cross-entropy) on dp x sp x tp = 2 x 2 x 2, 8
# processes, against -n 1 alike.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cargo build -q --release --workspace
bin=target/release
"$bin/dist-opt" examples/megatron-mlp.mlir --dist-propagate-sharding --dist-resolve-partial="bucket-mib=1" \
  --dist-split-matmul-grad --dist-overlap-collectives --dist-verify-sharding --dist-comm-report \
  --dist-overlap-report -o /dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 scripts/npy.py inputs examples/gpt-block.mlir gpt_step "$work/in" --id-range 256 > /dev/null
"$bin/dist-run" examples/gpt-block.mlir --entry gpt_step -n 1 --input-dir "$work/in" --out "$work/reference"
"$bin/dist-run" examples/gpt-block.mlir --entry gpt_step -n 4 --input-dir "$work/in" --out "$work/sharded" \
  --overlap -O3
python3 scripts/npy.py compare "$work/reference" "$work/sharded"
"$bin/dist-gen" llama --layers 2 --dp 2 --tp 2 --sp 2 --forward-only > "$work/llama.mlir"
python3 scripts/npy.py inputs "$work/llama.mlir" llama_step "$work/llama-in" --id-range 256 --scale 0.1 > /dev/null
"$bin/dist-run" "$work/llama.mlir" --grad --entry llama_step -n 1 --input-dir "$work/llama-in" --out "$work/llama-1"
"$bin/dist-run" "$work/llama.mlir" --grad --entry llama_step -n 8 --input-dir "$work/llama-in" --out "$work/llama-8" -O3
python3 scripts/npy.py compare "$work/llama-1" "$work/llama-8"
