// REQUIRES: ptxas
// What a GPU training step asks of the driver, counted by the stand-in
// driver (Inputs/mock_cuda.c: kernels are not run): the GPT step at hidden
// 1024 (the GPU issue's measurement) and a Llama step of the same width,
// each run for one step and for two, the difference being the cost of
// every further step. Against the GPU issue's budgets (docs/gpu.md: at
// most 2 host synchronisations, no managed allocation, at most 80
// launches): launches, fills and copies are chained on one stream
// (dist-chain-gpu-launches), and the host waits only before it reads device
// memory and at the return, and no host code touches device memory any
// more: the loss's full reduction runs as rows in parallel and their
// combination (dist-split-full-reductions), products of two batch dims (the
// attention's) as one launch on collapsed loops
// (dist-collapse-contraction-dims), no longer a launch per step of a host
// loop, and rotary's concatenations and their gradients' pads are written
// in place by kernels (dist-copy-inserted-slices), no longer host copies
// into strided views. The one synchronisation is the return's. No buffer
// is managed memory: the inputs and results are copied from and to the
// host (once per run, not per step). A reduction and the elementwise op of
// its result (an f64 sum's rounding, a variance's reciprocal square root)
// are one kernel (dist-fuse-reduction-epilogues). Products are cuBLASLt
// calls on the stream (Inputs/mock_cublaslt.c checks each against
// cuBLASLt's rules and that its matrices lie in device blocks; it computes
// nothing here, the kernels not running either): GPT's 80 launches are 52
// and 27 products, the MLP's bias add being its product's epilogue
// (dist-fuse-product-bias: one launch and one fill fewer), each product
// shape's algorithm asked for once (12 shapes, none in the second step);
// Llama's 90 are 60 and 30 products.
// With the products compiled as kernels (--gpu-matmul=generated, the
// fallback) GPT makes 80 launches, the budget.
// RUN: rm -rf %t && mkdir -p %t/lib
// RUN: cc -shared -fPIC -o %t/lib/libcuda.so.1 %S/Inputs/mock_cuda.c
// RUN: cc -shared -fPIC -o %t/lib/libcublasLt.so.13 %S/Inputs/mock_cublaslt.c
// RUN: dist-gen gpt --layers 1 --dp 1 --tp 1 --batch 4 --seq 128 --heads 16 --head-dim 64 --vocab 1024 > %t/gpt.mlir
// RUN: %python %S/../../scripts/npy.py inputs %t/gpt.mlir gpt_step %t/gpt-in > /dev/null
// RUN: env LD_LIBRARY_PATH=%t/lib MOCK_CUBLASLT_COMPUTE=0 MOCK_CUDA_LOG=%t/gpt1.log dist-run %t/gpt.mlir --entry gpt_step -n 1 --input-dir %t/gpt-in --out %t/gpt-out --device gpu --repeat 1
// RUN: env LD_LIBRARY_PATH=%t/lib MOCK_CUBLASLT_COMPUTE=0 MOCK_CUDA_LOG=%t/gpt2.log dist-run %t/gpt.mlir --entry gpt_step -n 1 --input-dir %t/gpt-in --out %t/gpt-out --device gpu --repeat 2
// RUN: %python %S/Inputs/mock_step_counts.py %t/gpt1.log %t/gpt2.log | FileCheck %s --check-prefix=GPT
// GPT: per step: 52 launches, 38 fills, 0 copies, 0 host transfers, 1 host synchronisations, 0 new allocations (0 managed); start-up: 31 modules, 97 blocks
// GPT-NEXT: cuBLASLt per step: 27 products, 0 heuristic queries; start-up: 12 heuristic queries; 0 bad calls, 0 host matrices
//
// With --repeat 5 the step is captured once as a CUDA graph and replayed
// (runtime/src/graph.rs): the first call runs as it is (it waits for the
// stream once and touches no device memory from the host, so it can be
// replayed), the second is captured (its 52 launches and 38 fills are
// queued into the graph, not run), and the graph runs it and the next two
// (3 graph launches); the last call, whose results are written, runs as
// it is. So the host launches kernels for two calls only, allocates
// nothing after the first, and waits once per call. --no-gpu-graph runs
// every call as it is. --timing says how many calls the graph ran.
// RUN: env LD_LIBRARY_PATH=%t/lib MOCK_CUBLASLT_COMPUTE=0 MOCK_CUDA_LOG=%t/graph.log dist-run %t/gpt.mlir --entry gpt_step -n 1 --input-dir %t/gpt-in --out %t/gpt-out --device gpu --repeat 5 --timing 2>&1 | FileCheck %s --check-prefix=GRAPH-TIMING
// GRAPH-TIMING: step {{[0-9.]+}} ms (median of 5; 3 run as a CUDA graph)
// RUN: grep -h "^cuda: device 0" %t/gpt2.log %t/graph.log | FileCheck %s --check-prefix=GRAPH
// GRAPH:      launches 104 allocs [[ALLOCS:[0-9]+]] {{.*}} memsets 76 {{.*}} syncs 2 bad 0 captured 0 graphs 0 replays 0
// GRAPH-NEXT: launches 104 allocs [[ALLOCS]] {{.*}} memsets 76 {{.*}} syncs 5 bad 0 captured 90 graphs 1 replays 3
// RUN: env LD_LIBRARY_PATH=%t/lib MOCK_CUBLASLT_COMPUTE=0 MOCK_CUDA_LOG=%t/no-graph.log dist-run %t/gpt.mlir --entry gpt_step -n 1 --input-dir %t/gpt-in --out %t/gpt-out --device gpu --repeat 3 --no-gpu-graph
// RUN: grep "^cuda: device 0" %t/no-graph.log | FileCheck %s --check-prefix=NO-GRAPH
// NO-GRAPH: launches 156 {{.*}} syncs 3 bad 0 captured 0 graphs 0 replays 0
// RUN: env LD_LIBRARY_PATH=%t/lib MOCK_CUDA_LOG=%t/gen1.log dist-run %t/gpt.mlir --entry gpt_step -n 1 --input-dir %t/gpt-in --out %t/gpt-out --device gpu --gpu-matmul=generated --repeat 1
// RUN: env LD_LIBRARY_PATH=%t/lib MOCK_CUDA_LOG=%t/gen2.log dist-run %t/gpt.mlir --entry gpt_step -n 1 --input-dir %t/gpt-in --out %t/gpt-out --device gpu --gpu-matmul=generated --repeat 2
// RUN: %python %S/Inputs/mock_step_counts.py %t/gen1.log %t/gen2.log | FileCheck %s --check-prefix=GENERATED
// GENERATED: per step: 80 launches, 39 fills, 0 copies, 0 host transfers, 1 host synchronisations, 0 new allocations (0 managed); start-up: 44 modules, 97 blocks
// GENERATED-NOT: cuBLASLt
// RUN: dist-gen llama --layers 1 --dp 1 --tp 1 --batch 4 --seq 128 --heads 16 --kv-heads 4 --head-dim 64 --ffn 2816 --vocab 1024 > %t/llama.mlir
// RUN: %python %S/../../scripts/npy.py inputs %t/llama.mlir llama_step %t/llama-in > /dev/null
// RUN: env LD_LIBRARY_PATH=%t/lib MOCK_CUBLASLT_COMPUTE=0 MOCK_CUDA_LOG=%t/llama1.log dist-run %t/llama.mlir --entry llama_step -n 1 --input-dir %t/llama-in --out %t/llama-out --device gpu --repeat 1
// RUN: env LD_LIBRARY_PATH=%t/lib MOCK_CUBLASLT_COMPUTE=0 MOCK_CUDA_LOG=%t/llama2.log dist-run %t/llama.mlir --entry llama_step -n 1 --input-dir %t/llama-in --out %t/llama-out --device gpu --repeat 2
// RUN: %python %S/Inputs/mock_step_counts.py %t/llama1.log %t/llama2.log | FileCheck %s --check-prefix=LLAMA
// LLAMA: per step: 60 launches, 45 fills, 0 copies, 0 host transfers, 1 host synchronisations, 0 new allocations (0 managed); start-up: 44 modules, 105 blocks
// LLAMA-NEXT: cuBLASLt per step: 30 products, 0 heuristic queries; start-up: 15 heuristic queries; 0 bad calls, 0 host matrices
