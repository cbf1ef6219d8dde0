// RUN: dist-opt %s --split-input-file --dist-auto-parallel=devices=8 2>/dev/null | FileCheck %s
// RUN: dist-opt %s --split-input-file --dist-auto-parallel=devices=8 -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// The same search twice: the same program and the same report.
// RUN: dist-opt %s --split-input-file --dist-auto-parallel=devices=8 > %t.first 2>&1
// RUN: dist-opt %s --split-input-file --dist-auto-parallel=devices=8 2>&1 | diff %t.first -
// mlir-opt with the plugin writes the same plan.
// RUN: mlir-opt --load-dialect-plugin=%dist_plugin --load-pass-plugin=%dist_plugin %s --split-input-file --pass-pipeline='builtin.module(dist-auto-parallel{devices=8})' 2>/dev/null | FileCheck %s
// The written plan is a program the passes take as it is.
// RUN: dist-opt %s --split-input-file --dist-auto-parallel=devices=8 2>/dev/null | dist-opt - --split-input-file --dist-append-backward --dist-propagate-sharding=remarks=none --dist-resolve-partial -o /dev/null
// An axis fixed by an option: tp=2 leaves dp=4, the other factorisations
// pruned by that rule. plans=1 prints the best plan alone.
// RUN: dist-opt %s --split-input-file --dist-auto-parallel="devices=8 tp=2 plans=1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FIXED
// RUN: dist-opt %s --split-input-file --dist-auto-parallel="devices=8 plans=1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONE
// ONE:      //     1   8   1  0     false       427.178   38354040  40.62%  224 MiB      98.377
// ONE-NEXT: // ... 3 more plans fit (plans= prints them)

// A Megatron MLP whose batch is large (16384 rows) and whose weights are
// small (2 x 16 MiB): the gradients' all-reduce over dp costs less than
// tensor parallelism's all-reduce of the activations, so data parallelism
// wins. The layout is derived all the same: w1's product reads the
// unsplit data (column-parallel), w2's reads w1's split product through
// the bias and gelu (row-parallel), and the bias takes its split from
// propagation.

// CHECK-LABEL: module attributes {dist.plan = {overlap = true, recompute = false}}
// CHECK-NEXT: dist.mesh @mesh = <["dp"=8, "tp"=1]>
// CHECK-NEXT: func.func @dp_wins(
// CHECK-SAME: {dist.batch_dim = 0 : i64, dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>}
// CHECK-SAME: %arg2: tensor<1024x4096xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>}
// CHECK-SAME: %arg3: tensor<4096xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{"tp"}]>}
// CHECK-SAME: %arg4: tensor<4096x1024xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>}

// REPORT-LABEL: // dist-auto-parallel @dp_wins on 8 devices: gemm 495 TFLOP/s (bf16 990, f64 67), memory 3350 GB/s; 8 devices a node, link 360 GB/s 10 us in a node, 45 GB/s 20 us across; device memory 80.0 GiB
// REPORT-NEXT: // a step: 687.195 GFLOP of GEMMs (forward and backward, global), 16384 samples; tensor-parallel arguments: column #2; row #4; as propagated #3
// REPORT-NEXT: //  rank  dp  tp  zero  recompute   step_us  samples/s     mfu   memory  exposed_us
// REPORT-NEXT: //     1   8   1  0     false       427.178   38354040  40.62%  224 MiB      98.377
// REPORT-NEXT: //     2   4   2  0     false       485.438   33750928  35.75%  240 MiB     101.556
// REPORT-NEXT: //     3   2   4  0     false       665.519   24618394  26.08%  336 MiB     171.461
// REPORT-NEXT: //     4   1   8  0     false      1067.263   15351412  16.26%  552 MiB     336.224
// REPORT-NEXT: // chosen: dp=8 tp=1 zero=0 recompute=false

// FIXED-LABEL: // dist-auto-parallel @dp_wins
// FIXED:      //     1   4   2  0     false      485.438   33750928  35.75%  240 MiB     101.556
// FIXED-NEXT: // pruned dp=8 tp=1 zero=0 recompute=false: an option fixes dp or tp
// FIXED-NEXT: // pruned dp=2 tp=4 zero=0 recompute=false: an option fixes dp or tp
// FIXED-NEXT: // pruned dp=1 tp=8 zero=0 recompute=false: an option fixes dp or tp
// FIXED-NEXT: // chosen: dp=4 tp=2 zero=0 recompute=false
func.func @dp_wins(%x: tensor<16384x1024xf32> {dist.batch_dim = 0 : i64}, %t: tensor<16384x1024xf32> {dist.batch_dim = 0 : i64},
                   %w1: tensor<1024x4096xf32> {dist.requires_grad}, %b1: tensor<4096xf32> {dist.requires_grad},
                   %w2: tensor<4096x1024xf32> {dist.requires_grad}) -> tensor<f32> {
  %h = dist.matmul %x, %w1 : (tensor<16384x1024xf32>, tensor<1024x4096xf32>) -> tensor<16384x4096xf32>
  %hb = dist.add %h, %b1 : (tensor<16384x4096xf32>, tensor<4096xf32>) -> tensor<16384x4096xf32>
  %a = dist.gelu %hb {approximate = "tanh"} : (tensor<16384x4096xf32>) -> tensor<16384x4096xf32>
  %y = dist.matmul %a, %w2 : (tensor<16384x4096xf32>, tensor<4096x1024xf32>) -> tensor<16384x1024xf32>
  %d = dist.sub %y, %t : (tensor<16384x1024xf32>, tensor<16384x1024xf32>) -> tensor<16384x1024xf32>
  %sq = dist.mul %d, %d : (tensor<16384x1024xf32>, tensor<16384x1024xf32>) -> tensor<16384x1024xf32>
  %loss = dist.reduce_mean %sq {dims = array<i64: 0, 1>} : (tensor<16384x1024xf32>) -> tensor<f32>
  return %loss : tensor<f32>
}

