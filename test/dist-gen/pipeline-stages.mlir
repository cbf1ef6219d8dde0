// --pp P: a mesh axis pp of P stages before dp, and a dist.stage_boundary
// after every N/P layers; gpt's hand-written backward crosses each boundary
// the other way, llama's derived one too (dist-append-backward).
// RUN: dist-gen gpt --layers 4 --pp 2 --dp 2 --tp 1 | FileCheck %s --check-prefix=GPT
// RUN: dist-gen gpt --layers 4 --pp 4 --dp 1 --tp 1 --forward-only | FileCheck %s --check-prefix=FWD
// RUN: dist-gen llama --layers 2 --pp 2 --dp 1 --tp 2 --forward-only | dist-opt - --dist-append-backward | FileCheck %s --check-prefix=LLAMA
// RUN: not dist-gen gpt --layers 3 --pp 2 --dp 1 --tp 1 2>&1 | FileCheck %s --check-prefix=UNEVEN
// The boundaries are identities until a schedule places the stages: the
// step on the 2 x 2 x 1 mesh (each stage's work replicated over pp) equals
// the one-device step.
// RUN: rm -rf %t && mkdir -p %t
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

// UNEVEN: error: option '--pp 2' splits the layers evenly over the stages: 3 layers are not a multiple of 2

// SAME: results; max difference against -n 1: {{(0\.00e\+00|[0-9.]+e-(0[6-9]|[1-9][0-9]))$}}
