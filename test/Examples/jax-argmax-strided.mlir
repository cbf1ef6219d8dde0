// What a JAX user writes beyond one layer's ops (examples/jax/rotary_argmax.py):
// GPT-J's rotary embedding takes the even and odd features by strided
// slices (x[..., ::2], x[..., 1::2]), JAX's backward of those pads with
// interior padding, and the loss counts the examples jnp.argmax gets
// wrong twice. The importer writes each as a few plain ops (docs/
// stablehlo-import.md), so the forward export differentiated by dist-run
// --grad and JAX's own backward exported with --grad both give
// jax.value_and_grad's loss and gradients (float64 JAX on the same seeded
// inputs, 4 of the 16 examples right, saved under Inputs/rotary-argmax)
// within 1e-4, on one device and on the 2 x 2 mesh; measured 9e-8.
// RUN: rm -rf %t && mkdir -p %t
// RUN: dist-opt --allow-unregistered-dialect %S/../Conversion/Inputs/stablehlo/rotary_argmax.mlir --convert-stablehlo-to-dist="requires-grad=1,2" -o %t/forward.mlir 2>/dev/null
// RUN: dist-opt --allow-unregistered-dialect %S/../Conversion/Inputs/stablehlo/rotary_argmax_grad.mlir --convert-stablehlo-to-dist -o %t/step.mlir
// RUN: %python %S/../../scripts/npy.py inputs %t/forward.mlir main %t/in --id-range 4 > /dev/null
// RUN: dist-run %t/forward.mlir --entry main --grad -n 1 --input-dir %t/in --out %t/forward-n1
// RUN: dist-run %t/forward.mlir --entry main --grad -n 4 --input-dir %t/in --out %t/forward-n4
// RUN: dist-run %t/step.mlir --entry main -n 1 --input-dir %t/in --out %t/step-n1
// RUN: dist-run %t/step.mlir --entry main -n 4 --input-dir %t/in --out %t/step-n4
// RUN: %python %S/../../scripts/npy.py compare %S/Inputs/rotary-argmax %t/forward-n1 --tolerance 1e-4 | FileCheck %s
// RUN: %python %S/../../scripts/npy.py compare %S/Inputs/rotary-argmax %t/forward-n4 --tolerance 1e-4 | FileCheck %s
// RUN: %python %S/../../scripts/npy.py compare %S/Inputs/rotary-argmax %t/step-n1 --tolerance 1e-4 | FileCheck %s
// RUN: %python %S/../../scripts/npy.py compare %S/Inputs/rotary-argmax %t/step-n4 --tolerance 1e-4 | FileCheck %s
// CHECK: 3 results; max difference against -n 1: {{[0-9.]+e-(0[5-9]|[1-9][0-9])$}}
//
// The argmax is a maximum, the first index where it is reached and a
// minimum of those; the interior padding a reshape, a concatenation with
// the fill and a slice.
// RUN: FileCheck %s --check-prefix=ARGMAX --input-file %t/forward.mlir
// ARGMAX:      %[[MAX:.*]] = dist.reduce_max %{{.*}} {dims = array<i64: 1>} : (tensor<16x4xf32>) -> tensor<16xf32>
// ARGMAX:      %[[FIRST:.*]] = dist.reduce_min %{{.*}} {dims = array<i64: 1>} : (tensor<16x4xi32>) -> tensor<16xi32>
// ARGMAX-NEXT: dist.compare %[[FIRST]], %arg3 {direction = "ne"}
// RUN: FileCheck %s --check-prefix=SPREAD --input-file %t/step.mlir
// SPREAD: dist.concat %{{.*}}, %{{.*}} {dim = 2 : i64} : (tensor<16x16x1xf32>, tensor<16x16x1xf32>) -> tensor<16x16x2xf32>
