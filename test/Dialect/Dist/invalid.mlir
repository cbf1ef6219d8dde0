// RUN: dist-opt %s --split-input-file --verify-diagnostics
// Every verifier error of the dist dialect, one case per chunk.

// A mesh needs axes.
// expected-error@+1 {{needs at least one axis}}
dist.mesh @m = <[]>

// -----

// Axis names are unique.
// expected-error@+1 {{axis "x" is declared twice}}
dist.mesh @m = <["x"=2, "x"=2]>

// -----

// Axis sizes are >= 1.
// expected-error@+1 {{axis "x" has size 0; sizes must be >= 1}}
dist.mesh @m = <["x"=0]>

// -----

// Devices are 32-bit MPI ranks: 65536 x 32768 is one too many (and larger
// products must not wrap around).
// expected-error@+1 {{has more than 2147483647 devices (the product of its axis sizes); devices are 32-bit MPI ranks}}
dist.mesh @m = <["x"=65536, "y"=32768]>

// -----

// expected-error@+1 {{has more than 2147483647 devices}}
dist.mesh @m = <["a"=11, "b"=9223372036854775807]>

// -----

// Axis names are not empty.
// expected-error@+1 {{axis names must not be empty}}
dist.mesh @m = <[""=2]>

// -----

// One device id per device.
// expected-error@+1 {{has 4 devices but 3 device ids}}
dist.mesh @m = <["x"=4], devices = [0, 1, 2]>

// -----

// Device ids are unique.
// expected-error@+1 {{device id 1 appears twice}}
dist.mesh @m = <["x"=2], devices = [1, 1]>

// -----

// Device ids are non-negative.
// expected-error@+1 {{device id -1 is negative}}
dist.mesh @m = <["x"=2], devices = [0, -1]>

// -----

// A mesh axis splits at most one dim.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
// expected-error@+1 {{mesh axis "dp" is used twice in the sharding}}
func.func @f(%x: tensor<8x8xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {"dp"}]>}) {
  return
}

// -----

// Partial axes do not also split a dim.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
// expected-error@+1 {{mesh axis "tp" cannot both split a dim and be partial}}
func.func @f(%x: tensor<8xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp"}], partial = sum{"tp"}>}) {
  return
}

// -----

