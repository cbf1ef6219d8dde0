// RUN: dist-opt %s --split-input-file --verify-diagnostics --dist-resolve-partial

// The pass needs every value annotated: it runs after propagation.
dist.mesh @mesh = <["tp"=4]>
func.func @not_propagated(%x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>}) -> tensor<8x16xf32> {
  // expected-error @below {{this value has no sharding: run dist-propagate-sharding first}}
  %y = dist.gelu %x : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

// -----

// A declared partial result cannot be made from a value that is not partial.
dist.mesh @mesh = <["tp"=4]>
func.func @cannot_make_partial(%x: tensor<8xf32> {dist.sharding = #dist.sharding<@mesh, [{}]>})
    -> (tensor<8xf32> {dist.sharding = #dist.sharding<@mesh, [{}], partial = sum{"tp"}>}) {
  // expected-error @below {{cannot turn a value sharded [{}] into [{}], partial = sum{"tp"}}}
  return %x : tensor<8xf32>
}

// -----

// Nor can a declared partial kind differ from the value's.
dist.mesh @mesh = <["tp"=4]>
func.func @wrong_partial_kind(%x: tensor<8xf32> {dist.sharding = #dist.sharding<@mesh, [{}], partial = max{"tp"}>})
    -> (tensor<8xf32> {dist.sharding = #dist.sharding<@mesh, [{}], partial = sum{"tp"}>}) {
  // expected-error @below {{cannot turn a value sharded [{}], partial = max{"tp"} into [{}], partial = sum{"tp"}}}
  return %x : tensor<8xf32>
}

// -----

// An op annotated with a partial result it cannot produce.
dist.mesh @mesh = <["tp"=4]>
func.func @impossible_partial(%x: tensor<8xf32> {dist.sharding = #dist.sharding<@mesh, [{}]>}) -> tensor<8xf32> {
  // expected-error @below {{result #0 is declared partial over {"tp"}, which the op cannot produce: it reduces no factor}}
  %y = dist.gelu %x {dist.sharding = [#dist.sharding<@mesh, [{}], partial = sum{"tp"}>]} : (tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// -----

// Errors from reading the function name this pass.
dist.mesh @a = <["x"=2]>
dist.mesh @b = <["x"=2]>
func.func @two_meshes(%x: tensor<8xf32> {dist.sharding = #dist.sharding<@a, [{}]>}) -> tensor<8xf32> {
  // expected-error @below {{dist-resolve-partial handles one mesh per function: this uses @b, the function also uses @a}}
  %y = dist.gelu %x {dist.sharding = [#dist.sharding<@b, [{}]>]} : (tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}
