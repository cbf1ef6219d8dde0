// An op without a sharding: dist-partition needs propagation first.
dist.mesh @mesh = <["tp"=4]>
func.func @not_propagated(%x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>}) -> tensor<8x16xf32> {
  // dist-partition: this value has no sharding.
  %y = dist.gelu %x : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}
