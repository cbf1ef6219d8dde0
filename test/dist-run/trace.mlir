// dist-run --trace: every rank's measured spans of each step call as a
// Chrome trace (Perfetto opens it): the collectives, the waits for async
// ones and the compute between them tile each step; an async collective is
// in flight from its start to its wait. Inputs/check_trace.py checks the
// format, one process per rank and the nesting.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../../scripts/npy.py inputs %S/../../examples/megatron-mlp.mlir step %t/in > /dev/null
// RUN: dist-run %S/../../examples/megatron-mlp.mlir --entry step -n 4 --input-dir %t/in --out %t/out --repeat 2 --trace %t/t4.json 2>&1 | FileCheck %s --check-prefix=LINE
// RUN: %python %S/Inputs/check_trace.py %t/t4.json 4 | FileCheck %s --check-prefix=SYNC
// RUN: dist-run %S/../../examples/megatron-mlp.mlir --entry step -n 4 --input-dir %t/in --out %t/out --overlap --trace %t/overlap.json 2>&1 | FileCheck %s --check-prefix=LINE1
// RUN: %python %S/Inputs/check_trace.py %t/overlap.json 4 | FileCheck %s --check-prefix=ASYNC
// One process: every collective is the identity, the step is compute.
// RUN: dist-run %S/../../examples/megatron-mlp.mlir --entry step -n 1 --input-dir %t/in --out %t/out --trace %t/t1.json 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: %python %S/Inputs/check_trace.py %t/t1.json 1 | FileCheck %s --check-prefix=ONE-SPANS

// LINE: dist-run: trace {{.*}}t4.json: 4 ranks, 2 steps each; compute {{[0-9.]+}}% and communication {{[0-9.]+}}% of the step time (mean over ranks)
// SYNC:      4 ranks, 8 step spans, 0 async collectives
// SYNC-NEXT: spans nest; each step is tiled by compute and communication
// SYNC-NEXT: collectives: all_gather all_reduce
// LINE1: dist-run: trace {{.*}}overlap.json: 4 ranks, 1 steps each;
// ASYNC:      4 ranks, 4 step spans, {{[1-9][0-9]*}} async collectives
// ASYNC-NEXT: spans nest; each step is tiled by compute and communication
// ONE: dist-run: trace {{.*}}t1.json: 1 ranks, 1 steps each; compute 100.0% and communication 0.0% of the step time (mean over ranks)
// ONE-SPANS: 1 ranks, 1 step spans, 0 async collectives