// A partial axis is listed once.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
// expected-error@+1 {{mesh axis "dp" is listed twice as partial}}
func.func @f(%x: tensor<8xf32> {dist.sharding = #dist.sharding<@mesh, [{}], partial = sum{"dp", "dp"}>}) {
  return
}

// -----

// A partial set is not empty.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
// expected-error@+1 {{partial needs at least one mesh axis}}
func.func @f(%x: tensor<8xf32> {dist.sharding = #dist.sharding<@mesh, [{}], partial = sum{}>}) {
  return
}

// -----

// Partial kinds are sum, avg, max and min.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
// expected-error@+1 {{unknown reduction kind 'prod', expected sum, avg, max or min}}
func.func @f(%x: tensor<8xf32> {dist.sharding = #dist.sharding<@mesh, [{}], partial = prod{"dp"}>}) {
  return
}

// -----

// The mesh must exist.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
// expected-error@+1 {{argument #0: sharding refers to unknown mesh @nope}}
func.func @f(%x: tensor<8xf32> {dist.sharding = #dist.sharding<@nope, [{}]>}) {
  return
}

// -----

// Axes must exist in the mesh.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
// expected-error@+1 {{argument #0: mesh @mesh has no axis "pp"}}
func.func @f(%x: tensor<8xf32> {dist.sharding = #dist.sharding<@mesh, [{"pp"}]>}) {
  return
}

// -----

// Partial axes must exist in the mesh.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
// expected-error@+1 {{argument #0: mesh @mesh has no axis "pp"}}
func.func @f(%x: tensor<8xf32> {dist.sharding = #dist.sharding<@mesh, [{}], partial = sum{"pp"}>}) {
  return
}

// -----

// One sharding entry per tensor dim.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
// expected-error@+1 {{argument #0: sharding has 1 dims but the tensor 'tensor<8x8xf32>' has rank 2}}
func.func @f(%x: tensor<8x8xf32> {dist.sharding = #dist.sharding<@mesh, [{}]>}) {
  return
}

// -----

// A split dim has at least one entry per shard (a dim the shards do not
// divide is padded: 6 over 4 would be shards of 2, the last padding).
dist.mesh @mesh = <["dp"=2, "tp"=4]>
// expected-error@+1 {{argument #0: tensor dim 0 of size 6 has fewer entries than 8, the number of shards of its mesh axes}}
func.func @f(%x: tensor<6xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp", "tp"}]>}) {
  return
}

// -----

// A dim its shards do not divide is split over one axis: 10 over dp x tp.
dist.mesh @mesh = <["dp"=2, "tp"=2]>
// expected-error@+1 {{argument #0: tensor dim 0 of size 10 is split unevenly over 2 mesh axes; an uneven split takes one axis}}
func.func @f(%x: tensor<10xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp", "tp"}]>}) {
  return
}

// -----

// Shardings annotate ranked tensors.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
// expected-error@+1 {{argument #0: sharding needs a ranked tensor, got 'f32'}}
func.func @f(%x: f32 {dist.sharding = #dist.sharding<@mesh, []>}) {
  return
}

// -----

// The argument attribute is a sharding.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
// expected-error@+1 {{expected argument #0 attribute 'dist.sharding' to be a #dist.sharding, got 1 : i64}}
func.func @f(%x: tensor<8xf32> {dist.sharding = 1 : i64}) {
  return
}

// -----

// Result shardings are checked too.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
// expected-error@+1 {{result #0: tensor dim 0 of size 1 has fewer entries than 2}}
func.func @f(%x: tensor<1xf32>) -> (tensor<1xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}]>}) {
  return %x : tensor<1xf32>
}

// -----

// Op shardings: one per result.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<8xf32>) {
  // expected-error@+1 {{expected 'dist.sharding' to be an array of 1 #dist.sharding (one per result)}}
  %0 = dist.relu %x {dist.sharding = []} : (tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

// Op shardings are checked against the result type.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<8xf32>) {
  // expected-error@+1 {{result #0: sharding has 2 dims but the tensor 'tensor<8xf32>' has rank 1}}
  %0 = dist.relu %x {dist.sharding = [#dist.sharding<@mesh, [{}, {}]>]} : (tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

// Unknown dist attributes are rejected.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<8xf32>) {
  // expected-error@+1 {{unknown dist attribute 'dist.shardings'}}
  %0 = dist.relu %x {dist.shardings = []} : (tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

// Unknown dist argument attributes are rejected.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
// expected-error@+1 {{unknown dist attribute 'dist.shard' on argument #0}}
func.func @f(%x: tensor<8xf32> {dist.shard = 1}) {
  return
}

// -----

// An argument's error is reported where the argument is written, not at
// the function (whose text a large step would print in full).
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<8xf32>,
             // expected-error@+1 {{argument #1: tensor dim 0 of size 6 has fewer entries than 8, the number of shards of its mesh axes}}
             %ids: tensor<6x16xi64> {dist.sharding = #dist.sharding<@mesh, [{"dp", "tp"}, {}]>}) {
  return
}

// -----

// rms_norm's rstd has the shape of the leading dims.
func.func @f(%x: tensor<4x8x32xf32>, %g: tensor<32xf32>) {
  // expected-error@+1 {{expected rstd to have rank 2, got 1}}
  %0:2 = dist.rms_norm %x, %g {begin_norm_axis = 2 : i64} : (tensor<4x8x32xf32>, tensor<32xf32>) -> (tensor<4x8x32xf32>, tensor<4xf32>)
  return
}

// -----

// rms_norm_grad's dscale has the scale's shape.
func.func @f(%x: tensor<4x32xf32>, %g: tensor<32xf32>, %r: tensor<4xf32>, %d: tensor<4x32xf32>) {
  // expected-error@+1 {{expected dscale dim 0 to be 32, got 4}}
  %0:2 = dist.rms_norm_grad %x, %g, %r, %d {begin_norm_axis = 1 : i64} : (tensor<4x32xf32>, tensor<32xf32>, tensor<4xf32>, tensor<4x32xf32>) -> (tensor<4x32xf32>, tensor<4xf32>)
  return
}

// -----

// A causal mask needs a query and a key dim.
func.func @f(%s: tensor<8xf32>) {
  // expected-error@+1 {{expected query and key dims (rank >= 2), got rank 1}}
  %0 = dist.causal_mask %s : (tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

// Its offsets come in a pair, query then key.
func.func @f(%s: tensor<4x8xf32>, %q: index) {
  // expected-error@+1 {{expected no offsets or two (query, key), got 1}}
  %0 = dist.causal_mask %s, %q : (tensor<4x8xf32>, index) -> tensor<4x8xf32>
  return
}

// -----

// It keeps the scores' type.
func.func @f(%d: tensor<4x8xf32>) {
  // expected-error@+1 {{expected the result of type 'tensor<4x8xf32>', got 'tensor<4x8xf64>'}}
  %0 = dist.causal_mask_grad %d : (tensor<4x8xf32>) -> tensor<4x8xf64>
  return
}

// -----

// A cast keeps the shape.
func.func @f(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{'dist.cast' op result type 'tensor<8x4xbf16>' has another shape than the operand's 'tensor<4x8xf32>'}}
  %0 = dist.cast %x : (tensor<4x8xf32>) -> tensor<8x4xbf16>
  return
}

// -----

// It converts between f16, bf16, f32 and f64 only.
func.func @f(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{'dist.cast' op casts between f16, bf16, f32, f64 and signless integers, not 'f8E4M3FN'}}
  %0 = dist.cast %x : (tensor<4x8xf32>) -> tensor<4x8xf8E4M3FN>
  return
}

// -----

// A padding mask keeps its operand's type.
func.func @f(%x: tensor<8x4xf32>, %i: index) {
  // expected-error@+1 {{'dist.mask_padding' op result type 'tensor<8x4xf64>' differs from the operand's 'tensor<8x4xf32>'}}
  %0 = dist.mask_padding %x, %i {dim = 1 : i64, size = 10 : i64, fill = 0.0 : f64} : (tensor<8x4xf32>, index) -> tensor<8x4xf64>
  return
}

// -----

// Its dim is one of the operand's.
func.func @f(%x: tensor<8x4xf32>, %i: index) {
  // expected-error@+1 {{'dist.mask_padding' op dim 2 is out of range for rank 2}}
  %0 = dist.mask_padding %x, %i {dim = 2 : i64, size = 10 : i64, fill = 0.0 : f64} : (tensor<8x4xf32>, index) -> tensor<8x4xf32>
  return
}

// -----

// The padded dim's global size is positive.
func.func @f(%x: tensor<8x4xf32>, %i: index) {
  // expected-error@+1 {{'dist.mask_padding' op size must be positive, not 0}}
  %0 = dist.mask_padding %x, %i {dim = 1 : i64, size = 0 : i64, fill = 0.0 : f64} : (tensor<8x4xf32>, index) -> tensor<8x4xf32>
  return
}

// -----

// take_along picks one entry of the last dim per position: idx has x's
// other dims.
func.func @f(%x: tensor<4x8x64xf32>, %idx: tensor<4x64xi64>) {
  // expected-error@+1 {{expected idx dim 1 to be 8, got 64}}
  %0 = dist.take_along %x, %idx : (tensor<4x8x64xf32>, tensor<4x64xi64>) -> tensor<4x64xf32>
  return
}

// -----

// A scalar has no last dim to index.
func.func @f(%x: tensor<f32>, %idx: tensor<i64>) {
  // expected-error@+1 {{expected x of rank >= 1, got a scalar}}
  %0 = dist.take_along %x, %idx : (tensor<f32>, tensor<i64>) -> tensor<f32>
  return
}

// -----

// take_along_grad's dout broadcasts to idx, NumPy-style.
func.func @f(%idx: tensor<4x8xi64>, %d: tensor<3x8xf32>) {
  // expected-error@+1 {{dout does not broadcast to idx: 3 vs 4 at dim 0 of dout}}
  %0 = dist.take_along_grad %idx, %d : (tensor<4x8xi64>, tensor<3x8xf32>) -> tensor<4x8x64xf32>
  return
}

// -----

// take_along_grad's dout has at most idx's rank.
func.func @f(%idx: tensor<4xi64>, %d: tensor<2x4xf32>) {
  // expected-error@+1 {{expected dout of rank <= 1 (the rank of idx), got 2}}
  %0 = dist.take_along_grad %idx, %d : (tensor<4xi64>, tensor<2x4xf32>) -> tensor<4x8xf32>
  return
}

// -----

// The labels have the logits' shape without the vocabulary.
func.func @f(%x: tensor<4x8x64xf32>, %labels: tensor<4x8x64xi64>) {
  // expected-error@+1 {{expected labels to have rank 2, got 3}}
  %0 = dist.cross_entropy %x, %labels : (tensor<4x8x64xf32>, tensor<4x8x64xi64>) -> tensor<f32>
  return
}

// -----

// The loss is their mean, a scalar.
func.func @f(%x: tensor<4x8x64xf32>, %labels: tensor<4x8xi64>) {
  // expected-error@+1 {{expected loss to have rank 0, got 2}}
  %0 = dist.cross_entropy %x, %labels : (tensor<4x8x64xf32>, tensor<4x8xi64>) -> tensor<4x8xf32>
  return
}

// -----

// Labels are integers.
func.func @f(%x: tensor<4x8x64xf32>, %labels: tensor<4x8xf32>) {
  // expected-error@+1 {{operand #1 must be statically shaped tensor of signless integer values, but got 'tensor<4x8xf32>'}}
  %0 = dist.cross_entropy %x, %labels : (tensor<4x8x64xf32>, tensor<4x8xf32>) -> tensor<f32>
  return
}

// -----

// Its gradient has the logits' shape.
func.func @f(%x: tensor<4x8x64xf32>, %labels: tensor<4x8xi64>, %dl: tensor<f32>) {
  // expected-error@+1 {{expected dlogits dim 2 to be 64, got 32}}
  %0 = dist.cross_entropy_grad %x, %labels, %dl : (tensor<4x8x64xf32>, tensor<4x8xi64>, tensor<f32>) -> tensor<4x8x32xf32>
  return
}

// -----

// Only a floating-point tensor has a gradient to ask for.
// expected-error@+1 {{'dist.requires_grad' on argument #1 needs a statically shaped floating-point tensor, got 'tensor<4x16xi64>'}}
func.func @f(%x: tensor<8xf32> {dist.requires_grad}, %ids: tensor<4x16xi64> {dist.requires_grad}) -> tensor<f32> {
  %l = dist.reduce_sum %x {dims = array<i64: 0>} : (tensor<8xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// -----

// Nor has a scalar that is not a tensor.
// expected-error@+1 {{'dist.requires_grad' on argument #0 needs a statically shaped floating-point tensor, got 'f32'}}
func.func private @f(f32 {dist.requires_grad})

// -----

// The dist ops take static shapes, so a gradient has one too.
// expected-error@+1 {{'dist.requires_grad' on argument #0 needs a statically shaped floating-point tensor, got 'tensor<?xf32>'}}
func.func private @f(tensor<?xf32> {dist.requires_grad}) -> tensor<f32>

// -----

// dist.requires_grad is a unit attribute: a value is a typo of another.
// expected-error@+1 {{expected 'dist.requires_grad' on argument #0 to be a unit attribute, got true}}
func.func @f(%x: tensor<8xf32> {dist.requires_grad = true}) {
  return
}

// -----

// It asks for the gradient with respect to an argument: a result has none.
// expected-error@+1 {{unknown dist attribute 'dist.requires_grad' on result #0}}
func.func private @f(tensor<8xf32>) -> (tensor<f32> {dist.requires_grad})

// -----

// dist.gradient_of names the argument a result is the gradient of: one the
// function has.
// expected-error@+1 {{expected 'dist.gradient_of' on result #1 to be the index of an argument (of 1), got 1 : i64}}
func.func private @f(tensor<8xf32>) -> (tensor<f32>, tensor<8xf32> {dist.gradient_of = 1 : i64})

// -----

// dist.batch_dim names a dim of the data argument: a rank-2 tensor has no
// dim 2.
// expected-error@+1 {{expected 'dist.batch_dim' on argument #0 to be a dim of its ranked tensor 'tensor<4x16xi64>', got 2 : i64}}
func.func private @f(tensor<4x16xi64> {dist.batch_dim = 2 : i64})

// -----

// The microbatch axis is a name; an empty one names no axis.
// expected-error@+1 {{expected 'dist.microbatch_axis' to name a mesh axis on a function, got ""}}
func.func private @f(tensor<4xf32>) attributes {dist.microbatch_axis = ""}

// -----

// A plan's choices are a dictionary on the module.
// expected-error@+1 {{expected 'dist.plan' to be a dictionary on a module, got true}}
module attributes {dist.plan = true} {}

// -----

// expected-error@+1 {{expected 'dist.plan' to be a dictionary on a module}}
func.func private @f(tensor<4xf32>) attributes {dist.plan = {recompute = true}}

// -----

// dist-run takes recompute and overlap from a plan, nothing else.
// expected-error@+1 {{'dist.plan' has no choice 'microbatches' (it takes recompute and overlap)}}
module attributes {dist.plan = {microbatches = 4 : i64}} {}

// -----

// expected-error@+1 {{'dist.plan': expected 'recompute' to be a bool, got 1 : i64}}
module attributes {dist.plan = {recompute = 1 : i64}} {}

// -----

// matmul operands have rank >= 2.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<8xf32>, %y: tensor<8x4xf32>) {
  // expected-error@+1 {{'dist.matmul' op expects x and y of rank >= 2, got ranks 1 and 2}}
  %0 = dist.matmul %x, %y : (tensor<8xf32>, tensor<8x4xf32>) -> tensor<4xf32>
  return
}

// -----

// matmul contraction dims agree.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<8x16xf32>, %y: tensor<8x4xf32>) {
  // expected-error@+1 {{contraction dims differ: x has k = 16, y has k = 8}}
  %0 = dist.matmul %x, %y : (tensor<8x16xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  return
}

// -----

// transpose_y changes which dim contracts.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<8x16xf32>, %y: tensor<16x4xf32>) {
  // expected-error@+1 {{contraction dims differ: x has k = 16, y has k = 4}}
  %0 = dist.matmul %x, %y {transpose_y} : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x16xf32>
  return
}

// -----

// Batch dims broadcast or match.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<3x8x16xf32>, %y: tensor<2x16x4xf32>) {
  // expected-error@+1 {{batch dims do not broadcast: 3 vs 2 at batch dim 0}}
  %0 = dist.matmul %x, %y : (tensor<3x8x16xf32>, tensor<2x16x4xf32>) -> tensor<3x8x4xf32>
  return
}

// -----

// matmul names the wrong result dim.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<8x16xf32>, %y: tensor<16x4xf32>) {
  // expected-error@+1 {{expected out dim 1 to be 4, got 5}}
  %0 = dist.matmul %x, %y : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x5xf32>
  return
}

// -----

// matmul element types agree.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<8x16xf32>, %y: tensor<16x4xf16>) {
  // expected-error@+1 {{expects one float element type, got 'f32' and 'f16'}}
  %0 = dist.matmul %x, %y : (tensor<8x16xf32>, tensor<16x4xf16>) -> tensor<8x4xf32>
  return
}

// -----

// matmul_grad checks dout.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<8x16xf32>, %y: tensor<16x64xf32>, %d: tensor<8x32xf32>) {
  // expected-error@+1 {{expected dout dim 1 to be 64, got 32}}
  %0:2 = dist.matmul_grad %x, %y, %d : (tensor<8x16xf32>, tensor<16x64xf32>, tensor<8x32xf32>) -> (tensor<8x16xf32>, tensor<16x64xf32>)
  return
}

// -----

// matmul_grad gives dx the type of x.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<8x16xf32>, %y: tensor<16x4xf32>, %d: tensor<8x4xf32>) {
  // expected-error@+1 {{expected dx dim 0 to be 8, got 16}}
  %0:2 = dist.matmul_grad %x, %y, %d : (tensor<8x16xf32>, tensor<16x4xf32>, tensor<8x4xf32>) -> (tensor<16x8xf32>, tensor<16x4xf32>)
  return
}

// -----

// matmul_grad gives dy the type of y.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<8x16xf32>, %y: tensor<16x4xf32>, %d: tensor<8x4xf32>) {
  // expected-error@+1 {{expected dy to have rank 2, got 1}}
  %0:2 = dist.matmul_grad %x, %y, %d : (tensor<8x16xf32>, tensor<16x4xf32>, tensor<8x4xf32>) -> (tensor<8x16xf32>, tensor<16xf32>)
  return
}

// -----

// add broadcasts NumPy-style: x may stretch too, so the result is the
// broadcast shape, not x's.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<8xf32>, %y: tensor<2x8xf32>) {
  // expected-error@+1 {{expected out to have rank 2, got 1}}
  %0 = dist.add %x, %y : (tensor<8xf32>, tensor<2x8xf32>) -> tensor<8xf32>
  return
}

// -----

// Dims broadcast only where they match or one of them is 1.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<8x32xf32>, %y: tensor<16xf32>) {
  // expected-error@+1 {{x and y do not broadcast: 32 vs 16 at dim 1 of the result}}
  %0 = dist.add %x, %y : (tensor<8x32xf32>, tensor<16xf32>) -> tensor<8x32xf32>
  return
}

// -----

// div broadcasts like add: a size-1 dim stretches, the result's does not.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<4x8x32xf32>, %r: tensor<4x8x1xf32>) {
  // expected-error@+1 {{expected out dim 2 to be 32, got 1}}
  %0 = dist.div %x, %r : (tensor<4x8x32xf32>, tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
  return
}

// -----

// maximum takes one element type.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<4x8xf32>, %y: tensor<4x8xf64>) {
  // expected-error@+1 {{expects one element type, got 'f32' and 'f64'}}
  %0 = dist.maximum %x, %y : (tensor<4x8xf32>, tensor<4x8xf64>) -> tensor<4x8xf32>
  return
}

// -----

// div_grad gives dy the type of y, its size-1 dim kept.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<4x8xf32>, %r: tensor<4x1xf32>, %d: tensor<4x8xf32>) {
  // expected-error@+1 {{expected dy dim 1 to be 1, got 8}}
  %0:2 = dist.div_grad %x, %r, %d : (tensor<4x8xf32>, tensor<4x1xf32>, tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
  return
}

// -----

// A math function keeps its operand's type.
func.func @f(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{requires the same type for all operands and results}}
  %0 = dist.silu %x : (tensor<4x8xf32>) -> tensor<4x8xf64>
  return
}

// -----

// A math function takes floats.
func.func @f(%x: tensor<4x8xi32>) {
  // expected-error@+1 {{operand #0 must be statically shaped tensor of floating-point values, but got 'tensor<4x8xi32>'}}
  %0 = dist.exp %x : (tensor<4x8xi32>) -> tensor<4x8xi32>
  return
}

// -----

// Its gradient reads x and dout of one type.
func.func @f(%x: tensor<4x8xf32>, %d: tensor<4x4xf32>) {
  // expected-error@+1 {{requires the same type for all operands and results}}
  %0 = dist.tanh_grad %x, %d : (tensor<4x8xf32>, tensor<4x4xf32>) -> tensor<4x8xf32>
  return
}

// -----

// Rounding takes floats too (an integer tensor is already whole).
func.func @f(%x: tensor<4x8xi64>) {
  // expected-error@+1 {{operand #0 must be statically shaped tensor of floating-point values, but got 'tensor<4x8xi64>'}}
  %0 = dist.floor %x : (tensor<4x8xi64>) -> tensor<4x8xi64>
  return
}

// -----

// sign keeps its operand's type.
func.func @f(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{requires the same type for all operands and results}}
  %0 = dist.sign %x : (tensor<4x8xf32>) -> tensor<4x8xf64>
  return
}

