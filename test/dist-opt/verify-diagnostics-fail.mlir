// A diagnostic nobody expected and an expectation nobody met both fail.
// RUN: not dist-opt %s --split-input-file --verify-diagnostics 2>&1 | FileCheck %s

// CHECK: verify-diagnostics-fail.mlir:[[# @LINE + 3]]:8: error: 'dist.relu' op requires the same type
// CHECK-NEXT: ^ unexpected error
func.func @unexpected(%x: tensor<4xf32>) {
  %0 = dist.relu %x : (tensor<4xf32>) -> tensor<8xf32>
  return
}

// -----

// CHECK: verify-diagnostics-fail.mlir:[[# @LINE + 2]]:6: error: expected error "never emitted" was not produced
func.func @unmet(%x: tensor<4xf32>) {
  // expected-error@+1 {{never emitted}}
  %0 = dist.relu %x : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// A wrong severity does not match.
// CHECK: unexpected error
// CHECK: expected warning "requires the same type" was not produced
func.func @severity(%x: tensor<4xf32>) {
  // expected-warning@+1 {{requires the same type}}
  %0 = dist.relu %x : (tensor<4xf32>) -> tensor<8xf32>
  return
}

// -----

// A malformed expectation is reported at its location.
// CHECK: verify-diagnostics-fail.mlir:[[# @LINE + 2]]:6: error: invalid line designator '@sideways'
func.func @malformed() {
  // expected-error@sideways {{x}}
  return
}

// -----

// A diagnostic located in another file does not meet an expectation of this
// one, and keeps its own line: line 9 of elsewhere.mlir was shifted by the
// chunk's 40 lines onto the expected line 49 and matched.
// CHECK: elsewhere.mlir:9:8: error: 'dist.relu' op requires the same type
// CHECK: verify-diagnostics-fail.mlir:[[# @LINE + 2]]:6: error: expected error "requires the same type" was not produced
func.func @other_file(%x: tensor<4xf32>) {
  // expected-error@+1 {{requires the same type}}
  %0 = dist.relu %x : (tensor<4xf32>) -> tensor<8xf32> loc("elsewhere.mlir":9:8)
  return
}
