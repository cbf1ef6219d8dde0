// Input from stdin, output to a file with -o.
// RUN: dist-opt < %s -o %t && FileCheck %s < %t
// RUN: dist-opt - -o=%t2 < %s && FileCheck %s < %t2
// Diagnostics from stdin name <stdin>.
// RUN: echo 'func.func @f( {' | not dist-opt 2>&1 | FileCheck %s --check-prefix=STDIN
// A missing input file is a clear error.
// RUN: not dist-opt %t.does-not-exist 2>&1 | FileCheck %s --check-prefix=MISSING
// Output is deterministic.
// RUN: dist-opt %s > %t3 && dist-opt %s | diff %t3 -

// CHECK: dist.mesh @mesh = <["x"=2]>
// STDIN: <stdin>:1:14: error: expected non-function type
// MISSING: dist-opt: could not open input file '{{.*}}does-not-exist': No such file or directory
dist.mesh @mesh = <["x"=2]>
