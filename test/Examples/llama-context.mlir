// REQUIRES: jax
// Balanced context parallelism (dist-gen llama --sp S --balance; --cp is
// --sp's other name): under the causal mask a contiguous split of the
// sequence gives the last shard the most work. As Megatron and Llama 3 do,
// sp shard i holds chunks i and 2S-1-i of 2S: the tokens and labels arrive
// permuted (scripts/npy.py balance) with their positions, the rotary
// tables' rows are taken by position (an embedding lookup, split with the
// sequence), and the attention is dist.attention in that order (balance =
// S), whose blocks of keys after its queries are skipped.
// RUN: rm -rf %t && mkdir -p %t
// RUN: dist-gen llama --layers 2 --dp 2 --cp 2 --tp 2 --balance --forward-only > %t/balanced.mlir
// RUN: FileCheck %s --input-file %t/balanced.mlir
// CHECK:      %positions: tensor<16xi64> {dist.sharding = #dist.sharding<@mesh, [{"sp"}]>},
// CHECK:      %[[COS:.*]] = dist.embedding %positions, %cos : (tensor<16xi64>, tensor<16x8xf32>) -> tensor<16x8xf32>
// CHECK-NEXT: %[[SIN:.*]] = dist.embedding %positions, %sin
// CHECK:      dist.mul %{{.*}}, %[[COS]]
// CHECK:      dist.attention %{{.*}}, %{{.*}}, %{{.*}} {balance = 2 : i64, causal, scale = 0.35355339059327373 : f64} : (tensor<4x4x2x16x8xf32>, tensor<4x4x1x16x8xf32>, tensor<4x4x1x16x8xf32>) -> (tensor<4x4x2x16x8xf32>, tensor<4x4x2x16xf32>)
// CHECK-NOT:  dist.causal_mask
//
// The permutation evens out the causal pairs each shard's queries see.
// RUN: dist-gen llama --layers 2 --dp 2 --sp 2 --tp 2 --forward-only > %t/contiguous.mlir
// RUN: %python %S/../../scripts/npy.py inputs %t/contiguous.mlir llama_step %t/in --id-range 256 --scale 0.1 > /dev/null
// RUN: %jax_python %S/../../scripts/jax_llama.py rope %t/in 10000
// RUN: %python %S/../../scripts/npy.py balance %t/in %t/in2 2 | FileCheck %s --check-prefix=PAIRS2
// PAIRS2: causal (query, key) pairs per sp shard: contiguous 36 100; balanced 68 68
// RUN: %python %S/../../scripts/npy.py balance %t/in %t/in4 4 | FileCheck %s --check-prefix=PAIRS4
// PAIRS4: causal (query, key) pairs per sp shard: contiguous 10 26 42 58; balanced 34 34 34 34
//
// The same collectives over sp as the contiguous split (each layer's k and
// v gathered, their gradients reduce-scattered), with or without
// --fused-attention.
// RUN: dist-gen llama --layers 2 --dp 2 --sp 2 --tp 2 --forward-only --fused-attention > %t/fused.mlir
// RUN: dist-opt %t/balanced.mlir --dist-append-backward --dist-decompose --dist-propagate-sharding=remarks=none \
// RUN:   --dist-resolve-partial --dist-comm-report -o /dev/null 2>&1 | FileCheck %s --check-prefix=COMM
// RUN: dist-opt %t/contiguous.mlir --dist-append-backward --dist-decompose --dist-propagate-sharding=remarks=none \
// RUN:   --dist-resolve-partial --dist-comm-report -o /dev/null 2>&1 | FileCheck %s --check-prefix=COMM
// RUN: dist-opt %t/fused.mlir --dist-append-backward --dist-decompose --dist-propagate-sharding=remarks=none \
// RUN:   --dist-resolve-partial --dist-comm-report -o /dev/null 2>&1 | FileCheck %s --check-prefix=COMM
// COMM: total: 43 collectives, 370758 bytes per device; all_reduce 35 (362566), all_gather 4 (4096), reduce_scatter 4 (4096)
//
// The work of each sp shard (dist-overlap-report), forward and backward:
// split contiguously, the second shard's queries see twice the keys of the
// first's (blocks of 8: 1 and 2 pairs); balanced, 5 blocks of 4 each.
// RUN: dist-opt %t/fused.mlir --dist-append-backward --dist-decompose --dist-propagate-sharding=remarks=none \
// RUN:   --dist-resolve-partial --dist-overlap-report -o /dev/null 2>&1 | FileCheck %s --check-prefix=WORK-CONTIGUOUS
// WORK-CONTIGUOUS: // work by query shard (2 shards; causal attention skips the keys after its queries): GFLOP 0.000115, 0.000229; max/min 2.00
// RUN: dist-opt %t/balanced.mlir --dist-append-backward --dist-decompose --dist-propagate-sharding=remarks=none \
// RUN:   --dist-resolve-partial --dist-overlap-report -o /dev/null 2>&1 | FileCheck %s --check-prefix=WORK-BALANCED
// WORK-BALANCED: // work by query shard (2 shards; causal attention skips the keys after its queries): GFLOP 0.000143, 0.000143; max/min 1.00
// Over sp = 4: contiguous 1, 2, 3 and 4 blocks of 4; balanced, 9 of 2 each.
// RUN: dist-gen llama --layers 2 --dp 1 --sp 4 --tp 2 --fused-attention --forward-only \
// RUN:   | dist-opt - --dist-append-backward --dist-decompose --dist-propagate-sharding=remarks=none \
// RUN:   --dist-resolve-partial --dist-overlap-report -o /dev/null 2>&1 | FileCheck %s --check-prefix=WORK4-CONTIGUOUS
// WORK4-CONTIGUOUS: // work by query shard (4 shards; causal attention skips the keys after its queries): GFLOP 0.000057, 0.000115, 0.000172, 0.000229; max/min 4.00
// RUN: dist-gen llama --layers 2 --dp 1 --sp 4 --tp 2 --balance --forward-only \
// RUN:   | dist-opt - --dist-append-backward --dist-decompose --dist-propagate-sharding=remarks=none \
// RUN:   --dist-resolve-partial --dist-overlap-report -o /dev/null 2>&1 | FileCheck %s --check-prefix=WORK4-BALANCED
// WORK4-BALANCED: // work by query shard (4 shards; causal attention skips the keys after its queries): GFLOP 0.000129, 0.000129, 0.000129, 0.000129; max/min 1.00
//
// The balanced step on dp x sp x tp = 2 x 2 x 2 and on sp x tp = 4 x 2 (8
// processes each), on the permuted inputs, equals the contiguous step on
// one device on the original ones, and the Llama step written in JAX.
// RUN: dist-run %t/contiguous.mlir --grad --entry llama_step -n 1 --input-dir %t/in --out %t/n1
// RUN: dist-run %t/balanced.mlir --grad --entry llama_step -n 8 --input-dir %t/in2 --out %t/sp2
// RUN: %python %S/../../scripts/npy.py compare %t/n1 %t/sp2 --per-tensor --tolerance 1e-5 | FileCheck %s --check-prefix=SAME
// RUN: dist-gen llama --layers 2 --dp 1 --sp 4 --tp 2 --balance --forward-only > %t/balanced4.mlir
// RUN: dist-run %t/balanced4.mlir --grad --entry llama_step -n 8 --input-dir %t/in4 --out %t/sp4
// RUN: %python %S/../../scripts/npy.py compare %t/n1 %t/sp4 --per-tensor --tolerance 1e-5 | FileCheck %s --check-prefix=SAME
// RUN: %jax_python %S/../../scripts/jax_llama.py grad %t/in %t/jax 2 8 4
// RUN: %python %S/../../scripts/npy.py compare %t/jax %t/sp2 --per-tensor --tolerance 1e-4 | FileCheck %s --check-prefix=SAME
// SAME: 22 results; max difference relative to each tensor's largest value
//
// With AdamW and ZeRO-2: the balanced step's new parameters and moments
// equal the contiguous step's.
// RUN: dist-gen llama --layers 1 --dp 2 --sp 2 --tp 2 --optimizer adamw --zero 2 > %t/adamw.mlir
// RUN: dist-gen llama --layers 1 --dp 2 --sp 2 --tp 2 --optimizer adamw --zero 2 --balance > %t/adamw-balanced.mlir
// RUN: %python %S/../../scripts/npy.py inputs %t/adamw.mlir llama_step %t/adamw-in --id-range 256 --scale 0.1 > /dev/null
// RUN: %python %S/../../scripts/npy.py balance %t/adamw-in %t/adamw-in2 2 > /dev/null
// RUN: dist-run %t/adamw.mlir --entry llama_step -n 1 --input-dir %t/adamw-in --out %t/adamw-n1
// RUN: dist-run %t/adamw-balanced.mlir --entry llama_step -n 8 --input-dir %t/adamw-in2 --out %t/adamw-sp2
// RUN: %python %S/../../scripts/npy.py compare %t/adamw-n1 %t/adamw-sp2 --per-tensor --tolerance 1e-5 | FileCheck %s --check-prefix=ADAMW
// ADAMW: 37 results; max difference relative to each tensor's largest value
//
// --balance needs sp, and a sequence of 2 x sp equal chunks.
// RUN: not dist-gen llama --layers 1 --dp 2 --tp 2 --balance 2>&1 | FileCheck %s --check-prefix=NO-SP
// NO-SP: error: the following required arguments were not provided:
// NO-SP: --sp <SP>
// RUN: not dist-gen llama --layers 1 --dp 1 --sp 4 --tp 1 --seq 12 --balance 2>&1 | FileCheck %s --check-prefix=CHUNKS
// CHUNKS: dist-gen: --seq 12 is not a multiple of 2 x sp = 8: --balance gives each sp shard two of 2 x sp equal chunks
