// A 2 GiB intermediate: it fits any machine that runs the suite, not a
// process limited to 1 GB of address space.
func.func @f(%x: tensor<16384x1xf32>, %w: tensor<1x32768xf32>) -> tensor<f32> {
  %y = dist.matmul %x, %w : (tensor<16384x1xf32>, tensor<1x32768xf32>) -> tensor<16384x32768xf32>
  %s = dist.reduce_sum %y {dims = array<i64: 0, 1>} : (tensor<16384x32768xf32>) -> tensor<f32>
  return %s : tensor<f32>
}
