// A value that only a piecewise constant function reads (the mean that
// floor rounds) is off the gradient's path: no gradient flows back through
// floor, as in JAX. dist-append-backward panicked on it ("an active value
// has a gradient"): it took the mean for active and never gave it one.
// RUN: dist-fuzz --grad-check %s -n 1 --out %t | FileCheck %s
// CHECK: -n 1 -O2: match
func.func @f(%h: tensor<4x6xf32> {dist.requires_grad}, %w: tensor<4x6xf32>) -> tensor<f32> {
  %m = dist.reduce_mean %h {dims = array<i64: 1>, keepdim} : (tensor<4x6xf32>) -> tensor<4x1xf32>
  %f = dist.floor %m : (tensor<4x1xf32>) -> tensor<4x1xf32>
  %s = dist.sign %h : (tensor<4x6xf32>) -> tensor<4x6xf32>
  %b = dist.add %h, %f : (tensor<4x6xf32>, tensor<4x1xf32>) -> tensor<4x6xf32>
  %q = dist.mul %b, %s : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
  %p = dist.mul %q, %w : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
  %l = dist.reduce_sum %p {dims = array<i64: 0, 1>} : (tensor<4x6xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
