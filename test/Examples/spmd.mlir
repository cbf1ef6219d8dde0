// The compiler's proof: each training step, propagated, resolved,
// partitioned and lowered, run on N MPI processes with the dist runtime,
// computes what the unpartitioned step computes on one process: the loss
// and every gradient, on every rank, to 1e-5 relative (f32). A missing or
// extra collective or a wrong scale changes some result far beyond that.
//
// Megatron MLP on dp=2 x tp=2, plain, then with gradient buckets, split
// matmul gradients and async overlapped collectives.
// RUN: %python %S/Inputs/check_spmd.py dist-opt %mlir_runner %dist_runtime_libs %S/../../examples/megatron-mlp.mlir step 4 --dist-resolve-partial | FileCheck %s
// RUN: %python %S/Inputs/check_spmd.py dist-opt %mlir_runner %dist_runtime_libs %S/../../examples/megatron-mlp.mlir step 4 --dist-resolve-partial=bucket-mb=1 --dist-split-matmul-grad --dist-overlap-collectives | FileCheck %s
//
// A GPT block (vocabulary-parallel embedding, attention, layer norms, MLP,
// loss and every gradient) on dp=2 x tp=2 with overlap; tensor parallel
// alone on 2 processes; data parallel alone on 4; sequence parallel
// (sp=2 x tp=2); all three on 8 processes.
// RUN: dist-gen gpt --layers 1 --dp 2 --tp 2 > %t.dptp.mlir
// RUN: env ID_RANGE=256 %python %S/Inputs/check_spmd.py dist-opt %mlir_runner %dist_runtime_libs %t.dptp.mlir gpt_step 4 --dist-resolve-partial --dist-split-matmul-grad --dist-overlap-collectives | FileCheck %s
// RUN: dist-gen gpt --layers 1 --dp 1 --tp 2 > %t.tp.mlir
// RUN: env ID_RANGE=256 %python %S/Inputs/check_spmd.py dist-opt %mlir_runner %dist_runtime_libs %t.tp.mlir gpt_step 2 --dist-resolve-partial | FileCheck %s
// RUN: dist-gen gpt --layers 1 --dp 4 --tp 1 > %t.dp.mlir
// RUN: env ID_RANGE=128 %python %S/Inputs/check_spmd.py dist-opt %mlir_runner %dist_runtime_libs %t.dp.mlir gpt_step 4 --dist-resolve-partial=bucket-mb=1 | FileCheck %s
// RUN: dist-gen gpt --layers 1 --dp 1 --tp 2 --sp 2 > %t.sp.mlir
// RUN: env ID_RANGE=256 %python %S/Inputs/check_spmd.py dist-opt %mlir_runner %dist_runtime_libs %t.sp.mlir gpt_step 4 --dist-resolve-partial | FileCheck %s
// Three axes (dp=2 x sp=2 x tp=2) on 8 processes, oversubscribed.
// RUN: dist-gen gpt --layers 1 --dp 2 --tp 2 --sp 2 > %t.dpsptp.mlir
// RUN: env ID_RANGE=256 %python %S/Inputs/check_spmd.py dist-opt %mlir_runner %dist_runtime_libs %t.dpsptp.mlir gpt_step 8 --dist-resolve-partial | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: max relative error
// CHECK-NEXT: match
