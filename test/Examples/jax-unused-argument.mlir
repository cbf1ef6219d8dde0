// REQUIRES: jax
// A JAX function with an argument it does not read keeps it in the export
// (scripts/jax-export.py lowers with keep_unused=True), so requires-grad=2,3
// names w1 and w2, and the gradients are jax.value_and_grad's with respect
// to arguments 2 and 3 (JAX's default drops `step`: index 2 would then be
// w2 and index 3 nothing). The import says once what a forward-only export
// leaves out of the gradients.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %jax_python %S/../../scripts/jax-export.py %S/Inputs/unused_arg.py --mesh dp=2,tp=2 --out %t/unused.stablehlo.mlir
// RUN: dist-opt --allow-unregistered-dialect %t/unused.stablehlo.mlir --convert-stablehlo-to-dist="requires-grad=2,3" -o %t/unused.mlir 2> %t/remarks
// RUN: FileCheck %s --check-prefix=REMARK --input-file %t/remarks
// REMARK: remark: the gradients of this import are those of its forward ops: a forward-only export drops lax.stop_gradient, jax.custom_vjp and remat policies (JAX lowers them away; so does torch.export a tensor's detach
// RUN: FileCheck %s --check-prefix=SIGNATURE --input-file %t/unused.mlir
// SIGNATURE: func.func @main(%arg0: tensor<8x16xf32> {{.*}}, %arg1: tensor<f32> {{.*}}, %arg2: tensor<16x32xf32> {dist.requires_grad, {{.*}}}, %arg3: tensor<32x4xf32> {dist.requires_grad, {{.*}}})
// RUN: %python %S/../../scripts/npy.py inputs %t/unused.mlir main %t/in > /dev/null
// RUN: %jax_python %S/../Conversion/Inputs/jax_value_and_grad.py %S/Inputs/unused_arg.py %t/in %t/jax 2,3
// RUN: dist-run %t/unused.mlir --entry main --grad -n 4 --input-dir %t/in --out %t/n4
// RUN: %python %S/../../scripts/npy.py compare %t/jax %t/n4 --tolerance 1e-4 | FileCheck %s
// CHECK: 3 results; max difference against -n 1: {{[0-9.]+e-(0[5-9]|[1-9][0-9])$}}
