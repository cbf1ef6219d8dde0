// RUN: dist-opt %s --split-input-file --dist-propagate-sharding=remarks=none | FileCheck %s
// Idempotent: propagating the output again changes nothing.
// RUN: dist-opt %s --split-input-file --dist-propagate-sharding=remarks=none -o %t.once
// RUN: dist-opt %t.once --split-input-file --dist-propagate-sharding=remarks=none -o %t.twice
// RUN: diff %t.once %t.twice
// Shardings and partial status derived from the rule table, op by op, then
// whole training steps. Fixed annotations are never rewritten.

dist.mesh @mesh = <["dp"=2]>

// Data parallel: rows of x and dout split, so dy sums over them.
// CHECK-LABEL: func.func @matmul_grad_dp
// CHECK-SAME: %{{.*}}: tensor<16x32xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}]>}
// CHECK: dist.matmul_grad
// CHECK-SAME: dist.sharding = [#dist.sharding<@mesh, [{"dp"}, {}]>, #dist.sharding<@mesh, [{}, {}], partial = sum{"dp"}>]
func.func @matmul_grad_dp(
    %x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>},
    %w: tensor<16x32xf32>,
    %dout: tensor<8x32xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>})
    -> (tensor<8x16xf32>, tensor<16x32xf32>) {
  %dx, %dw = dist.matmul_grad %x, %w, %dout
      : (tensor<8x16xf32>, tensor<16x32xf32>, tensor<8x32xf32>) -> (tensor<8x16xf32>, tensor<16x32xf32>)
  return %dx, %dw : tensor<8x16xf32>, tensor<16x32xf32>
}

// -----

dist.mesh @mesh = <["sp"=4]>

// Sequence parallel: the sequence (m) dim of a rank-3 activation is split.
// CHECK-LABEL: func.func @matmul_grad_sp
// CHECK: dist.matmul_grad
// CHECK-SAME: dist.sharding = [#dist.sharding<@mesh, [{}, {"sp"}, {}]>, #dist.sharding<@mesh, [{}, {}], partial = sum{"sp"}>]
func.func @matmul_grad_sp(
    %x: tensor<2x8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"sp"}, {}]>},
    %w: tensor<16x32xf32>, %dout: tensor<2x8x32xf32>)
    -> (tensor<2x8x16xf32>, tensor<16x32xf32>) {
  %dx, %dw = dist.matmul_grad %x, %w, %dout
      : (tensor<2x8x16xf32>, tensor<16x32xf32>, tensor<2x8x32xf32>) -> (tensor<2x8x16xf32>, tensor<16x32xf32>)
  return %dx, %dw : tensor<2x8x16xf32>, tensor<16x32xf32>
}

// -----

dist.mesh @mesh = <["dp"=2, "sp"=2]>

// Data and sequence parallel at once: dy sums over both mesh axes, and dout
// picks up the layout of x.
// CHECK-LABEL: func.func @matmul_grad_dp_sp
// CHECK-SAME: %{{.*}}: tensor<4x8x32xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {"sp"}, {}]>}
// CHECK: dist.matmul_grad
// CHECK-SAME: dist.sharding = [#dist.sharding<@mesh, [{"dp"}, {"sp"}, {}]>, #dist.sharding<@mesh, [{}, {}], partial = sum{"dp", "sp"}>]
func.func @matmul_grad_dp_sp(
    %x: tensor<4x8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {"sp"}, {}]>},
    %w: tensor<16x32xf32>, %dout: tensor<4x8x32xf32>)
    -> (tensor<4x8x16xf32>, tensor<16x32xf32>) {
  %dx, %dw = dist.matmul_grad %x, %w, %dout
      : (tensor<4x8x16xf32>, tensor<16x32xf32>, tensor<4x8x32xf32>) -> (tensor<4x8x16xf32>, tensor<16x32xf32>)
  return %dx, %dw : tensor<4x8x16xf32>, tensor<16x32xf32>
}

// -----

dist.mesh @mesh = <["tp"=2]>

