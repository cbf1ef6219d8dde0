// RUN: dist-opt %s --dist-overlap-report="gemm-tflops=0.001 link-gbps=0.01 link-latency-us=1" -o /dev/null 2>&1 | FileCheck %s
// RUN: dist-opt %s --dist-overlap-report -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEFAULT
// Bad option values are pipeline errors.
// RUN: not dist-opt %s --dist-overlap-report="gemm-tflops=0" 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: gemm-tflops must be a positive number, not '0'
// RUN: not dist-opt %s --dist-overlap-report="cluster=tpu-v5" 2>&1 | FileCheck %s --check-prefix=BAD-CLUSTER
// BAD-CLUSTER: cluster must be h100-sxm, h200 or a100-80g, not 'tpu-v5'
// A preset sets every figure; an option overrides its own.
// RUN: dist-opt %s --dist-overlap-report="cluster=a100-80g memory-gbps=1000" -o /dev/null 2>&1 | FileCheck %s --check-prefix=A100
// A100: // dist-overlap-report @overlapped on @mesh ["tp"=4]: gemm 156 TFLOP/s (bf16 312, f64 19.5), memory 1000 GB/s; 8 devices a node, link 230 GB/s 10 us in a node, 22.5 GB/s 20 us across
// RUN: dist-opt %s --dist-overlap-report="cluster=h200" -o /dev/null 2>&1 | FileCheck %s --check-prefix=H200
// H200: // dist-overlap-report @overlapped on @mesh ["tp"=4]: gemm 495 TFLOP/s (bf16 990, f64 67), memory 4800 GB/s; 8 devices a node, link 360 GB/s 10 us in a node, 45 GB/s 20 us across
// With two devices a node the tp=4 group spans two nodes: its all-reduce
// runs at the network's 5 MB/s and 2 us (49152 bytes: 9830.4 us + 2 us).
// RUN: dist-opt %s --dist-overlap-report="gemm-tflops=0.001 link-gbps=0.01 link-latency-us=1 devices-per-node=2 inter-node-gbps=0.005 inter-node-latency-us=2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NODES
// NODES:      // dist-overlap-report @overlapped on @mesh ["tp"=4]: gemm 0.001 TFLOP/s (bf16 990, f64 67), memory 3350 GB/s; 2 devices a node, link 0.01 GB/s 1 us in a node, 0.005 GB/s 2 us across
// NODES-NEXT: //  #  collective        axes  bytes        us  exposed_us  value  for
// NODES-NEXT: //  1  all_reduce_start  "tp"  49152  9832.400
//
// A GPT block on a dp x tp mesh at a realistic size (hidden 4096, 4096
// tokens per dp shard): synchronous, every collective is exposed; split
// and overlapped, the tp all-reduces of the backward hide behind the dW
// GEMMs (the MLP's almost entirely) and the step gets shorter.
// RUN: dist-gen gpt --layers 1 --dp 2 --tp 4 --batch 4 --seq 1024 --heads 8 --head-dim 128 --vocab 8192 > %t.mlir
// RUN: dist-opt %t.mlir --dist-propagate-sharding=remarks=none --dist-resolve-partial="bucket-mb=64" --dist-overlap-report -o /dev/null 2>&1 | FileCheck %s --check-prefix=SYNC
// RUN: dist-opt %t.mlir --dist-propagate-sharding=remarks=none --dist-resolve-partial="bucket-mb=64" --dist-split-matmul-grad --dist-overlap-collectives --dist-verify-sharding --dist-overlap-report -o /dev/null 2>&1 | FileCheck %s --check-prefix=GPT
// SYNC: // compute 7084.719 us, communication 2750.108 us; exposed 2750.108 us before (synchronous), 2750.108 us after; overlap 0.0%; step 9834.827 us
// GPT:      // dist-overlap-report @gpt_step on @mesh ["dp"=2, "tp"=4]: gemm 495 TFLOP/s (bf16 990, f64 67), memory 3350 GB/s; 8 devices a node, link 360 GB/s 10 us in a node, 45 GB/s 20 us across
// GPT:      //   9  all_reduce_start  "tp"       100663296  289.620      11.966  %{{[0-9]+}} {{ *}}dist.layer_norm_grad
// GPT:      //  11  all_reduce_start  "tp"       100663296  289.620      81.379  %{{[0-9]+}} {{ *}}dist.layer_norm_grad
// GPT:      // compute 7084.719 us, communication 2750.108 us; exposed 2750.108 us before (synchronous), 1345.033 us after; overlap 51.1%; step 8429.753 us

