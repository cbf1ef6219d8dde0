// RUN: rm -rf %t && split-file %s %t
// RUN: dist-opt %t/step.mlir --dist-propagate-sharding --dist-resolve-partial="bucket-mb=1" --dist-comm-report 2>&1 | FileCheck %s
// RUN: dist-opt %t/kinds.mlir --dist-comm-report 2>&1 | FileCheck %s --check-prefix=KINDS
// RUN: dist-opt %t/none.mlir --dist-comm-report -o /dev/null 2>&1 | FileCheck %s --check-prefix=NONE
// A bucket of many gradients shows its first values and their count, not a
// list of hundreds of names.
// RUN: dist-gen gpt --layers 2 --dp 2 --tp 2 | dist-opt - --dist-propagate-sharding=remarks=none --dist-resolve-partial=bucket-mib=25 --dist-comm-report -o /dev/null 2>&1 | FileCheck %s --check-prefix=BUCKET
// BUCKET: all_reduce_coalesced  sum  "dp"  {{.*}}  %dscale,%dbias,%dy_20,... (25 values)  result #2

// One function per file: the report (stderr) comes before the IR (stdout),
// whose value names tie the report's `value` column to the ops.

//--- step.mlir

// The Megatron MLP step of examples/megatron-mlp.mlir (global view) with its
// returned values in one bucket: the row-parallel output over tp, then the
// loss and the three gradients over dp. Bytes per device: the operands' types
// divided by their shardings' splits.
dist.mesh @mesh = <["dp"=2, "tp"=2]>
func.func @step(
    %x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>},
    %target: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>},
    %w1: tensor<16x64xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
    %b1: tensor<64xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp"}]>},
    %w2: tensor<64x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>},
    %dloss: tensor<f32>)
    -> (tensor<f32>,
        tensor<16x64xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
        tensor<64xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp"}]>},
        tensor<64x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>}) {
  %h = dist.matmul %x, %w1 : (tensor<8x16xf32>, tensor<16x64xf32>) -> tensor<8x64xf32>
  %hb = dist.add %h, %b1 : (tensor<8x64xf32>, tensor<64xf32>) -> tensor<8x64xf32>
  %a = dist.gelu %hb {approximate = "tanh"} : (tensor<8x64xf32>) -> tensor<8x64xf32>
  %y = dist.matmul %a, %w2 : (tensor<8x64xf32>, tensor<64x16xf32>) -> tensor<8x16xf32>
  %diff = dist.sub %y, %target : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %sq = dist.mul %diff, %diff : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %loss = dist.reduce_mean %sq {dims = array<i64: 0, 1>} : (tensor<8x16xf32>) -> tensor<f32>
  %dsq = dist.reduce_mean_grad %sq, %dloss {dims = array<i64: 0, 1>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<8x16xf32>
  %dd1, %dd2 = dist.mul_grad %diff, %diff, %dsq
      : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
  %ddiff = dist.add %dd1, %dd2 : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %dy, %dtarget = dist.sub_grad %y, %target, %ddiff
      : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
  %da, %dw2 = dist.matmul_grad %a, %w2, %dy
      : (tensor<8x64xf32>, tensor<64x16xf32>, tensor<8x16xf32>) -> (tensor<8x64xf32>, tensor<64x16xf32>)
  %dhb = dist.gelu_grad %hb, %da {approximate = "tanh"} : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
  %dh, %db1 = dist.add_grad %h, %b1, %dhb
      : (tensor<8x64xf32>, tensor<64xf32>, tensor<8x64xf32>) -> (tensor<8x64xf32>, tensor<64xf32>)
  %dx, %dw1 = dist.matmul_grad %x, %w1, %dh
      : (tensor<8x16xf32>, tensor<16x64xf32>, tensor<8x64xf32>) -> (tensor<8x16xf32>, tensor<16x64xf32>)
  return %loss, %dw1, %db1, %dw2 : tensor<f32>, tensor<16x64xf32>, tensor<64xf32>, tensor<64x16xf32>
}

// CHECK-LABEL: // dist-comm-report @step on @mesh ["dp"=2, "tp"=2], bytes per device (ring lower bound)
// CHECK-NEXT:  //  #  collective            reduce  axes  groups           type  bytes  value  for
// CHECK-NEXT:  //  1  all_reduce            sum     "tp"  2x2 {0,1} {2,3}  f32     256  %[[Y:[a-zA-Z0-9_]+]]  dist.sub
// CHECK-NEXT:  //  2  all_reduce_coalesced  sum     "dp"  2x2 {0,2} {1,3}  f32    4228  %[[LOSS:[a-zA-Z0-9_]+]],%[[DW2:[a-zA-Z0-9_]+]],%[[DB1:[a-zA-Z0-9_]+]],%[[DW1:[a-zA-Z0-9_]+]]  dist.scale
// CHECK-NEXT:  // total: 2 collectives, 4484 bytes per device; all_reduce 1 (256), all_reduce_coalesced 1 (4228)
// CHECK:       func.func @step
// CHECK:         %[[Y]] = dist.matmul {{.*}}partial = sum{"tp"}
// CHECK-NEXT:    %[[R:.*]] = dist.all_reduce %[[Y]] on @mesh axes = ["tp"] kind = sum
// CHECK-NEXT:    dist.sub %[[R]],
// CHECK:         %[[LOSS]] = dist.reduce_mean
// CHECK:         %{{.*}}, %[[DW2]] = dist.matmul_grad
// CHECK:         %{{.*}}, %[[DB1]] = dist.add_grad
// CHECK:         %{{.*}}, %[[DW1]] = dist.matmul_grad
// CHECK-NEXT:    %[[B:.*]]:4 = dist.all_reduce_coalesced %[[LOSS]], %[[DW2]], %[[DB1]], %[[DW1]] on @mesh axes = ["dp"] kind = sum
// CHECK-NEXT:    dist.scale %[[B]]#0

//--- kinds.mlir

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

// KINDS-LABEL: // dist-comm-report @kinds on @mesh ["x"=4], bytes per device (ring lower bound)
// KINDS-NEXT:  //  #  collective      reduce  axes  groups         type  bytes  value  for
// KINDS-NEXT:  //  1  reduce_scatter  sum     "x"   1x4 {0,1,2,3}  f32     384  %[[A:[a-zA-Z0-9_]+]]  dist.all_to_all
// KINDS-NEXT:  //  2  all_gather      -       "x"   1x4 {0,1,2,3}  bf16    192  %[[B:[a-zA-Z0-9_]+]]  result #1
// KINDS-NEXT:  //  3  all_to_all      -       "x"   1x4 {0,1,2,3}  f32      96  %[[R:[a-zA-Z0-9_]+]]  result #3
// KINDS-NEXT:  //  4  all_slice       -       "x"   1x4 {0,1,2,3}  f32       0  %[[A]]  result #4
// KINDS-NEXT:  //  5  all_reduce      max     "x"   1x4 {0,1,2,3}  f32     768  %[[A]]  dist.gelu
// KINDS-NEXT:  // total: 5 collectives, 1440 bytes per device; reduce_scatter 1 (384), all_gather 1 (192), all_to_all 1 (96), all_slice 1 (0), all_reduce 1 (768)
// KINDS:       func.func @kinds(%[[A]]: tensor<8x16xf32>, %[[B]]: tensor<2x16xbf16>)
// KINDS-NEXT:    %[[R]] = dist.reduce_scatter %[[A]] on @mesh

//--- none.mlir

// A function without collectives says so.
dist.mesh @mesh = <["x"=2]>
func.func @none(%a: tensor<8xf32>) -> tensor<8xf32> {
  return %a : tensor<8xf32>
}

// NONE-LABEL: // dist-comm-report @none: no collectives
