// dist-call-blas{library=cublaslt}: the GPU pipeline's products become calls
// of the runtime's cuBLASLt GEMMs, with one more argument than the CPU's:
// the compute mode (1 where library=cublaslt-tf32 lets an f32 product round
// its inputs to TF32; a bf16 product accumulates in f32 either way: 0). A product that is
// a tile of a kernel (inside a mapped loop nest or a launch) is left alone.
// RUN: dist-opt %s --split-input-file --dist-call-blas=library=cublaslt | FileCheck %s
// RUN: dist-opt %s --split-input-file --dist-call-blas=library=cublaslt-tf32 | FileCheck %s --check-prefix=TF32
// Nothing is left to rewrite on a second run.
// RUN: dist-opt %s --split-input-file --dist-call-blas=library=cublaslt --dist-call-blas=library=cublaslt | FileCheck %s
// RUN: not dist-opt %s --dist-call-blas=library=mkl 2>&1 | FileCheck %s --check-prefix=BAD-LIBRARY
// BAD-LIBRARY: library must be openblas, cublaslt or cublaslt-tf32, not 'mkl'

// CHECK-LABEL: func.func @matmul
// CHECK-SAME:    (%[[A:.*]]: memref<4x8xf32>, %[[B:.*]]: memref<8x16xf32>, %[[C:.*]]: memref<4x16xf32>)
// CHECK-NEXT:    %[[UA:.*]] = memref.cast %[[A]] : memref<4x8xf32> to memref<*xf32>
// CHECK-NEXT:    %[[UB:.*]] = memref.cast %[[B]] : memref<8x16xf32> to memref<*xf32>
// CHECK-NEXT:    %[[UC:.*]] = memref.cast %[[C]] : memref<4x16xf32> to memref<*xf32>
// CHECK-NEXT:    %[[RA:.*]] = arith.constant 49 : i64
// CHECK-NEXT:    %[[RB:.*]] = arith.constant 35 : i64
// CHECK-NEXT:    %[[RC:.*]] = arith.constant 33 : i64
// CHECK-NEXT:    %[[NB:.*]] = arith.constant 0 : i64
// CHECK-NEXT:    %[[MODE:.*]] = arith.constant 0 : i64
// CHECK-NEXT:    call @dist_rt_gpu_contract_f32(%[[UA]], %[[UB]], %[[UC]], %[[RA]], %[[RB]], %[[RC]], %[[NB]], %[[MODE]])
// CHECK-NEXT:    return
// CHECK:       func.func private @dist_rt_gpu_contract_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, i64, i64, i64, i64) attributes {llvm.emit_c_interface}
// TF32-LABEL: func.func @matmul
// TF32:         %[[MODE:.*]] = arith.constant 1 : i64
// TF32-NEXT:    call @dist_rt_gpu_contract_f32(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[MODE]])
func.func @matmul(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>) {
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
  return
}

// -----

