// my-opt (examples/out-of-tree) runs the dist passes as flags and in
// pipelines, as dist-opt does.
// RUN: my-opt %s --dist-propagate-sharding --dist-resolve-partial | FileCheck %s
// RUN: my-opt %s --pass-pipeline='builtin.module(func.func(dist-propagate-sharding,dist-resolve-partial),canonicalize)' | FileCheck %s
// CHECK: dist.matmul %{{.*}} {dist.sharding = [#dist.sharding<@mesh, [{"dp"}, {}], partial = sum{"tp"}>]}
// CHECK: dist.all_reduce %{{.*}} on @mesh axes = ["tp"] kind = sum
dist.mesh @mesh = <["dp"=2, "tp"=2]>
func.func @step(%x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {"tp"}]>},
                %w: tensor<16x8xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>}) -> tensor<8x8xf32> {
  %y = dist.matmul %x, %w : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  return %y : tensor<8x8xf32>
}
