// A vocabulary that the tensor-parallel axis does not divide, split as
// GSPMD splits it: 1,001 entries over tp=4 are shards of 251, the last with
// 3 entries of padding. The embedding, the LM head, the cross-entropy and
// their gradients (`dist-partition` masks the padding before the vocab
// reductions) and every optimizer update give what one device gives, and
// dist-run pads the shards it loads and cuts the padding from what it
// gathers. Also on dp x tp with AdamW at ZeRO 3 (1,001 over tp=2) and SGD.
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
