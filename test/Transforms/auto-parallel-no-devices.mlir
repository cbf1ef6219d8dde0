// RUN: dist-opt %s --dist-auto-parallel --verify-diagnostics -o /dev/null
// Without devices=N there is no space to search.

// expected-error@+1 {{dist-auto-parallel needs devices=N, the devices to lay the step out on}}
func.func @step(%x: tensor<8x4xf32> {dist.batch_dim = 0 : i64}, %w: tensor<4x4xf32> {dist.requires_grad}) -> tensor<f32> {
  %y = dist.matmul %x, %w : (tensor<8x4xf32>, tensor<4x4xf32>) -> tensor<8x4xf32>
  %l = dist.reduce_sum %y {dims = array<i64: 0, 1>} : (tensor<8x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
