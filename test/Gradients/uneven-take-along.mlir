// take_along from a last dim split unevenly over "b" (5 entries: shards of
// 3, the last padded), its rows gathered over "a" (also uneven) first. The
// gather's cut of the padding is a new value, whose layout dist-partition
// did not know: take_along got no shard offset and picked local entries by
// global index (loss -1.05 for 0.60).
// RUN: dist-fuzz --grad-check %s -n 4 --out %t | FileCheck %s
// CHECK: -n 4 -O2: match
dist.mesh @mesh = <["a"=2, "b"=2]>
func.func @f(%a0: tensor<5x1x5xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{"a"}, {}, {"b"}]>}, %i1: tensor<5x1xi64> {dist.sharding = #dist.sharding<@mesh, [{}, {}]>}) -> tensor<f32> {
  %v0 = dist.take_along %a0, %i1 : (tensor<5x1x5xf32>, tensor<5x1xi64>) -> tensor<5x1xf32>
  %v1 = dist.reduce_sum %v0 {dims = array<i64: 0, 1>} : (tensor<5x1xf32>) -> tensor<f32>
  return %v1 : tensor<f32>
}
