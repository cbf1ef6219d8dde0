// The shipped example parses, verifies and round-trips.
// RUN: dist-opt %S/../../examples/megatron-mlp.mlir | dist-opt | FileCheck %s

// CHECK: dist.mesh @mesh = <["dp"=2, "tp"=2]>
// CHECK-LABEL: func.func @step
// CHECK: dist.all_reduce %{{.*}} on @mesh axes = ["tp"] kind = sum
// CHECK: dist.matmul_grad
// CHECK: dist.all_reduce_coalesced {{.*}} on @mesh axes = ["dp"] kind = avg
