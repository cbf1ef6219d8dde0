// RUN: dist-opt %s --dist-propagate-sharding --dist-resolve-partial --dist-split-matmul-grad --dist-overlap-collectives | FileCheck %s
// The schedule is stable and the shardings stay consistent.
// RUN: dist-opt %s --dist-propagate-sharding --dist-resolve-partial --dist-split-matmul-grad --dist-overlap-collectives > %t
// RUN: dist-opt %t --dist-overlap-collectives | diff %t -
// RUN: dist-opt %t --dist-verify-sharding -o /dev/null
// Bucketed gradients: the coalesced all-reduce starts right after its last
// gradient is produced and is waited for at the return.
// RUN: dist-opt %S/../../examples/megatron-mlp.mlir --dist-propagate-sharding --dist-resolve-partial="bucket-mb=1" --dist-overlap-collectives | FileCheck %s --check-prefix=BUCKET
// BUCKET-LABEL: func.func @step
// BUCKET:         %{{[^ ]*}}, %[[DW1:[^ ]*]] = dist.matmul_grad %arg0
// BUCKET-NEXT:    %[[H:.*]] = dist.all_reduce_start %{{.*}}, %{{.*}}, %{{.*}}, %[[DW1]] on @mesh axes = ["dp"] kind = sum
// BUCKET-NEXT:    %[[R:[0-9]+]]:4 = dist.wait %[[H]]
// BUCKET-NEXT:    dist.scale %[[R]]#0
// BUCKET-NEXT:    return

// Megatron MLP backward (column-parallel fc1 after row-parallel fc2): the
// input gradient is all-reduced over tp while fc1's dW is computed.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @megatron_mlp_backward(%x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>},
                                 %w1: tensor<16x64xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
                                 %w2: tensor<64x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>},
                                 %h: tensor<8x64xf32>, %g: tensor<8x64xf32>,
                                 %dy: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>})
    -> (tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>},
        tensor<16x64xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
        tensor<64x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>}) {
  %dg, %dw2 = dist.matmul_grad %g, %w2, %dy : (tensor<8x64xf32>, tensor<64x16xf32>, tensor<8x16xf32>) -> (tensor<8x64xf32>, tensor<64x16xf32>)
  %dh = dist.gelu_grad %h, %dg : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
  %dx, %dw1 = dist.matmul_grad %x, %w1, %dh : (tensor<8x16xf32>, tensor<16x64xf32>, tensor<8x64xf32>) -> (tensor<8x16xf32>, tensor<16x64xf32>)
  return %dx, %dw1, %dw2 : tensor<8x16xf32>, tensor<16x64xf32>, tensor<64x16xf32>
}

// The required order: dx's matmul, its all-reduce started, dW's matmul
// while it runs, and the wait only at the first use (here the return).
// CHECK-LABEL: func.func @megatron_mlp_backward
// CHECK-SAME:    (%[[X:[^:]*]]: {{.*}}, %[[W1:[^:]*]]: {{.*}}, %[[W2:[^:]*]]: {{.*}}, %[[H:[^:]*]]: {{.*}}, %[[G:[^:]*]]: {{.*}}, %[[DY:[^:]*]]: {{.*}})
// CHECK-NEXT:    %[[DG:.*]], %[[DW2:.*]] = dist.matmul_grad %[[G]], %[[W2]], %[[DY]]
// CHECK-NEXT:    %[[HW2:.*]] = dist.all_reduce_start %[[DW2]] on @mesh axes = ["dp"]
// CHECK-NEXT:    %[[DH:.*]] = dist.gelu_grad %[[H]], %[[DG]]
// CHECK-NEXT:    %[[DX:.*]] = dist.matmul %[[DH]], %[[W1]] {{.*}}transpose_y
// CHECK-NEXT:    %[[HX:.*]] = dist.all_reduce_start %[[DX]] on @mesh axes = ["tp"]
// CHECK-NEXT:    %[[DW1:.*]] = dist.matmul %[[X]], %[[DH]] {{.*}}transpose_x
// CHECK-NEXT:    %[[HW1:.*]] = dist.all_reduce_start %[[DW1]] on @mesh axes = ["dp"]
// CHECK-NEXT:    %[[RW2:.*]] = dist.wait %[[HW2]]
// CHECK-NEXT:    %[[RX:.*]] = dist.wait %[[HX]] {dist.sharding = [#dist.sharding<@mesh, [{"dp"}, {}]>]}
// CHECK-NEXT:    %[[RW1:.*]] = dist.wait %[[HW1]]
// CHECK-NEXT:    return %[[RX]], %[[RW1]], %[[RW2]]