// -----

// erf's gradient reads x and dout of one type.
func.func @f(%x: tensor<4x8xf32>, %d: tensor<8xf32>) {
  // expected-error@+1 {{requires the same type for all operands and results}}
  %0 = dist.erf_grad %x, %d : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return
}

// -----

// sub has the shape of x.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<8x32xf32>, %y: tensor<32xf32>) {
  // expected-error@+1 {{expected out to have rank 2, got 1}}
  %0 = dist.sub %x, %y : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<32xf32>
  return
}

// -----

// add_grad gives dy the type of y.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<8x32xf32>, %y: tensor<32xf32>, %d: tensor<8x32xf32>) {
  // expected-error@+1 {{expected dy to have rank 1, got 2}}
  %0:2 = dist.add_grad %x, %y, %d : (tensor<8x32xf32>, tensor<32xf32>, tensor<8x32xf32>) -> (tensor<8x32xf32>, tensor<8x32xf32>)
  return
}

// -----

// mul_grad checks dout.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<8x32xf32>, %y: tensor<32xf32>, %d: tensor<8x16xf32>) {
  // expected-error@+1 {{expected dout dim 1 to be 32, got 16}}
  %0:2 = dist.mul_grad %x, %y, %d : (tensor<8x32xf32>, tensor<32xf32>, tensor<8x16xf32>) -> (tensor<8x32xf32>, tensor<32xf32>)
  return
}

// -----

// gelu knows two forms.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<8xf32>) {
  // expected-error@+1 {{approximate must be "none" or "tanh", got "fast"}}
  %0 = dist.gelu %x {approximate = "fast"} : (tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

// gelu_grad knows two forms.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<8xf32>) {
  // expected-error@+1 {{approximate must be "none" or "tanh", got "erf"}}
  %0 = dist.gelu_grad %x, %x {approximate = "erf"} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

// relu keeps its type.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<8xf32>) {
  // expected-error@+1 {{requires the same type for all operands and results}}
  %0 = dist.relu %x : (tensor<8xf32>) -> tensor<4xf32>
  return
}

// -----

// begin_norm_axis is a dim of x.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<8x32xf32>, %g: tensor<32xf32>) {
  // expected-error@+1 {{begin_norm_axis 2 is out of range [0, 2)}}
  %0:3 = dist.layer_norm %x, %g, %g {begin_norm_axis = 2 : i64} : (tensor<8x32xf32>, tensor<32xf32>, tensor<32xf32>) -> (tensor<8x32xf32>, tensor<8xf32>, tensor<8xf32>)
  return
}

// -----

// layer_norm scale has the normalized shape.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<8x32xf32>, %g: tensor<16xf32>) {
  // expected-error@+1 {{expected scale dim 0 to be 32, got 16}}
  %0:3 = dist.layer_norm %x, %g, %g {begin_norm_axis = 1 : i64} : (tensor<8x32xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<8x32xf32>, tensor<8xf32>, tensor<8xf32>)
  return
}

// -----

// layer_norm bias has the normalized shape.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<8x32xf32>, %g: tensor<32xf32>, %b: tensor<8xf32>) {
  // expected-error@+1 {{expected bias dim 0 to be 32, got 8}}
  %0:3 = dist.layer_norm %x, %g, %b {begin_norm_axis = 1 : i64} : (tensor<8x32xf32>, tensor<32xf32>, tensor<8xf32>) -> (tensor<8x32xf32>, tensor<8xf32>, tensor<8xf32>)
  return
}

// -----

// layer_norm mean has the leading shape.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<8x32xf32>, %g: tensor<32xf32>) {
  // expected-error@+1 {{expected mean dim 0 to be 8, got 4}}
  %0:3 = dist.layer_norm %x, %g, %g {begin_norm_axis = 1 : i64} : (tensor<8x32xf32>, tensor<32xf32>, tensor<32xf32>) -> (tensor<8x32xf32>, tensor<4xf32>, tensor<8xf32>)
  return
}

