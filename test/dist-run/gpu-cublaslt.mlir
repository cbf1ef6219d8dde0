// REQUIRES: ptxas
// Products on the GPU through the runtime's cuBLASLt path, end to end: a
// program of products only (a batched activation times a weight, plain and
// transposed, a product of two batch dims, both halves of a matmul
// gradient) compiled by dist-run --device gpu is all cuBLASLt calls, device
// fills and copies, no kernel, so stand-ins for the driver and cuBLASLt
// (Inputs/mock_cuda.c, Inputs/mock_cublaslt.c, which computes on the host in
// double precision) run it whole: its results equal the CPU's, whose
// products are OpenBLAS's. Every call is well formed, each of the 5 shapes
// asks the heuristic once, every matrix lies in device memory, and the host
// waits once, at the return.
// RUN: rm -rf %t && mkdir -p %t/lib
// RUN: cc -shared -fPIC -o %t/lib/libcuda.so.1 %S/Inputs/mock_cuda.c
// RUN: cc -O2 -shared -fPIC -o %t/lib/libcublasLt.so.13 %S/Inputs/mock_cublaslt.c
// RUN: %python %S/../../scripts/npy.py inputs %s products %t/in > /dev/null
// RUN: dist-run %s --entry products -n 1 --input-dir %t/in --out %t/cpu
// RUN: env LD_LIBRARY_PATH=%t/lib MOCK_CUDA_LOG=%t/log dist-run %s --entry products -n 1 --input-dir %t/in --out %t/gpu --device gpu
// RUN: %python %S/../../scripts/npy.py compare %t/cpu %t/gpu | FileCheck %s
// RUN: FileCheck %s --check-prefix=CALLS < %t/log
// CHECK: 5 results; max difference against -n 1: {{(0\.00e\+00|[0-9.]+e-(0[6-9]|[1-9][0-9]))$}}
// CALLS: cublaslt: heuristics 5 matmuls 5 bad 0 host 0
// CALLS: cuda: device 0 loads 0 launches 0 {{.*}} managed 0 {{.*}} syncs 1 bad 0
func.func @products(%x: tensor<4x8x16xf32>, %w: tensor<16x32xf32>, %wt: tensor<32x16xf32>,
                    %q: tensor<2x3x8x16xf32>, %k: tensor<2x3x8x16xf32>, %dout: tensor<4x8x32xf32>)
    -> (tensor<4x8x32xf32>, tensor<4x8x32xf32>, tensor<2x3x8x8xf32>, tensor<4x8x16xf32>, tensor<16x32xf32>) {
  %y = dist.matmul %x, %w : (tensor<4x8x16xf32>, tensor<16x32xf32>) -> tensor<4x8x32xf32>
  %yt = dist.matmul %x, %wt {transpose_y} : (tensor<4x8x16xf32>, tensor<32x16xf32>) -> tensor<4x8x32xf32>
  %s = dist.matmul %q, %k {transpose_y} : (tensor<2x3x8x16xf32>, tensor<2x3x8x16xf32>) -> tensor<2x3x8x8xf32>
  %dx, %dw = dist.matmul_grad %x, %w, %dout : (tensor<4x8x16xf32>, tensor<16x32xf32>, tensor<4x8x32xf32>) -> (tensor<4x8x16xf32>, tensor<16x32xf32>)
  return %y, %yt, %s, %dx, %dw : tensor<4x8x32xf32>, tensor<4x8x32xf32>, tensor<2x3x8x8xf32>, tensor<4x8x16xf32>, tensor<16x32xf32>
}
