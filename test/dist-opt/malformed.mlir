// Malformed input is a diagnostic and a non-zero exit, never a crash.
// RUN: not dist-opt %s --split-input-file 2>&1 | FileCheck %s
// RUN: dist-opt %s --split-input-file --verify-diagnostics

// CHECK: malformed.mlir:[[# @LINE + 2]]:20: error:
// expected-error@+1 {{expected '['}}
dist.mesh @mesh = <"x"=2>

// -----

// CHECK: malformed.mlir:[[# @LINE + 3]]:58: error:
func.func @f(
  // expected-error@+1 {{expected '{'}}
  %x: tensor<4xf32> {dist.sharding = #dist.sharding<@m, ["x"]>}) {
  return
}

// -----

// CHECK: malformed.mlir:[[# @LINE + 2]]:1: error:
// expected-error@+1 {{custom op 'dist.nonsense' is unknown}}
dist.nonsense

// -----

// CHECK: malformed.mlir:[[# @LINE + 2]]:34: error:
// expected-error@+1 {{expected operation name in quotes}}
func.func @g(%x: tensor<4xf32>) {{{
