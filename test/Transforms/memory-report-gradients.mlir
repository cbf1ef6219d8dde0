// A differentiated step without an optimizer: its parameters are the
// arguments its results are the gradients of (dist.gradient_of, which
// dist-append-backward writes), its gradients those results; a forward
// program's parameters are the arguments that ask for a gradient. Here w1
// (16 x 64 split over tp: 2048 bytes a device) and w2 (64 x 16, the same),
// and their gradients alike. (Both were 0 before.)
// RUN: dist-opt %s --dist-append-backward --dist-propagate-sharding=remarks=none --dist-resolve-partial --dist-memory-report -o /dev/null 2>&1 | FileCheck %s
// RUN: dist-opt %s --dist-propagate-sharding=remarks=none --dist-memory-report -o /dev/null 2>&1 | FileCheck %s --check-prefix=FORWARD
dist.mesh @mesh = <["dp"=2, "tp"=2]>
func.func @step(%x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>},
                %w1: tensor<16x64xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
                %w2: tensor<64x16xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>}) -> tensor<f32> {
  %h = dist.matmul %x, %w1 : (tensor<8x16xf32>, tensor<16x64xf32>) -> tensor<8x64xf32>
  %a = dist.relu %h : (tensor<8x64xf32>) -> tensor<8x64xf32>
  %y = dist.matmul %a, %w2 : (tensor<8x64xf32>, tensor<64x16xf32>) -> tensor<8x16xf32>
  %loss = dist.reduce_mean %y {dims = array<i64: 0, 1>} : (tensor<8x16xf32>) -> tensor<f32>
  return %loss : tensor<f32>
}

// CHECK:      // dist-memory-report @step on @mesh, bytes per device
// CHECK-NEXT: //                      bytes
// CHECK-NEXT: //  parameters           4096  4.00 KiB
// CHECK-NEXT: //  gradients            4096  4.00 KiB
// CHECK-NEXT: //  optimizer state         0       0 B
// FORWARD:      // dist-memory-report @step on @mesh, bytes per device
// FORWARD-NEXT: //                      bytes
// FORWARD-NEXT: //  parameters           4096  4.00 KiB
// FORWARD-NEXT: //  gradients               0       0 B
