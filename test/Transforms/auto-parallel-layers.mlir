// Identical layers priced once: a forward program's run of more than 5
// identical layers is compiled with 2 and 3 of them for each plan, and
// each figure extrapolated to the run's depth. On dist-gen's 6-layer Llama
// the extrapolated report and the written program equal those of
// compiling every plan at full depth (extrapolate=false), digit for
// digit: each layer adds the same time, communication and memory.
// RUN: dist-gen llama --layers 6 --unsharded --forward-only --fused-attention --batch 8 > %t.mlir
// RUN: dist-opt %t.mlir --dist-auto-parallel=devices=8 -o %t.layers.mlir 2> %t.layers.txt
// RUN: dist-opt %t.mlir --dist-auto-parallel="devices=8 extrapolate=false" -o %t.full.mlir 2> %t.full.txt
// RUN: diff %t.layers.mlir %t.full.mlir
// RUN: grep -v "identical layers" %t.layers.txt | diff - %t.full.txt
// RUN: FileCheck %s < %t.layers.txt
// RUN: FileCheck %s --check-prefix=FULL < %t.full.txt
// CHECK:      // a step: {{.*}}; tensor-parallel arguments: vocabulary #4; column #6 #7 #8 #11 #12 #15 #16 #17 #20 #21 #24 #25 #26 #29 #30 #33 #34 #35 #38 #39 #42 #43 #44 #47 #48 #51 #52 #53 #56 #57 #60; row #9 #13 #18 #22 #27 #31 #36 #40 #45 #49 #54 #58
// CHECK-NEXT: // 6 identical layers of 36 ops: each plan compiled with 2 and 3 of them, extrapolated
// CHECK-NEXT: //  rank  dp  tp  zero  recompute
// FULL-NOT:   identical layers
// The bf16 step casts every parameter before the layers: the casts only
// dropped layers read are dropped with them, and their parameters take
// the layout of the last kept layer's, through the casts.
// RUN: dist-gen llama --layers 6 --unsharded --forward-only --fused-attention --batch 8 --dtype bf16 > %t.bf16.mlir
// RUN: dist-opt %t.bf16.mlir --dist-auto-parallel=devices=8 -o %t.bf16-layers.mlir 2> %t.bf16-layers.txt
// RUN: dist-opt %t.bf16.mlir --dist-auto-parallel="devices=8 extrapolate=false" -o %t.bf16-full.mlir 2> %t.bf16-full.txt
// RUN: diff %t.bf16-layers.mlir %t.bf16-full.mlir
// RUN: grep -v "identical layers" %t.bf16-layers.txt | diff - %t.bf16-full.txt
// RUN: FileCheck %s < %t.bf16-layers.txt
// A training step (its backward and updates written out) is compiled at
// full depth: its forward layers alone cannot be dropped.
// RUN: dist-gen llama --layers 4 --unsharded --optimizer sgd --batch 8 | dist-opt - --dist-auto-parallel=devices=2 -o /dev/null 2>&1 | FileCheck %s --check-prefix=STEP
// STEP-NOT: identical layers
// STEP: // chosen:
