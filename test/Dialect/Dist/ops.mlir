// RUN: dist-opt %s --split-input-file | FileCheck %s
// Printed IR re-parses to the same text, in custom and in generic form.
// RUN: dist-opt %s --split-input-file | dist-opt --split-input-file | FileCheck %s
// RUN: dist-opt %s --split-input-file --mlir-print-op-generic | dist-opt --split-input-file | FileCheck %s

// A mesh with row-major devices, and one with explicit device ids.
// CHECK: dist.mesh @mesh = <["dp"=2, "tp"=4]>
// CHECK: dist.mesh @ring = <["x"=4], devices = [0, 2, 3, 1]>
dist.mesh @mesh = <["dp"=2, "tp"=4]>
dist.mesh @ring = <["x"=4], devices = [0, 2, 3, 1]>

// Shardings on arguments, results and op results, with every partial kind.
// CHECK-LABEL: func.func @shardings
// CHECK-SAME: {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}, {"tp"}]>}
// CHECK-SAME: {dist.sharding = #dist.sharding<@mesh, [{"dp", "tp"}]>}
// CHECK-SAME: -> (tensor<8x4x16xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}, {}], partial = sum{"dp", "tp"}>}
func.func @shardings(%x: tensor<8x4x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}, {"tp"}]>},
                     %v: tensor<16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp", "tp"}]>})
    -> (tensor<8x4x16xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}, {}], partial = sum{"dp", "tp"}>}) {
  // CHECK: dist.relu %{{.*}} {dist.sharding = [#dist.sharding<@mesh, [{"dp"}, {}, {}], partial = avg{"tp"}>]}
  %a = dist.relu %x {dist.sharding = [#dist.sharding<@mesh, [{"dp"}, {}, {}], partial = avg{"tp"}>]} : (tensor<8x4x16xf32>) -> tensor<8x4x16xf32>
  // CHECK: partial = max{"tp"}
  %b = dist.relu %a {dist.sharding = [#dist.sharding<@mesh, [{"dp"}, {}, {}], partial = max{"tp"}>]} : (tensor<8x4x16xf32>) -> tensor<8x4x16xf32>
  // CHECK: partial = min{"dp"}
  %c = dist.relu %b {dist.sharding = [#dist.sharding<@mesh, [{}, {}, {"tp"}], partial = min{"dp"}>]} : (tensor<8x4x16xf32>) -> tensor<8x4x16xf32>
  return %c : tensor<8x4x16xf32>
}

// -----

dist.mesh @mesh = <["dp"=2, "tp"=2]>

// Forward and gradient matmuls, with transposes and batch broadcasting.
// CHECK-LABEL: func.func @matmuls
func.func @matmuls(%x: tensor<4x8x16xf32>, %w: tensor<16x32xf32>, %wt: tensor<32x16xf32>,
                   %xt: tensor<4x16x8xf32>, %dout: tensor<4x8x32xf32>) {
  // CHECK: %[[OUT:.*]] = dist.matmul %{{.*}}, %{{.*}} : (tensor<4x8x16xf32>, tensor<16x32xf32>) -> tensor<4x8x32xf32>
  %0 = dist.matmul %x, %w : (tensor<4x8x16xf32>, tensor<16x32xf32>) -> tensor<4x8x32xf32>
  // CHECK: dist.matmul %{{.*}}, %{{.*}} {transpose_y} : (tensor<4x8x16xf32>, tensor<32x16xf32>) -> tensor<4x8x32xf32>
  %1 = dist.matmul %x, %wt {transpose_y} : (tensor<4x8x16xf32>, tensor<32x16xf32>) -> tensor<4x8x32xf32>
  // CHECK: dist.matmul %{{.*}}, %{{.*}} {transpose_x, transpose_y} : (tensor<4x16x8xf32>, tensor<32x16xf32>) -> tensor<4x8x32xf32>
  %2 = dist.matmul %xt, %wt {transpose_x, transpose_y} : (tensor<4x16x8xf32>, tensor<32x16xf32>) -> tensor<4x8x32xf32>
  // CHECK: %[[DX:.*]], %[[DW:.*]] = dist.matmul_grad %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4x8x16xf32>, tensor<16x32xf32>, tensor<4x8x32xf32>) -> (tensor<4x8x16xf32>, tensor<16x32xf32>)
  %dx, %dw = dist.matmul_grad %x, %w, %dout : (tensor<4x8x16xf32>, tensor<16x32xf32>, tensor<4x8x32xf32>) -> (tensor<4x8x16xf32>, tensor<16x32xf32>)
  // CHECK: dist.matmul_grad {{.*}} {transpose_x} : (tensor<4x16x8xf32>, tensor<16x32xf32>, tensor<4x8x32xf32>)
  %dxt, %dw2 = dist.matmul_grad %xt, %w, %dout {transpose_x} : (tensor<4x16x8xf32>, tensor<16x32xf32>, tensor<4x8x32xf32>) -> (tensor<4x16x8xf32>, tensor<16x32xf32>)
  return
}

// Broadcast of batch dims of size 1 and of missing batch dims.
// CHECK-LABEL: func.func @batch_broadcast
func.func @batch_broadcast(%a: tensor<2x1x8x16xf32>, %b: tensor<3x16x4xf32>) -> tensor<2x3x8x4xf32> {
  // CHECK: dist.matmul {{.*}} -> tensor<2x3x8x4xf32>
  %0 = dist.matmul %a, %b : (tensor<2x1x8x16xf32>, tensor<3x16x4xf32>) -> tensor<2x3x8x4xf32>
  return %0 : tensor<2x3x8x4xf32>
}

// -----

dist.mesh @mesh = <["x"=2]>

// Elementwise ops, their gradients and activations.
// CHECK-LABEL: func.func @elementwise
func.func @elementwise(%x: tensor<8x32xf32>, %b: tensor<32xf32>, %d: tensor<8x32xf32>) {
  // CHECK: dist.add %{{.*}}, %{{.*}} : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
  %0 = dist.add %x, %b : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
  // CHECK: dist.sub
  %1 = dist.sub %x, %d : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
  // CHECK: dist.mul
  %2 = dist.mul %x, %b : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
  // CHECK: dist.add_grad {{.*}} -> (tensor<8x32xf32>, tensor<32xf32>)
  %3:2 = dist.add_grad %x, %b, %d : (tensor<8x32xf32>, tensor<32xf32>, tensor<8x32xf32>) -> (tensor<8x32xf32>, tensor<32xf32>)
  // CHECK: dist.sub_grad
  %4:2 = dist.sub_grad %x, %d, %d : (tensor<8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>) -> (tensor<8x32xf32>, tensor<8x32xf32>)
  // CHECK: dist.mul_grad
  %5:2 = dist.mul_grad %x, %b, %d : (tensor<8x32xf32>, tensor<32xf32>, tensor<8x32xf32>) -> (tensor<8x32xf32>, tensor<32xf32>)
  // CHECK: dist.scale %{{.*}} {factor = 5.000000e-01 : f64}
  %6 = dist.scale %x {factor = 0.5 : f64} : (tensor<8x32xf32>) -> tensor<8x32xf32>
  // CHECK: dist.gelu %{{.*}} :
  %7 = dist.gelu %x : (tensor<8x32xf32>) -> tensor<8x32xf32>
  // CHECK: dist.gelu %{{.*}} {approximate = "tanh"}
  %8 = dist.gelu %x {approximate = "tanh"} : (tensor<8x32xf32>) -> tensor<8x32xf32>
  // CHECK: dist.gelu_grad %{{.*}}, %{{.*}} {approximate = "tanh"}
  %9 = dist.gelu_grad %x, %d {approximate = "tanh"} : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
  // CHECK: dist.relu
  %10 = dist.relu %x : (tensor<8x32xf32>) -> tensor<8x32xf32>
  // CHECK: dist.relu_grad
  %11 = dist.relu_grad %x, %d : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
  return
}

// Layer norm, embedding, softmax and their gradients.
// CHECK-LABEL: func.func @layers
func.func @layers(%x: tensor<4x8x32xf32>, %g: tensor<32xf32>, %b: tensor<32xf32>, %ids: tensor<4x8xi64>,
                  %table: tensor<100x32xf32>, %g2: tensor<8x32xf32>) {
  // The default epsilon is elided; another one is kept.
  // CHECK: dist.layer_norm %{{.*}}, %{{.*}}, %{{.*}} {begin_norm_axis = 2 : i64} :
  %y:3 = dist.layer_norm %x, %g, %b {begin_norm_axis = 2 : i64, epsilon = 1.0e-5 : f32} : (tensor<4x8x32xf32>, tensor<32xf32>, tensor<32xf32>) -> (tensor<4x8x32xf32>, tensor<4x8xf32>, tensor<4x8xf32>)
  // CHECK: dist.layer_norm {{.*}} {begin_norm_axis = 1 : i64, epsilon = 9.99999997E-7 : f32}
  %y2:3 = dist.layer_norm %x, %g2, %g2 {begin_norm_axis = 1 : i64, epsilon = 1.0e-6 : f32} : (tensor<4x8x32xf32>, tensor<8x32xf32>, tensor<8x32xf32>) -> (tensor<4x8x32xf32>, tensor<4xf32>, tensor<4xf32>)
  // CHECK: dist.layer_norm_grad {{.*}} -> (tensor<4x8x32xf32>, tensor<32xf32>, tensor<32xf32>)
  %d:3 = dist.layer_norm_grad %x, %g, %y#1, %y#2, %x {begin_norm_axis = 2 : i64} : (tensor<4x8x32xf32>, tensor<32xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8x32xf32>) -> (tensor<4x8x32xf32>, tensor<32xf32>, tensor<32xf32>)
  // CHECK: dist.embedding %{{.*}}, %{{.*}} : (tensor<4x8xi64>, tensor<100x32xf32>) -> tensor<4x8x32xf32>
  %e = dist.embedding %ids, %table : (tensor<4x8xi64>, tensor<100x32xf32>) -> tensor<4x8x32xf32>
  // CHECK: dist.embedding_grad {{.*}} -> tensor<100x32xf32>
  %de = dist.embedding_grad %ids, %table, %e : (tensor<4x8xi64>, tensor<100x32xf32>, tensor<4x8x32xf32>) -> tensor<100x32xf32>
  // CHECK: dist.softmax %{{.*}} {axis = -1 : i64}
  %s = dist.softmax %x {axis = -1 : i64} : (tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
  // CHECK: dist.softmax_grad %{{.*}}, %{{.*}} {axis = 2 : i64}
  %ds = dist.softmax_grad %s, %x {axis = 2 : i64} : (tensor<4x8x32xf32>, tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
  return
}

// Reductions, their gradients, reshape and transpose.
// CHECK-LABEL: func.func @shapes
func.func @shapes(%x: tensor<4x8x32xf32>) {
  // CHECK: dist.reduce_sum %{{.*}} {dims = array<i64: 0, 1>} : (tensor<4x8x32xf32>) -> tensor<32xf32>
  %0 = dist.reduce_sum %x {dims = array<i64: 0, 1>} : (tensor<4x8x32xf32>) -> tensor<32xf32>
  // CHECK: dist.reduce_mean %{{.*}} {dims = array<i64: 2>, keepdim} : (tensor<4x8x32xf32>) -> tensor<4x8x1xf32>
  %1 = dist.reduce_mean %x {dims = array<i64: 2>, keepdim} : (tensor<4x8x32xf32>) -> tensor<4x8x1xf32>
  // CHECK: dist.reduce_sum_grad
  %2 = dist.reduce_sum_grad %x, %0 {dims = array<i64: 0, 1>} : (tensor<4x8x32xf32>, tensor<32xf32>) -> tensor<4x8x32xf32>
  // CHECK: dist.reduce_mean_grad
  %3 = dist.reduce_mean_grad %x, %1 {dims = array<i64: 2>, keepdim} : (tensor<4x8x32xf32>, tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
  // CHECK: dist.reshape %{{.*}} : (tensor<4x8x32xf32>) -> tensor<32x32xf32>
  %4 = dist.reshape %x : (tensor<4x8x32xf32>) -> tensor<32x32xf32>
  // CHECK: dist.transpose %{{.*}} {perm = array<i64: 0, 2, 1>} : (tensor<4x8x32xf32>) -> tensor<4x32x8xf32>
  %5 = dist.transpose %x {perm = array<i64: 0, 2, 1>} : (tensor<4x8x32xf32>) -> tensor<4x32x8xf32>
  return
}

// -----

dist.mesh @mesh = <["dp"=2, "tp"=4]>

// Collectives in the global view: operand and result share the global type.
// CHECK-LABEL: func.func @collectives_global
func.func @collectives_global(%x: tensor<8x16xf32>, %v: tensor<16xf32>) {
  // CHECK: dist.all_reduce %{{.*}} on @mesh axes = ["dp", "tp"] kind = sum : tensor<8x16xf32> -> tensor<8x16xf32>
  %0 = dist.all_reduce %x on @mesh axes = ["dp", "tp"] kind = sum : tensor<8x16xf32> -> tensor<8x16xf32>
  // CHECK: dist.all_reduce_coalesced %{{.*}}, %{{.*}} on @mesh axes = ["dp"] kind = avg : (tensor<8x16xf32>, tensor<16xf32>) -> (tensor<8x16xf32>, tensor<16xf32>)
  %1:2 = dist.all_reduce_coalesced %x, %v on @mesh axes = ["dp"] kind = avg : (tensor<8x16xf32>, tensor<16xf32>) -> (tensor<8x16xf32>, tensor<16xf32>)
  // CHECK: dist.reduce_scatter %{{.*}} on @mesh axes = ["tp"] dim = 0 kind = max : tensor<8x16xf32> -> tensor<8x16xf32>
  %2 = dist.reduce_scatter %x on @mesh axes = ["tp"] dim = 0 kind = max : tensor<8x16xf32> -> tensor<8x16xf32>
  // CHECK: dist.all_gather %{{.*}} on @mesh axes = ["tp"] dim = 1 : tensor<8x16xf32> -> tensor<8x16xf32>
  %3 = dist.all_gather %x on @mesh axes = ["tp"] dim = 1 : tensor<8x16xf32> -> tensor<8x16xf32>
  // CHECK: dist.all_to_all %{{.*}} on @mesh axes = ["tp"] split_dim = 1 concat_dim = 0 : tensor<8x16xf32> -> tensor<8x16xf32>
  %4 = dist.all_to_all %x on @mesh axes = ["tp"] split_dim = 1 concat_dim = 0 : tensor<8x16xf32> -> tensor<8x16xf32>
  // CHECK: dist.all_slice %{{.*}} on @mesh axes = ["dp"] dim = 0 : tensor<8x16xf32> -> tensor<8x16xf32>
  %5 = dist.all_slice %x on @mesh axes = ["dp"] dim = 0 : tensor<8x16xf32> -> tensor<8x16xf32>
  return
}

// Collectives in the local view: dims scale by the group size.
// CHECK-LABEL: func.func @collectives_local
func.func @collectives_local(%x: tensor<8x16xf32>, %s: tensor<8x4xf32>) {
  // CHECK: dist.reduce_scatter {{.*}} kind = min : tensor<8x16xf32> -> tensor<2x16xf32>
  %0 = dist.reduce_scatter %x on @mesh axes = ["tp"] dim = 0 kind = min : tensor<8x16xf32> -> tensor<2x16xf32>
  // CHECK: dist.all_gather {{.*}} : tensor<8x4xf32> -> tensor<8x16xf32>
  %1 = dist.all_gather %s on @mesh axes = ["tp"] dim = 1 : tensor<8x4xf32> -> tensor<8x16xf32>
  // CHECK: dist.all_to_all {{.*}} : tensor<8x16xf32> -> tensor<64x2xf32>
  %2 = dist.all_to_all %x on @mesh axes = ["dp", "tp"] split_dim = 1 concat_dim = 0 : tensor<8x16xf32> -> tensor<64x2xf32>
  // CHECK: dist.all_slice {{.*}} : tensor<8x16xf32> -> tensor<8x2xf32>
  %3 = dist.all_slice %x on @mesh axes = ["tp", "dp"] dim = 1 : tensor<8x16xf32> -> tensor<8x2xf32>
  // CHECK: dist.reduce_scatter_coalesced %{{.*}}, %{{.*}} on @mesh axes = ["dp"] dim = 0 kind = sum : (tensor<8x16xf32>, tensor<8x4xf32>) -> (tensor<4x16xf32>, tensor<4x4xf32>)
  %4:2 = dist.reduce_scatter_coalesced %x, %s on @mesh axes = ["dp"] dim = 0 kind = sum : (tensor<8x16xf32>, tensor<8x4xf32>) -> (tensor<4x16xf32>, tensor<4x4xf32>)
  return
}

// Asynchronous collectives and their handles.
// CHECK-LABEL: func.func @async
func.func @async(%x: tensor<8x16xf32>, %v: tensor<16xf32>) -> tensor<8x16xf32> {
  // CHECK: %[[H:.*]] = dist.all_reduce_start %{{.*}} on @mesh axes = ["tp"] kind = sum : tensor<8x16xf32> -> !dist.handle<tensor<8x16xf32>>
  %h = dist.all_reduce_start %x on @mesh axes = ["tp"] kind = sum : tensor<8x16xf32> -> !dist.handle<tensor<8x16xf32>>
  // CHECK: dist.all_reduce_start %{{.*}}, %{{.*}} on @mesh axes = ["dp"] kind = sum : tensor<8x16xf32>, tensor<16xf32> -> !dist.handle<tensor<8x16xf32>, tensor<16xf32>>
  %hb = dist.all_reduce_start %x, %v on @mesh axes = ["dp"] kind = sum : tensor<8x16xf32>, tensor<16xf32> -> !dist.handle<tensor<8x16xf32>, tensor<16xf32>>
  // CHECK: dist.reduce_scatter_start {{.*}} -> !dist.handle<tensor<2x16xf32>>
  %h1 = dist.reduce_scatter_start %x on @mesh axes = ["tp"] dim = 0 kind = sum : tensor<8x16xf32> -> !dist.handle<tensor<2x16xf32>>
  // CHECK: dist.reduce_scatter_start %{{.*}}, %{{.*}} on @mesh axes = ["dp"] dim = 0 kind = sum : tensor<8x16xf32>, tensor<16xf32> -> !dist.handle<tensor<4x16xf32>, tensor<8xf32>>
  %hs = dist.reduce_scatter_start %x, %v on @mesh axes = ["dp"] dim = 0 kind = sum : tensor<8x16xf32>, tensor<16xf32> -> !dist.handle<tensor<4x16xf32>, tensor<8xf32>>
  %rs:2 = dist.wait %hs : !dist.handle<tensor<4x16xf32>, tensor<8xf32>> -> tensor<4x16xf32>, tensor<8xf32>
  // CHECK: dist.all_gather_start {{.*}} -> !dist.handle<tensor<16x16xf32>>
  %h2 = dist.all_gather_start %x on @mesh axes = ["dp"] dim = 0 : tensor<8x16xf32> -> !dist.handle<tensor<16x16xf32>>
  // CHECK: dist.all_to_all_start {{.*}} -> !dist.handle<tensor<32x4xf32>>
  %h3 = dist.all_to_all_start %x on @mesh axes = ["tp"] split_dim = 1 concat_dim = 0 : tensor<8x16xf32> -> !dist.handle<tensor<32x4xf32>>
  // CHECK: %[[R:.*]] = dist.wait %[[H]] : !dist.handle<tensor<8x16xf32>> -> tensor<8x16xf32>
  %r = dist.wait %h : !dist.handle<tensor<8x16xf32>> -> tensor<8x16xf32>
  // CHECK: dist.wait %{{.*}} : !dist.handle<tensor<8x16xf32>, tensor<16xf32>> -> tensor<8x16xf32>, tensor<16xf32>
  %rb:2 = dist.wait %hb : !dist.handle<tensor<8x16xf32>, tensor<16xf32>> -> tensor<8x16xf32>, tensor<16xf32>
  %r1 = dist.wait %h1 : !dist.handle<tensor<2x16xf32>> -> tensor<2x16xf32>
  %r2 = dist.wait %h2 : !dist.handle<tensor<16x16xf32>> -> tensor<16x16xf32>
  %r3 = dist.wait %h3 : !dist.handle<tensor<32x4xf32>> -> tensor<32x4xf32>
  // CHECK: return %[[R]]
  return %r : tensor<8x16xf32>
}

// -----

// Per-device forms: the device's index along mesh axes, and an embedding
// shard with the first vocabulary row it holds.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
// CHECK-LABEL: func.func @per_device
func.func @per_device(%ids: tensor<4x16xi64>, %t: tensor<250x64xf32>, %d: tensor<4x16x64xf32>) -> (tensor<4x16x64xf32>, tensor<250x64xf32>) {
  // CHECK: %[[I:.*]] = dist.axis_index @mesh axes = ["dp", "tp"] : index
  %i = dist.axis_index @mesh axes = ["dp", "tp"] : index
  // CHECK: dist.embedding %{{.*}}, %{{.*}}, %[[I]] : (tensor<4x16xi64>, tensor<250x64xf32>, index) -> tensor<4x16x64xf32>
  %h = dist.embedding %ids, %t, %i : (tensor<4x16xi64>, tensor<250x64xf32>, index) -> tensor<4x16x64xf32>
  // CHECK: dist.embedding_grad %{{.*}}, %{{.*}}, %{{.*}}, %[[I]] : (tensor<4x16xi64>, tensor<250x64xf32>, tensor<4x16x64xf32>, index) -> tensor<250x64xf32>
  %g = dist.embedding_grad %ids, %t, %d, %i : (tensor<4x16xi64>, tensor<250x64xf32>, tensor<4x16x64xf32>, index) -> tensor<250x64xf32>
  return %h, %g : tensor<4x16x64xf32>, tensor<250x64xf32>
}

// -----

// dist.requires_grad asks dist-append-backward for an argument's gradient,
// on float tensors of any element type, beside a sharding or alone.
// CHECK-LABEL: func.func @forward
// CHECK-SAME: %{{.*}}: tensor<8x16xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>}
// CHECK-SAME: %{{.*}}: tensor<16xbf16> {dist.requires_grad}
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @forward(%w: tensor<8x16xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
                   %b: tensor<16xbf16> {dist.requires_grad}) -> tensor<8x16xf32> {
  return %w : tensor<8x16xf32>
}

// -----

// Optimizer steps, written in the generic form the contract fixes (what
// the custom form prints).
// CHECK-LABEL: func.func @optimizers
// CHECK: %{{.*}}, %{{.*}}, %{{.*}} = dist.adamw %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {beta1 = 9.000000e-01 : f64, beta2 = 0.99899999999999999 : f64, epsilon = 1.000000e-08 : f64, lr = 1.000000e-03 : f64, weight_decay = 1.000000e-02 : f64} : (tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>, tensor<f32>) -> (tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>)
// CHECK: dist.sgd %{{.*}}, %{{.*}} {lr = 1.000000e-02 : f64} : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
// CHECK: dist.sgd %{{.*}}, %{{.*}}, %{{.*}} {lr = 1.000000e-02 : f64, momentum = 9.000000e-01 : f64} : (tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>) -> (tensor<16x64xf32>, tensor<16x64xf32>)
func.func @optimizers(%p: tensor<16x64xf32>, %g: tensor<16x64xf32>, %m: tensor<16x64xf32>, %v: tensor<16x64xf32>, %t: tensor<f32>, %b: tensor<16x64xf32>) {
  %0:3 = "dist.adamw"(%p, %g, %m, %v, %t) {lr = 1.0e-3 : f64, beta1 = 0.9 : f64, beta2 = 0.999 : f64, epsilon = 1.0e-8 : f64, weight_decay = 0.01 : f64} : (tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>, tensor<f32>) -> (tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>)
  %1 = "dist.sgd"(%p, %g) {lr = 1.0e-2 : f64} : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  %2:2 = "dist.sgd"(%p, %g, %b) {lr = 1.0e-2 : f64, momentum = 0.9 : f64} : (tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>) -> (tensor<16x64xf32>, tensor<16x64xf32>)
  return
}

// -----

// The padding of an unevenly split dim, masked (dist-partition writes it
// before a reduction over the dim).
// CHECK-LABEL: func.func @mask_padding
// CHECK: dist.mask_padding %{{.*}}, %{{.*}} {dim = 1 : i64, fill = 0xFFF0000000000000 : f64, size = 1001 : i64} : (tensor<8x251xf32>, index) -> tensor<8x251xf32>
func.func @mask_padding(%x: tensor<8x251xf32>, %first: index) {
  %0 = dist.mask_padding %x, %first {dim = 1 : i64, size = 1001 : i64, fill = 0xFFF0000000000000 : f64} : (tensor<8x251xf32>, index) -> tensor<8x251xf32>
  return
}

// -----

// Casts between float types, in custom and generic form.
// CHECK-LABEL: func.func @casts
// CHECK: dist.cast %{{.*}} : (tensor<4x8xf32>) -> tensor<4x8xbf16>
// CHECK: dist.cast %{{.*}} : (tensor<4x8xbf16>) -> tensor<4x8xf16>
func.func @casts(%x: tensor<4x8xf32>) {
  %0 = "dist.cast"(%x) : (tensor<4x8xf32>) -> tensor<4x8xbf16>
  %1 = dist.cast %0 : (tensor<4x8xbf16>) -> tensor<4x8xf16>
  return
}

// -----

// A pipeline stage boundary, in custom and generic form (the contract's).
// CHECK-LABEL: func.func @stage_boundary
// CHECK: dist.stage_boundary %{{.*}} : (tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK: dist.stage_boundary %{{.*}} : (tensor<8x16xf32>) -> tensor<8x16xf32>
func.func @stage_boundary(%x: tensor<8x16xf32>) {
  %0 = "dist.stage_boundary"(%x) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %1 = dist.stage_boundary %0 : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return
}

// -----

// Point to point between two devices of a group.
dist.mesh @mesh = <["pp"=2, "dp"=2]>
// CHECK-LABEL: func.func @point_to_point
func.func @point_to_point(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // CHECK: dist.send %{{.*}} to 1 on @mesh axes = ["pp"] tag = 3 : tensor<4x8xf32>
  dist.send %x to 1 on @mesh axes = ["pp"] tag = 3 : tensor<4x8xf32>
  // CHECK: %{{.*}} = dist.recv from 1 on @mesh axes = ["pp"] tag = 4 : tensor<4x8xf32>
  %y = dist.recv from 1 on @mesh axes = ["pp"] tag = 4 : tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// Attention, causal (grouped-query heads), at an offset in the balanced
// order, and its gradient.
// CHECK-LABEL: func.func @attention
func.func @attention(%q: tensor<2x4x2x64x16xf32>, %k: tensor<2x4x1x64x16xf32>, %first: index) -> tensor<2x4x2x64x16xf32> {
  // CHECK: %[[O:.*]], %[[LSE:.*]] = dist.attention %{{.*}}, %{{.*}}, %{{.*}} {causal, scale = 2.500000e-01 : f64} : (tensor<2x4x2x64x16xf32>, tensor<2x4x1x64x16xf32>, tensor<2x4x1x64x16xf32>) -> (tensor<2x4x2x64x16xf32>, tensor<2x4x2x64xf32>)
  %o, %lse = dist.attention %q, %k, %k {causal, scale = 0.25 : f64} : (tensor<2x4x2x64x16xf32>, tensor<2x4x1x64x16xf32>, tensor<2x4x1x64x16xf32>) -> (tensor<2x4x2x64x16xf32>, tensor<2x4x2x64xf32>)
  // CHECK: dist.attention %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {balance = 2 : i64, causal, scale = 2.500000e-01 : f64} : (tensor<2x4x2x32x16xf32>, tensor<2x4x1x64x16xf32>, tensor<2x4x1x64x16xf32>, index)
  %half = tensor.extract_slice %q[0, 0, 0, 0, 0] [2, 4, 2, 32, 16] [1, 1, 1, 1, 1] : tensor<2x4x2x64x16xf32> to tensor<2x4x2x32x16xf32>
  %b, %m = dist.attention %half, %k, %k, %first {balance = 2 : i64, causal, scale = 0.25 : f64} : (tensor<2x4x2x32x16xf32>, tensor<2x4x1x64x16xf32>, tensor<2x4x1x64x16xf32>, index) -> (tensor<2x4x2x32x16xf32>, tensor<2x4x2x32xf32>)
  // CHECK: dist.attention_grad %{{.*}}, %{{.*}}, %{{.*}}, %[[O]], %[[LSE]], %{{.*}} {causal, scale = 2.500000e-01 : f64} : {{.*}} -> (tensor<2x4x2x64x16xf32>, tensor<2x4x1x64x16xf32>, tensor<2x4x1x64x16xf32>)
  %dq, %dk, %dv = dist.attention_grad %q, %k, %k, %o, %lse, %o {causal, scale = 0.25 : f64} : (tensor<2x4x2x64x16xf32>, tensor<2x4x1x64x16xf32>, tensor<2x4x1x64x16xf32>, tensor<2x4x2x64x16xf32>, tensor<2x4x2x64xf32>, tensor<2x4x2x64x16xf32>) -> (tensor<2x4x2x64x16xf32>, tensor<2x4x1x64x16xf32>, tensor<2x4x1x64x16xf32>)
  return %dq : tensor<2x4x2x64x16xf32>
}
