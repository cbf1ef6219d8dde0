// A valid program on a 256 x 256 mesh: the report summarises a group of
// 65536 devices by its first three and its last, so no column is wider
// than a format width can be (the device-groups column made the report
// panic). Every report pads its columns without a format width.
// RUN: dist-opt %s --dist-propagate-sharding=remarks=none --dist-resolve-partial --dist-comm-report --dist-memory-report -o /dev/null 2>&1 | FileCheck %s
// CHECK:      // dist-comm-report @f on @mesh ["a"=256, "b"=256], bytes per device (ring lower bound)
// CHECK-NEXT: //  #  collective  reduce  axes     groups                     type  bytes  value  for
// CHECK-NEXT: //  1  all_reduce  sum     "a","b"  1x65536 {0,1,2,...,65535}  f32       8  %1     result #0
// CHECK:      // dist-memory-report @f on @mesh, bytes per device
// CHECK:      //  activations (peak)  {{[0-9]+}}  {{[0-9.]+}} MiB  at dist.matmul
// The 4 TiB intermediate split over 65536 devices: 64 MiB on each of them.
dist.mesh @mesh = <["a"=256, "b"=256]>
func.func @f(%x: tensor<1048576x1xf32>, %w: tensor<1x1048576xf32>) -> tensor<f32> {
  %y = dist.matmul %x, %w {dist.sharding = [#dist.sharding<@mesh, [{"a"}, {"b"}]>]}
      : (tensor<1048576x1xf32>, tensor<1x1048576xf32>) -> tensor<1048576x1048576xf32>
  %s = dist.reduce_sum %y {dims = array<i64: 0, 1>} : (tensor<1048576x1048576xf32>) -> tensor<f32>
  return %s : tensor<f32>
}
