// RUN: dist-opt %s --dist-auto-parallel="devices=8 dp=2 tp=2" --verify-diagnostics -o /dev/null
// The axes an option fixes must make up the devices.

// expected-error@+1 {{dist-auto-parallel: dp=2 x tp=2 is not devices=8}}
func.func @step(%x: tensor<8x4xf32> {dist.batch_dim = 0 : i64}, %w: tensor<4x4xf32> {dist.requires_grad}) -> tensor<f32> {
  %y = dist.matmul %x, %w : (tensor<8x4xf32>, tensor<4x4xf32>) -> tensor<8x4xf32>
  %l = dist.reduce_sum %y {dims = array<i64: 0, 1>} : (tensor<8x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
