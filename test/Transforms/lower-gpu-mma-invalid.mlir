// RUN: dist-opt %s --split-input-file --dist-lower-gpu-mma -verify-diagnostics

// The product must already be mapped to a launch (a warp's lanes).
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @outside_a_launch(%a: memref<16x16xbf16>, %b: memref<16x8xbf16>, %c: memref<16x8xf32>) {
  // expected-error @+1 {{this dist.gpu_mma product is not in a gpu.launch: run the schedule's mapping first}}
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<16x16xbf16>, memref<16x8xbf16>) outs(%c : memref<16x8xf32>) attrs = {dist.gpu_mma} {
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

// A 16 x 16 x 16 tile is two mma.sync tiles: the schedule gives each warp one.
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @wrong_tile(%a: memref<16x16xbf16>, %b: memref<16x16xbf16>, %c: memref<16x16xf32>) {
  %one = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %one, %gy = %one, %gz = %one)
             threads(%tx, %ty, %tz) in (%sx = %one, %sy = %one, %sz = %one) {
    // expected-error @+1 {{this dist.gpu_mma product has loops [16, 16, 16]: the tensor cores' tile is M, N, K = 16, 8, 16, every other loop 1}}
    linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%a, %b : memref<16x16xbf16>, memref<16x16xbf16>) outs(%c : memref<16x16xf32>) attrs = {dist.gpu_mma} {
    ^bb0(%p: bf16, %q: bf16, %acc: f32):
      %pf = arith.extf %p : bf16 to f32
      %qf = arith.extf %q : bf16 to f32
      %m = arith.mulf %pf, %qf : f32
      %s = arith.addf %acc, %m : f32
      linalg.yield %s : f32
    }
    gpu.terminator
  }
  return
}

// -----

// An f32 product has no bf16 tensor-core form here.
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @f32_inputs(%a: memref<16x16xf32>, %b: memref<16x8xf32>, %c: memref<16x8xf32>) {
  %one = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %one, %gy = %one, %gz = %one)
             threads(%tx, %ty, %tz) in (%sx = %one, %sy = %one, %sz = %one) {
    // expected-error @+1 {{this dist.gpu_mma product does not multiply bf16 inputs}}
    linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%a, %b : memref<16x16xf32>, memref<16x8xf32>) outs(%c : memref<16x8xf32>) attrs = {dist.gpu_mma} {
    ^bb0(%p: f32, %q: f32, %acc: f32):
      %m = arith.mulf %p, %q : f32
      %s = arith.addf %acc, %m : f32
      linalg.yield %s : f32
    }
    gpu.terminator
  }
  return
}

// -----

// Only a product summed into its output is an mma.sync: an elementwise op
// tagged by mistake is refused.
#e = affine_map<(i, j) -> (i, j)>
func.func @not_a_product(%a: memref<16x8xbf16>, %c: memref<16x8xf32>) {
  %one = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %one, %gy = %one, %gz = %one)
             threads(%tx, %ty, %tz) in (%sx = %one, %sy = %one, %sz = %one) {
    // expected-error @+1 {{this dist.gpu_mma product is not a multiply-accumulate of bf16 inputs into f32 on memrefs with one K loop}}
    linalg.generic {indexing_maps = [#e, #e], iterator_types = ["parallel", "parallel"]}
        ins(%a : memref<16x8xbf16>) outs(%c : memref<16x8xf32>) attrs = {dist.gpu_mma} {
    ^bb0(%p: bf16, %acc: f32):
      %pf = arith.extf %p : bf16 to f32
      linalg.yield %pf : f32
    }
    gpu.terminator
  }
  return
}
