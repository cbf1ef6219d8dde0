// RUN: dist-opt %s --split-input-file --dist-append-backward | FileCheck %s
// The pass removes what it reads: a second run finds nothing to do.
// RUN: dist-opt %s --split-input-file --dist-append-backward > %t
// RUN: dist-opt %t --split-input-file --dist-append-backward | diff %t -
// The backward it writes propagates, resolves and partitions like a
// hand-written one.
// RUN: dist-opt %t --split-input-file --dist-propagate-sharding=remarks=none --dist-resolve-partial --dist-partition -o /dev/null

// A Megatron MLP with a squared-error loss. The seed is d loss = 1; each
// op's gradient follows in reverse order; `%d * %d` reads %d twice, so its
// two contributions are summed; the weights' gradients are appended in
// argument order and declare the weights' shardings. The input and the
// targets ask for nothing, so no gradient reaches them.
dist.mesh @mesh = <["dp"=2, "tp"=2]>
func.func @mlp(%x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>},
               %w1: tensor<16x64xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
               %b1: tensor<64xf32> {dist.requires_grad},
               %w2: tensor<64x16xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>},
               %t: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>}) -> tensor<f32> {
  %h = dist.matmul %x, %w1 : (tensor<8x16xf32>, tensor<16x64xf32>) -> tensor<8x64xf32>
  %hb = dist.add %h, %b1 : (tensor<8x64xf32>, tensor<64xf32>) -> tensor<8x64xf32>
  %a = dist.gelu %hb {approximate = "tanh"} : (tensor<8x64xf32>) -> tensor<8x64xf32>
  %y = dist.matmul %a, %w2 : (tensor<8x64xf32>, tensor<64x16xf32>) -> tensor<8x16xf32>
  %d = dist.sub %y, %t : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %sq = dist.mul %d, %d : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %loss = dist.reduce_mean %sq {dims = array<i64: 0, 1>} : (tensor<8x16xf32>) -> tensor<f32>
  return %loss : tensor<f32>
}

