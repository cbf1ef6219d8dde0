// The StableHLO import on the exports of examples/jax/{mlp,block}.py (JAX
// 0.10.2, 2 x 2 mesh, generic form; test/Conversion/jax-export.mlir makes
// them) and on small functions below.
// RUN: dist-opt --allow-unregistered-dialect %S/Inputs/stablehlo/mlp.mlir --convert-stablehlo-to-dist="requires-grad=1,2" | FileCheck %s --check-prefix=MLP
// RUN: dist-opt --allow-unregistered-dialect %S/Inputs/stablehlo/block.mlir --convert-stablehlo-to-dist="requires-grad=2,3,4,5,6,7,8,9,10,11,12,13,14" | FileCheck %s --check-prefix=BLOCK
// RUN: dist-opt --allow-unregistered-dialect %s --split-input-file --convert-stablehlo-to-dist | FileCheck %s
// The import is idempotent (a dist program has nothing to import) and its
// output needs no unregistered dialect.
// RUN: dist-opt --allow-unregistered-dialect %S/Inputs/stablehlo/block.mlir --convert-stablehlo-to-dist > %t
// RUN: dist-opt %t --convert-stablehlo-to-dist | diff %t -
// RUN: dist-opt %t --dist-append-backward --dist-decompose --dist-propagate-sharding=remarks=none --dist-resolve-partial --dist-verify-sharding -o /dev/null

// The mesh, the shardings of the arguments and the result, the relu helper
// inlined (its zero stays a scalar that dist.maximum broadcasts), the mean
// as a sum and a division.
// MLP:       dist.mesh @mesh = <["dp"=2, "tp"=2]>
// MLP-NEXT:  func.func @main(%[[X:.*]]: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>},
// MLP-SAME:      %[[W1:.*]]: tensor<16x32xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
// MLP-SAME:      %[[W2:.*]]: tensor<32x16xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>},
// MLP-SAME:      %[[Y:.*]]: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>})
// MLP-SAME:      -> (tensor<f32> {dist.sharding = #dist.sharding<@mesh, []>, jax.result_info = "result"})
// MLP-NEXT:    %[[H:.*]] = dist.matmul %[[X]], %[[W1]] : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
// MLP-NEXT:    %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<f32>
// MLP-NEXT:    %[[RELU:.*]] = dist.maximum %[[H]], %[[ZERO]] : (tensor<8x32xf32>, tensor<f32>) -> tensor<8x32xf32>
// MLP-NEXT:    %[[P:.*]] = dist.matmul %[[RELU]], %[[W2]] : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
// MLP-NEXT:    %[[D:.*]] = dist.sub %[[P]], %[[Y]]
// MLP-NEXT:    %[[SQ:.*]] = dist.mul %[[D]], %[[D]]
// MLP-NEXT:    %[[SUM:.*]] = dist.reduce_sum %[[SQ]] {dims = array<i64: 0, 1>} : (tensor<8x16xf32>) -> tensor<f32>
// MLP-NEXT:    %[[N:.*]] = arith.constant dense<1.280000e+02> : tensor<f32>
// MLP-NEXT:    %[[MEAN:.*]] = dist.div %[[SUM]], %[[N]]
// MLP-NEXT:    return %[[MEAN]] : tensor<f32>
// MLP-NEXT:  }
// MLP-NEXT: }

// The block: jnp.take is the (vocabulary-parallel) embedding, each layer
// norm, the softmax, the GELU and the cross-entropy are their dist ops, the
// iota/compare/select mask is dist.causal_mask, the tied logits read the
// embedding with transpose_y; no helper is left.
// BLOCK:       func.func @main(%[[TOKENS:.*]]: tensor<2x8xi32> {{.*}}, %[[TARGETS:.*]]: tensor<2x8xi32> {{.*}}, %[[EMBED:.*]]: tensor<32x16xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>},
// BLOCK-NEXT:    %[[X0:.*]] = dist.embedding %[[TOKENS]], %[[EMBED]] : (tensor<2x8xi32>, tensor<32x16xf32>) -> tensor<2x8x16xf32>
// BLOCK-NEXT:    %[[H1:.*]], %{{.*}}, %{{.*}} = dist.layer_norm %[[X0]], %arg3, %arg4 {begin_norm_axis = 2 : i64}
// BLOCK-NEXT:    %[[Q:.*]] = dist.matmul %[[H1]], %arg5
// BLOCK:         %[[S:.*]] = dist.matmul %{{.*}}, %{{.*}} {transpose_y} : (tensor<2x2x8x8xf32>, tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
// BLOCK-NEXT:    %[[EIGHT:.*]] = arith.constant dense<8.000000e+00> : tensor<f32>
// BLOCK-NEXT:    %[[ROOT:.*]] = dist.sqrt %[[EIGHT]]
// BLOCK-NEXT:    %[[SCALED:.*]] = dist.div %[[S]], %[[ROOT]] : (tensor<2x2x8x8xf32>, tensor<f32>) -> tensor<2x2x8x8xf32>
// BLOCK-NEXT:    %[[MASKED:.*]] = dist.causal_mask %[[SCALED]] : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
// BLOCK-NEXT:    %[[PROBS:.*]] = dist.softmax %[[MASKED]] {axis = -1 : i64}
// BLOCK:         dist.layer_norm %{{.*}}, %arg9, %arg10 {begin_norm_axis = 2 : i64}
// BLOCK-NEXT:    %[[UP:.*]] = dist.matmul %{{.*}}, %arg11
// BLOCK-NEXT:    %[[ACT:.*]] = dist.gelu %[[UP]] {approximate = "tanh"} : (tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
// BLOCK-NEXT:    %[[DOWN:.*]] = dist.matmul %[[ACT]], %arg12
// BLOCK:         %[[HF:.*]], %{{.*}}, %{{.*}} = dist.layer_norm %{{.*}}, %arg13, %arg14 {begin_norm_axis = 2 : i64}
// BLOCK-NEXT:    %[[LOGITS:.*]] = dist.matmul %[[HF]], %[[EMBED]] {transpose_y} : (tensor<2x8x16xf32>, tensor<32x16xf32>) -> tensor<2x8x32xf32>
// BLOCK-NEXT:    %[[LOSS:.*]] = dist.cross_entropy %[[LOGITS]], %[[TARGETS]] : (tensor<2x8x32xf32>, tensor<2x8xi32>) -> tensor<f32>
// BLOCK-NEXT:    return %[[LOSS]] : tensor<f32>
// BLOCK-NEXT:  }
// BLOCK-NEXT: }
// BLOCK-NOT:  func.func

// A sharding constraint pins the value it constrains; a broadcast that a
// reduction reads is made by adding zeros (dist has no broadcast op); a
// batch dim that is not leading is moved to the front of the product.
"sdy.mesh"() <{mesh = #sdy.mesh<["dp"=2]>, sym_name = "mesh"}> : () -> ()
"func.func"() <{function_type = (tensor<8x4xf32>, tensor<16xf32>, tensor<4x8x2xf32>, tensor<2x4x5xf32>) -> (tensor<8x4xf32>, tensor<4xf32>, tensor<2x8x5xf32>), sym_name = "f"}> ({
^bb0(%x: tensor<8x4xf32>, %v: tensor<16xf32>, %a: tensor<4x8x2xf32>, %b: tensor<2x4x5xf32>):
  %0 = "stablehlo.exponential"(%x) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %1 = "sdy.sharding_constraint"(%0) <{sharding = #sdy.sharding<@mesh, [{"dp"}, {}]>}> : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %2 = "stablehlo.broadcast_in_dim"(%v) <{broadcast_dimensions = array<i64: 1>}> : (tensor<16xf32>) -> tensor<4x16xf32>
  %3 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %4 = "stablehlo.reduce"(%2, %3) <{dimensions = array<i64: 1>}> ({
  ^bb0(%l: tensor<f32>, %r: tensor<f32>):
    %s = "stablehlo.add"(%l, %r) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x16xf32>, tensor<f32>) -> tensor<4xf32>
  %5 = "stablehlo.dot_general"(%a, %b) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [2], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [1]>}> : (tensor<4x8x2xf32>, tensor<2x4x5xf32>) -> tensor<2x8x5xf32>
  "func.return"(%1, %4, %5) : (tensor<8x4xf32>, tensor<4xf32>, tensor<2x8x5xf32>) -> ()
}) : () -> ()
// CHECK-LABEL: func.func @f(
// CHECK-NEXT:    %[[E:.*]] = dist.exp %arg0 {dist.sharding = [#dist.sharding<@mesh, [{"dp"}, {}]>]} : (tensor<8x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT:    %[[ZEROS:.*]] = arith.constant dense<0.000000e+00> : tensor<4x16xf32>
// CHECK-NEXT:    %[[WIDE:.*]] = dist.add %arg1, %[[ZEROS]] : (tensor<16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:    %[[SUM:.*]] = dist.reduce_sum %[[WIDE]] {dims = array<i64: 1>} : (tensor<4x16xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[A:.*]] = dist.transpose %arg2 {perm = array<i64: 2, 1, 0>} : (tensor<4x8x2xf32>) -> tensor<2x8x4xf32>
// CHECK-NEXT:    %[[AB:.*]] = dist.matmul %[[A]], %arg3 : (tensor<2x8x4xf32>, tensor<2x4x5xf32>) -> tensor<2x8x5xf32>
// CHECK-NEXT:    return %[[E]], %[[SUM]], %[[AB]]

// -----

// The elementwise functions of Flax, optax and Hugging Face models (abs of
// logsumexp, chlo.square of a layer norm's variance, chlo.erfc of exact
// GELU, sine and cosine of rotary embeddings, the roundings, power) are the
// dist functions of the same names.
"func.func"() <{function_type = (tensor<4xf32>) -> tensor<4xf32>, sym_name = "functions"}> ({
^bb0(%x: tensor<4xf32>):
  %0 = "stablehlo.abs"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "stablehlo.sign"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = "stablehlo.floor"(%1) : (tensor<4xf32>) -> tensor<4xf32>
  %3 = "stablehlo.ceil"(%2) : (tensor<4xf32>) -> tensor<4xf32>
  %4 = "stablehlo.round_nearest_even"(%3) : (tensor<4xf32>) -> tensor<4xf32>
  %5 = "stablehlo.sine"(%4) : (tensor<4xf32>) -> tensor<4xf32>
  %6 = "stablehlo.cosine"(%5) : (tensor<4xf32>) -> tensor<4xf32>
  %7 = "chlo.square"(%6) : (tensor<4xf32>) -> tensor<4xf32>
  %8 = "chlo.erf"(%7) : (tensor<4xf32>) -> tensor<4xf32>
  %9 = "chlo.erfc"(%8) : (tensor<4xf32>) -> tensor<4xf32>
  %10 = "stablehlo.power"(%9, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  "func.return"(%10) : (tensor<4xf32>) -> ()
}) : () -> ()
// CHECK-LABEL: func.func @functions(
// CHECK-NEXT:    %[[ABS:.*]] = dist.abs %arg0 : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %[[SIGN:.*]] = dist.sign %[[ABS]]
// CHECK-NEXT:    %[[FLOOR:.*]] = dist.floor %[[SIGN]]
// CHECK-NEXT:    %[[CEIL:.*]] = dist.ceil %[[FLOOR]]
// CHECK-NEXT:    %[[ROUND:.*]] = dist.round %[[CEIL]]
// CHECK-NEXT:    %[[SIN:.*]] = dist.sin %[[ROUND]]
// CHECK-NEXT:    %[[COS:.*]] = dist.cos %[[SIN]]
// CHECK-NEXT:    %[[SQUARE:.*]] = dist.square %[[COS]]
// CHECK-NEXT:    %[[ERF:.*]] = dist.erf %[[SQUARE]]
// CHECK-NEXT:    %[[ERFC:.*]] = dist.erfc %[[ERF]]
// CHECK-NEXT:    %[[POW:.*]] = dist.pow %[[ERFC]], %arg0
// CHECK-NEXT:    return %[[POW]]

// -----

// Ops no result needs are dropped, whatever they are; the mesh is read
// from Shardy's attribute and the stablehlo.mesh attribute is dropped with
// the op.
"sdy.mesh"() <{mesh = #sdy.mesh<["x"=4]>, sym_name = "m"}> {stablehlo.mesh = {axes = [{name = "x", size = 4 : i64}]}} : () -> ()
"func.func"() <{function_type = (tensor<4xf32>) -> tensor<4xf32>, sym_name = "dead"}> ({
^bb0(%x: tensor<4xf32>):
  %0 = "stablehlo.cosine"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "stablehlo.tanh"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  "func.return"(%1) : (tensor<4xf32>) -> ()
}) : () -> ()
// CHECK:       dist.mesh @m = <["x"=4]>
// CHECK-LABEL: func.func @dead(
// CHECK-NEXT:    %[[T:.*]] = dist.tanh %arg0
// CHECK-NEXT:    return %[[T]]

// -----

// Booleans and integers op by op: jnp.where on data (a compare and a
// select, the scalar broadcast left to the select's own broadcasting:
// relu as jnp.where writes it); positions no result needs, dropped; logic;
// integer arithmetic; a boolean converted to float (jax.nn.one_hot's
// compare and convert).
"func.func"() <{function_type = (tensor<4x8xf32>, tensor<4x8xi32>, tensor<4x8xi1>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xi32>, tensor<4x8xi1>, tensor<4x8xf32>), sym_name = "where"}> ({
^bb0(%x: tensor<4x8xf32>, %i: tensor<4x8xi32>, %keep: tensor<4x8xi1>):
  %zero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %zeros = "stablehlo.broadcast_in_dim"(%zero) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x8xf32>
  %p = "stablehlo.compare"(%x, %zeros) <{comparison_direction = #stablehlo<comparison_direction GT>, compare_type = #stablehlo<comparison_type FLOAT>}> : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
  %leaky = "stablehlo.select"(%p, %x, %zeros) : (tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<8x8xi32>
  %c = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<8x8xi32>
  %up = "stablehlo.compare"(%r, %c) <{comparison_direction = #stablehlo<comparison_direction LE>, compare_type = #stablehlo<comparison_type SIGNED>}> : (tensor<8x8xi32>, tensor<8x8xi32>) -> tensor<8x8xi1>
  %low = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
  %fill = "stablehlo.broadcast_in_dim"(%low) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x8xf32>
  %both = "stablehlo.and"(%p, %keep) : (tensor<4x8xi1>, tensor<4x8xi1>) -> tensor<4x8xi1>
  %either = "stablehlo.or"(%both, %keep) : (tensor<4x8xi1>, tensor<4x8xi1>) -> tensor<4x8xi1>
  %odd = "stablehlo.xor"(%either, %p) : (tensor<4x8xi1>, tensor<4x8xi1>) -> tensor<4x8xi1>
  %none = "stablehlo.not"(%odd) : (tensor<4x8xi1>) -> tensor<4x8xi1>
  %two = "stablehlo.constant"() <{value = dense<2> : tensor<4x8xi32>}> : () -> tensor<4x8xi32>
  %sum = "stablehlo.add"(%i, %two) : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
  %half = "stablehlo.divide"(%sum, %two) : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
  %hot = "stablehlo.convert"(%none) : (tensor<4x8xi1>) -> tensor<4x8xf32>
  "func.return"(%leaky, %fill, %half, %none, %hot) : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xi32>, tensor<4x8xi1>, tensor<4x8xf32>) -> ()
}) : () -> ()
// CHECK-LABEL: func.func @where(
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[P:.*]] = dist.compare %arg0, %[[ZERO]] {direction = "gt"} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xi1>
// CHECK-NEXT:    %[[LEAKY:.*]] = dist.select %[[P]], %arg0, %[[ZERO]] : (tensor<4x8xi1>, tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
// CHECK:         %[[BOTH:.*]] = dist.and %[[P]], %arg2
// CHECK-NEXT:    %[[EITHER:.*]] = dist.or %[[BOTH]], %arg2
// CHECK-NEXT:    %[[ODD:.*]] = dist.xor %[[EITHER]], %[[P]]
// CHECK-NEXT:    %[[NONE:.*]] = dist.not %[[ODD]] : (tensor<4x8xi1>) -> tensor<4x8xi1>
// CHECK-NEXT:    %[[TWO:.*]] = arith.constant dense<2> : tensor<i32>
// CHECK-NEXT:    %[[SUM:.*]] = dist.add %arg1, %[[TWO]] : (tensor<4x8xi32>, tensor<i32>) -> tensor<4x8xi32>
// CHECK-NEXT:    %[[HALF:.*]] = dist.div %[[SUM]], %[[TWO]]
// CHECK-NEXT:    %[[HOT:.*]] = dist.cast %[[NONE]] : (tensor<4x8xi1>) -> tensor<4x8xf32>
// CHECK:         return %[[LEAKY]], %{{.*}}, %[[HALF]], %[[NONE]], %[[HOT]]

// -----

// An upper triangle is not a causal mask: a select of positions.
"func.func"() <{function_type = (tensor<4x4xf32>) -> tensor<4x4xf32>, sym_name = "upper"}> ({
^bb0(%s: tensor<4x4xf32>):
  %r = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<4x4xi32>
  %c = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<4x4xi32>
  %p = "stablehlo.compare"(%r, %c) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<4x4xi32>, tensor<4x4xi32>) -> tensor<4x4xi1>
  %low = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
  %fill = "stablehlo.broadcast_in_dim"(%low) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x4xf32>
  %0 = "stablehlo.select"(%p, %s, %fill) : (tensor<4x4xi1>, tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  "func.return"(%0) : (tensor<4x4xf32>) -> ()
}) : () -> ()
// CHECK-LABEL: func.func @upper(
// CHECK-NEXT:    %[[R:.*]] = dist.iota {dim = 0 : i64} : () -> tensor<4x4xi32>
// CHECK-NEXT:    %[[C:.*]] = dist.iota {dim = 1 : i64} : () -> tensor<4x4xi32>
// CHECK-NEXT:    %[[P:.*]] = dist.compare %[[R]], %[[C]] {direction = "le"}
// CHECK-NEXT:    %[[LOW:.*]] = arith.constant dense<0xFF800000> : tensor<f32>
// CHECK-NEXT:    %[[M:.*]] = dist.select %[[P]], %arg0, %[[LOW]]
// CHECK-NEXT:    return %[[M]]

// -----

// dot_general of several contracting or free dims (Flax's DenseGeneral: a
// projection into [heads, head_dim], and out of it): the runs merged by
// reshapes around one dist.matmul. Without batch dims the left's free dims
// stay the product's broadcast batch. The second product reads the first
// one's [4, 8, 32] (a reshape of a reshape reads the first one's operand).
"func.func"() <{function_type = (tensor<4x8x32xf32>, tensor<32x4x8xf32>, tensor<4x8x32xf32>) -> (tensor<4x8x4x8xf32>, tensor<4x8x32xf32>), sym_name = "dense_general"}> ({
^bb0(%x: tensor<4x8x32xf32>, %wq: tensor<32x4x8xf32>, %wo: tensor<4x8x32xf32>):
  %q = "stablehlo.dot_general"(%x, %wq) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [0]>}> : (tensor<4x8x32xf32>, tensor<32x4x8xf32>) -> tensor<4x8x4x8xf32>
  %o = "stablehlo.dot_general"(%q, %wo) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [2, 3], rhs_contracting_dimensions = [0, 1]>}> : (tensor<4x8x4x8xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
  "func.return"(%q, %o) : (tensor<4x8x4x8xf32>, tensor<4x8x32xf32>) -> ()
}) : () -> ()
// CHECK-LABEL: func.func @dense_general(
// CHECK-NEXT:    %[[WQ:.*]] = dist.reshape %arg1 : (tensor<32x4x8xf32>) -> tensor<32x32xf32>
// CHECK-NEXT:    %[[P:.*]] = dist.matmul %arg0, %[[WQ]] : (tensor<4x8x32xf32>, tensor<32x32xf32>) -> tensor<4x8x32xf32>
// CHECK-NEXT:    %[[Q:.*]] = dist.reshape %[[P]] : (tensor<4x8x32xf32>) -> tensor<4x8x4x8xf32>
// CHECK-NEXT:    %[[WO:.*]] = dist.reshape %arg2 : (tensor<4x8x32xf32>) -> tensor<32x32xf32>
// CHECK-NEXT:    %[[O:.*]] = dist.matmul %[[P]], %[[WO]] : (tensor<4x8x32xf32>, tensor<32x32xf32>) -> tensor<4x8x32xf32>
// CHECK-NEXT:    return %[[Q]], %[[O]]

// -----

// A gather of one slice at a constant index (x[:, 0], as optax picks a
// column) is a dist.slice; is_finite (logsumexp's test of its maximum).
"func.func"() <{function_type = (tensor<8x3xf32>) -> (tensor<8xf32>, tensor<8x3xi1>), sym_name = "column"}> ({
^bb0(%x: tensor<8x3xf32>):
  %i = "stablehlo.constant"() <{value = dense<1> : tensor<1xi32>}> : () -> tensor<1xi32>
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [1], start_index_map = [1]>, indices_are_sorted = false, slice_sizes = array<i64: 8, 1>}> : (tensor<8x3xf32>, tensor<1xi32>) -> tensor<8xf32>
  %1 = "stablehlo.is_finite"(%x) : (tensor<8x3xf32>) -> tensor<8x3xi1>
  "func.return"(%0, %1) : (tensor<8xf32>, tensor<8x3xi1>) -> ()
}) : () -> ()
// CHECK-LABEL: func.func @column(
// CHECK-NEXT:    %[[S:.*]] = dist.slice %arg0 {offsets = array<i64: 0, 1>, sizes = array<i64: 8, 1>} : (tensor<8x3xf32>) -> tensor<8x1xf32>
// CHECK-NEXT:    %[[C:.*]] = dist.reshape %[[S]] : (tensor<8x1xf32>) -> tensor<8xf32>
// CHECK-NEXT:    %[[F:.*]] = dist.is_finite %arg0 : (tensor<8x3xf32>) -> tensor<8x3xi1>
// CHECK-NEXT:    return %[[C]], %[[F]]

// -----

// A causal mask filled with finfo.min equals dist.causal_mask's -inf fill
// only through a softmax: returned as it is, it stays the select it is.
"func.func"() <{function_type = (tensor<4x4xf32>) -> tensor<4x4xf32>, sym_name = "finite_mask"}> ({
^bb0(%s: tensor<4x4xf32>):
  %r = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<4x4xi32>
  %c = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<4x4xi32>
  %p = "stablehlo.compare"(%r, %c) <{comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<4x4xi32>, tensor<4x4xi32>) -> tensor<4x4xi1>
  %low = "stablehlo.constant"() <{value = dense<-3.40282347E+38> : tensor<4x4xf32>}> : () -> tensor<4x4xf32>
  %0 = "stablehlo.select"(%p, %s, %low) : (tensor<4x4xi1>, tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  "func.return"(%0) : (tensor<4x4xf32>) -> ()
}) : () -> ()
// CHECK-LABEL: func.func @finite_mask(
// CHECK-NOT:     dist.causal_mask
// CHECK:         %[[P:.*]] = dist.compare %{{.*}}, %{{.*}} {direction = "ge"}
// CHECK:         %[[M:.*]] = dist.select %[[P]], %arg0, %{{.*}} : (tensor<4x4xi1>, tensor<4x4xf32>, tensor<f32>) -> tensor<4x4xf32>
// CHECK-NEXT:    return %[[M]]

// -----

// torch-mlir's spellings: a scalar literal as arith.constant, a
// dynamic_iota of a static shape, the label shift (pad by -100, slice),
// a concatenation, reductions of booleans (and from true) and integers.
"func.func"() <{function_type = (tensor<4x8xi64>, tensor<4x8xf32>) -> (tensor<4x8xi64>, tensor<4x16xf32>, tensor<4xi1>, tensor<i64>, tensor<8xi64>), sym_name = "torch_ops"}> ({
^bb0(%labels: tensor<4x8xi64>, %x: tensor<4x8xf32>):
  %c = "arith.constant"() <{value = dense<-1.000000e+02> : tensor<1xf64>}> : () -> tensor<1xf64>
  %ci = "stablehlo.convert"(%c) : (tensor<1xf64>) -> tensor<1xi64>
  %fill = "stablehlo.reshape"(%ci) : (tensor<1xi64>) -> tensor<i64>
  %padded = "stablehlo.pad"(%labels, %fill) <{edge_padding_high = array<i64: 0, 1>, edge_padding_low = array<i64: 0, 0>, interior_padding = array<i64: 0, 0>}> : (tensor<4x8xi64>, tensor<i64>) -> tensor<4x9xi64>
  %shifted = "stablehlo.slice"(%padded) <{limit_indices = array<i64: 4, 9>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 1>}> : (tensor<4x9xi64>) -> tensor<4x8xi64>
  %both = "stablehlo.concatenate"(%x, %x) <{dimension = 1 : i64}> : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x16xf32>
  %ninf = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<4x8xf32>}> : () -> tensor<4x8xf32>
  %masked = "stablehlo.compare"(%x, %ninf) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
  %true = "stablehlo.constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
  %all = "stablehlo.reduce"(%masked, %true) <{dimensions = array<i64: 1>}> ({
  ^bb0(%a: tensor<i1>, %b: tensor<i1>):
    %r = "stablehlo.and"(%a, %b) : (tensor<i1>, tensor<i1>) -> tensor<i1>
    "stablehlo.return"(%r) : (tensor<i1>) -> ()
  }) : (tensor<4x8xi1>, tensor<i1>) -> tensor<4xi1>
  %zero = "stablehlo.constant"() <{value = dense<0> : tensor<i64>}> : () -> tensor<i64>
  %count = "stablehlo.reduce"(%labels, %zero) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%a: tensor<i64>, %b: tensor<i64>):
    %r = "stablehlo.add"(%a, %b) : (tensor<i64>, tensor<i64>) -> tensor<i64>
    "stablehlo.return"(%r) : (tensor<i64>) -> ()
  }) : (tensor<4x8xi64>, tensor<i64>) -> tensor<i64>
  %n = "stablehlo.constant"() <{value = dense<8> : tensor<1xi64>}> : () -> tensor<1xi64>
  %positions = "stablehlo.dynamic_iota"(%n) <{iota_dimension = 0 : i64}> : (tensor<1xi64>) -> tensor<8xi64>
  "func.return"(%shifted, %both, %all, %count, %positions) : (tensor<4x8xi64>, tensor<4x16xf32>, tensor<4xi1>, tensor<i64>, tensor<8xi64>) -> ()
}) : () -> ()
// CHECK-LABEL: func.func @torch_ops(
// CHECK-NEXT:    %[[C:.*]] = arith.constant dense<-1.000000e+02> : tensor<f64>
// CHECK-NEXT:    %[[FILL:.*]] = dist.cast %[[C]] : (tensor<f64>) -> tensor<i64>
// CHECK-NEXT:    %[[ZEROS:.*]] = arith.constant dense<0> : tensor<4x1xi64>
// CHECK-NEXT:    %[[EDGE:.*]] = dist.add %[[FILL]], %[[ZEROS]] : (tensor<i64>, tensor<4x1xi64>) -> tensor<4x1xi64>
// CHECK-NEXT:    %[[PAD:.*]] = dist.concat %arg0, %[[EDGE]] {dim = 1 : i64} : (tensor<4x8xi64>, tensor<4x1xi64>) -> tensor<4x9xi64>
// CHECK-NEXT:    %[[SHIFT:.*]] = dist.slice %[[PAD]] {offsets = array<i64: 0, 1>, sizes = array<i64: 4, 8>} : (tensor<4x9xi64>) -> tensor<4x8xi64>
// CHECK-NEXT:    %[[BOTH:.*]] = dist.concat %arg1, %arg1 {dim = 1 : i64} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:    %[[NINF:.*]] = arith.constant dense<0xFF800000> : tensor<f32>
// CHECK-NEXT:    %[[EQ:.*]] = dist.compare %arg1, %[[NINF]] {direction = "eq"}
// CHECK-NEXT:    %[[ALL:.*]] = dist.reduce_min %[[EQ]] {dims = array<i64: 1>} : (tensor<4x8xi1>) -> tensor<4xi1>
// CHECK-NEXT:    %[[COUNT:.*]] = dist.reduce_sum %arg0 {dims = array<i64: 0, 1>} : (tensor<4x8xi64>) -> tensor<i64>
// CHECK-NEXT:    %[[POS:.*]] = dist.iota {dim = 0 : i64} : () -> tensor<8xi64>
// CHECK-NEXT:    return %[[SHIFT]], %[[BOTH]], %[[ALL]], %[[COUNT]], %[[POS]]

