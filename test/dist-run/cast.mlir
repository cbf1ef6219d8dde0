// dist.cast rounds as ml_dtypes and NumPy do: f32 to bf16 to nearest even
// (1 + 2^-8 is halfway: 1), bf16 to f16 through f32 (65504 in bf16 is
// 65536, past f16's largest: inf), then widened to f64 and back to f32.
// For a CPU without avx512_bf16 too (--mcpu x86-64): rounding f32 to bf16
// is integer ops, no libgcc routine (widening is a shift either way).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import sys; sys.path.insert(0, '%S/../../scripts'); import npy; npy.write('%t/x.npy', [6], [1.0, 1.00390625, 1.01, -3.14159, 65504.0, 1e-3], 'f4')"
// RUN: dist-run %s --entry round --input x=%t/x.npy --out %t/out
// RUN: %python -c "import sys; sys.path.insert(0, '%S/../../scripts'); import npy; print(npy.read('%t/out/result0.npy'))" | FileCheck %s
// CHECK: [1.0, 1.0, 1.0078125, -3.140625, inf, 0.0009994506835937
// RUN: dist-run %s --entry round --input x=%t/x.npy --out %t/generic --mcpu x86-64
// RUN: %python -c "import sys; sys.path.insert(0, '%S/../../scripts'); import npy; print(npy.read('%t/generic/result0.npy'))" | FileCheck %s
func.func @round(%x: tensor<6xf32>) -> tensor<6xf32> {
  %b = dist.cast %x : (tensor<6xf32>) -> tensor<6xbf16>
  %h = dist.cast %b : (tensor<6xbf16>) -> tensor<6xf16>
  %d = dist.cast %h : (tensor<6xf16>) -> tensor<6xf64>
  %f = dist.cast %d : (tensor<6xf64>) -> tensor<6xf32>
  return %f : tensor<6xf32>
}
