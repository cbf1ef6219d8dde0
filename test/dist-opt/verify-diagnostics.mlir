// An expected error that is produced passes.
// RUN: dist-opt %s --split-input-file --verify-diagnostics
// Without the flag the same input is an error, reported with its location,
// and the line numbers count from the top of the file, not of the chunk.
// RUN: not dist-opt %s --split-input-file 2>&1 | FileCheck %s
// CHECK: verify-diagnostics.mlir:11:8: error: 'dist.relu' op requires the same type for all operands and results
// CHECK: verify-diagnostics.mlir:18:8: error: 'dist.relu' op requires the same type for all operands and results

func.func @wrong_type(%x: tensor<4xf32>) {
  // expected-error@below {{requires the same type}}
  %0 = dist.relu %x : (tensor<4xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @designators(%x: tensor<4xf32>) {
  %0 = dist.relu %x : (tensor<4xf32>) -> tensor<8xf32>
  // expected-error@-1 {{requires the same type}}
  return
}
