// RUN: dist-opt %s --split-input-file --dist-fuse-product-bias | FileCheck %s
// Idempotent: a folded bias add leaves nothing to fold.
// RUN: dist-opt %s --split-input-file --dist-fuse-product-bias --dist-fuse-product-bias | FileCheck %s

// A bias added to a product's result (through the expansion that undoes
// dist-collapse-contraction-dims) becomes the product's initial value: the
// bias broadcast along the last dim, marked for dist-call-blas, and the
// add's readers take the expanded product.
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
#all = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#last = affine_map<(d0, d1, d2) -> (d2)>
func.func @bias(%x: tensor<32x16xf32>, %w: tensor<16x64xf32>, %bias: tensor<64xf32>) -> tensor<4x8x64xf32> {
  %zeros = arith.constant dense<0.000000e+00> : tensor<32x64xf32>
  %p = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<32x16xf32>, tensor<16x64xf32>) outs(%zeros : tensor<32x64xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.mulf %in, %in_0 : f32
    %s = arith.addf %out, %m : f32
    linalg.yield %s : f32
  } -> tensor<32x64xf32>
  %e = tensor.expand_shape %p [[0, 1], [2]] output_shape [4, 8, 64] : tensor<32x64xf32> into tensor<4x8x64xf32>
  %init = tensor.empty() : tensor<4x8x64xf32>
  %y = linalg.generic {indexing_maps = [#all, #last, #all], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%e, %bias : tensor<4x8x64xf32>, tensor<64xf32>) outs(%init : tensor<4x8x64xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %s = arith.addf %in, %in_0 : f32
    linalg.yield %s : f32
  } -> tensor<4x8x64xf32>
  return %y : tensor<4x8x64xf32>
}
// CHECK-LABEL: func.func @bias
// CHECK-SAME:    (%[[X:.*]]: tensor<32x16xf32>, %[[W:.*]]: tensor<16x64xf32>, %[[BIAS:.*]]: tensor<64xf32>)
// CHECK:         %[[EMPTY:.*]] = tensor.empty() : tensor<32x64xf32>
// CHECK-NEXT:    %[[START:.*]] = linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}], iterator_types = ["parallel", "parallel"]} ins(%[[BIAS]] : tensor<64xf32>) outs(%[[EMPTY]] : tensor<32x64xf32>) attrs = {dist.product_bias} {
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      linalg.yield %[[IN]] : f32
// CHECK:         %[[P:.*]] = linalg.generic {{.*}} ins(%[[X]], %[[W]] : {{.*}}) outs(%[[START]] : tensor<32x64xf32>)
// CHECK:         %[[E:.*]] = tensor.expand_shape %[[P]]
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[E]] : tensor<4x8x64xf32>

// -----