// Column-parallel backward: n is split, so dx sums over it and dw stays split.
// CHECK-LABEL: func.func @matmul_grad_column_parallel
// CHECK: dist.matmul_grad
// CHECK-SAME: dist.sharding = [#dist.sharding<@mesh, [{}, {}], partial = sum{"tp"}>, #dist.sharding<@mesh, [{}, {"tp"}]>]
func.func @matmul_grad_column_parallel(
    %x: tensor<8x16xf32>,
    %w: tensor<16x32xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
    %dout: tensor<8x32xf32>)
    -> (tensor<8x16xf32>, tensor<16x32xf32>) {
  %dx, %dw = dist.matmul_grad %x, %w, %dout
      : (tensor<8x16xf32>, tensor<16x32xf32>, tensor<8x32xf32>) -> (tensor<8x16xf32>, tensor<16x32xf32>)
  return %dx, %dw : tensor<8x16xf32>, tensor<16x32xf32>
}

// -----

dist.mesh @mesh = <["dp"=2, "tp"=2]>

// The four transpose combinations: m is split over dp and n over tp
// wherever the flags put them; dx is partial over tp, dw over dp.
// CHECK-LABEL: func.func @matmul_grad_transposes
// CHECK: dist.matmul_grad
// CHECK-SAME: dist.sharding = [#dist.sharding<@mesh, [{"dp"}, {}], partial = sum{"tp"}>, #dist.sharding<@mesh, [{}, {"tp"}], partial = sum{"dp"}>]
// CHECK: dist.matmul_grad
// CHECK-SAME: dist.sharding = [#dist.sharding<@mesh, [{}, {"dp"}], partial = sum{"tp"}>, #dist.sharding<@mesh, [{}, {"tp"}], partial = sum{"dp"}>], transpose_x}
// CHECK: dist.matmul_grad
// CHECK-SAME: dist.sharding = [#dist.sharding<@mesh, [{"dp"}, {}], partial = sum{"tp"}>, #dist.sharding<@mesh, [{"tp"}, {}], partial = sum{"dp"}>], transpose_y}
// CHECK: dist.matmul_grad
// CHECK-SAME: dist.sharding = [#dist.sharding<@mesh, [{}, {"dp"}], partial = sum{"tp"}>, #dist.sharding<@mesh, [{"tp"}, {}], partial = sum{"dp"}>], transpose_x, transpose_y}
func.func @matmul_grad_transposes(
    %x: tensor<8x16xf32>, %xt: tensor<16x8xf32>, %w: tensor<16x32xf32>, %wt: tensor<32x16xf32>,
    %dout: tensor<8x32xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {"tp"}]>}) {
  %0:2 = dist.matmul_grad %x, %w, %dout
      : (tensor<8x16xf32>, tensor<16x32xf32>, tensor<8x32xf32>) -> (tensor<8x16xf32>, tensor<16x32xf32>)
  %1:2 = dist.matmul_grad %xt, %w, %dout {transpose_x}
      : (tensor<16x8xf32>, tensor<16x32xf32>, tensor<8x32xf32>) -> (tensor<16x8xf32>, tensor<16x32xf32>)
  %2:2 = dist.matmul_grad %x, %wt, %dout {transpose_y}
      : (tensor<8x16xf32>, tensor<32x16xf32>, tensor<8x32xf32>) -> (tensor<8x16xf32>, tensor<32x16xf32>)
  %3:2 = dist.matmul_grad %xt, %wt, %dout {transpose_x, transpose_y}
      : (tensor<16x8xf32>, tensor<32x16xf32>, tensor<8x32xf32>) -> (tensor<16x8xf32>, tensor<32x16xf32>)
  return
}

// -----

dist.mesh @mesh = <["dp"=2, "tp"=2]>

