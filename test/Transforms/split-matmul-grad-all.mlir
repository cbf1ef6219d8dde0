// RUN: dist-opt %s --split-input-file --dist-split-matmul-grad="split=all" | FileCheck %s
// Splitting is idempotent: nothing is left to split.
// RUN: dist-opt %s --split-input-file --dist-split-matmul-grad="split=all" > %t
// RUN: dist-opt %t --split-input-file --dist-split-matmul-grad="split=all" | diff %t -
// A bad option value is a pipeline error.
// RUN: not dist-opt %s --dist-split-matmul-grad="split=some" 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: split must be comm or all, not 'some'

// No transposes: dx = dout . y^T, dy = x^T . dout.
func.func @nn(%x: tensor<8x16xf32>, %y: tensor<16x32xf32>, %dout: tensor<8x32xf32>) -> (tensor<8x16xf32>, tensor<16x32xf32>) {
  %dx, %dy = dist.matmul_grad %x, %y, %dout : (tensor<8x16xf32>, tensor<16x32xf32>, tensor<8x32xf32>) -> (tensor<8x16xf32>, tensor<16x32xf32>)
  return %dx, %dy : tensor<8x16xf32>, tensor<16x32xf32>
}
// CHECK-LABEL: func.func @nn
// CHECK-SAME:    (%[[X:.*]]: tensor<8x16xf32>, %[[Y:.*]]: tensor<16x32xf32>, %[[DOUT:.*]]: tensor<8x32xf32>)
// CHECK-NEXT:    %[[DX:.*]] = dist.matmul %[[DOUT]], %[[Y]] {transpose_y} : (tensor<8x32xf32>, tensor<16x32xf32>) -> tensor<8x16xf32>
// CHECK-NEXT:    %[[DY:.*]] = dist.matmul %[[X]], %[[DOUT]] {transpose_x} : (tensor<8x16xf32>, tensor<8x32xf32>) -> tensor<16x32xf32>
// CHECK-NEXT:    return %[[DX]], %[[DY]]

// -----

// y transposed (y is n x k): dx = dout . y, dy = dout^T . x.
func.func @nt(%x: tensor<8x16xf32>, %y: tensor<32x16xf32>, %dout: tensor<8x32xf32>) -> (tensor<8x16xf32>, tensor<32x16xf32>) {
  %dx, %dy = dist.matmul_grad %x, %y, %dout {transpose_y} : (tensor<8x16xf32>, tensor<32x16xf32>, tensor<8x32xf32>) -> (tensor<8x16xf32>, tensor<32x16xf32>)
  return %dx, %dy : tensor<8x16xf32>, tensor<32x16xf32>
}
// CHECK-LABEL: func.func @nt
// CHECK-SAME:    (%[[X:.*]]: tensor<8x16xf32>, %[[Y:.*]]: tensor<32x16xf32>, %[[DOUT:.*]]: tensor<8x32xf32>)
// CHECK-NEXT:    %[[DX:.*]] = dist.matmul %[[DOUT]], %[[Y]] : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT:    %[[DY:.*]] = dist.matmul %[[DOUT]], %[[X]] {transpose_x} : (tensor<8x32xf32>, tensor<8x16xf32>) -> tensor<32x16xf32>
// CHECK-NEXT:    return %[[DX]], %[[DY]]

// -----

// x transposed (x is k x m): dx = y . dout^T, dy = x . dout.
func.func @tn(%x: tensor<16x8xf32>, %y: tensor<16x32xf32>, %dout: tensor<8x32xf32>) -> (tensor<16x8xf32>, tensor<16x32xf32>) {
  %dx, %dy = dist.matmul_grad %x, %y, %dout {transpose_x} : (tensor<16x8xf32>, tensor<16x32xf32>, tensor<8x32xf32>) -> (tensor<16x8xf32>, tensor<16x32xf32>)
  return %dx, %dy : tensor<16x8xf32>, tensor<16x32xf32>
}
// CHECK-LABEL: func.func @tn
// CHECK-SAME:    (%[[X:.*]]: tensor<16x8xf32>, %[[Y:.*]]: tensor<16x32xf32>, %[[DOUT:.*]]: tensor<8x32xf32>)
// CHECK-NEXT:    %[[DX:.*]] = dist.matmul %[[Y]], %[[DOUT]] {transpose_y} : (tensor<16x32xf32>, tensor<8x32xf32>) -> tensor<16x8xf32>
// CHECK-NEXT:    %[[DY:.*]] = dist.matmul %[[X]], %[[DOUT]] : (tensor<16x8xf32>, tensor<8x32xf32>) -> tensor<16x32xf32>
// CHECK-NEXT:    return %[[DX]], %[[DY]]