// -----

// layer_norm_grad gives dbias the shape of scale.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<8x32xf32>, %g: tensor<32xf32>, %m: tensor<8xf32>) {
  // expected-error@+1 {{expected dbias dim 0 to be 32, got 8}}
  %0:3 = dist.layer_norm_grad %x, %g, %m, %m, %x {begin_norm_axis = 1 : i64} : (tensor<8x32xf32>, tensor<32xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8x32xf32>) -> (tensor<8x32xf32>, tensor<32xf32>, tensor<8xf32>)
  return
}

// -----

// layer_norm_grad checks rstd.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<8x32xf32>, %g: tensor<32xf32>, %m: tensor<8xf32>, %r: tensor<32xf32>) {
  // expected-error@+1 {{expected rstd dim 0 to be 8, got 32}}
  %0:3 = dist.layer_norm_grad %x, %g, %m, %r, %x {begin_norm_axis = 1 : i64} : (tensor<8x32xf32>, tensor<32xf32>, tensor<8xf32>, tensor<32xf32>, tensor<8x32xf32>) -> (tensor<8x32xf32>, tensor<32xf32>, tensor<32xf32>)
  return
}

// -----

// An embedding table is 2-D.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%i: tensor<4xi64>, %t: tensor<10x4x4xf32>) {
  // expected-error@+1 {{expected table to have rank 2, got 3}}
  %0 = dist.embedding %i, %t : (tensor<4xi64>, tensor<10x4x4xf32>) -> tensor<4x4xf32>
  return
}

// -----

// embedding appends the hidden dim.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%i: tensor<4xi64>, %t: tensor<10x8xf32>) {
  // expected-error@+1 {{expected out dim 1 to be 8, got 10}}
  %0 = dist.embedding %i, %t : (tensor<4xi64>, tensor<10x8xf32>) -> tensor<4x10xf32>
  return
}

// -----

// embedding ids are integers.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%i: tensor<4xf32>, %t: tensor<10x8xf32>) {
  // expected-error@+1 {{operand #0 must be statically shaped tensor of signless integer values}}
  %0 = dist.embedding %i, %t : (tensor<4xf32>, tensor<10x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

// embedding_grad gives dtable the table's type.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%i: tensor<4xi64>, %t: tensor<10x8xf32>, %d: tensor<4x8xf32>) {
  // expected-error@+1 {{expected dtable dim 0 to be 10, got 4}}
  %0 = dist.embedding_grad %i, %t, %d : (tensor<4xi64>, tensor<10x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

// softmax axis is a dim.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{axis 2 is out of range [-2, 2)}}
  %0 = dist.softmax %x {axis = 2 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

// softmax_grad axis is a dim.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{axis -3 is out of range [-2, 2)}}
  %0 = dist.softmax_grad %x, %x {axis = -3 : i64} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

// Reduced dims are dims of x.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{reduced dim 2 is out of range [0, 2)}}
  %0 = dist.reduce_sum %x {dims = array<i64: 2>} : (tensor<4x8xf32>) -> tensor<4xf32>
  return
}

// -----

// Reduced dims are distinct.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{reduced dim 1 is listed twice}}
  %0 = dist.reduce_mean %x {dims = array<i64: 1, 1>} : (tensor<4x8xf32>) -> tensor<4xf32>
  return
}

// -----

// Booleans are or-ed (reduce_max), not summed.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<4x8xi1>) {
  // expected-error@+1 {{sums booleans: their or is dist.reduce_max}}
  %0 = dist.reduce_sum %x {dims = array<i64: 1>} : (tensor<4x8xi1>) -> tensor<4xi1>
  return
}

// -----

// A mean is of floats.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<4x8xi32>) {
  // expected-error@+1 {{operand #0 must be statically shaped tensor of floating-point values}}
  %0 = dist.reduce_mean %x {dims = array<i64: 1>} : (tensor<4x8xi32>) -> tensor<4xi32>
  return
}

// -----

// An integer reduction keeps x's element type.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<4x8xi32>) {
  // expected-error@+1 {{expects one element type, got 'i32' and 'i64'}}
  %0 = dist.reduce_max %x {dims = array<i64: 1>} : (tensor<4x8xi32>) -> tensor<4xi64>
  return
}

// -----

// keepdim keeps size-1 dims.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{expected out to have rank 2, got 1}}
  %0 = dist.reduce_sum %x {dims = array<i64: 1>, keepdim} : (tensor<4x8xf32>) -> tensor<4xf32>
  return
}

// -----

// reduce_sum_grad checks dout.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<4x8xf32>, %d: tensor<8xf32>) {
  // expected-error@+1 {{expected dout dim 0 to be 4, got 8}}
  %0 = dist.reduce_sum_grad %x, %d {dims = array<i64: 1>} : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return
}

// -----

// reduce_max has the reduced shape.
func.func @f(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{expected out dim 0 to be 4, got 8}}
  %0 = dist.reduce_max %x {dims = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<8xf32>
  return
}

// -----

// reduce_min_grad reads the forward result, of dout's shape.
func.func @f(%x: tensor<4x8xf32>, %m: tensor<4x1xf32>, %d: tensor<4xf32>) {
  // expected-error@+1 {{expected out to have rank 1, got 2}}
  %0 = dist.reduce_min_grad %x, %m, %d {dims = array<i64: 1>} : (tensor<4x8xf32>, tensor<4x1xf32>, tensor<4xf32>) -> tensor<4x8xf32>
  return
}

// -----

// reduce_mean_grad gives dx the shape of x.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<4x8xf32>, %d: tensor<4xf32>) {
  // expected-error@+1 {{expected dx dim 0 to be 4, got 8}}
  %0 = dist.reduce_mean_grad %x, %d {dims = array<i64: 1>} : (tensor<4x8xf32>, tensor<4xf32>) -> tensor<8x4xf32>
  return
}

// -----

// A slice stays within its operand.
func.func @f(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{slice [6, 10) of dim 1 is not within its 8 entries}}
  %0 = dist.slice %x {offsets = array<i64: 0, 6>, sizes = array<i64: 4, 4>} : (tensor<4x8xf32>) -> tensor<4x4xf32>
  return
}

// -----

// A slice names an offset and a size per dim.
func.func @f(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{expected 2 offsets and sizes (the rank of x), got 1 and 2}}
  %0 = dist.slice %x {offsets = array<i64: 0>, sizes = array<i64: 4, 4>} : (tensor<4x8xf32>) -> tensor<4x4xf32>
  return
}

// -----

// Its result has the sizes.
func.func @f(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{expected out dim 1 to be 4, got 8}}
  %0 = dist.slice %x {offsets = array<i64: 0, 4>, sizes = array<i64: 4, 4>} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

// Its gradient places dout within dx.
func.func @f(%d: tensor<4x4xf32>) {
  // expected-error@+1 {{slice [6, 10) of dim 1 is not within its 8 entries}}
  %0 = dist.slice_grad %d {offsets = array<i64: 0, 6>} : (tensor<4x4xf32>) -> tensor<4x8xf32>
  return
}

// -----

// Concatenated operands agree in every other dim.
func.func @f(%a: tensor<4x8xf32>, %b: tensor<3x8xf32>) {
  // expected-error@+1 {{operand #1 has 3 entries in dim 0, operand #0 4}}
  %0 = dist.concat %a, %b {dim = 1 : i64} : (tensor<4x8xf32>, tensor<3x8xf32>) -> tensor<4x16xf32>
  return
}

// -----

// The concatenated dim is the operands' sum.
func.func @f(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) {
  // expected-error@+1 {{expected out dim 1 to be 16, got 8}}
  %0 = dist.concat %a, %b {dim = 1 : i64} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

// dim is a dim of the operands.
func.func @f(%a: tensor<4x8xf32>) {
  // expected-error@+1 {{dim 2 is out of range for rank 2}}
  %0 = dist.concat %a {dim = 2 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

// Its gradient's results concatenate to dout.
func.func @f(%d: tensor<4x16xf32>) {
  // expected-error@+1 {{expected dout dim 1 to be 12, got 16}}
  %0:2 = dist.concat_grad %d {dim = 1 : i64} : (tensor<4x16xf32>) -> (tensor<4x8xf32>, tensor<4x4xf32>)
  return
}

// -----

// reshape keeps the element count.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{cannot reshape 32 elements into 30}}
  %0 = dist.reshape %x : (tensor<4x8xf32>) -> tensor<30xf32>
  return
}

// -----

// reshape keeps the element type.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{expected out element type 'f32', got 'f16'}}
  %0 = dist.reshape %x : (tensor<4x8xf32>) -> tensor<32xf16>
  return
}

// -----

// transpose takes a permutation.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{perm must be a permutation of [0, 2)}}
  %0 = dist.transpose %x {perm = array<i64: 0, 0>} : (tensor<4x8xf32>) -> tensor<4x4xf32>
  return
}

// -----

// transpose perm covers every dim.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{perm has 1 entries but x has rank 2}}
  %0 = dist.transpose %x {perm = array<i64: 0>} : (tensor<4x8xf32>) -> tensor<4xf32>
  return
}

// -----

