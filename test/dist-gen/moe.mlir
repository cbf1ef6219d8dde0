// dist-gen moe writes dist-gen llama's step with every MLP a mixture of
// experts in GShard's formulation (docs/experts.md); the numbers are
// checked in Examples/moe.mlir.
// RUN: dist-gen moe --layers 1 --dp 2 --ep 2 --tp 2 --forward-only | FileCheck %s
// The sequence over sp as well: each group is one dp x ep x sp shard's
// tokens, the batch's groups and the sequence's two dims (split over dp x
// ep and over sp: one dim split over both would not stay split).
// RUN: dist-gen moe --layers 1 --dp 1 --ep 2 --sp 2 --tp 1 --batch 4 --seq 16 --forward-only | FileCheck %s --check-prefix=SP
// With an optimizer the step is differentiated and updates the experts in their layout.
// RUN: dist-gen moe --layers 1 --dp 2 --ep 2 --tp 1 --optimizer adamw --zero 1 | FileCheck %s --check-prefix=ADAMW
// Sizes that cannot be generated are refused, naming the option.
// RUN: not dist-gen moe --layers 1 --dp 2 --ep 2 --tp 2 --top-k 5 2>&1 | FileCheck %s --check-prefix=TOPK
// RUN: not dist-gen moe --layers 1 --dp 2 --ep 2 --tp 2 --capacity-factor 0 2>&1 | FileCheck %s --check-prefix=CAPACITY
// RUN: not dist-gen moe --layers 1 --dp 2 --ep 2 --tp 2 --aux-loss-coef inf 2>&1 | FileCheck %s --check-prefix=COEF
// RUN: not dist-gen moe --layers 1 --dp 2 --ep 2 --tp 2 --batch 6 2>&1 | FileCheck %s --check-prefix=BATCH
// RUN: not dist-gen moe --layers 1 --dp 2 --ep 2 --tp 2 --experts 3 2>&1 | FileCheck %s --check-prefix=EXPERTS
// RUN: not dist-gen moe --layers 1 --dp 1 --sp 2 --tp 1 --seq 15 2>&1 | FileCheck %s --check-prefix=SEQ
// RUN: not dist-gen llama --layers 1 --dp 2 --tp 2 --ep 2 2>&1 | FileCheck %s --check-prefix=LLAMA-EP
// RUN: not dist-gen moe --layers 1 --dp 1 --ep 2 --sp 2 --tp 1 --balance 2>&1 | FileCheck %s --check-prefix=BALANCE