// -----

// torch's gather of nll_loss: each position's index vector spells its
// row (an iota) then its label: dist.take_along.
"func.func"() <{function_type = (tensor<32x64xf32>, tensor<32xi64>) -> tensor<32x1xf32>, sym_name = "torch_gather"}> ({
^bb0(%logp: tensor<32x64xf32>, %labels: tensor<32xi64>):
  %l = "stablehlo.reshape"(%labels) : (tensor<32xi64>) -> tensor<32x1x1xi64>
  %rows = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<32x1x1xi64>
  %index = "stablehlo.concatenate"(%rows, %l) <{dimension = 2 : i64}> : (tensor<32x1x1xi64>, tensor<32x1x1xi64>) -> tensor<32x1x2xi64>
  %0 = "stablehlo.gather"(%logp, %index) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1>}> : (tensor<32x64xf32>, tensor<32x1x2xi64>) -> tensor<32x1xf32>
  "func.return"(%0) : (tensor<32x1xf32>) -> ()
}) : () -> ()
// CHECK-LABEL: func.func @torch_gather(
// CHECK-NEXT:    %[[PICK:.*]] = dist.take_along %arg0, %arg1 : (tensor<32x64xf32>, tensor<32xi64>) -> tensor<32xf32>
// CHECK-NEXT:    %[[OUT:.*]] = dist.reshape %[[PICK]] : (tensor<32xf32>) -> tensor<32x1xf32>
// CHECK-NEXT:    return %[[OUT]]

