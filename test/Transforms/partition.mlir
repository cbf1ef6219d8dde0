// RUN: dist-opt %s --split-input-file --dist-propagate-sharding=remarks=none --dist-resolve-partial --dist-partition | FileCheck %s
// RUN: dist-opt %S/../../examples/megatron-mlp.mlir --dist-propagate-sharding --dist-resolve-partial --dist-partition | FileCheck %s --check-prefix=MLP
// Async pairs: each handle carries its local results.
// RUN: dist-opt %S/../../examples/megatron-mlp.mlir --dist-propagate-sharding --dist-resolve-partial="bucket-mb=1" --dist-overlap-collectives --dist-partition | FileCheck %s --check-prefix=ASYNC

// The Megatron MLP step on dp=2 x tp=2: the batch halves, the hidden dims
// of the weights halve, the collectives keep their local types, and the
// loss gradient of a mean over the dp-split batch is scaled by 1/2 (the
// local mean divides by the local count only).
// MLP-LABEL: func.func @step
// MLP-SAME:    (%[[X:[^:]*]]: tensor<4x16xf32> {dist.local = #dist.sharding<@mesh, [{"dp"}, {}]>}, %{{[^:]*}}: tensor<4x16xf32>
// MLP-SAME:    tensor<16x32xf32> {dist.local = #dist.sharding<@mesh, [{}, {"tp"}]>}
// MLP-SAME:    -> (tensor<f32> {dist.local = #dist.sharding<@mesh, []>}, tensor<16x32xf32> {dist.local = #dist.sharding<@mesh, [{}, {"tp"}]>}, tensor<32xf32>
// MLP:         %[[H:.*]] = dist.matmul %[[X]], %{{.*}} : (tensor<4x16xf32>, tensor<16x32xf32>) -> tensor<4x32xf32>
// MLP:         dist.all_reduce %{{.*}} on @mesh axes = ["tp"] kind = sum : tensor<4x16xf32> -> tensor<4x16xf32>
// MLP:         %[[G:.*]] = dist.reduce_mean_grad %{{.*}} {dims = array<i64: 0, 1>} : (tensor<4x16xf32>, tensor<f32>) -> tensor<4x16xf32>
// MLP-NEXT:    %[[S:.*]] = dist.scale %[[G]] {factor = 5.000000e-01 : f64} : (tensor<4x16xf32>) -> tensor<4x16xf32>
// MLP-NEXT:    dist.mul_grad %{{.*}}, %{{.*}}, %[[S]]
// MLP:         dist.all_reduce %{{.*}} on @mesh axes = ["dp"] kind = sum : tensor<16x32xf32> -> tensor<16x32xf32>
// MLP-NOT:     dist.sharding =

// ASYNC-LABEL: func.func @step
// ASYNC:         %[[H:.*]] = dist.all_reduce_start %{{.*}} on @mesh axes = ["tp"] kind = sum : tensor<4x16xf32> -> !dist.handle<tensor<4x16xf32>>
// ASYNC-NEXT:    dist.wait %[[H]] : !dist.handle<tensor<4x16xf32>> -> tensor<4x16xf32>
// ASYNC:         dist.all_reduce_start {{.*}} : tensor<f32>, tensor<32x16xf32>, tensor<32xf32>, tensor<16x32xf32> -> !dist.handle<tensor<f32>, tensor<32x16xf32>, tensor<32xf32>, tensor<16x32xf32>>

// Reshards in their local form (every argument and result says what it
// is a shard of): a split value gathered for a replicated
// result, moved from dim 1 to dim 0 by an all-to-all, and a replicated one
// sliced for a split result.
dist.mesh @mesh = <["tp"=4]>
func.func @reshards(%x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
                    %r: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}]>})
    -> (tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}]>},
        tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>},
        tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>}) {
  %g = dist.gelu %x : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %s = dist.relu %r : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %g, %s, %g : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
}
// CHECK-LABEL: func.func @reshards
// CHECK-SAME:    (%[[X:.*]]: tensor<8x4xf32> {dist.local = #dist.sharding<@mesh, [{}, {"tp"}]>}, %[[R:.*]]: tensor<8x16xf32> {dist.local = #dist.sharding<@mesh, [{}, {}]>})
// CHECK-SAME:    -> (tensor<8x16xf32> {{.*}}, tensor<2x16xf32> {{.*}}, tensor<2x16xf32> {{.*}})
// CHECK-NEXT:    %[[G:.*]] = dist.gelu %[[X]] : (tensor<8x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT:    %[[A:.*]] = dist.all_gather %[[G]] on @mesh axes = ["tp"] dim = 1 : tensor<8x4xf32> -> tensor<8x16xf32>
// CHECK-NEXT:    %[[T:.*]] = dist.all_to_all %[[G]] on @mesh axes = ["tp"] split_dim = 0 concat_dim = 1 : tensor<8x4xf32> -> tensor<2x16xf32>
// CHECK-NEXT:    %[[S:.*]] = dist.relu %[[R]] : (tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT:    %[[L:.*]] = dist.all_slice %[[S]] on @mesh axes = ["tp"] dim = 0 : tensor<8x16xf32> -> tensor<2x16xf32>
// CHECK-NEXT:    return %[[A]], %[[L]], %[[T]]

