// RUN: dist-opt %s --split-input-file --dist-split-microbatches=microbatches=4 | FileCheck %s
// RUN: dist-opt %s --split-input-file --dist-split-microbatches="microbatches=2 axis=micro" | FileCheck %s --check-prefix=AXIS

// The data arguments' batch dim is split over a new last mesh axis of 4
// microbatches, after dp; the parameter is left alone; the function names
// the axis for dist-schedule-pipeline.
dist.mesh @mesh = <["dp"=2, "tp"=2]>
func.func @step(%ids: tensor<16x8xi64> {dist.batch_dim = 0 : i64, dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>},
                %y: tensor<8x16x4xf32> {dist.batch_dim = 1 : i64, dist.sharding = #dist.sharding<@mesh, [{}, {}, {"tp"}]>},
                %w: tensor<4x4xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>}) -> tensor<4x4xf32> {
  return %w : tensor<4x4xf32>
}

// CHECK:      dist.mesh @mesh = <["dp"=2, "tp"=2, "mb"=4]>
// CHECK-NEXT: func.func @step(
// CHECK-SAME:   %{{.*}}: tensor<16x8xi64> {dist.batch_dim = 0 : i64, dist.sharding = #dist.sharding<@mesh, [{"dp", "mb"}, {}]>}
// CHECK-SAME:   %{{.*}}: tensor<8x16x4xf32> {dist.batch_dim = 1 : i64, dist.sharding = #dist.sharding<@mesh, [{}, {"mb"}, {"tp"}]>}
// CHECK-SAME:   %{{.*}}: tensor<4x4xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>}
// CHECK-SAME:   attributes {dist.microbatch_axis = "mb"}

// AXIS:      dist.mesh @mesh = <["dp"=2, "tp"=2, "micro"=2]>
// AXIS:      attributes {dist.microbatch_axis = "micro"}


// -----


// A data argument without a sharding is split on its function's mesh; an
// explicit device order keeps each device's microbatches together.
dist.mesh @ring = <["x"=2], devices = [1, 0]>
func.func @unsharded(%x: tensor<8x2xf32> {dist.batch_dim = 0 : i64},
                     %w: tensor<2x2xf32> {dist.sharding = #dist.sharding<@ring, [{}, {}]>}) -> tensor<2x2xf32> {
  return %w : tensor<2x2xf32>
}

// CHECK:      dist.mesh @ring = <["x"=2, "mb"=4], devices = [4, 5, 6, 7, 0, 1, 2, 3]>
// CHECK-NEXT: func.func @unsharded(%{{.*}}: tensor<8x2xf32> {dist.batch_dim = 0 : i64, dist.sharding = #dist.sharding<@ring, [{"mb"}, {}]>}
