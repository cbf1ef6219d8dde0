// REQUIRES: jax
// Mixed precision with dist.cast: float32 inputs cast to bf16, a bf16
// product (accumulated in float32, rounded to bf16) and square, cast back
// for the float32 loss. dist-append-backward casts each gradient back to its
// argument's type, so the gradients of the float32 inputs are float32, and
// they agree with JAX's mixed-precision step to bf16 tolerance (2e-2, which
// the script enforces; with the product accumulated in f32 on both sides,
// they agree exactly on these inputs).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../../scripts/npy.py inputs %s step %t/in > /dev/null
// RUN: dist-run %s --entry step --grad --input-dir %t/in --out %t/out
// RUN: %jax_python %S/Inputs/mixed_precision.py %t/in %t/out | FileCheck %s
// CHECK: loss [[LOSS:[0-9.]+]] (jax [[LOSS]]); max difference {{[0-9.]+e[-+][0-9]+}}
//
// The backward: each gradient cast back to float32.
// RUN: dist-opt %s --dist-append-backward | FileCheck %s --check-prefix=BACKWARD
// BACKWARD: dist.cast %{{.*}} : (tensor<8x8xbf16>) -> tensor<8x8xf32>
// BACKWARD: dist.cast %{{.*}} : (tensor<4x8xbf16>) -> tensor<4x8xf32>
func.func @step(%x: tensor<4x8xf32> {dist.requires_grad}, %w: tensor<8x8xf32> {dist.requires_grad}) -> tensor<f32> {
  %xb = "dist.cast"(%x) : (tensor<4x8xf32>) -> tensor<4x8xbf16>
  %wb = dist.cast %w : (tensor<8x8xf32>) -> tensor<8x8xbf16>
  %y = dist.matmul %xb, %wb : (tensor<4x8xbf16>, tensor<8x8xbf16>) -> tensor<4x8xbf16>
  %z = dist.mul %y, %y : (tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<4x8xbf16>
  %zf = dist.cast %z : (tensor<4x8xbf16>) -> tensor<4x8xf32>
  %l = dist.reduce_sum %zf {dims = array<i64: 0, 1>} : (tensor<4x8xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