// Left alone: a bias along another dim than the last (cuBLASLt's bias runs
// along the output's contiguous dim), a product read twice (the add is not
// its only reader), a product that starts from something else than zeros,
// and an add that does more than add (a residual is a third input).
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
#all = affine_map<(d0, d1) -> (d0, d1)>
#first = affine_map<(d0, d1) -> (d0)>
#last = affine_map<(d0, d1) -> (d1)>
func.func @kept(%x: tensor<32x16xf32>, %w: tensor<16x64xf32>, %rows: tensor<32xf32>, %bias: tensor<64xf32>, %start: tensor<32x64xf32>)
    -> (tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x64xf32>) {
  %zeros = arith.constant dense<0.000000e+00> : tensor<32x64xf32>
  %init = tensor.empty() : tensor<32x64xf32>
  %p = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<32x16xf32>, tensor<16x64xf32>) outs(%zeros : tensor<32x64xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.mulf %in, %in_0 : f32
    %s = arith.addf %out, %m : f32
    linalg.yield %s : f32
  } -> tensor<32x64xf32>
  %by_row = linalg.generic {indexing_maps = [#all, #first, #all], iterator_types = ["parallel", "parallel"]}
      ins(%p, %rows : tensor<32x64xf32>, tensor<32xf32>) outs(%init : tensor<32x64xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %s = arith.addf %in, %in_0 : f32
    linalg.yield %s : f32
  } -> tensor<32x64xf32>
  %twice = linalg.generic {indexing_maps = [#all, #last, #all], iterator_types = ["parallel", "parallel"]}
      ins(%p, %bias : tensor<32x64xf32>, tensor<64xf32>) outs(%init : tensor<32x64xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %s = arith.addf %in, %in_0 : f32
    linalg.yield %s : f32
  } -> tensor<32x64xf32>
  %q = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<32x16xf32>, tensor<16x64xf32>) outs(%start : tensor<32x64xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.mulf %in, %in_0 : f32
    %s = arith.addf %out, %m : f32
    linalg.yield %s : f32
  } -> tensor<32x64xf32>
  %started = linalg.generic {indexing_maps = [#all, #last, #all], iterator_types = ["parallel", "parallel"]}
      ins(%q, %bias : tensor<32x64xf32>, tensor<64xf32>) outs(%init : tensor<32x64xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %s = arith.addf %in, %in_0 : f32
    linalg.yield %s : f32
  } -> tensor<32x64xf32>
  %r = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<32x16xf32>, tensor<16x64xf32>) outs(%zeros : tensor<32x64xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.mulf %in, %in_0 : f32
    %s = arith.addf %out, %m : f32
    linalg.yield %s : f32
  } -> tensor<32x64xf32>
  %scaled = linalg.generic {indexing_maps = [#all, #last, #all], iterator_types = ["parallel", "parallel"]}
      ins(%r, %bias : tensor<32x64xf32>, tensor<64xf32>) outs(%init : tensor<32x64xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %s = arith.addf %in, %in_0 : f32
    %t = arith.mulf %s, %s : f32
    linalg.yield %t : f32
  } -> tensor<32x64xf32>
  return %by_row, %twice, %started, %scaled, %p : tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x64xf32>
}
// CHECK-LABEL: func.func @kept
// CHECK-NOT:     dist.product_bias
// CHECK-COUNT-7: linalg.generic
// CHECK-NOT:     linalg.generic
// CHECK:         return

// -----

// Each alone, left as it is: a bias along the first dim (cuBLASLt's runs
// along the output's n dim), a bias along the output's last dim when that
// is the product's m dim, a bias defined after the product, a product
// started from a nonzero splat or from -0.0 (whose sign an all-zero sum
// keeps), an expansion that splits the last dim, and an add in a loop
// around the product's block.
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
#ct = affine_map<(m, n, k) -> (n, m)>
#all = affine_map<(d0, d1) -> (d0, d1)>
#first = affine_map<(d0, d1) -> (d0)>
#last = affine_map<(d0, d1) -> (d1)>
#all3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#last3 = affine_map<(d0, d1, d2) -> (d2)>
func.func @alone(%x: tensor<32x16xf32>, %w: tensor<16x64xf32>, %rows: tensor<32xf32>, %bias: tensor<64xf32>, %other: tensor<32xf32>)
    -> (tensor<32x64xf32>, tensor<64x32xf32>, tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x8x8xf32>, tensor<32x64xf32>) {
  %zeros = arith.constant dense<0.000000e+00> : tensor<32x64xf32>
  %zeros_t = arith.constant dense<0.000000e+00> : tensor<64x32xf32>
  %ones = arith.constant dense<1.000000e+00> : tensor<32x64xf32>
  %negative = arith.constant dense<-0.000000e+00> : tensor<32x64xf32>
  %init = tensor.empty() : tensor<32x64xf32>
  %p1 = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<32x16xf32>, tensor<16x64xf32>) outs(%zeros : tensor<32x64xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.mulf %in, %in_0 : f32
    %s = arith.addf %out, %m : f32
    linalg.yield %s : f32
  } -> tensor<32x64xf32>
  %by_row = linalg.generic {indexing_maps = [#all, #first, #all], iterator_types = ["parallel", "parallel"]}
      ins(%p1, %rows : tensor<32x64xf32>, tensor<32xf32>) outs(%init : tensor<32x64xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %s = arith.addf %in, %in_0 : f32
    linalg.yield %s : f32
  } -> tensor<32x64xf32>
  %p2 = linalg.generic {indexing_maps = [#a, #b, #ct], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<32x16xf32>, tensor<16x64xf32>) outs(%zeros_t : tensor<64x32xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.mulf %in, %in_0 : f32
    %s = arith.addf %out, %m : f32
    linalg.yield %s : f32
  } -> tensor<64x32xf32>
  %init_t = tensor.empty() : tensor<64x32xf32>
  %along_m = linalg.generic {indexing_maps = [#all, #last, #all], iterator_types = ["parallel", "parallel"]}
      ins(%p2, %other : tensor<64x32xf32>, tensor<32xf32>) outs(%init_t : tensor<64x32xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %s = arith.addf %in, %in_0 : f32
    linalg.yield %s : f32
  } -> tensor<64x32xf32>
  %p3 = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<32x16xf32>, tensor<16x64xf32>) outs(%zeros : tensor<32x64xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.mulf %in, %in_0 : f32
    %s = arith.addf %out, %m : f32
    linalg.yield %s : f32
  } -> tensor<32x64xf32>
  %late = arith.negf %bias : tensor<64xf32>
  %after = linalg.generic {indexing_maps = [#all, #last, #all], iterator_types = ["parallel", "parallel"]}
      ins(%p3, %late : tensor<32x64xf32>, tensor<64xf32>) outs(%init : tensor<32x64xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %s = arith.addf %in, %in_0 : f32
    linalg.yield %s : f32
  } -> tensor<32x64xf32>
  %p4 = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<32x16xf32>, tensor<16x64xf32>) outs(%ones : tensor<32x64xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.mulf %in, %in_0 : f32
    %s = arith.addf %out, %m : f32
    linalg.yield %s : f32
  } -> tensor<32x64xf32>
  %from_ones = linalg.generic {indexing_maps = [#all, #last, #all], iterator_types = ["parallel", "parallel"]}
      ins(%p4, %bias : tensor<32x64xf32>, tensor<64xf32>) outs(%init : tensor<32x64xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %s = arith.addf %in, %in_0 : f32
    linalg.yield %s : f32
  } -> tensor<32x64xf32>
  %p5 = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<32x16xf32>, tensor<16x64xf32>) outs(%negative : tensor<32x64xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.mulf %in, %in_0 : f32
    %s = arith.addf %out, %m : f32
    linalg.yield %s : f32
  } -> tensor<32x64xf32>
  %from_negative = linalg.generic {indexing_maps = [#all, #last, #all], iterator_types = ["parallel", "parallel"]}
      ins(%p5, %bias : tensor<32x64xf32>, tensor<64xf32>) outs(%init : tensor<32x64xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %s = arith.addf %in, %in_0 : f32
    linalg.yield %s : f32
  } -> tensor<32x64xf32>
  %p6 = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<32x16xf32>, tensor<16x64xf32>) outs(%zeros : tensor<32x64xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.mulf %in, %in_0 : f32
    %s = arith.addf %out, %m : f32
    linalg.yield %s : f32
  } -> tensor<32x64xf32>
  %split = tensor.expand_shape %p6 [[0], [1, 2]] output_shape [32, 8, 8] : tensor<32x64xf32> into tensor<32x8x8xf32>
  %small = tensor.empty() : tensor<32x8x8xf32>
  %eight = tensor.extract_slice %bias[0] [8] [1] : tensor<64xf32> to tensor<8xf32>
  %split_add = linalg.generic {indexing_maps = [#all3, #last3, #all3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%split, %eight : tensor<32x8x8xf32>, tensor<8xf32>) outs(%small : tensor<32x8x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %s = arith.addf %in, %in_0 : f32
    linalg.yield %s : f32
  } -> tensor<32x8x8xf32>
  %p7 = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<32x16xf32>, tensor<16x64xf32>) outs(%zeros : tensor<32x64xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %m = arith.mulf %in, %in_0 : f32
    %s = arith.addf %out, %m : f32
    linalg.yield %s : f32
  } -> tensor<32x64xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %looped = scf.for %i = %c0 to %c1 step %c1 iter_args(%acc = %init) -> (tensor<32x64xf32>) {
    %in_loop = linalg.generic {indexing_maps = [#all, #last, #all], iterator_types = ["parallel", "parallel"]}
        ins(%p7, %bias : tensor<32x64xf32>, tensor<64xf32>) outs(%acc : tensor<32x64xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %s = arith.addf %in, %in_0 : f32
      linalg.yield %s : f32
    } -> tensor<32x64xf32>
    scf.yield %in_loop : tensor<32x64xf32>
  }
  return %by_row, %along_m, %after, %from_ones, %from_negative, %split_add, %looped
      : tensor<32x64xf32>, tensor<64x32xf32>, tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x8x8xf32>, tensor<32x64xf32>
}
// CHECK-LABEL: func.func @alone
// CHECK-NOT:     dist.product_bias
// CHECK:         return
