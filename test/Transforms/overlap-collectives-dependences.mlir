// RUN: dist-opt %s --split-input-file --allow-unregistered-dialect --dist-overlap-collectives | FileCheck %s
// RUN: dist-opt %s --split-input-file --allow-unregistered-dialect --dist-overlap-collectives > %t
// RUN: dist-opt %t --split-input-file --allow-unregistered-dialect --dist-overlap-collectives | diff %t -

// Def-use and effects bound every move: the start waits for its operand,
// the wait stays before its reader, pure work moves into the window (even
// across an op with unknown effects), and no start or wait crosses that op.
dist.mesh @mesh = <["x"=4]>
func.func @dependences(%a: tensor<8x16xf32>, %b: tensor<8x16xf32>, %c: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) {
  %p = dist.gelu %a : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %r = dist.all_reduce %p on @mesh axes = ["x"] kind = sum : tensor<8x16xf32> -> tensor<8x16xf32>
  %u = dist.relu %r : (tensor<8x16xf32>) -> tensor<8x16xf32>
  "test.effect"() : () -> ()
  %i = dist.gelu %b : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %s = dist.all_reduce %c on @mesh axes = ["x"] kind = max : tensor<8x16xf32> -> tensor<8x16xf32>
  return %u, %i, %s, %p : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
}
// CHECK-LABEL: func.func @dependences
// CHECK-SAME:    (%[[A:[^:]*]]: {{.*}}, %[[B:[^:]*]]: {{.*}}, %[[C:[^:]*]]: {{.*}})
// CHECK-NEXT:    %[[P:.*]] = dist.gelu %[[A]]
// CHECK-NEXT:    %[[H:.*]] = dist.all_reduce_start %[[P]]
// CHECK-NEXT:    %[[I:.*]] = dist.gelu %[[B]]
// CHECK-NEXT:    %[[R:.*]] = dist.wait %[[H]]
// CHECK-NEXT:    %[[U:.*]] = dist.relu %[[R]]
// CHECK-NEXT:    "test.effect"()
// CHECK-NEXT:    %[[HS:.*]] = dist.all_reduce_start %[[C]] {{.*}} kind = max
// CHECK-NEXT:    %[[S:.*]] = dist.wait %[[HS]]
// CHECK-NEXT:    return %[[U]], %[[I]], %[[S]], %[[P]]

// -----


// Every communicating kind becomes async; all_slice moves nothing and stays.
dist.mesh @mesh = <["x"=4]>
func.func @kinds(%a: tensor<8x16xf32>) -> (tensor<2x16xf32>, tensor<32x16xf32>, tensor<32x4xf32>, tensor<8x4xf32>) {
  %r = dist.reduce_scatter %a on @mesh axes = ["x"] dim = 0 kind = sum : tensor<8x16xf32> -> tensor<2x16xf32>
  %g = dist.all_gather %a on @mesh axes = ["x"] dim = 0 : tensor<8x16xf32> -> tensor<32x16xf32>
  %t = dist.all_to_all %a on @mesh axes = ["x"] split_dim = 1 concat_dim = 0 : tensor<8x16xf32> -> tensor<32x4xf32>
  %s = dist.all_slice %a on @mesh axes = ["x"] dim = 1 : tensor<8x16xf32> -> tensor<8x4xf32>
  return %r, %g, %t, %s : tensor<2x16xf32>, tensor<32x16xf32>, tensor<32x4xf32>, tensor<8x4xf32>
}
// CHECK-LABEL: func.func @kinds
// CHECK-SAME:    (%[[A:[^:]*]]: {{.*}})
// CHECK-NEXT:    %[[HR:.*]] = dist.reduce_scatter_start %[[A]] on @mesh axes = ["x"] dim = 0 kind = sum : tensor<8x16xf32> -> !dist.handle<tensor<2x16xf32>>
// CHECK-NEXT:    %[[HG:.*]] = dist.all_gather_start %[[A]] on @mesh axes = ["x"] dim = 0 : tensor<8x16xf32> -> !dist.handle<tensor<32x16xf32>>
// CHECK-NEXT:    %[[HT:.*]] = dist.all_to_all_start %[[A]] on @mesh axes = ["x"] split_dim = 1 concat_dim = 0 : tensor<8x16xf32> -> !dist.handle<tensor<32x4xf32>>
// CHECK-NEXT:    %[[S:.*]] = dist.all_slice %[[A]]
// CHECK-NEXT:    %[[R:.*]] = dist.wait %[[HR]] : !dist.handle<tensor<2x16xf32>> -> tensor<2x16xf32>
// CHECK-NEXT:    %[[G:.*]] = dist.wait %[[HG]]
// CHECK-NEXT:    %[[T:.*]] = dist.wait %[[HT]]
// CHECK-NEXT:    return %[[R]], %[[G]], %[[T]], %[[S]]
