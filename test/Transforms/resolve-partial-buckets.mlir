// RUN: dist-opt %s --split-input-file --dist-resolve-partial="bucket-mib=0.0021" | FileCheck %s
// bucket-mb is the option's earlier name.
// RUN: dist-opt %s --split-input-file --dist-resolve-partial="bucket-mb=0.0021" | FileCheck %s
// RUN: dist-opt %s --split-input-file --dist-resolve-partial | FileCheck %s --check-prefix=OFF
// Bad option values are pipeline errors.
// RUN: not dist-opt %s --split-input-file --dist-resolve-partial="bucket-mb=-1" 2>&1 | FileCheck %s --check-prefix=BAD-BUCKET
// RUN: not dist-opt %s --split-input-file --dist-resolve-partial="avg=mean" 2>&1 | FileCheck %s --check-prefix=BAD-AVG
// RUN: not dist-opt %s --split-input-file --dist-resolve-partial="argument-reshards=always" 2>&1 | FileCheck %s --check-prefix=BAD-RESHARDS
// BAD-RESHARDS: argument-reshards must be shared or per-use, not 'always'
// RUN: not dist-opt %s --split-input-file --dist-resolve-partial="bucket-mib=1 bucket-mb=2" 2>&1 | FileCheck %s --check-prefix=BOTH
// BOTH: bucket-mib and its earlier name bucket-mb are both given
// BAD-BUCKET: bucket-mb must be a non-negative number, not '-1'
// BAD-AVG: avg must be scale or native, not 'mean'

