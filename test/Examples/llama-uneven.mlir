// A vocabulary that the tensor-parallel axis does not divide, split as
// GSPMD splits it: 1,001 entries over tp=4 are shards of 251, the last with
// 3 entries of padding. The embedding, the LM head, the cross-entropy and
// their gradients (`dist-partition` masks the padding before the vocab
// reductions) and every optimizer update give what one device gives, and
// dist-run pads the shards it loads and cuts the padding from what it
// gathers. Also on dp x tp with AdamW at ZeRO 3 (1,001 over tp=2) and SGD.
// Then 6 heads on tp=4 (the head reshape cannot line up padded projection
// columns: q, k and v are gathered and each device computes every head, as
// a remark says), a batch of 5 on dp=4, an MLP of 30 on tp=4, and all of
// them at once on dp x sp x tp (batch 3, seq 9, vocabulary 63: 8 devices).
// RUN: rm -rf %t && mkdir -p %t
// RUN: dist-gen llama --layers 1 --dp 1 --tp 4 --vocab 1001 > %t/tp4.mlir
// RUN: %python %S/../../scripts/npy.py inputs %t/tp4.mlir llama_step %t/tp4-in --id-range 1001 --scale 0.1 > /dev/null
// RUN: dist-run %t/tp4.mlir --entry llama_step -n 1 --input-dir %t/tp4-in --out %t/tp4-1
// RUN: dist-run %t/tp4.mlir --entry llama_step -n 4 --input-dir %t/tp4-in --out %t/tp4-4
// RUN: %python %S/../../scripts/npy.py compare %t/tp4-1 %t/tp4-4 | FileCheck %s --check-prefix=GRAD
// GRAD: loss [[LOSS:[0-9.]+]] (reference [[LOSS]]); 13 results; max difference against -n 1: {{.*}}e-0{{[6-9]}}
//
// RUN: dist-gen llama --layers 1 --dp 2 --tp 2 --vocab 1001 --optimizer adamw --zero 3 > %t/adamw.mlir
// RUN: %python %S/../../scripts/npy.py inputs %t/adamw.mlir llama_step %t/adamw-in --id-range 1001 --scale 0.1 > /dev/null
// RUN: dist-run %t/adamw.mlir --entry llama_step -n 1 --input-dir %t/adamw-in --out %t/adamw-1
// RUN: dist-run %t/adamw.mlir --entry llama_step -n 4 --input-dir %t/adamw-in --out %t/adamw-4
// RUN: %python %S/../../scripts/npy.py compare %t/adamw-1 %t/adamw-4 | FileCheck %s --check-prefix=ADAMW
// ADAMW: loss [[LOSS:[0-9.]+]] (reference [[LOSS]]); 37 results; max difference against -n 1: {{.*}}e-0{{[6-9]}}
//
// RUN: dist-gen llama --layers 1 --dp 1 --tp 4 --vocab 1001 --optimizer sgd > %t/sgd.mlir
// RUN: %python %S/../../scripts/npy.py inputs %t/sgd.mlir llama_step %t/sgd-in --id-range 1001 > /dev/null
// RUN: dist-run %t/sgd.mlir --entry llama_step -n 1 --input-dir %t/sgd-in --out %t/sgd-1
// RUN: dist-run %t/sgd.mlir --entry llama_step -n 4 --input-dir %t/sgd-in --out %t/sgd-4
// RUN: %python %S/../../scripts/npy.py compare %t/sgd-1 %t/sgd-4 | FileCheck %s --check-prefix=SGD
// SGD: loss [[LOSS:[0-9.]+]] (reference [[LOSS]]); 25 results; max difference against -n 1: {{.*}}e-0{{[6-9]}}
//
// RUN: dist-gen llama --layers 1 --dp 1 --tp 4 --heads 6 --kv-heads 6 --head-dim 8 --seq 8 --batch 2 --ffn 32 --vocab 64 > %t/heads.mlir
// RUN: %python %S/../../scripts/npy.py inputs %t/heads.mlir llama_step %t/heads-in --id-range 64 --scale 0.1 > /dev/null
// RUN: dist-run %t/heads.mlir --entry llama_step -n 1 --input-dir %t/heads-in --out %t/heads-1
// RUN: dist-run %t/heads.mlir --entry llama_step -n 4 --input-dir %t/heads-in --out %t/heads-4
// RUN: %python %S/../../scripts/npy.py compare %t/heads-1 %t/heads-4 | FileCheck %s --check-prefix=GRAD
// RUN: dist-opt %t/heads.mlir --dist-decompose --dist-propagate-sharding 2>&1 >/dev/null | FileCheck %s --check-prefix=HEADS
// HEADS: remark: factor 'g2' cannot be split over {"tp"}: size 6 is not divisible by 4, and its dims differ in size (a reshape), so padding cannot line up; operand #0 is resharded
//
// RUN: dist-gen llama --layers 1 --dp 4 --tp 1 --batch 5 --seq 8 --heads 4 --kv-heads 2 --ffn 32 --vocab 64 > %t/batch.mlir
// RUN: %python %S/../../scripts/npy.py inputs %t/batch.mlir llama_step %t/batch-in --id-range 64 --scale 0.1 > /dev/null
// RUN: dist-run %t/batch.mlir --entry llama_step -n 1 --input-dir %t/batch-in --out %t/batch-1
// RUN: dist-run %t/batch.mlir --entry llama_step -n 4 --input-dir %t/batch-in --out %t/batch-4
// RUN: %python %S/../../scripts/npy.py compare %t/batch-1 %t/batch-4 | FileCheck %s --check-prefix=GRAD
//
// RUN: dist-gen llama --layers 1 --dp 1 --tp 4 --ffn 30 --seq 8 --batch 2 --heads 4 --kv-heads 4 --vocab 64 > %t/ffn.mlir
// RUN: %python %S/../../scripts/npy.py inputs %t/ffn.mlir llama_step %t/ffn-in --id-range 64 --scale 0.1 > /dev/null
// RUN: dist-run %t/ffn.mlir --entry llama_step -n 1 --input-dir %t/ffn-in --out %t/ffn-1
// RUN: dist-run %t/ffn.mlir --entry llama_step -n 4 --input-dir %t/ffn-in --out %t/ffn-4
// RUN: %python %S/../../scripts/npy.py compare %t/ffn-1 %t/ffn-4 | FileCheck %s --check-prefix=GRAD
//
// RUN: dist-gen llama --layers 1 --dp 2 --tp 2 --sp 2 --seq 9 --batch 3 --heads 4 --kv-heads 2 --ffn 30 --vocab 63 > %t/all.mlir
// RUN: %python %S/../../scripts/npy.py inputs %t/all.mlir llama_step %t/all-in --id-range 63 --scale 0.1 > /dev/null
// RUN: dist-run %t/all.mlir --entry llama_step -n 1 --input-dir %t/all-in --out %t/all-1
// RUN: dist-run %t/all.mlir --entry llama_step -n 8 --input-dir %t/all-in --out %t/all-8
// RUN: %python %S/../../scripts/npy.py compare %t/all-1 %t/all-8 | FileCheck %s --check-prefix=GRAD
//
// ZeRO 2 (gradients reduce-scattered over dp) with uneven dims, bucketed and
// overlapped: every operand of a bucket's reduce_scatter is padded.
// RUN: dist-gen llama --layers 1 --dp 2 --tp 2 --batch 3 --seq 8 --heads 4 --kv-heads 2 --ffn 30 --vocab 63 --optimizer sgd --zero 2 > %t/zero2.mlir
// RUN: %python %S/../../scripts/npy.py inputs %t/zero2.mlir llama_step %t/zero2-in --id-range 63 --scale 0.1 > /dev/null
// RUN: dist-run %t/zero2.mlir --entry llama_step -n 1 --input-dir %t/zero2-in --out %t/zero2-1
// RUN: dist-run %t/zero2.mlir --entry llama_step -n 4 --bucket-mib 1 --overlap --input-dir %t/zero2-in --out %t/zero2-4
// RUN: %python %S/../../scripts/npy.py compare %t/zero2-1 %t/zero2-4 | FileCheck %s --check-prefix=SGD
