// Four stages of one 16x16 matmul each, differentiated: a microbatch's F,
// B and W on a stage are one matmul apiece (stage 0's input gradient is
// not computed: its backward is all W, and nothing waits for it), 1.024 us
// at 1 GFLOP/s over 8 microbatches, with memory and transfers made free.
// The modelled bubbles are the paper's: (p - 1) / m = 0.375 for GPipe and
// 1F1B, (p - 1) / 3m = 0.125 for ZB-H1.
// RUN: dist-opt %s --dist-append-backward --dist-propagate-sharding=remarks=none --dist-split-matmul-grad=split=all -o %t.mlir
// RUN: dist-opt %t.mlir --dist-pipeline-report="microbatches=8 schedule=1f1b gemm-tflops=0.001 memory-gbps=1000000000 link-gbps=1000000000 link-latency-us=0.000001" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONEF
// RUN: dist-opt %t.mlir --dist-pipeline-report="microbatches=8 schedule=zb-h1 gemm-tflops=0.001 memory-gbps=1000000000 link-gbps=1000000000 link-latency-us=0.000001" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ZB
// RUN: dist-opt %t.mlir --dist-pipeline-report="microbatches=8 schedule=gpipe gemm-tflops=0.001 memory-gbps=1000000000 link-gbps=1000000000 link-latency-us=0.000001" -o /dev/null 2>&1 | FileCheck %s --check-prefix=GPIPE
// ONEF:       // dist-pipeline-report @chain: 4 stages on "pp", 8 microbatches, 1f1b; gemm 0.001 TFLOP/s (bf16 990, f64 67), memory 1000000000 GB/s; 8 devices a node, link 1000000000 GB/s 0.000001 us in a node, 45 GB/s 20 us across
// ONEF-NEXT:  //  stage  ops   F_us   B_us   W_us  send_us  live  state_B  stash_B  peak_B  order
// ONEF-NEXT:  //  0        4  1.024  0.000  2.048    0.000     4     4096        0    4096  F0 F1 F2 F3 B0 W0 F4 B1 W1 F5 B2 W2 F6 B3 W3 F7 B4 W4 B5 W5 B6 W6 B7 W7
// ONEF-NEXT:  //  1        5  1.024  1.024  1.024    0.000     3     2048      128    2432  F0 F1 F2 B0 W0 F3 B1 W1 F4 B2 W2 F5 B3 W3 F6 B4 W4 F7 B5 W5 B6 W6 B7 W7
// ONEF-NEXT:  //  2        5  1.024  1.024  1.024    0.000     2     2048      128    2304  F0 F1 B0 W0 F2 B1 W1 F3 B2 W2 F4 B3 W3 F5 B4 W4 F6 B5 W5 F7 B6 W6 B7 W7
// ONEF-NEXT:  //  3        7  1.024  1.024  1.024              1     2048      256    2304  F0 B0 W0 F1 B1 W1 F2 B2 W2 F3 B3 W3 F4 B4 W4 F5 B5 W5 F6 B6 W6 F7 B7 W7
// ONEF-NEXT:  // step 33.792 us, compute 24.576 us a stage; bubble 0.3750
// ZB leaves the W of the first s microbatches of stage s to the end, holding
// no more microbatches than 1F1B's first stage.
// ZB:         //  stage  ops   F_us   B_us   W_us  send_us  live  state_B  stash_B  peak_B  order
// ZB-NEXT:    //  0        4  1.024  0.000  2.048    0.000     4     4096        0    4096  F0 F1 F2 F3 B0 W0 F4 B1 W1 F5 B2 W2 F6 B3 W3 F7 B4 W4 B5 W5 B6 W6 B7 W7
// ZB-NEXT:    //  1        5  1.024  1.024  1.024    0.000     4     2048      128    2560  F0 F1 F2 B0 F3 B1 W1 F4 B2 W2 F5 B3 W3 F6 B4 W4 F7 B5 W5 B6 W6 B7 W7 W0
// ZB-NEXT:    //  2        5  1.024  1.024  1.024    0.000     4     2048      128    2560  F0 F1 B0 F2 B1 F3 B2 W2 F4 B3 W3 F5 B4 W4 F6 B5 W5 F7 B6 W6 B7 W7 W0 W1
// ZB-NEXT:    //  3        7  1.024  1.024  1.024              4     2048      256    3072  F0 B0 F1 B1 F2 B2 F3 B3 W3 F4 B4 W4 F5 B5 W5 F6 B6 W6 F7 B7 W7 W0 W1 W2
// ZB-NEXT:    // step 27.648 us, compute 24.576 us a stage; bubble 0.1250
// Two devices a node: stages 0 and 1 share one, 2 and 3 another, so only
// the transfer from stage 1 to stage 2 crosses the network (5 us).
// RUN: dist-opt %t.mlir --dist-pipeline-report="microbatches=8 schedule=1f1b gemm-tflops=0.001 memory-gbps=1000000000 link-gbps=1000000000 link-latency-us=0.000001 devices-per-node=2 inter-node-gbps=1000000000 inter-node-latency-us=5" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NODES
// NODES:      //  0        4  1.024  0.000  2.048    0.000
// NODES-NEXT: //  1        5  1.024  1.024  1.024    5.000
// NODES-NEXT: //  2        5  1.024  1.024  1.024    0.000
// Interleaved 1F1B: the same four stages as two model chunks on each of
// two devices (stages 0 and 2 on device 0, 1 and 3 on device 1). Each
// device runs two microbatches through chunk 0, then through chunk 1
// (F0.1: microbatch 0 on chunk 1); the bubble is 1F1B's over the chunks,
// (p - 1) / (m v) = 1/16, against 0.375 on four devices without chunks.
// RUN: sed 's/"pp"=4/"pp"=2/' %t.mlir | dist-opt - --dist-pipeline-report="microbatches=8 schedule=interleaved-1f1b virtual-stages=2 gemm-tflops=0.001 memory-gbps=1000000000 link-gbps=1000000000 link-latency-us=0.000001" -o /dev/null 2>&1 | FileCheck %s --check-prefix=INTERLEAVED
// INTERLEAVED:      // dist-pipeline-report @chain: 2 stages on "pp" (2 model chunks each: 4 logical stages), 8 microbatches, interleaved-1f1b;
// INTERLEAVED-NEXT: //  stage  ops   F_us   B_us   W_us  send_us  live  state_B  stash_B  peak_B  order
// INTERLEAVED-NEXT: //  0        9  2.048  1.024  3.072    0.000     5     6144      128    6400  F0 F1 F0.1 F1.1 F2 B0.1 W0.1 F3 B1.1 W1.1 F2.1 B0 W0 F3.1 B1 W1 F4
// INTERLEAVED-NEXT: //  1       12  2.048  2.048  2.048    0.000     3     4096      384    4608  F0 F1 F0.1 B0.1 W0.1 F1.1 B1.1 W1.1 F2 B0 W0 F3 B1 W1
// INTERLEAVED-NEXT: // step 52.224 us, compute 49.152 us a stage; bubble 0.0625
// One device a node: every link crosses the network (7 us), device 0's two
// (chunk 0 to device 1's chunk 0, chunk 1 to its chunk 1) and device 1's
// one back to device 0 (its chunk 0 to device 0's chunk 1).
// RUN: sed 's/"pp"=4/"pp"=2/' %t.mlir | dist-opt - --dist-pipeline-report="microbatches=8 schedule=interleaved-1f1b virtual-stages=2 gemm-tflops=0.001 memory-gbps=1000000000 link-gbps=1000000000 link-latency-us=0.000001 devices-per-node=1 inter-node-gbps=1000000000 inter-node-latency-us=7" -o /dev/null 2>&1 | FileCheck %s --check-prefix=WRAP
// WRAP:      //  0        9  2.048  1.024  3.072   14.000
// WRAP-NEXT: //  1       12  2.048  2.048  2.048    7.000
// Chunks need the interleaved schedule, which takes the microbatches a
// round of p at a time.
// RUN: sed 's/"pp"=4/"pp"=2/' %t.mlir | not dist-opt - --dist-pipeline-report="microbatches=8 virtual-stages=2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHUNKS
// CHUNKS: error: 1f1b runs one model chunk a device: 2 virtual stages need interleaved-1f1b
// RUN: sed 's/"pp"=4/"pp"=2/' %t.mlir | not dist-opt - --dist-pipeline-report="microbatches=3 schedule=interleaved-1f1b virtual-stages=2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ROUNDS
// ROUNDS: error: interleaved-1f1b runs the microbatches 2 at a time: 3 is not a multiple of the 2 stages
// GPipe holds every microbatch.

