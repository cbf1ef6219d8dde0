// REQUIRES: ptxas
// Every kernel of the shipped GPT block (2x2 mesh, per-device program)
// assembles with ptxas, for sm_90 and sm_80; so does the scheduled step
// (split matmul gradients, async collectives).
// RUN: dist-opt %S/../../examples/gpt-block.mlir --dist-partition-pipeline --dist-lower-to-gpu=matmul=generated --emit=ptx -o %t.sm90.ptx
// RUN: %python %S/Inputs/ptxas_each.py %ptxas sm_90 %t.sm90.ptx | FileCheck %s --check-prefix=SM90
// RUN: dist-opt %S/../../examples/gpt-block.mlir --pass-pipeline='builtin.module(dist-partition-pipeline,dist-gpu-kernels{matmul=generated},dist-compile-gpu-kernels{chip=sm_80},dist-gpu-host-to-llvm)' --emit=ptx -o %t.sm80.ptx
// RUN: %python %S/Inputs/ptxas_each.py %ptxas sm_80 %t.sm80.ptx | FileCheck %s --check-prefix=SM80
// RUN: dist-gen gpt --layers 1 --dp 2 --tp 2 | dist-opt - --dist-propagate-sharding=remarks=none --dist-resolve-partial --dist-split-matmul-grad --dist-overlap-collectives --dist-partition --dist-lower-to-gpu=matmul=generated -o %t.overlap.mlir
// RUN: dist-opt %t.overlap.mlir --emit=ptx -o %t.overlap.ptx
// RUN: %python %S/Inputs/ptxas_each.py %ptxas sm_90 %t.overlap.ptx | FileCheck %s --check-prefix=SM90
// RUN: FileCheck %s --input-file=%t.overlap.mlir --check-prefix=HOST
// Those runs compile the products as kernels (matmul=generated, the
// fallback); by default they are cuBLASLt calls (the MLP's bias add its
// product's epilogue) and the block keeps 32 kernels of its own.
// RUN: dist-opt %S/../../examples/gpt-block.mlir --dist-partition-pipeline --dist-lower-to-gpu --emit=ptx -o %t.cublaslt.ptx
// RUN: %python %S/Inputs/ptxas_each.py %ptxas sm_90 %t.cublaslt.ptx | FileCheck %s --check-prefix=CUBLASLT
// CUBLASLT: ptxas assembled 32 of 32 kernels for sm_90, 0 spilling registers

// A Llama step's kernels assemble too, and none spills registers (the
// softmax gradient of grouped-query attention, whose threads loop over its
// two outer loops, spilled 8 bytes while its loops' bounds were kernel
// parameters rather than constants sunk into it).
// RUN: dist-gen llama --layers 1 --dp 1 --tp 1 --batch 2 --seq 16 --heads 4 --kv-heads 2 --head-dim 16 --ffn 64 --vocab 64 > %t.llama.mlir
// RUN: dist-opt %t.llama.mlir --dist-lower-to-local --dist-lower-to-gpu=matmul=generated --emit=ptx -o %t.llama.ptx
// RUN: %python %S/Inputs/ptxas_each.py %ptxas sm_90 %t.llama.ptx | FileCheck %s --check-prefix=LLAMA
// LLAMA: ptxas assembled 54 of 54 kernels for sm_90, 0 spilling registers

// The launches outline to 51 distinct kernels.
// SM90: ptxas assembled 51 of 51 kernels for sm_90, 0 spilling registers
// SM80: ptxas assembled 51 of 51 kernels for sm_80, 0 spilling registers
// The collectives stay runtime calls between the launches, started before
// the independent work and waited for after it.
// HOST-LABEL: llvm.func @gpt_step
// HOST:         llvm.call @dist_rt_all_reduce_start_f32
// HOST:         gpu.launch_func
// HOST:         llvm.call @dist_rt_wait_f32
