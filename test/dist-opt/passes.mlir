// Upstream passes run by flag and by pipeline string.
// RUN: dist-opt %s --canonicalize --cse | FileCheck %s
// RUN: dist-opt %s --pass-pipeline='builtin.module(func.func(canonicalize),cse)' | FileCheck %s
// Pass options are passed through: a bad value is a pipeline error.
// RUN: not dist-opt %s --canonicalize="max-iterations=x" 2>&1 | FileCheck %s --check-prefix=OPTION
// An unknown pass is an error, as flag and in a pipeline.
// RUN: not dist-opt %s --no-such-pass 2>&1 | FileCheck %s --check-prefix=FLAG
// RUN: not dist-opt %s --pass-pipeline='builtin.module(no-such-pass)' 2>&1 | FileCheck %s --check-prefix=PIPELINE
// Flags and a pipeline string do not mix.
// RUN: not dist-opt %s --cse --pass-pipeline='builtin.module(cse)' 2>&1 | FileCheck %s --check-prefix=MIX
// IR printing and timing go to stderr.
// RUN: dist-opt %s --cse --mlir-print-ir-after-all -o /dev/null 2>&1 | FileCheck %s --check-prefix=PRINT
// RUN: dist-opt %s --cse --mlir-timing -o /dev/null 2>&1 | FileCheck %s --check-prefix=TIMING

// CSE merges the two identical relus.
// CHECK-LABEL: func.func @twice
// CHECK: %[[R:.*]] = dist.relu
// CHECK-NOT: dist.relu
// CHECK: return %[[R]], %[[R]]
// OPTION: dist-opt: invalid pass pipeline: failed to add `canonicalize` with options `max-iterations=x`
// FLAG: dist-opt: unknown command line argument '--no-such-pass'
// PIPELINE: 'no-such-pass' does not refer to a registered pass or pass pipeline
// MIX: '--pass-pipeline' cannot be combined with individual pass flags
// PRINT: IR Dump After CSE (cse)
// TIMING: Execution time report
func.func @twice(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = dist.relu %x : (tensor<4xf32>) -> tensor<4xf32>
  %1 = dist.relu %x : (tensor<4xf32>) -> tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}
