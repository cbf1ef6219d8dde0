// Megatron's vocab-parallel cross-entropy, derived: with the logits' vocabulary
// split over tp, dist-decompose expands the loss, partial inference makes the
// row maximum partial max and the sum of exponentials and the picked logit
// partial sums, and resolution places three all-reduces over tp (max, sum,
// sum) of one value per position (16 floats per device), none of the logits,
// and one over dp of the mean; the gradient needs none.
// RUN: dist-opt %S/Inputs/cross-entropy.mlir --dist-append-backward --dist-decompose --dist-propagate-sharding=remarks=none \
// RUN:   --dist-resolve-partial --dist-comm-report -o /dev/null 2>&1 | FileCheck %s --check-prefix=COMM
// COMM:      //  1  all_reduce  max  "tp"  2x2 {0,1} {2,3}  f32  64  %0  dist.sub
// COMM-NEXT: //  2  all_reduce  sum  "tp"  2x2 {0,1} {2,3}  f32  64  %4  dist.log
// COMM-NEXT: //  3  all_reduce  sum  "tp"  2x2 {0,1} {2,3}  f32  64  %9  dist.sub
// COMM-NEXT: //  4  all_reduce  sum  "dp"  2x2 {0,2} {1,3}  f32   4  %12 dist.scale
// COMM-NEXT: // total: 4 collectives, 196 bytes per device; all_reduce 4 (196)
//
// The loss and its gradient on the 2 x 2 mesh (decomposed) equal the -n 1
// reference (fused), and so does the decomposed program on one device.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../../scripts/npy.py inputs %S/Inputs/cross-entropy.mlir loss %t/in --id-range 64 > /dev/null
// RUN: dist-run %S/Inputs/cross-entropy.mlir --grad --entry loss -n 1 --input-dir %t/in --out %t/fused
// RUN: dist-run %S/Inputs/cross-entropy.mlir --grad --entry loss -n 4 --input-dir %t/in --out %t/sharded
// RUN: %python %S/../../scripts/npy.py compare %t/fused %t/sharded | FileCheck %s
// RUN: dist-opt %S/Inputs/cross-entropy.mlir --dist-append-backward --dist-decompose -o %t/decomposed.mlir
// The printed program numbers its arguments; feed it the same arrays.
// RUN: cp %t/in/logits.npy %t/in/arg0.npy && cp %t/in/labels.npy %t/in/arg1.npy
// RUN: dist-run %t/decomposed.mlir --entry loss -n 1 --input-dir %t/in --out %t/decomposed
// RUN: %python %S/../../scripts/npy.py compare %t/fused %t/decomposed | FileCheck %s
// CHECK: 2 results; max difference against -n 1: {{(0\.00e\+00|[0-9.]+e-(0[6-9]|[1-9][0-9]))$}}
//
// Labels past the vocabulary (ids drawn from [0, 80) for 64 entries) pick no
// logit, alike fused on one device and expanded over the split vocabulary.
// RUN: %python %S/../../scripts/npy.py inputs %S/Inputs/cross-entropy.mlir loss %t/wide --id-range 80 > /dev/null
// RUN: dist-run %S/Inputs/cross-entropy.mlir --grad --entry loss -n 1 --input-dir %t/wide --out %t/wide1
// RUN: dist-run %S/Inputs/cross-entropy.mlir --grad --entry loss -n 4 --input-dir %t/wide --out %t/wide4
// RUN: %python %S/../../scripts/npy.py compare %t/wide1 %t/wide4 | FileCheck %s