// -----

// A vocabulary-parallel embedding: each device holds 250 of the 1000 rows,
// starting at its tp index times 250; the lookup and its gradient take that
// offset (one computation serves both).
dist.mesh @mesh = <["tp"=4]>
func.func @vocab_parallel(%ids: tensor<4x16xi64> {dist.sharding = #dist.sharding<@mesh, [{}, {}]>},
                          %table: tensor<1000x64xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>},
                          %dh: tensor<4x16x64xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}, {}]>})
    -> (tensor<4x16x64xf32>, tensor<1000x64xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>}) {
  %h = dist.embedding %ids, %table : (tensor<4x16xi64>, tensor<1000x64xf32>) -> tensor<4x16x64xf32>
  %dt = dist.embedding_grad %ids, %table, %dh : (tensor<4x16xi64>, tensor<1000x64xf32>, tensor<4x16x64xf32>) -> tensor<1000x64xf32>
  return %h, %dt : tensor<4x16x64xf32>, tensor<1000x64xf32>
}
// CHECK-LABEL: func.func @vocab_parallel
// CHECK-SAME:    (%[[IDS:.*]]: tensor<4x16xi64> {{.*}}, %[[T:.*]]: tensor<250x64xf32> {{.*}}, %[[DH:.*]]: tensor<4x16x64xf32> {{.*}})
// CHECK-NEXT:    %[[I:.*]] = dist.axis_index @mesh axes = ["tp"] : index
// CHECK-NEXT:    %[[N:.*]] = arith.constant 250 : index
// CHECK-NEXT:    %[[OFF:.*]] = arith.muli %[[I]], %[[N]] : index
// CHECK-NEXT:    %[[H:.*]] = dist.embedding %[[IDS]], %[[T]], %[[OFF]] : (tensor<4x16xi64>, tensor<250x64xf32>, index) -> tensor<4x16x64xf32>
// CHECK-NEXT:    %[[R:.*]] = dist.all_reduce %[[H]] on @mesh axes = ["tp"] kind = sum : tensor<4x16x64xf32> -> tensor<4x16x64xf32>
// CHECK-NEXT:    %[[DT:.*]] = dist.embedding_grad %[[IDS]], %[[T]], %[[DH]], %[[OFF]] : (tensor<4x16xi64>, tensor<250x64xf32>, tensor<4x16x64xf32>, index) -> tensor<250x64xf32>
// CHECK-NEXT:    return %[[R]], %[[DT]]

// -----

// A table the program already offsets (rows 500.. of a larger vocabulary):
// each device's offset is the given one plus its shard's first row.
dist.mesh @mesh = <["tp"=4]>
func.func @given_offset(%ids: tensor<4x16xi64> {dist.sharding = #dist.sharding<@mesh, [{}, {}]>},
                        %table: tensor<1000x64xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>})
    -> tensor<4x16x64xf32> {
  %first = arith.constant 500 : index
  %h = dist.embedding %ids, %table, %first : (tensor<4x16xi64>, tensor<1000x64xf32>, index) -> tensor<4x16x64xf32>
  return %h : tensor<4x16x64xf32>
}
// CHECK-LABEL: func.func @given_offset
// CHECK-NEXT:    %[[I:.*]] = dist.axis_index @mesh axes = ["tp"] : index
// CHECK-NEXT:    %[[N:.*]] = arith.constant 250 : index
// CHECK-NEXT:    %[[SHARD:.*]] = arith.muli %[[I]], %[[N]] : index
// CHECK-NEXT:    %[[FIRST:.*]] = arith.constant 500 : index
// CHECK-NEXT:    %[[OFF:.*]] = arith.addi %[[FIRST]], %[[SHARD]] : index
// CHECK-NEXT:    %[[H:.*]] = dist.embedding %{{.*}}, %{{.*}}, %[[OFF]] : (tensor<4x16xi64>, tensor<250x64xf32>, index) -> tensor<4x16x64xf32>
// CHECK-NEXT:    dist.all_reduce %[[H]]

// -----

