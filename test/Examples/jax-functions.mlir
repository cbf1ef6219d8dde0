// The elementwise functions JAX writes as chlo ops or StableHLO ops that
// dist writes with its own (examples/jax/functions.py: tan, sinh, cosh,
// arctanh, arcsinh, arccosh, arcsin, arccos, arctan, arctan2, cbrt,
// lax.round away from zero, isinf, isposinf, isneginf), weighted into one
// loss: dist-run --grad gives jax.value_and_grad's loss and gradients
// (float64 JAX on the same seeded inputs, saved under Inputs/functions)
// within 1e-4 on one device and on two, over random inputs, arcsinh of
// inputs scaled by 1e20 (the ln(2a) branch), and atan2's and rounding's
// special points (both zero, the axes, ties); measured 2.4e-7.
// RUN: rm -rf %t && mkdir -p %t
// RUN: dist-opt --allow-unregistered-dialect %S/../Conversion/Inputs/stablehlo/functions.mlir --convert-stablehlo-to-dist="requires-grad=0,1" -o %t/functions.mlir 2>/dev/null
// RUN: %python %S/../../scripts/npy.py inputs %t/functions.mlir main %t/in > /dev/null
// RUN: dist-run %t/functions.mlir --entry main --grad -n 1 --input-dir %t/in --out %t/n1
// RUN: dist-run %t/functions.mlir --entry main --grad -n 2 --input-dir %t/in --out %t/n2
// RUN: %python %S/../../scripts/npy.py compare %S/Inputs/functions %t/n1 --tolerance 1e-4 | FileCheck %s
// RUN: %python %S/../../scripts/npy.py compare %S/Inputs/functions %t/n2 --tolerance 1e-4 | FileCheck %s
// CHECK: 3 results; max difference against -n 1: {{[0-9.]+e-(0[5-9]|[1-9][0-9])$}}
//
// Only arctan is an op of dist's own; arcsin, arccos and arctan2 are
// written with it.
// RUN: FileCheck %s --check-prefix=OPS --input-file %t/functions.mlir
// OPS-COUNT-5: dist.atan %
// OPS-NOT: chlo.
// OPS-NOT: stablehlo.
