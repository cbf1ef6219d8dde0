// Hand-written collectives of the global view, async and sync: the result
// of the -n 1 reference (where each is the identity) and of the 2 x 2 mesh
// agree.
dist.mesh @mesh = <["dp"=2, "tp"=2]>
func.func @f(%x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>},
             %w: tensor<16x32xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>})
    -> (tensor<8x32xf32>, tensor<8x32xf32>) {
  %y = dist.matmul %x, %w {dist.sharding = [#dist.sharding<@mesh, [{"dp"}, {}], partial = sum{"tp"}>]}
      : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %h = dist.all_reduce_start %y on @mesh axes = ["tp"] kind = sum : tensor<8x32xf32> -> !dist.handle<tensor<8x32xf32>>
  %r = dist.wait %h : !dist.handle<tensor<8x32xf32>> -> tensor<8x32xf32>
  %s = dist.scale %r {factor = 3.0 : f64} : (tensor<8x32xf32>) -> tensor<8x32xf32>
  %g = dist.all_gather %s on @mesh axes = ["dp"] dim = 0 : tensor<8x32xf32> -> tensor<8x32xf32>
  return %r, %g : tensor<8x32xf32>, tensor<8x32xf32>
}
