// RUN: dist-opt %s --split-input-file --dist-propagate-sharding --dist-resolve-partial | FileCheck %s
// RUN: dist-opt %s --split-input-file --dist-propagate-sharding --dist-resolve-partial="avg=native" | FileCheck %s --check-prefix=NATIVE
// RUN: dist-opt %s --split-input-file --dist-propagate-sharding --dist-resolve-partial="argument-reshards=per-use" | FileCheck %s --check-prefix=PER-USE
// Resolution is idempotent: a second run finds nothing to do.
// RUN: dist-opt %s --split-input-file --dist-propagate-sharding --dist-resolve-partial > %t
// RUN: dist-opt %t --split-input-file --dist-resolve-partial | diff %t -
// RUN: dist-opt %t --split-input-file --dist-verify-sharding -o /dev/null

// Data parallel: the weight gradient is partial over dp and all-reduced
// before it is returned.
dist.mesh @mesh = <["dp"=4]>
func.func @dp_grad(%x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>},
                   %w: tensor<16x32xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}]>},
                   %dy: tensor<8x32xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>})
    -> (tensor<8x16xf32>, tensor<16x32xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}]>}) {
  %dx, %dw = dist.matmul_grad %x, %w, %dy : (tensor<8x16xf32>, tensor<16x32xf32>, tensor<8x32xf32>) -> (tensor<8x16xf32>, tensor<16x32xf32>)
  return %dx, %dw : tensor<8x16xf32>, tensor<16x32xf32>
}

// CHECK-LABEL: func.func @dp_grad
// CHECK:         %[[DX:.*]], %[[DW:.*]] = dist.matmul_grad
// CHECK-NEXT:    %[[R:.*]] = dist.all_reduce %[[DW]] on @mesh axes = ["dp"] kind = sum {dist.sharding = [#dist.sharding<@mesh, [{}, {}]>]}
// CHECK-NEXT:    return %[[DX]], %[[R]]


// -----


// Megatron MLP forward: the row-parallel output is all-reduced over tp once,
// and both of its uses read that one reduction.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @megatron_forward(%x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>},
                            %w1: tensor<16x64xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
                            %w2: tensor<64x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>}) -> tensor<8x16xf32> {
  %h = dist.matmul %x, %w1 : (tensor<8x16xf32>, tensor<16x64xf32>) -> tensor<8x64xf32>
  %g = dist.gelu %h : (tensor<8x64xf32>) -> tensor<8x64xf32>
  %y = dist.matmul %g, %w2 : (tensor<8x64xf32>, tensor<64x16xf32>) -> tensor<8x16xf32>
  %r = dist.relu %y : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %s = dist.add %r, %y : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %s : tensor<8x16xf32>
}

// CHECK-LABEL: func.func @megatron_forward
// CHECK:         %[[Y:.*]] = dist.matmul {{.*}}partial = sum{"tp"}
// CHECK-NEXT:    %[[R:.*]] = dist.all_reduce %[[Y]] on @mesh axes = ["tp"] kind = sum
// CHECK-NEXT:    %[[A:.*]] = dist.relu %[[R]]
// CHECK-NEXT:    dist.add %[[A]], %[[R]]
// CHECK-NOT:     dist.all_reduce


// -----


// Megatron backward of the column-parallel layer: dx is partial over tp and
// reduced over tp only; the sharded weight gradient over dp only; the
// replicated bias gradient over dp only.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @megatron_backward(%x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>},
                             %w1: tensor<16x64xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
                             %dh: tensor<8x64xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {"tp"}]>},
                             %y: tensor<8x16xf32>, %b: tensor<16xf32> {dist.sharding = #dist.sharding<@mesh, [{}]>},
                             %dout: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>})
    -> (tensor<8x16xf32>, tensor<16x64xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
        tensor<16xf32> {dist.sharding = #dist.sharding<@mesh, [{}]>}) {
  %dx, %dw1 = dist.matmul_grad %x, %w1, %dh : (tensor<8x16xf32>, tensor<16x64xf32>, tensor<8x64xf32>) -> (tensor<8x16xf32>, tensor<16x64xf32>)
  %t = dist.gelu %dx : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %dy, %db = dist.add_grad %y, %b, %dout : (tensor<8x16xf32>, tensor<16xf32>, tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<16xf32>)
  return %t, %dw1, %db : tensor<8x16xf32>, tensor<16x64xf32>, tensor<16xf32>
}

// CHECK-LABEL: func.func @megatron_backward
// CHECK:         %[[DX:.*]], %[[DW:.*]] = dist.matmul_grad
// CHECK-NEXT:    %[[RDX:.*]] = dist.all_reduce %[[DX]] on @mesh axes = ["tp"] kind = sum
// CHECK-NEXT:    %[[RDW:.*]] = dist.all_reduce %[[DW]] on @mesh axes = ["dp"] kind = sum {dist.sharding = [#dist.sharding<@mesh, [{}, {"tp"}]>]}
// CHECK-NEXT:    %[[T:.*]] = dist.gelu %[[RDX]]
// CHECK-NEXT:    %{{.*}}, %[[DB:.*]] = dist.add_grad
// CHECK-NEXT:    %[[RDB:.*]] = dist.all_reduce %[[DB]] on @mesh axes = ["dp"] kind = sum
// CHECK-NEXT:    return %[[T]], %[[RDW]], %[[RDB]]


// -----


// A value partial over both axes of a 2-D mesh is reduced by one all_reduce
// over both, not one per axis.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @two_axes(%x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {"tp"}]>},
                    %w: tensor<16x32xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>}) -> tensor<32xf32> {
  %y = dist.matmul %x, %w : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %s = dist.reduce_sum %y {dims = array<i64: 0>} : (tensor<8x32xf32>) -> tensor<32xf32>
  %e = dist.gelu %s : (tensor<32xf32>) -> tensor<32xf32>
  return %e : tensor<32xf32>
}

