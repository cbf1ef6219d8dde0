// Programs for element-types.mlir: element types dist-run neither feeds nor
// writes, and an f32 argument.
func.func @half(%x: tensor<4xf16>) -> tensor<4xf16> {
  return %x : tensor<4xf16>
}

func.func @narrow(%x: tensor<4xf64>) -> tensor<4xf16> {
  %h = dist.cast %x : (tensor<4xf64>) -> tensor<4xf16>
  return %h : tensor<4xf16>
}

func.func @single(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
