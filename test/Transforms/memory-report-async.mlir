// RUN: dist-opt %s --dist-memory-report -o /dev/null 2>&1 | FileCheck %s

// An async collective reads its operand until its wait: the 16x16 product
// (1024 bytes) in flight stays live across the relus and meets its result
// (1024) and b (64) at the wait: 2112 bytes. Were it dead after the start,
// the peak would be 1216 at the matmul (u, w, x and the product).
dist.mesh @mesh = <["dp"=2]>
func.func @in_flight(%u: tensor<16x1xf32>, %w: tensor<1x16xf32>, %x: tensor<16xf32>)
    -> (tensor<16x16xf32>, tensor<16xf32>) {
  %s = dist.matmul %u, %w : (tensor<16x1xf32>, tensor<1x16xf32>) -> tensor<16x16xf32>
  %h = dist.all_reduce_start %s on @mesh axes = ["dp"] kind = sum : tensor<16x16xf32> -> !dist.handle<tensor<16x16xf32>>
  %a = dist.relu %x : (tensor<16xf32>) -> tensor<16xf32>
  %b = dist.relu %a : (tensor<16xf32>) -> tensor<16xf32>
  %r = dist.wait %h : !dist.handle<tensor<16x16xf32>> -> tensor<16x16xf32>
  return %r, %b : tensor<16x16xf32>, tensor<16xf32>
}
// CHECK-LABEL: // dist-memory-report @in_flight
// CHECK-NEXT:  //                      bytes
// CHECK-NEXT:  //  parameters              0       0 B
// CHECK-NEXT:  //  gradients               0       0 B
// CHECK-NEXT:  //  optimizer state         0       0 B
// CHECK-NEXT:  //  activations (peak)   2112  2.06 KiB  at dist.wait ({{.*}}memory-report-async.mlir:14:8)
// CHECK-NEXT:  //  total                2112  2.06 KiB
