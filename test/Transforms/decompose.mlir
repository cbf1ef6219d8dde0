// RUN: dist-opt %s --split-input-file --dist-decompose | FileCheck %s
// Decomposing is idempotent: a second run finds no composite op.
// RUN: dist-opt %s --split-input-file --dist-decompose > %t
// RUN: dist-opt %t --split-input-file --dist-decompose | diff %t -

// The cross-entropy and its gradient: the log-sum-exp over the vocabulary
// is built once, by the forward's expansion, and the gradient reuses it.
func.func @loss(%logits: tensor<4x8x64xf32>, %labels: tensor<4x8xi64>, %dloss: tensor<f32>) -> (tensor<f32>, tensor<4x8x64xf32>) {
  %l = dist.cross_entropy %logits, %labels : (tensor<4x8x64xf32>, tensor<4x8xi64>) -> tensor<f32>
  %d = dist.cross_entropy_grad %logits, %labels, %dloss : (tensor<4x8x64xf32>, tensor<4x8xi64>, tensor<f32>) -> tensor<4x8x64xf32>
  return %l, %d : tensor<f32>, tensor<4x8x64xf32>
}

// CHECK-LABEL: func.func @loss
// CHECK-SAME:    (%[[X:.*]]: tensor<4x8x64xf32>, %[[Y:.*]]: tensor<4x8xi64>, %[[D:.*]]: tensor<f32>)
// CHECK-NEXT:    %[[M:.*]] = dist.reduce_max %[[X]] {dims = array<i64: 2>, keepdim} : (tensor<4x8x64xf32>) -> tensor<4x8x1xf32>
// CHECK-NEXT:    %[[Z:.*]] = dist.sub %[[X]], %[[M]] : (tensor<4x8x64xf32>, tensor<4x8x1xf32>) -> tensor<4x8x64xf32>
// CHECK-NEXT:    %[[E:.*]] = dist.exp %[[Z]]
// CHECK-NEXT:    %[[S:.*]] = dist.reduce_sum %[[E]] {dims = array<i64: 2>, keepdim}
// CHECK-NEXT:    %[[LOG:.*]] = dist.log %[[S]]
// CHECK-NEXT:    %[[LSE:.*]] = dist.add %[[LOG]], %[[M]] : (tensor<4x8x1xf32>, tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
// CHECK-NEXT:    %[[ROW:.*]] = dist.reshape %[[LSE]] : (tensor<4x8x1xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    %[[P:.*]] = dist.take_along %[[X]], %[[Y]] : (tensor<4x8x64xf32>, tensor<4x8xi64>) -> tensor<4x8xf32>
// CHECK-NEXT:    %[[T:.*]] = dist.sub %[[ROW]], %[[P]]
// CHECK-NEXT:    %[[L:.*]] = dist.reduce_mean %[[T]] {dims = array<i64: 0, 1>} : (tensor<4x8xf32>) -> tensor<f32>
// CHECK-NEXT:    %[[Z2:.*]] = dist.sub %[[X]], %[[LSE]]
// CHECK-NEXT:    %[[P2:.*]] = dist.exp %[[Z2]]
// CHECK-NEXT:    %[[C:.*]] = dist.scale %[[D]] {factor = 3.125000e-02 : f64} : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT:    %[[G:.*]] = dist.mul %[[P2]], %[[C]] : (tensor<4x8x64xf32>, tensor<f32>) -> tensor<4x8x64xf32>
// CHECK-NEXT:    %[[H:.*]] = dist.take_along_grad %[[Y]], %[[C]] : (tensor<4x8xi64>, tensor<f32>) -> tensor<4x8x64xf32>
// CHECK-NEXT:    %[[DX:.*]] = dist.sub %[[G]], %[[H]]
// CHECK-NEXT:    return %[[L]], %[[DX]]

// -----

// A hand-written gradient without its forward builds its own log-sum-exp.
func.func @grad_only(%logits: tensor<16x32xf32>, %labels: tensor<16xi64>, %dloss: tensor<f32>) -> tensor<16x32xf32> {
  %d = dist.cross_entropy_grad %logits, %labels, %dloss : (tensor<16x32xf32>, tensor<16xi64>, tensor<f32>) -> tensor<16x32xf32>
  return %d : tensor<16x32xf32>
}

// CHECK-LABEL: func.func @grad_only
// CHECK:         dist.reduce_max %{{.*}} {dims = array<i64: 1>, keepdim} : (tensor<16x32xf32>) -> tensor<16x1xf32>
// CHECK:         dist.scale %{{.*}} {factor = 6.250000e-02 : f64}
// CHECK:         dist.take_along_grad
// CHECK-NOT:     dist.cross_entropy

// -----

// Other ops stay as they are.
func.func @plain(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %y = dist.softmax %x {axis = 1 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @plain
// CHECK-NEXT:    dist.softmax
// CHECK-NEXT:    return