// Rank 4: batch dims split over dp. A broadcast weight (rank 2) sums over
// them; a batched one (rank 4) keeps the split and is not partial.
// CHECK-LABEL: func.func @matmul_grad_rank4
// CHECK: dist.matmul_grad
// CHECK-SAME: dist.sharding = [#dist.sharding<@mesh, [{"dp"}, {}, {}, {}]>, #dist.sharding<@mesh, [{}, {}], partial = sum{"dp"}>]
// CHECK: dist.matmul_grad
// CHECK-SAME: dist.sharding = [#dist.sharding<@mesh, [{"dp"}, {}, {}, {}]>, #dist.sharding<@mesh, [{"dp"}, {}, {}, {}]>]
func.func @matmul_grad_rank4(
    %x: tensor<2x4x8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}, {}, {}]>},
    %w: tensor<16x32xf32>, %wb: tensor<2x4x16x32xf32>, %dout: tensor<2x4x8x32xf32>) {
  %0:2 = dist.matmul_grad %x, %w, %dout
      : (tensor<2x4x8x16xf32>, tensor<16x32xf32>, tensor<2x4x8x32xf32>) -> (tensor<2x4x8x16xf32>, tensor<16x32xf32>)
  %1:2 = dist.matmul_grad %x, %wb, %dout
      : (tensor<2x4x8x16xf32>, tensor<2x4x16x32xf32>, tensor<2x4x8x32xf32>) -> (tensor<2x4x8x16xf32>, tensor<2x4x16x32xf32>)
  return
}

// -----

dist.mesh @mesh = <["dp"=2, "tp"=2]>

// The bias gradient sums dout over its broadcast dims; a split kept dim
// stays split.
// CHECK-LABEL: func.func @add_grad_bias
// CHECK: dist.add_grad
// CHECK-SAME: dist.sharding = [#dist.sharding<@mesh, [{"dp"}, {}, {"tp"}]>, #dist.sharding<@mesh, [{"tp"}], partial = sum{"dp"}>]
func.func @add_grad_bias(
    %x: tensor<4x8x32xf32>, %b: tensor<32xf32>,
    %dout: tensor<4x8x32xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}, {"tp"}]>})
    -> (tensor<4x8x32xf32>, tensor<32xf32>) {
  %dx, %db = dist.add_grad %x, %b, %dout
      : (tensor<4x8x32xf32>, tensor<32xf32>, tensor<4x8x32xf32>) -> (tensor<4x8x32xf32>, tensor<32xf32>)
  return %dx, %db : tensor<4x8x32xf32>, tensor<32xf32>
}

// -----

dist.mesh @mesh = <["dp"=2, "sp"=2]>

// dscale and dbias sum over dims [0, begin_norm_axis), here split over dp
// and sp; the saved mean and rstd take the batch layout.
// CHECK-LABEL: func.func @layer_norm_grad
// CHECK-SAME: %{{.*}}: tensor<4x8xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {"sp"}]>}
// CHECK: dist.layer_norm_grad
// CHECK-SAME: dist.sharding = [#dist.sharding<@mesh, [{"dp"}, {"sp"}, {}]>, #dist.sharding<@mesh, [{}], partial = sum{"dp", "sp"}>, #dist.sharding<@mesh, [{}], partial = sum{"dp", "sp"}>]
func.func @layer_norm_grad(
    %x: tensor<4x8x32xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {"sp"}, {}]>},
    %scale: tensor<32xf32>, %mean: tensor<4x8xf32>, %rstd: tensor<4x8xf32>, %dy: tensor<4x8x32xf32>) {
  %dx, %dscale, %dbias = dist.layer_norm_grad %x, %scale, %mean, %rstd, %dy {begin_norm_axis = 2 : i64}
      : (tensor<4x8x32xf32>, tensor<32xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8x32xf32>)
      -> (tensor<4x8x32xf32>, tensor<32xf32>, tensor<32xf32>)
  return
}

// -----

dist.mesh @mesh = <["dp"=2, "tp"=2]>

// dtable sums over the id dims; a vocab-sharded table gives a
// vocab-sharded dtable that is still partial over dp.
// CHECK-LABEL: func.func @embedding_grad
// CHECK: dist.embedding_grad
// CHECK-SAME: dist.sharding = [#dist.sharding<@mesh, [{}, {}], partial = sum{"dp"}>]
// CHECK: dist.embedding_grad
// CHECK-SAME: dist.sharding = [#dist.sharding<@mesh, [{"tp"}, {}], partial = sum{"dp"}>]
func.func @embedding_grad(
    %ids: tensor<4x16xi64> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>},
    %table: tensor<1000x64xf32>,
    %vtable: tensor<1000x64xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>},
    %dout: tensor<4x16x64xf32>) {
  %0 = dist.embedding_grad %ids, %table, %dout
      : (tensor<4x16xi64>, tensor<1000x64xf32>, tensor<4x16x64xf32>) -> tensor<1000x64xf32>
  %1 = dist.embedding_grad %ids, %vtable, %dout
      : (tensor<4x16xi64>, tensor<1000x64xf32>, tensor<4x16x64xf32>) -> tensor<1000x64xf32>
  return
}