// -----

// torch's bmm of [batch * heads, s, d] operands reshaped from
// [batch, heads, s, d] (GQA's values from [batch, kv_heads, groups, s, d]):
// one product over the dims before the merge.
"func.func"() <{function_type = (tensor<4x4x8x8xf32>, tensor<4x2x2x8x8xf32>) -> tensor<4x4x8x8xf32>, sym_name = "torch_bmm"}> ({
^bb0(%p: tensor<4x4x8x8xf32>, %v: tensor<4x2x2x8x8xf32>):
  %0 = "stablehlo.reshape"(%p) : (tensor<4x4x8x8xf32>) -> tensor<16x8x8xf32>
  %1 = "stablehlo.reshape"(%v) : (tensor<4x2x2x8x8xf32>) -> tensor<16x8x8xf32>
  %2 = "stablehlo.dot_general"(%0, %1) <{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>}> : (tensor<16x8x8xf32>, tensor<16x8x8xf32>) -> tensor<16x8x8xf32>
  %3 = "stablehlo.reshape"(%2) : (tensor<16x8x8xf32>) -> tensor<4x4x8x8xf32>
  "func.return"(%3) : (tensor<4x4x8x8xf32>) -> ()
}) : () -> ()
// CHECK-LABEL: func.func @torch_bmm(
// CHECK-NEXT:    %[[V:.*]] = dist.reshape %arg1 : (tensor<4x2x2x8x8xf32>) -> tensor<4x4x8x8xf32>
// CHECK-NEXT:    %[[O:.*]] = dist.matmul %arg0, %[[V]] : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
// CHECK-NEXT:    return %[[O]]

