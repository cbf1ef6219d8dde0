// RUN: dist-opt %s --split-input-file --dist-split-full-reductions | FileCheck %s
// Idempotent: a second run finds every op with a parallel loop.
// RUN: dist-opt %s --split-input-file --dist-split-full-reductions --dist-split-full-reductions | FileCheck %s

// A sum of squares of 4096 elements into f64 (a loss): 1024 rows of 4
// reduced in parallel from zeros, in f64 as before, then their combination,
// which runs over a loop of one iteration, as one thread.
func.func @sum(%x: tensor<8x32x16xf32>) -> tensor<f64> {
  %zero = arith.constant dense<0.000000e+00> : tensor<f64>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> ()>],
                       iterator_types = ["reduction", "reduction", "reduction"]}
      ins(%x : tensor<8x32x16xf32>) outs(%zero : tensor<f64>) {
  ^bb0(%a: f32, %acc: f64):
    %sq = arith.mulf %a, %a : f32
    %w = arith.extf %sq : f32 to f64
    %r = arith.addf %acc, %w : f64
    linalg.yield %r : f64
  } -> tensor<f64>
  return %s : tensor<f64>
}
// CHECK-LABEL: func.func @sum
// CHECK-SAME:    (%[[X:.*]]: tensor<8x32x16xf32>)
// CHECK:         %[[FLAT:.*]] = tensor.collapse_shape %[[X]] {{\[\[}}0, 1, 2]] : tensor<8x32x16xf32> into tensor<4096xf32>
// CHECK-NEXT:    %[[ROWS:.*]] = tensor.expand_shape %[[FLAT]] {{\[\[}}0, 1]] output_shape [1024, 4] : tensor<4096xf32> into tensor<1024x4xf32>
// CHECK-NEXT:    %[[ZEROS:.*]] = arith.constant dense<0.000000e+00> : tensor<1024xf64>
// CHECK-NEXT:    %[[P:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[ROWS]] : tensor<1024x4xf32>) outs(%[[ZEROS]] : tensor<1024xf64>)
// CHECK:           arith.mulf
// CHECK-NEXT:      arith.extf
// CHECK-NEXT:      arith.addf
// CHECK:         %[[INIT:.*]] = tensor.expand_shape %{{.*}} [] output_shape [1] : tensor<f64> into tensor<1xf64>
// CHECK-NEXT:    %[[C:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[P]] : tensor<1024xf64>) outs(%[[INIT]] : tensor<1xf64>)
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: f64, %[[OUT:.*]]: f64):
// CHECK-NEXT:      %[[SUM:.*]] = arith.addf %[[OUT]], %[[IN]] : f64
// CHECK-NEXT:      linalg.yield %[[SUM]] : f64
// CHECK:         %[[S:.*]] = tensor.collapse_shape %[[C]] [] : tensor<1xf64> into tensor<f64>
// CHECK-NEXT:    return %[[S]]

// -----

// An op on scalars (a loss's scaling and rounding), and a full reduction
// too small to split whose body reads its loop indices (a cross-entropy's
// picked logits), get a parallel loop of one iteration in front; the
// indices the body reads move one loop out.
func.func @scalars(%x: tensor<4x8xf32>, %t: tensor<4x8x16xf32>, %s: tensor<f64>) -> (tensor<f32>, tensor<f64>) {
  %e = tensor.empty() : tensor<f32>
  %half = arith.constant 5.000000e-01 : f64
  %r = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
      ins(%s : tensor<f64>) outs(%e : tensor<f32>) {
  ^bb0(%a: f64, %o: f32):
    %m = arith.mulf %a, %half : f64
    %n = arith.truncf %m : f64 to f32
    linalg.yield %n : f32
  } -> tensor<f32>
  %zero = arith.constant dense<0.000000e+00> : tensor<f64>
  %p = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>],
                       iterator_types = ["reduction", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%zero : tensor<f64>) {
  ^bb0(%a: f32, %acc: f64):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c0 = arith.constant 0 : index
    %v = tensor.extract %t[%i, %j, %c0] : tensor<4x8x16xf32>
    %d = arith.subf %a, %v : f32
    %w = arith.extf %d : f32 to f64
    %r2 = arith.addf %acc, %w : f64
    linalg.yield %r2 : f64
  } -> tensor<f64>
  return %r, %p : tensor<f32>, tensor<f64>
}
// CHECK-DAG:   #[[SCALAR_IN:.*]] = affine_map<(d0) -> ()>
// CHECK-DAG:   #[[ONE:.*]] = affine_map<(d0) -> (d0)>
// CHECK-DAG:   #[[ROW_IN:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG:   #[[ROW_OUT:.*]] = affine_map<(d0, d1, d2) -> (d0)>
// CHECK-LABEL: func.func @scalars
// CHECK:         %[[E1:.*]] = tensor.expand_shape %{{.*}} [] output_shape [1] : tensor<f32> into tensor<1xf32>
// CHECK-NEXT:    %[[R1:.*]] = linalg.generic {indexing_maps = [#[[SCALAR_IN]], #[[ONE]]], iterator_types = ["parallel"]} ins(%{{.*}} : tensor<f64>) outs(%[[E1]] : tensor<1xf32>)
// CHECK:         tensor.collapse_shape %[[R1]] [] : tensor<1xf32> into tensor<f32>
// CHECK:         %[[E2:.*]] = tensor.expand_shape %{{.*}} [] output_shape [1] : tensor<f64> into tensor<1xf64>
// CHECK-NEXT:    %[[R2:.*]] = linalg.generic {indexing_maps = [#[[ROW_IN]], #[[ROW_OUT]]], iterator_types = ["parallel", "reduction", "reduction"]} ins(%{{.*}} : tensor<4x8xf32>) outs(%[[E2]] : tensor<1xf64>)
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      linalg.index 1 : index
// CHECK-NEXT:      linalg.index 2 : index
// CHECK:         tensor.collapse_shape %[[R2]] [] : tensor<1xf64> into tensor<f64>

// -----

// A reduction from an init that is not its combiner's identity (here an
// accumulator passed in) is not split: each row would add it again.
func.func @accumulate(%x: tensor<4096xf32>, %acc: tensor<f32>) -> tensor<f32> {
  %s = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
      ins(%x : tensor<4096xf32>) outs(%acc : tensor<f32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %o, %a : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  return %s : tensor<f32>
}
// CHECK-LABEL: func.func @accumulate
// CHECK-NOT:     tensor.collapse_shape %{{.*}} {{\[\[}}
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%{{.*}} : tensor<4096xf32>) outs(%{{.*}} : tensor<1xf32>)
