// dist-call-blas: f32 contractions on memrefs (and bf16 ones summed in f32)
// become calls of the runtime's GEMMs, each operand with the roles of its dims packed four bits a dim
// (0 broadcast, then 1 + the loop: batch loops first, then m, n, k).
// RUN: dist-opt %s --split-input-file --dist-call-blas | FileCheck %s
// Nothing is left to rewrite on a second run.
// RUN: dist-opt %s --split-input-file --dist-call-blas --dist-call-blas | FileCheck %s

// A plain matmul: a [m, k] = 0x31, b [k, n] = 0x23, c [m, n] = 0x21.
// CHECK-LABEL: func.func @matmul
// CHECK-SAME:    (%[[A:.*]]: memref<4x8xf32>, %[[B:.*]]: memref<8x16xf32>, %[[C:.*]]: memref<4x16xf32>)
// CHECK-NEXT:    %[[UA:.*]] = memref.cast %[[A]] : memref<4x8xf32> to memref<*xf32>
// CHECK-NEXT:    %[[UB:.*]] = memref.cast %[[B]] : memref<8x16xf32> to memref<*xf32>
// CHECK-NEXT:    %[[UC:.*]] = memref.cast %[[C]] : memref<4x16xf32> to memref<*xf32>
// CHECK-NEXT:    %[[RA:.*]] = arith.constant 49 : i64
// CHECK-NEXT:    %[[RB:.*]] = arith.constant 35 : i64
// CHECK-NEXT:    %[[RC:.*]] = arith.constant 33 : i64
// CHECK-NEXT:    %[[NB:.*]] = arith.constant 0 : i64
// CHECK-NEXT:    call @dist_rt_contract_f32(%[[UA]], %[[UB]], %[[UC]], %[[RA]], %[[RB]], %[[RC]], %[[NB]])
// CHECK-NEXT:    return
// CHECK:       func.func private @dist_rt_contract_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, i64, i64, i64) attributes {llvm.emit_c_interface}
func.func @matmul(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>) {
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
  return
}

// -----

