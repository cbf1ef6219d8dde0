// RUN: dist-opt %s --split-input-file --verify-diagnostics --dist-call-blas=library=cublaslt

// cuBLASLt reads a matrix in place only along a contiguous dim; an operand
// strided along both of its matrix dims goes through a contiguous copy,
// which needs a static shape: one of dynamic shape is refused, naming the
// fallback.
func.func @no_contiguous_dim(%a: memref<?x8xf32, strided<[32, 2]>>, %b: memref<8x16xf32>, %c: memref<?x16xf32>) {
  // expected-error @+1 {{dist-call-blas: a product operand of dynamic shape whose layout cuBLASLt cannot read in place (one matrix dim contiguous, the other over whole lines); --gpu-matmul=generated compiles it as a kernel}}
  linalg.matmul ins(%a, %b : memref<?x8xf32, strided<[32, 2]>>, memref<8x16xf32>) outs(%c : memref<?x16xf32>)
  return
}
