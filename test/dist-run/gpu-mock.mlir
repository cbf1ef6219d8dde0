// REQUIRES: ptxas
// The GPU program's host side, run on 4 MPI ranks against stand-ins for
// the CUDA driver, cuBLASLt and NCCL (Inputs/mock_{cuda,cublaslt,nccl}.c:
// calls are checked and counted, kernels are not run, products not
// computed). Each rank loads each kernel module once, takes the GPU of its
// local rank, launches every kernel with a valid grid, queues its 5
// products on cuBLASLt (the first with its bias add as its epilogue, so
// 10 kernels; each shape's algorithm asked for once, every matrix
// inside a device block), returns every buffer to the driver (at exit: freed blocks are
// pooled), keeps in managed memory only the buffers host code touches (10
// of 40; a 41st block is cuBLASLt's workspace), copies inputs and results
// between host and device (on rank 0,
// which writes the 4 results, 5 copies; 1 on the others), copies
// the collectives' contiguous inputs on the stream (7),
// waits for the device only where host code reads device memory and at
// the step's return (4 in all: not per launch, per collective or at
// frees), destroys
// every event, and makes one NCCL communicator per
// group (dp and tp, 2 ranks each) from the id its group's first rank
// broadcast over MPI, destroyed at the end. Results are not checked here:
// the kernels do not run (gpu-run.mlir does that on a GPU). With fewer GPUs
// than processes on the node, the run stops and says so.
// RUN: rm -rf %t && mkdir -p %t/lib
// RUN: cc -shared -fPIC -o %t/lib/libcuda.so.1 %S/Inputs/mock_cuda.c
// RUN: cc -shared -fPIC -o %t/lib/libnccl.so.2 %S/Inputs/mock_nccl.c
// RUN: cc -shared -fPIC -o %t/lib/libcublasLt.so.13 %S/Inputs/mock_cublaslt.c
// RUN: %python %S/../../scripts/npy.py inputs %S/../../examples/megatron-mlp.mlir step %t/in
// RUN: env LD_LIBRARY_PATH=%t/lib MOCK_CUDA_LOG=%t/log MOCK_CUDA_DEVICES=4 MOCK_CUBLASLT_COMPUTE=0 dist-run %S/../../examples/megatron-mlp.mlir --entry step -n 4 --input-dir %t/in --out %t/out --device gpu --overlap
// RUN: grep "^cuda: device . loads [1-9]" %t/log | sort | FileCheck %s --check-prefix=CUDA
// RUN: grep "^nccl:" %t/log | FileCheck %s --check-prefix=NCCL
// RUN: grep "^cublaslt:" %t/log | FileCheck %s --check-prefix=CUBLASLT
// CUDA:        cuda: device 0 loads 10 launches 10 allocs [[A:[0-9]+]] managed 10 frees [[A]] memsets 5 copies 7 transfers 5 events 0 syncs 4 bad 0
// CUDA-NEXT:   cuda: device 1 loads 10 launches 10 allocs [[A]] managed 10 frees [[A]] memsets 5 copies 7 transfers 1 events 0 syncs 4 bad 0
// CUDA-NEXT:   cuda: device 2 loads 10 launches 10 allocs [[A]] managed 10 frees [[A]] memsets 5 copies 7 transfers 1 events 0 syncs 4 bad 0
// CUDA-NEXT:   cuda: device 3 loads 10 launches 10 allocs [[A]] managed 10 frees [[A]] memsets 5 copies 7 transfers 1 events 0 syncs 4 bad 0
// CUDA-NOT:     cuda:
// NCCL-COUNT-4: nccl: collectives 8 p2p 0 groups 0 destroyed 2 | comm {{[01]}} of 2 from a broadcast id | comm {{[01]}} of 2 from a broadcast id{{$}}
// NCCL-NOT:     nccl:
// CUBLASLT-COUNT-4: cublaslt: heuristics 5 matmuls 5 bad 0 host 0
// CUBLASLT-NOT:     cublaslt:
// Repeated, the distributed step is replayed as a CUDA graph on every
// rank: its host code waits for the stream once and touches no device
// memory (main makes the input shards contiguous once, before the first
// call, not at each), so the second of 3 calls is captured and run as the
// graph, NCCL's collectives inside it.
// RUN: env LD_LIBRARY_PATH=%t/lib MOCK_CUDA_LOG=%t/graph.log MOCK_CUDA_DEVICES=4 MOCK_CUBLASLT_COMPUTE=0 dist-run %S/../../examples/megatron-mlp.mlir --entry step -n 4 --input-dir %t/in --out %t/out3 --device gpu --overlap --repeat 3 --timing 2>&1 | FileCheck %s --check-prefix=GRAPH-TIMING
// GRAPH-TIMING: step {{[0-9.]+}} ms (median of 3; 1 run as a CUDA graph)
// RUN: grep "^cuda: device [0-3]" %t/graph.log | FileCheck %s --check-prefix=GRAPH
// GRAPH-COUNT-4: launches 18 {{.*}} bad 0 captured 20 graphs 1 replays 1
// RUN: env LD_LIBRARY_PATH=%t/lib MOCK_CUDA_DEVICES=2 not dist-run %S/../../examples/megatron-mlp.mlir --entry step -n 4 --input-dir %t/in --out %t/out2 --device gpu 2>&1 | FileCheck %s --check-prefix=FEWER
// FEWER: dist-runtime: process {{[23]}} on this node has no GPU of its own: the node has 2 (one process per GPU)
//
// A pipelined step (2 stages, 1F1B over 4 microbatches) on the GPU
// backend: dist.send and dist.recv run on NCCL, each way of the pp group on
// a communicator of its own (3 communicators of the pp group on each
// rank: its collectives, and transfers up and down), made before the step
// with those of the other groups. The stand-in NCCL moves each message
// through a file and pairs the two ranks' transfers in the order each
// queued them: every transfer's size matches its pair's (bad 0), both
// ranks count 9 (4 activations forward, 4 gradients back, and the loss),
// and each receive got the message of its own tag (the runtime checks the
// tag each staged message starts with after the step). Each stage's calls
// are well formed and the job ends (no deadlock).
// RUN: dist-gen gpt --layers 2 --pp 2 --dp 1 --tp 1 --batch 4 --seq 16 --heads 2 --head-dim 8 --vocab 64 > %t/pp2.mlir
// RUN: %python %S/../../scripts/npy.py inputs %t/pp2.mlir gpt_step %t/pp2-in --id-range 64 > /dev/null
// RUN: mkdir -p %t/p2p
// RUN: env LD_LIBRARY_PATH=%t/lib MOCK_CUDA_LOG=%t/pp.log MOCK_NCCL_DIR=%t/p2p MOCK_CUDA_DEVICES=2 MOCK_CUBLASLT_COMPUTE=0 dist-run %t/pp2.mlir --entry gpt_step -n 2 --microbatches 4 --schedule 1f1b --input-dir %t/pp2-in --out %t/pp2-out --device gpu
// RUN: grep -v "device -1" %t/pp.log | sort | FileCheck %s --check-prefix=PIPELINE
// PIPELINE-COUNT-2: cublaslt: heuristics {{[0-9]+}} matmuls {{[0-9]+}} bad 0 host 0
// PIPELINE-NEXT:    cuda: device 0 loads {{[1-9][0-9]*}} launches {{[1-9][0-9]*}} {{.*}} bad 0
// PIPELINE-NEXT:    cuda: device 1 loads {{[1-9][0-9]*}} launches {{[1-9][0-9]*}} {{.*}} bad 0
// PIPELINE-NEXT:    nccl-p2p: transfers 9 bytes [[BYTES:[0-9]+]] bad 0
// PIPELINE-NEXT:    nccl-p2p: transfers 9 bytes [[BYTES]] bad 0
// PIPELINE-NEXT:    nccl: collectives {{[0-9]+}} p2p 9 groups 0 destroyed 6 | comm 0 of 2 from a broadcast id | comm 0 of 2 from a broadcast id | comm 0 of 2 from a broadcast id |
// PIPELINE-NEXT:    nccl: collectives {{[0-9]+}} p2p 9 groups 0 destroyed 6 | comm 1 of 2 from a broadcast id | comm 1 of 2 from a broadcast id | comm 1 of 2 from a broadcast id |
// RUN: ls %t/p2p | count 0
//
// Per further step (a run of two calls against the run of one): each
// stage's parts (dist-schedule-pipeline's F, B and W functions) and the
// stage itself return without waiting for the stream, and each
// microbatch's slice of the data is copied by a kernel, not on the host,
// and the zeros a stage returns for results the other computes are device
// fills: each rank waits for the stream once, at the step's return, and
// nothing moves between host and device.
// RUN: env LD_LIBRARY_PATH=%t/lib MOCK_CUDA_LOG=%t/pp-twice.log MOCK_NCCL_DIR=%t/p2p MOCK_CUDA_DEVICES=2 MOCK_CUBLASLT_COMPUTE=0 dist-run %t/pp2.mlir --entry gpt_step -n 2 --microbatches 4 --schedule 1f1b --input-dir %t/pp2-in --out %t/pp2-twice --device gpu --repeat 2
// RUN: %python %S/Inputs/mock_step_counts.py %t/pp.log %t/pp-twice.log 0 | FileCheck %s --check-prefix=PIPELINE-STEP0
// RUN: %python %S/Inputs/mock_step_counts.py %t/pp.log %t/pp-twice.log 1 | FileCheck %s --check-prefix=PIPELINE-STEP1
// PIPELINE-STEP0: per step: {{[0-9]+}} launches, {{[0-9]+}} fills, {{[0-9]+}} copies, 0 host transfers, 1 host synchronisations, 0 new allocations (0 managed)
// PIPELINE-STEP1: per step: {{[0-9]+}} launches, {{[0-9]+}} fills, {{[0-9]+}} copies, 0 host transfers, 1 host synchronisations, 0 new allocations (0 managed)
//
// Two stages that queue their transfers in different orders (the
// stand-in swaps the messages of the first two receives from a peer) stop
// the job: NCCL pairs in order, so the data would be swapped.
// RUN: not env LD_LIBRARY_PATH=%t/lib MOCK_NCCL_DIR=%t/p2p MOCK_NCCL_SWAP=1 MOCK_CUDA_DEVICES=2 MOCK_CUBLASLT_COMPUTE=0 dist-run %t/pp2.mlir --entry gpt_step -n 2 --microbatches 4 --schedule 1f1b --input-dir %t/pp2-in --out %t/pp2-swapped --device gpu 2>&1 | FileCheck %s --check-prefix=SWAPPED
// SWAPPED: dist-runtime: the receive of tag [[TAG:[0-9]+]] from device {{[01]}} of its group got the message of tag {{[0-9]+}}: NCCL pairs the transfers between two devices in the order each queues them