// CHECK-LABEL: func.func @two_axes
// CHECK:         %[[S:.*]] = dist.reduce_sum {{.*}}partial = sum{"dp", "tp"}
// CHECK-NEXT:    %[[R:.*]] = dist.all_reduce %[[S]] on @mesh axes = ["dp", "tp"] kind = sum
// CHECK-NEXT:    dist.gelu %[[R]]


// -----


// Sequence parallel: the row-parallel output feeds a layer norm whose input
// is split over the sequence on tp, so it is reduce-scattered, not
// all-reduced.
dist.mesh @mesh = <["tp"=4]>
func.func @sequence_parallel(%g: tensor<2x8x64xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}, {"tp"}]>},
                             %w2: tensor<64x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>},
                             %gamma: tensor<16xf32>, %beta: tensor<16xf32>)
    -> (tensor<2x8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}, {}]>}) {
  %y = dist.matmul %g, %w2 : (tensor<2x8x64xf32>, tensor<64x16xf32>) -> tensor<2x8x16xf32>
  %n, %mean, %rstd = dist.layer_norm %y, %gamma, %beta {begin_norm_axis = 2 : i64, dist.sharding = [#dist.sharding<@mesh, [{}, {"tp"}, {}]>, #dist.sharding<@mesh, [{}, {"tp"}]>, #dist.sharding<@mesh, [{}, {"tp"}]>]} : (tensor<2x8x16xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<2x8x16xf32>, tensor<2x8xf32>, tensor<2x8xf32>)
  return %n : tensor<2x8x16xf32>
}

// CHECK-LABEL: func.func @sequence_parallel
// CHECK:         %[[Y:.*]] = dist.matmul
// CHECK-NEXT:    %[[R:.*]] = dist.reduce_scatter %[[Y]] on @mesh axes = ["tp"] dim = 1 kind = sum {dist.sharding = [#dist.sharding<@mesh, [{}, {"tp"}, {}]>]}
// CHECK-NEXT:    dist.layer_norm %[[R]]
// CHECK-NOT:     dist.all_reduce


// -----


// A mean over a dim split on dp is partial avg: a sum all_reduce and a scale
// by 1/4 (or one avg all_reduce with avg=native). A partial max is reduced
// without a scale.
dist.mesh @mesh = <["dp"=4]>
func.func @avg_and_max(%x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>},
                       %p: tensor<16xf32> {dist.sharding = #dist.sharding<@mesh, [{}], partial = max{"dp"}>})
    -> (tensor<16xf32>, tensor<16xf32>) {
  %m = dist.reduce_mean %x {dims = array<i64: 0>} : (tensor<8x16xf32>) -> tensor<16xf32>
  return %m, %p : tensor<16xf32>, tensor<16xf32>
}

// CHECK-LABEL: func.func @avg_and_max
// CHECK-SAME:    (%[[X:.*]]: tensor<8x16xf32> {{.*}}, %[[P:.*]]: tensor<16xf32>
// CHECK:         %[[M:.*]] = dist.reduce_mean %[[X]]
// CHECK-NEXT:    %[[SUM:.*]] = dist.all_reduce %[[M]] on @mesh axes = ["dp"] kind = sum
// CHECK-NEXT:    %[[AVG:.*]] = dist.scale %[[SUM]] {{{.*}}factor = 2.500000e-01 : f64}
// CHECK-NEXT:    %[[MAX:.*]] = dist.all_reduce %[[P]] on @mesh axes = ["dp"] kind = max
// CHECK-NEXT:    return %[[AVG]], %[[MAX]]
// NATIVE-LABEL: func.func @avg_and_max
// NATIVE:         %[[AVG:.*]] = dist.all_reduce %{{.*}} on @mesh axes = ["dp"] kind = avg
// NATIVE-NOT:     dist.scale
// NATIVE:         dist.all_reduce %{{.*}} on @mesh axes = ["dp"] kind = max
// NATIVE:         return %[[AVG]]


// -----


// A result declared partial stays partial (gradient accumulation); the other
// result is reduced.
dist.mesh @mesh = <["dp"=4]>
func.func @partial_result_kept(%x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>},
                               %w: tensor<16x32xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}]>},
                               %dy: tensor<8x32xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>})
    -> (tensor<16x32xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}], partial = sum{"dp"}>},
        tensor<16x32xf32>) {
  %dx, %dw = dist.matmul_grad %x, %w, %dy : (tensor<8x16xf32>, tensor<16x32xf32>, tensor<8x32xf32>) -> (tensor<8x16xf32>, tensor<16x32xf32>)
  %dw2 = dist.scale %dw {factor = 2.0 : f64} : (tensor<16x32xf32>) -> tensor<16x32xf32>
  return %dw, %dw2 : tensor<16x32xf32>, tensor<16x32xf32>
}