// GPIPE:      //  0        4  1.024  0.000  2.048    0.000     8     4096        0    4096  F0 F1 F2 F3 F4 F5 F6 F7 B0 W0 B1 W1 B2 W2 B3 W3 B4 W4 B5 W5 B6 W6 B7 W7
// GPIPE:      // step 33.792 us, compute 24.576 us a stage; bubble 0.3750
//
// The forward program alone is F work only.
// RUN: dist-opt %s --dist-pipeline-report="microbatches=2 gemm-tflops=0.001 memory-gbps=1000000000 link-gbps=1000000000 link-latency-us=0.000001" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FWD
// FWD:        // dist-pipeline-report @chain: 4 stages on "pp", 2 microbatches, a forward program;
// FWD-NEXT:   //  stage  ops   F_us   B_us   W_us  send_us  live  state_B  stash_B  peak_B  order
// FWD-NEXT:   //  0        2  4.096  0.000  0.000    0.000     1     2048        0    2048  F0 F1
// FWD:       //  3        2  4.096  0.000  0.000              1     1024        0    1024  F0 F1
// FWD-NEXT:  // step 20.480 us, compute 8.192 us a stage; bubble 1.5000
// Bad option values are pipeline errors.
// RUN: not dist-opt %s --dist-pipeline-report="microbatches=0" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not dist-opt %s --dist-pipeline-report="schedule=zb-h2" 2>&1 | FileCheck %s --check-prefix=BAD-SCHEDULE
// BAD: microbatches must be a positive integer, not '0'
// BAD-SCHEDULE: zb-h2
dist.mesh @mesh = <["pp"=4]>

