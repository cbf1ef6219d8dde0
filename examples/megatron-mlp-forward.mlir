// The Megatron-style MLP of megatron-mlp.mlir written as its forward pass
// and loss only: the parameters ask for their gradients with
// dist.requires_grad, and dist-append-backward writes the backward (the
// same gradient ops as the hand-written step), so the program becomes that
// training step. Run it with `dist-run ... --grad`, or see the backward with
// `dist-opt examples/megatron-mlp-forward.mlir --dist-append-backward`.
dist.mesh @mesh = <["dp"=2, "tp"=2]>

func.func @step(
    %x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>},
    %target: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>},
    %w1: tensor<16x64xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
    %b1: tensor<64xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{"tp"}]>},
    %w2: tensor<64x16xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>})
    -> tensor<f32> {
  %h = dist.matmul %x, %w1 : (tensor<8x16xf32>, tensor<16x64xf32>) -> tensor<8x64xf32>
  %hb = dist.add %h, %b1 : (tensor<8x64xf32>, tensor<64xf32>) -> tensor<8x64xf32>
  %a = dist.gelu %hb {approximate = "tanh"} : (tensor<8x64xf32>) -> tensor<8x64xf32>
  %y = dist.matmul %a, %w2 : (tensor<8x64xf32>, tensor<64x16xf32>) -> tensor<8x16xf32>
  %diff = dist.sub %y, %target : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %sq = dist.mul %diff, %diff : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %loss = dist.reduce_mean %sq {dims = array<i64: 0, 1>} : (tensor<8x16xf32>) -> tensor<f32>
  return %loss : tensor<f32>
}
