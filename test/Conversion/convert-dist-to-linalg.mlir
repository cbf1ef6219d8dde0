// RUN: dist-opt %s --split-input-file --convert-dist-to-linalg | FileCheck %s
// RUN: dist-opt %s --split-input-file --convert-dist-to-linalg=scatter=dense | FileCheck %s --check-prefix=DENSE
// The shipped example and a generated GPT step lower completely: only
// collectives, dist.axis_index and the mesh stay.
// RUN: dist-opt %S/../../examples/megatron-mlp.mlir --dist-propagate-sharding --dist-resolve-partial --dist-partition --convert-dist-to-linalg | FileCheck %s --check-prefix=MLP
// RUN: dist-gen gpt --layers 1 --dp 2 --tp 2 | dist-opt - --dist-propagate-sharding=remarks=none --dist-resolve-partial --dist-split-matmul-grad --dist-overlap-collectives --dist-partition --convert-dist-to-linalg | FileCheck %s --check-prefix=GPT

// MLP-LABEL: func.func @step
// MLP-NOT:   dist.{{(matmul|gelu|add|sub|mul|reduce_mean|scale)}}
// MLP:       dist.all_reduce
// MLP-NOT:   dist.{{(matmul|gelu|add|sub|mul|reduce_mean|scale)}}
// GPT-LABEL: func.func @gpt_step
// GPT:       dist.axis_index @mesh axes = ["tp"]
// GPT-NOT:   dist.{{(matmul|gelu|add|sub|mul|reduce|scale|layer_norm|softmax|embedding|reshape|transpose)}}

// A batched matmul against a transposed 2-D weight: one generic, the
// weight's map drops the batch, k is the reduction; collectives stay.
dist.mesh @mesh = <["tp"=4]>
func.func @matmul_and_collective(%x: tensor<4x8x16xf32>, %w: tensor<32x16xf32>) -> tensor<4x8x32xf32> {
  %y = dist.matmul %x, %w {transpose_y} : (tensor<4x8x16xf32>, tensor<32x16xf32>) -> tensor<4x8x32xf32>
  %r = dist.all_reduce %y on @mesh axes = ["tp"] kind = sum : tensor<4x8x32xf32> -> tensor<4x8x32xf32>
  return %r : tensor<4x8x32xf32>
}
// CHECK-DAG:   #[[X:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG:   #[[W:.*]] = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
// CHECK-DAG:   #[[OUT:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @matmul_and_collective
// CHECK-SAME:    (%[[A:.*]]: tensor<4x8x16xf32>, %[[B:.*]]: tensor<32x16xf32>)
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<4x8x32xf32>
// CHECK-NEXT:    %[[Y:.*]] = linalg.generic {indexing_maps = [#[[X]], #[[W]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[A]], %[[B]] : tensor<4x8x16xf32>, tensor<32x16xf32>) outs(%[[ZERO]] : tensor<4x8x32xf32>)
// CHECK:         arith.mulf
// CHECK-NEXT:    arith.addf
// CHECK:         dist.all_reduce %[[Y]] on @mesh axes = ["tp"] kind = sum

// -----

// A shard of a vocabulary-parallel table: ids outside the shard read row 0
// and are masked to zero.
func.func @embedding_shard(%ids: tensor<4xi64>, %t: tensor<8x2xf32>, %off: index) -> tensor<4x2xf32> {
  %h = dist.embedding %ids, %t, %off : (tensor<4xi64>, tensor<8x2xf32>, index) -> tensor<4x2xf32>
  return %h : tensor<4x2xf32>
}
// CHECK-LABEL: func.func @embedding_shard
// CHECK-SAME:    (%[[IDS:.*]]: tensor<4xi64>, %[[T:.*]]: tensor<8x2xf32>, %[[OFF:.*]]: index)
// CHECK:         linalg.generic {{.*}} ins(%[[IDS]] : tensor<4xi64>)
// CHECK:           %[[ID:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK-NEXT:      %[[ROW:.*]] = arith.subi %[[ID]], %[[OFF]] : index
// CHECK:           %[[HELD:.*]] = arith.andi
// CHECK-NEXT:      %[[CLAMPED:.*]] = arith.select %[[HELD]], %[[ROW]]
// CHECK-NEXT:      %[[H:.*]] = linalg.index 1 : index
// CHECK-NEXT:      %[[V:.*]] = tensor.extract %[[T]][%[[CLAMPED]], %[[H]]] : tensor<8x2xf32>
// CHECK:           arith.select %[[HELD]], %[[V]]

// -----

// Reshape is a tensor.reshape to a constant shape.
func.func @reshape(%x: tensor<4x8xf32>) -> tensor<32xf32> {
  %y = dist.reshape %x : (tensor<4x8xf32>) -> tensor<32xf32>
  return %y : tensor<32xf32>
}
// CHECK-LABEL: func.func @reshape
// CHECK:         %[[S:.*]] = arith.constant dense<32> : tensor<1xindex>
// CHECK-NEXT:    tensor.reshape %{{.*}}(%[[S]]) : (tensor<4x8xf32>, tensor<1xindex>) -> tensor<32xf32>

