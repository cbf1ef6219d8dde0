// RUN: dist-opt %s --split-input-file --verify-diagnostics --dist-append-backward
// Every failure of dist-append-backward, one case per chunk. (A
// dist.requires_grad on a non-float argument is the verifier's:
// test/Dialect/Dist/invalid.mlir.)

// The loss is the first result and must be a rank-0 float tensor.
// expected-error@+1 {{the first result of @f is the loss, which must be a rank-0 floating-point tensor, not 'tensor<8xf32>'}}
func.func @f(%x: tensor<8xf32> {dist.requires_grad}) -> tensor<8xf32> {
  %y = dist.relu %x : (tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// -----

// An integer scalar is no loss either.
// expected-error@+1 {{the first result of @f is the loss, which must be a rank-0 floating-point tensor, not 'tensor<i64>'}}
func.func @f(%x: tensor<8xf32> {dist.requires_grad}, %n: tensor<i64>) -> (tensor<i64>, tensor<8xf32>) {
  return %n, %x : tensor<i64>, tensor<8xf32>
}

// -----

// Nothing to differentiate without a result.
// expected-error@+1 {{@f has no result: its first result is the loss to differentiate}}
func.func @f(%x: tensor<8xf32> {dist.requires_grad}) {
  return
}

// -----

// A declaration has no program to differentiate.
// expected-error@+1 {{dist-append-backward needs a function body: @f is a declaration}}
func.func private @f(tensor<8xf32> {dist.requires_grad}) -> tensor<f32>

// -----

// A collective on the path has no gradient rule (differentiate the global
// view, before dist-resolve-partial makes collectives explicit).
dist.mesh @mesh = <["dp"=2]>
func.func @f(%x: tensor<8xf32> {dist.requires_grad}) -> tensor<f32> {
  // expected-error@+1 {{'dist.all_reduce' is on the path from a dist.requires_grad argument to the loss and has no gradient rule}}
  %r = dist.all_reduce %x on @mesh axes = ["dp"] kind = sum : tensor<8xf32> -> tensor<8xf32>
  %l = dist.reduce_sum %r {dims = array<i64: 0>} : (tensor<8xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// Nor has a gradient op (no second derivatives).
func.func @f(%x: tensor<8xf32> {dist.requires_grad}, %dy: tensor<8xf32>) -> tensor<f32> {
  // expected-error@+1 {{'dist.relu_grad' is on the path from a dist.requires_grad argument to the loss and has no gradient rule}}
  %g = dist.relu_grad %x, %dy : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %l = dist.reduce_sum %g {dims = array<i64: 0>} : (tensor<8xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// Nor an op of another dialect.
func.func @f(%x: tensor<8xf32> {dist.requires_grad}) -> tensor<f32> {
  // expected-error@+1 {{'tensor.extract_slice' is on the path from a dist.requires_grad argument to the loss and has no gradient rule}}
  %s = tensor.extract_slice %x[0] [4] [1] : tensor<8xf32> to tensor<4xf32>
  %l = dist.reduce_sum %s {dims = array<i64: 0>} : (tensor<4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// A region that reads a requested value from above puts its op on the
// path, though no operand names the value.
func.func @f(%x: tensor<8xf32> {dist.requires_grad}, %c: i1) -> tensor<f32> {
  // expected-error@+1 {{'scf.if' is on the path from a dist.requires_grad argument to the loss and has no gradient rule}}
  %r = scf.if %c -> tensor<8xf32> {
    scf.yield %x : tensor<8xf32>
  } else {
    %z = dist.relu %x : (tensor<8xf32>) -> tensor<8xf32>
    scf.yield %z : tensor<8xf32>
  }
  %l = dist.reduce_sum %r {dims = array<i64: 0>} : (tensor<8xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// layer_norm's gradient takes the gradient of its output only: a loss
// that reads its saved mean cannot be differentiated.
func.func @f(%x: tensor<2x8xf32> {dist.requires_grad}, %g: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<f32> {
  // expected-error@+1 {{result #1 of 'dist.layer_norm' is on the path to the loss, but the gradient of 'dist.layer_norm' takes only that of result #0}}
  %y, %mean, %rstd = dist.layer_norm %x, %g, %b {begin_norm_axis = 1 : i64} : (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<2x8xf32>, tensor<2xf32>, tensor<2xf32>)
  %l = dist.reduce_sum %mean {dims = array<i64: 0>} : (tensor<2xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// The body must be one block.
// expected-error@+1 {{dist-append-backward needs a single-block body, and @f has several blocks}}
func.func @f(%x: tensor<8xf32> {dist.requires_grad}) -> tensor<f32> {
  %l = dist.reduce_sum %x {dims = array<i64: 0>} : (tensor<8xf32>) -> tensor<f32>
  cf.br ^done
^done:
  return %l : tensor<f32>
}

// -----

// A dependence through a scalar counts: tensor.extract is on the path
// (not a zero gradient for %x).
func.func @f(%x: tensor<4xf32> {dist.requires_grad}) -> tensor<f32> {
  %h = dist.relu %x : (tensor<4xf32>) -> tensor<4xf32>
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'tensor.extract' is on the path from a dist.requires_grad argument to the loss and has no gradient rule}}
  %s = tensor.extract %h[%c0] : tensor<4xf32>
  %l = tensor.from_elements %s : tensor<f32>
  return %l : tensor<f32>
}

// -----

// The body must end in func.return, which hands back the loss.
// expected-error@+1 {{dist-append-backward needs @f's body to end in func.return, not 'llvm.unreachable'}}
func.func @f(%x: tensor<f32> {dist.requires_grad}) -> tensor<f32> {
  llvm.unreachable
}
