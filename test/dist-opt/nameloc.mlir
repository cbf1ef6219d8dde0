// --mlir-use-nameloc-as-prefix (mlir-opt's flag): values with a name
// location print under that name, others as before.
// RUN: dist-opt %s --mlir-use-nameloc-as-prefix | FileCheck %s
// RUN: dist-opt %s | FileCheck %s --check-prefix=PLAIN

// CHECK-LABEL: func.func @f
// CHECK-SAME:    (%ids: tensor<4xf32>, %w: tensor<4xf32>)
// CHECK-NEXT:    %0 = dist.add %ids, %w
// PLAIN-LABEL: func.func @f
// PLAIN-SAME:    (%arg0: tensor<4xf32>, %arg1: tensor<4xf32>)
func.func @f(%ids: tensor<4xf32> loc("ids"), %w: tensor<4xf32> loc("w")) -> tensor<4xf32> {
  %0 = dist.add %ids, %w : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
