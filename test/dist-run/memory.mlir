// A step that cannot fit is refused before it runs, with its per-device
// peak (the memory report's), the op where the peak falls and this
// machine's memory; an allocation that fails at run time ends the job with
// a message and exit code 1, not a signal.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../../scripts/npy.py inputs %S/Inputs/huge.mlir f %t/huge > /dev/null
// RUN: not dist-run %S/Inputs/huge.mlir --entry f --input-dir %t/huge --out %t/x 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: dist-run: @f needs 4.00 TiB per device at its peak (activations 4.00 TiB at dist.matmul ({{.*}}huge.mlir:3:8)), and {{this machine has|this job's cgroup allows}} {{[0-9.]+}} {{[GT]}}iB of memory: refused before running
//
// At -n 1 the program runs whole on one device, whatever its shardings say
// of the devices of a partitioned run (64 MiB each here).
// RUN: not dist-run %S/Inputs/huge-sharded.mlir --entry f --input-dir %t/huge --out %t/x 2>&1 | FileCheck %s --check-prefix=HUGE-SHARDED
// HUGE-SHARDED: dist-run: @f needs 4.00 TiB per device at its peak (activations 4.00 TiB at dist.matmul ({{.*}}huge-sharded.mlir:5:8))
//
// --no-memory-check runs it anyway, and the allocation fails at run time:
// a message and exit code 1, where malloc's null result was written through
// (a segmentation fault).
// RUN: not dist-run %S/Inputs/huge.mlir --entry f --input-dir %t/huge --out %t/x --no-memory-check 2>&1 | FileCheck %s --check-prefix=RUNTIME
// RUNTIME: dist-runtime: out of memory: a buffer of {{[0-9]+}} bytes (4096.00 GiB) cannot be allocated
//
// Under a 1 GB address-space limit, the 2 GiB buffer cannot be allocated.
// RUN: %python %S/../../scripts/npy.py inputs %S/Inputs/two-gib.mlir f %t/two > /dev/null
// RUN: ulimit -v 1000000
// RUN: not dist-run %S/Inputs/two-gib.mlir --entry f --input-dir %t/two --out %t/y 2>&1 | FileCheck %s --check-prefix=ALLOC
// ALLOC: dist-runtime: out of memory: a buffer of {{[0-9]+}} bytes (2.00 GiB) cannot be allocated
