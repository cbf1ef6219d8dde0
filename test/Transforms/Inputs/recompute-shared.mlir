// Two residual blocks that share a constant offset and a function that
// returns a value beside the loss (append-backward-recompute.mlir).
func.func @shared(%x: tensor<8x8xf32>, %w1: tensor<8x8xf32> {dist.requires_grad},
                  %w2: tensor<8x8xf32> {dist.requires_grad}) -> (tensor<f32>, tensor<8x8xf32>) {
  %first = arith.constant 0 : index
  %x0 = dist.scale %x {factor = 2.0 : f64} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %h1 = dist.matmul %x0, %w1 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %m1 = dist.causal_mask %h1, %first, %first : (tensor<8x8xf32>, index, index) -> tensor<8x8xf32>
  %x1 = dist.add %x0, %m1 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %h2 = dist.matmul %x1, %w2 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %m2 = dist.causal_mask %h2, %first, %first : (tensor<8x8xf32>, index, index) -> tensor<8x8xf32>
  %x2 = dist.add %x1, %m2 : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %l = dist.reduce_mean %x2 {dims = array<i64: 0, 1>} : (tensor<8x8xf32>) -> tensor<f32>
  return %l, %x2 : tensor<f32>, tensor<8x8xf32>
}
