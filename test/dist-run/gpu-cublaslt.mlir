// REQUIRES: ptxas
// Products on the GPU through the runtime's cuBLASLt path, end to end: a
// program of products only (a batched activation times a weight, plain and
// transposed, a product of two batch dims, one whose weight is shared by
// the outer batch index, one with a constant weight, both halves of a
// matmul gradient, two with a bias added, the weight plain and transposed)
// compiled by dist-run --device gpu is all cuBLASLt calls, device
// fills and copies, no kernel, so stand-ins for the driver and cuBLASLt
// (Inputs/mock_cuda.c, Inputs/mock_cublaslt.c, which computes on the host in
// double precision) run it whole: its results equal the CPU's, whose
// products are OpenBLAS's. Every call is well formed (an algorithm the
// heuristic gave for its descriptors, matrices as aligned as promised),
// each shape asks the heuristic once, every matrix lies in device memory,
// and the host waits once, at the return.
// RUN: rm -rf %t && mkdir -p %t/lib
// RUN: cc -shared -fPIC -o %t/lib/libcuda.so.1 %S/Inputs/mock_cuda.c
// RUN: cc -O2 -shared -fPIC -o %t/lib/libcublasLt.so.13 %S/Inputs/mock_cublaslt.c
// RUN: %python %S/../../scripts/npy.py inputs %s products %t/in > /dev/null
// RUN: dist-run %s --entry products -n 1 --input-dir %t/in --out %t/cpu
// RUN: env LD_LIBRARY_PATH=%t/lib MOCK_CUDA_LOG=%t/log dist-run %s --entry products -n 1 --input-dir %t/in --out %t/gpu --device gpu
// RUN: %python %S/../../scripts/npy.py compare %t/cpu %t/gpu | FileCheck %s
// RUN: FileCheck %s --check-prefix=CALLS < %t/log
// CHECK: 9 results; max difference against -n 1: {{(0\.00e\+00|[0-9.]+e-(0[6-9]|[1-9][0-9]))$}}
// The 2 x 3 batch over a weight shared by the outer batch index is one
// strided batch of 3 per outer index, stepped on the host (8 calls of 7
// shapes); the constant weight, which cuBLASLt cannot read in the host's
// globals, is the runtime's device copy (dist_rt_gpu_constant): no managed
// buffer. The bias adds are the products' epilogues (dist-fuse-product-bias:
// 2 more shapes, 10 calls), so no kernel is launched at all.
// CALLS: cublaslt: heuristics 9 matmuls 10 bad 0 host 0
// CALLS: cuda: device 0 loads 0 launches 0 {{.*}} managed 0 {{.*}} syncs 1 bad 0
// The constant is copied to the device once per program, not per step: a
// second step makes no host transfer, and with --repeat 5 the step is
// captured as a CUDA graph after the first (a per-step copy into managed
// memory kept it from being captured) and replayed with the same results.
// RUN: env LD_LIBRARY_PATH=%t/lib MOCK_CUDA_LOG=%t/two.log dist-run %s --entry products -n 1 --input-dir %t/in --out %t/two --device gpu --repeat 2
// RUN: %python %S/Inputs/mock_step_counts.py %t/log %t/two.log | FileCheck %s --check-prefix=STEP
// STEP: per step: 0 launches, 7 fills, 0 copies, 0 host transfers, 1 host synchronisations, 0 new allocations (0 managed)
// RUN: env LD_LIBRARY_PATH=%t/lib MOCK_CUDA_LOG=%t/graph.log dist-run %s --entry products -n 1 --input-dir %t/in --out %t/graph --device gpu --repeat 5
// RUN: FileCheck %s --check-prefix=GRAPH < %t/graph.log
// GRAPH: cuda: device 0 {{.*}} managed 0 {{.*}} graphs 1 replays 3
// RUN: %python %S/../../scripts/npy.py compare %t/gpu %t/graph | FileCheck %s --check-prefix=SAME
// SAME: 9 results; max difference against -n 1: 0.00e+00
// With --gpu-tf32 the f32 products ask cuBLASLt for TF32 compute (the
// stand-in accepts it and computes exactly, so the results stay equal).
// RUN: env LD_LIBRARY_PATH=%t/lib DIST_RT_GPU_PROFILE=1 dist-run %s --entry products -n 1 --input-dir %t/in --out %t/tf32 --device gpu --gpu-tf32 2> %t/tf32.log
// RUN: %python %S/../../scripts/npy.py compare %t/cpu %t/tf32 | FileCheck %s
// RUN: FileCheck %s --check-prefix=TF32 < %t/tf32.log
// TF32: dist-runtime: kernel cuBLASLt tf32 {{[0-9]+}} x {{[0-9]+}} x {{[0-9]+}}, batch {{[0-9]+}}: {{[0-9]+}} launches
// TF32-NOT: cuBLASLt f32
// Without cuBLASLt (the driver alone on the loader's path, no nvidia wheel
// for python3) the first product ends the job, naming the fallback.
// RUN: mkdir -p %t/driver-only && cp %t/lib/libcuda.so.1 %t/driver-only/
// RUN: env LD_LIBRARY_PATH=%t/driver-only not dist-run %s --entry products -n 1 --input-dir %t/in --out %t/none --device gpu 2>&1 | FileCheck %s --check-prefix=NO-CUBLASLT
// NO-CUBLASLT: dist-runtime: products on the GPU use cuBLASLt (libcublasLt.so.13 or .so.12, on the loader's path or in the nvidia-cublas Python wheel), which was not found ({{.*}}); dist-run --gpu-matmul=generated compiles them as kernels instead
func.func @products(%x: tensor<4x8x16xf32>, %w: tensor<16x32xf32>, %wt: tensor<32x16xf32>,
                    %q: tensor<2x3x8x16xf32>, %k: tensor<2x3x8x16xf32>, %dout: tensor<4x8x32xf32>,
                    %v: tensor<3x16x8xf32>, %w2: tensor<16x32xf32>, %wt2: tensor<32x16xf32>, %bias: tensor<32xf32>)
    -> (tensor<4x8x32xf32>, tensor<4x8x32xf32>, tensor<2x3x8x8xf32>, tensor<4x8x16xf32>, tensor<16x32xf32>,
        tensor<2x3x8x8xf32>, tensor<4x8x4xf32>, tensor<4x8x32xf32>, tensor<4x8x32xf32>) {
  %y = dist.matmul %x, %w : (tensor<4x8x16xf32>, tensor<16x32xf32>) -> tensor<4x8x32xf32>
  %yt = dist.matmul %x, %wt {transpose_y} : (tensor<4x8x16xf32>, tensor<32x16xf32>) -> tensor<4x8x32xf32>
  %s = dist.matmul %q, %k {transpose_y} : (tensor<2x3x8x16xf32>, tensor<2x3x8x16xf32>) -> tensor<2x3x8x8xf32>
  %dx, %dw = dist.matmul_grad %x, %w, %dout : (tensor<4x8x16xf32>, tensor<16x32xf32>, tensor<4x8x32xf32>) -> (tensor<4x8x16xf32>, tensor<16x32xf32>)
  %sv = dist.matmul %q, %v : (tensor<2x3x8x16xf32>, tensor<3x16x8xf32>) -> tensor<2x3x8x8xf32>
  %c = arith.constant dense<[[0.5, -1.0, 2.0, 0.25], [1.5, 0.0, -0.5, 1.0], [-2.0, 1.0, 0.75, -1.5], [0.125, 2.5, -0.25, 1.0],
                             [1.0, 1.0, -1.0, 0.5], [0.0, -0.75, 1.25, 2.0], [-1.0, 0.5, 0.5, -0.5], [3.0, -2.0, 0.0, 1.0],
                             [0.5, 0.5, 0.5, 0.5], [-1.0, 2.0, -3.0, 4.0], [1.0, 0.0, 0.0, 1.0], [0.25, -0.25, 0.75, -0.75],
                             [2.0, 1.0, 0.5, 0.25], [-0.5, -1.0, -2.0, -4.0], [1.5, -1.5, 2.5, -2.5], [0.0, 0.0, 1.0, 0.0]]> : tensor<16x4xf32>
  %xc = dist.matmul %x, %c : (tensor<4x8x16xf32>, tensor<16x4xf32>) -> tensor<4x8x4xf32>
  %p = dist.matmul %x, %w2 : (tensor<4x8x16xf32>, tensor<16x32xf32>) -> tensor<4x8x32xf32>
  %pb = dist.add %p, %bias : (tensor<4x8x32xf32>, tensor<32xf32>) -> tensor<4x8x32xf32>
  %r = dist.matmul %x, %wt2 {transpose_y} : (tensor<4x8x16xf32>, tensor<32x16xf32>) -> tensor<4x8x32xf32>
  %rb = dist.add %r, %bias : (tensor<4x8x32xf32>, tensor<32xf32>) -> tensor<4x8x32xf32>
  return %y, %yt, %s, %dx, %dw, %sv, %xc, %pb, %rb : tensor<4x8x32xf32>, tensor<4x8x32xf32>, tensor<2x3x8x8xf32>, tensor<4x8x16xf32>, tensor<16x32xf32>, tensor<2x3x8x8xf32>, tensor<4x8x4xf32>, tensor<4x8x32xf32>, tensor<4x8x32xf32>
}