// -----

// Both transposed: dx = y^T . dout^T, dy = dout^T . x^T.
func.func @tt(%x: tensor<16x8xf32>, %y: tensor<32x16xf32>, %dout: tensor<8x32xf32>) -> (tensor<16x8xf32>, tensor<32x16xf32>) {
  %dx, %dy = dist.matmul_grad %x, %y, %dout {transpose_x, transpose_y} : (tensor<16x8xf32>, tensor<32x16xf32>, tensor<8x32xf32>) -> (tensor<16x8xf32>, tensor<32x16xf32>)
  return %dx, %dy : tensor<16x8xf32>, tensor<32x16xf32>
}
// CHECK-LABEL: func.func @tt
// CHECK-SAME:    (%[[X:.*]]: tensor<16x8xf32>, %[[Y:.*]]: tensor<32x16xf32>, %[[DOUT:.*]]: tensor<8x32xf32>)
// CHECK-NEXT:    %[[DX:.*]] = dist.matmul %[[Y]], %[[DOUT]] {transpose_x, transpose_y} : (tensor<32x16xf32>, tensor<8x32xf32>) -> tensor<16x8xf32>
// CHECK-NEXT:    %[[DY:.*]] = dist.matmul %[[DOUT]], %[[X]] {transpose_x, transpose_y} : (tensor<8x32xf32>, tensor<16x8xf32>) -> tensor<32x16xf32>
// CHECK-NEXT:    return %[[DX]], %[[DY]]

// -----

// Rank 3 with a 2-D weight: the leading dims fold so that dW is one GEMM
// over 4*8 rows, and dx is one GEMM reshaped back; dout folds once.
func.func @folded(%x: tensor<4x8x16xf32>, %w: tensor<16x32xf32>, %dout: tensor<4x8x32xf32>) -> (tensor<4x8x16xf32>, tensor<16x32xf32>) {
  %dx, %dw = dist.matmul_grad %x, %w, %dout : (tensor<4x8x16xf32>, tensor<16x32xf32>, tensor<4x8x32xf32>) -> (tensor<4x8x16xf32>, tensor<16x32xf32>)
  return %dx, %dw : tensor<4x8x16xf32>, tensor<16x32xf32>
}
// CHECK-LABEL: func.func @folded
// CHECK-SAME:    (%[[X:.*]]: tensor<4x8x16xf32>, %[[W:.*]]: tensor<16x32xf32>, %[[DOUT:.*]]: tensor<4x8x32xf32>)
// CHECK-NEXT:    %[[D2:.*]] = dist.reshape %[[DOUT]] : (tensor<4x8x32xf32>) -> tensor<32x32xf32>
// CHECK-NEXT:    %[[DX2:.*]] = dist.matmul %[[D2]], %[[W]] {transpose_y} : (tensor<32x32xf32>, tensor<16x32xf32>) -> tensor<32x16xf32>
// CHECK-NEXT:    %[[DX:.*]] = dist.reshape %[[DX2]] : (tensor<32x16xf32>) -> tensor<4x8x16xf32>
// CHECK-NEXT:    %[[X2:.*]] = dist.reshape %[[X]] : (tensor<4x8x16xf32>) -> tensor<32x16xf32>
// CHECK-NEXT:    %[[DW:.*]] = dist.matmul %[[X2]], %[[D2]] {transpose_x} : (tensor<32x16xf32>, tensor<32x32xf32>) -> tensor<16x32xf32>
// CHECK-NEXT:    return %[[DX]], %[[DW]]

