// JAX's own backward, exported with the program (scripts/jax-export.py
// --grad: jax.value_and_grad of examples/jax/stop_gradient.py over w1 and
// w2, whose loss pulls the prediction towards a target held fixed by
// lax.stop_gradient), imported by --convert-stablehlo-to-dist as a whole
// training step and run by dist-run without --grad: on one device and on
// the 2 x 2 mesh it gives jax.value_and_grad's loss and gradients (float64
// JAX on the same seeded inputs, saved under Inputs/stop-gradient) within
// 1e-4; measured 2.4e-7.
// RUN: rm -rf %t && mkdir -p %t
// RUN: dist-opt --allow-unregistered-dialect %S/../Conversion/Inputs/stablehlo/stop_gradient_grad.mlir --convert-stablehlo-to-dist -o %t/step.mlir
// RUN: FileCheck %s --check-prefix=STEP --input-file %t/step.mlir
// STEP: func.func @main({{.*}}) -> (tensor<f32> {{.*}}, tensor<16x32xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>{{.*}}}, tensor<32x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>{{.*}}})
// RUN: %python %S/../../scripts/npy.py inputs %t/step.mlir main %t/in > /dev/null
// RUN: dist-run %t/step.mlir --entry main -n 1 --input-dir %t/in --out %t/n1
// RUN: dist-run %t/step.mlir --entry main -n 4 --input-dir %t/in --out %t/n4
// RUN: %python %S/../../scripts/npy.py compare %S/Inputs/stop-gradient %t/n1 --tolerance 1e-4 | FileCheck %s
// RUN: %python %S/../../scripts/npy.py compare %S/Inputs/stop-gradient %t/n4 --tolerance 1e-4 | FileCheck %s
// CHECK: 3 results; max difference against -n 1: {{[0-9.]+e-(0[5-9]|[1-9][0-9])$}}
//
// The forward-only export of the same function has no stop (JAX applies
// it while differentiating), so the gradients dist-append-backward derives
// from it are another function's: 0.17 off. That is what --grad is for.
// RUN: dist-opt --allow-unregistered-dialect %S/../Conversion/Inputs/stablehlo/stop_gradient.mlir --convert-stablehlo-to-dist="requires-grad=1,2" -o %t/forward.mlir 2>/dev/null
// RUN: dist-run %t/forward.mlir --entry main --grad -n 1 --input-dir %t/in --out %t/forward
// RUN: not %python %S/../../scripts/npy.py compare %S/Inputs/stop-gradient %t/forward --tolerance 1e-4 | FileCheck %s --check-prefix=FORWARD
// FORWARD: 3 results; max difference against -n 1: {{[0-9.]+e-0[1-2]$}}
