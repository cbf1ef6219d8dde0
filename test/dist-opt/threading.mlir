// Regression test of a segfault in 5-26% of runs: function passes run on
// several functions at once, and melior's positional accessors, on a miss,
// printed (and verified) the whole module while other threads rewrote it.
// The threaded and the serial run must print the same module.
// RUN: dist-opt %s --dist-partition-pipeline --dist-lower-to-llvm > %t.threaded
// RUN: dist-opt %s --dist-partition-pipeline --dist-lower-to-llvm --mlir-disable-threading > %t.serial
// RUN: diff %t.threaded %t.serial
// RUN: FileCheck %s < %t.serial
//
// As in mlir-opt, printing the whole module after each pass needs one thread.
// RUN: dist-opt %s --mlir-disable-threading --dist-propagate-sharding --mlir-print-ir-after-all \
// RUN:   --mlir-print-ir-module-scope -o /dev/null 2>&1 | FileCheck %s --check-prefix=SCOPE
// RUN: not dist-opt %s --dist-propagate-sharding --mlir-print-ir-after-all --mlir-print-ir-module-scope 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NEEDS-ONE-THREAD

// CHECK-LABEL: llvm.func @elementwise
// CHECK-LABEL: llvm.func @layers
// CHECK-LABEL: llvm.func @shapes

// Each function's dump shows the whole module.
// SCOPE:      IR Dump After dist-propagate-sharding {{.*}} @elementwise
// SCOPE-NEXT: module {
// SCOPE:      func.func @elementwise
// SCOPE:      func.func @layers
// SCOPE:      func.func @shapes
// SCOPE:      IR Dump After dist-propagate-sharding {{.*}} @layers
// SCOPE-NEXT: module {
// SCOPE-NEXT: dist.mesh
// SCOPE-NEXT: func.func @elementwise
// NEEDS-ONE-THREAD: dist-opt: --mlir-print-ir-module-scope needs --mlir-disable-threading

dist.mesh @mesh = <["x"=2]>

// Elementwise ops, their gradients and activations.
func.func @elementwise(%x: tensor<8x32xf32>, %b: tensor<32xf32>, %d: tensor<8x32xf32>) {
  %0 = dist.add %x, %b : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
  %1 = dist.sub %x, %d : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
  %2 = dist.mul %x, %b : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
  %3:2 = dist.add_grad %x, %b, %d : (tensor<8x32xf32>, tensor<32xf32>, tensor<8x32xf32>) -> (tensor<8x32xf32>, tensor<32xf32>)
  %4:2 = dist.sub_grad %x, %d, %d : (tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>) -> (tensor<8x32xf32>, tensor<8x32xf32>)
  %5:2 = dist.mul_grad %x, %b, %d : (tensor<8x32xf32>, tensor<32xf32>, tensor<8x32xf32>) -> (tensor<8x32xf32>, tensor<32xf32>)
  %6 = dist.scale %x {factor = 0.5 : f64} : (tensor<8x32xf32>) -> tensor<8x32xf32>
  %7 = dist.gelu %x : (tensor<8x32xf32>) -> tensor<8x32xf32>
  %8 = dist.gelu %x {approximate = "tanh"} : (tensor<8x32xf32>) -> tensor<8x32xf32>
  %9 = dist.gelu_grad %x, %d {approximate = "tanh"} : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
  %10 = dist.relu %x : (tensor<8x32xf32>) -> tensor<8x32xf32>
  %11 = dist.relu_grad %x, %d : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
  return
}

// Layer norm, embedding, softmax and their gradients.
func.func @layers(%x: tensor<4x8x32xf32>, %g: tensor<32xf32>, %b: tensor<32xf32>, %ids: tensor<4x8xi64>,
                  %table: tensor<100x32xf32>, %g2: tensor<8x32xf32>) {
  // The default epsilon is elided; another one is kept.
  %y:3 = dist.layer_norm %x, %g, %b {begin_norm_axis = 2 : i64, epsilon = 1.0e-5 : f32} : (tensor<4x8x32xf32>, tensor<32xf32>, tensor<32xf32>) -> (tensor<4x8x32xf32>, tensor<4x8xf32>, tensor<4x8xf32>)
  %y2:3 = dist.layer_norm %x, %g2, %g2 {begin_norm_axis = 1 : i64, epsilon = 1.0e-6 : f32} : (tensor<4x8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>) -> (tensor<4x8x32xf32>, tensor<4xf32>, tensor<4xf32>)
  %d:3 = dist.layer_norm_grad %x, %g, %y#1, %y#2, %x {begin_norm_axis = 2 : i64} : (tensor<4x8x32xf32>, tensor<32xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8x32xf32>) -> (tensor<4x8x32xf32>, tensor<32xf32>, tensor<32xf32>)
  %e = dist.embedding %ids, %table : (tensor<4x8xi64>, tensor<100x32xf32>) -> tensor<4x8x32xf32>
  %de = dist.embedding_grad %ids, %table, %e : (tensor<4x8xi64>, tensor<100x32xf32>, tensor<4x8x32xf32>) -> tensor<100x32xf32>
  %s = dist.softmax %x {axis = -1 : i64} : (tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
  %ds = dist.softmax_grad %s, %x {axis = 2 : i64} : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
  return
}

// Reductions, their gradients, reshape and transpose.
func.func @shapes(%x: tensor<4x8x32xf32>) {
  %0 = dist.reduce_sum %x {dims = array<i64: 0, 1>} : (tensor<4x8x32xf32>) -> tensor<32xf32>
  %1 = dist.reduce_mean %x {dims = array<i64: 2>, keepdim} : (tensor<4x8x32xf32>) -> tensor<4x8x1xf32>
  %2 = dist.reduce_sum_grad %x, %0 {dims = array<i64: 0, 1>} : (tensor<4x8x32xf32>, tensor<32xf32>) -> tensor<4x8x32xf32>
  %3 = dist.reduce_mean_grad %x, %1 {dims = array<i64: 2>, keepdim} : (tensor<4x8x32xf32>, tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
  %4 = dist.reshape %x : (tensor<4x8x32xf32>) -> tensor<32x32xf32>
  %5 = dist.transpose %x {perm = array<i64: 0, 2, 1>} : (tensor<4x8x32xf32>) -> tensor<4x32x8xf32>
  return
}