// -----

// Rank 4 with a 2-D transposed weight: both fold over 2*3*8 rows.
func.func @folded_rank4(%x: tensor<2x3x8x16xf32>, %w: tensor<32x16xf32>, %dout: tensor<2x3x8x32xf32>) -> (tensor<2x3x8x16xf32>, tensor<32x16xf32>) {
  %dx, %dw = dist.matmul_grad %x, %w, %dout {transpose_y} : (tensor<2x3x8x16xf32>, tensor<32x16xf32>, tensor<2x3x8x32xf32>) -> (tensor<2x3x8x16xf32>, tensor<32x16xf32>)
  return %dx, %dw : tensor<2x3x8x16xf32>, tensor<32x16xf32>
}
// CHECK-LABEL: func.func @folded_rank4
// CHECK-SAME:    (%[[X:.*]]: tensor<2x3x8x16xf32>, %[[W:.*]]: tensor<32x16xf32>, %[[DOUT:.*]]: tensor<2x3x8x32xf32>)
// CHECK-NEXT:    %[[D2:.*]] = dist.reshape %[[DOUT]] : (tensor<2x3x8x32xf32>) -> tensor<48x32xf32>
// CHECK-NEXT:    %[[DX2:.*]] = dist.matmul %[[D2]], %[[W]] : (tensor<48x32xf32>, tensor<32x16xf32>) -> tensor<48x16xf32>
// CHECK-NEXT:    %[[DX:.*]] = dist.reshape %[[DX2]] : (tensor<48x16xf32>) -> tensor<2x3x8x16xf32>
// CHECK-NEXT:    %[[X2:.*]] = dist.reshape %[[X]] : (tensor<2x3x8x16xf32>) -> tensor<48x16xf32>
// CHECK-NEXT:    %[[DW:.*]] = dist.matmul %[[D2]], %[[X2]] {transpose_x} : (tensor<48x32xf32>, tensor<48x16xf32>) -> tensor<32x16xf32>
// CHECK-NEXT:    return %[[DX]], %[[DW]]

// -----

// A transposed batched x cannot fold: dW is a batched product summed over
// the batch; dx is a broadcast product.
func.func @transposed_batch(%x: tensor<4x16x8xf32>, %w: tensor<16x32xf32>, %dout: tensor<4x8x32xf32>) -> (tensor<4x16x8xf32>, tensor<16x32xf32>) {
  %dx, %dw = dist.matmul_grad %x, %w, %dout {transpose_x} : (tensor<4x16x8xf32>, tensor<16x32xf32>, tensor<4x8x32xf32>) -> (tensor<4x16x8xf32>, tensor<16x32xf32>)
  return %dx, %dw : tensor<4x16x8xf32>, tensor<16x32xf32>
}
// CHECK-LABEL: func.func @transposed_batch
// CHECK-SAME:    (%[[X:.*]]: tensor<4x16x8xf32>, %[[W:.*]]: tensor<16x32xf32>, %[[DOUT:.*]]: tensor<4x8x32xf32>)
// CHECK-NEXT:    %[[DX:.*]] = dist.matmul %[[W]], %[[DOUT]] {transpose_y} : (tensor<16x32xf32>, tensor<4x8x32xf32>) -> tensor<4x16x8xf32>
// CHECK-NEXT:    %[[P:.*]] = dist.matmul %[[X]], %[[DOUT]] : (tensor<4x16x8xf32>, tensor<4x8x32xf32>) -> tensor<4x16x32xf32>
// CHECK-NEXT:    %[[DW:.*]] = dist.reduce_sum %[[P]] {dims = array<i64: 0>} : (tensor<4x16x32xf32>) -> tensor<16x32xf32>
// CHECK-NEXT:    return %[[DX]], %[[DW]]

// -----