// -----

// 2-D products and batched ones with both operands batched are the named
// linalg.matmul / linalg.batch_matmul, transposes in their maps.
func.func @named(%x: tensor<4x8x16xf32>, %y: tensor<4x32x16xf32>, %a: tensor<16x8xf32>, %w: tensor<16x32xf32>) -> (tensor<4x8x32xf32>, tensor<8x32xf32>) {
  %r = dist.matmul %x, %y {transpose_y} : (tensor<4x8x16xf32>, tensor<4x32x16xf32>) -> tensor<4x8x32xf32>
  %s = dist.matmul %a, %w {transpose_x} : (tensor<16x8xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  return %r, %s : tensor<4x8x32xf32>, tensor<8x32xf32>
}
// CHECK-DAG:   #[[BX:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG:   #[[BY:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// CHECK-DAG:   #[[MA:.*]] = affine_map<(d0, d1, d2) -> (d2, d0)>
// CHECK-LABEL: func.func @named
// CHECK:         linalg.batch_matmul indexing_maps = [#[[BX]], #[[BY]], #{{.*}}] ins(%{{.*}}, %{{.*}} : tensor<4x8x16xf32>, tensor<4x32x16xf32>)
// CHECK:         linalg.matmul indexing_maps = [#[[MA]], #{{.*}}, #{{.*}}] ins(%{{.*}}, %{{.*}} : tensor<16x8xf32>, tensor<16x32xf32>)

// -----

// Softmax starts its running max at -inf, written for the element type:
// f32 bits for every type made bf16 an error and f64 start at a denormal
// (2.1e-314), so rows of large negative values gave NaN.
// CHECK-LABEL: func.func @softmax_infinity
func.func @softmax_infinity(%a: tensor<8x16xbf16>, %b: tensor<8x16xf64>) -> (tensor<8x16xbf16>, tensor<8x16xf64>) {
  // CHECK: arith.constant dense<0xFF80> : tensor<8xbf16>
  %x = dist.softmax %a {axis = 1 : i64} : (tensor<8x16xbf16>) -> tensor<8x16xbf16>
  // CHECK: arith.constant dense<0xFFF0000000000000> : tensor<8xf64>
  %y = dist.softmax %b {axis = 1 : i64} : (tensor<8x16xf64>) -> tensor<8x16xf64>
  return %x, %y : tensor<8x16xbf16>, tensor<8x16xf64>
}

// -----

// embedding_grad is a scatter: one step per token and hidden entry adds
// dout into the row its id picks, on this shard (an id outside adds 0),
// summed in f64; scatter=dense (the GPU pipeline's) compares every id with
// every row in a parallel reduction instead.
// CHECK-LABEL: func.func @scatter
// CHECK:         %[[IDS:.*]] = tensor.reshape %arg0({{.*}}) : (tensor<2x3xi64>, tensor<1xindex>) -> tensor<6xi64>
// CHECK:         %[[D:.*]] = tensor.reshape %arg2({{.*}}) : (tensor<2x3x4xf32>, tensor<2xindex>) -> tensor<6x4xf32>
// CHECK:         %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<10x4xf64>
// CHECK:         %[[SUMS:.*]] = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (tensor<10x4xf64>) {
// CHECK:           %[[T:.*]] = arith.divui %[[I]]
// CHECK-NEXT:      %[[H:.*]] = arith.remui %[[I]]
// CHECK-NEXT:      %[[ID:.*]] = tensor.extract %[[IDS]][%[[T]]]
// CHECK:           %[[ROW:.*]] = arith.subi %{{.*}}, %arg3 : index
// CHECK:           %[[HELD:.*]] = arith.andi
// CHECK-NEXT:      %[[AT:.*]] = arith.select %[[HELD]], %[[ROW]]
// CHECK-NEXT:      %[[DOUT:.*]] = tensor.extract %[[D]][%[[T]], %[[H]]]
// CHECK:           %[[OLD:.*]] = tensor.extract %[[ACC]][%[[AT]], %[[H]]] : tensor<10x4xf64>
// CHECK-NEXT:      %[[NEW:.*]] = arith.addf %[[OLD]]
// CHECK-NEXT:      %[[NEXT:.*]] = tensor.insert %[[NEW]] into %[[ACC]][%[[AT]], %[[H]]]
// CHECK-NEXT:      scf.yield %[[NEXT]]
// CHECK:         linalg.generic {{.*}} ins(%[[SUMS]] : tensor<10x4xf64>)
// CHECK:           arith.truncf
// DENSE-LABEL: func.func @scatter
// DENSE-NOT:     scf.for
// DENSE:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "reduction", "parallel"]
func.func @scatter(%ids: tensor<2x3xi64>, %t: tensor<10x4xf32>, %d: tensor<2x3x4xf32>, %off: index) -> tensor<10x4xf32> {
  %g = dist.embedding_grad %ids, %t, %d, %off : (tensor<2x3xi64>, tensor<10x4xf32>, tensor<2x3x4xf32>, index) -> tensor<10x4xf32>
  return %g : tensor<10x4xf32>
}

// -----

// dist.attention in blocks: the positions of the queries (from the
// offset) and of the keys in the balanced order of 2 shards (chunks of 32:
// a chunk's mirrored start plus the rest), then a loop over the query
// blocks, in it one over the key blocks. A key block whose earliest
// position comes after the query block's latest (the larger of its last's
// and, should it run into the next chunk, its first chunk's last's) is
// skipped (scf.if); the others fold into the running maximum, sum and
// weighted sum, masked by the positions.
func.func @attention(%q: tensor<2x32x8xf32>, %k: tensor<2x128x8xf32>, %v: tensor<2x128x8xf32>, %first: index) -> (tensor<2x32x8xf32>, tensor<2x32xf32>) {
  %o, %l = dist.attention %q, %k, %v, %first {balance = 2 : i64, causal, scale = 0.25 : f64} : (tensor<2x32x8xf32>, tensor<2x128x8xf32>, tensor<2x128x8xf32>, index) -> (tensor<2x32x8xf32>, tensor<2x32xf32>)
  return %o, %l : tensor<2x32x8xf32>, tensor<2x32xf32>
}
// CHECK-LABEL: func.func @attention
// CHECK-SAME:    (%[[Q:.*]]: tensor<2x32x8xf32>, %[[K:.*]]: tensor<2x128x8xf32>, %[[V:.*]]: tensor<2x128x8xf32>, %[[FIRST:.*]]: index)
// CHECK:         %[[QPOS:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<32xindex>)
// CHECK:           %[[I:.*]] = linalg.index 0 : index
// CHECK-NEXT:      %[[T:.*]] = arith.addi %[[I]], %[[FIRST]] : index
// CHECK:           %[[CHUNK:.*]] = arith.divui %[[T]], %{{.*}} : index
// CHECK:           arith.cmpi ne
// CHECK:         %[[KPOS:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<128xindex>)
// CHECK:         %[[ROWS:.*]]:2 = scf.for %[[QI:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[OUT:.*]] = %{{.*}}, %[[LSE:.*]] = %{{.*}})
// CHECK:           %[[QSTART:.*]] = arith.muli %[[QI]], %{{.*}} : index
// CHECK:           %[[QLAST:.*]] = arith.addi %[[QSTART]], %{{.*}} : index
// CHECK:           %[[CHUNKLAST:.*]] = arith.minui %[[QLAST]], %{{.*}} : index
// CHECK:           %[[P1:.*]] = tensor.extract %[[QPOS]][%[[QLAST]]] : tensor<32xindex>
// CHECK:           %[[P2:.*]] = tensor.extract %[[QPOS]][%[[CHUNKLAST]]] : tensor<32xindex>
// CHECK:           %[[LATEST:.*]] = arith.maxui %[[P1]], %[[P2]] : index
// CHECK:           tensor.extract_slice %[[Q]][0, %[[QSTART]], 0] [2, 32, 8] [1, 1, 1]
// CHECK:           %[[STATE:.*]]:3 = scf.for %[[KI:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[M:.*]] = %{{.*}}, %[[L:.*]] = %{{.*}}, %[[ACC:.*]] = %{{.*}}) -> (tensor<2x32xf32>, tensor<2x32xf64>, tensor<2x32x8xf64>)
// CHECK:             %[[KSTART:.*]] = arith.muli %[[KI]], %{{.*}} : index
// CHECK:             %[[EARLIEST:.*]] = tensor.extract %[[KPOS]][%[[KSTART]]] : tensor<128xindex>
// CHECK:             %[[SEEN:.*]] = arith.cmpi ule, %[[EARLIEST]], %[[LATEST]] : index
// CHECK:             scf.if %[[SEEN]] -> (tensor<2x32xf32>, tensor<2x32xf64>, tensor<2x32x8xf64>)
// CHECK:               linalg.batch_matmul
// CHECK:               arith.cmpi ugt
// CHECK:               math.exp
// CHECK:             } else {
// CHECK-NEXT:          scf.yield %[[M]], %[[L]], %[[ACC]]
// CHECK:           math.log
// CHECK:           tensor.insert_slice %{{.*}} into %[[OUT]][0, %[[QSTART]], 0] [2, 32, 8] [1, 1, 1]
// CHECK:           tensor.insert_slice %{{.*}} into %[[LSE]][0, %[[QSTART]]] [2, 32] [1, 1]
