// RUN: dist-opt %s --dist-append-backward=recompute=true | FileCheck %s
// RUN: dist-opt %s --dist-append-backward=recompute=false | FileCheck %s --check-prefix=KEEP
// RUN: dist-opt %S/Inputs/recompute-shared.mlir --dist-append-backward=recompute=true | FileCheck %s --check-prefix=SHARED
// RUN: dist-opt %S/Inputs/recompute-none.mlir --dist-append-backward=recompute=true --verify-diagnostics -o /dev/null
// Without recomputation the backward reads the forward's values; with it,
// only each residual block's input (the segments' checkpoints %x0, %x1,
// found without marks) is read, and each block is recomputed from it right
// before its gradients, which read the copies.

// CHECK-LABEL: func.func @blocks
// CHECK:         %[[X0:.*]] = dist.scale %arg0
// CHECK-NEXT:    %[[H1:.*]] = dist.matmul %[[X0]], %arg1
// CHECK-NEXT:    %[[A1:.*]] = dist.gelu %[[H1]]
// CHECK-NEXT:    %[[X1:.*]] = dist.add %[[X0]], %[[A1]]
// CHECK-NEXT:    %[[H2:.*]] = dist.matmul %[[X1]], %arg2
// CHECK-NEXT:    %[[A2:.*]] = dist.gelu %[[H2]]
// CHECK-NEXT:    %[[X2:.*]] = dist.add %[[X1]], %[[A2]]
// CHECK-NEXT:    %[[L:.*]] = dist.reduce_mean %[[X2]]
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant
// CHECK-NEXT:    %[[D2:.*]] = dist.reduce_mean_grad %[[X2]], %[[ONE]]
// The second block again, from %x1.
// CHECK-NEXT:    %[[H2C:.*]] = dist.matmul %[[X1]], %arg2
// CHECK-NEXT:    %[[A2C:.*]] = dist.gelu %[[H2C]]
// CHECK-NEXT:    %{{.*}}, %[[DA2:.*]] = dist.add_grad %[[X1]], %[[A2C]], %[[D2]]
// CHECK-NEXT:    %[[DH2:.*]] = dist.gelu_grad %[[H2C]], %[[DA2]]
// CHECK-NEXT:    %{{.*}}, %[[DW2:.*]] = dist.matmul_grad %[[X1]], %arg2, %[[DH2]]
// CHECK-NEXT:    %[[D1:.*]] = dist.add
// The first block again, from %x0.
// CHECK-NEXT:    %[[H1C:.*]] = dist.matmul %[[X0]], %arg1
// CHECK-NEXT:    %[[A1C:.*]] = dist.gelu %[[H1C]]
// CHECK-NEXT:    %{{.*}}, %[[DA1:.*]] = dist.add_grad %[[X0]], %[[A1C]], %[[D1]]
// CHECK-NEXT:    %[[DH1:.*]] = dist.gelu_grad %[[H1C]], %[[DA1]]
// CHECK-NEXT:    %{{.*}}, %[[DW1:.*]] = dist.matmul_grad %[[X0]], %arg1, %[[DH1]]
// CHECK-NEXT:    return %[[L]], %[[DW1]], %[[DW2]]

// KEEP-LABEL: func.func @blocks
// KEEP-COUNT-2: dist.matmul %
// KEEP-NOT:     dist.matmul %
func.func @blocks(%x: tensor<8x16xf32>, %w1: tensor<16x16xf32> {dist.requires_grad},
                  %w2: tensor<16x16xf32> {dist.requires_grad}) -> tensor<f32> {
  %x0 = dist.scale %x {factor = 2.0 : f64} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %h1 = dist.matmul %x0, %w1 : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %a1 = dist.gelu %h1 : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %x1 = dist.add %x0, %a1 : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %h2 = dist.matmul %x1, %w2 : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %a2 = dist.gelu %h2 : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %x2 = dist.add %x1, %a2 : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %l = dist.reduce_mean %x2 {dims = array<i64: 0, 1>} : (tensor<8x16xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// A constant every block reads and a second returned value do not hide the
// blocks' inputs: the second block is still recomputed from %x1 alone, and
// neither the constant nor the returned value is copied.
// SHARED-LABEL: func.func @shared
// SHARED:         %[[X1:.*]] = dist.add
// SHARED:         dist.reduce_mean_grad
// SHARED-NEXT:    %[[COPY:.*]] = dist.matmul %[[X1]], %arg2
// SHARED-NEXT:    dist.causal_mask %[[COPY]]
// SHARED-NOT:     arith.constant
// SHARED-NOT:     dist.reduce_mean %
