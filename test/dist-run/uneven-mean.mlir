// A mean over a batch of 7 split over dp=4 (shards of 2, the last with one
// entry of padding), differentiated: the mean's gradient on each device
// divides by the local count of 2, and dist-partition scales it by that
// count over the global one (2/7 for every shard), not by 1/shards.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../../scripts/npy.py inputs %s step %t/in > /dev/null
// RUN: dist-run %s --entry step --grad -n 1 --input-dir %t/in --out %t/one
// RUN: dist-run %s --entry step --grad -n 4 --input-dir %t/in --out %t/four
// RUN: %python %S/../../scripts/npy.py compare %t/one %t/four | FileCheck %s
// CHECK: loss [[LOSS:[0-9.]+]] (reference [[LOSS]]); 2 results; max difference against -n 1: {{.*}}e-0{{[6-9]}}
// RUN: dist-opt %s --dist-append-backward --dist-lower-to-local | FileCheck %s --check-prefix=SCALE
// SCALE: dist.reduce_mean_grad
// SCALE-NEXT: dist.scale %{{.*}} {factor = 0.2857142857142857 : f64}
dist.mesh @mesh = <["dp"=4]>
func.func @step(%x: tensor<7x8xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>},
                %w: tensor<8x8xf32> {dist.requires_grad},
                %t: tensor<7x8xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>}) -> tensor<f32> {
  %y = dist.matmul %x, %w : (tensor<7x8xf32>, tensor<8x8xf32>) -> tensor<7x8xf32>
  %d = dist.sub %y, %t : (tensor<7x8xf32>, tensor<7x8xf32>) -> tensor<7x8xf32>
  %s = dist.mul %d, %d : (tensor<7x8xf32>, tensor<7x8xf32>) -> tensor<7x8xf32>
  %m = dist.reduce_mean %s {dims = array<i64: 1>} : (tensor<7x8xf32>) -> tensor<7xf32>
  %l = dist.reduce_mean %m {dims = array<i64: 0>} : (tensor<7xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