// CHECK-LABEL: func.func @mlp
// CHECK-SAME:    (%[[X:[^:]+]]: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>},
// CHECK-SAME:    %[[W1:[^:]+]]: tensor<16x64xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
// CHECK-SAME:    %[[B1:[^:]+]]: tensor<64xf32>,
// CHECK-SAME:    -> (tensor<f32>, tensor<16x64xf32> {dist.gradient_of = 1 : i64, dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>}, tensor<64xf32> {dist.gradient_of = 2 : i64}, tensor<64x16xf32> {dist.gradient_of = 3 : i64, dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>})
// CHECK-NOT:   dist.requires_grad
// CHECK:         %[[H:.*]] = dist.matmul %[[X]], %[[W1]]
// CHECK-NEXT:    %[[HB:.*]] = dist.add %[[H]], %[[B1]]
// CHECK-NEXT:    %[[A:.*]] = dist.gelu %[[HB]]
// CHECK-NEXT:    %[[Y:.*]] = dist.matmul %[[A]], %[[W2:[^ ]+]] :
// CHECK-NEXT:    %[[D:.*]] = dist.sub %[[Y]], %[[T:[^ ]+]] :
// CHECK-NEXT:    %[[SQ:.*]] = dist.mul %[[D]], %[[D]]
// CHECK-NEXT:    %[[LOSS:.*]] = dist.reduce_mean %[[SQ]]
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[DSQ:.*]] = dist.reduce_mean_grad %[[SQ]], %[[ONE]] {dims = array<i64: 0, 1>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<8x16xf32>
// CHECK-NEXT:    %[[DD0:.*]], %[[DD1:.*]] = dist.mul_grad %[[D]], %[[D]], %[[DSQ]]
// CHECK-NEXT:    %[[DD:.*]] = dist.add %[[DD0]], %[[DD1]]
// CHECK-NEXT:    %[[DY:.*]], %{{.*}} = dist.sub_grad %[[Y]], %[[T]], %[[DD]]
// CHECK-NEXT:    %[[DA:.*]], %[[DW2:.*]] = dist.matmul_grad %[[A]], %[[W2]], %[[DY]]
// CHECK-NEXT:    %[[DHB:.*]] = dist.gelu_grad %[[HB]], %[[DA]] {approximate = "tanh"}
// CHECK-NEXT:    %[[DH:.*]], %[[DB1:.*]] = dist.add_grad %[[H]], %[[B1]], %[[DHB]]
// CHECK-NEXT:    %{{.*}}, %[[DW1:.*]] = dist.matmul_grad %[[X]], %[[W1]], %[[DH]]
// CHECK-NEXT:    return %[[LOSS]], %[[DW1]], %[[DB1]], %[[DW2]] : tensor<f32>, tensor<16x64xf32>, tensor<64xf32>, tensor<64x16xf32>

// -----

// Attention-style shape ops: the gradient of a transpose is the transpose
// by the inverse permutation, a reshape's is the reshape back, scale's is
// scale by the same factor, softmax's reads the softmax output. The
// transposed matmul keeps its flags. Other results stay before the
// gradients.
func.func @attention(%q: tensor<2x4x8xf32> {dist.requires_grad}, %k: tensor<2x8x4xf32>)
    -> (tensor<f32>, tensor<2x4x4xf32>) {
  %kt = dist.transpose %k {perm = array<i64: 2, 0, 1>} : (tensor<2x8x4xf32>) -> tensor<4x2x8xf32>
  %kr = dist.reshape %kt : (tensor<4x2x8xf32>) -> tensor<2x4x8xf32>
  %s = dist.matmul %q, %kr {transpose_y} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x4xf32>
  %ss = dist.scale %s {factor = 0.5 : f64} : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %p = dist.softmax %ss {axis = -1 : i64} : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %l = dist.reduce_sum %p {dims = array<i64: 0, 1, 2>} : (tensor<2x4x4xf32>) -> tensor<f32>
  return %l, %p : tensor<f32>, tensor<2x4x4xf32>
}

// CHECK-LABEL: func.func @attention
// CHECK-SAME:    -> (tensor<f32>, tensor<2x4x4xf32>, tensor<2x4x8xf32> {dist.gradient_of = 0 : i64})
// CHECK:         %[[P:.*]] = dist.softmax
// CHECK:         %[[DP:.*]] = dist.reduce_sum_grad %[[P]], %{{.*}} {dims = array<i64: 0, 1, 2>}
// CHECK-NEXT:    %[[DSS:.*]] = dist.softmax_grad %[[P]], %[[DP]] {axis = -1 : i64}
// CHECK-NEXT:    %[[DS:.*]] = dist.scale %[[DSS]] {factor = 5.000000e-01 : f64}
// CHECK-NEXT:    %[[DQ:.*]], %{{.*}} = dist.matmul_grad %{{.*}}, %{{.*}}, %[[DS]] {transpose_y}
// CHECK-NEXT:    return %{{.*}}, %[[P]], %[[DQ]] :

// -----

// The key now asks for its gradient: through the reshape and the
// transpose, by the inverse permutation [1, 2, 0] of [2, 0, 1].
func.func @shape_ops(%k: tensor<2x8x4xf32> {dist.requires_grad}) -> tensor<f32> {
  %kt = dist.transpose %k {perm = array<i64: 2, 0, 1>} : (tensor<2x8x4xf32>) -> tensor<4x2x8xf32>
  %kr = dist.reshape %kt : (tensor<4x2x8xf32>) -> tensor<8x8xf32>
  %l = dist.reduce_sum %kr {dims = array<i64: 0, 1>} : (tensor<8x8xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: func.func @shape_ops
// CHECK:         %[[DKR:.*]] = dist.reduce_sum_grad
// CHECK-NEXT:    %[[DKT:.*]] = dist.reshape %[[DKR]] : (tensor<8x8xf32>) -> tensor<4x2x8xf32>
// CHECK-NEXT:    %[[DK:.*]] = dist.transpose %[[DKT]] {perm = array<i64: 1, 2, 0>} : (tensor<4x2x8xf32>) -> tensor<2x8x4xf32>
// CHECK-NEXT:    return %{{.*}}, %[[DK]]

// -----

// Embedding and layer norm: the ids are integers (no gradient); the table
// read twice (lookup and tied output) sums its two contributions in
// reverse order; layer_norm's gradient reads the saved statistics.
func.func @embed(%ids: tensor<2x4xi64>, %table: tensor<16x8xf32> {dist.requires_grad},
                 %g: tensor<8xf32> {dist.requires_grad}, %b: tensor<8xf32>) -> tensor<f32> {
  %e = dist.embedding %ids, %table : (tensor<2x4xi64>, tensor<16x8xf32>) -> tensor<2x4x8xf32>
  %y, %mean, %rstd = dist.layer_norm %e, %g, %b {begin_norm_axis = 2 : i64} : (tensor<2x4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<2x4x8xf32>, tensor<2x4xf32>, tensor<2x4xf32>)
  %o = dist.matmul %y, %table {transpose_y} : (tensor<2x4x8xf32>, tensor<16x8xf32>) -> tensor<2x4x16xf32>
  %r = dist.relu %o : (tensor<2x4x16xf32>) -> tensor<2x4x16xf32>
  %l = dist.reduce_mean %r {dims = array<i64: 0, 1, 2>} : (tensor<2x4x16xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK-LABEL: func.func @embed
// CHECK:         %[[E:.*]] = dist.embedding %[[IDS:[^,]+]], %[[TABLE:[^ ]+]] :
// CHECK-NEXT:    %[[Y:.*]], %[[MEAN:.*]], %[[RSTD:.*]] = dist.layer_norm %[[E]], %[[G:[^,]+]],
// CHECK:         %[[DO:.*]] = dist.relu_grad
// CHECK-NEXT:    %[[DY:.*]], %[[DT1:.*]] = dist.matmul_grad %[[Y]], %[[TABLE]], %[[DO]] {transpose_y}
// CHECK-NEXT:    %[[DE:.*]], %[[DG:.*]], %{{.*}} = dist.layer_norm_grad %[[E]], %[[G]], %[[MEAN]], %[[RSTD]], %[[DY]] {begin_norm_axis = 2 : i64}
// CHECK-NEXT:    %[[DT2:.*]] = dist.embedding_grad %[[IDS]], %[[TABLE]], %[[DE]] :
// CHECK-NEXT:    %[[DT:.*]] = dist.add %[[DT1]], %[[DT2]]
// CHECK-NEXT:    return %{{.*}}, %[[DT]], %[[DG]] :

// -----

// A requested argument the loss does not read has a zero gradient; a
// branch the loss does not read gets no gradient op; a function without
// dist.requires_grad is left as it is.
func.func @unread(%x: tensor<4xf32> {dist.requires_grad}, %z: tensor<4x2xf32> {dist.requires_grad}) -> tensor<f32> {
  %unused = dist.gelu %x : (tensor<4xf32>) -> tensor<4xf32>
  %l = dist.reduce_sum %x {dims = array<i64: 0>} : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
func.func @untouched(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// CHECK-LABEL: func.func @unread
// CHECK-SAME:    -> (tensor<f32>, tensor<4xf32> {dist.gradient_of = 0 : i64}, tensor<4x2xf32> {dist.gradient_of = 1 : i64})
// CHECK:         %[[L:.*]] = dist.reduce_sum
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant dense<1.000000e+00>
// CHECK-NEXT:    %[[DX:.*]] = dist.reduce_sum_grad %{{.*}}, %[[ONE]]
// CHECK-NEXT:    %[[DZ:.*]] = arith.constant dense<0.000000e+00> : tensor<4x2xf32>
// CHECK-NEXT:    return %[[L]], %[[DX]], %[[DZ]]
// CHECK-LABEL: func.func @untouched(%{{.*}}: tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    return

// -----

// A bf16 loss is seeded in bf16; a requested argument that is the loss
// itself has the seed as its gradient; results that already carry
// attributes keep them, and the appended ones get their own.
dist.mesh @mesh = <["dp"=2]>
func.func @scalar(%s: tensor<bf16> {dist.requires_grad}, %x: tensor<4xbf16> {dist.sharding = #dist.sharding<@mesh, [{"dp"}]>})
    -> (tensor<bf16>, tensor<4xbf16> {dist.sharding = #dist.sharding<@mesh, [{"dp"}]>}) {
  return %s, %x : tensor<bf16>, tensor<4xbf16>
}

// CHECK-LABEL: func.func @scalar
// CHECK-SAME:    -> (tensor<bf16>, tensor<4xbf16> {dist.sharding = #dist.sharding<@mesh, [{"dp"}]>}, tensor<bf16> {dist.gradient_of = 0 : i64})
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant dense<1.000000e+00> : tensor<bf16>
// CHECK-NEXT:    return %[[S:[^,]+]], %[[X:[^,]+]], %[[ONE]] : tensor<bf16>, tensor<4xbf16>, tensor<bf16>

// -----

// The gradient of a stage boundary crosses it the other way: a boundary of
// the output gradient.
// CHECK-LABEL: func.func @stages
// CHECK:         %[[B:.*]] = dist.stage_boundary %[[A:.*]] : (tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK:         %[[DB:.*]], %[[DW2:.*]] = dist.matmul_grad %[[B]], %{{.*}}, %{{.*}}
// CHECK-NEXT:    %[[DA:.*]] = dist.stage_boundary %[[DB]] : (tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT:    %{{.*}} = dist.tanh_grad %{{.*}}, %[[DA]]
func.func @stages(%x: tensor<8x16xf32>, %w1: tensor<16x16xf32> {dist.requires_grad},
                  %w2: tensor<16x16xf32> {dist.requires_grad}) -> tensor<f32> {
  %h = dist.matmul %x, %w1 : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %a = dist.tanh %h : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %b = dist.stage_boundary %a : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %y = dist.matmul %b, %w2 : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %s = dist.reduce_mean %y {dims = array<i64: 0, 1>} : (tensor<8x16xf32>) -> tensor<f32>
  return %s : tensor<f32>
}

// -----

// The maximum's gradient goes to the elements equal to it, shared evenly
// where several are (as JAX, PyTorch and TensorFlow share it): the
// gradient op applied to ones marks them, a sum over the reduced dims
// counts them, and dout divided by the count is what each receives.
func.func @row_max(%x: tensor<4x8xf32> {dist.requires_grad}) -> tensor<f32> {
  %m = dist.reduce_max %x {dims = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4xf32>
  %loss = dist.reduce_sum %m {dims = array<i64: 0>} : (tensor<4xf32>) -> tensor<f32>
  return %loss : tensor<f32>
}

// CHECK-LABEL: func.func @row_max
// CHECK:       %[[M:.*]] = dist.reduce_max %arg0 {dims = array<i64: 1>}
// CHECK:       %[[DM:.*]] = dist.reduce_sum_grad %[[M]]
// CHECK-NEXT:  %[[ONES:.*]] = arith.constant dense<1.000000e+00> : tensor<4xf32>
// CHECK-NEXT:  %[[CHOSEN:.*]] = dist.reduce_max_grad %arg0, %[[M]], %[[ONES]] {dims = array<i64: 1>}
// CHECK-NEXT:  %[[COUNT:.*]] = dist.reduce_sum %[[CHOSEN]] {dims = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4xf32>
// CHECK-NEXT:  %[[SHARE:.*]] = dist.div %[[DM]], %[[COUNT]]
// CHECK-NEXT:  %[[DX:.*]] = dist.reduce_max_grad %arg0, %[[M]], %[[SHARE]] {dims = array<i64: 1>}
// CHECK-NEXT:  return %{{.*}}, %[[DX]]
