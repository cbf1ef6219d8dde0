// A divisor split unevenly along a dim its quotient's gradient sums over
// (3 rows over "b": shards of 2, the last padded). dist-partition sets the
// padding of the operands of that sum to 0 first, which made each padded
// term of dx = sum(dout / y) a 0 / 0: NaN. The divisor's padding is 1.
// RUN: dist-fuzz --grad-check %s -n 4 --out %t | FileCheck %s
// CHECK: -n 4 -O2: match
dist.mesh @mesh = <["a"=2, "b"=2]>
func.func @f(%a0: tensor<4xf32> {dist.requires_grad}, %a1: tensor<3x4xf32> {dist.sharding = #dist.sharding<@mesh, [{"b"}, {"a"}]>}) -> tensor<f32> {
  %v0 = dist.div %a0, %a1 : (tensor<4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %v1 = dist.reduce_sum %v0 {dims = array<i64: 0, 1>} : (tensor<3x4xf32>) -> tensor<f32>
  return %v1 : tensor<f32>
}
