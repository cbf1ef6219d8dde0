// RUN: dist-opt %s --split-input-file --verify-diagnostics --dist-pipeline="microbatches=1 schedule=zb-h1" -o /dev/null

// ZB-H1 defers a stage's weight gradients into the bubbles of the first
// stages' microbatches: it needs as many microbatches as stages.
dist.mesh @mesh = <["pp"=2]>
// expected-error @below {{zb-h1 needs at least as many microbatches as stages (2), not 1}}
func.func @too_few(%x: tensor<4x8xf32> {dist.batch_dim = 0 : i64, dist.sharding = #dist.sharding<@mesh, [{}, {}]>},
                   %w: tensor<8x8xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}]>}) -> tensor<f32> {
  %h = dist.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %b = dist.stage_boundary %h : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %l = dist.reduce_mean %b {dims = array<i64: 0, 1>} : (tensor<4x8xf32>) -> tensor<f32>
  %one = arith.constant dense<1.0> : tensor<f32>
  %db = dist.reduce_mean_grad %b, %one {dims = array<i64: 0, 1>} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %dh = dist.stage_boundary %db : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %dw = dist.matmul %x, %dh {transpose_x} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<8x8xf32>
  %w2 = dist.sub %w, %dw : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %l : tensor<f32>
}

// -----

// The data is what the microbatches split: a step without a marked
// argument has none.
module {
  dist.mesh @mesh = <["pp"=2]>
  // expected-error @below {{no function argument carries dist.batch_dim: mark each data argument with the dim its samples run along (dist.batch_dim = 0 : i64)}}
  func.func @unmarked(%x: tensor<4x8xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}]>}) -> tensor<4x8xf32> {
    return %x : tensor<4x8xf32>
  }
}