// With 1 GFLOP/s and 10 MB/s the numbers are easy to follow: each GEMM is
// 2*64*128*256 flops (4194.304 us), the all-reduce sends 2*3/4 of 32 KiB
// (4915.2 us + 1 us); the dW GEMM hides all of it but 721.896 us.
dist.mesh @mesh = <["tp"=4]>
func.func @overlapped(%dout: tensor<64x256xf32>, %w: tensor<128x256xf32>, %x: tensor<64x128xf32>) -> (tensor<64x128xf32>, tensor<128x256xf32>) {
  %dx = dist.matmul %dout, %w {transpose_y} : (tensor<64x256xf32>, tensor<128x256xf32>) -> tensor<64x128xf32>
  %h = dist.all_reduce_start %dx on @mesh axes = ["tp"] kind = sum : tensor<64x128xf32> -> !dist.handle<tensor<64x128xf32>>
  %dw = dist.matmul %x, %dout {transpose_x} : (tensor<64x128xf32>, tensor<64x256xf32>) -> tensor<128x256xf32>
  %r = dist.wait %h : !dist.handle<tensor<64x128xf32>> -> tensor<64x128xf32>
  return %r, %dw : tensor<64x128xf32>, tensor<128x256xf32>
}
// CHECK:      // dist-overlap-report @overlapped on @mesh ["tp"=4]: gemm 0.001 TFLOP/s (bf16 990, f64 67), memory 3350 GB/s; 8 devices a node, link 0.01 GB/s 1 us in a node, 45 GB/s 20 us across
// CHECK-NEXT: //  #  collective        axes  bytes        us  exposed_us  value  for
// CHECK-NEXT: //  1  all_reduce_start  "tp"  49152  4916.200     721.896  %0     result #0
// CHECK-NEXT: // compute 8388.608 us, communication 4916.200 us; exposed 4916.200 us before (synchronous), 721.896 us after; overlap 85.3%; step 9110.504 us
// DEFAULT:    // dist-overlap-report @overlapped on @mesh ["tp"=4]: gemm 495 TFLOP/s (bf16 990, f64 67), memory 3350 GB/s; 8 devices a node, link 360 GB/s 10 us in a node, 45 GB/s 20 us across
// DEFAULT:    // compute 0.137 us, communication 10.137 us; exposed 10.137 us before (synchronous), 10.068 us after; overlap 0.7%; step 10.205 us

// The same program with a synchronous all-reduce: all of it is exposed.
func.func @synchronous(%dout: tensor<64x256xf32>, %w: tensor<128x256xf32>, %x: tensor<64x128xf32>) -> (tensor<64x128xf32>, tensor<128x256xf32>) {
  %dx = dist.matmul %dout, %w {transpose_y} : (tensor<64x256xf32>, tensor<128x256xf32>) -> tensor<64x128xf32>
  %r = dist.all_reduce %dx on @mesh axes = ["tp"] kind = sum : tensor<64x128xf32> -> tensor<64x128xf32>
  %dw = dist.matmul %x, %dout {transpose_x} : (tensor<64x128xf32>, tensor<64x256xf32>) -> tensor<128x256xf32>
  return %r, %dw : tensor<64x128xf32>, tensor<128x256xf32>
}
// CHECK:      // dist-overlap-report @synchronous on @mesh ["tp"=4]: gemm 0.001 TFLOP/s (bf16 990, f64 67), memory 3350 GB/s; 8 devices a node, link 0.01 GB/s 1 us in a node, 45 GB/s 20 us across
// CHECK-NEXT: //  #  collective  axes  bytes        us  exposed_us  value  for
// CHECK-NEXT: //  1  all_reduce  "tp"  49152  4916.200    4916.200  %0     result #0
// CHECK-NEXT: // compute 8388.608 us, communication 4916.200 us; exposed 4916.200 us before (synchronous), 4916.200 us after; overlap 0.0%; step 13304.808 us

// A function without collectives says so.
func.func @no_collectives(%a: tensor<8xf32>) -> tensor<8xf32> {
  %g = dist.gelu %a : (tensor<8xf32>) -> tensor<8xf32>
  return %g : tensor<8xf32>
}
// CHECK: // dist-overlap-report @no_collectives: no collectives; compute 0.000 us

// A GEMM runs at its element type's rate: 2*64*128*256 flops of bf16 at
// 0.002 TFLOP/s take half the f32 product's 4194.304 us.
// RUN: dist-opt %s --dist-overlap-report="gemm-tflops=0.001 gemm-bf16-tflops=0.002 memory-gbps=1000000000" -o /dev/null 2>&1 | FileCheck %s --check-prefix=RATES
func.func @bf16_product(%x: tensor<64x128xbf16>, %w: tensor<128x256xbf16>) -> tensor<64x256xbf16> {
  %y = dist.matmul %x, %w : (tensor<64x128xbf16>, tensor<128x256xbf16>) -> tensor<64x256xbf16>
  return %y : tensor<64x256xbf16>
}
// RATES: // dist-overlap-report @bf16_product: no collectives; compute 2097.152 us

// Nodes hold consecutive device ids: on a mesh that lists its devices, the
// tp group {0, 2} of 2 devices a node spans two nodes (it would not in
// row-major order, where tp pairs 0 and 1).
// RUN: dist-opt %s --dist-overlap-report="devices-per-node=2 link-gbps=1000000000 link-latency-us=1 inter-node-gbps=1000000000 inter-node-latency-us=100" -o /dev/null 2>&1 | FileCheck %s --check-prefix=LISTED
dist.mesh @listed = <["dp"=2, "tp"=2], devices = [0, 2, 1, 3]>
dist.mesh @ordered = <["dp"=2, "tp"=2]>
func.func @on_listed(%x: tensor<256xf32>) -> (tensor<256xf32>, tensor<256xf32>) {
  %a = dist.all_reduce %x on @listed axes = ["tp"] kind = sum : tensor<256xf32> -> tensor<256xf32>
  %b = dist.all_reduce %x on @ordered axes = ["tp"] kind = sum : tensor<256xf32> -> tensor<256xf32>
  return %a, %b : tensor<256xf32>, tensor<256xf32>
}
// LISTED:      // dist-overlap-report @on_listed
// LISTED-NEXT: //  #  collective  axes  bytes       us  exposed_us
// LISTED-NEXT: //  1  all_reduce  "tp"   1024  100.000
// LISTED-NEXT: //  2  all_reduce  "tp"   1024    1.000