// bucket-mib=0.0021 is 2202 bytes per device. Gradients over dp fill buckets
// in the order they are defined: g1 + g2 (2048 bytes) fill one, g3 (2048)
// does not fit and opens the next, which g4 (64) joins. The bucket is placed
// after its last gradient. g5 is over tp, a different group: alone, so a
// plain all_reduce. g6 is also read by an op that is no optimizer step, so
// it is no gradient and is reduced right after its definition.
dist.mesh @mesh = <["dp"=2, "tp"=2]>
func.func @buckets(%a1: tensor<16x16xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}], partial = sum{"dp"}>},
                   %a2: tensor<16x16xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}], partial = sum{"dp"}>},
                   %a3: tensor<16x32xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}], partial = sum{"dp"}>},
                   %a4: tensor<16xf32> {dist.sharding = #dist.sharding<@mesh, [{}], partial = sum{"dp"}>},
                   %a5: tensor<16xf32> {dist.sharding = #dist.sharding<@mesh, [{}], partial = sum{"tp"}>},
                   %a6: tensor<16xf32> {dist.sharding = #dist.sharding<@mesh, [{}], partial = sum{"dp"}>})
    -> (tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x32xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) {
  %g1 = dist.scale %a1 {factor = 1.0 : f64, dist.sharding = [#dist.sharding<@mesh, [{}, {}], partial = sum{"dp"}>]} : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %g2 = dist.scale %a2 {factor = 1.0 : f64, dist.sharding = [#dist.sharding<@mesh, [{}, {}], partial = sum{"dp"}>]} : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %g3 = dist.scale %a3 {factor = 1.0 : f64, dist.sharding = [#dist.sharding<@mesh, [{}, {}], partial = sum{"dp"}>]} : (tensor<16x32xf32>) -> tensor<16x32xf32>
  %g5 = dist.scale %a5 {factor = 1.0 : f64, dist.sharding = [#dist.sharding<@mesh, [{}], partial = sum{"tp"}>]} : (tensor<16xf32>) -> tensor<16xf32>
  %g6 = dist.scale %a6 {factor = 1.0 : f64, dist.sharding = [#dist.sharding<@mesh, [{}], partial = sum{"dp"}>]} : (tensor<16xf32>) -> tensor<16xf32>
  %g4 = dist.scale %a4 {factor = 1.0 : f64, dist.sharding = [#dist.sharding<@mesh, [{}], partial = sum{"dp"}>]} : (tensor<16xf32>) -> tensor<16xf32>
  %u = dist.gelu %g6 {dist.sharding = [#dist.sharding<@mesh, [{}]>]} : (tensor<16xf32>) -> tensor<16xf32>
  return %g1, %g2, %g3, %g4, %g5, %g6, %u : tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x32xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>
}

// CHECK-LABEL: func.func @buckets
// CHECK:         %[[G1:.*]] = dist.scale
// CHECK-NEXT:    %[[G2:.*]] = dist.scale
// CHECK-NEXT:    %[[B1:.*]]:2 = dist.all_reduce_coalesced %[[G1]], %[[G2]] on @mesh axes = ["dp"] kind = sum {dist.sharding = [#dist.sharding<@mesh, [{}, {}]>, #dist.sharding<@mesh, [{}, {}]>]}
// CHECK-NEXT:    %[[G3:.*]] = dist.scale
// CHECK-NEXT:    %[[G5:.*]] = dist.scale
// CHECK-NEXT:    %[[R5:.*]] = dist.all_reduce %[[G5]] on @mesh axes = ["tp"] kind = sum
// CHECK-NEXT:    %[[G6:.*]] = dist.scale
// CHECK-NEXT:    %[[R6:.*]] = dist.all_reduce %[[G6]] on @mesh axes = ["dp"] kind = sum
// CHECK-NEXT:    %[[G4:.*]] = dist.scale
// CHECK-NEXT:    %[[B2:.*]]:2 = dist.all_reduce_coalesced %[[G3]], %[[G4]] on @mesh axes = ["dp"] kind = sum
// CHECK-NEXT:    %[[U:.*]] = dist.gelu %[[R6]]
// CHECK-NEXT:    return %[[B1]]#0, %[[B1]]#1, %[[B2]]#0, %[[B2]]#1, %[[R5]], %[[R6]], %[[U]]

// OFF-LABEL: func.func @buckets
// OFF-NOT:     dist.all_reduce_coalesced
// OFF-COUNT-6: dist.all_reduce %
// OFF-NOT:     dist.all_reduce_coalesced

// -----

// Optimizer steps read gradients too, and a bucket is issued after its
// last gradient: g1 and g2 (256 bytes each) share one, which the update
// reading g1 follows. g3 is defined after that update, so it cannot join
// the bucket (the update would read a value defined after it): alone.
dist.mesh @mesh = <["dp"=2]>
func.func @updates(%a1: tensor<8x8xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}], partial = sum{"dp"}>},
                   %a2: tensor<8x8xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}], partial = sum{"dp"}>},
                   %a3: tensor<8x8xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}], partial = sum{"dp"}>},
                   %w: tensor<8x8xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}]>})
    -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %g1 = dist.scale %a1 {factor = 1.0 : f64, dist.sharding = [#dist.sharding<@mesh, [{}, {}], partial = sum{"dp"}>]} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %g2 = dist.scale %a2 {factor = 1.0 : f64, dist.sharding = [#dist.sharding<@mesh, [{}, {}], partial = sum{"dp"}>]} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %w1 = dist.sgd %w, %g1 {lr = 0.1 : f64, dist.sharding = [#dist.sharding<@mesh, [{}, {}]>]} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %g3 = dist.scale %a3 {factor = 1.0 : f64, dist.sharding = [#dist.sharding<@mesh, [{}, {}], partial = sum{"dp"}>]} : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %w2 = dist.sgd %w1, %g3 {lr = 0.1 : f64, dist.sharding = [#dist.sharding<@mesh, [{}, {}]>]} : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %w2, %g2 : tensor<8x8xf32>, tensor<8x8xf32>
}
// CHECK-LABEL: func.func @updates
// CHECK:         %[[G1:.*]] = dist.scale
// CHECK-NEXT:    %[[G2:.*]] = dist.scale
// CHECK-NEXT:    %[[B:.*]]:2 = dist.all_reduce_coalesced %[[G1]], %[[G2]] on @mesh axes = ["dp"] kind = sum
// CHECK-NEXT:    %[[W1:.*]] = dist.sgd %{{.*}}, %[[B]]#0
// CHECK-NEXT:    %[[G3:.*]] = dist.scale
// CHECK-NEXT:    %[[R3:.*]] = dist.all_reduce %[[G3]] on @mesh axes = ["dp"] kind = sum
// CHECK-NEXT:    %[[W2:.*]] = dist.sgd %[[W1]], %[[R3]]
// CHECK-NEXT:    return %[[W2]], %[[B]]#1

// -----

// Reduce-scatters bucket too, by axes, kind and dim: ZeRO gradients that
// the optimizer step reads only at the end. dg1 + dg2 (1024 bytes each
// before the scatter) share a bucket along dim 0; dg3 scatters along dim 1
// and is alone.
// RUN: dist-opt %s --split-input-file --dist-resolve-partial="bucket-mib=0.0021" | FileCheck %s --check-prefix=SCATTER
dist.mesh @mesh = <["dp"=2]>
func.func @scatter_buckets(%a1: tensor<16x16xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}], partial = sum{"dp"}>},
                           %a2: tensor<16x16xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}], partial = sum{"dp"}>},
                           %a3: tensor<4x16xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}], partial = sum{"dp"}>})
    -> (tensor<16x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>},
        tensor<16x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>},
        tensor<4x16xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"dp"}]>}) {
  %dg1 = dist.scale %a1 {factor = 1.0 : f64, dist.sharding = [#dist.sharding<@mesh, [{}, {}], partial = sum{"dp"}>]} : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %dg2 = dist.scale %a2 {factor = 1.0 : f64, dist.sharding = [#dist.sharding<@mesh, [{}, {}], partial = sum{"dp"}>]} : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %dg3 = dist.scale %a3 {factor = 1.0 : f64, dist.sharding = [#dist.sharding<@mesh, [{}, {}], partial = sum{"dp"}>]} : (tensor<4x16xf32>) -> tensor<4x16xf32>
  return %dg1, %dg2, %dg3 : tensor<16x16xf32>, tensor<16x16xf32>, tensor<4x16xf32>
}
// SCATTER-LABEL: func.func @scatter_buckets
// SCATTER:         %[[G1:.*]] = dist.scale
// SCATTER-NEXT:    %[[G2:.*]] = dist.scale
// SCATTER-NEXT:    %[[B:.*]]:2 = dist.reduce_scatter_coalesced %[[G1]], %[[G2]] on @mesh axes = ["dp"] dim = 0 kind = sum {{.*}} : (tensor<16x16xf32>, tensor<16x16xf32>) -> (tensor<16x16xf32>, tensor<16x16xf32>)
// SCATTER-NEXT:    %[[G3:.*]] = dist.scale
// SCATTER-NEXT:    %[[R3:.*]] = dist.reduce_scatter %[[G3]] on @mesh axes = ["dp"] dim = 1 kind = sum
// SCATTER-NEXT:    return %[[B]]#0, %[[B]]#1, %[[R3]]
