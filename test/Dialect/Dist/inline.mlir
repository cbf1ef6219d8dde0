// dist ops may be inlined: the upstream inliner flattens a call of a
// function of dist ops into its caller, with the async pairs in order.
// RUN: dist-opt %s --inline --symbol-dce | FileCheck %s

dist.mesh @mesh = <["x"=2]>
func.func private @reduce(%a: tensor<4xf32>) -> tensor<4xf32> {
  %e = dist.exp %a : (tensor<4xf32>) -> tensor<4xf32>
  %h = dist.all_reduce_start %e on @mesh axes = ["x"] kind = sum : tensor<4xf32> -> !dist.handle<tensor<4xf32>>
  %r = dist.wait %h : !dist.handle<tensor<4xf32>> -> tensor<4xf32>
  return %r : tensor<4xf32>
}
// CHECK-LABEL: func.func @step
// CHECK-SAME:    (%[[A:.*]]: tensor<4xf32>)
// CHECK-NEXT:    %[[E:.*]] = dist.exp %[[A]]
// CHECK-NEXT:    %[[H:.*]] = dist.all_reduce_start %[[E]]
// CHECK-NEXT:    %[[R:.*]] = dist.wait %[[H]]
// CHECK-NEXT:    return %[[R]]
// CHECK-NOT:   func.func
func.func @step(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = func.call @reduce(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
