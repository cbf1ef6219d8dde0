// REQUIRES: flax
// The Flax examples (examples/jax/flax_mlp.py, flax_block.py) exported by
// scripts/jax-export.py are the checked-in exports, byte for byte (JAX
// 0.10.2, Flax 0.12.8, optax 0.2.8, as pinned), and the references
// test/Examples/flax-import.mlir compares with are jax.value_and_grad's
// in float64 on the inputs npy.py makes: where Flax is installed, both are
// made again and compared.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %jax_python %S/../../scripts/jax-export.py %S/../../examples/jax/flax_mlp.py --mesh dp=2,tp=2 --out %t/flax_mlp.mlir
// RUN: cmp %t/flax_mlp.mlir %S/Inputs/stablehlo/flax_mlp.mlir
// RUN: %jax_python %S/../../scripts/jax-export.py %S/../../examples/jax/flax_block.py --mesh dp=2,tp=2 --out %t/flax_block.mlir
// RUN: cmp %t/flax_block.mlir %S/Inputs/stablehlo/flax_block.mlir
// RUN: %jax_python %S/../../scripts/jax-export.py %S/../../examples/jax/flax_mlp.py --mesh dp=2,tp=2 --grad --out %t/flax_mlp_grad.mlir
// RUN: cmp %t/flax_mlp_grad.mlir %S/Inputs/stablehlo/flax_mlp_grad.mlir
// RUN: %jax_python %S/../../scripts/jax-export.py %S/../../examples/jax/flax_block.py --mesh dp=2,tp=2 --grad --out %t/flax_block_grad.mlir
// RUN: cmp %t/flax_block_grad.mlir %S/Inputs/stablehlo/flax_block_grad.mlir
// RUN: dist-opt --allow-unregistered-dialect %t/flax_mlp.mlir --convert-stablehlo-to-dist -o %t/mlp.mlir
// RUN: %python %S/../../scripts/npy.py inputs %t/mlp.mlir main %t/mlp-in --id-range 10 > /dev/null
// RUN: %jax_python %S/Inputs/jax_value_and_grad.py %S/../../examples/jax/flax_mlp.py %t/mlp-in %t/mlp-jax 1,2,3,4,5,6
// RUN: %python %S/../../scripts/npy.py compare %S/../Examples/Inputs/flax/mlp-jax %t/mlp-jax --tolerance 1e-7 | FileCheck %s --check-prefix=MLP
// MLP: 7 results
// RUN: dist-opt --allow-unregistered-dialect %t/flax_block.mlir --convert-stablehlo-to-dist -o %t/block.mlir
// RUN: %python %S/../../scripts/npy.py inputs %t/block.mlir main %t/block-in --id-range 64 > /dev/null
// RUN: %jax_python %S/Inputs/jax_value_and_grad.py %S/../../examples/jax/flax_block.py %t/block-in %t/block-jax 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
// RUN: %python %S/../../scripts/npy.py compare %S/../Examples/Inputs/flax/block-jax %t/block-jax --tolerance 1e-7 | FileCheck %s --check-prefix=BLOCK
// BLOCK: 17 results
