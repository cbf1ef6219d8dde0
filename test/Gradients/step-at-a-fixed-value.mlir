// Found by `dist-fuzz --grad --runs 3000 --seed 11` (program 377): the
// floor of a running sum of a softmax. The sum's last entry is 1 for every
// input, so the floor sits on its step; finite differences of the rounded
// sum (1 - 1e-16 or 1 + 2e-16) gave +-1e5 where dist's gradient is 0, the
// gradient everywhere off the step. The checker took such a value for one
// that does not move (as relu(x - x) does not); at a step of floor, ceil,
// round or sign an exact hit now counts as no margin, so no input is
// smooth and the program is not checked, instead of reported wrong.
// RUN: not dist-fuzz --grad-check %s -n 4 2>&1 | FileCheck %s
// CHECK: no smooth inputs found
func.func @f(%a2: tensor<5xf32> {dist.requires_grad}) -> tensor<f32> {
  %v0 = dist.softmax %a2 {axis = -1 : i64} : (tensor<5xf32>) -> tensor<5xf32>
  %v1 = dist.cumsum %v0 {dim = 0 : i64} : (tensor<5xf32>) -> tensor<5xf32>
  %v2 = dist.floor %v1 : (tensor<5xf32>) -> tensor<5xf32>
  %v3 = dist.reduce_mean %v2 {dims = array<i64: 0>} : (tensor<5xf32>) -> tensor<f32>
  return %v3 : tensor<f32>
}