// A batched activation times a weight, the weight transposed: the batch and
// m loops of x are two m loops; the outer one is a batch loop the weight
// broadcasts over. x [b, m, k] = 0x421, w [n, k] = 0x43, out [b, m, n] = 0x321.
#x = affine_map<(b, m, n, k) -> (b, m, k)>
#w = affine_map<(b, m, n, k) -> (n, k)>
#o = affine_map<(b, m, n, k) -> (b, m, n)>
// CHECK-LABEL: func.func @broadcast_weight
// CHECK:         arith.constant 1057 : i64
// CHECK-NEXT:    arith.constant 67 : i64
// CHECK-NEXT:    arith.constant 801 : i64
// CHECK-NEXT:    arith.constant 1 : i64
// CHECK-NEXT:    call @dist_rt_contract_f32
func.func @broadcast_weight(%x: memref<2x4x8xf32>, %w: memref<16x8xf32>, %o: memref<2x4x16xf32>) {
  linalg.generic {indexing_maps = [#x, #w, #o], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<2x4x8xf32>, memref<16x8xf32>) outs(%o : memref<2x4x16xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Not contractions the runtime takes: f64, a sum without a product, and a
// tensor (not yet bufferized) matmul stay as they are.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     dist_rt_contract_f32
// CHECK:         linalg.matmul ins({{.*}} : memref<4x8xf64>, memref<8x16xf64>)
// CHECK:         linalg.generic
// CHECK:         linalg.matmul ins({{.*}} : tensor<4x8xf32>, tensor<8x16xf32>)
func.func @left_alone(%a: memref<4x8xf64>, %b: memref<8x16xf64>, %c: memref<4x16xf64>, %s: memref<4x8xf32>,
                      %t: memref<4xf32>, %x: tensor<4x8xf32>, %y: tensor<8x16xf32>, %z: tensor<4x16xf32>) -> tensor<4x16xf32> {
  linalg.matmul ins(%a, %b : memref<4x8xf64>, memref<8x16xf64>) outs(%c : memref<4x16xf64>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                  iterator_types = ["parallel", "reduction"]} ins(%s : memref<4x8xf32>) outs(%t : memref<4xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %r = arith.addf %acc, %v : f32
    linalg.yield %r : f32
  }
  %r = linalg.matmul ins(%x, %y : tensor<4x8xf32>, tensor<8x16xf32>) outs(%z : tensor<4x16xf32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// -----

// Contractions a GEMM would get wrong stay loops: a unary op on an operand
// (out + exp(a) * b), and a reduction loop only A has (out[m, n] += a[m, k,
// r] * b[k, n], summed over r too).
#a3 = affine_map<(m, n, k, r) -> (m, k, r)>
#b3 = affine_map<(m, n, k, r) -> (k, n)>
#o3 = affine_map<(m, n, k, r) -> (m, n)>
// CHECK-LABEL: func.func @not_gemms
// CHECK-NOT:     dist_rt_contract_f32
// CHECK:         math.exp
// CHECK:         linalg.generic
// CHECK-NOT:     dist_rt_contract_f32
func.func @not_gemms(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>, %a3: memref<4x8x2xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %e = math.exp %p : f32
    %m = arith.mulf %e, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#a3, #b3, #o3], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%a3, %b : memref<4x8x2xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// bf16 inputs widened in the body into an f32 output (what
// convert-dist-to-linalg writes for a bf16 matmul) go to the runtime's bf16
// GEMM, which sums in f32; only the f32 GEMM's declaration is absent.
#xa = affine_map<(m, n, k) -> (m, k)>
#wb = affine_map<(m, n, k) -> (k, n)>
#oc = affine_map<(m, n, k) -> (m, n)>
// CHECK-LABEL: func.func @bf16_inputs
// CHECK:         %[[UA:.*]] = memref.cast %{{.*}} : memref<4x8xbf16> to memref<*xbf16>
// CHECK-NEXT:    %[[UB:.*]] = memref.cast %{{.*}} : memref<8x16xbf16> to memref<*xbf16>
// CHECK-NEXT:    %[[UC:.*]] = memref.cast %{{.*}} : memref<4x16xf32> to memref<*xf32>
// CHECK:         call @dist_rt_contract_bf16(%[[UA]], %[[UB]], %[[UC]],
// CHECK-NOT:     linalg.generic
// CHECK-NOT:   @dist_rt_contract_f32
// CHECK:       func.func private @dist_rt_contract_bf16(memref<*xbf16>, memref<*xbf16>, memref<*xf32>, i64, i64, i64, i64)
// CHECK-NOT:   @dist_rt_contract_f32
func.func @bf16_inputs(%a: memref<4x8xbf16>, %b: memref<8x16xbf16>, %c: memref<4x16xf32>) {
  linalg.generic {indexing_maps = [#xa, #wb, #oc], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<4x8xbf16>, memref<8x16xbf16>) outs(%c : memref<4x16xf32>) {
  ^bb0(%p: bf16, %q: bf16, %acc: f32):
    %pf = arith.extf %p : bf16 to f32
    %qf = arith.extf %q : bf16 to f32
    %m = arith.mulf %pf, %qf : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Not for a GEMM: a bf16 output (its running sum would round at every
// step), inputs of two element types, f16 inputs (no f16 GEMM), a square
// of the first input (extf(a) * extf(a)) and a product added to itself
// instead of to the output.
// CHECK-LABEL: func.func @sixteen_bit_left_alone
// CHECK-NOT:     call
// CHECK-COUNT-5: linalg.generic
#xa = affine_map<(m, n, k) -> (m, k)>
#wb = affine_map<(m, n, k) -> (k, n)>
#oc = affine_map<(m, n, k) -> (m, n)>
func.func @sixteen_bit_left_alone(%a: memref<4x8xbf16>, %b: memref<8x16xbf16>, %c: memref<4x16xbf16>,
                                  %f: memref<8x16xf32>, %o: memref<4x16xf32>,
                                  %h: memref<4x8xf16>, %g: memref<8x16xf16>) {
  linalg.generic {indexing_maps = [#xa, #wb, #oc], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<4x8xbf16>, memref<8x16xbf16>) outs(%c : memref<4x16xbf16>) {
  ^bb0(%p: bf16, %q: bf16, %acc: bf16):
    %m = arith.mulf %p, %q : bf16
    %s = arith.addf %acc, %m : bf16
    linalg.yield %s : bf16
  }
  linalg.generic {indexing_maps = [#xa, #wb, #oc], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %f : memref<4x8xbf16>, memref<8x16xf32>) outs(%o : memref<4x16xf32>) {
  ^bb0(%p: bf16, %q: f32, %acc: f32):
    %pf = arith.extf %p : bf16 to f32
    %m = arith.mulf %pf, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#xa, #wb, #oc], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%h, %g : memref<4x8xf16>, memref<8x16xf16>) outs(%o : memref<4x16xf32>) {
  ^bb0(%p: f16, %q: f16, %acc: f32):
    %pf = arith.extf %p : f16 to f32
    %qf = arith.extf %q : f16 to f32
    %m = arith.mulf %pf, %qf : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#xa, #wb, #oc], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<4x8xbf16>, memref<8x16xbf16>) outs(%o : memref<4x16xf32>) {
  ^bb0(%p: bf16, %q: bf16, %acc: f32):
    %pf = arith.extf %p : bf16 to f32
    %pg = arith.extf %p : bf16 to f32
    %m = arith.mulf %pf, %pg : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#xa, #wb, #oc], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<4x8xbf16>, memref<8x16xbf16>) outs(%o : memref<4x16xf32>) {
  ^bb0(%p: bf16, %q: bf16, %acc: f32):
    %pf = arith.extf %p : bf16 to f32
    %qf = arith.extf %q : bf16 to f32
    %m = arith.mulf %pf, %qf : f32
    %s = arith.addf %m, %m : f32
    linalg.yield %s : f32
  }
  return
}