// -----

dist.mesh @mesh = <["tp"=4]>

// A vocab-sharded lookup gives masked partial rows that sum to the output.
// CHECK-LABEL: func.func @embedding_vocab_parallel
// CHECK: dist.embedding
// CHECK-SAME: dist.sharding = [#dist.sharding<@mesh, [{}, {}, {}], partial = sum{"tp"}>]
func.func @embedding_vocab_parallel(
    %ids: tensor<4x16xi64>,
    %table: tensor<1000x64xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>})
    -> tensor<4x16x64xf32> {
  %0 = dist.embedding %ids, %table : (tensor<4x16xi64>, tensor<1000x64xf32>) -> tensor<4x16x64xf32>
  return %0 : tensor<4x16x64xf32>
}

// -----

dist.mesh @mesh = <["tp"=2]>

// Row-parallel forward matmul: k is split, so the output is partial, and x
// takes the split of k.
// CHECK-LABEL: func.func @matmul_row_parallel
// CHECK-SAME: %{{.*}}: tensor<8x64xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>}
// CHECK: dist.matmul
// CHECK-SAME: dist.sharding = [#dist.sharding<@mesh, [{}, {}], partial = sum{"tp"}>]
func.func @matmul_row_parallel(
    %x: tensor<8x64xf32>,
    %w: tensor<64x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>}) -> tensor<8x16xf32> {
  %0 = dist.matmul %x, %w : (tensor<8x64xf32>, tensor<64x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

dist.mesh @mesh = <["dp"=2, "tp"=2]>

// Reducing a split dim gives a partial result of the reduction's kind:
// sum for reduce_sum, avg for reduce_mean; keepdim keeps a size-1 dim.
// CHECK-LABEL: func.func @reductions
// CHECK: dist.reduce_sum
// CHECK-SAME: dist.sharding = [#dist.sharding<@mesh, [{"dp"}], partial = sum{"tp"}>]
// CHECK: dist.reduce_mean
// CHECK-SAME: dist.sharding = [#dist.sharding<@mesh, [], partial = avg{"dp", "tp"}>]
// CHECK: dist.reduce_sum
// CHECK-SAME: dist.sharding = [#dist.sharding<@mesh, [{}, {"tp"}], partial = sum{"dp"}>], keepdim}
func.func @reductions(%x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {"tp"}]>}) {
  %0 = dist.reduce_sum %x {dims = array<i64: 1>} : (tensor<8x16xf32>) -> tensor<8xf32>
  %1 = dist.reduce_mean %x {dims = array<i64: 0, 1>} : (tensor<8x16xf32>) -> tensor<f32>
  %2 = dist.reduce_sum %x {dims = array<i64: 0>, keepdim} : (tensor<8x16xf32>) -> tensor<1x16xf32>
  return
}

// -----

dist.mesh @mesh = <["dp"=2, "tp"=2]>

// Linear ops carry partial operands: add of two values partial on the same
// axes and kind, matmul and scale with exactly one partial operand.
// CHECK-LABEL: func.func @partial_pass_through
// CHECK: %[[A:.*]] = dist.matmul {{.*}}partial = sum{"tp"}
// CHECK: %[[B:.*]] = dist.matmul {{.*}}partial = sum{"tp"}
// CHECK: dist.add %[[A]], %[[B]]
// CHECK-SAME: dist.sharding = [#dist.sharding<@mesh, [{"dp"}, {}], partial = sum{"tp"}>]
// CHECK: dist.scale
// CHECK-SAME: dist.sharding = [#dist.sharding<@mesh, [{"dp"}, {}], partial = sum{"tp"}>]
// CHECK: dist.matmul
// CHECK-SAME: dist.sharding = [#dist.sharding<@mesh, [{"dp"}, {}], partial = sum{"tp"}>]
func.func @partial_pass_through(
    %x: tensor<8x64xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {"tp"}]>},
    %w1: tensor<64x16xf32>, %w2: tensor<64x16xf32>, %v: tensor<16x16xf32>) {
  %a = dist.matmul %x, %w1 : (tensor<8x64xf32>, tensor<64x16xf32>) -> tensor<8x16xf32>
  %b = dist.matmul %x, %w2 : (tensor<8x64xf32>, tensor<64x16xf32>) -> tensor<8x16xf32>
  %s = dist.add %a, %b : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %t = dist.scale %s {factor = 5.000000e-01 : f64} : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %u = dist.matmul %t, %v : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  return
}

