// bf16 values through the collectives. The product's contracting dim is
// split over tp, so each device holds a bf16 partial product; the bf16
// gradient of the weight is partial over dp. By default
// (dist-resolve-partial's reduce-dtype=f32) each is cast to f32, reduced,
// and cast back; with reduce-dtype=same the MPI runtime reduces the bf16
// buffers themselves (pairs combined in f32, rounded to bf16). Either way
// the step on 2 x 2 agrees with one device's to bf16 tolerance (8
// significant bits: each device's partial product is rounded to bf16 before
// the sum, where one device accumulates the whole product in f32).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../../scripts/npy.py inputs %s step %t/in > /dev/null
// RUN: dist-run %s --entry step --grad -n 1 --input-dir %t/in --out %t/one
// RUN: dist-run %s --entry step --grad -n 4 --input-dir %t/in --out %t/four
// RUN: %python %S/../../scripts/npy.py compare %t/one %t/four --per-tensor --tolerance 2e-2 | FileCheck %s
// RUN: dist-run %s --entry step --grad -n 4 --reduce-dtype same --input-dir %t/in --out %t/same
// RUN: %python %S/../../scripts/npy.py compare %t/one %t/same --per-tensor --tolerance 2e-2 | FileCheck %s
// CHECK: 3 results; max difference relative to each tensor's largest value: {{.*}}e-0{{[2-9]}}
// RUN: dist-opt %s --dist-append-backward --dist-lower-to-local | FileCheck %s --check-prefix=F32
// F32:      %[[UP:.*]] = dist.cast %{{.*}} : (tensor<4x12xbf16>) -> tensor<4x12xf32>
// F32-NEXT: %[[SUM:.*]] = dist.all_reduce %[[UP]] on @mesh axes = ["tp"] kind = sum : tensor<4x12xf32> -> tensor<4x12xf32>
// F32-NEXT: dist.cast %[[SUM]] : (tensor<4x12xf32>) -> tensor<4x12xbf16>
// RUN: dist-opt %s --dist-append-backward --dist-decompose --dist-propagate-sharding=remarks=none --dist-resolve-partial=reduce-dtype=same --dist-partition | FileCheck %s --check-prefix=SAME
// SAME: dist.all_reduce %{{.*}} on @mesh axes = ["tp"] kind = sum : tensor<4x12xbf16> -> tensor<4x12xbf16>
// The gradient's partial passes through its cast back to f32 (a cast is
// linear up to rounding): it is reduced in f32 in either mode.
// SAME: dist.all_reduce %{{.*}} on @mesh axes = ["dp"] kind = sum : tensor<8x12xf32> -> tensor<8x12xf32>
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
