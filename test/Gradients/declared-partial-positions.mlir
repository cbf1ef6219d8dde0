// An embedding gradient reduces two position dims, split over "b" and
// (unevenly, 3 over 2) over "a": propagation declared its result partial
// over both; resolution let the ids' fixed, unsplit second dim win over
// the gradient's split and refused its own output ("declared partial over
// {\"a\"}, which the op cannot produce"). A declared partial now claims
// the operands' splits that make it up, factor by factor. From
// dist-fuzz --grad (seed 3, program 6515).
// RUN: dist-fuzz --grad-check %s -n 4 --out %t | FileCheck %s
// CHECK: -n 4 -O2: match
dist.mesh @mesh = <["a"=2, "b"=2]>
func.func @f(%a3: tensor<4x1xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{}, {}]>}, %i8: tensor<2x3xi64>, %i9: tensor<2x3xi64> {dist.sharding = #dist.sharding<@mesh, [{"b"}, {"a"}]>}) -> tensor<f32> {
  %v0 = dist.embedding %i8, %a3 : (tensor<2x3xi64>, tensor<4x1xf32>) -> tensor<2x3x1xf32>
  %v1 = dist.cross_entropy %v0, %i9 : (tensor<2x3x1xf32>, tensor<2x3xi64>) -> tensor<f32>
  return %v1 : tensor<f32>
}
