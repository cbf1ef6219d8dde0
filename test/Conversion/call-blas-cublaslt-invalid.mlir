// RUN: dist-opt %s --split-input-file --verify-diagnostics --dist-call-blas=library=cublaslt

// cuBLASLt reads a matrix in place only along a contiguous dim: an operand
// strided along both of its matrix dims is refused, naming the fallback.
func.func @no_contiguous_dim(%a: memref<4x8xf32, strided<[32, 2]>>, %b: memref<8x16xf32>, %c: memref<4x16xf32>) {
  // expected-error @+1 {{dist-call-blas: cuBLASLt cannot read operand 0 of this product in place (strides [32, 2]: no matrix dim is contiguous); --gpu-matmul=generated (dist-schedule-gpu{matmul=generated}) compiles it as a kernel}}
  linalg.matmul ins(%a, %b : memref<4x8xf32, strided<[32, 2]>>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
  return
}
