// RUN: dist-opt %s --split-input-file --dist-auto-parallel=devices=8 --verify-diagnostics -o /dev/null 2>/dev/null
// Every error of dist-auto-parallel, one case per chunk. (Its report,
// printed before a search fails, goes to stderr, apart from the
// diagnostics checked here.)

// The search writes the mesh: a program that has one is laid out already.
// expected-error@+1 {{dist-auto-parallel lays out a program without a mesh: it writes the mesh and the shardings itself}}
dist.mesh @mesh = <["dp"=2]>
func.func @step(%x: tensor<8x4xf32> {dist.batch_dim = 0 : i64}, %w: tensor<4x4xf32> {dist.requires_grad}) -> tensor<f32> {
  %y = dist.matmul %x, %w : (tensor<8x4xf32>, tensor<4x4xf32>) -> tensor<8x4xf32>
  %l = dist.reduce_sum %y {dims = array<i64: 0, 1>} : (tensor<8x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// One step: which of two would be laid out is not the search's to guess.
func.func @step(%x: tensor<8x4xf32> {dist.batch_dim = 0 : i64}, %w: tensor<4x4xf32> {dist.requires_grad}) -> tensor<f32> {
  %y = dist.matmul %x, %w : (tensor<8x4xf32>, tensor<4x4xf32>) -> tensor<8x4xf32>
  %l = dist.reduce_sum %y {dims = array<i64: 0, 1>} : (tensor<8x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
// expected-error@+1 {{dist-auto-parallel lays out one step function; @other is a second}}
func.func @other(%x: tensor<8xf32>) -> tensor<8xf32> {
  return %x : tensor<8xf32>
}

// -----

// Without parameters there is nothing to train, and no layout to derive.
// expected-error@+1 {{dist-auto-parallel: @step has no parameters: mark them dist.requires_grad (a forward program) or update them with dist.adamw or dist.sgd (a training step)}}
func.func @step(%x: tensor<8x4xf32> {dist.batch_dim = 0 : i64}, %w: tensor<4x4xf32>) -> tensor<f32> {
  %y = dist.matmul %x, %w : (tensor<8x4xf32>, tensor<4x4xf32>) -> tensor<8x4xf32>
  %l = dist.reduce_sum %y {dims = array<i64: 0, 1>} : (tensor<8x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// Without data there is no batch to split over dp.
// expected-error@+1 {{dist-auto-parallel: no argument of @step carries dist.batch_dim: the search splits the data's batch over dp}}
func.func @step(%x: tensor<8x4xf32>, %w: tensor<4x4xf32> {dist.requires_grad}) -> tensor<f32> {
  %y = dist.matmul %x, %w : (tensor<8x4xf32>, tensor<4x4xf32>) -> tensor<8x4xf32>
  %l = dist.reduce_sum %y {dims = array<i64: 0, 1>} : (tensor<8x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// An optimizer step must update an argument: the parameter the layout is
// written on.
func.func @step(%x: tensor<8x4xf32> {dist.batch_dim = 0 : i64}, %w: tensor<4x4xf32>, %g: tensor<4x4xf32>,
                %buf: tensor<4x4xf32>) -> (tensor<f32>, tensor<4x4xf32>, tensor<4x4xf32>) {
  %w2 = dist.add %w, %w : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %y = dist.matmul %x, %w2 : (tensor<8x4xf32>, tensor<4x4xf32>) -> tensor<8x4xf32>
  %l = dist.reduce_sum %y {dims = array<i64: 0, 1>} : (tensor<8x4xf32>) -> tensor<f32>
  // expected-error@+1 {{dist-auto-parallel: the optimizer step updates a value that is no argument of the step}}
  %nw, %nb = dist.sgd %w2, %g, %buf {lr = 0.1 : f64, momentum = 0.9 : f64} : (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>)
  return %l, %nw, %nb : tensor<f32>, tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

// A forward program the search cannot differentiate is refused before any
// plan is tried: a gradient op has no gradient of its own.
// expected-error@+1 {{dist-auto-parallel: the step does not differentiate: dist-append-backward: 'dist.relu_grad' is on the path from a dist.requires_grad argument to the loss and has no gradient rule}}
func.func @step(%x: tensor<8xf32> {dist.requires_grad}, %dy: tensor<8xf32> {dist.batch_dim = 0 : i64}) -> tensor<f32> {
  %g = dist.relu_grad %x, %dy : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %l = dist.reduce_sum %g {dims = array<i64: 0>} : (tensor<8xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// A forward program or a training step, not both: which parameters the
// search would differentiate and which it would leave to the optimizer is
// not its to guess.
// expected-error@+1 {{dist-auto-parallel: @step marks parameters dist.requires_grad and updates parameters with an optimizer step: give it a forward program or a training step}}
func.func @step(%x: tensor<8x4xf32> {dist.batch_dim = 0 : i64}, %w: tensor<4x4xf32> {dist.requires_grad},
                %g: tensor<4x4xf32>) -> (tensor<f32>, tensor<4x4xf32>) {
  %y = dist.matmul %x, %w : (tensor<8x4xf32>, tensor<4x4xf32>) -> tensor<8x4xf32>
  %l = dist.reduce_sum %y {dims = array<i64: 0, 1>} : (tensor<8x4xf32>) -> tensor<f32>
  %nw = dist.sgd %w, %g {lr = 0.1 : f64} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %l, %nw : tensor<f32>, tensor<4x4xf32>
}

// -----

// The plan's mesh is @mesh: another symbol of that name would clash with it.
// expected-error@+1 {{dist-auto-parallel writes its mesh as @mesh, which this symbol already names}}
func.func private @mesh(tensor<4xf32>)
func.func @step(%x: tensor<8x4xf32> {dist.batch_dim = 0 : i64}, %w: tensor<4x4xf32> {dist.requires_grad}) -> tensor<f32> {
  %y = dist.matmul %x, %w : (tensor<8x4xf32>, tensor<4x4xf32>) -> tensor<8x4xf32>
  %l = dist.reduce_sum %y {dims = array<i64: 0, 1>} : (tensor<8x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// Declarations alone: there is no step to lay out.
// expected-error@+1 {{dist-auto-parallel: the module has no function with a body}}
module {
  func.func private @f(tensor<4xf32>)
}
