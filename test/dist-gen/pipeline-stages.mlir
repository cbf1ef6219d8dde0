// --pp P: a mesh axis pp of P stages before dp, and a dist.stage_boundary
// after every N/P layers where P divides N; gpt's hand-written backward crosses each boundary
// the other way, llama's derived one too (dist-append-backward).
// RUN: dist-gen gpt --layers 4 --pp 2 --dp 2 --tp 1 | FileCheck %s --check-prefix=GPT
// RUN: dist-gen gpt --layers 4 --pp 4 --dp 1 --tp 1 --forward-only | FileCheck %s --check-prefix=FWD
// RUN: dist-gen llama --layers 2 --pp 2 --dp 1 --tp 2 --forward-only | dist-opt - --dist-append-backward | FileCheck %s --check-prefix=LLAMA
// Layers the stages do not divide: ceil(N/P) P - N stages take one layer
// fewer, the last, the first, the second to last, ... (Llama 3's 126
// layers on 16 stages: 7, 14 stages of 8, 7). Fewer layers than stages
// are refused.
// RUN: dist-gen llama --layers 126 --pp 16 --dp 1 --tp 1 --forward-only --batch 1 --seq 4 --heads 2 --kv-heads 1 --head-dim 4 --ffn 8 --vocab 16 \
// RUN:   | FileCheck %s --check-prefix=UNEVEN
// RUN: dist-gen gpt --layers 6 --pp 4 --dp 1 --tp 1 --forward-only | FileCheck %s --check-prefix=UNEVEN-GPT
// RUN: not dist-gen gpt --layers 3 --pp 4 --dp 1 --tp 1 2>&1 | FileCheck %s --check-prefix=FEWER
// An uneven pipeline (2 and 1 layers) run with microbatches equals -n 1.
// RUN: rm -rf %t && mkdir -p %t
// RUN: dist-gen llama --layers 3 --pp 2 --dp 1 --tp 1 --forward-only > %t/uneven.mlir
// RUN: %python %S/../../scripts/npy.py inputs %t/uneven.mlir llama_step %t/uneven-in --id-range 256 > /dev/null
// RUN: dist-run %t/uneven.mlir --entry llama_step --grad -n 1 --input-dir %t/uneven-in --out %t/uneven-n1
// RUN: dist-run %t/uneven.mlir --entry llama_step --grad -n 2 --microbatches 2 --schedule 1f1b --input-dir %t/uneven-in --out %t/uneven-n2
// RUN: %python %S/../../scripts/npy.py compare %t/uneven-n1 %t/uneven-n2 | FileCheck %s --check-prefix=SAME
// The boundaries are identities until a schedule places the stages: the
// step on the 2 x 2 x 1 mesh (each stage's work replicated over pp) equals
// the one-device step.
// RUN: dist-gen gpt --layers 2 --pp 2 --dp 2 --tp 1 > %t/gpt.mlir
// RUN: %python %S/../../scripts/npy.py inputs %t/gpt.mlir gpt_step %t/in --id-range 128 > /dev/null
// RUN: dist-run %t/gpt.mlir --entry gpt_step -n 1 --input-dir %t/in --out %t/n1
// RUN: dist-run %t/gpt.mlir --entry gpt_step -n 4 --input-dir %t/in --out %t/n4
// RUN: %python %S/../../scripts/npy.py compare %t/n1 %t/n4 | FileCheck %s --check-prefix=SAME

// GPT: 4 layers on a pp=2 x dp=2 x tp=1 mesh
// GPT: dist.mesh @mesh = <["pp"=2, "dp"=2, "tp"=1]>
// GPT-COUNT-1: = dist.stage_boundary %{{.*}} : (tensor<4x16x64xf32>) -> tensor<4x16x64xf32>
// GPT: dist.layer_norm_grad
// GPT-COUNT-1: = dist.stage_boundary %{{.*}} : (tensor<4x16x64xf32>) -> tensor<4x16x64xf32>
// GPT-NOT: dist.stage_boundary

// FWD: dist.mesh @mesh = <["pp"=4, "dp"=1, "tp"=1]>
// FWD-COUNT-3: dist.stage_boundary
// FWD-NOT: dist.stage_boundary
// FWD: dist.reduce_mean

// LLAMA: dist.mesh @mesh = <["pp"=2, "dp"=1, "tp"=2]>
// LLAMA-COUNT-2: dist.stage_boundary
// LLAMA-NOT: dist.stage_boundary

// UNEVEN:          %[[FIRST:.*]] = dist.stage_boundary
// UNEVEN-NEXT:     dist.rms_norm %[[FIRST]], %attn_norm_7
// UNEVEN-COUNT-13: dist.stage_boundary
// UNEVEN:          %[[LAST:.*]] = dist.stage_boundary
// UNEVEN-NEXT:     dist.rms_norm %[[LAST]], %attn_norm_119
// UNEVEN-NOT:      dist.stage_boundary
// Six layers on four stages: 1, 2, 2, 1.
// UNEVEN-GPT:      %[[B1:.*]] = dist.stage_boundary
// UNEVEN-GPT-NEXT: dist.layer_norm %[[B1]], %ln1_g_1,
// UNEVEN-GPT:      %[[B2:.*]] = dist.stage_boundary
// UNEVEN-GPT-NEXT: dist.layer_norm %[[B2]], %ln1_g_3,
// UNEVEN-GPT:      %[[B3:.*]] = dist.stage_boundary
// UNEVEN-GPT-NEXT: dist.layer_norm %[[B3]], %ln1_g_5,
// UNEVEN-GPT-NOT:  dist.stage_boundary
// FEWER: error: option '--pp 4' needs a layer a stage at least: 3 layers are fewer than 4 stages

// SAME: results; max difference against -n 1: {{(0\.00e\+00|[0-9.]+e-(0[6-9]|[1-9][0-9]))$}}
