// The Llama-style block of Inputs/llama-block.mlir (RMSNorm, rotary
// embeddings by slice/neg/concat, grouped-query causal attention, SwiGLU, a
// vocabulary-split LM head and the cross-entropy), trained as written:
// dist-append-backward derives the gradient, and on the 2 x 2 mesh (dp x tp)
// the loss and the 12 gradients equal the -n 1 run.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../../scripts/npy.py inputs %S/Inputs/llama-block.mlir llama %t/in --id-range 64 > /dev/null
// RUN: dist-run %S/Inputs/llama-block.mlir --grad --entry llama -n 1 --input-dir %t/in --out %t/n1
// RUN: dist-run %S/Inputs/llama-block.mlir --grad --entry llama -n 4 --input-dir %t/in --out %t/n4
// RUN: %python %S/../../scripts/npy.py compare %t/n1 %t/n4 | FileCheck %s
// CHECK: 13 results; max difference against -n 1: {{(0\.00e\+00|[0-9.]+e-0[6-9])$}}
//
// Megatron's communication, derived: per block one all-reduce over tp after
// attention and one after the MLP (forward), one per RMSNorm input in the
// backward; the vocabulary-parallel loss reduces one value per position
// (max, sum, sum: 32 bytes each), never the 1024-float logits per device;
// every gradient is reduced over dp once.
// RUN: dist-opt %S/Inputs/llama-block.mlir --dist-append-backward --dist-decompose \
// RUN:   --dist-propagate-sharding=remarks=none --dist-resolve-partial --dist-comm-report -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=COMM
// COMM:      //  1  all_reduce  sum  "tp"  2x2 {0,1} {2,3}  f32  1024  %{{.*}}  dist.add
// COMM-NEXT: //  2  all_reduce  sum  "tp"  2x2 {0,1} {2,3}  f32  1024  %{{.*}}  dist.add
// COMM-NEXT: //  3  all_reduce  max  "tp"  2x2 {0,1} {2,3}  f32    32  %{{.*}}  dist.sub
// COMM-NEXT: //  4  all_reduce  sum  "tp"  2x2 {0,1} {2,3}  f32    32  %{{.*}}  dist.log
// COMM-NEXT: //  5  all_reduce  sum  "tp"  2x2 {0,1} {2,3}  f32    32  %{{.*}}  dist.sub
// COMM-NEXT: //  6  all_reduce  sum  "dp"  2x2 {0,2} {1,3}  f32     4  %{{.*}}  dist.scale
// COMM-NOT:  all_gather
// COMM:      // total: 21 collectives, 36324 bytes per device; all_reduce 21 (36324)
