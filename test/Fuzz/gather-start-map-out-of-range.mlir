// Found by dist-fuzz (seed 5, input 2524 of the StableHLO exports, the
// first campaign with the import stage): a gather whose start_index_map
// names dim 11 of a 2-D operand (a mutated Flax export, which StableHLO's
// verifier would refuse). The importer's slice-at-constant-indices pattern
// indexed the operand's shape with it and panicked; such a gather is now
// no pattern, and refused as one, at the op.
// RUN: dist-fuzz --replay %s | FileCheck %s
// CHECK: rejected by the import stage
// RUN: not dist-opt --allow-unregistered-dialect %s --convert-stablehlo-to-dist 2>&1 | FileCheck %s --check-prefix=ERROR
// ERROR: gather-start-map-out-of-range.mlir:[[@LINE+4]]:8: error: 'stablehlo.gather' is supported for whole rows
"func.func"() <{function_type = (tensor<8x1xf32>) -> tensor<8xf32>, sym_name = "main"}> ({
^bb0(%x: tensor<8x1xf32>):
  %i = "stablehlo.constant"() <{value = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %0 = "stablehlo.gather"(%x, %i) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [1], start_index_map = [11]>, indices_are_sorted = false, slice_sizes = array<i64: 8, 1>}> : (tensor<8x1xf32>, tensor<1xi32>) -> tensor<8xf32>
  "func.return"(%0) : (tensor<8xf32>) -> ()
}) : () -> ()