// transpose permutes the shape.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{expected out dim 0 to be 8, got 4}}
  %0 = dist.transpose %x {perm = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

// Dist ops need static shapes.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<?x8xf32>) {
  // expected-error@+1 {{operand #0 must be statically shaped tensor of floating-point values}}
  %0 = dist.relu %x : (tensor<?x8xf32>) -> tensor<?x8xf32>
  return
}

// -----

// Collectives name an existing mesh.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<8xf32>) {
  // expected-error@+1 {{'dist.all_reduce' op refers to unknown mesh @nope}}
  %0 = dist.all_reduce %x on @nope axes = ["dp"] kind = sum : tensor<8xf32> -> tensor<8xf32>
  return
}

// -----

// Collective axes exist.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<8xf32>) {
  // expected-error@+1 {{mesh @mesh has no axis "pp"}}
  %0 = dist.all_reduce %x on @mesh axes = ["pp"] kind = sum : tensor<8xf32> -> tensor<8xf32>
  return
}

// -----

// Collective axes are distinct.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<8xf32>) {
  // expected-error@+1 {{mesh axis "tp" is listed twice}}
  %0 = dist.all_gather %x on @mesh axes = ["tp", "tp"] dim = 0 : tensor<8xf32> -> tensor<8xf32>
  return
}

// -----

// Collectives need at least one axis.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<8xf32>) {
  // expected-error@+1 {{needs at least one mesh axis}}
  %0 = dist.all_reduce %x on @mesh axes = [] kind = sum : tensor<8xf32> -> tensor<8xf32>
  return
}

// -----

// all_reduce keeps the type.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<8xf32>) {
  // expected-error@+1 {{expected result type 'tensor<8xf32>', got 'tensor<4xf32>'}}
  %0 = dist.all_reduce %x on @mesh axes = ["dp"] kind = sum : tensor<8xf32> -> tensor<4xf32>
  return
}

// -----

// Collective dims are dims of the operand.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<8xf32>) {
  // expected-error@+1 {{dim 1 is out of range [0, 1)}}
  %0 = dist.all_gather %x on @mesh axes = ["dp"] dim = 1 : tensor<8xf32> -> tensor<8xf32>
  return
}

// -----

// all_to_all dims are dims of the operand.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<8xf32>) {
  // expected-error@+1 {{concat_dim 3 is out of range [0, 1)}}
  %0 = dist.all_to_all %x on @mesh axes = ["dp"] split_dim = 0 concat_dim = 3 : tensor<8xf32> -> tensor<8xf32>
  return
}

// -----

// Collectives keep the rank.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<8xf32>) {
  // expected-error@+1 {{expected result to have rank 1, got 2}}
  %0 = dist.all_slice %x on @mesh axes = ["dp"] dim = 0 : tensor<8xf32> -> tensor<4x1xf32>
  return
}

// -----

// Collectives keep the element type.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<8xf32>) {
  // expected-error@+1 {{expected result element type 'f32', got 'f16'}}
  %0 = dist.all_gather %x on @mesh axes = ["dp"] dim = 0 : tensor<8xf32> -> tensor<16xf16>
  return
}

// -----

// A local all_gather multiplies dim by the group size.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<8xf32>) {
  // expected-error@+1 {{expected result type 'tensor<8xf32>' (global view) or the local shape [32] for a group of 4 devices, got 'tensor<16xf32>'}}
  %0 = dist.all_gather %x on @mesh axes = ["tp"] dim = 0 : tensor<8xf32> -> tensor<16xf32>
  return
}

// -----

// A local reduce_scatter needs a divisible dim.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<6xf32>) {
  // expected-error@+1 {{operand dim 0 of size 6 does not split over 4 devices}}
  %0 = dist.reduce_scatter %x on @mesh axes = ["tp"] dim = 0 kind = sum : tensor<6xf32> -> tensor<1xf32>
  return
}

// -----

// A local all_to_all rescales both dims.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<8x8xf32>) {
  // expected-error@+1 {{or the local shape [16, 4] for a group of 2 devices}}
  %0 = dist.all_to_all %x on @mesh axes = ["dp"] split_dim = 1 concat_dim = 0 : tensor<8x8xf32> -> tensor<8x4xf32>
  return
}

// -----

// A coalesced all_reduce has one result per operand.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<8xf32>) {
  // expected-error@+1 {{has 2 operands but 1 results}}
  %0 = dist.all_reduce_coalesced %x, %x on @mesh axes = ["dp"] kind = sum : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

// A coalesced all_reduce keeps each type.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<8xf32>, %y: tensor<4xf32>) {
  // expected-error@+1 {{expected result type 'tensor<4xf32>', got 'tensor<8xf32>'}}
  %0:2 = dist.all_reduce_coalesced %x, %y on @mesh axes = ["dp"] kind = sum : (tensor<8xf32>, tensor<4xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  return
}

// -----

// A coalesced reduce_scatter is in one view: here its first pair is local
// (8 rows become 4 over dp=2), its second global (8 stays 8).
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<8x4xf32>, %y: tensor<8xf32>) {
  // expected-error@+1 {{mixes the global view (operand #1 keeps its type) and the local view (operand #0 does not)}}
  %0:2 = dist.reduce_scatter_coalesced %x, %y on @mesh axes = ["dp"] dim = 0 kind = sum : (tensor<8x4xf32>, tensor<8xf32>) -> (tensor<4x4xf32>, tensor<8xf32>)
  return
}

// -----

// A start's handle carries the result types.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<8xf32>) {
  // expected-error@+1 {{has 1 operands but 2 results}}
  %0 = dist.all_reduce_start %x on @mesh axes = ["dp"] kind = sum : tensor<8xf32> -> !dist.handle<tensor<8xf32>, tensor<8xf32>>
  return
}

// -----

// Starts check local shapes as well.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<8xf32>) {
  // expected-error@+1 {{or the local shape [16] for a group of 2 devices}}
  %0 = dist.all_gather_start %x on @mesh axes = ["dp"] dim = 0 : tensor<8xf32> -> !dist.handle<tensor<12xf32>>
  return
}

// -----

// wait yields the handle's types.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%h: !dist.handle<tensor<8xf32>>) {
  // expected-error@+1 {{expected the result types the handle carries}}
  %0 = dist.wait %h : !dist.handle<tensor<8xf32>> -> tensor<4xf32>
  return
}

// -----

// A collective in flight is completed once: a second wait would complete it
// twice.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @two_waits(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  // expected-error@+1 {{'dist.all_reduce_start' op handle is waited for 2 times; it must be waited for once}}
  %h = dist.all_reduce_start %x on @mesh axes = ["dp"] kind = sum : tensor<8xf32> -> !dist.handle<tensor<8xf32>>
  %a = dist.wait %h : !dist.handle<tensor<8xf32>> -> tensor<8xf32>
  %b = dist.wait %h : !dist.handle<tensor<8xf32>> -> tensor<8xf32>
  return %a, %b : tensor<8xf32>, tensor<8xf32>
}

// -----

// Only dist.wait reads a handle: returned, the collective would never end.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @returned_handle(%x: tensor<8xf32>) -> !dist.handle<tensor<16xf32>> {
  // expected-error@+1 {{'dist.all_gather_start' op handle is read by 'func.return'; only one dist.wait may read a handle}}
  %h = dist.all_gather_start %x on @mesh axes = ["dp"] dim = 0 : tensor<8xf32> -> !dist.handle<tensor<16xf32>>
  return %h : !dist.handle<tensor<16xf32>>
}

// -----

// A handle carries tensors.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(
  // expected-error@+1 {{a handle carries ranked tensor types, got 'f32'}}
  %h: !dist.handle<f32>) {
  return
}

// -----

// In the generic form, names and sizes can disagree in length.
// expected-error@+1 {{has 1 axis names but 2 sizes}}
"dist.mesh"() <{axis_names = ["x"], axis_sizes = array<i64: 2, 3>, sym_name = "m"}> : () -> ()

// -----

// A handle carries at least one type (the parser already needs one).
func.func @f(
  // expected-error@+2 {{expected non-function type}}
  // expected-error@+1 {{failed to parse Dist_HandleType parameter 'types'}}
  %h: !dist.handle<>) {
  return
}

// -----

dist.mesh @mesh = <["dp"=2]>

// Declarations (no body) are checked against their signature.
// expected-error@+1 {{argument #0: tensor dim 0 of size 1 has fewer entries than 2}}
func.func private @decl(tensor<1xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}]>})

// -----

dist.mesh @mesh = <["tp"=4]>
func.func @axis_index_unknown_axis() -> index {
  // expected-error@+1 {{'dist.axis_index' op mesh @mesh has no axis "pp"}}
  %i = dist.axis_index @mesh axes = ["pp"] : index
  return %i : index
}

// -----

func.func @axis_index_unknown_mesh() -> index {
  // expected-error@+1 {{'dist.axis_index' op refers to unknown mesh @nowhere}}
  %i = dist.axis_index @nowhere axes = ["tp"] : index
  return %i : index
}

// -----

