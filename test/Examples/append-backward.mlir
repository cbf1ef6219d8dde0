// Automatic differentiation against the hand-written steps, end to end:
// the forward program through dist-append-backward (dist-run --grad)
// computes the hand-written step's loss and every gradient on the same
// inputs (its seed d loss = 1), at -n 1 and sharded, to the end-to-end
// tolerance (1e-5 relative). Collectives: tools/tests/append_backward.rs.
// RUN: rm -rf %t && mkdir -p %t
//
// The shipped example: the Megatron MLP's forward pass against
// examples/megatron-mlp.mlir, then on 4 processes with overlap.
// RUN: %python %S/../../scripts/npy.py inputs %S/../../examples/megatron-mlp.mlir step %t/mlp-in
// RUN: dist-run %S/../../examples/megatron-mlp.mlir --entry step -n 1 --input-dir %t/mlp-in --out %t/mlp-hand
// RUN: dist-run %S/../../examples/megatron-mlp-forward.mlir --grad --entry step -n 1 --input-dir %t/mlp-in --out %t/mlp-auto
// RUN: %python %S/../../scripts/npy.py compare %t/mlp-hand %t/mlp-auto | FileCheck %s --check-prefix=MLP
// RUN: dist-run %S/../../examples/megatron-mlp-forward.mlir --grad --entry step -n 4 --input-dir %t/mlp-in --out %t/mlp-auto4 --overlap
// RUN: %python %S/../../scripts/npy.py compare %t/mlp-hand %t/mlp-auto4 | FileCheck %s --check-prefix=MLP
//
// GPT, two layers on dp=2 x tp=2.
// RUN: dist-gen gpt --layers 2 --dp 2 --tp 2 > %t/gpt.mlir
// RUN: dist-gen gpt --layers 2 --dp 2 --tp 2 --forward-only > %t/gpt-fwd.mlir
// RUN: %python %S/../../scripts/npy.py inputs %t/gpt.mlir gpt_step %t/gpt-in --id-range 256
// RUN: dist-run %t/gpt.mlir --entry gpt_step -n 1 --input-dir %t/gpt-in --out %t/gpt-hand
// RUN: dist-run %t/gpt-fwd.mlir --grad --entry gpt_step -n 1 --input-dir %t/gpt-in --out %t/gpt-auto
// RUN: %python %S/../../scripts/npy.py compare %t/gpt-hand %t/gpt-auto | FileCheck %s --check-prefix=GPT
// RUN: dist-run %t/gpt-fwd.mlir --grad --entry gpt_step -n 4 --input-dir %t/gpt-in --out %t/gpt-auto4 --overlap
// RUN: %python %S/../../scripts/npy.py compare %t/gpt-hand %t/gpt-auto4 | FileCheck %s --check-prefix=GPT
//
// GPT with sequence parallelism (sp=2 x tp=2).
// RUN: dist-gen gpt --layers 1 --dp 1 --tp 2 --sp 2 > %t/sp.mlir
// RUN: dist-gen gpt --layers 1 --dp 1 --tp 2 --sp 2 --forward-only > %t/sp-fwd.mlir
// RUN: %python %S/../../scripts/npy.py inputs %t/sp.mlir gpt_step %t/sp-in --id-range 256
// RUN: dist-run %t/sp.mlir --entry gpt_step -n 1 --input-dir %t/sp-in --out %t/sp-hand
// RUN: dist-run %t/sp-fwd.mlir --grad --entry gpt_step -n 1 --input-dir %t/sp-in --out %t/sp-auto
// RUN: %python %S/../../scripts/npy.py compare %t/sp-hand %t/sp-auto | FileCheck %s --check-prefix=SP
// RUN: dist-run %t/sp-fwd.mlir --grad --entry gpt_step -n 4 --input-dir %t/sp-in --out %t/sp-auto4
// RUN: %python %S/../../scripts/npy.py compare %t/sp-hand %t/sp-auto4 | FileCheck %s --check-prefix=SP
//
// MLP: loss {{.*}}; 4 results; max difference against -n 1:
// GPT: loss {{.*}}; 26 results; max difference against -n 1:
// SP: loss {{.*}}; 15 results; max difference against -n 1:
