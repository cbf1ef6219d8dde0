// RUN: dist-opt %s --split-input-file --verify-diagnostics --dist-schedule-pipeline -o /dev/null

// A batch norm: each microbatch's values against the mean over all of
// them, which exists only once every microbatch has run.
dist.mesh @mesh = <["mb"=2]>
func.func @batch_norm(%x: tensor<2x8xf32> {dist.local = #dist.sharding<@mesh, [{"mb"}, {}]>})
    -> (tensor<f32> {dist.local = #dist.sharding<@mesh, []>}) attributes {dist.microbatch_axis = "mb"} {
  %s = dist.reduce_mean %x {dims = array<i64: 0, 1>} : (tensor<2x8xf32>) -> tensor<f32>
  %mean = dist.all_reduce %s on @mesh axes = ["mb"] kind = avg : tensor<f32> -> tensor<f32>
  // expected-error @below {{reads a value of one microbatch and a sum over all of them: the microbatches depend on each other: the sum is the dist.all_reduce on line 9}}
  %c = dist.sub %x, %mean : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %l = dist.reduce_sum %c {dims = array<i64: 0, 1>} : (tensor<2x8xf32>) -> tensor<f32>
  %loss = dist.all_reduce %l on @mesh axes = ["mb"] kind = sum : tensor<f32> -> tensor<f32>
  return %loss : tensor<f32>
}

// -----

// Gathering the microbatches moves data between them.
dist.mesh @mesh = <["mb"=2]>
func.func @gather(%x: tensor<2x8xf32> {dist.local = #dist.sharding<@mesh, [{"mb"}, {}]>})
    -> (tensor<4x8xf32> {dist.local = #dist.sharding<@mesh, [{}, {}]>}) attributes {dist.microbatch_axis = "mb"} {
  // expected-error @below {{a collective over the microbatch axis other than an all-reduce moves data between microbatches: the microbatches cannot run one after another}}
  %g = dist.all_gather %x on @mesh axes = ["mb"] dim = 0 : tensor<2x8xf32> -> tensor<4x8xf32>
  return %g : tensor<4x8xf32>
}

// -----

// Each microbatch ran on a device of its own; run one after another they
// have no device index along the axis.
dist.mesh @mesh = <["mb"=2]>
func.func @index(%x: tensor<2x8xf32> {dist.local = #dist.sharding<@mesh, [{"mb"}, {}]>})
    -> (tensor<2x8xf32> {dist.local = #dist.sharding<@mesh, [{"mb"}, {}]>}, index) attributes {dist.microbatch_axis = "mb"} {
  // expected-error @below {{reads the device's index along the microbatch axis: the microbatches cannot run one after another}}
  %i = dist.axis_index @mesh axes = ["mb"] : index
  return %x, %i : tensor<2x8xf32>, index
}

// -----

// A result of one microbatch that its layout calls the same on every
// microbatch: no way to make one value of several.
dist.mesh @mesh = <["mb"=2]>
func.func @replicated_result(%x: tensor<2x8xf32> {dist.local = #dist.sharding<@mesh, [{"mb"}, {}]>})
    -> (tensor<2x8xf32> {dist.local = #dist.sharding<@mesh, [{}, {}]>}) attributes {dist.microbatch_axis = "mb"} {
  %y = dist.gelu %x : (tensor<2x8xf32>) -> tensor<2x8xf32>
  // expected-error @below {{result #0 is one microbatch's value, but its layout neither splits it nor sums it over "mb"}}
  return %y : tensor<2x8xf32>
}

// -----

// A skip connection around a boundary: the second stage reads a
// microbatch's value of the first without one, a wait the schedule knows
// nothing of.
dist.mesh @mesh = <["pp"=2, "mb"=2]>
func.func @skip(%x: tensor<2x8xf32> {dist.local = #dist.sharding<@mesh, [{"mb"}, {}]>})
    -> (tensor<2x8xf32> {dist.local = #dist.sharding<@mesh, [{"mb"}, {}]>}) attributes {dist.microbatch_axis = "mb"} {
  %a = dist.gelu %x : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %b = dist.stage_boundary %a : (tensor<2x8xf32>) -> tensor<2x8xf32>
  // expected-error @below {{runs on stage 1 and reads a microbatch's value of stage 0 (the dist.gelu on line 60) without a dist.stage_boundary between neighbouring stages}}
  %c = dist.add %b, %a : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  return %c : tensor<2x8xf32>
}

// -----

// The global view (before dist-lower-to-local) has no per-device layouts:
// the step is not one microbatch's yet.
dist.mesh @mesh = <["mb"=2]>
// expected-error @below {{no argument is split over the microbatch axis "mb": run dist-lower-to-local after dist-split-microbatches first}}
func.func @global(%x: tensor<4x8xf32> {dist.sharding = #dist.sharding<@mesh, [{"mb"}, {}]>}) -> tensor<4x8xf32>
    attributes {dist.microbatch_axis = "mb"} {
  return %x : tensor<4x8xf32>
}

// -----

// dist-split-microbatches adds the axis last; it is removed from there.
dist.mesh @mesh = <["mb"=2, "dp"=2]>
// expected-error @below {{the microbatch axis "mb" is not the mesh's last (dist-split-microbatches adds it last)}}
func.func @not_last(%x: tensor<2x8xf32> {dist.local = #dist.sharding<@mesh, [{"mb"}, {}]>})
    -> (tensor<2x8xf32> {dist.local = #dist.sharding<@mesh, [{"mb"}, {}]>}) attributes {dist.microbatch_axis = "mb"} {
  return %x : tensor<2x8xf32>
}

// -----

// A data argument summed over the microbatches as it is: the sum of its
// slices is no op's result, which the sums are made of.
dist.mesh @mesh = <["mb"=2]>
func.func @raw_sum(%x: tensor<2x8xf32> {dist.local = #dist.sharding<@mesh, [{"mb"}, {}]>})
    -> (tensor<2x8xf32> {dist.local = #dist.sharding<@mesh, [{}, {}]>}) attributes {dist.microbatch_axis = "mb"} {
  // expected-error @below {{sums data argument operand #0 over the microbatches as it is: no op reads it}}
  %s = dist.all_reduce %x on @mesh axes = ["mb"] kind = sum : tensor<2x8xf32> -> tensor<2x8xf32>
  return %s : tensor<2x8xf32>
}

// -----

// The loss of stage 1 read inside the region of a backward op of stage 0
// (a loss-scale test): a transfer brings operands of the body's ops only.
dist.mesh @mesh = <["pp"=2, "mb"=2]>
func.func @nested(%x: tensor<2x8xf32> {dist.local = #dist.sharding<@mesh, [{"mb"}, {}]>}, %c: i1)
    -> (tensor<f32> {dist.local = #dist.sharding<@mesh, []>}, tensor<f32> {dist.local = #dist.sharding<@mesh, []>})
    attributes {dist.microbatch_axis = "mb"} {
  %h = dist.gelu %x : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %b = dist.stage_boundary %h : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %l = dist.reduce_sum %b {dims = array<i64: 0, 1>} : (tensor<2x8xf32>) -> tensor<f32>
  %loss = dist.all_reduce %l on @mesh axes = ["mb"] kind = sum : tensor<f32> -> tensor<f32>
  %one = arith.constant dense<1.0> : tensor<f32>
  %g = dist.reduce_sum_grad %b, %one {dims = array<i64: 0, 1>} : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %gb = dist.stage_boundary %g : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %d = dist.reduce_sum %gb {dims = array<i64: 0, 1>} : (tensor<2x8xf32>) -> tensor<f32>
  %sd = dist.all_reduce %d on @mesh axes = ["mb"] kind = sum : tensor<f32> -> tensor<f32>
  // expected-error @below {{runs on stage 0 and reads a value of stage 1 inside its regions: a value crosses stages as an operand of an op of the step's body}}
  %r = scf.if %c -> tensor<f32> {
    scf.yield %loss : tensor<f32>
  } else {
    scf.yield %sd : tensor<f32>
  }
  return %loss, %r : tensor<f32>, tensor<f32>
}

// -----

// The mark on a declaration: no body to schedule.
dist.mesh @mesh = <["mb"=2]>
// expected-error @below {{dist.microbatch_axis marks a function without a body: there is no step to schedule}}
func.func private @declared(tensor<2x8xf32>) -> tensor<2x8xf32> attributes {dist.microbatch_axis = "mb"}
