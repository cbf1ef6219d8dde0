// dist.attention against the attention it fuses (matmul, scale, mask,
// softmax, matmul), forward and gradient: test/dist-run/attention.mlir.
dist.mesh @sp4 = <["sp"=4]>
dist.mesh @mesh = <["dp"=2, "sp"=2]>
// Causal, k and v shared by 2 query heads; 3 blocks of 64 each way.
func.func @causal(%q: tensor<1x2x2x192x8xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@sp4, [{}, {}, {}, {"sp"}, {}]>},
    %k: tensor<1x2x1x192x8xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@sp4, [{}, {}, {}, {"sp"}, {}]>},
    %v: tensor<1x2x1x192x8xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@sp4, [{}, {}, {}, {"sp"}, {}]>},
    %w: tensor<1x2x2x192x8xf32> {dist.sharding = #dist.sharding<@sp4, [{}, {}, {}, {"sp"}, {}]>}) -> tensor<f32> {
  %o, %lse = dist.attention %q, %k, %v {causal, scale = 0.35355339059327373 : f64} : (tensor<1x2x2x192x8xf32>, tensor<1x2x1x192x8xf32>, tensor<1x2x1x192x8xf32>) -> (tensor<1x2x2x192x8xf32>, tensor<1x2x2x192xf32>)
  %x = dist.mul %o, %w : (tensor<1x2x2x192x8xf32>, tensor<1x2x2x192x8xf32>) -> tensor<1x2x2x192x8xf32>
  %l = dist.reduce_sum %x {dims = array<i64: 0, 1, 2, 3, 4>} : (tensor<1x2x2x192x8xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
func.func @causal_ref(%q: tensor<1x2x2x192x8xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@sp4, [{}, {}, {}, {"sp"}, {}]>},
    %k: tensor<1x2x1x192x8xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@sp4, [{}, {}, {}, {"sp"}, {}]>},
    %v: tensor<1x2x1x192x8xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@sp4, [{}, {}, {}, {"sp"}, {}]>},
    %w: tensor<1x2x2x192x8xf32> {dist.sharding = #dist.sharding<@sp4, [{}, {}, {}, {"sp"}, {}]>}) -> tensor<f32> {
  %s = dist.matmul %q, %k {transpose_y} : (tensor<1x2x2x192x8xf32>, tensor<1x2x1x192x8xf32>) -> tensor<1x2x2x192x192xf32>
  %t = dist.scale %s {factor = 0.35355339059327373 : f64} : (tensor<1x2x2x192x192xf32>) -> tensor<1x2x2x192x192xf32>
  %m = dist.causal_mask %t : (tensor<1x2x2x192x192xf32>) -> tensor<1x2x2x192x192xf32>
  %p = dist.softmax %m {axis = 4 : i64} : (tensor<1x2x2x192x192xf32>) -> tensor<1x2x2x192x192xf32>
  %o = dist.matmul %p, %v : (tensor<1x2x2x192x192xf32>, tensor<1x2x1x192x8xf32>) -> tensor<1x2x2x192x8xf32>
  %x = dist.mul %o, %w : (tensor<1x2x2x192x8xf32>, tensor<1x2x2x192x8xf32>) -> tensor<1x2x2x192x8xf32>
  %l = dist.reduce_sum %x {dims = array<i64: 0, 1, 2, 3, 4>} : (tensor<1x2x2x192x8xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
// The causal case in bf16 (the log-sum-exp in f32) and in f64.
func.func @causal_bf16(%q: tensor<1x2x2x192x8xbf16> {dist.requires_grad, dist.sharding = #dist.sharding<@sp4, [{}, {}, {}, {"sp"}, {}]>},
    %k: tensor<1x2x1x192x8xbf16> {dist.requires_grad, dist.sharding = #dist.sharding<@sp4, [{}, {}, {}, {"sp"}, {}]>},
    %v: tensor<1x2x1x192x8xbf16> {dist.requires_grad, dist.sharding = #dist.sharding<@sp4, [{}, {}, {}, {"sp"}, {}]>},
    %w: tensor<1x2x2x192x8xbf16> {dist.sharding = #dist.sharding<@sp4, [{}, {}, {}, {"sp"}, {}]>}) -> tensor<bf16> {
  %o, %lse = dist.attention %q, %k, %v {causal, scale = 0.35355339059327373 : f64} : (tensor<1x2x2x192x8xbf16>, tensor<1x2x1x192x8xbf16>, tensor<1x2x1x192x8xbf16>) -> (tensor<1x2x2x192x8xbf16>, tensor<1x2x2x192xf32>)
  %x = dist.mul %o, %w : (tensor<1x2x2x192x8xbf16>, tensor<1x2x2x192x8xbf16>) -> tensor<1x2x2x192x8xbf16>
  %l = dist.reduce_sum %x {dims = array<i64: 0, 1, 2, 3, 4>} : (tensor<1x2x2x192x8xbf16>) -> tensor<bf16>
  return %l : tensor<bf16>
}
func.func @causal_f64(%q: tensor<1x2x2x192x8xf64> {dist.requires_grad, dist.sharding = #dist.sharding<@sp4, [{}, {}, {}, {"sp"}, {}]>},
    %k: tensor<1x2x1x192x8xf64> {dist.requires_grad, dist.sharding = #dist.sharding<@sp4, [{}, {}, {}, {"sp"}, {}]>},
    %v: tensor<1x2x1x192x8xf64> {dist.requires_grad, dist.sharding = #dist.sharding<@sp4, [{}, {}, {}, {"sp"}, {}]>},
    %w: tensor<1x2x2x192x8xf64> {dist.sharding = #dist.sharding<@sp4, [{}, {}, {}, {"sp"}, {}]>}) -> tensor<f64> {
  %o, %lse = dist.attention %q, %k, %v {causal, scale = 0.35355339059327373 : f64} : (tensor<1x2x2x192x8xf64>, tensor<1x2x1x192x8xf64>, tensor<1x2x1x192x8xf64>) -> (tensor<1x2x2x192x8xf64>, tensor<1x2x2x192xf64>)
  %x = dist.mul %o, %w : (tensor<1x2x2x192x8xf64>, tensor<1x2x2x192x8xf64>) -> tensor<1x2x2x192x8xf64>
  %l = dist.reduce_sum %x {dims = array<i64: 0, 1, 2, 3, 4>} : (tensor<1x2x2x192x8xf64>) -> tensor<f64>
  return %l : tensor<f64>
}
func.func @causal_ref_f64(%q: tensor<1x2x2x192x8xf64> {dist.requires_grad, dist.sharding = #dist.sharding<@sp4, [{}, {}, {}, {"sp"}, {}]>},
    %k: tensor<1x2x1x192x8xf64> {dist.requires_grad, dist.sharding = #dist.sharding<@sp4, [{}, {}, {}, {"sp"}, {}]>},
    %v: tensor<1x2x1x192x8xf64> {dist.requires_grad, dist.sharding = #dist.sharding<@sp4, [{}, {}, {}, {"sp"}, {}]>},
    %w: tensor<1x2x2x192x8xf64> {dist.sharding = #dist.sharding<@sp4, [{}, {}, {}, {"sp"}, {}]>}) -> tensor<f64> {
  %s = dist.matmul %q, %k {transpose_y} : (tensor<1x2x2x192x8xf64>, tensor<1x2x1x192x8xf64>) -> tensor<1x2x2x192x192xf64>
  %t = dist.scale %s {factor = 0.35355339059327373 : f64} : (tensor<1x2x2x192x192xf64>) -> tensor<1x2x2x192x192xf64>
  %m = dist.causal_mask %t : (tensor<1x2x2x192x192xf64>) -> tensor<1x2x2x192x192xf64>
  %p = dist.softmax %m {axis = 4 : i64} : (tensor<1x2x2x192x192xf64>) -> tensor<1x2x2x192x192xf64>
  %o = dist.matmul %p, %v : (tensor<1x2x2x192x192xf64>, tensor<1x2x1x192x8xf64>) -> tensor<1x2x2x192x8xf64>
  %x = dist.mul %o, %w : (tensor<1x2x2x192x8xf64>, tensor<1x2x2x192x8xf64>) -> tensor<1x2x2x192x8xf64>
  %l = dist.reduce_sum %x {dims = array<i64: 0, 1, 2, 3, 4>} : (tensor<1x2x2x192x8xf64>) -> tensor<f64>
  return %l : tensor<f64>
}
// In the balanced order for 2 shards (chunks of 24): the reference masks by
// the positions.
func.func @balanced(%q: tensor<2x1x3x96x8xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}, {}, {"sp"}, {}]>},
    %k: tensor<2x1x1x96x8xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}, {}, {"sp"}, {}]>},
    %v: tensor<2x1x1x96x8xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}, {}, {"sp"}, {}]>},
    %w: tensor<2x1x3x96x8xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}, {}, {"sp"}, {}]>},
    %positions: tensor<96xi64> {dist.sharding = #dist.sharding<@mesh, [{"sp"}]>}) -> tensor<f32> {
  %o, %lse = dist.attention %q, %k, %v {balance = 2 : i64, causal, scale = 0.35355339059327373 : f64} : (tensor<2x1x3x96x8xf32>, tensor<2x1x1x96x8xf32>, tensor<2x1x1x96x8xf32>) -> (tensor<2x1x3x96x8xf32>, tensor<2x1x3x96xf32>)
  %x = dist.mul %o, %w : (tensor<2x1x3x96x8xf32>, tensor<2x1x3x96x8xf32>) -> tensor<2x1x3x96x8xf32>
  %l = dist.reduce_sum %x {dims = array<i64: 0, 1, 2, 3, 4>} : (tensor<2x1x3x96x8xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
func.func @balanced_ref(%q: tensor<2x1x3x96x8xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}, {}, {"sp"}, {}]>},
    %k: tensor<2x1x1x96x8xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}, {}, {"sp"}, {}]>},
    %v: tensor<2x1x1x96x8xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}, {}, {"sp"}, {}]>},
    %w: tensor<2x1x3x96x8xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}, {}, {"sp"}, {}]>},
    %positions: tensor<96xi64> {dist.sharding = #dist.sharding<@mesh, [{"sp"}]>}) -> tensor<f32> {
  %s = dist.matmul %q, %k {transpose_y} : (tensor<2x1x3x96x8xf32>, tensor<2x1x1x96x8xf32>) -> tensor<2x1x3x96x96xf32>
  %t = dist.scale %s {factor = 0.35355339059327373 : f64} : (tensor<2x1x3x96x96xf32>) -> tensor<2x1x3x96x96xf32>
  %rows = dist.reshape %positions : (tensor<96xi64>) -> tensor<96x1xi64>
  %seen = dist.compare %positions, %rows {direction = "le"} : (tensor<96xi64>, tensor<96x1xi64>) -> tensor<96x96xi1>
  %ninf = arith.constant dense<0xFF800000> : tensor<f32>
  %m = dist.select %seen, %t, %ninf : (tensor<96x96xi1>, tensor<2x1x3x96x96xf32>, tensor<f32>) -> tensor<2x1x3x96x96xf32>
  %p = dist.softmax %m {axis = 4 : i64} : (tensor<2x1x3x96x96xf32>) -> tensor<2x1x3x96x96xf32>
  %o = dist.matmul %p, %v : (tensor<2x1x3x96x96xf32>, tensor<2x1x1x96x8xf32>) -> tensor<2x1x3x96x8xf32>
  %x = dist.mul %o, %w : (tensor<2x1x3x96x8xf32>, tensor<2x1x3x96x8xf32>) -> tensor<2x1x3x96x8xf32>
  %l = dist.reduce_sum %x {dims = array<i64: 0, 1, 2, 3, 4>} : (tensor<2x1x3x96x8xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
// Not causal: 40 queries of 72 keys, values of 4 features.
func.func @cross(%q: tensor<2x2x40x8xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}, {"sp"}, {}]>},
    %k: tensor<2x2x72x8xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}, {}, {}]>},
    %v: tensor<2x2x72x4xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}, {}, {}]>},
    %w: tensor<2x2x40x4xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}, {"sp"}, {}]>}) -> tensor<f32> {
  %o, %lse = dist.attention %q, %k, %v {scale = 0.35355339059327373 : f64} : (tensor<2x2x40x8xf32>, tensor<2x2x72x8xf32>, tensor<2x2x72x4xf32>) -> (tensor<2x2x40x4xf32>, tensor<2x2x40xf32>)
  %x = dist.mul %o, %w : (tensor<2x2x40x4xf32>, tensor<2x2x40x4xf32>) -> tensor<2x2x40x4xf32>
  %l = dist.reduce_sum %x {dims = array<i64: 0, 1, 2, 3>} : (tensor<2x2x40x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
func.func @cross_ref(%q: tensor<2x2x40x8xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}, {"sp"}, {}]>},
    %k: tensor<2x2x72x8xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}, {}, {}]>},
    %v: tensor<2x2x72x4xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}, {}, {}]>},
    %w: tensor<2x2x40x4xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}, {"sp"}, {}]>}) -> tensor<f32> {
  %s = dist.matmul %q, %k {transpose_y} : (tensor<2x2x40x8xf32>, tensor<2x2x72x8xf32>) -> tensor<2x2x40x72xf32>
  %t = dist.scale %s {factor = 0.35355339059327373 : f64} : (tensor<2x2x40x72xf32>) -> tensor<2x2x40x72xf32>
  %p = dist.softmax %t {axis = 3 : i64} : (tensor<2x2x40x72xf32>) -> tensor<2x2x40x72xf32>
  %o = dist.matmul %p, %v : (tensor<2x2x40x72xf32>, tensor<2x2x72x4xf32>) -> tensor<2x2x40x4xf32>
  %x = dist.mul %o, %w : (tensor<2x2x40x4xf32>, tensor<2x2x40x4xf32>) -> tensor<2x2x40x4xf32>
  %l = dist.reduce_sum %x {dims = array<i64: 0, 1, 2, 3>} : (tensor<2x2x40x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
// Queries from a given offset (stored indices 3 to 8 of 24 keys in the
// balanced order of 3 shards, chunks of 4): the query blocks run into the
// next chunk. The reference masks by the positions of those indices.
func.func @offset(%q: tensor<2x6x4xf32> {dist.requires_grad}, %k: tensor<2x24x4xf32> {dist.requires_grad},
    %v: tensor<2x24x4xf32> {dist.requires_grad}, %w: tensor<2x6x4xf32>, %positions: tensor<24xi64>) -> tensor<f32> {
  %first = arith.constant 3 : index
  %o, %lse = dist.attention %q, %k, %v, %first {balance = 3 : i64, causal, scale = 0.5 : f64} : (tensor<2x6x4xf32>, tensor<2x24x4xf32>, tensor<2x24x4xf32>, index) -> (tensor<2x6x4xf32>, tensor<2x6xf32>)
  %x = dist.mul %o, %w : (tensor<2x6x4xf32>, tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  %l = dist.reduce_sum %x {dims = array<i64: 0, 1, 2>} : (tensor<2x6x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
func.func @offset_ref(%q: tensor<2x6x4xf32> {dist.requires_grad}, %k: tensor<2x24x4xf32> {dist.requires_grad},
    %v: tensor<2x24x4xf32> {dist.requires_grad}, %w: tensor<2x6x4xf32>, %positions: tensor<24xi64>) -> tensor<f32> {
  %s = dist.matmul %q, %k {transpose_y} : (tensor<2x6x4xf32>, tensor<2x24x4xf32>) -> tensor<2x6x24xf32>
  %t = dist.scale %s {factor = 0.5 : f64} : (tensor<2x6x24xf32>) -> tensor<2x6x24xf32>
  %queries = dist.slice %positions {offsets = array<i64: 3>, sizes = array<i64: 6>} : (tensor<24xi64>) -> tensor<6xi64>
  %rows = dist.reshape %queries : (tensor<6xi64>) -> tensor<6x1xi64>
  %seen = dist.compare %positions, %rows {direction = "le"} : (tensor<24xi64>, tensor<6x1xi64>) -> tensor<6x24xi1>
  %ninf = arith.constant dense<0xFF800000> : tensor<f32>
  %m = dist.select %seen, %t, %ninf : (tensor<6x24xi1>, tensor<2x6x24xf32>, tensor<f32>) -> tensor<2x6x24xf32>
  %p = dist.softmax %m {axis = 2 : i64} : (tensor<2x6x24xf32>) -> tensor<2x6x24xf32>
  %o = dist.matmul %p, %v : (tensor<2x6x24xf32>, tensor<2x24x4xf32>) -> tensor<2x6x4xf32>
  %x = dist.mul %o, %w : (tensor<2x6x4xf32>, tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  %l = dist.reduce_sum %x {dims = array<i64: 0, 1, 2>} : (tensor<2x6x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
