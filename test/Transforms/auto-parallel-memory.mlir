// RUN: dist-opt %s --dist-auto-parallel="devices=16 memory-gib=0.3" -o /dev/null 2>&1 | FileCheck %s
// No plan fits 0.1 MiB (2^-13 GiB): an error after the report.
// RUN: dist-opt %s --dist-auto-parallel="devices=16 memory-gib=0.0001220703125" --verify-diagnostics -o /dev/null 2>/dev/null

// An MLP whose weights take 256 MiB each (4096 x 16384 f32), 8 rows of
// data, on two nodes of 8 devices with 0.3 GiB (307 MiB) each:
// - dp=16 does not divide the 8 rows; tp=16 would span both nodes;
// - at tp=2 the weights and their gradients alone take 512 MiB a device:
//   pruned before any pass runs;
// - at tp=4 they take 256 MiB, under the floor, but the compiled step
//   peaks at 384 MiB: rejected;
// - tp=8 (dp=2) fits at 192 MiB.

// CHECK-LABEL: // dist-auto-parallel @step on 16 devices: {{.*}}; device memory 307 MiB
// CHECK:      //  rank  dp  tp  zero  recompute   step_us  samples/s   mfu   memory  exposed_us
// CHECK-NEXT: //     1   2   8  0     false      1602.443       4992  0.04%  192 MiB    1541.664
// CHECK-NEXT: // rejected dp=4 tp=4 zero=0 recompute=false: 384 MiB a device, over the device's 307 MiB
// CHECK-NEXT: // pruned dp=16 tp=1 zero=0 recompute=false: dp does not divide the batch
// CHECK-NEXT: // pruned dp=8 tp=2 zero=0 recompute=false: model states over the memory
// CHECK-NEXT: // pruned dp=1 tp=16 zero=0 recompute=false: tp does not divide a node
// CHECK-NEXT: // chosen: dp=2 tp=8 zero=0 recompute=false

// expected-error@+1 {{dist-auto-parallel: no plan for 16 devices compiles and fits the device's 128 KiB (the report gives each plan's reason)}}
func.func @step(%x: tensor<8x4096xf32> {dist.batch_dim = 0 : i64}, %t: tensor<8x4096xf32> {dist.batch_dim = 0 : i64},
                %w1: tensor<4096x16384xf32> {dist.requires_grad}, %b1: tensor<16384xf32> {dist.requires_grad},
                %w2: tensor<16384x4096xf32> {dist.requires_grad}) -> tensor<f32> {
  %h = dist.matmul %x, %w1 : (tensor<8x4096xf32>, tensor<4096x16384xf32>) -> tensor<8x16384xf32>
  %hb = dist.add %h, %b1 : (tensor<8x16384xf32>, tensor<16384xf32>) -> tensor<8x16384xf32>
  %a = dist.gelu %hb {approximate = "tanh"} : (tensor<8x16384xf32>) -> tensor<8x16384xf32>
  %y = dist.matmul %a, %w2 : (tensor<8x16384xf32>, tensor<16384x4096xf32>) -> tensor<8x4096xf32>
  %d = dist.sub %y, %t : (tensor<8x4096xf32>, tensor<8x4096xf32>) -> tensor<8x4096xf32>
  %sq = dist.mul %d, %d : (tensor<8x4096xf32>, tensor<8x4096xf32>) -> tensor<8x4096xf32>
  %loss = dist.reduce_mean %sq {dims = array<i64: 0, 1>} : (tensor<8x4096xf32>) -> tensor<f32>
  return %loss : tensor<f32>
}