// Batched on both sides: batched products, nothing to sum.
func.func @batched(%x: tensor<4x8x16xf32>, %y: tensor<4x16x32xf32>, %dout: tensor<4x8x32xf32>) -> (tensor<4x8x16xf32>, tensor<4x16x32xf32>) {
  %dx, %dy = dist.matmul_grad %x, %y, %dout : (tensor<4x8x16xf32>, tensor<4x16x32xf32>, tensor<4x8x32xf32>) -> (tensor<4x8x16xf32>, tensor<4x16x32xf32>)
  return %dx, %dy : tensor<4x8x16xf32>, tensor<4x16x32xf32>
}
// CHECK-LABEL: func.func @batched
// CHECK-SAME:    (%[[X:.*]]: tensor<4x8x16xf32>, %[[Y:.*]]: tensor<4x16x32xf32>, %[[DOUT:.*]]: tensor<4x8x32xf32>)
// CHECK-NEXT:    %[[DX:.*]] = dist.matmul %[[DOUT]], %[[Y]] {transpose_y} : (tensor<4x8x32xf32>, tensor<4x16x32xf32>) -> tensor<4x8x16xf32>
// CHECK-NEXT:    %[[DY:.*]] = dist.matmul %[[X]], %[[DOUT]] {transpose_x} : (tensor<4x8x16xf32>, tensor<4x8x32xf32>) -> tensor<4x16x32xf32>
// CHECK-NEXT:    return %[[DX]], %[[DY]]

// -----

// Broadcast batch dims: x lacks the leading dim and has a size-1 one, so
// its gradient sums both away and is reshaped to x's shape.
func.func @broadcast(%x: tensor<1x8x16xf32>, %y: tensor<2x3x16x32xf32>, %dout: tensor<2x3x8x32xf32>) -> (tensor<1x8x16xf32>, tensor<2x3x16x32xf32>) {
  %dx, %dy = dist.matmul_grad %x, %y, %dout : (tensor<1x8x16xf32>, tensor<2x3x16x32xf32>, tensor<2x3x8x32xf32>) -> (tensor<1x8x16xf32>, tensor<2x3x16x32xf32>)
  return %dx, %dy : tensor<1x8x16xf32>, tensor<2x3x16x32xf32>
}
// CHECK-LABEL: func.func @broadcast
// CHECK-SAME:    (%[[X:.*]]: tensor<1x8x16xf32>, %[[Y:.*]]: tensor<2x3x16x32xf32>, %[[DOUT:.*]]: tensor<2x3x8x32xf32>)
// CHECK-NEXT:    %[[P:.*]] = dist.matmul %[[DOUT]], %[[Y]] {transpose_y} : (tensor<2x3x8x32xf32>, tensor<2x3x16x32xf32>) -> tensor<2x3x8x16xf32>
// CHECK-NEXT:    %[[S:.*]] = dist.reduce_sum %[[P]] {dims = array<i64: 0, 1>} : (tensor<2x3x8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT:    %[[DX:.*]] = dist.reshape %[[S]] : (tensor<8x16xf32>) -> tensor<1x8x16xf32>
// CHECK-NEXT:    %[[DY:.*]] = dist.matmul %[[X]], %[[DOUT]] {transpose_x} : (tensor<1x8x16xf32>, tensor<2x3x8x32xf32>) -> tensor<2x3x16x32xf32>
// CHECK-NEXT:    return %[[DX]], %[[DY]]

// -----

// Only the used gradient is computed: here dW alone (dx is dead).
func.func @only_dw(%x: tensor<8x16xf32>, %w: tensor<16x32xf32>, %dout: tensor<8x32xf32>) -> tensor<16x32xf32> {
  %dx, %dw = dist.matmul_grad %x, %w, %dout : (tensor<8x16xf32>, tensor<16x32xf32>, tensor<8x32xf32>) -> (tensor<8x16xf32>, tensor<16x32xf32>)
  return %dw : tensor<16x32xf32>
}
// CHECK-LABEL: func.func @only_dw
// CHECK-SAME:    (%[[X:.*]]: tensor<8x16xf32>, %[[W:.*]]: tensor<16x32xf32>, %[[DOUT:.*]]: tensor<8x32xf32>)
// CHECK-NEXT:    %[[DW:.*]] = dist.matmul %[[X]], %[[DOUT]] {transpose_x}
// CHECK-NEXT:    return %[[DW]]
// CHECK-NOT:     dist.matmul_grad
