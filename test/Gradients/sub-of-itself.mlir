// v - v of a reduction is 0 whatever v is: its gradient is 0 (it was the
// second operand's negated gradient, accumulated once per broadcast
// element, plus the first's).
// RUN: dist-fuzz --grad-check %s -n 1 --out %t | FileCheck %s
// CHECK: -n 1 -O2: match
func.func @f(%h: tensor<4x6xf32> {dist.requires_grad}, %w: tensor<4x6xf32>) -> tensor<f32> {
  %m = dist.reduce_mean %h {dims = array<i64: 1>, keepdim} : (tensor<4x6xf32>) -> tensor<4x1xf32>
  %z = dist.sub %m, %m : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
  %b = dist.add %h, %z : (tensor<4x6xf32>, tensor<4x1xf32>) -> tensor<4x6xf32>
  %p = dist.mul %b, %w : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
  %l = dist.reduce_sum %p {dims = array<i64: 0, 1>} : (tensor<4x6xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