// -----

dist.mesh @mesh = <["tp"=2]>

// Adding a partial and a non-partial value would double-count: the sum is
// not partial (the partial operand needs resolution), nor is a nonlinear
// op of a partial value, nor a product of two partial values.
// CHECK-LABEL: func.func @partial_not_carried
// CHECK: %[[P:.*]] = dist.matmul {{.*}}partial = sum{"tp"}
// CHECK: dist.add %[[P]], %{{.*}} {dist.sharding = [#dist.sharding<@mesh, [{}, {}]>]}
// CHECK: dist.gelu %[[P]] {dist.sharding = [#dist.sharding<@mesh, [{}, {}]>]}
// CHECK: dist.matmul %[[P]], %[[P]] {dist.sharding = [#dist.sharding<@mesh, [{}, {}]>]}
func.func @partial_not_carried(
    %x: tensor<16x64xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
    %w: tensor<64x16xf32>, %y: tensor<16x16xf32>) {
  %p = dist.matmul %x, %w : (tensor<16x64xf32>, tensor<64x16xf32>) -> tensor<16x16xf32>
  %0 = dist.add %p, %y : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  %1 = dist.gelu %p : (tensor<16x16xf32>) -> tensor<16x16xf32>
  %2 = dist.matmul %p, %p : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
  return
}

// -----

dist.mesh @mesh = <["tp"=2]>

// Megatron MLP on a 1-D mesh, only the weights annotated: column-parallel
// first matmul, row-parallel second one, and the gradients follow.
// CHECK-LABEL: func.func @megatron_mlp
// CHECK-SAME: %{{.*}}: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}]>}
// CHECK: %[[H:.*]] = dist.matmul {{.*}}[#dist.sharding<@mesh, [{}, {"tp"}]>]
// CHECK: %[[A:.*]] = dist.gelu %[[H]] {{.*}}[#dist.sharding<@mesh, [{}, {"tp"}]>]
// CHECK: dist.matmul %[[A]], {{.*}}[#dist.sharding<@mesh, [{}, {}], partial = sum{"tp"}>]
// CHECK: dist.matmul_grad %[[A]], {{.*}}[#dist.sharding<@mesh, [{}, {"tp"}]>, #dist.sharding<@mesh, [{"tp"}, {}]>]
// CHECK: dist.gelu_grad {{.*}}[#dist.sharding<@mesh, [{}, {"tp"}]>]
// CHECK: dist.matmul_grad {{.*}}[#dist.sharding<@mesh, [{}, {}], partial = sum{"tp"}>, #dist.sharding<@mesh, [{}, {"tp"}]>]
func.func @megatron_mlp(
    %x: tensor<8x16xf32>,
    %w1: tensor<16x64xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
    %w2: tensor<64x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>},
    %dy: tensor<8x16xf32>) {
  %h = dist.matmul %x, %w1 : (tensor<8x16xf32>, tensor<16x64xf32>) -> tensor<8x64xf32>
  %a = dist.gelu %h : (tensor<8x64xf32>) -> tensor<8x64xf32>
  %y = dist.matmul %a, %w2 : (tensor<8x64xf32>, tensor<64x16xf32>) -> tensor<8x16xf32>
  %da, %dw2 = dist.matmul_grad %a, %w2, %dy
      : (tensor<8x64xf32>, tensor<64x16xf32>, tensor<8x16xf32>) -> (tensor<8x64xf32>, tensor<64x16xf32>)
  %dh = dist.gelu_grad %h, %da : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
  %dx, %dw1 = dist.matmul_grad %x, %w1, %dh
      : (tensor<8x16xf32>, tensor<16x64xf32>, tensor<8x64xf32>) -> (tensor<8x16xf32>, tensor<16x64xf32>)
  return
}

