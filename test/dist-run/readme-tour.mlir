// The tour's first example (docs/tour.md), as it prints it: a matmul partial
// over tp and its hand-written all_reduce. -n 1, the reference, runs it on
// one device (the all_reduce of a 1-device group is the identity); -n 8
// runs it on the 2 x 4 mesh; the two agree.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/readme_block.py %S/../../docs/tour.md 1 > %t/tour.mlir
// RUN: %python %S/../../scripts/npy.py inputs %t/tour.mlir f %t/in > /dev/null
// RUN: dist-run %t/tour.mlir --entry f -n 1 --input-dir %t/in --out %t/ref
// RUN: dist-run %t/tour.mlir --entry f -n 8 --input-dir %t/in --out %t/sharded --keep-exe %t/exe
// RUN: %python %S/../../scripts/npy.py compare %t/ref %t/sharded | FileCheck %s
// CHECK: 1 results; max difference against -n 1: {{(0\.00e\+00|[0-9.]+e-0[6-9])$}}
//
// The user's functions are renamed apart from the driver's; main reads
// every input and writes every result itself, in one block that LLVM does
// not optimize (a function for each cost 7 ms of compile time apiece).
// RUN: nm %t/exe | FileCheck %s --check-prefix=SYMBOLS
// RUN: nm %t/exe | FileCheck %s --check-prefix=NO-HELPERS
// SYMBOLS-DAG: T dist_run0_f
// SYMBOLS-DAG: T main
// NO-HELPERS-NOT: dist_run_{{input|output}}
//
// Any legal symbol name is an entry: `main` (which the generated driver's
// own name must not shadow), a quoted name, a C library function's.
// RUN: sed -e 's/@f(/@main(/' %t/tour.mlir > %t/main.mlir
// RUN: dist-run %t/main.mlir --entry main -n 1 --input-dir %t/in --out %t/main1
// RUN: dist-run %t/main.mlir --entry main -n 8 --input-dir %t/in --out %t/main8
// RUN: %python %S/../../scripts/npy.py compare %t/ref %t/main1 | FileCheck %s
// RUN: %python %S/../../scripts/npy.py compare %t/ref %t/main8 | FileCheck %s
// RUN: sed -e 's/@f(/@"my step"(/' %t/tour.mlir > %t/quoted.mlir
// RUN: dist-run %t/quoted.mlir --entry "my step" -n 8 --input-dir %t/in --out %t/quoted
// RUN: %python %S/../../scripts/npy.py compare %t/ref %t/quoted | FileCheck %s
// RUN: sed -e 's/@f(/@malloc(/' %t/tour.mlir > %t/malloc.mlir
// RUN: dist-run %t/malloc.mlir --entry malloc -n 1 --input-dir %t/in --out %t/malloc
// RUN: %python %S/../../scripts/npy.py compare %t/ref %t/malloc | FileCheck %s
//
// An async all_reduce and an all_gather, hand-written in the global view,
// are the identity at -n 1 too.
// RUN: %python %S/../../scripts/npy.py inputs %S/Inputs/collectives.mlir f %t/coll-in > /dev/null
// RUN: dist-run %S/Inputs/collectives.mlir --entry f -n 1 --input-dir %t/coll-in --out %t/coll1
// RUN: dist-run %S/Inputs/collectives.mlir --entry f -n 4 --input-dir %t/coll-in --out %t/coll4
// RUN: %python %S/../../scripts/npy.py compare %t/coll1 %t/coll4 | FileCheck %s --check-prefix=COLL
// COLL: 2 results; max difference against -n 1: {{(0\.00e\+00|[0-9.]+e-0[6-9])$}}
//
// A per-device program cannot be the reference: -n 1 says why, at the op.
// RUN: %python %S/../../scripts/npy.py inputs %S/Inputs/per-device.mlir f %t/local > /dev/null
// RUN: not dist-run %S/Inputs/per-device.mlir --entry f -n 1 --input-dir %t/local --out %t/x 2>&1 | FileCheck %s --check-prefix=LOCAL
// LOCAL: per-device.mlir:5:8: error: 'dist.all_gather' changes tensor<8x4xf32> to tensor<8x16xf32>: it belongs to a per-device program
// LOCAL: dist-run: func.func(dist-elide-collectives) failed (its diagnostics are above)
//
// Calls follow their callees when the functions are renamed, even where a
// function already has the name another one would get.
// RUN: %python %S/../../scripts/npy.py inputs %S/Inputs/calls.mlir f %t/calls-in > /dev/null
// RUN: dist-run %S/Inputs/calls.mlir --entry f --input-dir %t/calls-in --out %t/calls
// RUN: %python -c "import sys; sys.path.insert(0, '%S/../../scripts'); import npy; x = npy.read('%t/calls-in/x.npy'); y = npy.read('%t/calls/result0.npy'); print(all(abs(b - max(a, 0.0) - 2 * a) < 1e-6 for a, b in zip(x, y)))" | FileCheck %s --check-prefix=CALLS
// CALLS: True
// A declaration keeps its name, and one the step calls that clashes with
// the driver's is an error that says so (functions the step does not call
// are not compiled).
// RUN: %python %S/../../scripts/npy.py inputs %S/Inputs/declares-main.mlir f %t/declares-in > /dev/null
// RUN: not dist-run %S/Inputs/declares-main.mlir --entry f --input-dir %t/declares-in --out %t/x 2>&1 | FileCheck %s --check-prefix=DECLARES
// DECLARES: dist-run: the program declares @main, which dist-run's driver defines or declares itself: rename the declaration

