// RUN: dist-opt %s --verify-diagnostics --dist-outline-layers
// dist-outline-layers reads a function as one list of ops.

// expected-error @below {{dist-outline-layers takes single-block functions}}
func.func @branches(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = dist.tanh %x : (tensor<4xf32>) -> tensor<4xf32>
  cf.br ^next
^next:
  return %0 : tensor<4xf32>
}
