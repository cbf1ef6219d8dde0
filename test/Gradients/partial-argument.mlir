// An argument declared partial over "tp": its global value is the sum of
// the devices' values. dist-run gave each device of a tp group the whole
// input, so it was summed twice; the first device of each group now takes
// it and the others zeros.
// RUN: dist-fuzz --grad-check %s -n 4 --out %t | FileCheck %s
// CHECK: -n 4 -O2: match
dist.mesh @mesh = <["dp"=2, "tp"=2]>
func.func @f(%x: tensor<4x8xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}], partial = sum{"tp"}>},
             %w: tensor<8x6xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>}) -> tensor<f32> {
  %h = dist.matmul %x, %w : (tensor<4x8xf32>, tensor<8x6xf32>) -> tensor<4x6xf32>
  %t = dist.tanh %h : (tensor<4x6xf32>) -> tensor<4x6xf32>
  %l = dist.reduce_mean %t {dims = array<i64: 0, 1>} : (tensor<4x6xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
