// The optimizer step in the program, end to end: dist-gen's GPT step with
// AdamW at ZeRO stages 0-3 (the layouts alone differ) and SGD with
// momentum at stage 2, run on 4 processes (dp=2 x tp=2), computes the -n 1
// step's loss, new parameters and new optimizer states to 1e-5 relative.
// The collectives of each stage: tools/tests/zero.rs.
// RUN: rm -rf %t && mkdir -p %t
// RUN: dist-gen gpt --layers 1 --dp 2 --tp 2 --optimizer adamw --zero 0 > %t/adamw0.mlir
// RUN: %python %S/../../scripts/npy.py inputs %t/adamw0.mlir gpt_step %t/adamw-in --id-range 256 --nonnegative v_
// RUN: dist-run %t/adamw0.mlir --entry gpt_step -n 1 --input-dir %t/adamw-in --out %t/adamw-ref
// RUN: dist-run %t/adamw0.mlir --entry gpt_step -n 4 --input-dir %t/adamw-in --out %t/adamw-0
// RUN: %python %S/../../scripts/npy.py compare %t/adamw-ref %t/adamw-0 | FileCheck %s
// RUN: dist-gen gpt --layers 1 --dp 2 --tp 2 --optimizer adamw --zero 1 > %t/adamw1.mlir
// RUN: dist-run %t/adamw1.mlir --entry gpt_step -n 4 --input-dir %t/adamw-in --out %t/adamw-1
// RUN: %python %S/../../scripts/npy.py compare %t/adamw-ref %t/adamw-1 | FileCheck %s
// RUN: dist-gen gpt --layers 1 --dp 2 --tp 2 --optimizer adamw --zero 2 > %t/adamw2.mlir
// RUN: dist-run %t/adamw2.mlir --entry gpt_step -n 4 --input-dir %t/adamw-in --out %t/adamw-2 --overlap
// RUN: %python %S/../../scripts/npy.py compare %t/adamw-ref %t/adamw-2 | FileCheck %s
// Stage 2 with its gradient reduce_scatters in 0.1 MiB buckets, started
// asynchronously.
// RUN: dist-run %t/adamw2.mlir --entry gpt_step -n 4 --input-dir %t/adamw-in --out %t/adamw-2b --bucket-mib 0.1 --overlap
// RUN: %python %S/../../scripts/npy.py compare %t/adamw-ref %t/adamw-2b | FileCheck %s
// RUN: dist-gen gpt --layers 1 --dp 2 --tp 2 --optimizer adamw --zero 3 > %t/adamw3.mlir
// RUN: dist-run %t/adamw3.mlir --entry gpt_step -n 4 --input-dir %t/adamw-in --out %t/adamw-3
// RUN: %python %S/../../scripts/npy.py compare %t/adamw-ref %t/adamw-3 | FileCheck %s
// Stage 3 at a batch where gathering the parameters is the cheaper plan
// (FSDP's), kept from the forward and, with argument-reshards=per-use,
// gathered again for the backward.
// RUN: dist-gen gpt --layers 1 --dp 2 --tp 2 --batch 8 --optimizer adamw --zero 3 > %t/fsdp.mlir
// RUN: %python %S/../../scripts/npy.py inputs %t/fsdp.mlir gpt_step %t/fsdp-in --id-range 256 --nonnegative v_
// RUN: dist-run %t/fsdp.mlir --entry gpt_step -n 1 --input-dir %t/fsdp-in --out %t/fsdp-ref
// RUN: dist-run %t/fsdp.mlir --entry gpt_step -n 4 --input-dir %t/fsdp-in --out %t/fsdp-kept
// RUN: %python %S/../../scripts/npy.py compare %t/fsdp-ref %t/fsdp-kept | FileCheck %s
// RUN: dist-run %t/fsdp.mlir --entry gpt_step -n 4 --input-dir %t/fsdp-in --out %t/fsdp-per-use --argument-reshards per-use
// RUN: %python %S/../../scripts/npy.py compare %t/fsdp-ref %t/fsdp-per-use | FileCheck %s
// SGD with momentum, stage 2.
// RUN: dist-gen gpt --layers 1 --dp 2 --tp 2 --optimizer sgd --zero 2 > %t/sgd2.mlir
// RUN: %python %S/../../scripts/npy.py inputs %t/sgd2.mlir gpt_step %t/sgd-in --id-range 256
// RUN: dist-run %t/sgd2.mlir --entry gpt_step -n 1 --input-dir %t/sgd-in --out %t/sgd-ref
// RUN: dist-run %t/sgd2.mlir --entry gpt_step -n 4 --input-dir %t/sgd-in --out %t/sgd-2
// RUN: %python %S/../../scripts/npy.py compare %t/sgd-ref %t/sgd-2 | FileCheck %s --check-prefix=SGD
// CHECK: loss {{.*}}; 43 results; max difference against -n 1:
// SGD: loss {{.*}}; 29 results; max difference against -n 1:
