// A forward program without residual blocks: recompute finds no
// checkpoint and says so (append-backward-recompute.mlir).
// expected-remark@+1 {{recompute: no segment of the forward has values to recompute (no residual blocks found), so the backward reads the forward's values}}
func.func @flat(%x: tensor<8x8xf32>, %w: tensor<8x8xf32> {dist.requires_grad}) -> tensor<f32> {
  %h = dist.matmul %x, %w : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %l = dist.reduce_mean %h {dims = array<i64: 0, 1>} : (tensor<8x8xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
