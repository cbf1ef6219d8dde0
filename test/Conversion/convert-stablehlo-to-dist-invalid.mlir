// RUN: dist-opt %s --allow-unregistered-dialect --split-input-file --verify-diagnostics --convert-stablehlo-to-dist="requires-grad=0"
// Every error of the StableHLO import, one case per chunk: each names the
// op or attribute at fault, at its location.

// An op a result needs and that has no dist form.
func.func @lgamma(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{'chlo.lgamma' has no dist mapping}}
  %0 = "chlo.lgamma"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A gather of columns is neither jnp.take of rows nor take_along_axis.
func.func @columns(%t: tensor<8x4xf32>, %i: tensor<3x1xi32>) -> tensor<8x3xf32> {
  // expected-error @below {{'stablehlo.gather' is supported for whole rows of a 2-D table (jnp.take along axis 0), for one element per row along the last dim (jnp.take_along_axis, torch.gather) and for one slice at constant indices (x[:, 0]); these dimension numbers are neither}}
  %0 = "stablehlo.gather"(%t, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [1], start_index_map = [1], index_vector_dim = 1>, slice_sizes = array<i64: 8, 1>}> : (tensor<8x4xf32>, tensor<3x1xi32>) -> tensor<8x3xf32>
  return %0 : tensor<8x3xf32>
}

// -----

// StableHLO's verifier does not run here: the import checks what it reads.
func.func @malformed(%x: tensor<4xf32>) -> tensor<2x4xf32> {
  // expected-error @below {{malformed 'stablehlo.broadcast_in_dim': operand and result types its attributes do not fit}}
  %0 = "stablehlo.broadcast_in_dim"(%x) <{broadcast_dimensions = array<i64: 2>}> : (tensor<4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// An op without results is not dropped silently.
func.func @effect(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{'stablehlo.custom_call' has no results: it has no dist mapping}}
  "stablehlo.custom_call"(%x) <{call_target_name = "log"}> : (tensor<4xf32>) -> ()
  return %x : tensor<4xf32>
}

// -----

// Nor is a sharding an op carries.
"sdy.mesh"() <{mesh = #sdy.mesh<["dp"=2]>, sym_name = "mesh"}> : () -> ()
func.func @op_sharding(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{'stablehlo.tanh' carries a Shardy sharding of its own, which is not imported}}
  %0 = "stablehlo.tanh"(%x) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"dp"}]>]>} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A product reduction has no dist op.
func.func @product(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %one = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  // expected-error @below {{'stablehlo.reduce' whose body is not one add, maximum, minimum, and or or}}
  %0 = "stablehlo.reduce"(%x, %one) <{dimensions = array<i64: 1>}> ({
  ^bb0(%l: tensor<f32>, %r: tensor<f32>):
    %m = "stablehlo.multiply"(%l, %r) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%m) : (tensor<f32>) -> ()
  }) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Nor does a sum that starts elsewhere than 0.
