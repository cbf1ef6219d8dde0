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

// -----

// A bias broadcast is applied by the cuBLASLt call of the product it
// starts: one no call takes (here, the product is a kernel's tile) would be
// a host loop over device memory, so it is refused.
#bias = affine_map<(m, n) -> (n)>
#all = affine_map<(m, n) -> (m, n)>
func.func @untaken_bias(%v: memref<16xf32>, %c: memref<4x16xf32>) {
  // expected-error @+1 {{a product's bias broadcast (dist.product_bias) that no cuBLASLt call took: the product it starts is not a contraction dist-call-blas takes}}
  linalg.generic {indexing_maps = [#bias, #all], iterator_types = ["parallel", "parallel"]}
      ins(%v : memref<16xf32>) outs(%c : memref<4x16xf32>) attrs = {dist.product_bias} {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  return
}
