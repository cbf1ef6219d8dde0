// RUN: dist-opt %s --split-input-file --dist-copy-inserted-slices | FileCheck %s
// Idempotent: a second run finds every slice copied.
// RUN: dist-opt %s --split-input-file --dist-copy-inserted-slices --dist-copy-inserted-slices | FileCheck %s
// With eliminate-empty-tensors after it, as in the GPU pipeline, a source
// computed into a tensor.empty is computed into its slice of the destination.
// RUN: dist-opt %s --split-input-file --dist-copy-inserted-slices --eliminate-empty-tensors | FileCheck %s --check-prefix=INPLACE

// A concatenation's part that no op computes (a slice of an argument) is
// copied into the destination's slice by a linalg.copy, which the GPU runs
// as a kernel; bufferization then writes it in place.
func.func @concat(%x: tensor<4x32xf32>, %d: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %r = tensor.insert_slice %x into %d[0, 32] [4, 32] [1, 1] : tensor<4x32xf32> into tensor<4x64xf32>
  return %r : tensor<4x64xf32>
}
// CHECK-LABEL: func.func @concat
// CHECK-SAME:    (%[[X:.*]]: tensor<4x32xf32>, %[[D:.*]]: tensor<4x64xf32>)
// CHECK-NEXT:    %[[S:.*]] = tensor.extract_slice %[[D]][0, 32] [4, 32] [1, 1] : tensor<4x64xf32> to tensor<4x32xf32>
// CHECK-NEXT:    %[[C:.*]] = linalg.copy ins(%[[X]] : tensor<4x32xf32>) outs(%[[S]] : tensor<4x32xf32>) -> tensor<4x32xf32>
// CHECK-NEXT:    %[[R:.*]] = tensor.insert_slice %[[C]] into %[[D]][0, 32] [4, 32] [1, 1]
// CHECK-NEXT:    return %[[R]]

// -----

// A pad's zeros (a constant destination) are copied into a new tensor,
// placed before the tensor.empty the inserted value is computed into, so
// that eliminate-empty-tensors computes it into its slice of that copy
// instead of into a buffer of its own copied after.
func.func @pad(%x: tensor<4x32xf32>) -> tensor<4x64xf32> {
  %zeros = arith.constant dense<0.000000e+00> : tensor<4x64xf32>
  %e = tensor.empty() : tensor<4x32xf32>
  %n = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x32xf32>) outs(%e : tensor<4x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.negf %a : f32
    linalg.yield %m : f32
  } -> tensor<4x32xf32>
  %r = tensor.insert_slice %n into %zeros[0, 0] [4, 32] [1, 1] : tensor<4x32xf32> into tensor<4x64xf32>
  return %r : tensor<4x64xf32>
}
// CHECK-LABEL: func.func @pad
// CHECK-NEXT:    %[[ZEROS:.*]] = arith.constant dense<0.000000e+00> : tensor<4x64xf32>
// CHECK-NEXT:    %[[D:.*]] = bufferization.alloc_tensor() copy(%[[ZEROS]]) : tensor<4x64xf32>
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<4x32xf32>
// CHECK-NEXT:    %[[N:.*]] = linalg.generic {{.*}} outs(%[[E]] : tensor<4x32xf32>)
// CHECK:         tensor.insert_slice %[[N]] into %[[D]][0, 0] [4, 32] [1, 1]
// CHECK-NOT:     linalg.copy
// INPLACE-LABEL: func.func @pad
// INPLACE:         %[[D:.*]] = bufferization.alloc_tensor() copy(%{{.*}}) : tensor<4x64xf32>
// INPLACE-NEXT:    %[[S:.*]] = tensor.extract_slice %[[D]][0, 0] [4, 32] [1, 1]
// INPLACE:         %[[N:.*]] = linalg.generic {{.*}} outs(%[[S]] : tensor<4x32xf32>)
// INPLACE:         tensor.insert_slice %[[N]] into %[[D]][0, 0] [4, 32] [1, 1]

// -----

// A slice already computed in place is left as it is.
func.func @in_place(%x: tensor<4x32xf32>, %d: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %s = tensor.extract_slice %d[0, 0] [4, 32] [1, 1] : tensor<4x64xf32> to tensor<4x32xf32>
  %c = linalg.copy ins(%x : tensor<4x32xf32>) outs(%s : tensor<4x32xf32>) -> tensor<4x32xf32>
  %r = tensor.insert_slice %c into %d[0, 0] [4, 32] [1, 1] : tensor<4x32xf32> into tensor<4x64xf32>
  return %r : tensor<4x64xf32>
}
// CHECK-LABEL: func.func @in_place
// CHECK-NEXT:    tensor.extract_slice
// CHECK-NEXT:    linalg.copy
// CHECK-NEXT:    tensor.insert_slice
// CHECK-NEXT:    return

// -----

// A call takes buffers of the identity layout: bufferization would copy a
// slice passed to calls (a microbatch of a pipelined step's data) on the
// host before each. It is copied once by a linalg.copy (a kernel) into a
// tensor of its own, which every call takes; other uses keep the slice.
func.func private @part(%x: tensor<1x16xi64>) -> tensor<1x16xi64>
func.func @microbatch(%x: tensor<4x16xi64>) -> (tensor<1x16xi64>, tensor<1x16xi64>, tensor<1x16xi64>) {
  %s = tensor.extract_slice %x[1, 0] [1, 16] [1, 1] : tensor<4x16xi64> to tensor<1x16xi64>
  %a = call @part(%s) : (tensor<1x16xi64>) -> tensor<1x16xi64>
  %b = call @part(%s) : (tensor<1x16xi64>) -> tensor<1x16xi64>
  return %a, %b, %s : tensor<1x16xi64>, tensor<1x16xi64>, tensor<1x16xi64>
}
// CHECK-LABEL: func.func @microbatch
// CHECK-NEXT:    %[[S:.*]] = tensor.extract_slice
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<1x16xi64>
// CHECK-NEXT:    %[[C:.*]] = linalg.copy ins(%[[S]] : tensor<1x16xi64>) outs(%[[E]] : tensor<1x16xi64>) -> tensor<1x16xi64>
// CHECK-NEXT:    %[[A:.*]] = call @part(%[[C]])
// CHECK-NEXT:    %[[B:.*]] = call @part(%[[C]])
// CHECK-NEXT:    return %[[A]], %[[B]], %[[S]]