// -----

// Hugging Face's LlamaRMSNorm as torch-mlir writes it (x^2 a power of a
// converted literal): dist.rms_norm.
"func.func"() <{function_type = (tensor<4x8x32xf32>, tensor<32xf32>) -> tensor<4x8x32xf32>, sym_name = "rms_norm"}> ({
^bb0(%x: tensor<4x8x32xf32>, %w: tensor<32xf32>):
  %two = "arith.constant"() <{value = dense<2> : tensor<1xi64>}> : () -> tensor<1xi64>
  %twof = "stablehlo.convert"(%two) : (tensor<1xi64>) -> tensor<1xf32>
  %t = "stablehlo.reshape"(%twof) : (tensor<1xf32>) -> tensor<f32>
  %tb = "stablehlo.broadcast_in_dim"(%t) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x8x32xf32>
  %sq = "stablehlo.power"(%x, %tb) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
  %zero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %sum = "stablehlo.reduce"(%sq, %zero) <{dimensions = array<i64: 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %r = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%r) : (tensor<f32>) -> ()
  }) : (tensor<4x8x32xf32>, tensor<f32>) -> tensor<4x8xf32>
  %kept = "stablehlo.reshape"(%sum) : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
  %n = "stablehlo.constant"() <{value = dense<3.200000e+01> : tensor<4x8x1xf32>}> : () -> tensor<4x8x1xf32>
  %mean = "stablehlo.divide"(%kept, %n) : (tensor<4x8x1xf32>, tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
  %eps = "arith.constant"() <{value = dense<9.9999999999999995E-7> : tensor<1xf64>}> : () -> tensor<1xf64>
  %epsf = "stablehlo.convert"(%eps) : (tensor<1xf64>) -> tensor<1xf32>
  %e = "stablehlo.reshape"(%epsf) : (tensor<1xf32>) -> tensor<f32>
  %eb = "stablehlo.broadcast_in_dim"(%e) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x8x1xf32>
  %v = "stablehlo.add"(%mean, %eb) : (tensor<4x8x1xf32>, tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
  %r = "stablehlo.rsqrt"(%v) : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
  %rb = "stablehlo.broadcast_in_dim"(%r) <{broadcast_dimensions = array<i64: 0, 1, 2>}> : (tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
  %normed = "stablehlo.multiply"(%x, %rb) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
  %wb = "stablehlo.broadcast_in_dim"(%w) <{broadcast_dimensions = array<i64: 2>}> : (tensor<32xf32>) -> tensor<4x8x32xf32>
  %y = "stablehlo.multiply"(%wb, %normed) : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
  "func.return"(%y) : (tensor<4x8x32xf32>) -> ()
}) : () -> ()
// CHECK-LABEL: func.func @rms_norm(
// CHECK-NEXT:    %[[Y:.*]], %{{.*}} = dist.rms_norm %arg0, %arg1 {begin_norm_axis = 2 : i64, epsilon = 9.99999997E-7 : f32} : (tensor<4x8x32xf32>, tensor<32xf32>) -> (tensor<4x8x32xf32>, tensor<4x8xf32>)
// CHECK-NEXT:    return %[[Y]]

// -----

// clamp (torch-mlir's erf clamps its rational function to [-1, 1]) as
// jnp.clip computes it.
"func.func"() <{function_type = (tensor<8xf32>) -> tensor<8xf32>, sym_name = "clamp"}> ({
^bb0(%x: tensor<8xf32>):
  %lo = "stablehlo.constant"() <{value = dense<-1.000000e+00> : tensor<8xf32>}> : () -> tensor<8xf32>
  %hi = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %0 = "stablehlo.clamp"(%lo, %x, %hi) : (tensor<8xf32>, tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  "func.return"(%0) : (tensor<8xf32>) -> ()
}) : () -> ()
// CHECK-LABEL: func.func @clamp(
// CHECK-NEXT:    %[[LO:.*]] = arith.constant dense<-1.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[HI:.*]] = arith.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[UP:.*]] = dist.maximum %arg0, %[[LO]] : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
// CHECK-NEXT:    %[[OUT:.*]] = dist.minimum %[[UP]], %[[HI]] : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
// CHECK-NEXT:    return %[[OUT]]

// -----

// PyTorch's backward of nll_loss writes each position's value into zeros
// at (row, label): dist.take_along_grad.
"func.func"() <{function_type = (tensor<8xi64>, tensor<8x1xf32>) -> tensor<8x10xf32>, sym_name = "scatter_write"}> ({
^bb0(%labels: tensor<8xi64>, %u: tensor<8x1xf32>):
  %zeros = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<8x10xf32>}> : () -> tensor<8x10xf32>
  %l = "stablehlo.reshape"(%labels) : (tensor<8xi64>) -> tensor<8x1x1xi64>
  %rows = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<8x1x1xi64>
  %index = "stablehlo.concatenate"(%rows, %l) <{dimension = 2 : i64}> : (tensor<8x1x1xi64>, tensor<8x1x1xi64>) -> tensor<8x1x2xi64>
  %0 = "stablehlo.scatter"(%zeros, %index, %u) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 2>, unique_indices = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    "stablehlo.return"(%b) : (tensor<f32>) -> ()
  }) : (tensor<8x10xf32>, tensor<8x1x2xi64>, tensor<8x1xf32>) -> tensor<8x10xf32>
  "func.return"(%0) : (tensor<8x10xf32>) -> ()
}) : () -> ()
// CHECK-LABEL: func.func @scatter_write(
// CHECK-NEXT:    %[[U:.*]] = dist.reshape %arg1 : (tensor<8x1xf32>) -> tensor<8xf32>
// CHECK-NEXT:    %[[G:.*]] = dist.take_along_grad %arg0, %[[U]] : (tensor<8xi64>, tensor<8xf32>) -> tensor<8x10xf32>
// CHECK-NEXT:    return %[[G]]

