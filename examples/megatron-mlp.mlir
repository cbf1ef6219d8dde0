// A Megatron-style MLP training step on a 2 x 2 mesh (data x tensor
// parallel), in the global view: the first matmul is column-parallel, the
// second row-parallel, the loss is a mean squared error. Only parameters and
// inputs are annotated and no collective is written: dist-propagate-sharding
// finds which values are partial and dist-resolve-partial places the
// reductions (the row-parallel output over tp, the gradients over dp).
dist.mesh @mesh = <["dp"=2, "tp"=2]>

func.func @step(
    %x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>},
    %target: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>},
    %w1: tensor<16x64xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
    %b1: tensor<64xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp"}]>},
    %w2: tensor<64x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>},
    %dloss: tensor<f32>)
    -> (tensor<f32>,
        tensor<16x64xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
        tensor<64xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp"}]>},
        tensor<64x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>}) {
  // Forward.
  %h = dist.matmul %x, %w1 : (tensor<8x16xf32>, tensor<16x64xf32>) -> tensor<8x64xf32>
  %hb = dist.add %h, %b1 : (tensor<8x64xf32>, tensor<64xf32>) -> tensor<8x64xf32>
  %a = dist.gelu %hb {approximate = "tanh"} : (tensor<8x64xf32>) -> tensor<8x64xf32>
  %y = dist.matmul %a, %w2 : (tensor<8x64xf32>, tensor<64x16xf32>) -> tensor<8x16xf32>
  %diff = dist.sub %y, %target : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %sq = dist.mul %diff, %diff : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %loss = dist.reduce_mean %sq {dims = array<i64: 0, 1>} : (tensor<8x16xf32>) -> tensor<f32>

  // Backward.
  %dsq = dist.reduce_mean_grad %sq, %dloss {dims = array<i64: 0, 1>} : (tensor<8x16xf32>, tensor<f32>) -> tensor<8x16xf32>
  %dd1, %dd2 = dist.mul_grad %diff, %diff, %dsq
      : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
  %ddiff = dist.add %dd1, %dd2 : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %dy, %dtarget = dist.sub_grad %y, %target, %ddiff
      : (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
  %da, %dw2 = dist.matmul_grad %a, %w2, %dy
      : (tensor<8x64xf32>, tensor<64x16xf32>, tensor<8x16xf32>) -> (tensor<8x64xf32>, tensor<64x16xf32>)
  %dhb = dist.gelu_grad %hb, %da {approximate = "tanh"} : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
  %dh, %db1 = dist.add_grad %h, %b1, %dhb
      : (tensor<8x64xf32>, tensor<64xf32>, tensor<8x64xf32>) -> (tensor<8x64xf32>, tensor<64xf32>)
  %dx, %dw1 = dist.matmul_grad %x, %w1, %dh
      : (tensor<8x16xf32>, tensor<16x64xf32>, tensor<8x64xf32>) -> (tensor<8x16xf32>, tensor<16x64xf32>)
  return %loss, %dw1, %db1, %dw2 : tensor<f32>, tensor<16x64xf32>, tensor<64xf32>, tensor<64x16xf32>
}
