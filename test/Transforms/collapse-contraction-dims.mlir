// RUN: dist-opt %s --split-input-file --dist-collapse-contraction-dims | FileCheck %s
// Idempotent: a second run finds nothing left to collapse.
// RUN: dist-opt %s --split-input-file --dist-collapse-contraction-dims --dist-collapse-contraction-dims | FileCheck %s

// Attention's scores: batch and heads are neighbours in every operand, so
// they are one batch loop; the result is expanded back.
func.func @scores(%q: tensor<4x16x128x64xf32>, %k: tensor<4x16x128x64xf32>, %z: tensor<4x16x128x128xf32>) -> tensor<4x16x128x128xf32> {
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>,
                                        affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>,
                                        affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<4x16x128x64xf32>, tensor<4x16x128x64xf32>) outs(%z : tensor<4x16x128x128xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  } -> tensor<4x16x128x128xf32>
  return %s : tensor<4x16x128x128xf32>
}
// CHECK-DAG:   #[[A:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG:   #[[B:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// CHECK-DAG:   #[[C:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @scores
// CHECK-NEXT:    %[[Q:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1], [2], [3]] : tensor<4x16x128x64xf32> into tensor<64x128x64xf32>
// CHECK-NEXT:    %[[K:.*]] = tensor.collapse_shape %arg1 {{\[\[}}0, 1], [2], [3]] : tensor<4x16x128x64xf32> into tensor<64x128x64xf32>
// CHECK-NEXT:    %[[Z:.*]] = tensor.collapse_shape %arg2 {{\[\[}}0, 1], [2], [3]] : tensor<4x16x128x128xf32> into tensor<64x128x128xf32>
// CHECK-NEXT:    %[[S:.*]] = linalg.generic {indexing_maps = [#[[A]], #[[B]], #[[C]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[Q]], %[[K]] : tensor<64x128x64xf32>, tensor<64x128x64xf32>) outs(%[[Z]] : tensor<64x128x128xf32>)
// CHECK:         %[[E:.*]] = tensor.expand_shape %[[S]] {{\[\[}}0, 1], [2], [3]] output_shape [4, 16, 128, 128] : tensor<64x128x128xf32> into tensor<4x16x128x128xf32>
// CHECK-NEXT:    return %[[E]]

// -----

// A projection of [batch, sequence, hidden] activations: batch and
// sequence are neighbouring M loops (the weight has neither), one M loop
// of 512: a plain matrix product.
func.func @projection(%x: tensor<4x128x64xf32>, %w: tensor<64x32xf32>, %z: tensor<4x128x32xf32>) -> tensor<4x128x32xf32> {
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>,
                                        affine_map<(d0, d1, d2, d3) -> (d3, d2)>,
                                        affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<4x128x64xf32>, tensor<64x32xf32>) outs(%z : tensor<4x128x32xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  } -> tensor<4x128x32xf32>
  return %y : tensor<4x128x32xf32>
}
// CHECK-DAG:   #[[X:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG:   #[[W:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG:   #[[Y:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @projection
// CHECK-NEXT:    %[[X2:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1], [2]] : tensor<4x128x64xf32> into tensor<512x64xf32>
// CHECK-NEXT:    %[[Z2:.*]] = tensor.collapse_shape %arg2 {{\[\[}}0, 1], [2]] : tensor<4x128x32xf32> into tensor<512x32xf32>
// CHECK-NEXT:    linalg.generic {indexing_maps = [#[[X]], #[[W]], #[[Y]]], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[X2]], %arg1 : tensor<512x64xf32>, tensor<64x32xf32>) outs(%[[Z2]] : tensor<512x32xf32>)

// -----

// Loops in a different order in one operand (a transposed batch), and a
// body that reads its loop indices, are left as they are.
func.func @kept(%a: tensor<4x16x8x8xf32>, %b: tensor<16x4x8x8xf32>, %z: tensor<4x16x8x8xf32>) -> (tensor<4x16x8x8xf32>, tensor<4x16x8x8xf32>) {
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>,
                                        affine_map<(d0, d1, d2, d3, d4) -> (d1, d0, d4, d3)>,
                                        affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<4x16x8x8xf32>, tensor<16x4x8x8xf32>) outs(%z : tensor<4x16x8x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  } -> tensor<4x16x8x8xf32>
  %i = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>,
                                        affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>,
                                        affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %a : tensor<4x16x8x8xf32>, tensor<4x16x8x8xf32>) outs(%z : tensor<4x16x8x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %h = linalg.index 1 : index
    %hi = arith.index_cast %h : index to i32
    %hf = arith.sitofp %hi : i32 to f32
    %p = arith.mulf %x, %y : f32
    %q = arith.mulf %p, %hf : f32
    %r = arith.addf %acc, %q : f32
    linalg.yield %r : f32
  } -> tensor<4x16x8x8xf32>
  return %t, %i : tensor<4x16x8x8xf32>, tensor<4x16x8x8xf32>
}
// CHECK-LABEL: func.func @kept
// CHECK-NOT:     tensor.collapse_shape
// CHECK-NOT:     tensor.expand_shape
// CHECK:         return
