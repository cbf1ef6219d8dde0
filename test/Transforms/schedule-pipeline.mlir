// RUN: dist-opt %s --split-input-file --dist-schedule-pipeline=schedule=gpipe | FileCheck %s --check-prefix=GPIPE
// RUN: dist-opt %s --split-input-file --dist-schedule-pipeline=schedule=1f1b | FileCheck %s --check-prefix=1F1B
// RUN: dist-opt %s --split-input-file --dist-schedule-pipeline=schedule=zb-h1 | FileCheck %s --check-prefix=1F1B
// With trace-jobs each part of a microbatch's work is announced to the
// runtime, which names its compute spans (dist-run --trace).
// RUN: dist-opt %s --split-input-file --dist-schedule-pipeline="schedule=1f1b trace-jobs=true" | FileCheck %s --check-prefix=TRACE
// The rewritten step has no microbatch axis left: a second run finds
// nothing to do.
// RUN: dist-opt %s --split-input-file --dist-schedule-pipeline > %t
// RUN: dist-opt %t --split-input-file --dist-schedule-pipeline | diff %t -

// One microbatch's step (dist-split-microbatches, then dist-lower-to-local):
// the weight's transpose reads no data and runs once; the forward and the
// weight gradient run per microbatch on its slice of %x; the gradient is
// summed over the microbatches, then all-reduced over dp once; the loss,
// an average, is the sum over 2; %y, split over the microbatches, their
// concatenation.
dist.mesh @mesh = <["dp"=2, "mb"=2]>
func.func @step(%x: tensor<2x8xf32> {dist.batch_dim = 0 : i64, dist.local = #dist.sharding<@mesh, [{"dp", "mb"}, {}]>},
                %w: tensor<8x8xf32> {dist.local = #dist.sharding<@mesh, [{}, {}]>})
    -> (tensor<f32> {dist.local = #dist.sharding<@mesh, []>},
        tensor<8x8xf32> {dist.local = #dist.sharding<@mesh, [{}, {}]>},
        tensor<2x8xf32> {dist.local = #dist.sharding<@mesh, [{"dp", "mb"}, {}]>})
    attributes {dist.microbatch_axis = "mb"} {
  %wt = dist.transpose %w {perm = array<i64: 1, 0>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %y = dist.matmul %x, %wt : (tensor<2x8xf32>, tensor<8x8xf32>) -> tensor<2x8xf32>
  %l = dist.reduce_mean %y {dims = array<i64: 0, 1>} : (tensor<2x8xf32>) -> tensor<f32>
  %loss = dist.all_reduce %l on @mesh axes = ["dp", "mb"] kind = avg : tensor<f32> -> tensor<f32>
  %dw = dist.matmul %x, %y {transpose_x} : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<8x8xf32>
  %g = dist.all_reduce %dw on @mesh axes = ["dp", "mb"] kind = sum : tensor<8x8xf32> -> tensor<8x8xf32>
  %w2 = dist.sub %w, %g : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %loss, %w2, %y : tensor<f32>, tensor<8x8xf32>, tensor<2x8xf32>
}

// GPIPE:      dist.mesh @mesh = <["dp"=2]>
// GPIPE-NEXT: func.func @step(%[[X:.*]]: tensor<4x8xf32> {dist.batch_dim = 0 : i64, dist.local = #dist.sharding<@mesh, [{"dp"}, {}]>}, %[[W:.*]]: tensor<8x8xf32> {{.*}}) -> (tensor<f32> {{.*}}, tensor<8x8xf32> {{.*}}, tensor<4x8xf32> {dist.local = #dist.sharding<@mesh, [{"dp"}, {}]>}) {
// GPIPE-NEXT:   %[[WT:.*]] = dist.transpose %[[W]]
// F0, F1: the forward's function on each microbatch's slice.
// GPIPE-NEXT:   %[[X0:.*]] = dist.slice %[[X]] {offsets = array<i64: 0, 0>, sizes = array<i64: 2, 8>} : (tensor<4x8xf32>) -> tensor<2x8xf32>
// GPIPE-NEXT:   %[[F0:.*]]:2 = call @step__f(%[[X0]], %[[WT]]) {no_inline} : (tensor<2x8xf32>, tensor<8x8xf32>) -> (tensor<2x8xf32>, tensor<f32>)
// GPIPE-NEXT:   %[[X1:.*]] = dist.slice %[[X]] {offsets = array<i64: 2, 0>, sizes = array<i64: 2, 8>}
// GPIPE-NEXT:   %[[F1:.*]]:2 = call @step__f(%[[X1]], %[[WT]])
// GPIPE-NEXT:   %[[L:.*]] = dist.add %[[F0]]#1, %[[F1]]#1
// W0, W1:
// GPIPE-NEXT:   %[[DW0:.*]] = call @step__w(%[[X0]], %[[F0]]#0) {no_inline}
// GPIPE-NEXT:   %[[DW1:.*]] = call @step__w(%[[X1]], %[[F1]]#0)
// GPIPE-NEXT:   %[[DW:.*]] = dist.add %[[DW0]], %[[DW1]]
// Once, after the microbatches:
// GPIPE-NEXT:   %[[MEAN:.*]] = dist.scale %[[L]] {factor = 5.000000e-01 : f64}
// GPIPE-NEXT:   %[[LOSS:.*]] = dist.all_reduce %[[MEAN]] on @mesh axes = ["dp"] kind = avg
// GPIPE-NEXT:   %[[G:.*]] = dist.all_reduce %[[DW]] on @mesh axes = ["dp"] kind = sum
// GPIPE-NEXT:   %[[W2:.*]] = dist.sub %[[W]], %[[G]]
// GPIPE-NEXT:   %[[Y:.*]] = dist.concat %[[F0]]#0, %[[F1]]#0 {dim = 0 : i64} : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<4x8xf32>
// GPIPE-NEXT:   return %[[LOSS]], %[[W2]], %[[Y]]
// GPIPE-NEXT: }
// GPIPE-NEXT: func.func private @step__f(%[[A:.*]]: tensor<2x8xf32>, %[[B:.*]]: tensor<8x8xf32>) -> (tensor<2x8xf32>, tensor<f32>) {
// GPIPE-NEXT:   %[[FY:.*]] = dist.matmul %[[A]], %[[B]]
// GPIPE-NEXT:   %[[FL:.*]] = dist.reduce_mean %[[FY]]
// GPIPE-NEXT:   return %[[FY]], %[[FL]]
// GPIPE-NEXT: }
// GPIPE-NEXT: func.func private @step__w(%[[C:.*]]: tensor<2x8xf32>, %[[D:.*]]: tensor<2x8xf32>) -> tensor<8x8xf32> {
// GPIPE-NEXT:   %[[WW:.*]] = dist.matmul %[[C]], %[[D]] {transpose_x}
// GPIPE-NEXT:   return %[[WW]]

// TRACE:      func.func private @dist_rt_trace_job(i64, i64)
// TRACE-LABEL: func.func @step
// TRACE:        %[[F:.*]] = arith.constant 0 : i64
// TRACE-NEXT:   %[[M0:.*]] = arith.constant 0 : i64
// TRACE-NEXT:   call @dist_rt_trace_job(%[[F]], %[[M0]]) : (i64, i64) -> ()
// TRACE:        call @step__f(
// TRACE:        %[[W:.*]] = arith.constant 2 : i64
// TRACE-NEXT:   %[[M0W:.*]] = arith.constant 0 : i64
// TRACE-NEXT:   call @dist_rt_trace_job(%[[W]], %[[M0W]])
// TRACE-NEXT:   call @step__w(
// The work after the microbatches is the step's own again (-1).
// TRACE:        %[[NONE:.*]] = arith.constant -1 : i64
// TRACE-NEXT:   %{{.*}} = arith.constant 0 : i64
// TRACE-NEXT:   call @dist_rt_trace_job(%[[NONE]]

// 1F1B (and ZB-H1 on one stage): each microbatch's backward right after its
// forward.
// 1F1B:      %[[X0:.*]] = dist.slice
// 1F1B-NEXT: %[[F0:.*]]:2 = call @step__f(%[[X0]]
// 1F1B-NEXT: %[[DW0:.*]] = call @step__w(%[[X0]], %[[F0]]#0)
// 1F1B-NEXT: %[[X1:.*]] = dist.slice
// 1F1B-NEXT: %[[F1:.*]]:2 = call @step__f(%[[X1]]
// 1F1B-NEXT: dist.add %[[F0]]#1, %[[F1]]#1
// 1F1B-NEXT: %[[DW1:.*]] = call @step__w(%[[X1]], %[[F1]]#0)
// 1F1B-NEXT: dist.add %[[DW0]], %[[DW1]]


// -----


// Over the microbatch axis alone, the reduction is the sum itself; a
// result partial over the axis is summed too; a constant every microbatch
// holds alike and that the step reduces over the axis counts once per
// microbatch (3 x 1.0); an async all-reduce's wait takes the sum; the
// mesh keeps its explicit device order.
dist.mesh @mesh = <["dp"=2, "mb"=3], devices = [3, 4, 5, 0, 1, 2]>
func.func @sums(%x: tensor<3x4xf32> {dist.batch_dim = 0 : i64, dist.local = #dist.sharding<@mesh, [{"mb"}, {}]>})
    -> (tensor<4xf32> {dist.local = #dist.sharding<@mesh, [{}], partial = sum{"mb"}>},
        tensor<f32> {dist.local = #dist.sharding<@mesh, []>},
        tensor<4xf32> {dist.local = #dist.sharding<@mesh, [{}]>})
    attributes {dist.microbatch_axis = "mb"} {
  %s = dist.reduce_sum %x {dims = array<i64: 0>} : (tensor<3x4xf32>) -> tensor<4xf32>
  %one = arith.constant dense<1.0> : tensor<f32>
  %n = dist.all_reduce %one on @mesh axes = ["mb"] kind = sum : tensor<f32> -> tensor<f32>
  %m = dist.reduce_max %x {dims = array<i64: 0>} : (tensor<3x4xf32>) -> tensor<4xf32>
  %h = dist.all_reduce_start %m on @mesh axes = ["mb"] kind = max : tensor<4xf32> -> !dist.handle<tensor<4xf32>>
  %max = dist.wait %h : !dist.handle<tensor<4xf32>> -> tensor<4xf32>
  return %s, %n, %max : tensor<4xf32>, tensor<f32>, tensor<4xf32>
}

// GPIPE:      dist.mesh @mesh = <["dp"=2], devices = [1, 0]>
// GPIPE-NEXT: func.func @sums(%[[X:.*]]: tensor<9x4xf32> {dist.batch_dim = 0 : i64, dist.local = #dist.sharding<@mesh, [{}, {}]>}) -> (tensor<4xf32> {dist.local = #dist.sharding<@mesh, [{}]>}, tensor<f32> {{.*}}, tensor<4xf32> {{.*}}) {
// GPIPE-NEXT:   %[[ONE:.*]] = arith.constant
// The loss (the first result) is the forward, the maximum the rest:
// GPIPE-NEXT:   %[[X0:.*]] = dist.slice %[[X]] {offsets = array<i64: 0, 0>, sizes = array<i64: 3, 4>}
// GPIPE-NEXT:   %[[S0:.*]] = call @sums__f(%[[X0]])
// GPIPE-NEXT:   %[[X1:.*]] = dist.slice %[[X]] {offsets = array<i64: 3, 0>, sizes = array<i64: 3, 4>}
// GPIPE-NEXT:   %[[S1:.*]] = call @sums__f(%[[X1]])
// GPIPE-NEXT:   %[[S01:.*]] = dist.add %[[S0]], %[[S1]]
// GPIPE-NEXT:   %[[X2:.*]] = dist.slice %[[X]] {offsets = array<i64: 6, 0>, sizes = array<i64: 3, 4>}
// GPIPE-NEXT:   %[[S2:.*]] = call @sums__f(%[[X2]])
// GPIPE-NEXT:   %[[S:.*]] = dist.add %[[S01]], %[[S2]]
// GPIPE-NEXT:   %[[M0:.*]] = call @sums__w(%[[X0]])
// GPIPE-NEXT:   %[[M1:.*]] = call @sums__w(%[[X1]])
// GPIPE-NEXT:   %[[M01:.*]] = dist.maximum %[[M0]], %[[M1]]
// GPIPE-NEXT:   %[[M2:.*]] = call @sums__w(%[[X2]])
// GPIPE-NEXT:   %[[M:.*]] = dist.maximum %[[M01]], %[[M2]]
// GPIPE-NEXT:   %[[N1:.*]] = dist.add %[[ONE]], %[[ONE]]
// GPIPE-NEXT:   %[[N:.*]] = dist.add %[[N1]], %[[ONE]]
// GPIPE-NEXT:   return %[[S]], %[[N]], %[[M]]
// GPIPE-NEXT: }
// GPIPE-NEXT: func.func private @sums__f(
// GPIPE-NEXT:   dist.reduce_sum
// GPIPE:      func.func private @sums__w(
// GPIPE-NEXT:   dist.reduce_max


// -----


// A linear op that only sums over the microbatches read runs once, on the
// sums: ZeRO's reduce-scatter over dp runs once a step, and the two halves
// of a tied weight's gradient are summed over the microbatches apart and
// added once.
dist.mesh @mesh = <["dp"=2, "mb"=2]>
func.func @zero(%x: tensor<2x8xf32> {dist.batch_dim = 0 : i64, dist.local = #dist.sharding<@mesh, [{"dp", "mb"}, {}]>},
                %w: tensor<4x8xf32> {dist.local = #dist.sharding<@mesh, [{"dp"}, {}]>})
    -> (tensor<4x8xf32> {dist.local = #dist.sharding<@mesh, [{"dp"}, {}]>}) attributes {dist.microbatch_axis = "mb"} {
  %dw = dist.matmul %x, %x {transpose_x} : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<8x8xf32>
  %dt = dist.matmul %x, %x {transpose_x} : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<8x8xf32>
  %tied = dist.add %dw, %dt : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %rs = dist.reduce_scatter %tied on @mesh axes = ["dp"] dim = 0 kind = sum : tensor<8x8xf32> -> tensor<4x8xf32>
  %g = dist.all_reduce %rs on @mesh axes = ["mb"] kind = sum : tensor<4x8xf32> -> tensor<4x8xf32>
  %w2 = dist.sub %w, %g : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %w2 : tensor<4x8xf32>
}

// GPIPE-LABEL: func.func @zero
// GPIPE:        %[[J0:.*]]:2 = call @zero__f(
// GPIPE:        %[[J1:.*]]:2 = call @zero__f(
// GPIPE-NEXT:   %[[DW:.*]] = dist.add %[[J0]]#0, %[[J1]]#0
// GPIPE-NEXT:   %[[DT:.*]] = dist.add %[[J0]]#1, %[[J1]]#1
// GPIPE-NEXT:   %[[TIED:.*]] = dist.add %[[DW]], %[[DT]]
// GPIPE-NEXT:   %[[RS:.*]] = dist.reduce_scatter %[[TIED]] on @mesh axes = ["dp"] dim = 0 kind = sum
// GPIPE-NEXT:   %[[W2:.*]] = dist.sub %{{.*}}, %[[RS]]
// GPIPE-NEXT:   return %[[W2]]


// -----


// Two stages: each has a function of its own, and the step calls the one
// of the device's coordinate along pp. Stage 0 sends each microbatch's
// boundary value to stage 1 (a tag per microbatch) and returns zeros for
// the loss, which stage 1 computes: the result is partial over pp.
dist.mesh @mesh = <["pp"=2, "mb"=2]>
func.func @stages(%x: tensor<2x8xf32> {dist.batch_dim = 0 : i64, dist.local = #dist.sharding<@mesh, [{"mb"}, {}]>},
                  %w: tensor<8x8xf32> {dist.local = #dist.sharding<@mesh, [{}, {}]>})
    -> (tensor<f32> {dist.local = #dist.sharding<@mesh, []>}) attributes {dist.microbatch_axis = "mb"} {
  %h = dist.matmul %x, %w : (tensor<2x8xf32>, tensor<8x8xf32>) -> tensor<2x8xf32>
  %b = dist.stage_boundary %h : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %y = dist.gelu %b : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %l = dist.reduce_sum %y {dims = array<i64: 0, 1>} : (tensor<2x8xf32>) -> tensor<f32>
  %loss = dist.all_reduce %l on @mesh axes = ["mb"] kind = sum : tensor<f32> -> tensor<f32>
  return %loss : tensor<f32>
}

// GPIPE:      dist.mesh @mesh = <["pp"=2]>
// GPIPE-NEXT: func.func @stages(%[[X:.*]]: tensor<4x8xf32> {{.*}}, %[[W:.*]]: tensor<8x8xf32> {{.*}}) -> (tensor<f32> {dist.local = #dist.sharding<@mesh, [], partial = sum{"pp"}>}) {
// GPIPE-NEXT:   %[[STAGE:.*]] = dist.axis_index @mesh axes = ["pp"] : index
// GPIPE-NEXT:   %[[R:.*]] = scf.index_switch %[[STAGE]] -> tensor<f32>
// GPIPE-NEXT:   case 0 {
// GPIPE-NEXT:     %[[L0:.*]] = func.call @stages_stage0(%[[X]], %[[W]]) {no_inline}
// GPIPE-NEXT:     scf.yield %[[L0]]
// GPIPE-NEXT:   }
// GPIPE-NEXT:   default {
// GPIPE-NEXT:     %[[L1:.*]] = func.call @stages_stage1(%[[X]], %[[W]]) {no_inline}
// GPIPE-NEXT:     scf.yield %[[L1]]
// GPIPE-NEXT:   }
// GPIPE-NEXT:   return %[[R]]
// GPIPE:      func.func private @stages_stage0(%[[X:.*]]: tensor<4x8xf32> {{.*}}, %[[W:.*]]: tensor<8x8xf32> {{.*}}) -> (tensor<f32> {{.*}}) {
// GPIPE-NEXT:   %[[X0:.*]] = dist.slice %[[X]]
// GPIPE-NEXT:   %[[B0:.*]] = call @stages_stage0__f(%[[X0]], %[[W]]) {no_inline}
// GPIPE-NEXT:   dist.send %[[B0]] to 1 on @mesh axes = ["pp"] tag = 0 : tensor<2x8xf32>
// GPIPE-NEXT:   %[[X1:.*]] = dist.slice %[[X]]
// GPIPE-NEXT:   %[[B1:.*]] = call @stages_stage0__f(%[[X1]], %[[W]])
// GPIPE-NEXT:   dist.send %[[B1]] to 1 on @mesh axes = ["pp"] tag = 1 : tensor<2x8xf32>
// GPIPE-NEXT:   %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<f32>
// GPIPE-NEXT:   return %[[ZERO]]
// GPIPE-NEXT: }
// GPIPE-NEXT: func.func private @stages_stage0__f(%[[A:.*]]: tensor<2x8xf32>, %[[B:.*]]: tensor<8x8xf32>) -> tensor<2x8xf32> {
// GPIPE-NEXT:   %[[H:.*]] = dist.matmul %[[A]], %[[B]]
// GPIPE-NEXT:   %[[BD:.*]] = dist.stage_boundary %[[H]]
// GPIPE-NEXT:   return %[[BD]]
// GPIPE:      func.func private @stages_stage1(
// GPIPE-NEXT:   %[[V0:.*]] = dist.recv from 0 on @mesh axes = ["pp"] tag = 0 : tensor<2x8xf32>
// GPIPE-NEXT:   %[[S0:.*]] = call @stages_stage1__f(%[[V0]])
// GPIPE-NEXT:   %[[V1:.*]] = dist.recv from 0 on @mesh axes = ["pp"] tag = 1
// GPIPE-NEXT:   %[[S1:.*]] = call @stages_stage1__f(%[[V1]])
// GPIPE-NEXT:   %[[S:.*]] = dist.add %[[S0]], %[[S1]]
// GPIPE-NEXT:   return %[[S]]
// GPIPE-NEXT: }
// GPIPE-NEXT: func.func private @stages_stage1__f(
// GPIPE-NEXT:   dist.gelu
// GPIPE-NEXT:   dist.reduce_sum