// CHECK-LABEL: func.func @partial_result_kept
// CHECK:         %{{.*}}, %[[DW:.*]] = dist.matmul_grad
// CHECK-NEXT:    %[[S:.*]] = dist.scale %[[DW]]
// CHECK-NEXT:    %[[R:.*]] = dist.all_reduce %[[S]] on @mesh axes = ["dp"] kind = sum
// CHECK-NEXT:    return %[[DW]], %[[R]]


// -----


// Deferral stops where it would move more: x is partial over tp and the
// matmul's output is 4x wider than x, so x is reduced before the matmul.
dist.mesh @mesh = <["tp"=4]>
func.func @no_deferral_past_a_widening_matmul(%a: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
                                              %b: tensor<16x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>},
                                              %w: tensor<16x64xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}]>}) -> tensor<8x64xf32> {
  %x = dist.matmul %a, %b : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %y = dist.matmul %x, %w : (tensor<8x16xf32>, tensor<16x64xf32>) -> tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}

// CHECK-LABEL: func.func @no_deferral_past_a_widening_matmul
// CHECK:         %[[X:.*]] = dist.matmul {{.*}}partial = sum{"tp"}
// CHECK-NEXT:    %[[R:.*]] = dist.all_reduce %[[X]] on @mesh axes = ["tp"] kind = sum
// CHECK-NEXT:    %[[Y:.*]] = dist.matmul %[[R]], %{{.*}} {dist.sharding = [#dist.sharding<@mesh, [{}, {}]>]}
// CHECK-NEXT:    return %[[Y]]


// -----


// Two partial gradient contributions are added before one reduction (the
// Q/K/V pattern): one all_reduce of the sum, not one per contribution.
dist.mesh @mesh = <["tp"=4]>
func.func @deferred_through_add(%x: tensor<8x16xf32>,
                                %wq: tensor<16x64xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
                                %wk: tensor<16x64xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
                                %dq: tensor<8x64xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
                                %dk: tensor<8x64xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>}) -> tensor<8x16xf32> {
  %dx1, %dwq = dist.matmul_grad %x, %wq, %dq : (tensor<8x16xf32>, tensor<16x64xf32>, tensor<8x64xf32>) -> (tensor<8x16xf32>, tensor<16x64xf32>)
  %dx2, %dwk = dist.matmul_grad %x, %wk, %dk : (tensor<8x16xf32>, tensor<16x64xf32>, tensor<8x64xf32>) -> (tensor<8x16xf32>, tensor<16x64xf32>)
  %dx = dist.add %dx1, %dx2 : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %dx : tensor<8x16xf32>
}

// CHECK-LABEL: func.func @deferred_through_add
// CHECK:         %[[S:.*]] = dist.add {{.*}}partial = sum{"tp"}
// CHECK-NEXT:    %[[R:.*]] = dist.all_reduce %[[S]] on @mesh axes = ["tp"] kind = sum
// CHECK-NEXT:    return %[[R]]
// CHECK-NOT:     dist.all_reduce


// -----