// CHECK:      // Mixtral-style MoE (4 experts, top-2) forward pass and loss: 1 layers on a dp=2 x ep=2 x tp=2 mesh (dist-gen moe).
// CHECK-NEXT: dist.mesh @mesh = <["dp"=2, "ep"=2, "tp"=2]>
// CHECK:      %mlp_norm_0: tensor<64xf32>
// CHECK-NEXT: %wg_0: tensor<64x4xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{}, {}]>},
// CHECK-NEXT: %w1_0: tensor<4x64x128xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{"ep"}, {}, {"tp"}]>},
// CHECK-NEXT: %w3_0: tensor<4x64x128xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{"ep"}, {}, {"tp"}]>},
// CHECK-NEXT: %w2_0: tensor<4x128x64xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{"ep"}, {"tp"}, {}]>},
// The router: 4 groups of 16 tokens (one sequence per group here), each
// token's top 2 of 4 experts, their weights renormalised.
// CHECK:      %[[X:.*]], %{{.*}} = dist.rms_norm %{{.*}}, %mlp_norm_0
// CHECK-NEXT: %[[LOGITS:.*]] = dist.matmul %[[X]], %wg_0 : (tensor<4x16x64xf32>, tensor<64x4xf32>) -> tensor<4x16x4xf32>
// CHECK-NEXT: %[[PROBS:.*]] = dist.softmax %[[LOGITS]] {axis = 2 : i64}
// CHECK-NEXT: %[[TOP:.*]], %[[IDX:.*]] = dist.top_k %[[PROBS]] {k = 2 : i64} : (tensor<4x16x4xf32>) -> (tensor<4x16x2xf32>, tensor<4x16x2xi64>)
// CHECK-NEXT: %[[SUM:.*]] = dist.reduce_sum %[[TOP]] {dims = array<i64: 2>, keepdim}
// CHECK-NEXT: %[[WEIGHTS:.*]] = dist.div %[[TOP]], %[[SUM]]
// One-hot choices [group, token, choice, expert].
// CHECK-NEXT: %[[IDX4:.*]] = dist.reshape %[[IDX]] : (tensor<4x16x2xi64>) -> tensor<4x16x2x1xi64>
// CHECK-NEXT: %[[EXPERT:.*]] = dist.iota {dim = 0 : i64} : () -> tensor<4xi64>
// CHECK-NEXT: %[[CHOSEN:.*]] = dist.compare %[[IDX4]], %[[EXPERT]] {direction = "eq"} : (tensor<4x16x2x1xi64>, tensor<4xi64>) -> tensor<4x16x2x4xi1>
// Slots in GShard's order: choice-major, then token order.
// CHECK-NEXT: %[[ONES:.*]] = dist.cast %[[CHOSEN]] : (tensor<4x16x2x4xi1>) -> tensor<4x16x2x4xi32>
// CHECK-NEXT: %[[MAJOR:.*]] = dist.transpose %[[ONES]] {perm = array<i64: 0, 2, 1, 3>}
// CHECK-NEXT: %[[QUEUE:.*]] = dist.reshape %[[MAJOR]] : (tensor<4x2x16x4xi32>) -> tensor<4x32x4xi32>
// CHECK-NEXT: %[[THROUGH:.*]] = dist.cumsum %[[QUEUE]] {dim = 1 : i64}
// CHECK-NEXT: %[[BEFORE:.*]] = dist.sub %[[THROUGH]], %[[QUEUE]]
// CHECK:      %[[SLOTS:.*]] = dist.iota {dim = 0 : i64} : () -> tensor<10xi32>
// CHECK-NEXT: %[[IN_SLOT:.*]] = dist.compare %{{.*}}, %[[SLOTS]] {direction = "eq"} : (tensor<4x16x2x4x1xi32>, tensor<10xi32>) -> tensor<4x16x2x4x10xi1>
// CHECK-NEXT: %[[CHOSEN5:.*]] = dist.reshape %[[CHOSEN]]
// CHECK-NEXT: %[[FILLS:.*]] = dist.and %[[IN_SLOT]], %[[CHOSEN5]]
// CHECK-NEXT: %[[FILLSF:.*]] = dist.cast %[[FILLS]]
// CHECK-NEXT: %[[DISPATCH:.*]] = dist.reduce_sum %[[FILLSF]] {dims = array<i64: 2>} : (tensor<4x16x2x4x10xf32>) -> tensor<4x16x4x10xf32>
// CHECK-NEXT: %[[W5:.*]] = dist.reshape %[[WEIGHTS]] : (tensor<4x16x2xf32>) -> tensor<4x16x2x1x1xf32>
// CHECK-NEXT: %[[WEIGHTED:.*]] = dist.mul %[[FILLSF]], %[[W5]]
// CHECK-NEXT: %[[COMBINE:.*]] = dist.reduce_sum %[[WEIGHTED]] {dims = array<i64: 2>}
// The experts' inputs [group, expert, slot, hidden], their SwiGLU batched
// over the experts (each expert's weights broadcast over the groups), and
// the outputs combined back to the tokens.
// CHECK-NEXT: %[[D2:.*]] = dist.reshape %[[DISPATCH]] : (tensor<4x16x4x10xf32>) -> tensor<4x16x40xf32>
// CHECK-NEXT: %[[IN:.*]] = dist.matmul %[[D2]], %[[X]] {transpose_x} : (tensor<4x16x40xf32>, tensor<4x16x64xf32>) -> tensor<4x40x64xf32>
// CHECK-NEXT: %[[IN4:.*]] = dist.reshape %[[IN]] : (tensor<4x40x64xf32>) -> tensor<4x4x10x64xf32>
// CHECK-NEXT: %[[GATE:.*]] = dist.matmul %[[IN4]], %w1_0 : (tensor<4x4x10x64xf32>, tensor<4x64x128xf32>) -> tensor<4x4x10x128xf32>
// CHECK-NEXT: %[[UP:.*]] = dist.matmul %[[IN4]], %w3_0
// CHECK-NEXT: %[[ACT:.*]] = dist.silu %[[GATE]]
// CHECK-NEXT: %[[GLU:.*]] = dist.mul %[[ACT]], %[[UP]]
// CHECK-NEXT: %[[OUT:.*]] = dist.matmul %[[GLU]], %w2_0 : (tensor<4x4x10x128xf32>, tensor<4x128x64xf32>) -> tensor<4x4x10x64xf32>
// CHECK-NEXT: %[[OUT3:.*]] = dist.reshape %[[OUT]] : (tensor<4x4x10x64xf32>) -> tensor<4x40x64xf32>
// CHECK-NEXT: %[[C2:.*]] = dist.reshape %[[COMBINE]] : (tensor<4x16x4x10xf32>) -> tensor<4x16x40xf32>
// CHECK-NEXT: %[[Y:.*]] = dist.matmul %[[C2]], %[[OUT3]] : (tensor<4x16x40xf32>, tensor<4x40x64xf32>) -> tensor<4x16x64xf32>
// The layer's load-balancing loss: 4 x sum_e f_e P_e over all tokens.
// CHECK:      %[[F:.*]] = dist.reduce_mean %{{.*}} {dims = array<i64: 0, 1>} : (tensor<4x16x4xf32>) -> tensor<4xf32>
// CHECK-NEXT: %[[P:.*]] = dist.reduce_mean %[[PROBS]] {dims = array<i64: 0, 1>}
// CHECK-NEXT: %[[FP:.*]] = dist.mul %[[F]], %[[P]]
// CHECK-NEXT: %[[S:.*]] = dist.reduce_sum %[[FP]] {dims = array<i64: 0>}
// CHECK-NEXT: %[[AUX:.*]] = dist.scale %[[S]] {factor = 4.0 : f64}
// CHECK:      %[[CE:.*]] = dist.cross_entropy
// CHECK-NEXT: %[[WAUX:.*]] = dist.scale %[[AUX]] {factor = 0.01 : f64}
// CHECK-NEXT: %[[LOSS:.*]] = dist.add %[[CE]], %[[WAUX]]
// CHECK-NEXT: return %[[LOSS]]

// SP:      %ids: tensor<4x16xi64> {dist.batch_dim = 0 : i64, dist.sharding = #dist.sharding<@mesh, [{"dp", "ep"}, {"sp"}]>},
// SP:      %[[S5:.*]] = dist.reshape %{{.*}} : (tensor<4x16x64xf32>) -> tensor<2x2x2x8x64xf32>
// SP-NEXT: %[[T5:.*]] = dist.transpose %[[S5]] {perm = array<i64: 0, 2, 1, 3, 4>}
// SP-NEXT: %[[XG:.*]] = dist.reshape %[[T5]] : (tensor<2x2x2x8x64xf32>) -> tensor<2x2x16x64xf32>
// SP:      dist.softmax %{{.*}} {axis = 3 : i64} : (tensor<2x2x16x4xf32>) -> tensor<2x2x16x4xf32>
// SP:      dist.cumsum %{{.*}} {dim = 2 : i64} : (tensor<2x2x32x4xi32>) -> tensor<2x2x32x4xi32>
// SP:      dist.matmul %{{.*}}, %w1_0 : (tensor<2x2x4x10x64xf32>, tensor<4x64x128xf32>) -> tensor<2x2x4x10x128xf32>
// SP:      dist.reduce_mean %{{.*}} {dims = array<i64: 0, 1, 2>} : (tensor<2x2x16x4xf32>) -> tensor<4xf32>

// ADAMW-LABEL: func.func @moe_step(
// ADAMW:       %w1_0: tensor<4x64x128xf32> {dist.sharding = #dist.sharding<@mesh, [{"ep"}, {}, {"tp"}]>}
// ADAMW:       %m_w1_0: tensor<4x64x128xf32> {dist.sharding = #dist.sharding<@mesh, [{"ep", "dp"}, {}, {"tp"}]>}
// ADAMW:       dist.top_k_grad

// TOPK:      dist-gen: --top-k 5 is more than --experts 4: a token picks distinct experts
// CAPACITY:  dist-gen: --capacity-factor 0 is not a positive number
// COEF:      dist-gen: --aux-loss-coef inf is not a number
// BATCH:     dist-gen: --batch 6 does not split evenly over dp x ep=4: each shard holds whole token groups and whole experts
// EXPERTS:   dist-gen: --experts 3 does not split evenly over ep=2
// SEQ:       dist-gen: --seq 15 does not split evenly over sp=2
// LLAMA-EP:  error: unexpected argument '--ep' found
// BALANCE:   dist-gen: --balance with experts: the capacity groups follow the sp shards, so permuting the tokens would change which of them compete for an expert's slots
