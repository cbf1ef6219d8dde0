// A per-device program: its all_gather makes the group's tensor.
dist.mesh @mesh = <["tp"=4]>
func.func @f(%x: tensor<8x4xf32>) -> tensor<8x16xf32> {
  // The gather of the four devices' slices.
  %r = dist.all_gather %x on @mesh axes = ["tp"] dim = 1 : tensor<8x4xf32> -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}
