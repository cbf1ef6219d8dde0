// Every collective kind, sync and async (a coalesced avg), coalesced
// reduce_scatters (sync along dim 1, started along dim 0), and all_slice,
// lowered to runtime calls and run on 4 MPI processes (a 2 x 2 mesh); each
// rank's results are checked against the collectives' definitions.
// RUN: %python %S/Inputs/check_runtime.py dist-opt %mlir_runner %dist_runtime_libs %S/Inputs/collectives-spmd.mlir | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: all collectives match
