// Randomized differential test: seeded random valid annotations, each
// sharded run on its mesh's processes against the unsharded run (see
// Inputs/random_shardings.py). The Megatron MLP with any sharding of every
// argument on 1-D (2 or 4 devices) and 2-D (2 x 2) meshes; the GPT block
// with a random subset of its Megatron annotations kept on such meshes.
// RUN: %python %S/Inputs/random_shardings.py dist-opt %mlir_runner %dist_runtime_libs %S/../../examples/megatron-mlp.mlir step 10 11 any | FileCheck %s --check-prefix=MLP
// RUN: env ID_RANGE=256 %python %S/Inputs/random_shardings.py dist-opt %mlir_runner %dist_runtime_libs %S/../../examples/gpt-block.mlir gpt_step 3 5 keep | FileCheck %s --check-prefix=GPT
// MLP-NOT: FAIL
// MLP: 10 of 10 random cases match
// GPT-NOT: FAIL
// GPT: 3 of 3 random cases match
