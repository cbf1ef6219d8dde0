// Upstream mlir-opt loads the dialect plugin (the older dialect-only
// library, and the plugin that also holds the passes) and round-trips dist
// IR.
// REQUIRES: plugin
// RUN: mlir-opt --load-dialect-plugin=%dist_plugin %s | FileCheck %s
// RUN: mlir-opt --load-dialect-plugin=%dist_dialect_plugin %s | FileCheck %s
// RUN: mlir-opt --load-dialect-plugin=%dist_dialect_plugin %s | dist-opt | FileCheck %s
// The plugin's verifiers run inside mlir-opt too.
// RUN: mlir-opt --load-dialect-plugin=%dist_dialect_plugin %S/Inputs/bad-sharding.mlir --verify-diagnostics

// CHECK: dist.mesh @mesh = <["dp"=2, "tp"=2]>
// CHECK-LABEL: func.func @f
// CHECK: dist.matmul %{{.*}}, %{{.*}} {dist.sharding = [#dist.sharding<@mesh, [{"dp"}, {}], partial = sum{"tp"}>]}
// CHECK: dist.all_reduce %{{.*}} on @mesh axes = ["tp"] kind = sum
dist.mesh @mesh = <["dp"=2, "tp"=2]>
func.func @f(%x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {"tp"}]>},
             %w: tensor<16x8xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>}) -> tensor<8x8xf32> {
  %y = dist.matmul %x, %w {dist.sharding = [#dist.sharding<@mesh, [{"dp"}, {}], partial = sum{"tp"}>]} : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  %r = dist.all_reduce %y on @mesh axes = ["tp"] kind = sum : tensor<8x8xf32> -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}
