// RUN: dist-opt %s --dist-pipeline="microbatches=2 schedule=1f1b" | FileCheck %s
// The pass is the three passes in turn, byte for byte.
// RUN: dist-opt %s --dist-pipeline="microbatches=2 schedule=gpipe" > %t.one
// RUN: dist-opt %s --dist-split-microbatches=microbatches=2 --dist-lower-to-local --dist-schedule-pipeline=schedule=gpipe > %t.three
// RUN: diff %t.one %t.three

// A global training step of two stages: two microbatches of the marked
// data argument, each stage's work in a function of its own that the step
// calls on the devices of its pp coordinate, the boundary value sent per
// microbatch, the loss (a mean over the batch) summed over the
// microbatches on the last stage and zero on the first.
dist.mesh @mesh = <["pp"=2]>
func.func @step(%x: tensor<4x8xf32> {dist.batch_dim = 0 : i64, dist.sharding = #dist.sharding<@mesh, [{}, {}]>},
                %w: tensor<8x8xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}]>}) -> tensor<f32> {
  %h = dist.matmul %x, %w : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %b = dist.stage_boundary %h : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %y = dist.gelu %b : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %l = dist.reduce_mean %y {dims = array<i64: 0, 1>} : (tensor<4x8xf32>) -> tensor<f32>
  return %l : tensor<f32>
}

// CHECK:      dist.mesh @mesh = <["pp"=2]>
// CHECK-NEXT: func.func @step({{.*}}) -> (tensor<f32> {dist.local = #dist.sharding<@mesh, [], partial = sum{"pp"}>}) {
// CHECK-NEXT:   %[[STAGE:.*]] = dist.axis_index @mesh axes = ["pp"] : index
// CHECK-NEXT:   scf.index_switch %[[STAGE]] -> tensor<f32>
// CHECK:        func.call @step_stage0({{.*}}) {no_inline}
// CHECK:        func.call @step_stage1({{.*}}) {no_inline}
// CHECK:      func.func private @step_stage0(
// CHECK:        dist.send %{{.*}} to 1 on @mesh axes = ["pp"] tag = 0 : tensor<2x8xf32>
// CHECK:        dist.send %{{.*}} to 1 on @mesh axes = ["pp"] tag = 1 : tensor<2x8xf32>
// CHECK:        arith.constant dense<0.000000e+00> : tensor<f32>
// CHECK:      func.func private @step_stage1(
// CHECK:        dist.recv from 0 on @mesh axes = ["pp"] tag = 0 : tensor<2x8xf32>
// CHECK:        dist.recv from 0 on @mesh axes = ["pp"] tag = 1 : tensor<2x8xf32>
// CHECK:        %[[SUM:.*]] = dist.add
// The mean of each microbatch's mean of 2 x 8 values over 2: the batch's.
// CHECK-NEXT:   %[[MEAN:.*]] = dist.scale %[[SUM]] {factor = 5.000000e-01 : f64}
// CHECK-NEXT:   return %[[MEAN]]
