// dist.attention equals the attention it fuses (scores, scale, mask,
// softmax, weighted values) on one device, loss and the gradients of q, k
// and v, and on 4 devices with the queries split (each shard's mask from
// its offset; k and v gathered, their gradients reduce-scattered).
// RUN: rm -rf %t && mkdir -p %t
//
// Causal with grouped-query heads, 3 x 3 blocks of 64 (3 skipped), sp = 4.
// RUN: %python %S/../../scripts/npy.py inputs %S/Inputs/attention.mlir causal %t/in > /dev/null
// RUN: dist-run %S/Inputs/attention.mlir --grad --entry causal_ref --input-dir %t/in --out %t/ref
// RUN: dist-run %S/Inputs/attention.mlir --grad --entry causal --input-dir %t/in --out %t/one
// RUN: %python %S/../../scripts/npy.py compare %t/ref %t/one | FileCheck %s
// RUN: dist-run %S/Inputs/attention.mlir --grad --entry causal -n 4 --input-dir %t/in --out %t/four
// RUN: %python %S/../../scripts/npy.py compare %t/ref %t/four | FileCheck %s
// CHECK: 4 results; max difference against -n 1: {{(0\.00e\+00|[0-9.]+e-0[6-9])$}}
//
// In bf16 (the sums and the log-sum-exp in f32), against the f32 reference;
// in f64, against the f64 unfused attention.
// RUN: dist-run %S/Inputs/attention.mlir --grad --entry causal_bf16 --input-dir %t/in --out %t/bf16
// RUN: %python %S/../../scripts/npy.py compare %t/ref %t/bf16 --tolerance 1e-2 | FileCheck %s --check-prefix=BF16
// BF16: 4 results; max difference against -n 1: {{[0-9.]+e-0[3-9]$}}
// RUN: dist-run %S/Inputs/attention.mlir --grad --entry causal_ref_f64 --input-dir %t/in --out %t/ref64
// RUN: dist-run %S/Inputs/attention.mlir --grad --entry causal_f64 -n 4 --input-dir %t/in --out %t/f64
// RUN: %python %S/../../scripts/npy.py compare %t/ref64 %t/f64 --tolerance 1e-12 | FileCheck %s --check-prefix=F64
// F64: 4 results; max difference against -n 1: {{(0\.00e\+00|[0-9.]+e-1[2-9])$}}
//
// In the balanced order of 2 shards: the data permuted as dist-gen --balance
// takes them, the reference masking by their positions; dp x sp.
// RUN: %python %S/../../scripts/npy.py inputs %S/Inputs/attention.mlir balanced %t/raw > /dev/null
// RUN: %python %S/../../scripts/npy.py balance %t/raw %t/bal 2 --names q,k,v,w --dim 3 > /dev/null
// RUN: dist-run %S/Inputs/attention.mlir --grad --entry balanced_ref --input-dir %t/bal --out %t/bref
// RUN: dist-run %S/Inputs/attention.mlir --grad --entry balanced --input-dir %t/bal --out %t/bone
// RUN: %python %S/../../scripts/npy.py compare %t/bref %t/bone | FileCheck %s
// RUN: dist-run %S/Inputs/attention.mlir --grad --entry balanced -n 4 --input-dir %t/bal --out %t/bfour
// RUN: %python %S/../../scripts/npy.py compare %t/bref %t/bfour | FileCheck %s
//
// Not causal, 40 queries of 72 keys (no block skipped), split over sp.
// RUN: %python %S/../../scripts/npy.py inputs %S/Inputs/attention.mlir cross %t/cin > /dev/null
// RUN: dist-run %S/Inputs/attention.mlir --grad --entry cross_ref --input-dir %t/cin --out %t/cref
// RUN: dist-run %S/Inputs/attention.mlir --grad --entry cross -n 4 --input-dir %t/cin --out %t/cfour
// RUN: %python %S/../../scripts/npy.py compare %t/cref %t/cfour | FileCheck %s
//
// Queries from a given offset whose blocks run into the next chunk.
// RUN: %python %S/../../scripts/npy.py inputs %S/Inputs/attention.mlir offset %t/oraw > /dev/null
// RUN: %python %S/../../scripts/npy.py balance %t/oraw %t/oin 3 --names k --dim 1 > /dev/null
// RUN: dist-run %S/Inputs/attention.mlir --grad --entry offset_ref --input-dir %t/oin --out %t/oref
// RUN: dist-run %S/Inputs/attention.mlir --grad --entry offset --input-dir %t/oin --out %t/oone
// RUN: %python %S/../../scripts/npy.py compare %t/oref %t/oone | FileCheck %s
//
// The partitioned step: k and v gathered over sp, each shard's first query
// (axis_index x 48) the op's offset, dk and dv reduce-scattered.
// RUN: dist-opt %S/Inputs/attention.mlir --dist-append-backward --dist-lower-to-local | FileCheck %s --check-prefix=LOCAL
// LOCAL-LABEL: func.func @balanced
// LOCAL-DAG:     %[[RANK:.*]] = dist.axis_index @mesh axes = ["sp"] : index
// LOCAL-DAG:     %[[ROWS:.*]] = arith.constant 48 : index
// LOCAL-DAG:     %[[FIRST:.*]] = arith.muli %[[RANK]], %[[ROWS]] : index
// LOCAL-DAG:     %[[K:.*]] = dist.all_gather %{{.*}} on @mesh axes = ["sp"] dim = 3 : tensor<1x1x1x48x8xf32> -> tensor<1x1x1x96x8xf32>
// LOCAL-DAG:     %[[V:.*]] = dist.all_gather %{{.*}} on @mesh axes = ["sp"] dim = 3 : tensor<1x1x1x48x8xf32> -> tensor<1x1x1x96x8xf32>
// LOCAL:         %[[O:.*]], %[[LSE:.*]] = dist.attention %{{.*}}, %[[K]], %[[V]], %[[FIRST]] {balance = 2 : i64, causal
// LOCAL:         %{{.*}}, %[[DK:.*]], %[[DV:.*]] = dist.attention_grad %{{.*}}, %[[K]], %[[V]], %[[O]], %[[LSE]], %{{.*}}, %[[FIRST]] {balance = 2 : i64, causal
// LOCAL-DAG:     dist.reduce_scatter %[[DK]] on @mesh axes = ["sp"] dim = 3 kind = sum
// LOCAL-DAG:     dist.reduce_scatter %[[DV]] on @mesh axes = ["sp"] dim = 3 kind = sum
// LOCAL-LABEL: func.func @balanced_ref