// A conflict propagation resolved by resharding: the op needs its operand
// gathered, and the pass makes that explicit.
dist.mesh @mesh = <["tp"=4]>
func.func @reshard(%x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>})
    -> (tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>}) {
  %y = dist.softmax %x {axis = 1 : i64} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

// CHECK-LABEL: func.func @reshard
// CHECK-SAME:    (%[[X:.*]]: tensor
// CHECK:         %[[G:.*]] = dist.all_gather %[[X]] on @mesh axes = ["tp"] dim = 1 {dist.sharding = [#dist.sharding<@mesh, [{}, {}]>]}
// CHECK-NEXT:    %[[Y:.*]] = dist.softmax %[[G]]
// CHECK-NEXT:    %[[S:.*]] = dist.all_slice %[[Y]] on @mesh axes = ["tp"] dim = 0 {dist.sharding = [#dist.sharding<@mesh, [{"tp"}, {}]>]}
// CHECK-NEXT:    return %[[S]]

// -----

// A top-k picks from whole rows: a row split over tp is gathered first, and
// both results keep the positions' dp.
dist.mesh @mesh = <["dp"=2, "tp"=2]>
func.func @top_k_gathers(%x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {"tp"}]>}) -> (tensor<8x2xf32>, tensor<8x2xi64>) {
  %v, %i = dist.top_k %x {k = 2 : i64} : (tensor<8x16xf32>) -> (tensor<8x2xf32>, tensor<8x2xi64>)
  return %v, %i : tensor<8x2xf32>, tensor<8x2xi64>
}

// CHECK-LABEL: func.func @top_k_gathers
// CHECK-SAME:    (%[[X:.*]]: tensor
// CHECK:         %[[G:.*]] = dist.all_gather %[[X]] on @mesh axes = ["tp"] dim = 1 {dist.sharding = [#dist.sharding<@mesh, [{"dp"}, {}]>]}
// CHECK-NEXT:    %[[V:.*]], %[[I:.*]] = dist.top_k %[[G]] {dist.sharding = [#dist.sharding<@mesh, [{"dp"}, {}]>, #dist.sharding<@mesh, [{"dp"}, {}]>], k = 2 : i64}
// CHECK-NEXT:    return %[[V]], %[[I]]

// -----

// ZeRO-style sharded gradients: the declared result splits the gradient over
// dp, so the dp partial is reduce-scattered onto that dim, not all-reduced.
dist.mesh @mesh = <["dp"=4]>
func.func @zero_sharded_grad(%x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>},
                             %w: tensor<16x32xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}]>},
                             %dy: tensor<8x32xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>})
    -> (tensor<16x32xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>}) {
  %dx, %dw = dist.matmul_grad %x, %w, %dy : (tensor<8x16xf32>, tensor<16x32xf32>, tensor<8x32xf32>) -> (tensor<8x16xf32>, tensor<16x32xf32>)
  return %dw : tensor<16x32xf32>
}

// CHECK-LABEL: func.func @zero_sharded_grad
// CHECK:         %{{.*}}, %[[DW:.*]] = dist.matmul_grad {{.*}}partial = sum{"dp"}
// CHECK-NEXT:    %[[R:.*]] = dist.reduce_scatter %[[DW]] on @mesh axes = ["dp"] dim = 0 kind = sum {dist.sharding = [#dist.sharding<@mesh, [{"dp"}, {}]>]}
// CHECK-NEXT:    return %[[R]]


// -----

// A weight stored split over dp (ZeRO-3) and read by two matmuls on a
// dp-split batch: gathered right before its first reader, not at the
// entry, and kept for the second (shared, the default); with
// argument-reshards=per-use, gathered again before each reader, so that
// no gathered copy outlives its op.
dist.mesh @mesh = <["dp"=2]>
func.func @stored_weight(%x: tensor<64x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>},
                         %w: tensor<16x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>})
    -> (tensor<64x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>}) {
  %h = dist.relu %x : (tensor<64x16xf32>) -> tensor<64x16xf32>
  %y = dist.matmul %h, %w : (tensor<64x16xf32>, tensor<16x16xf32>) -> tensor<64x16xf32>
  %z = dist.matmul %y, %w : (tensor<64x16xf32>, tensor<16x16xf32>) -> tensor<64x16xf32>
  return %z : tensor<64x16xf32>
}
// CHECK-LABEL: func.func @stored_weight
// CHECK-SAME:    (%[[X:.*]]: tensor<64x16xf32> {{.*}}, %[[W:.*]]: tensor<16x16xf32>
// CHECK-NEXT:    %[[H:.*]] = dist.relu %[[X]]
// CHECK-NEXT:    %[[G:.*]] = dist.all_gather %[[W]] on @mesh axes = ["dp"] dim = 0
// CHECK-NEXT:    %[[Y:.*]] = dist.matmul %[[H]], %[[G]]
// CHECK-NEXT:    %[[Z:.*]] = dist.matmul %[[Y]], %[[G]]
// CHECK-NEXT:    return %[[Z]]
// PER-USE-LABEL: func.func @stored_weight
// PER-USE-SAME:    (%[[X:.*]]: tensor<64x16xf32> {{.*}}, %[[W:.*]]: tensor<16x16xf32>
// PER-USE-NEXT:    %[[H:.*]] = dist.relu %[[X]]
// PER-USE-NEXT:    %[[G1:.*]] = dist.all_gather %[[W]] on @mesh axes = ["dp"] dim = 0
// PER-USE-NEXT:    %[[Y:.*]] = dist.matmul %[[H]], %[[G1]]
// PER-USE-NEXT:    %[[G2:.*]] = dist.all_gather %[[W]] on @mesh axes = ["dp"] dim = 0
// PER-USE-NEXT:    %[[Z:.*]] = dist.matmul %[[Y]], %[[G2]]
// PER-USE-NEXT:    return %[[Z]]

