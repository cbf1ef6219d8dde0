// --emit-mlir writes the module dist-run would lower and stops: the step
// (partitioned to the device's shapes at -n 2) and the main it generates,
// which reads each input, cuts the device's shard, calls the step and
// completes each result. No inputs and no --out are needed.
// RUN: dist-run %s --entry step -n 2 --emit-mlir %t.mlir
// RUN: FileCheck %s --input-file %t.mlir
// RUN: dist-run %s --entry step --emit-mlir %t.one.mlir
// RUN: FileCheck %s --input-file %t.one.mlir --check-prefix=ONE
dist.mesh @mesh = <["dp"=2]>
func.func @step(%x: tensor<4x8xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>}) -> tensor<f32> {
  %l = dist.reduce_sum %x {dims = array<i64: 0, 1>} : (tensor<4x8xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
// CHECK:      func.func private @dist_run0_step(%arg0: tensor<2x8xf32> {dist.local = #dist.sharding<@mesh, [{"dp"}, {}]>})
// CHECK:      dist.all_reduce
// CHECK:      func.func @main() -> i32
// CHECK:      dist.all_slice %{{.*}} on @mesh axes = ["dp"] dim = 0 : tensor<4x8xf32> -> tensor<2x8xf32>
// CHECK:      call @dist_run0_step
// ONE:        func.func private @dist_run0_step(%arg0: tensor<4x8xf32>
// ONE-NOT:    dist.all_slice
// ONE:        func.func @main() -> i32
