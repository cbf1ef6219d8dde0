// RUN: dist-opt %s --split-input-file --dist-fuse-reduction-epilogues | FileCheck %s
// Idempotent: a second run finds no reduction with an epilogue left.
// RUN: dist-opt %s --split-input-file --dist-fuse-reduction-epilogues --dist-fuse-reduction-epilogues | FileCheck %s

// A row mean kept in f64 and its scaling and rounding: one op over the
// rows, whose body sums its row in a loop (the accumulator a register,
// starting from the init's element) and then scales and rounds it once.
func.func @mean(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %zeros = arith.constant dense<0.000000e+00> : tensor<4xf64>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%zeros : tensor<4xf64>) {
  ^bb0(%in: f32, %acc: f64):
    %w = arith.extf %in : f32 to f64
    %r = arith.addf %acc, %w : f64
    linalg.yield %r : f64
  } -> tensor<4xf64>
  %e = tensor.empty() : tensor<4xf32>
  %eighth = arith.constant 1.250000e-01 : f64
  %m = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%s : tensor<4xf64>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f64, %o: f32):
    %a = arith.mulf %in, %eighth : f64
    %t = arith.truncf %a : f64 to f32
    linalg.yield %t : f32
  } -> tensor<4xf32>
  return %m : tensor<4xf32>
}
// CHECK-LABEL: func.func @mean
// CHECK-SAME:    (%[[X:.*]]: tensor<4x8xf32>)
// CHECK:         %[[ZEROS:.*]] = arith.constant dense<0.000000e+00> : tensor<4xf64>
// CHECK:         %[[M:.*]] = linalg.generic {{.*}} iterator_types = ["parallel"]} outs(%{{.*}} : tensor<4xf32>)
// CHECK-NEXT:    ^bb0(%[[OUT:.*]]: f32):
// CHECK-DAG:       %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:       %[[C1:.*]] = arith.constant 1 : index
// CHECK:           %[[ROW:.*]] = linalg.index 0 : index
// CHECK-NEXT:      %[[START:.*]] = tensor.extract %[[ZEROS]][%[[ROW]]] : tensor<4xf64>
// CHECK-NEXT:      %[[C8:.*]] = arith.constant 8 : index
// CHECK-NEXT:      %[[SUM:.*]] = scf.for %[[K:.*]] = %[[C0]] to %[[C8]] step %[[C1]] iter_args(%[[ACC:.*]] = %[[START]]) -> (f64) {
// CHECK-NEXT:        %[[IN:.*]] = tensor.extract %[[X]][%[[ROW]], %[[K]]] : tensor<4x8xf32>
// CHECK-NEXT:        %[[W:.*]] = arith.extf %[[IN]] : f32 to f64
// CHECK-NEXT:        %[[R:.*]] = arith.addf %[[ACC]], %[[W]] : f64
// CHECK-NEXT:        scf.yield %[[R]] : f64
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[A:.*]] = arith.mulf %[[SUM]], %{{.*}} : f64
// CHECK-NEXT:      %[[T:.*]] = arith.truncf %[[A]] : f64 to f32
// CHECK-NEXT:      linalg.yield %[[T]] : f32
// CHECK:         return %[[M]]

// -----

// Column sums (two reduction loops around a parallel one) whose body reads
// a loop index: each loop index is the new op's index or the loop's
// induction variable.
func.func @columns(%x: tensor<2x3x4xf32>) -> tensor<3xf32> {
  %zeros = arith.constant dense<0.000000e+00> : tensor<3xf64>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1)>], iterator_types = ["reduction", "parallel", "reduction"]}
      ins(%x : tensor<2x3x4xf32>) outs(%zeros : tensor<3xf64>) {
  ^bb0(%in: f32, %acc: f64):
    %k = linalg.index 2 : index
    %ki = arith.index_cast %k : index to i64
    %kf = arith.sitofp %ki : i64 to f64
    %w = arith.extf %in : f32 to f64
    %p = arith.mulf %w, %kf : f64
    %r = arith.addf %acc, %p : f64
    linalg.yield %r : f64
  } -> tensor<3xf64>
  %e = tensor.empty() : tensor<3xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%s : tensor<3xf64>) outs(%e : tensor<3xf32>) {
  ^bb0(%in: f64, %o: f32):
    %t = arith.truncf %in : f64 to f32
    linalg.yield %t : f32
  } -> tensor<3xf32>
  return %m : tensor<3xf32>
}
// CHECK-LABEL: func.func @columns
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel"]} outs(
// CHECK:           %[[COL:.*]] = linalg.index 0 : index
// CHECK:           scf.for %[[I:.*]] = {{.*}} iter_args
// CHECK-NEXT:        scf.for %[[J:.*]] = {{.*}} iter_args
// CHECK-NEXT:          tensor.extract %{{.*}}[%[[I]], %[[COL]], %[[J]]] : tensor<2x3x4xf32>
// CHECK-NEXT:          arith.index_cast %[[J]] : index to i64
// CHECK-NOT:     linalg.generic

// -----

// A reduction whose result another op also reads keeps its own kernel.
func.func @shared(%x: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4xf64>) {
  %zeros = arith.constant dense<0.000000e+00> : tensor<4xf64>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%zeros : tensor<4xf64>) {
  ^bb0(%in: f32, %acc: f64):
    %w = arith.extf %in : f32 to f64
    %r = arith.addf %acc, %w : f64
    linalg.yield %r : f64
  } -> tensor<4xf64>
  %e = tensor.empty() : tensor<4xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%s : tensor<4xf64>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f64, %o: f32):
    %t = arith.truncf %in : f64 to f32
    linalg.yield %t : f32
  } -> tensor<4xf32>
  return %m, %s : tensor<4xf32>, tensor<4xf64>
}
// CHECK-LABEL: func.func @shared
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]}
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel"]} ins(
// CHECK-NOT:     scf.for
