// A forward program whose first result is no loss (dist-run --grad refuses it).
func.func @f(%x: tensor<8xf32> {dist.requires_grad}) -> tensor<8xf32> {
  %y = dist.relu %x : (tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}
