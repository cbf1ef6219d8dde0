// REQUIRES: jax
// dist-gen moe: a Mixtral-style step (Llama attention, every MLP 4 SwiGLU
// experts with a top-2 softmax router, GShard's dispatch with a static
// capacity, a load-balancing loss per layer) on dp x ep x tp = 2 x 2 x 2.
// Only the arguments carry shardings: the batch over dp and ep, the
// experts over ep, their ffn dim over tp.
// RUN: rm -rf %t && mkdir -p %t
// RUN: dist-gen moe --layers 2 --dp 2 --ep 2 --tp 2 --forward-only > %t/moe.mlir
// RUN: FileCheck %s --input-file %t/moe.mlir
// CHECK:      dist.mesh @mesh = <["dp"=2, "ep"=2, "tp"=2]>
// CHECK:      func.func @moe_step(
// CHECK-NEXT:   %ids: tensor<4x16xi64> {dist.batch_dim = 0 : i64, dist.sharding = #dist.sharding<@mesh, [{"dp", "ep"}, {}]>},
// CHECK:        %wg_0: tensor<64x4xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{}, {}]>},
// CHECK-NEXT:   %w1_0: tensor<4x64x128xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{"ep"}, {}, {"tp"}]>},
// CHECK-NEXT:   %w3_0: tensor<4x64x128xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{"ep"}, {}, {"tp"}]>},
// CHECK-NEXT:   %w2_0: tensor<4x128x64xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{"ep"}, {"tp"}, {}]>},
// Four groups (one per data shard) of 16 tokens; capacity
// ceil(1.25 x 16 x 2 / 4) = 10 slots per expert and group.
// CHECK:      dist.top_k %{{.*}} {k = 2 : i64} : (tensor<4x16x4xf32>) -> (tensor<4x16x2xf32>, tensor<4x16x2xi64>)
// CHECK:      dist.cumsum %{{.*}} {dim = 1 : i64} : (tensor<4x32x4xi32>) -> tensor<4x32x4xi32>
// CHECK:      dist.matmul %{{.*}}, %{{.*}} {transpose_x} : (tensor<4x16x40xf32>, tensor<4x16x64xf32>) -> tensor<4x40x64xf32>
// Each expert's weights multiply its slots of every group (broadcast over
// the group dim).
// CHECK:      dist.matmul %{{.*}}, %{{.*}} : (tensor<4x4x10x64xf32>, tensor<4x64x128xf32>) -> tensor<4x4x10x128xf32>
// CHECK:      dist.cross_entropy
// CHECK:      dist.scale %{{.*}} {factor = 0.01 : f64}
//
// Propagation derives the expert parallelism: per layer one all_to_all
// over ep into the experts and one back in the forward, their transposes
// in the backward (8 for two layers, each (ep-1)/ep of a device's
// [expert, slot, hidden] = 4 x 10 x 64 f32: 5120 bytes), and nothing is
// all-gathered: neither the expert weights nor the tokens.
// RUN: dist-opt %t/moe.mlir --dist-append-backward --dist-decompose --dist-propagate-sharding=remarks=none \
// RUN:   --dist-resolve-partial --dist-comm-report -o /dev/null 2>&1 | FileCheck %s --check-prefix=COMM
// COMM-NOT:     all_gather
// COMM-COUNT-8: all_to_all  -       "ep"       4x2 {0,2} {1,3} {4,6} {5,7}  f32    5120
// COMM-NOT:     all_gather
// COMM:         total: {{.*}} all_to_all 8 (40960)
//
// The step on 8 processes equals the one on one device, and both equal
// the step written independently in JAX (scripts/jax_llama.py: MaxText's
// einsum dispatch, float64) per tensor within 1e-4 of its largest value.
// RUN: %python %S/../../scripts/npy.py inputs %t/moe.mlir moe_step %t/in --id-range 256 --scale 0.1 > /dev/null
// RUN: dist-run %t/moe.mlir --grad --entry moe_step -n 1 --input-dir %t/in --out %t/n1
// RUN: dist-run %t/moe.mlir --grad --entry moe_step -n 8 --input-dir %t/in --out %t/n8
// RUN: %python %S/../../scripts/npy.py compare %t/n1 %t/n8 --per-tensor --tolerance 1e-5 | FileCheck %s --check-prefix=SAME
// RUN: %jax_python %S/../../scripts/jax_llama.py grad %t/in %t/jax 2 8 4 moe 4 2 1.25 0.01 4 1
// RUN: %python %S/../../scripts/npy.py compare %t/jax %t/n8 --per-tensor --tolerance 1e-4 | FileCheck %s --check-prefix=SAME
// SAME: 24 results; max difference relative to each tensor's largest value
//
// With the sequence over sp as well (ep x sp x tp = 2 x 2 x 2), each group is
// one ep x sp shard's tokens: the batch's groups and the sequence's are
// two dims, [2, 2, token, ...] (split over ep and over sp), as JAX's step
// takes them. With a capacity factor of 0.5 which tokens share a group
// decides which choices are dropped, so the grouping is what is compared.
// Each device routes its own group's 16 tokens: the MoE layer's work is
// divided over sp as well as over ep.
// RUN: dist-gen moe --layers 1 --dp 1 --ep 2 --sp 2 --tp 2 --capacity-factor 0.5 --forward-only > %t/sp.mlir
// RUN: %python %S/../../scripts/npy.py inputs %t/sp.mlir moe_step %t/sp-in --id-range 256 --scale 0.1 > /dev/null
// RUN: dist-run %t/sp.mlir --grad --entry moe_step -n 8 --input-dir %t/sp-in --out %t/sp
// RUN: %jax_python %S/../../scripts/jax_llama.py grad %t/sp-in %t/sp-jax 1 8 4 moe 4 2 0.5 0.01 2 2
// RUN: %python %S/../../scripts/npy.py compare %t/sp-jax %t/sp --per-tensor --tolerance 1e-4 | FileCheck %s --check-prefix=SP
// SP: 14 results; max difference relative to each tensor's largest value
// RUN: dist-opt %t/sp.mlir --dist-propagate-sharding=remarks=none --dist-resolve-partial --dist-partition \
// RUN:   | FileCheck %s --check-prefix=SP-DEVICE
// SP-DEVICE: dist.top_k %{{.*}} {k = 2 : i64} : (tensor<1x1x16x4xf32>) -> (tensor<1x1x16x2xf32>, tensor<1x1x16x2xi64>)
//
// Capacity overflow: with a capacity factor of 0.5 (5 slots) choices past
// an expert's slots are dropped in GShard's order (every token's first
// choice before any second one); the step still equals JAX's, and differs
// from the one that dropped fewer.
// RUN: dist-gen moe --layers 2 --dp 2 --ep 2 --tp 2 --forward-only --capacity-factor 0.5 > %t/drop.mlir
// RUN: dist-run %t/drop.mlir --grad --entry moe_step -n 1 --input-dir %t/in --out %t/drop
// RUN: %jax_python %S/../../scripts/jax_llama.py grad %t/in %t/drop-jax 2 8 4 moe 4 2 0.5 0.01 4 1
// RUN: %python %S/../../scripts/npy.py compare %t/drop-jax %t/drop --per-tensor --tolerance 1e-4 | FileCheck %s --check-prefix=SAME
// RUN: not %python %S/../../scripts/npy.py compare %t/n1 %t/drop --per-tensor --tolerance 1e-2 > /dev/null
//
// AdamW with ZeRO-2 (the optimizer states split over dp as well) on 8
// processes equals -n 1. Per device the parameters are 190208 bytes: the
// experts' 3 x 4 x 64 x 128 f32 at 1/(ep x tp), the attention's and the
// vocabulary's at 1/tp, the router and norms whole.
// RUN: dist-gen moe --layers 1 --dp 2 --ep 2 --tp 2 --optimizer adamw --zero 2 > %t/adamw.mlir
// RUN: %python %S/../../scripts/npy.py inputs %t/adamw.mlir moe_step %t/adamw-in --id-range 256 --scale 0.1 > /dev/null
// RUN: dist-run %t/adamw.mlir --entry moe_step -n 1 --input-dir %t/adamw-in --out %t/adamw-n1
// RUN: dist-run %t/adamw.mlir --entry moe_step -n 8 --input-dir %t/adamw-in --out %t/adamw-n8
// RUN: %python %S/../../scripts/npy.py compare %t/adamw-n1 %t/adamw-n8 --per-tensor --tolerance 1e-5 | FileCheck %s --check-prefix=ADAMW
// ADAMW: 40 results; max difference relative to each tensor's largest value
// RUN: dist-opt %t/adamw.mlir --dist-propagate-sharding=remarks=none --dist-resolve-partial --dist-memory-report -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MEMORY
// MEMORY: parameters          190208