// dist.local (what dist-partition leaves on a signature) is checked like
// dist.sharding, except for divisibility: the type is the local shard's.
// expected-error@+1 {{argument #0: sharding refers to unknown mesh @nowhere}}
func.func private @local_unknown_mesh(tensor<3xf32> {dist.local = #dist.sharding<@nowhere, [{"x"}]>})

// -----

// The GPU schedule's tag is an op index.
func.func @gpu_tile_not_an_integer(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected 'dist.gpu_tile' to be an integer, got "0"}}
  %y = arith.addf %x, %x {dist.gpu_tile = "0"} : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// dist.gpu_mma marks a product for dist-lower-gpu-mma; it carries no value.
func.func @gpu_mma_with_a_value(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected 'dist.gpu_mma' to be a unit attribute, got 1 : i64}}
  %y = arith.addf %x, %x {dist.gpu_mma = 1 : i64} : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// dist.product_bias marks a product's bias broadcast for dist-call-blas; it
// carries no value.
func.func @product_bias_with_a_value(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected 'dist.product_bias' to be a unit attribute, got 1 : i64}}
  %y = arith.addf %x, %x {dist.product_bias = 1 : i64} : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// Every AdamW state has the parameter's type.
func.func @f(%p: tensor<16xf32>, %g: tensor<16xf32>, %m: tensor<8xf32>, %t: tensor<f32>) {
  // expected-error@+1 {{'dist.adamw' op expected m of type 'tensor<16xf32>' (the parameter's), got 'tensor<8xf32>'}}
  %0:3 = "dist.adamw"(%p, %g, %m, %p, %t) {lr = 1.0e-3 : f64, beta1 = 0.9 : f64, beta2 = 0.999 : f64, epsilon = 1.0e-8 : f64, weight_decay = 0.0 : f64} : (tensor<16xf32>, tensor<16xf32>, tensor<8xf32>, tensor<16xf32>, tensor<f32>) -> (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>)
  return
}

// -----

// The step count is one f32 scalar for the whole step.
func.func @f(%p: tensor<16xf32>, %t: tensor<1xf32>) {
  // expected-error@+1 {{'dist.adamw' op expected step to be a rank-0 f32 tensor (the 1-based step count), got 'tensor<1xf32>'}}
  %0:3 = "dist.adamw"(%p, %p, %p, %p, %t) {lr = 1.0e-3 : f64, beta1 = 0.9 : f64, beta2 = 0.999 : f64, epsilon = 1.0e-8 : f64, weight_decay = 0.0 : f64} : (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<1xf32>) -> (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>)
  return
}

// -----

// A decay rate of 1 never forgets (and 1 - beta1^t divides by zero).
func.func @f(%p: tensor<16xf32>, %t: tensor<f32>) {
  // expected-error@+1 {{'dist.adamw' op expected beta1 in [0, 1), got 1}}
  %0:3 = "dist.adamw"(%p, %p, %p, %p, %t) {lr = 1.0e-3 : f64, beta1 = 1.0 : f64, beta2 = 0.999 : f64, epsilon = 1.0e-8 : f64, weight_decay = 0.0 : f64} : (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<f32>) -> (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>)
  return
}

// -----

// The message gives the value as written, to its last digit.
func.func @f(%p: tensor<16xf32>, %t: tensor<f32>) {
  // expected-error@+1 {{'dist.adamw' op expected beta1 in [0, 1), got 1.0000001}}
  %0:3 = "dist.adamw"(%p, %p, %p, %p, %t) {lr = 1.0e-3 : f64, beta1 = 1.0000001 : f64, beta2 = 0.999 : f64, epsilon = 1.0e-8 : f64, weight_decay = 0.0 : f64} : (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<f32>) -> (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>)
  return
}

// -----

// epsilon keeps the denominator away from zero.
func.func @f(%p: tensor<16xf32>, %t: tensor<f32>) {
  // expected-error@+1 {{'dist.adamw' op expected a finite epsilon > 0, got 0}}
  %0:3 = "dist.adamw"(%p, %p, %p, %p, %t) {lr = 1.0e-3 : f64, beta1 = 0.9 : f64, beta2 = 0.999 : f64, epsilon = 0.0 : f64, weight_decay = 0.0 : f64} : (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<f32>) -> (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>)
  return
}

// -----

// A negative learning rate climbs the loss.
func.func @f(%p: tensor<16xf32>) {
  // expected-error@+1 {{'dist.sgd' op expected a finite lr >= 0, got -0.1}}
  %0 = "dist.sgd"(%p, %p) {lr = -0.1 : f64} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return
}

// -----

// The gradient has the parameter's type.
func.func @f(%p: tensor<16xf32>, %g: tensor<16xbf16>) {
  // expected-error@+1 {{'dist.sgd' op expected grad of type 'tensor<16xf32>' (the parameter's), got 'tensor<16xbf16>'}}
  %0 = "dist.sgd"(%p, %g) {lr = 0.1 : f64} : (tensor<16xf32>, tensor<16xbf16>) -> tensor<16xf32>
  return
}

// -----

// An infinite weight decay is no decay rate.
func.func @f(%p: tensor<16xf32>, %t: tensor<f32>) {
  // expected-error@+1 {{'dist.adamw' op expected a finite weight_decay >= 0, got +Inf}}
  %0:3 = "dist.adamw"(%p, %p, %p, %p, %t) {lr = 1.0e-3 : f64, beta1 = 0.9 : f64, beta2 = 0.999 : f64, epsilon = 1.0e-8 : f64, weight_decay = 0x7FF0000000000000 : f64} : (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<f32>) -> (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>)
  return
}

// -----

// A NaN decay rate is out of every range.
func.func @f(%p: tensor<16xf32>, %t: tensor<f32>) {
  // expected-error@+1 {{'dist.adamw' op expected beta2 in [0, 1), got NaN}}
  %0:3 = "dist.adamw"(%p, %p, %p, %p, %t) {lr = 1.0e-3 : f64, beta1 = 0.9 : f64, beta2 = 0x7FF8000000000000 : f64, epsilon = 1.0e-8 : f64, weight_decay = 0.0 : f64} : (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<f32>) -> (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>)
  return
}

// -----

// In bf16, beta2 = 0.999 is 1 and the bias correction divides by zero:
// the update keeps f32 (or f64) master weights and states.
func.func @f(%p: tensor<16xbf16>, %t: tensor<f32>) {
  // expected-error@+1 {{'dist.adamw' op expected an f32 or f64 parameter (keep half-precision training's master weights in f32), got 'tensor<16xbf16>'}}
  %0:3 = "dist.adamw"(%p, %p, %p, %p, %t) {lr = 1.0e-3 : f64, beta1 = 0.9 : f64, beta2 = 0.999 : f64, epsilon = 1.0e-8 : f64, weight_decay = 0.0 : f64} : (tensor<16xbf16>, tensor<16xbf16>, tensor<16xbf16>, tensor<16xbf16>, tensor<f32>) -> (tensor<16xbf16>, tensor<16xbf16>, tensor<16xbf16>)
  return
}

// -----

// A momentum of 1 never forgets a gradient.
func.func @f(%p: tensor<16xf32>) {
  // expected-error@+1 {{'dist.sgd' op expected momentum in [0, 1), got 1}}
  %0:2 = "dist.sgd"(%p, %p, %p) {lr = 0.1 : f64, momentum = 1.0 : f64} : (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>)
  return
}

// -----

// Momentum without its buffer has nothing to accumulate into.
func.func @f(%p: tensor<16xf32>) {
  // expected-error@+1 {{'dist.sgd' op expected a momentum buffer operand, the momentum attribute and the new buffer result together, got no buffer, a momentum and 1 result(s)}}
  %0 = "dist.sgd"(%p, %p) {lr = 0.1 : f64, momentum = 0.9 : f64} : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return
}

// -----

// The buffer has the parameter's type too.
func.func @f(%p: tensor<16xf32>, %b: tensor<4x4xf32>) {
  // expected-error@+1 {{'dist.sgd' op expected momentum_buffer of type 'tensor<16xf32>' (the parameter's), got 'tensor<4x4xf32>'}}
  %0:2 = "dist.sgd"(%p, %p, %b) {lr = 0.1 : f64, momentum = 0.9 : f64} : (tensor<16xf32>, tensor<16xf32>, tensor<4x4xf32>) -> (tensor<16xf32>, tensor<4x4xf32>)
  return
}

// -----

// A tensor's size in bytes must fit in a signed 64-bit integer: 2^64
// elements would wrap around to 0 (and a memory report of 8 bytes).
func.func @f(%x: tensor<4294967296x4294967296xf32>) {
  // expected-error@+1 {{'dist.relu' op operand #0 of type 'tensor<4294967296x4294967296xf32>' has more than 2^63 - 1 bytes: a tensor's size in bytes must fit in a signed 64-bit integer}}
  %y = dist.relu %x : (tensor<4294967296x4294967296xf32>) -> tensor<4294967296x4294967296xf32>
  return
}

// -----

// 2^61 f32 elements are 2^63 bytes, one more than an int64 holds; the
// element count alone would fit.
func.func @f(%x: tensor<2305843009213693952xi8>) {
  // expected-error@+1 {{'dist.reshape' op result #0 of type 'tensor<2305843009213693952xf32>' has more than 2^63 - 1 bytes}}
  %y = "dist.reshape"(%x) : (tensor<2305843009213693952xi8>) -> tensor<2305843009213693952xf32>
  return
}

// -----

// The largest tensor that fits: 2^63 - 1 bytes (a prime number of them) is
// not an error of its own; this reshape fails on its element count only.
func.func @f(%x: tensor<9223372036854775807xi8>) {
  // expected-error@+1 {{'dist.reshape' op cannot reshape 9223372036854775807 elements into 1}}
  %y = dist.reshape %x : (tensor<9223372036854775807xi8>) -> tensor<1xi8>
  return
}