// take_along alike: the given offset (entries 100.. of a longer last dim)
// plus each shard's first entry.
dist.mesh @mesh = <["tp"=4]>
func.func @given_take_offset(%x: tensor<8x32xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
                             %idx: tensor<8xi64> {dist.sharding = #dist.sharding<@mesh, [{}]>}) -> tensor<8xf32> {
  %first = arith.constant 100 : index
  %p = dist.take_along %x, %idx, %first : (tensor<8x32xf32>, tensor<8xi64>, index) -> tensor<8xf32>
  return %p : tensor<8xf32>
}
// CHECK-LABEL: func.func @given_take_offset
// CHECK-NEXT:    %[[I:.*]] = dist.axis_index @mesh axes = ["tp"] : index
// CHECK-NEXT:    %[[N:.*]] = arith.constant 8 : index
// CHECK-NEXT:    %[[SHARD:.*]] = arith.muli %[[I]], %[[N]] : index
// CHECK-NEXT:    %[[FIRST:.*]] = arith.constant 100 : index
// CHECK-NEXT:    %[[OFF:.*]] = arith.addi %[[FIRST]], %[[SHARD]] : index
// CHECK-NEXT:    dist.take_along %{{.*}}, %{{.*}}, %[[OFF]] : (tensor<8x8xf32>, tensor<8xi64>, index) -> tensor<8xf32>

// -----

// A shape-only operand (the bias of add_grad) sharded unlike the gradient
// is replaced by an empty tensor of the local shape the op needs, so the
// local op verifies; an undeclared result still says what it is a shard of.
dist.mesh @mesh = <["x"=4]>
func.func @shape_only(%h: tensor<8x64xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}]>},
                      %b: tensor<64xf32> {dist.sharding = #dist.sharding<@mesh, [{"x"}]>},
                      %d: tensor<8x64xf32> {dist.sharding = #dist.sharding<@mesh, [{"x"}, {}]>}) -> (tensor<8x64xf32>, tensor<64xf32>) {
  %dh, %db = dist.add_grad %h, %b, %d : (tensor<8x64xf32>, tensor<64xf32>, tensor<8x64xf32>) -> (tensor<8x64xf32>, tensor<64xf32>)
  return %dh, %db : tensor<8x64xf32>, tensor<64xf32>
}
// CHECK-LABEL: func.func @shape_only
// CHECK-SAME:    -> (tensor<2x64xf32> {dist.local = #dist.sharding<@mesh, [{"x"}, {}]>}, tensor<64xf32> {dist.local = #dist.sharding<@mesh, [{}]>})
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<64xf32>
// CHECK-NEXT:    dist.add_grad %{{.*}}, %[[E]], %{{.*}} : (tensor<2x64xf32>, tensor<64xf32>, tensor<2x64xf32>)

// -----

// An embedding gradient whose table (read for its shape only) is split
// further than its result: the table becomes an empty tensor of the
// result's shard, and the offset is that of the result's rows (tp), not
// lost with the table's layout (ZeRO-3's vocabulary split over tp x dp).
// The batch is large enough that reducing the gradient over dp moves less
// than gathering the ids and the output gradient over dp would.
dist.mesh @mesh = <["dp"=2, "tp"=2]>
func.func @tied_table_grad(%ids: tensor<16x16xi64> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>},
                           %table: tensor<256x128xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp", "dp"}, {}]>},
                           %dout: tensor<16x16x128xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}, {}]>})
    -> (tensor<256x128xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp", "dp"}, {}]>}) {
  %g = dist.embedding_grad %ids, %table, %dout : (tensor<16x16xi64>, tensor<256x128xf32>, tensor<16x16x128xf32>) -> tensor<256x128xf32>
  return %g : tensor<256x128xf32>
}
// CHECK-LABEL: func.func @tied_table_grad
// CHECK:         %[[RANK:.*]] = dist.axis_index @mesh axes = ["tp"] : index
// CHECK-NEXT:    %[[ROWS:.*]] = arith.constant 128 : index
// CHECK-NEXT:    %[[OFFSET:.*]] = arith.muli %[[RANK]], %[[ROWS]] : index
// CHECK-NEXT:    %[[SHAPE:.*]] = tensor.empty() : tensor<128x128xf32>
// CHECK-NEXT:    %[[G:.*]] = dist.embedding_grad %{{.*}}, %[[SHAPE]], %{{.*}}, %[[OFFSET]] : (tensor<8x16xi64>, tensor<128x128xf32>, tensor<8x16x128xf32>, index) -> tensor<128x128xf32>
// CHECK-NEXT:    dist.reduce_scatter %[[G]] on @mesh axes = ["dp"] dim = 0 kind = sum : tensor<128x128xf32> -> tensor<64x128xf32>

// -----