// -----

// The same MLP with 8 rows and weights of 256 MiB each: replicating the
// weights costs an all-reduce of 512 MiB of gradients, so tensor
// parallelism over the whole node wins by 40x. The second weight is read
// transposed (`transpose_y`): its contraction dim is its last, which is
// the one row parallelism splits.

// CHECK-LABEL: module attributes {dist.plan = {overlap = true, recompute = false}}
// CHECK-NEXT: dist.mesh @mesh = <["dp"=1, "tp"=8]>
// CHECK-NEXT: func.func @tp_wins(
// CHECK-SAME: %arg2: tensor<4096x16384xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>}
// CHECK-SAME: %arg3: tensor<16384xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{"tp"}]>}
// CHECK-SAME: %arg4: tensor<4096x16384xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>}

// REPORT-LABEL: // dist-auto-parallel @tp_wins on 8 devices
// REPORT:      //     1   1   8  0     false        72.092     110970  1.88%   129 MiB      10.637
// REPORT:      //     4   8   1  0     false      2960.926       2702  0.05%  1.50 GiB    2479.662
// REPORT-NEXT: // chosen: dp=1 tp=8 zero=0 recompute=false
func.func @tp_wins(%x: tensor<8x4096xf32> {dist.batch_dim = 0 : i64}, %t: tensor<8x4096xf32> {dist.batch_dim = 0 : i64},
                   %w1: tensor<4096x16384xf32> {dist.requires_grad}, %b1: tensor<16384xf32> {dist.requires_grad},
                   %w2: tensor<4096x16384xf32> {dist.requires_grad}) -> tensor<f32> {
  %h = dist.matmul %x, %w1 : (tensor<8x4096xf32>, tensor<4096x16384xf32>) -> tensor<8x16384xf32>
  %hb = dist.add %h, %b1 : (tensor<8x16384xf32>, tensor<16384xf32>) -> tensor<8x16384xf32>
  %a = dist.gelu %hb {approximate = "tanh"} : (tensor<8x16384xf32>) -> tensor<8x16384xf32>
  %y = dist.matmul %a, %w2 {transpose_y} : (tensor<8x16384xf32>, tensor<4096x16384xf32>) -> tensor<8x4096xf32>
  %d = dist.sub %y, %t : (tensor<8x4096xf32>, tensor<8x4096xf32>) -> tensor<8x4096xf32>
  %sq = dist.mul %d, %d : (tensor<8x4096xf32>, tensor<8x4096xf32>) -> tensor<8x4096xf32>
  %loss = dist.reduce_mean %sq {dims = array<i64: 0, 1>} : (tensor<8x4096xf32>) -> tensor<f32>
  return %loss : tensor<f32>
}

// -----

// The first product reads its left operand transposed (`transpose_x`:
// the contraction dim is the operand's first): w1 is still
// column-parallel and w2 row-parallel.

// REPORT-LABEL: // dist-auto-parallel @transposed_data on 8 devices
// REPORT-NEXT: // a step: {{.*}}; tensor-parallel arguments: column #1; row #2
func.func @transposed_data(%xt: tensor<64x8xf32> {dist.batch_dim = 1 : i64},
                           %w1: tensor<64x256xf32> {dist.requires_grad},
                           %w2: tensor<256x64xf32> {dist.requires_grad}) -> tensor<f32> {
  %h = dist.matmul %xt, %w1 {transpose_x} : (tensor<64x8xf32>, tensor<64x256xf32>) -> tensor<8x256xf32>
  %a = dist.gelu %h {approximate = "tanh"} : (tensor<8x256xf32>) -> tensor<8x256xf32>
  %y = dist.matmul %a, %w2 : (tensor<8x256xf32>, tensor<256x64xf32>) -> tensor<8x64xf32>
  %loss = dist.reduce_mean %y {dims = array<i64: 0, 1>} : (tensor<8x64xf32>) -> tensor<f32>
  return %loss : tensor<f32>
}
