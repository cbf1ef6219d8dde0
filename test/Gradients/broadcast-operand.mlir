// A binary op's second operand, read through a broadcast after a
// reduction: d/dh mean_i((t_i + mean_j h_ij) * u_i) = u_i / (16 * 64) in
// every column. Its gradient was a parallel generic that read its output
// as an accumulator; elementwise fusion into the broadcasting consumer
// kept that output and added into it once per column (j + 1 times the
// gradient in column j). Every lowering mode against the float64
// reference.
// RUN: dist-fuzz --grad-check %s --out %t | FileCheck %s
// CHECK:      -n 1 -O2: match
// CHECK-NEXT: -n 1 -O2 --no-outline-layers: match
// CHECK-NEXT: -n 1 -O3: match
// CHECK-NEXT: -n 1 -O3 --no-outline-layers: match
// CHECK-NEXT: -n 1 -O2 --recompute: match
func.func @f(%h: tensor<16x64xf32> {dist.requires_grad}, %t: tensor<16xf32>, %u: tensor<16xf32>) -> tensor<f32> {
  %r = dist.reduce_mean %h {dims = array<i64: 1>} : (tensor<16x64xf32>) -> tensor<16xf32>
  %s = dist.add %t, %r : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %p = dist.mul %s, %u : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %l = dist.reduce_mean %p {dims = array<i64: 0>} : (tensor<16xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
