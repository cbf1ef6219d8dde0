// REQUIRES: ptxas
// A router's top-k and its gradient compile for the GPU: the ranks of a
// row's entries, the picks, the gathered values and the gradient's scatter
// are one kernel each, and each assembles with no spilled register.
// RUN: dist-opt %s --dist-lower-to-gpu --emit=ptx -o %t.ptx
// RUN: %python %S/Inputs/ptxas_each.py %ptxas sm_90 %t.ptx | FileCheck %s
// CHECK: ptxas assembled 4 of 4 kernels for sm_90, 0 spilling registers
func.func @route(%x: tensor<64x8xf32>, %d: tensor<64x2xf32>) -> (tensor<64x2xf32>, tensor<64x2xi64>, tensor<64x8xf32>) {
  %v, %i = dist.top_k %x {k = 2 : i64} : (tensor<64x8xf32>) -> (tensor<64x2xf32>, tensor<64x2xi64>)
  %dx = dist.top_k_grad %i, %d : (tensor<64x2xi64>, tensor<64x2xf32>) -> tensor<64x8xf32>
  return %v, %i, %dx : tensor<64x2xf32>, tensor<64x2xi64>, tensor<64x8xf32>
}
