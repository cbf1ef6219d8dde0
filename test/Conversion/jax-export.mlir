// REQUIRES: jax
// scripts/jax-export.py: a JAX function with its NamedShardings, lowered by
// jax.jit on a 2 x 2 mesh of host devices, as StableHLO in MLIR's generic
// form with Shardy's mesh and shardings. The checked-in exports (the
// StableHLO import's inputs) are what JAX 0.10.2, which scripts/setup.sh
// pins, writes today: byte for byte, and so deterministic.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %jax_python %S/../../scripts/jax-export.py %S/../../examples/jax/mlp.py --mesh dp=2,tp=2 --out %t/mlp.mlir
// RUN: cmp %t/mlp.mlir %S/Inputs/stablehlo/mlp.mlir
// RUN: %jax_python %S/../../scripts/jax-export.py %S/../../examples/jax/block.py --mesh dp=2,tp=2 --out %t/block.mlir
// RUN: cmp %t/block.mlir %S/Inputs/stablehlo/block.mlir
// With --grad, jax.value_and_grad of the function over the SPEC's GRAD
// arguments: the loss, then those gradients, each sharded as its argument
// (examples/jax/stop_gradient.py, and its forward-only export beside it);
// the references test/Examples/jax-grad-export.mlir compares with are
// jax.value_and_grad's in float64 on the inputs npy.py makes.
// RUN: %jax_python %S/../../scripts/jax-export.py %S/../../examples/jax/stop_gradient.py --mesh dp=2,tp=2 --grad --out %t/stop_gradient_grad.mlir
// RUN: cmp %t/stop_gradient_grad.mlir %S/Inputs/stablehlo/stop_gradient_grad.mlir
// RUN: %jax_python %S/../../scripts/jax-export.py %S/../../examples/jax/stop_gradient.py --mesh dp=2,tp=2 --out %t/stop_gradient.mlir
// RUN: cmp %t/stop_gradient.mlir %S/Inputs/stablehlo/stop_gradient.mlir
// RUN: dist-opt --allow-unregistered-dialect %t/stop_gradient_grad.mlir --convert-stablehlo-to-dist -o %t/step.mlir
// RUN: %python %S/../../scripts/npy.py inputs %t/step.mlir main %t/step-in > /dev/null
// RUN: %jax_python %S/Inputs/jax_value_and_grad.py %S/../../examples/jax/stop_gradient.py %t/step-in %t/step-jax 1,2
// RUN: %python %S/../../scripts/npy.py compare %S/../Examples/Inputs/stop-gradient %t/step-jax --tolerance 1e-7 | FileCheck %s --check-prefix=REFERENCE
// REFERENCE: 3 results
// So are the strided slices, the interior padding of their backward and
// the argmax of examples/jax/rotary_argmax.py, with the references
// test/Examples/jax-argmax-strided.mlir compares with.
// RUN: %jax_python %S/../../scripts/jax-export.py %S/../../examples/jax/rotary_argmax.py --mesh dp=2,tp=2 --out %t/rotary_argmax.mlir
// RUN: cmp %t/rotary_argmax.mlir %S/Inputs/stablehlo/rotary_argmax.mlir
// RUN: %jax_python %S/../../scripts/jax-export.py %S/../../examples/jax/rotary_argmax.py --mesh dp=2,tp=2 --grad --out %t/rotary_argmax_grad.mlir
// RUN: cmp %t/rotary_argmax_grad.mlir %S/Inputs/stablehlo/rotary_argmax_grad.mlir
// RUN: dist-opt --allow-unregistered-dialect %t/rotary_argmax.mlir --convert-stablehlo-to-dist -o %t/rotary.mlir 2>/dev/null
// RUN: %python %S/../../scripts/npy.py inputs %t/rotary.mlir main %t/rotary-in --id-range 4 > /dev/null
// RUN: %jax_python %S/Inputs/jax_value_and_grad.py %S/../../examples/jax/rotary_argmax.py %t/rotary-in %t/rotary-jax 1,2
// RUN: %python %S/../../scripts/npy.py compare %S/../Examples/Inputs/rotary-argmax %t/rotary-jax --tolerance 1e-7 | FileCheck %s --check-prefix=REFERENCE
// So are the lax.top_k router of examples/jax/moe_router.py and its
// backward, with the references test/Examples/jax-moe-router.mlir compares
// with.
// RUN: %jax_python %S/../../scripts/jax-export.py %S/../../examples/jax/moe_router.py --mesh dp=2,tp=2 --out %t/moe_router.mlir
// RUN: cmp %t/moe_router.mlir %S/Inputs/stablehlo/moe_router.mlir
// RUN: %jax_python %S/../../scripts/jax-export.py %S/../../examples/jax/moe_router.py --mesh dp=2,tp=2 --grad --out %t/moe_router_grad.mlir
// RUN: cmp %t/moe_router_grad.mlir %S/Inputs/stablehlo/moe_router_grad.mlir
// RUN: dist-opt --allow-unregistered-dialect %t/moe_router.mlir --convert-stablehlo-to-dist -o %t/router.mlir 2>/dev/null
// RUN: %python %S/../../scripts/npy.py inputs %t/router.mlir main %t/router-in > /dev/null
// RUN: %jax_python %S/Inputs/jax_value_and_grad.py %S/../../examples/jax/moe_router.py %t/router-in %t/router-jax 1,2
// RUN: %python %S/../../scripts/npy.py compare %S/../Examples/Inputs/moe-router %t/router-jax --tolerance 1e-7 | FileCheck %s --check-prefix=REFERENCE
// And examples/jax/functions.py, with test/Examples/jax-functions.mlir's
// references.
// RUN: %jax_python %S/../../scripts/jax-export.py %S/../../examples/jax/functions.py --mesh dp=2 --out %t/functions.mlir
// RUN: cmp %t/functions.mlir %S/Inputs/stablehlo/functions.mlir
// RUN: dist-opt --allow-unregistered-dialect %t/functions.mlir --convert-stablehlo-to-dist -o %t/functions.dist.mlir 2>/dev/null
// RUN: %python %S/../../scripts/npy.py inputs %t/functions.dist.mlir main %t/functions-in > /dev/null
// RUN: %jax_python %S/Inputs/jax_value_and_grad.py %S/../../examples/jax/functions.py %t/functions-in %t/functions-jax 0,1
// RUN: %python %S/../../scripts/npy.py compare %S/../Examples/Inputs/functions %t/functions-jax --tolerance 1e-7 | FileCheck %s --check-prefix=REFERENCE
// A SPEC without GRAD cannot be exported with --grad: one line says why.
// RUN: not %jax_python %S/../../scripts/jax-export.py %S/../../examples/jax/mlp.py --mesh dp=2,tp=2 --grad 2>&1 | FileCheck %s --check-prefix=NOGRAD
// NOGRAD: jax-export: --grad needs GRAD in {{.*}}mlp.py: the indices of the arguments to differentiate, each below 4 (e.g. GRAD = [1, 2])
// RUN: FileCheck %s --input-file %t/mlp.mlir
// CHECK:      "sdy.mesh"() <{mesh = #sdy.mesh<["dp"=2, "tp"=2]>, sym_name = "mesh"}>
// CHECK:      "func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"dp"}, {}]>}, {sdy.sharding = #sdy.sharding<@mesh, [{}, {"tp"}]>},
// CHECK-NEXT: ^bb0(%arg1: tensor<8x16xf32>, %arg2: tensor<16x32xf32>,
// CHECK-NEXT: "stablehlo.dot_general"(%arg1, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>
//
// dist-opt reads them with mlir-opt's --allow-unregistered-dialect (the
// stablehlo and sdy dialects are not registered here) and prints them back.
// RUN: dist-opt --allow-unregistered-dialect %S/Inputs/stablehlo/block.mlir | FileCheck %s --check-prefix=BLOCK
// BLOCK: "sdy.mesh"()
// BLOCK: func.func private @log_softmax
// BLOCK: "stablehlo.gather"
// RUN: not dist-opt %S/Inputs/stablehlo/mlp.mlir 2>&1 | FileCheck %s --check-prefix=UNREGISTERED
// UNREGISTERED: mlp.mlir:2:13: error: operation being parsed with an unregistered dialect. If this is intended, please use -allow-unregistered-dialect
