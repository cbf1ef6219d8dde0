// Found by `dist-fuzz --grad --runs 1000 --seed 20261206` (program 37, at
// -n 4 -O2 --recompute): the remainder of a by sqrt(a) * sqrt(a). The
// product rounds to a itself in float64 for some inputs, so the quotient
// is exactly 1 there and the reference took it for rem(x, x), which stays
// 0; float32 rounds the product just below a and the remainder is a
// instead. Only a value divided by itself now counts as on the step in
// every precision; any other exact hit is no margin, so no input is
// smooth and the program is not checked, instead of reported wrong.
// RUN: not dist-fuzz --grad-check %s -n 4 2>&1 | FileCheck %s
// CHECK: no smooth inputs found
dist.mesh @mesh = <["a"=2, "b"=2]>
func.func @f(%a1: tensor<f32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, []>}) -> tensor<f32> {
  %v0 = dist.sqrt %a1 : (tensor<f32>) -> tensor<f32>
  %v1 = dist.mul %v0, %v0 : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %v2 = dist.rem %a1, %v1 : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %v2 : tensor<f32>
}