// -----

// jnp.cumsum (an add from 0 over a window of the dim's length padded
// before by one less) and lax.cumsum(reverse=True) (padded after), of
// floats and of integers: dist.cumsum.
"func.func"() <{function_type = (tensor<4x8xf32>, tensor<8x3xi32>) -> (tensor<4x8xf32>, tensor<8x3xi32>), sym_name = "cumsum"}> ({
^bb0(%x: tensor<4x8xf32>, %i: tensor<8x3xi32>):
  %zero = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %0 = "stablehlo.reduce_window"(%x, %zero) <{base_dilations = array<i64: 1, 1>, padding = dense<[[0, 0], [0, 7]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 1, 8>, window_strides = array<i64: 1, 1>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %izero = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %1 = "stablehlo.reduce_window"(%i, %izero) <{base_dilations = array<i64: 1, 1>, padding = dense<[[7, 0], [0, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 8, 1>, window_strides = array<i64: 1, 1>}> ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    "stablehlo.return"(%s) : (tensor<i32>) -> ()
  }) : (tensor<8x3xi32>, tensor<i32>) -> tensor<8x3xi32>
  "func.return"(%0, %1) : (tensor<4x8xf32>, tensor<8x3xi32>) -> ()
}) : () -> ()
// CHECK-LABEL: func.func @cumsum(
// CHECK-NEXT:    %[[F:.*]] = dist.cumsum %arg0 {dim = 1 : i64, reverse} : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    %[[I:.*]] = dist.cumsum %arg1 {dim = 0 : i64} : (tensor<8x3xi32>) -> tensor<8x3xi32>
// CHECK-NEXT:    return %[[F]], %[[I]]

// -----

// remainder of floats and of integers (torch.fmod; jnp.remainder adds
// the divisor to it where the signs differ).
"func.func"() <{function_type = (tensor<8xf32>, tensor<8xi64>) -> (tensor<8xf32>, tensor<8xi64>), sym_name = "remainder"}> ({
^bb0(%x: tensor<8xf32>, %i: tensor<8xi64>):
  %y = "stablehlo.constant"() <{value = dense<1.500000e+00> : tensor<8xf32>}> : () -> tensor<8xf32>
  %0 = "stablehlo.remainder"(%x, %y) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %n = "stablehlo.constant"() <{value = dense<3> : tensor<8xi64>}> : () -> tensor<8xi64>
  %1 = "stablehlo.remainder"(%i, %n) : (tensor<8xi64>, tensor<8xi64>) -> tensor<8xi64>
  "func.return"(%0, %1) : (tensor<8xf32>, tensor<8xi64>) -> ()
}) : () -> ()
// CHECK-LABEL: func.func @remainder(
// CHECK-NEXT:    %[[Y:.*]] = arith.constant dense<1.500000e+00> : tensor<f32>
// CHECK-NEXT:    %[[F:.*]] = dist.rem %arg0, %[[Y]] : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
// CHECK-NEXT:    %[[N:.*]] = arith.constant dense<3> : tensor<i64>
// CHECK-NEXT:    %[[I:.*]] = dist.rem %arg1, %[[N]] : (tensor<8xi64>, tensor<i64>) -> tensor<8xi64>
// CHECK-NEXT:    return %[[F]], %[[I]]

// -----

// log_plus_one (jax.nn.softplus, optax's sigmoid_binary_cross_entropy) and
// exponential_minus_one (jax.nn.elu): dist.log1p and dist.expm1.
"func.func"() <{function_type = (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>), sym_name = "log1p_expm1"}> ({
^bb0(%x: tensor<8xf32>):
  %0 = "stablehlo.log_plus_one"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = "stablehlo.exponential_minus_one"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  "func.return"(%0, %1) : (tensor<8xf32>, tensor<8xf32>) -> ()
}) : () -> ()
// CHECK-LABEL: func.func @log1p_expm1(
// CHECK-NEXT:    %[[L:.*]] = dist.log1p %arg0 : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:    %[[E:.*]] = dist.expm1 %arg0 : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:    return %[[L]], %[[E]]

// -----

// torch.argmax as torch-mlir writes it (the first of equal values by a
// minimum of indices), a strided slice (x[:, 1::3]) and interior padding
// (a strided slice's gradient in JAX's backward): each a few plain ops.
func.func @compounds(%x: tensor<4x8xf32>, %v: tensor<f32>) -> (tensor<4xi64>, tensor<4x3xf32>, tensor<4x15xf32>) {
  %ids = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<4x8xi64>
  %ninf = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
  %zero = "stablehlo.constant"() <{value = dense<0> : tensor<i64>}> : () -> tensor<i64>
  %0:2 = "stablehlo.reduce"(%x, %ids, %ninf, %zero) <{dimensions = array<i64: 1>}> ({
  ^bb0(%a: tensor<f32>, %ai: tensor<i64>, %b: tensor<f32>, %bi: tensor<i64>):
    %ge = "stablehlo.compare"(%a, %b) <{comparison_direction = #stablehlo<comparison_direction GE>, compare_type = #stablehlo<comparison_type FLOAT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %v1 = "stablehlo.select"(%ge, %a, %b) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %eq = "stablehlo.compare"(%a, %b) <{comparison_direction = #stablehlo<comparison_direction EQ>, compare_type = #stablehlo<comparison_type FLOAT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %lo = "stablehlo.minimum"(%ai, %bi) : (tensor<i64>, tensor<i64>) -> tensor<i64>
    %i = "stablehlo.select"(%ge, %ai, %bi) : (tensor<i1>, tensor<i64>, tensor<i64>) -> tensor<i64>
    %j = "stablehlo.select"(%eq, %lo, %i) : (tensor<i1>, tensor<i64>, tensor<i64>) -> tensor<i64>
    "stablehlo.return"(%v1, %j) : (tensor<f32>, tensor<i64>) -> ()
  }) : (tensor<4x8xf32>, tensor<4x8xi64>, tensor<f32>, tensor<i64>) -> (tensor<4xf32>, tensor<4xi64>)
  %1 = "stablehlo.slice"(%x) <{start_indices = array<i64: 0, 1>, limit_indices = array<i64: 4, 8>, strides = array<i64: 1, 3>}> : (tensor<4x8xf32>) -> tensor<4x3xf32>
  %2 = "stablehlo.pad"(%x, %v) <{edge_padding_low = array<i64: 0, 1>, edge_padding_high = array<i64: 0, -1>, interior_padding = array<i64: 0, 1>}> : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x15xf32>
  "func.return"(%0#1, %1, %2) : (tensor<4xi64>, tensor<4x3xf32>, tensor<4x15xf32>) -> ()
}
// CHECK-LABEL: func.func @compounds(
// CHECK-NEXT:    %[[IDS:.*]] = dist.iota {dim = 1 : i64} : () -> tensor<4x8xi64>
// CHECK-NEXT:    %[[MAX:.*]] = dist.reduce_max %arg0 {dims = array<i64: 1>}
// CHECK-NEXT:    %[[COL:.*]] = dist.reshape %[[MAX]] : (tensor<4xf32>) -> tensor<4x1xf32>
// CHECK-NEXT:    %[[EQ:.*]] = dist.compare %arg0, %[[COL]] {direction = "eq"}
// CHECK-NEXT:    %[[NAN:.*]] = dist.compare %arg0, %arg0 {direction = "ne"}
// CHECK-NEXT:    %[[HIT:.*]] = dist.or %[[EQ]], %[[NAN]]
// CHECK-NEXT:    %[[NONE:.*]] = arith.constant dense<9223372036854775807> : tensor<i64>
// CHECK-NEXT:    %[[CAND:.*]] = dist.select %[[HIT]], %[[IDS]], %[[NONE]]
// CHECK-NEXT:    %[[ARG:.*]] = dist.reduce_min %[[CAND]] {dims = array<i64: 1>} : (tensor<4x8xi64>) -> tensor<4xi64>
// CHECK-NEXT:    %[[UNIT:.*]] = dist.slice %arg0 {offsets = array<i64: 0, 1>, sizes = array<i64: 4, 7>}
// CHECK:         %[[PADDED:.*]] = dist.concat %[[UNIT]], %{{.*}} {dim = 1 : i64} : (tensor<4x7xf32>, tensor<4x2xf32>) -> tensor<4x9xf32>
// CHECK-NEXT:    %[[ROWS:.*]] = dist.reshape %[[PADDED]] : (tensor<4x9xf32>) -> tensor<4x3x3xf32>
// CHECK-NEXT:    %[[FIRST:.*]] = dist.slice %[[ROWS]] {offsets = array<i64: 0, 0, 0>, sizes = array<i64: 4, 3, 1>}
// CHECK-NEXT:    %[[STRIDED:.*]] = dist.reshape %[[FIRST]] : (tensor<4x3x1xf32>) -> tensor<4x3xf32>
// CHECK-NEXT:    %[[COLUMN:.*]] = dist.reshape %arg0 : (tensor<4x8xf32>) -> tensor<4x8x1xf32>
// CHECK:         %[[PAIRS:.*]] = dist.concat %[[COLUMN]], %{{.*}} {dim = 2 : i64} : (tensor<4x8x1xf32>, tensor<4x8x1xf32>) -> tensor<4x8x2xf32>
// CHECK-NEXT:    %[[SPREAD:.*]] = dist.reshape %[[PAIRS]] : (tensor<4x8x2xf32>) -> tensor<4x16xf32>
// CHECK-NEXT:    %[[CUT:.*]] = dist.slice %[[SPREAD]] {offsets = array<i64: 0, 0>, sizes = array<i64: 4, 15>}
// CHECK-NEXT:    %[[CROPPED:.*]] = dist.slice %[[CUT]] {offsets = array<i64: 0, 0>, sizes = array<i64: 4, 14>}
// CHECK:         %[[EDGED:.*]] = dist.concat %{{.*}}, %[[CROPPED]] {dim = 1 : i64} : (tensor<4x1xf32>, tensor<4x14xf32>) -> tensor<4x15xf32>
// CHECK-NEXT:    return %[[ARG]], %[[STRIDED]], %[[EDGED]]

// -----

// chlo.atan is dist.atan; tan is a sine over a cosine, and is_inf a
// comparison of |x| with the largest finite value.
"func.func"() <{function_type = (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xi1>), sym_name = "chlo_functions"}> ({
^bb0(%x: tensor<8xf32>):
  %0 = "chlo.atan"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %1 = "stablehlo.tan"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %2 = "chlo.is_inf"(%x) : (tensor<8xf32>) -> tensor<8xi1>
  "func.return"(%0, %1, %2) : (tensor<8xf32>, tensor<8xf32>, tensor<8xi1>) -> ()
}) : () -> ()
// CHECK-LABEL: func.func @chlo_functions(
// CHECK-NEXT:    %[[A:.*]] = dist.atan %arg0 : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT:    %[[S:.*]] = dist.sin %arg0
// CHECK-NEXT:    %[[C:.*]] = dist.cos %arg0
// CHECK-NEXT:    %[[T:.*]] = dist.div %[[S]], %[[C]]
// CHECK-NEXT:    %[[ABS:.*]] = dist.abs %arg0
// CHECK-NEXT:    %[[MAX:.*]] = arith.constant dense<3.40282347E+38> : tensor<f32>
// CHECK-NEXT:    %[[INF:.*]] = dist.compare %[[ABS]], %[[MAX]] {direction = "gt"}
// CHECK-NEXT:    return %[[A]], %[[T]], %[[INF]]

// -----

// lax.top_k is dist.top_k; a sharding constraint on its indices applies to
// both results (they have one shape); a scatter that adds k updates a row
// at the indices (its backward), into a tensor that is not zeros, is
// dist.top_k_grad added to that tensor.
"sdy.mesh"() <{mesh = #sdy.mesh<["dp"=2]>, sym_name = "mesh"}> : () -> ()
"func.func"() <{function_type = (tensor<8x4xf32>, tensor<8x2xf32>, tensor<8x4xf32>) -> (tensor<8x2xi32>, tensor<8x4xf32>), sym_name = "top_k"}> ({
^bb0(%x: tensor<8x4xf32>, %u: tensor<8x2xf32>, %base: tensor<8x4xf32>):
  %values, %indices = "chlo.top_k"(%x) <{k = 2 : i64}> : (tensor<8x4xf32>) -> (tensor<8x2xf32>, tensor<8x2xi32>)
  %0 = "sdy.sharding_constraint"(%indices) <{sharding = #sdy.sharding<@mesh, [{"dp"}, {}]>}> : (tensor<8x2xi32>) -> tensor<8x2xi32>
  %1 = "stablehlo.reshape"(%0) : (tensor<8x2xi32>) -> tensor<8x2x1xi32>
  %2 = "stablehlo.scatter"(%base, %1, %u) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>, unique_indices = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) : (tensor<8x4xf32>, tensor<8x2x1xi32>, tensor<8x2xf32>) -> tensor<8x4xf32>
  "func.return"(%0, %2) : (tensor<8x2xi32>, tensor<8x4xf32>) -> ()
}) : () -> ()
// CHECK-LABEL: func.func @top_k(
// CHECK-NEXT:    %[[V:.*]], %[[I:.*]] = dist.top_k %arg0 {dist.sharding = [#dist.sharding<@mesh, [{"dp"}, {}]>, #dist.sharding<@mesh, [{"dp"}, {}]>], k = 2 : i64} : (tensor<8x4xf32>) -> (tensor<8x2xf32>, tensor<8x2xi32>)
// CHECK-NEXT:    %[[DX:.*]] = dist.top_k_grad %[[I]], %arg1 : (tensor<8x2xi32>, tensor<8x2xf32>) -> tensor<8x4xf32>
// CHECK-NEXT:    %[[SUM:.*]] = dist.add %arg2, %[[DX]]
// CHECK-NEXT:    return %[[I]], %[[SUM]]