// -----

// A stage boundary is an identity: it cannot change the type.
func.func @boundary(%x: tensor<8x16xf32>) {
  // expected-error@+1 {{'dist.stage_boundary' op requires the same type for all operands and results}}
  %y = "dist.stage_boundary"(%x) : (tensor<8x16xf32>) -> tensor<8x16xbf16>
  return
}

// -----

// dist.layer marks a function dist-outline-layers made: a unit attribute.
// expected-error @+1 {{expected 'dist.layer' to be a unit attribute, got 1 : i64}}
func.func private @f__layer0() attributes {dist.layer = 1 : i64} {
  return
}

// -----

// A send names a device of its group: a group of 2 over pp has no device 2.
dist.mesh @mesh = <["pp"=2, "dp"=2]>
func.func @f(%x: tensor<8xf32>) {
  // expected-error@+1 {{'dist.send' op names device 2 of a group of 2 over ["pp"]}}
  dist.send %x to 2 on @mesh axes = ["pp"] tag = 0 : tensor<8xf32>
  return
}

// -----

// MPI carries tags up to 32767 everywhere; a larger one may not arrive.
dist.mesh @mesh = <["pp"=2]>
func.func @f() -> tensor<8xf32> {
  // expected-error@+1 {{'dist.recv' op has tag 40000, outside [0, 32767] (MPI's least tag bound)}}
  %y = dist.recv from 0 on @mesh axes = ["pp"] tag = 40000 : tensor<8xf32>
  return %y : tensor<8xf32>
}

// -----

// The group is over axes of the mesh.
dist.mesh @mesh = <["dp"=2]>
func.func @f() -> tensor<8xf32> {
  // expected-error@+1 {{'dist.recv' op mesh @mesh has no axis "pp"}}
  %y = dist.recv from 0 on @mesh axes = ["pp"] tag = 1 : tensor<8xf32>
  return %y : tensor<8xf32>
}

// -----

// pow broadcasts as add does: trailing dims must match or be 1.
func.func @f(%x: tensor<4x8xf32>, %y: tensor<4xf32>) {
  // expected-error@+1 {{x and y do not broadcast: 8 vs 4 at dim 1 of the result}}
  %0 = dist.pow %x, %y : (tensor<4x8xf32>, tensor<4xf32>) -> tensor<4x8xf32>
  return
}

// -----

// Booleans combine with dist.and, dist.or and dist.xor, not arithmetic.
func.func @f(%x: tensor<4xi1>, %y: tensor<4xi1>) {
  // expected-error@+1 {{computes on floats and integers, not i1 (booleans combine with dist.and, dist.or and dist.xor)}}
  %0 = dist.add %x, %y : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return
}

// -----

// Integer arithmetic, but no integer power.
func.func @f(%x: tensor<4xi32>, %y: tensor<4xi32>) {
  // expected-error@+1 {{'dist.pow' op computes on floats, not 'i32'}}
  %0 = dist.pow %x, %y : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return
}

// -----

// An operand of an integer op has the result's element type.
func.func @f(%x: tensor<4xi32>, %y: tensor<4xi64>) {
  // expected-error@+1 {{expects one element type, got 'i32' and 'i64'}}
  %0 = dist.mul %x, %y : (tensor<4xi32>, tensor<4xi64>) -> tensor<4xi32>
  return
}

// -----

