// A diagnostic names its place and says what is wrong, in one line: the op
// it is about is printed after it only when asked, with mlir-opt's flag (a
// verifier error on a function of a large step printed 74 KB before).
// RUN: not dist-opt %s 2>&1 | FileCheck %s --implicit-check-not="see current operation"
// RUN: not dist-opt %s --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --implicit-check-not="see current operation"
// RUN: not dist-opt %s --mlir-print-op-on-diagnostic 2>&1 | FileCheck %s --check-prefix=PRINT
// RUN: not dist-opt %s --mlir-print-op-on-diagnostic=true 2>&1 | FileCheck %s --check-prefix=PRINT
// RUN: not dist-opt %s --mlir-print-op-on-diagnostic=maybe 2>&1 | FileCheck %s --check-prefix=BAD
// The same in dist-run.
// RUN: not dist-run %s --entry f --out %t 2>&1 | FileCheck %s --implicit-check-not="see current operation"
// RUN: not dist-run %s --entry f --out %t --mlir-print-op-on-diagnostic 2>&1 | FileCheck %s --check-prefix=PRINT

// CHECK: print-op-on-diagnostic.mlir:[[# @LINE + 6]]:8: error: 'dist.matmul' op contraction dims differ: x has k = 16, y has k = 8
// PRINT: print-op-on-diagnostic.mlir:[[# @LINE + 5]]:8: error: 'dist.matmul' op
// PRINT-NEXT: note: see current operation: %1 = "dist.matmul"
// BAD: dist-opt: option '-mlir-print-op-on-diagnostic' takes true or false, not 'maybe'
func.func @f(%x: tensor<8x16xf32>, %w: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %r = dist.relu %x : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %y = dist.matmul %r, %w : (tensor<8x16xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  return %y : tensor<8x4xf32>
}
