// RUN: dist-opt %s --split-input-file --verify-diagnostics --convert-dist-to-runtime
// Every error of the runtime lowering on IR that verifies, one case per chunk.

// The runtime reduces f32, f64 and bf16 buffers, not f16 ones.
dist.mesh @mesh = <["x"=2]>
func.func @f16(%x: tensor<8xf16>) -> tensor<8xf16> {
  // expected-error @below {{'dist.all_reduce' in the runtime takes f32, f64 or bf16 tensors, not f16}}
  %r = dist.all_reduce %x on @mesh axes = ["x"] kind = sum : tensor<8xf16> -> tensor<8xf16>
  return %r : tensor<8xf16>
}

// -----

// Integers (token ids) are gathered and exchanged, never reduced.
dist.mesh @mesh = <["x"=2]>
func.func @integer_reduce(%x: tensor<8xi64>) -> tensor<4xi64> {
  // expected-error @below {{'dist.reduce_scatter' in the runtime takes f32, f64 or bf16 tensors, not i64}}
  %r = dist.reduce_scatter %x on @mesh axes = ["x"] dim = 0 kind = sum : tensor<8xi64> -> tensor<4xi64>
  return %r : tensor<4xi64>
}

// -----

// Nor does it move 16-bit integers.
dist.mesh @mesh = <["x"=2]>
func.func @i16_gather(%x: tensor<4xi16>) -> tensor<8xi16> {
  // expected-error @below {{'dist.all_gather' in the runtime takes f32, f64, bf16, i32, i64 or i1 tensors, not i16}}
  %r = dist.all_gather %x on @mesh axes = ["x"] dim = 0 : tensor<4xi16> -> tensor<8xi16>
  return %r : tensor<8xi16>
}

// -----

// An async start is lowered together with the dist.wait that reads its
// handle: one nobody waits on has no wait to complete its request.
dist.mesh @mesh = <["x"=2]>
func.func @start_without_wait(%x: tensor<8xf32>) {
  // expected-error @below {{an async start without its dist.wait}}
  %h = dist.all_reduce_start %x on @mesh axes = ["x"] kind = sum : tensor<8xf32> -> !dist.handle<tensor<8xf32>>
  return
}

// -----

// A coalesced all_reduce is one runtime call on one buffer type: the
// element types of its operands must agree.
dist.mesh @mesh = <["x"=2]>
func.func @mixed_coalesced(%a: tensor<8xf32>, %b: tensor<4xf64>) -> (tensor<8xf32>, tensor<4xf64>) {
  // expected-error @below {{'dist.all_reduce_coalesced' becomes one runtime call over one element type; it mixes f32 and f64}}
  %r:2 = dist.all_reduce_coalesced %a, %b on @mesh axes = ["x"] kind = sum : (tensor<8xf32>, tensor<4xf64>) -> (tensor<8xf32>, tensor<4xf64>)
  return %r#0, %r#1 : tensor<8xf32>, tensor<4xf64>
}
