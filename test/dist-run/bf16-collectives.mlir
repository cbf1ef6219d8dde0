// bf16 values through the MPI runtime's collectives: the product's
// contracting dim is split over tp, so each device's bf16 partial product
// is summed by a bf16 all_reduce (pairs combined in f32, rounded to bf16),
// and the bf16 gradient of the data-parallel product by another over dp.
// The step on 2 x 2 agrees with one device's to bf16 tolerance (8
// significant bits: each partial is rounded before the sum, where one device
// accumulates the whole product in f32).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../../scripts/npy.py inputs %s step %t/in > /dev/null
// RUN: dist-run %s --entry step --grad -n 1 --input-dir %t/in --out %t/one
// RUN: dist-run %s --entry step --grad -n 4 --input-dir %t/in --out %t/four
// RUN: %python %S/../../scripts/npy.py compare %t/one %t/four --per-tensor --tolerance 2e-2 | FileCheck %s
// CHECK: 3 results; max difference relative to each tensor's largest value: {{.*}}e-0{{[2-9]}}
// RUN: dist-opt %s --dist-append-backward --dist-lower-to-local | FileCheck %s --check-prefix=LOCAL
// LOCAL: dist.all_reduce %{{.*}} on @mesh axes = ["tp"] kind = sum : tensor<4x12xbf16> -> tensor<4x12xbf16>
// LOCAL: dist.all_reduce %{{.*}} on @mesh axes = ["dp"] kind = sum : tensor<8x12xbf16> -> tensor<8x12xbf16>
dist.mesh @mesh = <["dp"=2, "tp"=2]>
func.func @step(%x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {"tp"}]>, dist.requires_grad},
                %w: tensor<16x12xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>, dist.requires_grad}) -> tensor<f32> {
  %xb = dist.cast %x : (tensor<8x16xf32>) -> tensor<8x16xbf16>
  %wb = dist.cast %w : (tensor<16x12xf32>) -> tensor<16x12xbf16>
  %y = dist.matmul %xb, %wb : (tensor<8x16xbf16>, tensor<16x12xbf16>) -> tensor<8x12xbf16>
  %z = dist.mul %y, %y : (tensor<8x12xbf16>, tensor<8x12xbf16>) -> tensor<8x12xbf16>
  %zf = dist.cast %z : (tensor<8x12xbf16>) -> tensor<8x12xf32>
  %l = dist.reduce_sum %zf {dims = array<i64: 0, 1>} : (tensor<8x12xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