// -----

// A maximum over a tp-split dim is partial max over tp, resolved by an
// all_reduce max of the row values (8 floats, not the 8 x 32 input).
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @row_max(%x: tensor<8x32xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {"tp"}]>}) -> tensor<8xf32> {
  %m = dist.reduce_max %x {dims = array<i64: 1>} : (tensor<8x32xf32>) -> tensor<8xf32>
  return %m : tensor<8xf32>
}

// CHECK-LABEL: func.func @row_max
// CHECK:         %[[M:.*]] = dist.reduce_max {{.*}}partial = max{"tp"}
// CHECK-NEXT:    %[[R:.*]] = dist.all_reduce %[[M]] on @mesh axes = ["tp"] kind = max
// CHECK-NEXT:    return %[[R]]

// -----

// Rotate-half: slicing a tp-split dim gathers it once; the slices, the neg
// and the concatenation then run on the whole dim.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @rotate_half(%x: tensor<4x8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}, {"tp"}]>}) -> tensor<4x8x16xf32> {
  %a = dist.slice %x {offsets = array<i64: 0, 0, 0>, sizes = array<i64: 4, 8, 8>} : (tensor<4x8x16xf32>) -> tensor<4x8x8xf32>
  %b = dist.slice %x {offsets = array<i64: 0, 0, 8>, sizes = array<i64: 4, 8, 8>} : (tensor<4x8x16xf32>) -> tensor<4x8x8xf32>
  %n = dist.neg %b : (tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %c = dist.concat %n, %a {dim = 2 : i64} : (tensor<4x8x8xf32>, tensor<4x8x8xf32>) -> tensor<4x8x16xf32>
  return %c : tensor<4x8x16xf32>
}

// CHECK-LABEL: func.func @rotate_half
// CHECK:         %[[G:.*]] = dist.all_gather %{{.*}} on @mesh axes = ["tp"] dim = 2
// CHECK-NEXT:    dist.slice %[[G]]
// CHECK-NEXT:    dist.slice %[[G]]
// CHECK-NOT:     dist.all_gather
// CHECK:         return

// -----

// Picking is linear: the partial logits of a row-parallel LM head pass
// through take_along, and the all_reduce moves the 8 picked values, not
// the 8 x 32 logits.
dist.mesh @mesh = <["tp"=4]>
func.func @picked(%h: tensor<8x64xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
                  %w: tensor<64x32xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>},
                  %labels: tensor<8xi64> {dist.sharding = #dist.sharding<@mesh, [{}]>}) -> tensor<8xf32> {
  %logits = dist.matmul %h, %w : (tensor<8x64xf32>, tensor<64x32xf32>) -> tensor<8x32xf32>
  %p = dist.take_along %logits, %labels : (tensor<8x32xf32>, tensor<8xi64>) -> tensor<8xf32>
  return %p : tensor<8xf32>
}
// CHECK-LABEL: func.func @picked
// CHECK:         %[[LOGITS:.*]] = dist.matmul {{.*}} partial = sum{"tp"}>]}
// CHECK-NEXT:    %[[PICKED:.*]] = dist.take_along %[[LOGITS]], %{{.*}} {dist.sharding = [#dist.sharding<@mesh, [{}], partial = sum{"tp"}>]}
// CHECK-NEXT:    %[[SUM:.*]] = dist.all_reduce %[[PICKED]] on @mesh axes = ["tp"] kind = sum {{.*}} : tensor<8xf32> -> tensor<8xf32>
// CHECK-NEXT:    return %[[SUM]]
