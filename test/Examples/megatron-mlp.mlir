// The shipped example parses, verifies and round-trips, and the pipeline
// places its collectives: the row-parallel output over tp, the loss and the
// gradients over dp.
// RUN: dist-opt %S/../../examples/megatron-mlp.mlir | dist-opt | FileCheck %s --check-prefix=PARSE
// RUN: dist-opt %S/../../examples/megatron-mlp.mlir --dist-propagate-sharding --dist-resolve-partial | FileCheck %s
// The demo's pipeline (scripts/demo.sh) runs through and stays consistent.
// RUN: dist-opt %S/../../examples/megatron-mlp.mlir --dist-propagate-sharding --dist-resolve-partial="bucket-mb=1" --dist-split-matmul-grad --dist-overlap-collectives --dist-verify-sharding --dist-comm-report --dist-overlap-report -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEMO
// DEMO: // dist-comm-report @step
// DEMO: // dist-overlap-report @step
// DEMO: // compute {{.*}} us, communication {{.*}} us; exposed {{.*}} us before (synchronous), {{.*}} us after; overlap {{.*}}%; step {{.*}} us

// PARSE: dist.mesh @mesh = <["dp"=2, "tp"=2]>
// PARSE-LABEL: func.func @step
// PARSE-NOT: dist.all_reduce

// CHECK-LABEL: func.func @step
// CHECK:         %[[Y:.*]] = dist.matmul {{.*}}partial = sum{"tp"}
// CHECK-NEXT:    %[[YR:.*]] = dist.all_reduce %[[Y]] on @mesh axes = ["tp"] kind = sum
// CHECK-NEXT:    dist.sub %[[YR]]
// CHECK:         %[[LOSS:.*]] = dist.reduce_mean {{.*}}partial = avg{"dp"}
// CHECK-NEXT:    %[[LSUM:.*]] = dist.all_reduce %[[LOSS]] on @mesh axes = ["dp"] kind = sum
// CHECK-NEXT:    %[[LAVG:.*]] = dist.scale %[[LSUM]] {{{.*}}factor = 5.000000e-01 : f64}
// CHECK:         %{{.*}}, %[[DW2:.*]] = dist.matmul_grad
// CHECK-NEXT:    %[[DW2R:.*]] = dist.all_reduce %[[DW2]] on @mesh axes = ["dp"] kind = sum
// CHECK:         %{{.*}}, %[[DB1:.*]] = dist.add_grad
// CHECK-NEXT:    %[[DB1R:.*]] = dist.all_reduce %[[DB1]] on @mesh axes = ["dp"] kind = sum
// CHECK:         %{{.*}}, %[[DW1:.*]] = dist.matmul_grad
// CHECK-NEXT:    %[[DW1R:.*]] = dist.all_reduce %[[DW1]] on @mesh axes = ["dp"] kind = sum
// CHECK-NEXT:    return %[[LAVG]], %[[DW1R]], %[[DB1R]], %[[DW2R]]
