// maximum(v, v) of a row maximum: the tie between the operands splits
// dout in halves, which add up (the second half was summed once per
// element again, 1.63 in all instead of 1).
// RUN: dist-fuzz --grad-check %s --out %t | FileCheck %s
// CHECK-COUNT-5: match
// CHECK-NOT: wrong
func.func @f(%x0: tensor<3x4x5xf32> {dist.requires_grad}) -> tensor<f32> {
  %v5 = dist.reduce_max %x0 {dims = array<i64: 1>} : (tensor<3x4x5xf32>) -> tensor<3x5xf32>
  %v7 = dist.maximum %v5, %v5 : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  %loss = dist.reduce_mean %v7 {dims = array<i64: 0, 1>} : (tensor<3x5xf32>) -> tensor<f32>
  return %loss : tensor<f32>
}