// -----

dist.mesh @mesh = <["dp"=2, "tp"=2]>

// Data + tensor parallel: the batch split flows through the column- and
// row-parallel matmuls; the weight gradients sum over dp, dx over tp.
// CHECK-LABEL: func.func @dp_tp
// CHECK: %[[H:.*]] = dist.matmul {{.*}}[#dist.sharding<@mesh, [{"dp"}, {"tp"}]>]
// CHECK: dist.matmul %[[H]], {{.*}}[#dist.sharding<@mesh, [{"dp"}, {}], partial = sum{"tp"}>]
// CHECK: dist.matmul_grad %[[H]], {{.*}}[#dist.sharding<@mesh, [{"dp"}, {"tp"}]>, #dist.sharding<@mesh, [{"tp"}, {}], partial = sum{"dp"}>]
// CHECK: dist.matmul_grad {{.*}}[#dist.sharding<@mesh, [{"dp"}, {}], partial = sum{"tp"}>, #dist.sharding<@mesh, [{}, {"tp"}], partial = sum{"dp"}>]
func.func @dp_tp(
    %x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>},
    %w1: tensor<16x64xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
    %w2: tensor<64x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>},
    %dy: tensor<8x16xf32>) {
  %h = dist.matmul %x, %w1 : (tensor<8x16xf32>, tensor<16x64xf32>) -> tensor<8x64xf32>
  %y = dist.matmul %h, %w2 : (tensor<8x64xf32>, tensor<64x16xf32>) -> tensor<8x16xf32>
  %dh, %dw2 = dist.matmul_grad %h, %w2, %dy
      : (tensor<8x64xf32>, tensor<64x16xf32>, tensor<8x16xf32>) -> (tensor<8x64xf32>, tensor<64x16xf32>)
  %dx, %dw1 = dist.matmul_grad %x, %w1, %dh
      : (tensor<8x16xf32>, tensor<16x64xf32>, tensor<8x64xf32>) -> (tensor<8x16xf32>, tensor<16x64xf32>)
  return
}

// -----

dist.mesh @mesh = <["sp"=2]>

// Sequence parallel: layer_norm and gelu keep the sequence split; the
// layer_norm parameter gradients and the weight gradient sum over sp.
// CHECK-LABEL: func.func @sequence_parallel
// CHECK: %[[Y:[a-z0-9_]+]], %{{.*}}, %{{.*}} = dist.layer_norm {{.*}}[#dist.sharding<@mesh, [{}, {"sp"}, {}]>, #dist.sharding<@mesh, [{}, {"sp"}]>, #dist.sharding<@mesh, [{}, {"sp"}]>]
// CHECK: dist.matmul %[[Y]], {{.*}}[#dist.sharding<@mesh, [{}, {"sp"}, {}]>]
// CHECK: dist.matmul_grad {{.*}}[#dist.sharding<@mesh, [{}, {"sp"}, {}]>, #dist.sharding<@mesh, [{}, {}], partial = sum{"sp"}>]
// CHECK: dist.layer_norm_grad {{.*}}[#dist.sharding<@mesh, [{}, {"sp"}, {}]>, #dist.sharding<@mesh, [{}], partial = sum{"sp"}>, #dist.sharding<@mesh, [{}], partial = sum{"sp"}>]
func.func @sequence_parallel(
    %x: tensor<2x8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"sp"}, {}]>},
    %g: tensor<16xf32>, %b: tensor<16xf32>, %w: tensor<16x16xf32>, %dz: tensor<2x8x16xf32>) {
  %y, %mean, %rstd = dist.layer_norm %x, %g, %b {begin_norm_axis = 2 : i64}
      : (tensor<2x8x16xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<2x8x16xf32>, tensor<2x8xf32>, tensor<2x8xf32>)
  %z = dist.matmul %y, %w : (tensor<2x8x16xf32>, tensor<16x16xf32>) -> tensor<2x8x16xf32>
  %dy, %dw = dist.matmul_grad %y, %w, %dz
      : (tensor<2x8x16xf32>, tensor<16x16xf32>, tensor<2x8x16xf32>) -> (tensor<2x8x16xf32>, tensor<16x16xf32>)
  %dx, %dg, %db = dist.layer_norm_grad %x, %g, %mean, %rstd, %dy {begin_norm_axis = 2 : i64}
      : (tensor<2x8x16xf32>, tensor<16xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<2x8x16xf32>)
      -> (tensor<2x8x16xf32>, tensor<16xf32>, tensor<16xf32>)
  return
}

