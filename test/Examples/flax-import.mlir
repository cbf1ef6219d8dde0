// Programs written with Flax's own layers and optax's loss, as a user
// writes them (examples/jax/flax_mlp.py: nn.Dense, nn.gelu, nn.LayerNorm;
// examples/jax/flax_block.py: nn.Embed, nn.LayerNorm,
// nn.MultiHeadDotProductAttention with nn.make_causal_mask, nn.RMSNorm,
// nn.Dense, nn.gelu, Embed.attend; both optax's
// softmax_cross_entropy_with_integer_labels), exported on a 2 x 2 mesh
// (the checked-in exports under test/Conversion/Inputs/stablehlo, which
// test/Conversion/flax-export.mlir re-exports byte for byte where Flax is
// installed), imported op by op and differentiated by dist-run --grad, on
// one device and on the mesh's four, give jax.value_and_grad's loss and
// gradients (float64 JAX on the same seeded inputs, saved under
// Inputs/flax) within 1e-4 of max(1, |value|); measured 1.2e-7 to 3e-7.
// What they need beyond this project's own style: compare, select,
// is_finite, abs and sign (optax's logsumexp), iota and and (the causal
// mask Flax builds), dot_general with several free or contracting dims
// (DenseGeneral's heads), a gather of a constant column, integer labels.
// RUN: rm -rf %t && mkdir -p %t
// RUN: dist-opt --allow-unregistered-dialect %S/../Conversion/Inputs/stablehlo/flax_mlp.mlir --convert-stablehlo-to-dist="requires-grad=1,2,3,4,5,6" -o %t/mlp.mlir
// RUN: %python %S/../../scripts/npy.py inputs %t/mlp.mlir main %t/mlp-in --id-range 10 > /dev/null
// RUN: dist-run %t/mlp.mlir --entry main --grad -n 1 --input-dir %t/mlp-in --out %t/mlp-n1
// RUN: dist-run %t/mlp.mlir --entry main --grad -n 4 --input-dir %t/mlp-in --out %t/mlp-n4
// RUN: %python %S/../../scripts/npy.py compare %S/Inputs/flax/mlp-jax %t/mlp-n1 --tolerance 1e-4 | FileCheck %s --check-prefix=MLP
// RUN: %python %S/../../scripts/npy.py compare %S/Inputs/flax/mlp-jax %t/mlp-n4 --tolerance 1e-4 | FileCheck %s --check-prefix=MLP
// MLP: 7 results; max difference against -n 1: {{[0-9.]+e-(0[5-9]|[1-9][0-9])$}}
//
// RUN: dist-opt --allow-unregistered-dialect %S/../Conversion/Inputs/stablehlo/flax_block.mlir --convert-stablehlo-to-dist="requires-grad=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15" -o %t/block.mlir
// RUN: %python %S/../../scripts/npy.py inputs %t/block.mlir main %t/block-in --id-range 64 > /dev/null
// RUN: dist-run %t/block.mlir --entry main --grad -n 1 --input-dir %t/block-in --out %t/block-n1
// RUN: dist-run %t/block.mlir --entry main --grad -n 4 --input-dir %t/block-in --out %t/block-n4
// RUN: %python %S/../../scripts/npy.py compare %S/Inputs/flax/block-jax %t/block-n1 --tolerance 1e-4 | FileCheck %s --check-prefix=BLOCK
// RUN: %python %S/../../scripts/npy.py compare %S/Inputs/flax/block-jax %t/block-n4 --tolerance 1e-4 | FileCheck %s --check-prefix=BLOCK
// BLOCK: 17 results; max difference against -n 1: {{[0-9.]+e-(0[5-9]|[1-9][0-9])$}}
//
// JAX's own backward of both, exported with them (jax-export.py --grad:
// jax.value_and_grad over the parameters), imported as whole training
// steps and run without --grad: the same references, on the same inputs
// (the steps have the forward's arguments). Their backwards scatter into
// the embedding, the labels' logits and optax's column (imported as
// dist.embedding_grad, take_along_grad and slice_grad), and read the
// finfo.min-masked scores with a reduce_max (kept as the select it is: a
// causal mask's -inf fill equals it only through a softmax).
// RUN: dist-opt --allow-unregistered-dialect %S/../Conversion/Inputs/stablehlo/flax_mlp_grad.mlir --convert-stablehlo-to-dist -o %t/mlp-step.mlir
// RUN: dist-run %t/mlp-step.mlir --entry main -n 1 --input-dir %t/mlp-in --out %t/mlp-step-n1
// RUN: dist-run %t/mlp-step.mlir --entry main -n 4 --input-dir %t/mlp-in --out %t/mlp-step-n4
// RUN: %python %S/../../scripts/npy.py compare %S/Inputs/flax/mlp-jax %t/mlp-step-n1 --tolerance 1e-4 | FileCheck %s --check-prefix=MLP
// RUN: %python %S/../../scripts/npy.py compare %S/Inputs/flax/mlp-jax %t/mlp-step-n4 --tolerance 1e-4 | FileCheck %s --check-prefix=MLP
// RUN: dist-opt --allow-unregistered-dialect %S/../Conversion/Inputs/stablehlo/flax_block_grad.mlir --convert-stablehlo-to-dist -o %t/block-step.mlir
// RUN: dist-run %t/block-step.mlir --entry main -n 1 --input-dir %t/block-in --out %t/block-step-n1
// RUN: dist-run %t/block-step.mlir --entry main -n 4 --input-dir %t/block-in --out %t/block-step-n4
// RUN: %python %S/../../scripts/npy.py compare %S/Inputs/flax/block-jax %t/block-step-n1 --tolerance 1e-4 | FileCheck %s --check-prefix=BLOCK
// RUN: %python %S/../../scripts/npy.py compare %S/Inputs/flax/block-jax %t/block-step-n4 --tolerance 1e-4 | FileCheck %s --check-prefix=BLOCK
// RUN: FileCheck %s --check-prefix=SCATTERS --input-file %t/block-step.mlir
// SCATTERS-DAG: dist.embedding_grad
// SCATTERS-DAG: dist.take_along_grad
// SCATTERS-DAG: dist.slice_grad
//
// The layers Flax spells out are raised where the rules gain by it (the
// causal mask, the softmax, the layer norms' statistics stay ops of their
// own); DenseGeneral's [batch, seq, heads, head_dim] products are one
// dist.matmul each.
// RUN: FileCheck %s --check-prefix=OPS --input-file %t/block.mlir
// OPS-DAG: dist.causal_mask
// OPS-DAG: dist.softmax
// OPS-DAG: dist.embedding
// OPS-DAG: dist.is_finite
// RUN: grep -c "= dist.matmul" %t/block.mlir | FileCheck %s --check-prefix=MATMULS
// MATMULS: {{^}}9{{$}}