func.func @offset_sum(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %one = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  // expected-error @below {{'stablehlo.reduce' applying 'stablehlo.add' to f32 from 1 has no dist op (sums from 0, maxima from the lowest value, minima from the highest, and of booleans and from true and or from false have)}}
  %0 = "stablehlo.reduce"(%x, %one) <{dimensions = array<i64: 1>}> ({
  ^bb0(%l: tensor<f32>, %r: tensor<f32>):
    %s = "stablehlo.add"(%l, %r) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A broadcast that reorders dims is a transpose JAX does not write.
func.func @reordering(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @below {{'stablehlo.broadcast_in_dim' with dimensions [1, 0], which reorder dims, is not supported}}
  %0 = "stablehlo.broadcast_in_dim"(%x) <{broadcast_dimensions = array<i64: 1, 0>}> : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// shard_map bodies are per-device code already.
func.func @manual(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{'sdy.manual_computation' (shard_map) is not supported: its body is already per-device code}}
  %0 = "sdy.manual_computation"(%x) ({
  ^bb0(%l: tensor<2xf32>):
    "sdy.return"(%l) : (tensor<2xf32>) -> ()
  }) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Shardy's open dims have no dist form.
"sdy.mesh"() <{mesh = #sdy.mesh<["dp"=2]>, sym_name = "mesh"}> : () -> ()
// expected-error @below {{cannot import the sharding '#sdy.sharding<@mesh, [{"dp", ?}]>': open dimensions (?) are not supported}}
func.func @open(%x: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"dp", ?}]>}) -> tensor<4xf32> {
  %0 = "stablehlo.tanh"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A GSPMD sharding (JAX without Shardy) is not dropped silently.
// expected-error @below {{'mhlo.sharding' (a GSPMD sharding) is not imported: export with Shardy (JAX's default partitioner since 0.7), whose shardings are dist's}}
func.func @gspmd(%x: tensor<4xf32> {mhlo.sharding = "{devices=[2]<=[2]}"}) -> tensor<4xf32> {
  %0 = "stablehlo.tanh"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Nor does a mesh with its own device order.
// expected-error @below {{cannot import the mesh '#sdy.mesh<["dp"=2], device_ids=[1, 0]>': device ids are not supported}}
"sdy.mesh"() <{mesh = #sdy.mesh<["dp"=2], device_ids=[1, 0]>, sym_name = "mesh"}> : () -> ()

// -----

// requires-grad=0 names an argument of integers.
// expected-error @below {{requires-grad names argument 0 of type tensor<4xi32>, which has no gradient}}
func.func @ids(%i: tensor<4xi32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.tanh"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A helper that calls itself.
func.func @outer(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "func.call"(%x) <{callee = @loop}> : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @loop(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{recursive call to @loop}}
  %0 = "func.call"(%x) <{callee = @loop}> : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Dynamic shapes are not imported.
// expected-error @below {{argument 1 of type tensor<?xf32> is not a static tensor}}
func.func @dynamic(%x: tensor<4xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {
  %0 = "stablehlo.tanh"(%y) : (tensor<?xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// A StableHLO helper no public function calls is left unconverted (the
// public one is imported, with the remark every import that marks
// arguments to differentiate gets).
// expected-remark @below {{the gradients of this import are those of its forward ops}}
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.negate"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func private @unused(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{'stablehlo.tanh' is left in a function no public function calls}}
  %0 = "stablehlo.tanh"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A constraint on an argument: the argument's own sharding says it.
"sdy.mesh"() <{mesh = #sdy.mesh<["dp"=2]>, sym_name = "mesh"}> : () -> ()
func.func @constrained_argument(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{a sharding constraint on a function argument: shard the argument instead}}
  %0 = "sdy.sharding_constraint"(%x) <{sharding = #sdy.sharding<@mesh, [{"dp"}]>}> : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A sharding over an axis the mesh does not have: the dist verifier's error,
// at the argument.
"sdy.mesh"() <{mesh = #sdy.mesh<["dp"=2]>, sym_name = "mesh"}> : () -> ()
// expected-error @+2 {{argument #0: mesh @mesh has no axis "tp"}}
// expected-remark @+1 {{the gradients of this import are those of its forward ops}}
func.func @unknown_axis(%x: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}) -> tensor<4xf32> {
  %0 = "stablehlo.tanh"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// An op of several results (here a sort of keys with their values).
func.func @pair(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{'stablehlo.sort' with 2 results has no dist op}}
  %0:2 = "stablehlo.sort"(%x, %y) <{dimension = 0 : i64, is_stable = true}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>, %d: tensor<f32>):
    %lt = "stablehlo.compare"(%a, %b) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    "stablehlo.return"(%lt) : (tensor<i1>) -> ()
  }) : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %0#1 : tensor<4xf32>
}

// -----

// A result of dynamic shape.
func.func @dynamic_result(%x: tensor<4xf32>) -> tensor<?xf32> {
  // expected-error @below {{'stablehlo.tanh' has a result of type tensor<?xf32>; only statically shaped tensors are imported}}
  %0 = "stablehlo.tanh"(%x) : (tensor<4xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// Control flow between blocks.
// expected-error @below {{only functions with a single-block body are imported}}
func.func @branches(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.tanh"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  cf.br ^next
^next:
  return %0 : tensor<4xf32>
}

// -----

// A comparison in the total order of floats (NaNs ordered too) has no dist
// op: dist.compare of floats is IEEE's.
func.func @total_order(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xi1> {
  // expected-error @below {{'stablehlo.compare' of type #stablehlo<comparison_type TOTALORDER> has no dist op (floats compare as FLOAT, integers as SIGNED, booleans as UNSIGNED)}}
  %0 = "stablehlo.compare"(%x, %y) <{comparison_direction = #stablehlo<comparison_direction LT>, compare_type = #stablehlo<comparison_type TOTALORDER>}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

// Booleans combine with and, or and xor; StableHLO's add of them is not
// imported.
func.func @bool_add(%x: tensor<4xf32>, %p: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error @below {{'stablehlo.add' of i1 tensors has no dist op (booleans combine with and, or and xor)}}
  %0 = "stablehlo.add"(%p, %p) : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

// Unsigned integers are not dist's (its integers are signless, signed in
// arithmetic).
func.func @to_unsigned(%x: tensor<4xf32>) -> tensor<4xui32> {
  // expected-error @below {{'stablehlo.convert' from f32 to ui32 has no dist op}}
  %0 = "stablehlo.convert"(%x) : (tensor<4xf32>) -> tensor<4xui32>
  return %0 : tensor<4xui32>
}

// -----

// Logic reads booleans or integers.
func.func @float_xor(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{'stablehlo.xor' of f32 tensors has no dist op (it reads booleans or integers)}}
  %0 = "stablehlo.xor"(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A gather of one slice whose index is data (jnp.take(x, i, axis=1) with a
// traced i) is no slice of a constant: refused.
func.func @dynamic_column(%x: tensor<8x3xf32>, %i: tensor<1xi32>) -> tensor<8xf32> {
  // expected-error @below {{'stablehlo.gather' is supported for whole rows}}
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [1], start_index_map = [1]>, indices_are_sorted = false, slice_sizes = array<i64: 8, 1>}> : (tensor<8x3xf32>, tensor<1xi32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// A scatter that neither adds nor writes (a gather's gradient does one)
// has no dist op.
func.func @scatter_max(%x: tensor<4x8xf32>, %i: tensor<4x1x1xi32>, %u: tensor<4x1xf32>) -> tensor<4x8xf32> {
  // expected-error @below {{'stablehlo.scatter' is imported where it adds into one operand, or writes into zeros (a gather's gradient)}}
  %0 = "stablehlo.scatter"(%x, %i, %u) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>, unique_indices = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = "stablehlo.maximum"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%m) : (tensor<f32>) -> ()
  }) : (tensor<4x8xf32>, tensor<4x1x1xi32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// An adding scatter of other dimension numbers (into columns at data
// indices) is no gather's gradient dist knows.
func.func @scatter_columns(%x: tensor<8x4xf32>, %i: tensor<3x1xi32>, %u: tensor<8x3xf32>) -> tensor<8x4xf32> {
  // expected-error @below {{'stablehlo.scatter' is supported as the gradient of a gather of whole rows of a 2-D table (jnp.take), of one element per row along the last dim (take_along_axis), of lax.top_k (k elements per row added) and of one slice at constant indices; these dimension numbers are none of them}}
  %0 = "stablehlo.scatter"(%x, %i, %u) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0], inserted_window_dims = [1], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>, unique_indices = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<8x4xf32>, tensor<3x1xi32>, tensor<8x3xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// Nor does an and of booleans that starts from false (always false).
func.func @and_from_false(%y: tensor<4xf32>, %x: tensor<4x8xi1>) -> tensor<4xi1> {
  %false = "stablehlo.constant"() <{value = dense<false> : tensor<i1>}> : () -> tensor<i1>
  // expected-error @below {{'stablehlo.reduce' applying 'stablehlo.and' to i1 from 0 has no dist op}}
  %0 = "stablehlo.reduce"(%x, %false) <{dimensions = array<i64: 1>}> ({
  ^bb0(%l: tensor<i1>, %r: tensor<i1>):
    %s = "stablehlo.and"(%l, %r) : (tensor<i1>, tensor<i1>) -> tensor<i1>
    "stablehlo.return"(%s) : (tensor<i1>) -> ()
  }) : (tensor<4x8xi1>, tensor<i1>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

// A strided slice whose result type is not its count of elements is
// malformed (0, 2, 4, 6 are four).
func.func @strided(%x: tensor<8xf32>) -> tensor<3xf32> {
  // expected-error @below {{malformed 'stablehlo.slice': operand and result types its attributes do not fit}}
  %0 = "stablehlo.slice"(%x) <{start_indices = array<i64: 0>, limit_indices = array<i64: 8>, strides = array<i64: 2>}> : (tensor<8xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// So is interior padding whose result is not the spread operand's size.
func.func @interior(%x: tensor<4xf32>, %v: tensor<f32>) -> tensor<8xf32> {
  // expected-error @below {{malformed 'stablehlo.pad': operand and result types its attributes do not fit}}
  %0 = "stablehlo.pad"(%x, %v) <{edge_padding_low = array<i64: 0>, edge_padding_high = array<i64: 0>, interior_padding = array<i64: 1>}> : (tensor<4xf32>, tensor<f32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// A reduction of two inputs is imported as an argmax or argmin: this one
// adds pairs.
func.func @pair_sum(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4xf32> {
  %zero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  // expected-error @below {{'stablehlo.reduce' of several inputs is imported where it is an argmax or argmin (values and their iota along one dim, to the extreme and its first index)}}
  %0:2 = "stablehlo.reduce"(%x, %y, %zero, %zero) <{dimensions = array<i64: 1>}> ({
  ^bb0(%a: tensor<f32>, %ai: tensor<f32>, %b: tensor<f32>, %bi: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %t = "stablehlo.add"(%ai, %bi) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s, %t) : (tensor<f32>, tensor<f32>) -> ()
  }) : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<f32>, tensor<f32>) -> (tensor<4xf32>, tensor<4xf32>)
  return %0#0 : tensor<4xf32>
}

// -----

// An argmax's indices are an iota along the reduced dim: these are an
// argument.
func.func @argmax_of_ids(%x: tensor<4x8xf32>, %ids: tensor<4x8xi32>) -> tensor<4xi32> {
  %ninf = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
  %zero = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  // expected-error @below {{'stablehlo.reduce' as an argmax or argmin: its second input is not an iota along the reduced dim}}
  %0:2 = "stablehlo.reduce"(%x, %ids, %ninf, %zero) <{dimensions = array<i64: 1>}> ({
  ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
    %ge = "stablehlo.compare"(%a, %b) <{comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %eq = "stablehlo.compare"(%a, %b) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %v = "stablehlo.select"(%ge, %a, %b) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %lo = "stablehlo.minimum"(%ai, %bi) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %i = "stablehlo.select"(%ge, %ai, %bi) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %j = "stablehlo.select"(%eq, %lo, %i) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%v, %j) : (tensor<f32>, tensor<i32>) -> ()
  }) : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
  return %0#1 : tensor<4xi32>
}

// -----

// And it starts from the lowest value and index 0.
func.func @argmax_from_zero(%x: tensor<4x8xf32>) -> tensor<4xi32> {
  %ids = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<4x8xi32>
  %fzero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %zero = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  // expected-error @below {{'stablehlo.reduce' as an argmax or argmin: its initial values are not the identity of the value and index 0}}
  %0:2 = "stablehlo.reduce"(%x, %ids, %fzero, %zero) <{dimensions = array<i64: 1>}> ({
  ^bb0(%a: tensor<f32>, %ai: tensor<i32>, %b: tensor<f32>, %bi: tensor<i32>):
    %ge = "stablehlo.compare"(%a, %b) <{comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %eq = "stablehlo.compare"(%a, %b) <{comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %v = "stablehlo.select"(%ge, %a, %b) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %lo = "stablehlo.minimum"(%ai, %bi) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %i = "stablehlo.select"(%ge, %ai, %bi) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %j = "stablehlo.select"(%eq, %lo, %i) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%v, %j) : (tensor<f32>, tensor<i32>) -> ()
  }) : (tensor<4x8xf32>, tensor<4x8xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
  return %0#1 : tensor<4xi32>
}

// -----

// A slice past its operand is malformed.
func.func @past(%x: tensor<8xf32>) -> tensor<4xf32> {
  // expected-error @below {{malformed 'stablehlo.slice': operand and result types its attributes do not fit}}
  %0 = "stablehlo.slice"(%x) <{start_indices = array<i64: 6>, limit_indices = array<i64: 10>, strides = array<i64: 1>}> : (tensor<8xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A scatter that writes is imported into zeros only: elsewhere it is no
// sum of a gather's gradient.
func.func @scatter_write(%x: tensor<4x8xf32>, %i: tensor<4x1x1xi32>, %u: tensor<4x1xf32>) -> tensor<4x8xf32> {
  // expected-error @below {{'stablehlo.scatter' that replaces is imported where it writes into zeros (a gather's gradient)}}
  %0 = "stablehlo.scatter"(%x, %i, %u) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>, unique_indices = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    "stablehlo.return"(%b) : (tensor<f32>) -> ()
  }) : (tensor<4x8xf32>, tensor<4x1x1xi32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// A window shorter than its dim (a sliding sum, a pooling) is no running
// sum.
func.func @sliding(%x: tensor<4x8xf32>) -> tensor<4x7xf32> {
  %zero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  // expected-error @below {{'stablehlo.reduce_window' is imported as a running sum (jnp.cumsum, torch.cumsum: an add from 0 over a window of one dim's length, padded before or after by one less, unit strides); this window is not one}}
  %0 = "stablehlo.reduce_window"(%x, %zero) <{window_dimensions = array<i64: 1, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x7xf32>
  return %0 : tensor<4x7xf32>
}

// -----

// Dilated windows have no dist op.
func.func @dilated(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %zero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  // expected-error @below {{'stablehlo.reduce_window' with dilations or several inputs has no dist op}}
  %0 = "stablehlo.reduce_window"(%x, %zero) <{window_dimensions = array<i64: 1, 1>, window_dilations = array<i64: 1, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// The functions dist writes with its own compute on floats.
func.func @integer_sinh(%f: tensor<4xf32>, %x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @below {{'chlo.sinh' of i32 tensors has no dist op (it computes on floats)}}
  %0 = "chlo.sinh"(%x) : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// An atan2 of operands of two shapes is malformed.
func.func @atan2_shapes(%y: tensor<4xf32>, %x: tensor<1xf32>) -> tensor<4xf32> {
  // expected-error @below {{malformed 'stablehlo.atan2': operand and result types its attributes do not fit}}
  %0 = "stablehlo.atan2"(%y, %x) : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A function written with dist's ops takes its operands (found by the
// import fuzzer: an index out of bounds).
func.func @atanh_of_nothing(%f: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @below {{malformed 'chlo.atanh': 0 operands where it takes 1}}
  %0 = "chlo.atanh"() : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// dist.top_k picks among floats.
func.func @integer_top_k(%f: tensor<4xf32>, %x: tensor<4x8xi32>) -> tensor<4x2xi32> {
  // expected-error @below {{'chlo.top_k' of i32 tensors has no dist op (it computes on floats)}}
  %values, %indices = "chlo.top_k"(%x) <{k = 2 : i64}> : (tensor<4x8xi32>) -> (tensor<4x2xi32>, tensor<4x2xi32>)
  return %indices : tensor<4x2xi32>
}

// -----

// A top_k of more entries than the last dim has is malformed.
func.func @top_k_past_the_row(%x: tensor<4x8xf32>) -> tensor<4x9xf32> {
  // expected-error @below {{malformed 'chlo.top_k': operand and result types its attributes do not fit}}
  %values, %indices = "chlo.top_k"(%x) <{k = 9 : i64}> : (tensor<4x8xf32>) -> (tensor<4x9xf32>, tensor<4x9xi32>)
  return %values : tensor<4x9xf32>
}

// -----

func.func @top_k_without_k(%x: tensor<4x8xf32>) -> tensor<4x2xf32> {
  // expected-error @below {{'chlo.top_k' without its 'k' attribute}}
  %values, %indices = "chlo.top_k"(%x) : (tensor<4x8xf32>) -> (tensor<4x2xf32>, tensor<4x2xi32>)
  return %values : tensor<4x2xf32>
}

// -----

// Indices of floats are malformed.
func.func @top_k_float_indices(%x: tensor<4x8xf32>) -> tensor<4x2xf32> {
  // expected-error @below {{malformed 'chlo.top_k': operand and result types its attributes do not fit}}
  %values, %indices = "chlo.top_k"(%x) <{k = 2 : i64}> : (tensor<4x8xf32>) -> (tensor<4x2xf32>, tensor<4x2xf32>)
  return %values : tensor<4x2xf32>
}

// -----

// k updates a row written into zeros (not added, as lax.top_k's gradient
// adds them) would keep one of two at the same index: no dist op.
func.func @replacing_top_k_scatter(%u: tensor<4x2xf32>, %i: tensor<4x2x1xi32>) -> tensor<4x8xf32> {
  %zero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<4x8xf32>}> : () -> tensor<4x8xf32>
  // expected-error @below {{'stablehlo.scatter' is supported as the gradient of a gather of whole rows of a 2-D table (jnp.take), of one element per row along the last dim (take_along_axis), of lax.top_k (k elements per row added) and of one slice at constant indices; these dimension numbers are none of them}}
  %0 = "stablehlo.scatter"(%zero, %i, %u) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>, unique_indices = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    "stablehlo.return"(%b) : (tensor<f32>) -> ()
  }) : (tensor<4x8xf32>, tensor<4x2x1xi32>, tensor<4x2xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// More updates a row than the row is long is no top_k's gradient.
func.func @scatter_past_the_row(%u: tensor<4x9xf32>, %i: tensor<4x9x1xi32>) -> tensor<4x8xf32> {
  %zero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<4x8xf32>}> : () -> tensor<4x8xf32>
  // expected-error @below {{'stablehlo.scatter' is supported as the gradient of a gather of whole rows of a 2-D table (jnp.take), of one element per row along the last dim (take_along_axis), of lax.top_k (k elements per row added) and of one slice at constant indices; these dimension numbers are none of them}}
  %0 = "stablehlo.scatter"(%zero, %i, %u) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>, unique_indices = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x8xf32>, tensor<4x9x1xi32>, tensor<4x9xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
