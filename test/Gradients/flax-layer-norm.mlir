// Flax's fast-variance layer norm as --convert-stablehlo-to-dist imports it:
// mean(h^2) - mean(h)^2, clamped at 0 by a maximum with a constant, then
// rsqrt. Its gradient was 100-400x off (the same accumulating generic, in
// m * m of a mean and in the divisions by the count).
// RUN: dist-fuzz --grad-check %s --out %t | FileCheck %s
// CHECK-COUNT-5: match
// CHECK-NOT: wrong
func.func @f(%h: tensor<16x64xf32> {dist.requires_grad}, %t: tensor<16x64xf32>) -> tensor<f32> {
  %3 = dist.mul %h, %h : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  %4 = dist.reduce_sum %h {dims = array<i64: 1>} : (tensor<16x64xf32>) -> tensor<16xf32>
  %cst = arith.constant dense<6.400000e+01> : tensor<f32>
  %5 = dist.div %4, %cst : (tensor<16xf32>, tensor<f32>) -> tensor<16xf32>
  %6 = dist.reduce_sum %3 {dims = array<i64: 1>} : (tensor<16x64xf32>) -> tensor<16xf32>
  %7 = dist.div %6, %cst : (tensor<16xf32>, tensor<f32>) -> tensor<16xf32>
  %8 = dist.mul %5, %5 : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %9 = dist.sub %7, %8 : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %cst_1 = arith.constant dense<0.000000e+00> : tensor<f32>
  %10 = dist.maximum %cst_1, %9 : (tensor<f32>, tensor<16xf32>) -> tensor<16xf32>
  %11 = dist.reshape %5 : (tensor<16xf32>) -> tensor<16x1xf32>
  %12 = dist.reshape %10 : (tensor<16xf32>) -> tensor<16x1xf32>
  %13 = dist.sub %h, %11 : (tensor<16x64xf32>, tensor<16x1xf32>) -> tensor<16x64xf32>
  %cst_2 = arith.constant dense<9.99999997E-7> : tensor<f32>
  %14 = dist.add %12, %cst_2 : (tensor<16x1xf32>, tensor<f32>) -> tensor<16x1xf32>
  %15 = dist.rsqrt %14 : (tensor<16x1xf32>) -> tensor<16x1xf32>
  %18 = dist.mul %13, %15 : (tensor<16x64xf32>, tensor<16x1xf32>) -> tensor<16x64xf32>
  %p = dist.mul %18, %t : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  %l = dist.reduce_mean %p {dims = array<i64: 0, 1>} : (tensor<16x64xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
