// A value that reaches the loss only through a comparison (the mean that
// decides which branch a select takes) is off the gradient's path: no
// gradient flows back through booleans, as in JAX. dist-append-backward
// panicked on it ("an active value has a gradient"), as it did for floor.
// The gradient sweep's first run of dist.select found it. The mean's
// argument gets a zero gradient; the chosen values get dout where chosen.
// RUN: dist-fuzz --grad-check %s -n 1 --out %t | FileCheck %s
// RUN: dist-fuzz --grad-check %s -n 4 --out %t | FileCheck %s --check-prefix=MESH
// CHECK: -n 1 -O2: match
// MESH: -n 4 -O2: match
dist.mesh @mesh = <["a"=2, "b"=2]>
func.func @f(%h: tensor<2x3x4x3xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{"a"}, {}, {"b"}, {}]>},
             %t: tensor<1x1x1x3xf32> {dist.requires_grad},
             %e: tensor<3x4x3xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{}, {"a"}, {}]>},
             %c: tensor<4xf32>) -> tensor<f32> {
  %m = dist.reduce_mean %h {dims = array<i64: 3>} : (tensor<2x3x4x3xf32>) -> tensor<2x3x4xf32>
  %p = dist.compare %c, %m {direction = "gt"} : (tensor<4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xi1>
  %x = dist.reduce_mean %t {dims = array<i64: 3>} : (tensor<1x1x1x3xf32>) -> tensor<1x1x1xf32>
  %y = dist.reduce_mean %e {dims = array<i64: 2>} : (tensor<3x4x3xf32>) -> tensor<3x4xf32>
  %s = dist.select %p, %x, %y : (tensor<2x3x4xi1>, tensor<1x1x1xf32>, tensor<3x4xf32>) -> tensor<2x3x4xf32>
  %l = dist.reduce_sum %s {dims = array<i64: 0, 1, 2>} : (tensor<2x3x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
