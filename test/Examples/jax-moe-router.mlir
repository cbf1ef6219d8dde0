// A mixture-of-experts layer as a JAX user writes it (examples/jax/
// moe_router.py: Mixtral's router with jax.lax.top_k, the two weights
// renormalised, the experts combined by one-hots of the chosen indices, the
// load-balancing loss). lax.top_k exports as the two-result chlo.top_k,
// which the importer writes as dist.top_k; JAX's own backward of it (a
// scatter that adds each of the k gradients at its index) as
// dist.top_k_grad. The forward export differentiated by dist-run --grad and
// the backward export each give jax.value_and_grad's loss and gradients
// (float64 JAX on the same seeded inputs, saved under Inputs/moe-router)
// within 1e-4, on one device and on the 2 x 2 mesh; measured 2.6e-7. The
// inputs separate each token's second and third router probability by at
// least 1e-3, so float32 and float64 pick the same experts.
// RUN: rm -rf %t && mkdir -p %t
// RUN: dist-opt --allow-unregistered-dialect %S/../Conversion/Inputs/stablehlo/moe_router.mlir --convert-stablehlo-to-dist="requires-grad=1,2" -o %t/forward.mlir 2>/dev/null
// RUN: dist-opt --allow-unregistered-dialect %S/../Conversion/Inputs/stablehlo/moe_router_grad.mlir --convert-stablehlo-to-dist -o %t/step.mlir
// RUN: %python %S/../../scripts/npy.py inputs %t/forward.mlir main %t/in > /dev/null
// RUN: dist-run %t/forward.mlir --entry main --grad -n 1 --input-dir %t/in --out %t/forward-n1
// RUN: dist-run %t/forward.mlir --entry main --grad -n 4 --input-dir %t/in --out %t/forward-n4
// RUN: dist-run %t/step.mlir --entry main -n 1 --input-dir %t/in --out %t/step-n1
// RUN: dist-run %t/step.mlir --entry main -n 4 --input-dir %t/in --out %t/step-n4
// RUN: %python %S/../../scripts/npy.py compare %S/Inputs/moe-router %t/forward-n1 --per-tensor --tolerance 1e-4 | FileCheck %s
// RUN: %python %S/../../scripts/npy.py compare %S/Inputs/moe-router %t/forward-n4 --per-tensor --tolerance 1e-4 | FileCheck %s
// RUN: %python %S/../../scripts/npy.py compare %S/Inputs/moe-router %t/step-n1 --per-tensor --tolerance 1e-4 | FileCheck %s
// RUN: %python %S/../../scripts/npy.py compare %S/Inputs/moe-router %t/step-n4 --per-tensor --tolerance 1e-4 | FileCheck %s
// CHECK: 3 results; max difference relative to each tensor's largest value: {{[0-9.]+e-(0[5-9]|[1-9][0-9])$}}
//
// One dist.top_k, with JAX's int32 indices, read by the one-hot's compare;
// in the backward export its gradient is a dist.top_k_grad of those
// indices.
// RUN: FileCheck %s --check-prefix=FORWARD --input-file %t/forward.mlir
// FORWARD:     %[[V:.*]], %[[I:.*]] = dist.top_k %{{.*}} {k = 2 : i64} : (tensor<16x4xf32>) -> (tensor<16x2xf32>, tensor<16x2xi32>)
// FORWARD-NOT: dist.top_k
// FORWARD:     dist.reshape %[[I]] : (tensor<16x2xi32>) -> tensor<16x2x1xi32>
// RUN: FileCheck %s --check-prefix=STEP --input-file %t/step.mlir
// STEP:     %[[V:.*]], %[[I:.*]] = dist.top_k %{{.*}} {k = 2 : i64}
// STEP:     dist.top_k_grad %[[I]], %{{.*}} : (tensor<16x2xi32>, tensor<16x2xf32>) -> tensor<16x4xf32>
