// Malformed input is a diagnostic and a non-zero exit, never a crash.
// RUN: not dist-opt %s --split-input-file 2>&1 | FileCheck %s
// RUN: dist-opt %s --split-input-file --verify-diagnostics

// CHECK: malformed.mlir:[[# @LINE + 2]]:20: error:
// expected-error@+1 {{expected '['}}
dist.mesh @mesh = <"x"=2>

// -----

// CHECK: malformed.mlir:[[# @LINE + 3]]:58: error:
func.func @f(
  // expected-error@+1 {{expected '{'}}
  %x: tensor<4xf32> {dist.sharding = #dist.sharding<@m, ["x"]>}) {
  return
}

// -----

// CHECK: malformed.mlir:[[# @LINE + 2]]:1: error:
// expected-error@+1 {{custom op 'dist.nonsense' is unknown}}
dist.nonsense

// -----

// CHECK: malformed.mlir:[[# @LINE + 2]]:34: error:
// expected-error@+1 {{expected operation name in quotes}}
func.func @g(%x: tensor<4xf32>) {{{

// -----

// A forward reference to result 2^31 - 1: MLIR's parser would reserve an
// entry for every lower result (32 GiB) and abort; it is refused first. A
// `%v#N` in a comment or a string is not a use.
// CHECK: malformed.mlir:[[# @LINE + 5]]:23: error: result number 2147483647 of %w is above 1048576
func.func @huge_result_number(%a: f32) -> f32 {
  // %w#99999999999 is only a comment.
  %s = arith.constant {note = "%w#99999999999"} 1.0 : f32
  // expected-error@+1 {{result number 2147483647 of %w is above 1048576, the most an op may have here}}
  %u = arith.addf %a, %w#2147483647 : f32
  %w:2 = "test.pair"() : () -> (f32, f32)
  return %u : f32
}

// -----

// linalg.generic's parser reads every iterator_types entry as a string
// unchecked (MLIR 22): anything else is refused before it runs.
// CHECK: malformed.mlir:[[# @LINE + 4]]:82: error: iterator_types entries are "parallel", "reduction" or "window" (or #linalg.iterator_type), not '4'
#id = affine_map<(d0) -> (d0)>
func.func @bad_iterators(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{iterator_types entries are "parallel", "reduction" or "window" (or #linalg.iterator_type), not '4'}}
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", 4]} ins(%x : tensor<4xf32>) outs(%x : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// The lexer skips spaces and comments between a value and its result
// number, so the guard does too.
// CHECK: malformed.mlir:[[# @LINE + 3]]:23: error: result number 2147483647 of %w is above 1048576
func.func @spaced_result_number(%a: f32) -> f32 {
  // expected-error@+1 {{result number 2147483647 of %w is above 1048576}}
  %u = arith.addf %a, %w #2147483647 : f32
  return %u : f32
}

// -----

// A quoted key is the same attribute.
// CHECK: malformed.mlir:[[# @LINE + 4]]:84: error: iterator_types entries
#id = affine_map<(d0) -> (d0)>
func.func @quoted_iterators(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{iterator_types entries are "parallel", "reduction" or "window" (or #linalg.iterator_type), not '4'}}
  %r = linalg.generic {indexing_maps = [#id, #id], "iterator_types" = ["parallel", 4]} ins(%x : tensor<4xf32>) outs(%x : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// MLIR 22's parser asks `index` for its bit width in a dense array, and
// crashes.
// CHECK: malformed.mlir:[[# @LINE + 3]]:34: error: dense arrays of index are not supported (give i64 elements)
func.func @index_array(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  // expected-error@+1 {{dense arrays of index are not supported (give i64 elements)}}
  %0 = dist.transpose %x {perm = array<index: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// `index-` is the keyword `index`, then `-` (found by dist-fuzz).
func.func @index_array_dash(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  // expected-error@+1 {{dense arrays of index are not supported (give i64 elements)}}
  %0 = dist.transpose %x {perm = array<index- 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// A use of %a before a region nested below it defines %a (here as a block
// argument): invalid (the region's values are not visible outside), and
// MLIR 22's parser frees the definition under the use when the region then
// fails to parse (here: a second ^bb0).
// CHECK: malformed.mlir:[[# @LINE + 4]]:18: error: %a is used before its definition in a region nested below the use, which it cannot see
// CHECK: malformed.mlir:[[# @LINE + 7]]:8: note: defined here
func.func @nested_definition(%x: memref<8xf32>, %y: memref<8xf32>) {
  // expected-error@+1 {{%a is used before its definition in a region nested below the use}}
  %r = math.absf %a : f32
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : memref<8xf32>) outs(%y : memref<8xf32>) {
  // expected-note@+1 {{defined here}}
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  ^bb0(%c: f32):
  }
  return
}

// -----

// The same with an op's result defined in the nested region.
func.func @nested_result(%y: memref<8xf32>, %t: memref<4xf32>) {
  // expected-error@+1 {{%r is used before its definition in a region nested below the use, which it cannot see}}
  %u = math.absf %r : f32
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>], iterator_types = ["parallel"]} outs(%y : memref<8xf32>) {
  ^bb0(%b: f32):
    // expected-note@+1 {{defined here}}
    %r = arith.addf %b, %b : f32
    linalg.yield %r : f32
  ^bb0(%c: f32):
  }
  return
}

// -----

// A stray `}` ends the function after the use of %p; a later op's region
// defines %p: the same parser use-after-free, refused the same way.
func.func @stray_brace(%y: memref<8xf32>) {
  // expected-error@+1 {{%p is used before its definition in a region nested below the use, which it cannot see}}
  %e = math.exp %p : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>], iterator_types = ["parallel"]} outs(%y : memref<8xf32>) {
  // expected-note@+1 {{defined here}}
  ^bb0(%p: f32):
    linalg.yield %p : f32
  ^bb0(%q: f32):
  }
