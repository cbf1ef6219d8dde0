// REQUIRES: jax
// JAX programs in: the MLP and the transformer block of examples/jax,
// exported with their NamedShardings on a 2 x 2 mesh (the checked-in
// exports under test/Conversion/Inputs/stablehlo), imported with
// --convert-stablehlo-to-dist and differentiated by dist-run --grad, on one
// device and on the 4 devices of the mesh, give jax.value_and_grad's loss
// and gradients (float64 JAX, Inputs/../../Conversion/Inputs/jax_value_and_grad.py)
// within 1e-4 of max(1, |value|); measured 1e-7..1e-6.
// RUN: rm -rf %t && mkdir -p %t
// RUN: dist-opt --allow-unregistered-dialect %S/../Conversion/Inputs/stablehlo/mlp.mlir --convert-stablehlo-to-dist="requires-grad=1,2" -o %t/mlp.mlir
// RUN: %python %S/../../scripts/npy.py inputs %t/mlp.mlir main %t/mlp-in > /dev/null
// RUN: %jax_python %S/../Conversion/Inputs/jax_value_and_grad.py %S/../../examples/jax/mlp.py %t/mlp-in %t/mlp-jax 1,2
// RUN: dist-run %t/mlp.mlir --entry main --grad -n 1 --input-dir %t/mlp-in --out %t/mlp-n1
// RUN: dist-run %t/mlp.mlir --entry main --grad -n 4 --input-dir %t/mlp-in --out %t/mlp-n4
// RUN: %python %S/../../scripts/npy.py compare %t/mlp-jax %t/mlp-n1 --tolerance 1e-4 | FileCheck %s --check-prefix=MLP
// RUN: %python %S/../../scripts/npy.py compare %t/mlp-jax %t/mlp-n4 --tolerance 1e-4 | FileCheck %s --check-prefix=MLP
// MLP: 3 results; max difference against -n 1: {{[0-9.]+e-(0[5-9]|[1-9][0-9])$}}
//
// The block: token ids and targets are i32 arguments, as JAX has them.
// RUN: dist-opt --allow-unregistered-dialect %S/../Conversion/Inputs/stablehlo/block.mlir --convert-stablehlo-to-dist="requires-grad=2,3,4,5,6,7,8,9,10,11,12,13,14" -o %t/block.mlir
// RUN: %python %S/../../scripts/npy.py inputs %t/block.mlir main %t/block-in --id-range 32 > /dev/null
// RUN: %jax_python %S/../Conversion/Inputs/jax_value_and_grad.py %S/../../examples/jax/block.py %t/block-in %t/block-jax 2,3,4,5,6,7,8,9,10,11,12,13,14
// RUN: dist-run %t/block.mlir --entry main --grad -n 1 --input-dir %t/block-in --out %t/block-n1
// RUN: dist-run %t/block.mlir --entry main --grad -n 4 --input-dir %t/block-in --out %t/block-n4
// RUN: %python %S/../../scripts/npy.py compare %t/block-jax %t/block-n1 --tolerance 1e-4 | FileCheck %s --check-prefix=BLOCK
// RUN: %python %S/../../scripts/npy.py compare %t/block-jax %t/block-n4 --tolerance 1e-4 | FileCheck %s --check-prefix=BLOCK
// BLOCK: 14 results; max difference against -n 1: {{[0-9.]+e-(0[5-9]|[1-9][0-9])$}}
//
// The same model written by hand in dist (Inputs/jax-block-dist.mlir) gives
// the same numbers on the same inputs ...
// RUN: %python -c "import shutil; [shutil.copy('%t/block-in/arg%%d.npy' %% i, '%t/block-in/%%s.npy' %% n) for i, n in enumerate('tokens targets embed ln1_s ln1_b wq wk wv wo ln2_s ln2_b w1 w2 lnf_s lnf_b'.split())]"
// RUN: dist-run %S/Inputs/jax-block-dist.mlir --entry block --grad -n 4 --input-dir %t/block-in --out %t/hand-n4
// RUN: %python %S/../../scripts/npy.py compare %t/block-jax %t/hand-n4 --tolerance 1e-4 | FileCheck %s --check-prefix=BLOCK
// ... and the imported block's communication report lists the same
// collectives as its own, in the same order (value names aside): Megatron's
// three tensor-parallel all-reduces forward and three backward, the
// vocabulary-parallel cross-entropy's three, the data-parallel gradients.
// RUN: dist-opt %t/block.mlir --dist-append-backward --dist-decompose --dist-propagate-sharding=remarks=none --dist-resolve-partial --dist-comm-report -o /dev/null 2> %t/imported.report
// RUN: dist-opt %S/Inputs/jax-block-dist.mlir --dist-append-backward --dist-decompose --dist-propagate-sharding=remarks=none --dist-resolve-partial --dist-comm-report -o /dev/null 2> %t/hand.report
// RUN: awk 'NR > 1 {print $2, $3, $4, $5, $6, $7, $8, $NF}' %t/imported.report > %t/imported.txt
// RUN: awk 'NR > 1 {print $2, $3, $4, $5, $6, $7, $8, $NF}' %t/hand.report > %t/hand.txt
// RUN: diff %t/imported.txt %t/hand.txt
// RUN: FileCheck %s --check-prefix=REPORT < %t/imported.report
// REPORT: total: 23 collectives, 10724 bytes per device; all_reduce 23 (10724)
