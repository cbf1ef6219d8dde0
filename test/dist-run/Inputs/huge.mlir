// A 4 TiB intermediate from two 4 MiB inputs.
func.func @f(%x: tensor<1048576x1xf32>, %w: tensor<1x1048576xf32>) -> tensor<f32> {
  %y = dist.matmul %x, %w : (tensor<1048576x1xf32>, tensor<1x1048576xf32>) -> tensor<1048576x1048576xf32>
  %s = dist.reduce_sum %y {dims = array<i64: 0, 1>} : (tensor<1048576x1048576xf32>) -> tensor<f32>
  return %s : tensor<f32>
}
