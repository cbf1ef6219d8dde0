// dist.causal_mask compares global positions: with the query or the key dim
// split over sp, dist-partition gives each device its first position, and
// the sharded run equals the -n 1 reference, forward and gradient.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../../scripts/npy.py inputs %S/Inputs/causal.mlir loss %t/in > /dev/null
// RUN: %python %S/../../scripts/npy.py inputs %S/Inputs/causal.mlir chunk %t/chunk > /dev/null
// RUN: dist-run %S/Inputs/causal.mlir --entry queries -n 1 --input s=%t/in/s.npy --out %t/q1
// RUN: dist-run %S/Inputs/causal.mlir --entry queries -n 4 --input s=%t/in/s.npy --out %t/q4
// RUN: %python %S/../../scripts/npy.py compare %t/q1 %t/q4 | FileCheck %s
// RUN: dist-run %S/Inputs/causal.mlir --entry keys -n 1 --input s=%t/in/s.npy --out %t/k1
// RUN: dist-run %S/Inputs/causal.mlir --entry keys -n 4 --input s=%t/in/s.npy --out %t/k4
// RUN: %python %S/../../scripts/npy.py compare %t/k1 %t/k4 | FileCheck %s
// RUN: dist-run %S/Inputs/causal.mlir --grad --entry loss -n 1 --input-dir %t/in --out %t/g1
// RUN: dist-run %S/Inputs/causal.mlir --grad --entry loss -n 4 --input-dir %t/in --out %t/g4
// RUN: %python %S/../../scripts/npy.py compare %t/g1 %t/g4 | FileCheck %s --check-prefix=GRAD
// CHECK: 1 results; max difference against -n 1: {{(0\.00e\+00|[0-9.]+e-0[6-9])$}}
// RUN: dist-run %S/Inputs/causal.mlir --grad --entry chunk -n 1 --input-dir %t/chunk --out %t/c1
// RUN: dist-run %S/Inputs/causal.mlir --grad --entry chunk -n 4 --input-dir %t/chunk --out %t/c4
// RUN: %python %S/../../scripts/npy.py compare %t/c1 %t/c4 | FileCheck %s --check-prefix=GRAD
// GRAD: 2 results; max difference against -n 1: {{(0\.00e\+00|[0-9.]+e-0[6-9])$}}
//
// The offsets: the split dim's first position (axis_index times the local
// size), 0 for the whole one; the gradient gets the same.
// RUN: dist-opt %S/Inputs/causal.mlir --dist-append-backward --dist-lower-to-local | FileCheck %s --check-prefix=LOCAL
// LOCAL-LABEL: func.func @queries
// LOCAL-DAG:     %[[ZERO:.*]] = arith.constant 0 : index
// LOCAL-DAG:     %[[RANK:.*]] = dist.axis_index @mesh axes = ["sp"] : index
// LOCAL-DAG:     %[[ROWS:.*]] = arith.constant 4 : index
// LOCAL:         %[[FIRST:.*]] = arith.muli %[[RANK]], %[[ROWS]] : index
// LOCAL:         dist.causal_mask %{{.*}}, %[[FIRST]], %[[ZERO]] : (tensor<1x4x8xf32>, index, index) -> tensor<1x4x8xf32>
// LOCAL-LABEL: func.func @keys
// LOCAL:         dist.causal_mask %{{.*}}, %{{.*}}, %{{.*}} : (tensor<1x8x4xf32>, index, index)
// LOCAL-LABEL: func.func @loss
// LOCAL:         dist.causal_mask %{{.*}}, %[[F:.*]], %[[Z:.*]] : (tensor<1x4x8xf32>, index, index)
// LOCAL:         dist.causal_mask_grad %{{.*}}, %[[F]], %[[Z]] : (tensor<1x4x8xf32>, index, index)
// Offsets the program gives (@chunk: queries from position 8) reach the
// gradient, and each device adds its first query row to them.
// LOCAL-LABEL: func.func @chunk
// LOCAL-DAG:     %[[Q0:.*]] = arith.constant 8 : index
// LOCAL-DAG:     %[[K0:.*]] = arith.constant 0 : index
// LOCAL-DAG:     %[[ROW:.*]] = arith.muli
// LOCAL:         %[[Q:.*]] = arith.addi %[[Q0]], %[[ROW]] : index
// LOCAL-NEXT:    dist.causal_mask %{{.*}}, %[[Q]], %[[K0]] : (tensor<1x4x16xf32>, index, index)
// LOCAL:         %[[QG:.*]] = arith.addi %[[Q0]], %[[ROW]] : index
// LOCAL-NEXT:    dist.causal_mask_grad %{{.*}}, %[[QG]], %[[K0]] : (tensor<1x4x16xf32>, index, index)
