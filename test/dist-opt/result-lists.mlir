// The parse entry's scan for uses before definitions (ParseGuards.cpp) reads
// every name of a result list as a definition: the middle of
// `%dx_0, %dscale, %dbias = ...` is one, so a later function may define
// %dscale again (it took that for a use, then refused the definition).
// RUN: dist-opt %s | FileCheck %s
func.func @norm(%x: tensor<2x4xf32>, %g: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<2xf32> {
  %y, %mean, %rstd = dist.layer_norm %x, %g, %b {begin_norm_axis = 1 : i64}
      : (tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<2x4xf32>, tensor<2xf32>, tensor<2xf32>)
  return %mean : tensor<2xf32>
}
func.func @again(%x: tensor<2xf32>) -> tensor<2xf32> {
  %mean = dist.relu %x : (tensor<2xf32>) -> tensor<2xf32>
  return %mean : tensor<2xf32>
}
// CHECK-LABEL: func.func @norm
// CHECK-LABEL: func.func @again
