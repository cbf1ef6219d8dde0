// dist-gen llama's step, end to end: the step differentiated by
// dist-append-backward, on dp x tp, on dp x sp x tp with two layers, and
// with AdamW at ZeRO stages 0, 1 and 3 and SGD at stage 2 (overlapped),
// computes the -n 1 step's loss, gradients, parameters and optimizer
// states to 1e-5 relative.
// RUN: rm -rf %t && mkdir -p %t
// RUN: dist-gen llama --layers 1 --dp 2 --tp 2 > %t/grad.mlir
// RUN: %python %S/../../scripts/npy.py inputs %t/grad.mlir llama_step %t/grad-in > /dev/null
// RUN: dist-run %t/grad.mlir --entry llama_step -n 1 --input-dir %t/grad-in --out %t/grad-1
// RUN: dist-run %t/grad.mlir --entry llama_step -n 4 --input-dir %t/grad-in --out %t/grad-4
// RUN: %python %S/../../scripts/npy.py compare %t/grad-1 %t/grad-4 | FileCheck %s --check-prefix=GRAD
// Recomputing the activations changes no result.
// The step keeps the forward program's argument names, so the inputs serve
// both.
// RUN: dist-gen llama --layers 1 --dp 2 --tp 2 --forward-only > %t/forward.mlir
// RUN: dist-run %t/forward.mlir --grad --recompute --entry llama_step -n 4 --input-dir %t/grad-in --out %t/recomputed
// RUN: %python %S/../../scripts/npy.py compare %t/grad-1 %t/recomputed | FileCheck %s --check-prefix=GRAD
// RUN: dist-gen llama --layers 1 --dp 2 --tp 2 --recompute > %t/recompute.mlir
// RUN: dist-run %t/recompute.mlir --entry llama_step -n 4 --input-dir %t/grad-in --out %t/recompute-4
// RUN: %python %S/../../scripts/npy.py compare %t/grad-1 %t/recompute-4 | FileCheck %s --check-prefix=GRAD
// RUN: not dist-run %t/forward.mlir --recompute --entry llama_step --out %t/x 2>&1 | FileCheck %s --check-prefix=NO-GRAD
// NO-GRAD: error: --recompute needs --grad: it shapes the backward that --grad derives
// GRAD: 13 results; max difference against -n 1: {{(0\.00e\+00|[0-9.]+e-0[6-9])$}}
//
// RUN: dist-gen llama --layers 2 --dp 2 --tp 2 --sp 2 > %t/sp.mlir
// RUN: %python %S/../../scripts/npy.py inputs %t/sp.mlir llama_step %t/sp-in > /dev/null
// RUN: dist-run %t/sp.mlir --entry llama_step -n 1 --input-dir %t/sp-in --out %t/sp-1
// RUN: dist-run %t/sp.mlir --entry llama_step -n 8 --input-dir %t/sp-in --out %t/sp-8
// RUN: %python %S/../../scripts/npy.py compare %t/sp-1 %t/sp-8 | FileCheck %s --check-prefix=SP
// SP: 22 results; max difference against -n 1: {{(0\.00e\+00|[0-9.]+e-0[6-9])$}}
//
// The stages differ in layouts only, so one set of inputs serves them all.
// RUN: dist-gen llama --layers 1 --dp 2 --tp 2 --optimizer adamw --zero 0 > %t/adamw0.mlir
// RUN: dist-gen llama --layers 1 --dp 2 --tp 2 --optimizer adamw --zero 1 > %t/adamw1.mlir
// RUN: dist-gen llama --layers 1 --dp 2 --tp 2 --optimizer adamw --zero 3 > %t/adamw3.mlir
// RUN: %python %S/../../scripts/npy.py inputs %t/adamw0.mlir llama_step %t/adamw-in > /dev/null
// RUN: dist-run %t/adamw0.mlir --entry llama_step -n 1 --input-dir %t/adamw-in --out %t/adamw-ref
// RUN: dist-run %t/adamw0.mlir --entry llama_step -n 4 --input-dir %t/adamw-in --out %t/adamw-0
// RUN: %python %S/../../scripts/npy.py compare %t/adamw-ref %t/adamw-0 | FileCheck %s --check-prefix=ADAMW
// RUN: dist-run %t/adamw1.mlir --entry llama_step -n 4 --input-dir %t/adamw-in --out %t/adamw-1
// RUN: %python %S/../../scripts/npy.py compare %t/adamw-ref %t/adamw-1 | FileCheck %s --check-prefix=ADAMW
// RUN: dist-run %t/adamw3.mlir --entry llama_step -n 4 --input-dir %t/adamw-in --out %t/adamw-3
// RUN: %python %S/../../scripts/npy.py compare %t/adamw-ref %t/adamw-3 | FileCheck %s --check-prefix=ADAMW
// ADAMW: 37 results; max difference against -n 1: {{(0\.00e\+00|[0-9.]+e-0[6-9])$}}
//
// RUN: dist-gen llama --layers 1 --dp 2 --tp 2 --optimizer sgd --zero 2 > %t/sgd.mlir
// RUN: %python %S/../../scripts/npy.py inputs %t/sgd.mlir llama_step %t/sgd-in > /dev/null
// RUN: dist-run %t/sgd.mlir --entry llama_step -n 1 --input-dir %t/sgd-in --out %t/sgd-1
// RUN: dist-run %t/sgd.mlir --entry llama_step -n 4 --input-dir %t/sgd-in --out %t/sgd-4 --overlap
// RUN: %python %S/../../scripts/npy.py compare %t/sgd-1 %t/sgd-4 | FileCheck %s --check-prefix=SGD
// SGD: 25 results; max difference against -n 1: {{(0\.00e\+00|[0-9.]+e-0[6-9])$}}
