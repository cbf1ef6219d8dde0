// RUN: dist-opt %S/../../examples/megatron-mlp.mlir --dist-propagate-sharding --dist-resolve-partial="bucket-mb=1" --dist-comm-report -o /dev/null 2>&1 | FileCheck %s
// RUN: dist-opt %s --split-input-file --dist-comm-report -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHUNKS

// The Megatron MLP step with its returned values in one bucket: the
// row-parallel output over tp, then the loss and the three gradients over dp.
// CHECK:      // dist-comm-report @step on @mesh ["dp"=2, "tp"=2], bytes per device (ring lower bound)
// CHECK-NEXT: //  #  collective            axes  groups           type  bytes  value                 for
// CHECK-NEXT: //  1  all_reduce            "tp"  2x2 {0,1} {2,3}  f32     256  %3                    dist.sub
// CHECK-NEXT: //  2  all_reduce_coalesced  "dp"  2x2 {0,2} {1,3}  f32    4228  %7,%dy_3,%dy_5,%dy_7  dist.scale
// CHECK-NEXT: // total: 2 collectives, 4484 bytes per device; all_reduce 1 (256), all_reduce_coalesced 1 (4228)

// Every kind, on local (unannotated) operands: all_gather counts its output,
// reduce_scatter and all_to_all their input, all_slice nothing; an async
// start is reported with its wait's reader.
dist.mesh @mesh = <["x"=4]>
func.func @kinds(%a: tensor<8x16xf32>, %b: tensor<2x16xbf16>) -> (tensor<8x16xf32>, tensor<8x16xbf16>, tensor<2x16xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x16xf32>) {
  %r = dist.reduce_scatter %a on @mesh axes = ["x"] dim = 0 kind = sum : tensor<8x16xf32> -> tensor<2x16xf32>
  %g = dist.all_gather %b on @mesh axes = ["x"] dim = 0 : tensor<2x16xbf16> -> tensor<8x16xbf16>
  %t = dist.all_to_all %r on @mesh axes = ["x"] split_dim = 1 concat_dim = 0 : tensor<2x16xf32> -> tensor<8x4xf32>
  %s = dist.all_slice %a on @mesh axes = ["x"] dim = 1 : tensor<8x16xf32> -> tensor<8x4xf32>
  %h = dist.all_reduce_start %a on @mesh axes = ["x"] kind = max : tensor<8x16xf32> -> !dist.handle<tensor<8x16xf32>>
  %w = dist.wait %h : !dist.handle<tensor<8x16xf32>> -> tensor<8x16xf32>
  %e = dist.gelu %w : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %a, %g, %r, %t, %s, %e : tensor<8x16xf32>, tensor<8x16xbf16>, tensor<2x16xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x16xf32>
}
// CHUNKS:      // dist-comm-report @kinds on @mesh ["x"=4], bytes per device (ring lower bound)
// CHUNKS-NEXT: //  #  collective      axes  groups         type  bytes  value  for
// CHUNKS-NEXT: //  1  reduce_scatter  "x"   1x4 {0,1,2,3}  f32     384  %arg0  dist.all_to_all
// CHUNKS-NEXT: //  2  all_gather      "x"   1x4 {0,1,2,3}  bf16    192  %arg1  result #1
// CHUNKS-NEXT: //  3  all_to_all      "x"   1x4 {0,1,2,3}  f32      96  %0     result #3
// CHUNKS-NEXT: //  4  all_slice       "x"   1x4 {0,1,2,3}  f32       0  %arg0  result #4
// CHUNKS-NEXT: //  5  all_reduce      "x"   1x4 {0,1,2,3}  f32     768  %arg0  dist.gelu
// CHUNKS-NEXT: // total: 5 collectives, 1440 bytes per device; reduce_scatter 1 (384), all_gather 1 (192), all_to_all 1 (96), all_slice 1 (0), all_reduce 1 (768)

// -----

// A function without collectives says so.
dist.mesh @mesh = <["x"=2]>
func.func @none(%a: tensor<8xf32>) -> tensor<8xf32> {
  return %a : tensor<8xf32>
}
// CHUNKS: // dist-comm-report @none: no collectives