// bf16 inputs summed in f32: mode 0 with tf32 too. A strided view whose
// rows are contiguous (a column slice) is read in place.
// CHECK-LABEL: func.func @bf16_slice
// CHECK:         call @dist_rt_gpu_contract_bf16(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[MODE:.*]]) :
// CHECK:       func.func private @dist_rt_gpu_contract_bf16(memref<*xbf16>, memref<*xbf16>, memref<*xf32>, i64, i64, i64, i64, i64)
// TF32-LABEL: func.func @bf16_slice
// TF32:         %[[NB:.*]] = arith.constant 0 : i64
// TF32-NEXT:    %[[MODE:.*]] = arith.constant 0 : i64
// TF32-NEXT:    call @dist_rt_gpu_contract_bf16(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[NB]], %[[MODE]])
#ka = affine_map<(m, n, k) -> (m, k)>
#kb = affine_map<(m, n, k) -> (k, n)>
#kc = affine_map<(m, n, k) -> (m, n)>
func.func @bf16_slice(%a: memref<4x16xbf16, strided<[32, 1]>>, %b: memref<16x8xbf16>, %c: memref<4x8xf32>) {
  linalg.generic {indexing_maps = [#ka, #kb, #kc], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<4x16xbf16, strided<[32, 1]>>, memref<16x8xbf16>) outs(%c : memref<4x8xf32>) {
  ^bb0(%x: bf16, %y: bf16, %o: f32):
    %xf = arith.extf %x : bf16 to f32
    %yf = arith.extf %y : bf16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A tile of a generated kernel (inside scf.forall) stays for the kernel.
// CHECK-LABEL: func.func @tile_of_a_kernel
// CHECK:         scf.forall
// CHECK-NEXT:      linalg.matmul
// CHECK-NOT:     call @dist_rt_gpu_contract
func.func @tile_of_a_kernel(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>) {
  scf.forall (%i) in (1) {
    linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
  }
  return
}

// -----

// An operand cuBLASLt cannot read in place (strided along both matrix dims)
// goes through a contiguous copy; such an output is copied back after.
// CHECK-LABEL: func.func @staged
// CHECK-SAME:    (%[[A:.*]]: memref<4x8xf32, strided<[32, 2]>>, %[[B:.*]]: memref<8x16xf32>, %[[C:.*]]: memref<4x16xf32, strided<[64, 2]>>)
// CHECK-NEXT:    %[[SA:.*]] = memref.alloc() : memref<4x8xf32>
// CHECK-NEXT:    memref.copy %[[A]], %[[SA]]
// CHECK-NEXT:    %[[UA:.*]] = memref.cast %[[SA]]
// CHECK-NEXT:    %[[UB:.*]] = memref.cast %[[B]]
// CHECK-NEXT:    %[[SC:.*]] = memref.alloc() : memref<4x16xf32>
// CHECK-NEXT:    memref.copy %[[C]], %[[SC]]
// CHECK-NEXT:    %[[UC:.*]] = memref.cast %[[SC]]
// CHECK:         call @dist_rt_gpu_contract_f32(%[[UA]], %[[UB]], %[[UC]],
// CHECK-NEXT:    memref.dealloc %[[SA]]
// CHECK-NEXT:    memref.copy %[[SC]], %[[C]]
// CHECK-NEXT:    memref.dealloc %[[SC]]
// CHECK-NEXT:    return
func.func @staged(%a: memref<4x8xf32, strided<[32, 2]>>, %b: memref<8x16xf32>, %c: memref<4x16xf32, strided<[64, 2]>>) {
  linalg.matmul ins(%a, %b : memref<4x8xf32, strided<[32, 2]>>, memref<8x16xf32>) outs(%c : memref<4x16xf32, strided<[64, 2]>>)
  return
}

// -----

// A product that starts from a bias broadcast (dist.product_bias, from
// dist-fuse-product-bias) is the bias-epilogue GEMM: the bias vector after
// C, and the broadcast goes (cuBLASLt adds the bias as it writes C).
#bias = affine_map<(m, n) -> (n)>
#all = affine_map<(m, n) -> (m, n)>
// CHECK-LABEL: func.func @bias
// CHECK-SAME:    (%[[A:.*]]: memref<4x8xf32>, %[[B:.*]]: memref<8x16xf32>, %[[V:.*]]: memref<16xf32>, %[[C:.*]]: memref<4x16xf32>)
// CHECK-NOT:     linalg.generic
// CHECK:         %[[UC:.*]] = memref.cast %[[C]] : memref<4x16xf32> to memref<*xf32>
// CHECK-NEXT:    %[[UV:.*]] = memref.cast %[[V]] : memref<16xf32> to memref<*xf32>
// CHECK:         call @dist_rt_gpu_contract_bias_f32(%{{.*}}, %{{.*}}, %[[UC]], %[[UV]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
// CHECK-NEXT:    return
// CHECK:       func.func private @dist_rt_gpu_contract_bias_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, i64, i64, i64, i64) attributes {llvm.emit_c_interface}
func.func @bias(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %v: memref<16xf32>, %c: memref<4x16xf32>) {
  linalg.generic {indexing_maps = [#bias, #all], iterator_types = ["parallel", "parallel"]}
      ins(%v : memref<16xf32>) outs(%c : memref<4x16xf32>) attrs = {dist.product_bias} {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
  return
}

// -----

// cuBLASLt reads the bias as a contiguous vector: a strided one (a column
// of a matrix) goes through a contiguous copy, freed after the call.
#along_n = affine_map<(m, n) -> (n)>
#whole = affine_map<(m, n) -> (m, n)>
// CHECK-LABEL: func.func @strided_bias
// CHECK-SAME:    (%[[A:.*]]: memref<4x8xf32>, %[[B:.*]]: memref<8x16xf32>, %[[V:.*]]: memref<16xf32, strided<[2]>>, %[[C:.*]]: memref<4x16xf32>)
// CHECK:         %[[COPY:.*]] = memref.alloc() : memref<16xf32>
// CHECK-NEXT:    memref.copy %[[V]], %[[COPY]]
// CHECK-NEXT:    %[[UV:.*]] = memref.cast %[[COPY]] : memref<16xf32> to memref<*xf32>
// CHECK:         call @dist_rt_gpu_contract_bias_f32(%{{.*}}, %{{.*}}, %{{.*}}, %[[UV]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
// CHECK-NEXT:    memref.dealloc %[[COPY]]
// CHECK-NEXT:    return
func.func @strided_bias(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %v: memref<16xf32, strided<[2]>>, %c: memref<4x16xf32>) {
  linalg.generic {indexing_maps = [#along_n, #whole], iterator_types = ["parallel", "parallel"]}
      ins(%v : memref<16xf32, strided<[2]>>) outs(%c : memref<4x16xf32>) attrs = {dist.product_bias} {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
  return
}
