// A cross-entropy loss on logits split over the vocabulary (tp) and the
// positions (dp).
dist.mesh @mesh = <["dp"=2, "tp"=2]>
func.func @loss(%logits: tensor<4x8x64xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}, {"tp"}]>},
                %labels: tensor<4x8xi64> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>}) -> tensor<f32> {
  %l = dist.cross_entropy %logits, %labels : (tensor<4x8x64xf32>, tensor<4x8xi64>) -> tensor<f32>
  return %l : tensor<f32>
}
