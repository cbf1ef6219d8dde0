// RUN: dist-opt %s --split-input-file --verify-diagnostics --dist-verify-sharding
// What propagation leaves, resolved, verifies.
// RUN: dist-opt %S/../../examples/megatron-mlp.mlir --dist-propagate-sharding --dist-resolve-partial --dist-verify-sharding -o /dev/null
// RUN: dist-gen gpt --layers 2 --dp 2 --tp 2 --sp 2 | dist-opt - --dist-propagate-sharding --dist-resolve-partial --dist-verify-sharding -o /dev/null

// A partial value read by an op that cannot take it.
dist.mesh @mesh = <["tp"=4]>
func.func @unresolved(%x: tensor<8xf32> {dist.sharding = #dist.sharding<@mesh, [{}], partial = sum{"tp"}>}) -> tensor<8xf32> {
  // expected-error @below {{operand #0 is sharded [{}], partial = sum{"tp"} but needs [{}]}}
  %y = dist.gelu %x {dist.sharding = [#dist.sharding<@mesh, [{}]>]} : (tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// -----

// A split the op's rule does not allow (softmax needs its axis whole).
dist.mesh @mesh = <["tp"=4]>
func.func @needs_a_reshard(%x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>}) -> tensor<8x16xf32> {
  // expected-error @below {{operand #0 is sharded [{}, {"tp"}] but needs [{}, {}]}}
  %y = dist.softmax %x {axis = 1 : i64, dist.sharding = [#dist.sharding<@mesh, [{}, {}]>]} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

// -----

// A returned value that is partial, and one that differs from its declared
// sharding.
dist.mesh @mesh = <["tp"=4]>
func.func @results(%x: tensor<8xf32> {dist.sharding = #dist.sharding<@mesh, [{}], partial = sum{"tp"}>},
                   %y: tensor<8xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp"}]>})
    -> (tensor<8xf32>, tensor<8xf32> {dist.sharding = #dist.sharding<@mesh, [{}]>}) {
  // expected-error @+2 {{result #0 is sharded [{}], partial = sum{"tp"} but needs [{}]}}
  // expected-error @+1 {{result #1 is sharded [{"tp"}] but needs [{}]}}
  return %x, %y : tensor<8xf32>, tensor<8xf32>
}

// -----

// Verification needs every value annotated.
dist.mesh @mesh = <["tp"=4]>
func.func @unannotated(%x: tensor<8xf32> {dist.sharding = #dist.sharding<@mesh, [{}]>}) -> tensor<8xf32> {
  // expected-error @below {{this value has no sharding: run dist-propagate-sharding first}}
  %y = dist.gelu %x : (tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}
