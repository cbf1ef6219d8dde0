// REQUIRES: ptxas
// What a GPU training step asks of the driver, counted by the stand-in
// driver (Inputs/mock_cuda.c: kernels are not run): the GPT step at hidden
// 1024 (the GPU issue's measurement) and a Llama step of the same width,
// each run for one step and for two, the difference being the cost of
// every further step. The numbers are today's, the budgets of the GPU issue
// (docs/gpu.md) are far below them: a host synchronisation per launch (none
// at frees: the allocator keeps freed blocks, and their next user is
// ordered after their last), every buffer managed memory, and products
// with more than three loops on the grid (the attention's), launched once
// per step of a host loop over their outer dims (elementwise ops of more
// than three parallel loops loop over those inside each thread: before,
// they too made host loops, 2,488 launches a Llama step).
// RUN: rm -rf %t && mkdir -p %t/lib
// RUN: cc -shared -fPIC -o %t/lib/libcuda.so.1 %S/Inputs/mock_cuda.c
// RUN: dist-gen gpt --layers 1 --dp 1 --tp 1 --batch 4 --seq 128 --heads 16 --head-dim 64 --vocab 1024 > %t/gpt.mlir
// RUN: %python %S/../../scripts/npy.py inputs %t/gpt.mlir gpt_step %t/gpt-in > /dev/null
// RUN: env LD_LIBRARY_PATH=%t/lib MOCK_CUDA_LOG=%t/gpt1.log dist-run %t/gpt.mlir --entry gpt_step -n 1 --input-dir %t/gpt-in --out %t/gpt-out --device gpu --repeat 1
// RUN: env LD_LIBRARY_PATH=%t/lib MOCK_CUDA_LOG=%t/gpt2.log dist-run %t/gpt.mlir --entry gpt_step -n 1 --input-dir %t/gpt-in --out %t/gpt-out --device gpu --repeat 2
// RUN: %python %S/Inputs/mock_step_counts.py %t/gpt1.log %t/gpt2.log | FileCheck %s --check-prefix=GPT
// GPT: per step: 108 launches, 44 fills, 108 host synchronisations, 15 new allocations (15 managed); start-up: 47 modules, 97 blocks
// RUN: dist-gen llama --layers 1 --dp 1 --tp 1 --batch 4 --seq 128 --heads 16 --kv-heads 4 --head-dim 64 --ffn 2816 --vocab 1024 > %t/llama.mlir
// RUN: %python %S/../../scripts/npy.py inputs %t/llama.mlir llama_step %t/llama-in > /dev/null
// RUN: env LD_LIBRARY_PATH=%t/lib MOCK_CUDA_LOG=%t/llama1.log dist-run %t/llama.mlir --entry llama_step -n 1 --input-dir %t/llama-in --out %t/llama-out --device gpu --repeat 1
// RUN: env LD_LIBRARY_PATH=%t/lib MOCK_CUDA_LOG=%t/llama2.log dist-run %t/llama.mlir --entry llama_step -n 1 --input-dir %t/llama-in --out %t/llama-out --device gpu --repeat 2
// RUN: %python %S/Inputs/mock_step_counts.py %t/llama1.log %t/llama2.log | FileCheck %s --check-prefix=LLAMA
// LLAMA: per step: 183 launches, 43 fills, 183 host synchronisations, 13 new allocations (13 managed); start-up: 57 modules, 107 blocks
