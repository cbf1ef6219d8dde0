// RUN: dist-opt %s --allow-unregistered-dialect --split-input-file --verify-diagnostics --convert-stablehlo-to-dist="requires-grad=0,2"
// RUN: not dist-opt %s --allow-unregistered-dialect --convert-stablehlo-to-dist="requires-grad=x1" 2>&1 | FileCheck %s
// The requires-grad option: indices of arguments the imported function has,
// and a function to import.

// CHECK: requires-grad must be indices separated by commas, not 'x1'

// expected-error @below {{requires-grad names argument 2, but @two has 2 arguments}}
func.func @two(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "stablehlo.add"(%x, %y) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// expected-error @below {{requires-grad names arguments, but the module has no StableHLO function to import}}
module {
  func.func @already_dist(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = dist.tanh %x : (tensor<4xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
