// A contraction whose operands split it over different axes (x over "a",
// y over "b"): propagation chose "b" and declared the product partial over
// it; resolution, re-reading the declaration, let x's "a" win and refused
// its own output ("declared partial over {\"b\"}, which the op cannot
// produce"). A declared partial now claims an operand's matching split.
// From dist-fuzz --grad (seed 2, program 41).
// RUN: dist-fuzz --grad-check %s -n 4 --out %t | FileCheck %s
// CHECK: -n 4 -O2: match
dist.mesh @mesh = <["a"=2, "b"=2]>
func.func @f(%a1: tensor<1x2x3xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}, {"a"}]>}, %a3: tensor<1x3x4xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{}, {"b"}, {"a"}]>}, %a4: tensor<f32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, []>}, %a5: tensor<2x2xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{}, {}]>}, %a6: tensor<1x1x2xf32>) -> tensor<f32> {
  %v0 = dist.gelu %a1 {approximate = "tanh"} : (tensor<1x2x3xf32>) -> tensor<1x2x3xf32>
  %v1 = dist.maximum %v0, %v0 : (tensor<1x2x3xf32>, tensor<1x2x3xf32>) -> tensor<1x2x3xf32>
  %v2 = dist.matmul %v1, %a3 : (tensor<1x2x3xf32>, tensor<1x3x4xf32>) -> tensor<1x2x4xf32>
  %v3 = dist.reduce_sum %v2 {dims = array<i64: 0, 2>, keepdim} : (tensor<1x2x4xf32>) -> tensor<1x2x1xf32>
  %v4 = dist.sub %a4, %v3 : (tensor<f32>, tensor<1x2x1xf32>) -> tensor<1x2x1xf32>
  %v5 = dist.matmul %v4, %a5 {transpose_x} : (tensor<1x2x1xf32>, tensor<2x2xf32>) -> tensor<1x1x2xf32>
  %v6 = dist.mul %v5, %a6 : (tensor<1x1x2xf32>, tensor<1x1x2xf32>) -> tensor<1x1x2xf32>
  %v7 = dist.reduce_sum %v6 {dims = array<i64: 0, 1, 2>} : (tensor<1x1x2xf32>) -> tensor<f32>
  return %v7 : tensor<f32>
}