func.func @chain(
    %x: tensor<16x16xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{}, {}]>},
    %w0: tensor<16x16xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{}, {}]>},
    %w1: tensor<16x16xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{}, {}]>},
    %w2: tensor<16x16xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{}, {}]>},
    %w3: tensor<16x16xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{}, {}]>})
    -> tensor<f32> {
  %h0 = dist.matmul %x, %w0 : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  %b0 = dist.stage_boundary %h0 : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %h1 = dist.matmul %b0, %w1 : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  %b1 = dist.stage_boundary %h1 : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %h2 = dist.matmul %b1, %w2 : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  %b2 = dist.stage_boundary %h2 : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %h3 = dist.matmul %b2, %w3 : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  %loss = dist.reduce_mean %h3 {dims = array<i64: 0, 1>} : (tensor<16x16xf32>) -> tensor<f32>
  return %loss : tensor<f32>
}

// axis= names the mesh axis of the stages.
// RUN: sed 's/"pp"=4/"stages"=4/' %s | dist-opt - --dist-pipeline-report="microbatches=2 axis=stages" -o /dev/null 2>&1 | FileCheck %s --check-prefix=AXIS
// AXIS: // dist-pipeline-report @chain: 4 stages on "stages", 2 microbatches, a forward program;

// A GPT step of 4 layers on pp x dp x tp at a realistic size: ZB-H1's
// bubble is below 1F1B's at the same memory on the first stage. Its 16
// devices fill two nodes of the default h100-sxm cluster: stages 0 and 1
// share one, 2 and 3 the other, so the transfer from stage 1 to stage 2
// crosses the network (113 us a microbatch, 22 us inside a node).
// RUN: dist-gen gpt --layers 4 --pp 4 --dp 2 --tp 2 --batch 8 --seq 512 --heads 16 --head-dim 64 --vocab 2048 --forward-only \
// RUN:   | dist-opt - --dist-append-backward --dist-propagate-sharding=remarks=none --dist-resolve-partial --dist-split-matmul-grad=split=all -o %t.gpt.mlir
// RUN: dist-opt %t.gpt.mlir --dist-pipeline-report="microbatches=8 schedule=1f1b" -o /dev/null 2>&1 | FileCheck %s --check-prefix=GPT-1F1B
// RUN: dist-opt %t.gpt.mlir --dist-pipeline-report="microbatches=8 schedule=zb-h1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=GPT-ZB
// RUN: dist-opt %t.gpt.mlir --dist-pipeline-report="microbatches=8 schedule=gpipe" -o /dev/null 2>&1 | FileCheck %s --check-prefix=GPT-GPIPE
// GPipe holds all 8 microbatches' activations on every stage; 1F1B holds 4 on
// the first stage (p), ZB-H1 4 on every stage.
// GPT-GPIPE: //  0       98  139.843    0.000  295.277   21.651     8  235012096   83894272   906166272  F0 F1 F2 F3 F4 F5 F6 F7 B0
// GPT-1F1B: //  0       98  139.843    0.000  295.277   21.651     4  235012096   83894272  570589184  F0 F1 F2 F3 B0 W0 F4 B1 W1
// GPT-1F1B-NEXT: //  1       95  137.964  183.038  100.780  113.207
// GPT-1F1B-NEXT: //  2       95  137.964  183.038  100.780   21.651
// GPT-1F1B: // step 5867.286 us, compute 3579.721 us a stage; bubble 0.6390
// GPT-ZB:   // values read on another stage without a boundary: 1 (2097152 bytes a microbatch), not charged
// GPT-ZB-NEXT: // step 5145.001 us, compute 3579.721 us a stage; bubble 0.4373

// Llama's step (its backward from dist-append-backward) on pp x tp: the
// stages and their work are found the same way.
// RUN: dist-gen llama --layers 4 --pp 2 --dp 1 --tp 2 | dist-opt - --dist-propagate-sharding=remarks=none \
// RUN:   --dist-resolve-partial --dist-split-matmul-grad=split=all --dist-pipeline-report="microbatches=4 schedule=zb-h1" -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=LLAMA
// LLAMA:      // dist-pipeline-report @llama_step: 2 stages on "pp", 4 microbatches, zb-h1;
// LLAMA-NEXT: //  stage
// LLAMA-NEXT: //  0 {{.*}}  F0 F1 B0 W0 F2 B1 W1 F3 B2 W2 B3 W3
// LLAMA-NEXT: //  1 {{.*}}  F0 B0 F1 B1 W1 F2 B2 W2 F3 B3 W3 W0
// LLAMA-NEXT: // step {{[0-9.]+}} us, compute {{[0-9.]+}} us a stage; bubble {{[0-9]+\.[0-9]{4} \(idle / compute\)$}}
