// REQUIRES: ptxas
// The optimizer steps compile to PTX kernels that ptxas assembles: AdamW's
// two moment kernels and its update (with the bias corrections' powers and
// a square root), SGD's update, and with momentum its buffer and update
// (the update's kernel is plain SGD's, deduplicated).
// RUN: dist-opt %s --dist-lower-to-gpu --emit=ptx -o %t.ptx
// RUN: FileCheck %s --input-file=%t.ptx
// RUN: FileCheck %s --input-file=%t.ptx --check-prefix=UPDATE
// RUN: %python %S/Inputs/ptxas_each.py %ptxas sm_90 %t.ptx | FileCheck %s --check-prefix=PTXAS
// PTXAS: ptxas assembled 5 of 5 kernels for sm_90, 0 spilling registers

// CHECK-COUNT-5: .visible .entry
// CHECK-NOT: .visible .entry
func.func @optimizers(%p: tensor<16x64xf32>, %g: tensor<16x64xf32>, %m: tensor<16x64xf32>, %v: tensor<16x64xf32>,
                      %t: tensor<f32>, %b: tensor<16x64xf32>)
    -> (tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>) {
  %p1, %m1, %v1 = dist.adamw %p, %g, %m, %v, %t {lr = 1.0e-3 : f64, beta1 = 0.9 : f64, beta2 = 0.999 : f64, epsilon = 1.0e-8 : f64, weight_decay = 0.01 : f64}
      : (tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>, tensor<f32>) -> (tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>)
  %p2 = dist.sgd %p, %g {lr = 1.0e-2 : f64} : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  %p3, %b1 = dist.sgd %p, %g, %b {lr = 1.0e-2 : f64, momentum = 0.9 : f64}
      : (tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>) -> (tensor<16x64xf32>, tensor<16x64xf32>)
  return %p1, %m1, %v1, %p2, %p3, %b1
      : tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>
}
// The update takes a square root; the powers of the betas are expanded
// inline (no libdevice call is left).
// UPDATE-NOT: .extern
// UPDATE: sqrt.{{[a-z]+}}.f32
// UPDATE-NOT: .extern
