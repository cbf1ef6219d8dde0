// Found by dist-fuzz (seed 20261205, input 188127, which corrupted the heap
// so that input 188129 crashed): a stray `}` ends the function after uses
// of %p, %q and %acc, which a later op's region then defines as block
// arguments; MLIR 22's parser freed them under the uses.
// RUN: dist-fuzz --replay %s | FileCheck %s
// CHECK: rejected by the parser or verifier

// Contractions a GEMM would get wrong stay loops: a unary op on an operand
// (out + exp(a) * b), and a reduction loop only A has (out[m, n] += a[m, k,
// r] * b[k, n], summed over r too).
#a3 = affine_map<(m, n, k, r) -> (m, k, r)>
#b3 = affine_map<(m, n, k, r) -> (k, n)>
#o3 = affine_map<(m, n, k, r) -> (m, n)>
// was-check-LABEL: func.func @not_gemms
// was-check-NOT:     dist_rt_contract_f32
// was-check:         math.exp
// was-check:         linalg.generic
// was-check-NOT:     dist_rt_contract_f32
func.func @not_gemms(%a: memref<4x8xf32>, %b: memref<8x16xf32>, %c: memref<4x16xf32>, %a3: memref<4x8x2xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>) {
  }
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
  ^c10(%p: f32, %q: f32, %acc: f32):
  return
}
