// RUN: dist-opt %s --split-input-file --verify-diagnostics --dist-partition

// Partitioning needs every reshard explicit: a partial value read by a
// nonlinear op has not been reduced yet.
dist.mesh @mesh = <["tp"=4]>
func.func @unresolved(%x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}], partial = sum{"tp"}>}) -> tensor<8x16xf32> {
  // expected-error @below {{operand #0 is sharded [{}, {}], partial = sum{"tp"} but needs [{}, {}]; run dist-resolve-partial first}}
  %g = dist.gelu %x {dist.sharding = [#dist.sharding<@mesh, [{}, {}]>]} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %g : tensor<8x16xf32>
}

// -----

// Nor can it partition values without shardings.
dist.mesh @mesh = <["tp"=4]>
func.func @not_propagated(%x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>}) -> tensor<8x16xf32> {
  // expected-error @below {{this value has no sharding: run dist-propagate-sharding first}}
  %y = dist.gelu %x : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}