// -----

dist.mesh @mesh = <["tp"=2]>

// Collectives move layouts: all_reduce resolves the partial, all_gather
// removes the split, all_slice adds one, and an async pair is written on
// its dist.wait.
// CHECK-LABEL: func.func @collectives
// CHECK: %[[R:.*]] = dist.all_reduce {{.*}}[#dist.sharding<@mesh, [{}, {}]>]
// CHECK: %[[S:.*]] = dist.all_slice %[[R]] {{.*}}[#dist.sharding<@mesh, [{}, {"tp"}]>]
// CHECK: dist.all_gather %[[S]] {{.*}}[#dist.sharding<@mesh, [{}, {}]>]
// CHECK: %[[H:.*]] = dist.reduce_scatter_start
// CHECK-NOT: dist.sharding
// CHECK-SAME: !dist.handle
// CHECK-NEXT: dist.wait %[[H]] {dist.sharding = [#dist.sharding<@mesh, [{"tp"}, {}]>]}
func.func @collectives(
    %x: tensor<8x64xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
    %w: tensor<64x16xf32>) {
  %p = dist.matmul %x, %w : (tensor<8x64xf32>, tensor<64x16xf32>) -> tensor<8x16xf32>
  %r = dist.all_reduce %p on @mesh axes = ["tp"] kind = sum : tensor<8x16xf32> -> tensor<8x16xf32>
  %s = dist.all_slice %r on @mesh axes = ["tp"] dim = 1 : tensor<8x16xf32> -> tensor<8x16xf32>
  %g = dist.all_gather %s on @mesh axes = ["tp"] dim = 1 : tensor<8x16xf32> -> tensor<8x16xf32>
  %h = dist.reduce_scatter_start %p on @mesh axes = ["tp"] dim = 0 kind = sum : tensor<8x16xf32> -> !dist.handle<tensor<8x16xf32>>
  %rs = dist.wait %h : !dist.handle<tensor<8x16xf32>> -> tensor<8x16xf32>
  return
}

// -----

dist.mesh @mesh = <["dp"=2]>

// A declared function result refines an open value backward.
// CHECK-LABEL: func.func @result_annotation
// CHECK-SAME: %{{.*}}: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>}
// CHECK: dist.relu {{.*}}[#dist.sharding<@mesh, [{"dp"}, {}]>]
func.func @result_annotation(%x: tensor<8x16xf32>)
    -> (tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>}) {
  %0 = dist.relu %x : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

// A function that names no mesh is left alone.
// CHECK-LABEL: func.func @no_mesh
// CHECK-NOT: dist.sharding
// CHECK: return
func.func @no_mesh(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = dist.relu %x : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// NumPy broadcasting: the per-row statistic r (size 1 along the hidden dim)
// stretches over the tp-split hidden dim, so its gradient sums over it and
// is partial over tp; dx keeps x's layout.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @stat_grad(%x: tensor<4x8x32xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}, {"tp"}]>},
                     %r: tensor<4x8x1xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}, {}]>},
                     %d: tensor<4x8x32xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}, {"tp"}]>})
    -> (tensor<4x8x32xf32>, tensor<4x8x1xf32>) {
  %dx, %dr = dist.mul_grad %x, %r, %d : (tensor<4x8x32xf32>, tensor<4x8x1xf32>, tensor<4x8x32xf32>) -> (tensor<4x8x32xf32>, tensor<4x8x1xf32>)
  return %dx, %dr : tensor<4x8x32xf32>, tensor<4x8x1xf32>
}

// CHECK-LABEL: func.func @stat_grad
// CHECK:         dist.mul_grad {{.*}} {dist.sharding = [#dist.sharding<@mesh, [{"dp"}, {}, {"tp"}]>, #dist.sharding<@mesh, [{"dp"}, {}, {}], partial = sum{"tp"}>]}
