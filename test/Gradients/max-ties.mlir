// The maximum over copies of one value is that value: x broadcast over 4
// columns (a constant 0 added), its row maximum summed. Each of the 4 tied
// elements gets a quarter of the row's gradient, so x's is 1, as in JAX,
// PyTorch and TensorFlow; every tie took all of it (4).
// RUN: dist-fuzz --grad-check %s -n 1 --out %t | FileCheck %s
// CHECK: -n 1 -O2: match
func.func @f(%x: tensor<3x1xf32> {dist.requires_grad}) -> tensor<f32> {
  %z = arith.constant dense<0.000000e+00> : tensor<4xf32>
  %b = dist.add %x, %z : (tensor<3x1xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  %m = dist.reduce_max %b {dims = array<i64: 1>} : (tensor<3x4xf32>) -> tensor<3xf32>
  %n = dist.reduce_min %b {dims = array<i64: 1>} : (tensor<3x4xf32>) -> tensor<3xf32>
  %s = dist.add %m, %n : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %l = dist.reduce_sum %s {dims = array<i64: 0>} : (tensor<3xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
