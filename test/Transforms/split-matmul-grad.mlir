// RUN: dist-opt %s --split-input-file --dist-propagate-sharding --dist-resolve-partial --dist-split-matmul-grad | FileCheck %s
// The split ops carry shardings consistent with their rules, and a second
// run finds nothing left to split.
// RUN: dist-opt %s --split-input-file --dist-propagate-sharding --dist-resolve-partial --dist-split-matmul-grad > %t
// RUN: dist-opt %t --split-input-file --dist-verify-sharding -o /dev/null
// RUN: dist-opt %t --split-input-file --dist-split-matmul-grad | diff %t -

// Megatron column-parallel backward: dx is partial over tp and all-reduced,
// so the gradient splits and dx's matmul comes first.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @column_parallel(%x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>},
                           %w: tensor<16x64xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
                           %dout: tensor<8x64xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {"tp"}]>})
    -> (tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>}, tensor<16x64xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>}) {
  %dx, %dw = dist.matmul_grad %x, %w, %dout : (tensor<8x16xf32>, tensor<16x64xf32>, tensor<8x64xf32>) -> (tensor<8x16xf32>, tensor<16x64xf32>)
  %g = dist.gelu %dx : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %g, %dw : tensor<8x16xf32>, tensor<16x64xf32>
}

// CHECK-LABEL: func.func @column_parallel
// CHECK-SAME:    (%[[X:[^:]*]]: {{.*}}, %[[W:[^:]*]]: {{.*}}, %[[DOUT:[^:]*]]: {{.*}})
// CHECK-NEXT:    %[[DX:.*]] = dist.matmul %[[DOUT]], %[[W]] {dist.sharding = [#dist.sharding<@mesh, [{"dp"}, {}], partial = sum{"tp"}>], transpose_y}
// CHECK-NEXT:    %[[DW:.*]] = dist.matmul %[[X]], %[[DOUT]] {dist.sharding = [#dist.sharding<@mesh, [{}, {"tp"}], partial = sum{"dp"}>], transpose_x}
// CHECK-NEXT:    %[[R:.*]] = dist.all_reduce %[[DX]] on @mesh axes = ["tp"]
// CHECK-NEXT:    dist.all_reduce %[[DW]] on @mesh axes = ["dp"]
// CHECK-NEXT:    dist.gelu %[[R]]
// CHECK-NOT:     dist.matmul_grad


// -----

// Sequence parallel: x is split along the sequence, which cannot fold into
// the batch, so dW is a batched product partial over sp, summed over the
// batch.
dist.mesh @mesh = <["sp"=2, "tp"=2]>
func.func @sequence_sharded(%x: tensor<4x8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"sp"}, {}]>},
                            %w: tensor<16x64xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
                            %dout: tensor<4x8x64xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"sp"}, {"tp"}]>})
    -> (tensor<4x8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"sp"}, {}]>}, tensor<16x64xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>}) {
  %dx, %dw = dist.matmul_grad %x, %w, %dout : (tensor<4x8x16xf32>, tensor<16x64xf32>, tensor<4x8x64xf32>) -> (tensor<4x8x16xf32>, tensor<16x64xf32>)
  %g = dist.gelu %dx : (tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  return %g, %dw : tensor<4x8x16xf32>, tensor<16x64xf32>
}

// CHECK-LABEL: func.func @sequence_sharded
// CHECK-SAME:    (%[[X:[^:]*]]: {{.*}}, %[[W:[^:]*]]: {{.*}}, %[[DOUT:[^:]*]]: {{.*}})
// CHECK-NEXT:    %[[DX:.*]] = dist.matmul %[[DOUT]], %[[W]] {dist.sharding = [#dist.sharding<@mesh, [{}, {"sp"}, {}], partial = sum{"tp"}>], transpose_y} : (tensor<4x8x64xf32>, tensor<16x64xf32>) -> tensor<4x8x16xf32>
// CHECK-NEXT:    %[[P:.*]] = dist.matmul %[[X]], %[[DOUT]] {dist.sharding = [#dist.sharding<@mesh, [{}, {}, {"tp"}], partial = sum{"sp"}>], transpose_x} : (tensor<4x8x16xf32>, tensor<4x8x64xf32>) -> tensor<4x16x64xf32>
// CHECK-NEXT:    %[[DW:.*]] = dist.reduce_sum %[[P]] {dims = array<i64: 0>, dist.sharding = [#dist.sharding<@mesh, [{}, {"tp"}], partial = sum{"sp"}>]}
// CHECK-NEXT:    dist.all_reduce %[[DX]] on @mesh axes = ["tp"]
// CHECK-NEXT:    dist.all_reduce %[[DW]] on @mesh axes = ["sp"]
// CHECK-NOT:     dist.reshape


// -----

// Q/K/V: the input gradients are summed while partial and reduced once;
// each matmul_grad feeds that collective and splits.
dist.mesh @mesh = <["tp"=4]>
func.func @summed(%x: tensor<8x16xf32>,
                  %wq: tensor<16x64xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
                  %wk: tensor<16x64xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
                  %dq: tensor<8x64xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
                  %dk: tensor<8x64xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>})
    -> (tensor<8x16xf32>, tensor<16x64xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>}, tensor<16x64xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>}) {
  %dxq, %dwq = dist.matmul_grad %x, %wq, %dq : (tensor<8x16xf32>, tensor<16x64xf32>, tensor<8x64xf32>) -> (tensor<8x16xf32>, tensor<16x64xf32>)
  %dxk, %dwk = dist.matmul_grad %x, %wk, %dk : (tensor<8x16xf32>, tensor<16x64xf32>, tensor<8x64xf32>) -> (tensor<8x16xf32>, tensor<16x64xf32>)
  %dx = dist.add %dxq, %dxk : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %g = dist.gelu %dx : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %g, %dwq, %dwk : tensor<8x16xf32>, tensor<16x64xf32>, tensor<16x64xf32>
}

// CHECK-LABEL: func.func @summed
// CHECK-SAME:    (%[[X:[^:]*]]: {{.*}}, %[[WQ:[^:]*]]: {{.*}}, %[[WK:[^:]*]]: {{.*}}, %[[DQ:[^:]*]]: {{.*}}, %[[DK:[^:]*]]: {{.*}})
// CHECK-NEXT:    %[[DXQ:.*]] = dist.matmul %[[DQ]], %[[WQ]] {{.*}}partial = sum{"tp"}
// CHECK-NEXT:    %[[DWQ:.*]] = dist.matmul %[[X]], %[[DQ]]
// CHECK-NEXT:    %[[DXK:.*]] = dist.matmul %[[DK]], %[[WK]] {{.*}}partial = sum{"tp"}
// CHECK-NEXT:    %[[DWK:.*]] = dist.matmul %[[X]], %[[DK]]
// CHECK-NEXT:    %[[S:.*]] = dist.add %[[DXQ]], %[[DXK]]
// CHECK-NEXT:    dist.all_reduce %[[S]] on @mesh axes = ["tp"]


// -----

// Data parallel only: no collective reads dx (only dW is reduced), so
// there is nothing to overlap and the gradient stays fused.
dist.mesh @mesh = <["dp"=4]>
func.func @data_parallel(%x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>},
                         %w: tensor<16x32xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}]>},
                         %dout: tensor<8x32xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>})
    -> (tensor<8x16xf32>, tensor<16x32xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}]>}) {
  %dx, %dw = dist.matmul_grad %x, %w, %dout : (tensor<8x16xf32>, tensor<16x32xf32>, tensor<8x32xf32>) -> (tensor<8x16xf32>, tensor<16x32xf32>)
  return %dx, %dw : tensor<8x16xf32>, tensor<16x32xf32>
}

// CHECK-LABEL: func.func @data_parallel
// CHECK-NEXT:    dist.matmul_grad
// CHECK-NEXT:    dist.all_reduce
// CHECK-NOT:     dist.matmul {{.*}}transpose