// A slice keeps its split dims whole: their local sizes replace the global
// ones, the offsets stay (only the unsplit last dim is cut).
dist.mesh @mesh = <["dp"=2, "tp"=2]>
func.func @rotary_halves(%x: tensor<4x8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {"tp"}, {}]>}) -> tensor<4x8x16xf32> {
  %a = dist.slice %x {offsets = array<i64: 0, 0, 0>, sizes = array<i64: 4, 8, 8>} : (tensor<4x8x16xf32>) -> tensor<4x8x8xf32>
  %b = dist.slice %x {offsets = array<i64: 0, 0, 8>, sizes = array<i64: 4, 8, 8>} : (tensor<4x8x16xf32>) -> tensor<4x8x8xf32>
  %c = dist.concat %b, %a {dim = 2 : i64} : (tensor<4x8x8xf32>, tensor<4x8x8xf32>) -> tensor<4x8x16xf32>
  return %c : tensor<4x8x16xf32>
}
// CHECK-LABEL: func.func @rotary_halves
// CHECK-SAME:    (%[[X:[^:]*]]: tensor<2x4x16xf32> {dist.local
// CHECK-NEXT:    %[[A:.*]] = dist.slice %[[X]] {offsets = array<i64: 0, 0, 0>, sizes = array<i64: 2, 4, 8>} : (tensor<2x4x16xf32>) -> tensor<2x4x8xf32>
// CHECK-NEXT:    %[[B:.*]] = dist.slice %[[X]] {offsets = array<i64: 0, 0, 8>, sizes = array<i64: 2, 4, 8>} : (tensor<2x4x16xf32>) -> tensor<2x4x8xf32>
// CHECK-NEXT:    %[[C:.*]] = dist.concat %[[B]], %[[A]] {dim = 2 : i64} : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x16xf32>
// CHECK-NEXT:    return %[[C]]

// -----

// A dim that 4 does not divide (10 entries over tp=4) is split as GSPMD
// splits it: shards of 3, the last with 2 of padding. Before the maximum
// over it, the padding becomes -inf; a gather takes whole shards and cuts
// the padding; a slice pads with zeros first.
dist.mesh @mesh = <["tp"=4]>
func.func @uneven(%x: tensor<4x10xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>}, %y: tensor<4x10xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}]>})
    -> (tensor<4xf32> {dist.sharding = #dist.sharding<@mesh, [{}]>}, tensor<4x10xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}]>}, tensor<4x10xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>}) {
  %m = dist.reduce_max %x {dims = array<i64: 1>} : (tensor<4x10xf32>) -> tensor<4xf32>
  %g = dist.gelu %x : (tensor<4x10xf32>) -> tensor<4x10xf32>
  %s = dist.gelu %y : (tensor<4x10xf32>) -> tensor<4x10xf32>
  return %m, %g, %s : tensor<4xf32>, tensor<4x10xf32>, tensor<4x10xf32>
}
// CHECK-LABEL: func.func @uneven(
// CHECK-SAME:      %[[X:.*]]: tensor<4x3xf32> {dist.local = #dist.sharding<@mesh, [{}, {"tp"}]>}, %[[Y:.*]]: tensor<4x10xf32>
// CHECK:          %[[I:.*]] = dist.axis_index @mesh axes = ["tp"] : index
// CHECK-NEXT:    %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT:    %[[FIRST:.*]] = arith.muli %[[I]], %[[C3]] : index
// CHECK-NEXT:    %[[MASKED:.*]] = dist.mask_padding %[[X]], %[[FIRST]] {dim = 1 : i64, fill = 0xFFF0000000000000 : f64, size = 10 : i64} : (tensor<4x3xf32>, index) -> tensor<4x3xf32>
// CHECK-NEXT:    %[[MAX:.*]] = dist.reduce_max %[[MASKED]] {dims = array<i64: 1>} : (tensor<4x3xf32>) -> tensor<4xf32>
// CHECK-NEXT:    dist.all_reduce %[[MAX]] on @mesh axes = ["tp"] kind = max
// CHECK-NEXT:    %[[G:.*]] = dist.gelu %[[X]]
// CHECK-NEXT:    %[[WHOLE:.*]] = dist.all_gather %[[G]] on @mesh axes = ["tp"] dim = 1 : tensor<4x3xf32> -> tensor<4x12xf32>
// CHECK-NEXT:    tensor.extract_slice %[[WHOLE]][0, 0] [4, 10] [1, 1] : tensor<4x12xf32> to tensor<4x10xf32>
// CHECK-NEXT:    %[[S:.*]] = dist.gelu %[[Y]]
// CHECK-NEXT:    %[[ZEROS:.*]] = arith.constant dense<0.000000e+00> : tensor<4x12xf32>
// CHECK-NEXT:    %[[PADDED:.*]] = tensor.insert_slice %[[S]] into %[[ZEROS]][0, 0] [4, 10] [1, 1] : tensor<4x10xf32> into tensor<4x12xf32>
// CHECK-NEXT:    dist.all_slice %[[PADDED]] on @mesh axes = ["tp"] dim = 1 : tensor<4x12xf32> -> tensor<4x3xf32>