// A comparison has one of StableHLO's six directions.
func.func @f(%x: tensor<4xf32>, %y: tensor<4xf32>) {
  // expected-error@+1 {{direction must be one of "eq", "ne", "lt", "le", "gt", "ge", got "gte"}}
  %0 = dist.compare %x, %y {direction = "gte"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return
}

// -----

// It compares values of one type.
func.func @f(%x: tensor<4xf32>, %y: tensor<4xf64>) {
  // expected-error@+1 {{expects x and y of one element type, got 'f32' and 'f64'}}
  %0 = dist.compare %x, %y {direction = "lt"} : (tensor<4xf32>, tensor<4xf64>) -> tensor<4xi1>
  return
}

// -----

// Numbers, not indices.
func.func @f(%x: tensor<4xindex>, %y: tensor<4xindex>) {
  // expected-error@+1 {{compares floats, integers and booleans, not 'index'}}
  %0 = dist.compare %x, %y {direction = "lt"} : (tensor<4xindex>, tensor<4xindex>) -> tensor<4xi1>
  return
}

// -----

// Its result has the broadcast shape.
func.func @f(%x: tensor<4x8xf32>, %y: tensor<8xf32>) {
  // expected-error@+1 {{expected out dim 0 to be 4, got 1}}
  %0 = dist.compare %x, %y {direction = "lt"} : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<1x8xi1>
  return
}

// -----

// The three operands of a select broadcast together.
func.func @f(%p: tensor<3xi1>, %x: tensor<4x8xf32>, %y: tensor<f32>) {
  // expected-error@+1 {{pred, on_true and on_false do not broadcast: 3 vs 8 at dim 1 of the result}}
  %0 = dist.select %p, %x, %y : (tensor<3xi1>, tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  return
}

// -----

// Both choices have the result's element type.
func.func @f(%p: tensor<4xi1>, %x: tensor<4xf32>, %y: tensor<4xi32>) {
  // expected-error@+1 {{expected on_false element type 'f32', got 'i32'}}
  %0 = dist.select %p, %x, %y : (tensor<4xi1>, tensor<4xf32>, tensor<4xi32>) -> tensor<4xf32>
  return
}

// -----

// The predicate is boolean.
func.func @f(%p: tensor<4xi32>, %x: tensor<4xf32>, %y: tensor<4xf32>) {
  // expected-error@+1 {{operand #0 must be statically shaped tensor of 1-bit signless integer values}}
  %0 = dist.select %p, %x, %y : (tensor<4xi32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// select_grad gives each choice a gradient of its own shape.
func.func @f(%p: tensor<4x8xi1>, %x: tensor<4x8xf32>, %y: tensor<f32>, %d: tensor<4x8xf32>) {
  // expected-error@+1 {{expected d_on_false to have rank 0, got 2}}
  %0:2 = dist.select_grad %p, %x, %y, %d : (tensor<4x8xi1>, tensor<4x8xf32>, tensor<f32>, tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
  return
}

// -----

// Logic takes booleans or integers, of one type.
func.func @f(%x: tensor<4xi1>, %y: tensor<4xi32>) {
  // expected-error@+1 {{expects one element type, got 'i1' and 'i32'}}
  %0 = dist.and %x, %y : (tensor<4xi1>, tensor<4xi32>) -> tensor<4xi1>
  return
}

// -----

// Not floats.
func.func @f(%x: tensor<4xf32>) {
  // expected-error@+1 {{operand #0 must be statically shaped tensor of signless integer values}}
  %0 = dist.not %x : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// An iota counts along one of its result's dims.
func.func @f() {
  // expected-error@+1 {{dim 2 is out of range for a result of rank 2}}
  %0 = dist.iota {dim = 2 : i64} : () -> tensor<4x8xi32>
  return
}

// -----

// A cast keeps the shape.
func.func @f(%x: tensor<4xi1>) {
  // expected-error@+1 {{result type 'tensor<2x2xf32>' has another shape than the operand's 'tensor<4xi1>'}}
  %0 = dist.cast %x : (tensor<4xi1>) -> tensor<2x2xf32>
  return
}

// -----

// is_finite keeps its operand's shape.
func.func @f(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{expected out dim 1 to be 8, got 1}}
  %0 = dist.is_finite %x : (tensor<4x8xf32>) -> tensor<4x1xi1>
  return
}

// -----

// A running sum is along a dim of x.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{dim 2 is out of range [0, 2)}}
  %0 = dist.cumsum %x {dim = 2 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

// A running sum is of numbers, not booleans.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<4x8xi1>) {
  // expected-error@+1 {{sums booleans: a running sum is of numbers}}
  %0 = dist.cumsum %x {dim = 1 : i64} : (tensor<4x8xi1>) -> tensor<4x8xi1>
  return
}

// -----

// Its result has x's type.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{requires the same type for all operands and results}}
  %0 = dist.cumsum %x {dim = 1 : i64} : (tensor<4x8xf32>) -> tensor<4x8xf64>
  return
}


// -----

// A remainder is of numbers, not booleans.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @f(%x: tensor<4x8xi1>) {
  // expected-error@+1 {{computes on floats and integers, not i1}}
  %0 = dist.rem %x, %x : (tensor<4x8xi1>, tensor<4x8xi1>) -> tensor<4x8xi1>
  return
}

// -----

// An entry block with fewer arguments than the signature, whose missing
// argument carries a sharding, is the function's error (the sharding is
// checked against the signature's type; this crashed the verifier once).
dist.mesh @mesh = <["dp"=2, "tp"=4]>
// expected-error@+1 {{entry block must have 2 arguments to match function signature}}
"func.func"() <{arg_attrs = [{}, {dist.sharding = #dist.sharding<@mesh, [{"dp"}]>}], function_type = (tensor<4xf32>, tensor<4xf32>) -> (), sym_name = "f"}> ({
^bb0(%x: tensor<4xf32>):
  "func.return"() : () -> ()
}) : () -> ()

// -----

// dist.top_k picks 1 to n of the n entries of the last dim.
func.func @top_k_more_than_the_row(%x: tensor<4x6xf32>) {
  // expected-error @+1 {{'dist.top_k' op expected k in [1, 6] (the size of x's last dim), got 7}}
  %v, %i = dist.top_k %x {k = 7 : i64} : (tensor<4x6xf32>) -> (tensor<4x7xf32>, tensor<4x7xi64>)
  return
}

// -----

// Its values and indices are x's shape with k entries last.
func.func @top_k_values_of_another_count(%x: tensor<4x6xf32>) {
  // expected-error @+1 {{'dist.top_k' op expected values dim 1 to be 2, got 3}}
  %v, %i = dist.top_k %x {k = 2 : i64} : (tensor<4x6xf32>) -> (tensor<4x3xf32>, tensor<4x2xi64>)
  return
}

// -----

// dist.top_k_grad: the gradient of a row holds every picked entry.
func.func @top_k_grad_of_a_short_row(%i: tensor<4x2xi64>, %d: tensor<4x2xf32>) {
  // expected-error @+1 {{'dist.top_k_grad' op expected dx's last dim to hold the 2 picked entries, got 1}}
  %dx = dist.top_k_grad %i, %d : (tensor<4x2xi64>, tensor<4x2xf32>) -> tensor<4x1xf32>
  return
}

// -----

// ... and one gradient per picked index.
func.func @top_k_grad_of_other_picks(%i: tensor<4x2xi64>, %d: tensor<4x3xf32>) {
  // expected-error @+1 {{'dist.top_k_grad' op expected dvalues dim 1 to be 2, got 3}}
  %dx = dist.top_k_grad %i, %d : (tensor<4x2xi64>, tensor<4x3xf32>) -> tensor<4x6xf32>
  return
}

// -----

// dist.attention: queries then features last in q.
func.func @attention_of_a_vector(%q: tensor<8xf32>) {
  // expected-error @+1 {{'dist.attention' op expected q of rank >= 2 (queries, features), got rank 1}}
  %o, %l = dist.attention %q, %q, %q {scale = 1.0 : f64} : (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<f32>)
  return
}

// -----

// k and v have q's rank.
func.func @attention_of_other_ranks(%q: tensor<2x8x4xf32>, %k: tensor<8x4xf32>) {
  // expected-error @+1 {{'dist.attention' op expected k and v of q's rank 3, got 2 and 2}}
  %o, %l = dist.attention %q, %k, %k {scale = 1.0 : f64} : (tensor<2x8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>) -> (tensor<2x8x4xf32>, tensor<2x8xf32>)
  return
}

// -----

// A leading dim of k and v is q's or 1 (shared by the query heads).
func.func @attention_of_other_heads(%q: tensor<4x8x4xf32>, %k: tensor<2x8x4xf32>) {
  // expected-error @+1 {{'dist.attention' op expected k dim 0 to be 4 (q's) or 1 (broadcast), got 2}}
  %o, %l = dist.attention %q, %k, %k {scale = 1.0 : f64} : (tensor<4x8x4xf32>, tensor<2x8x4xf32>, tensor<2x8x4xf32>) -> (tensor<4x8x4xf32>, tensor<4x8xf32>)
  return
}

// -----

// q and k have one feature count.
func.func @attention_of_other_features(%q: tensor<8x4xf32>, %k: tensor<8x2xf32>) {
  // expected-error @+1 {{'dist.attention' op expected k's features (last dim) to be q's 4, got 2}}
  %o, %l = dist.attention %q, %k, %k {scale = 1.0 : f64} : (tensor<8x4xf32>, tensor<8x2xf32>, tensor<8x2xf32>) -> (tensor<8x2xf32>, tensor<8xf32>)
  return
}

// -----

// k and v have one key count.
func.func @attention_of_other_keys(%q: tensor<8x4xf32>, %k: tensor<8x4xf32>, %v: tensor<6x4xf32>) {
  // expected-error @+1 {{'dist.attention' op expected v dim 0 (keys) to be 8, got 6}}
  %o, %l = dist.attention %q, %k, %v {scale = 1.0 : f64} : (tensor<8x4xf32>, tensor<8x4xf32>, tensor<6x4xf32>) -> (tensor<8x4xf32>, tensor<8xf32>)
  return
}

// -----

// out has q's queries and v's features.
func.func @attention_out_of_q_features(%q: tensor<8x4xf32>, %k: tensor<8x4xf32>, %v: tensor<8x2xf32>) {
  // expected-error @+1 {{'dist.attention' op expected out dim 1 to be 2, got 4}}
  %o, %l = dist.attention %q, %k, %v {scale = 1.0 : f64} : (tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x2xf32>) -> (tensor<8x4xf32>, tensor<8xf32>)
  return
}

// -----

// One float type for q, k, v and out.
func.func @attention_of_mixed_types(%q: tensor<8x4xf32>, %k: tensor<8x4xbf16>) {
  // expected-error @+1 {{'dist.attention' op expected k element type 'f32', got 'bf16'}}
  %o, %l = dist.attention %q, %k, %k {scale = 1.0 : f64} : (tensor<8x4xf32>, tensor<8x4xbf16>, tensor<8x4xbf16>) -> (tensor<8x4xf32>, tensor<8xf32>)
  return
}

// -----

// The log-sum-exp is f32 for 16-bit inputs.
func.func @attention_lse_in_bf16(%q: tensor<8x4xbf16>) {
  // expected-error @+1 {{'dist.attention' op expected lse element type 'f32', got 'bf16'}}
  %o, %l = dist.attention %q, %q, %q {scale = 1.0 : f64} : (tensor<8x4xbf16>, tensor<8x4xbf16>, tensor<8x4xbf16>) -> (tensor<8x4xbf16>, tensor<8xbf16>)
  return
}

// -----

// balance orders a causal mask's positions.
func.func @attention_balanced_without_mask(%q: tensor<8x4xf32>) {
  // expected-error @+1 {{'dist.attention' op balance orders the positions of a causal mask: expected causal}}
  %o, %l = dist.attention %q, %q, %q {balance = 2 : i64, scale = 1.0 : f64} : (tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<8xf32>)
  return
}

// -----

// ... into 2 x balance equal chunks of the keys.
func.func @attention_balanced_unevenly(%q: tensor<6x4xf32>) {
  // expected-error @+1 {{'dist.attention' op expected balance >= 1 dividing the 6 keys into 2 x balance equal chunks, got 2}}
  %o, %l = dist.attention %q, %q, %q {balance = 2 : i64, causal, scale = 1.0 : f64} : (tensor<6x4xf32>, tensor<6x4xf32>, tensor<6x4xf32>) -> (tensor<6x4xf32>, tensor<6xf32>)
  return
}

// -----

// The balanced positions are the keys': no more queries than keys.
func.func @attention_balanced_past_the_keys(%q: tensor<16x4xf32>, %k: tensor<8x4xf32>) {
  // expected-error @+1 {{'dist.attention' op expected at most the 8 keys' queries under balance, got 16}}
  %o, %l = dist.attention %q, %k, %k {balance = 2 : i64, causal, scale = 1.0 : f64} : (tensor<16x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>) -> (tensor<16x4xf32>, tensor<16xf32>)
  return
}

// -----

// dist.attention_grad: each gradient has its operand's type.
func.func @attention_grad_of_another_type(%q: tensor<8x4xf32>, %l: tensor<8xf32>) {
  // expected-error @+1 {{'dist.attention_grad' op expected dk of type 'tensor<8x4xf32>', got 'tensor<8x2xf32>'}}
  %dq, %dk, %dv = dist.attention_grad %q, %q, %q, %q, %l, %q {causal, scale = 1.0 : f64} : (tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<8xf32>, tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<8x2xf32>, tensor<8x4xf32>)
  return
}

// -----

// ... and dout has out's.
func.func @attention_grad_of_another_dout(%q: tensor<8x4xf32>, %l: tensor<8xf32>, %d: tensor<8x2xf32>) {
  // expected-error @+1 {{'dist.attention_grad' op expected dout of type 'tensor<8x4xf32>', got 'tensor<8x2xf32>'}}
  %dq, %dk, %dv = dist.attention_grad %q, %q, %q, %q, %l, %d {scale = 1.0 : f64} : (tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>, tensor<8xf32>, tensor<8x2xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>)
  return
}

// -----

// k and v broadcast over the same heads.
func.func @attention_k_and_v_of_other_heads(%q: tensor<4x8x4xf32>, %k: tensor<1x8x4xf32>) {
  // expected-error @+1 {{'dist.attention' op expected k and v of one leading shape (the heads they share)}}
  %o, %l = dist.attention %q, %k, %q {scale = 1.0 : f64} : (tensor<4x8x4xf32>, tensor<1x8x4xf32>, tensor<4x8x4xf32>) -> (tensor<4x8x4xf32>, tensor<4x8xf32>)
  return
}

// -----

// An offset places the queries of a causal mask.
func.func @attention_offset_without_mask(%q: tensor<8x4xf32>, %first: index) {
  // expected-error @+1 {{'dist.attention' op an offset places the queries of a causal mask: expected causal}}
  %o, %l = dist.attention %q, %q, %q, %first {scale = 1.0 : f64} : (tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>, index) -> (tensor<8x4xf32>, tensor<8xf32>)
  return
}
