// Causal attention probabilities with the query dim split over sp
// (@queries) or the key dim (@keys), and a loss of them whose gradient
// reaches the scores through causal_mask_grad (@loss).
dist.mesh @mesh = <["dp"=2, "sp"=2]>
func.func @queries(%s: tensor<2x8x8xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {"sp"}, {}]>}) -> tensor<2x8x8xf32> {
  %m = dist.causal_mask %s : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %p = dist.softmax %m {axis = 2 : i64} : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  return %p : tensor<2x8x8xf32>
}
func.func @keys(%s: tensor<2x8x8xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}, {"sp"}]>}) -> tensor<2x8x8xf32> {
  %m = dist.causal_mask %s : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %e = dist.exp %m : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  return %e : tensor<2x8x8xf32>
}
func.func @loss(%s: tensor<2x8x8xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{"dp"}, {"sp"}, {}]>},
                %w: tensor<2x8x8xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {"sp"}, {}]>}) -> tensor<f32> {
  %m = dist.causal_mask %s : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %p = dist.softmax %m {axis = 2 : i64} : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %q = dist.mul %p, %w : (tensor<2x8x8xf32>, tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %l = dist.reduce_sum %q {dims = array<i64: 0, 1, 2>} : (tensor<2x8x8xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
// A chunk of queries after a cached prefix (@chunk): the program gives the
// first query's position (8) and the first key's (0); the split query dim
// adds each device's first row to the given offset.
func.func @chunk(%s: tensor<2x8x16xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{"dp"}, {"sp"}, {}]>},
                 %w: tensor<2x8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {"sp"}, {}]>}) -> tensor<f32> {
  %q0 = arith.constant 8 : index
  %k0 = arith.constant 0 : index
  %m = dist.causal_mask %s, %q0, %k0 : (tensor<2x8x16xf32>, index, index) -> tensor<2x8x16xf32>
  %p = dist.softmax %m {axis = 2 : i64} : (tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %q = dist.mul %p, %w : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %l = dist.reduce_sum %q {dims = array<i64: 0, 1, 2>} : (tensor<2x8x16xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
