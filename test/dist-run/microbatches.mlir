// --microbatches M runs each step as M microbatches one after another on
// every device (dist-split-microbatches, dist-lower-to-local,
// dist-schedule-pipeline), summing the gradients over them before the
// optimizer: the step equals the one-device step of the whole batch, for
// every schedule, with ZeRO-2, overlap and buckets, for Llama, and for a
// forward program on a mesh of one device.
// RUN: rm -rf %t && mkdir -p %t
// RUN: dist-gen gpt --layers 2 --dp 2 --tp 2 --batch 4 > %t/gpt.mlir
// RUN: %python %S/../../scripts/npy.py inputs %t/gpt.mlir gpt_step %t/in --id-range 128 > /dev/null
// RUN: dist-run %t/gpt.mlir --entry gpt_step --input-dir %t/in --out %t/n1
// RUN: dist-run %t/gpt.mlir --entry gpt_step -n 4 --microbatches 4 --schedule gpipe --input-dir %t/in --out %t/gpipe
// RUN: %python %S/../../scripts/npy.py compare %t/n1 %t/gpipe | FileCheck %s --check-prefix=SAME
// RUN: dist-run %t/gpt.mlir --entry gpt_step -n 4 --microbatches 4 --schedule 1f1b --input-dir %t/in --out %t/1f1b
// RUN: %python %S/../../scripts/npy.py compare %t/n1 %t/1f1b | FileCheck %s --check-prefix=SAME
// RUN: dist-run %t/gpt.mlir --entry gpt_step -n 4 --microbatches 4 --schedule zb-h1 --input-dir %t/in --out %t/zb
// RUN: %python %S/../../scripts/npy.py compare %t/n1 %t/zb | FileCheck %s --check-prefix=SAME

// RUN: dist-gen gpt --layers 2 --dp 2 --tp 1 --batch 4 --optimizer adamw --zero 2 > %t/zero.mlir
// RUN: %python %S/../../scripts/npy.py inputs %t/zero.mlir gpt_step %t/zin --id-range 128 > /dev/null
// RUN: dist-run %t/zero.mlir --entry gpt_step --input-dir %t/zin --out %t/z1
// RUN: dist-run %t/zero.mlir --entry gpt_step -n 2 --microbatches 4 --overlap --bucket-mib 1 --input-dir %t/zin --out %t/z2
// RUN: %python %S/../../scripts/npy.py compare %t/z1 %t/z2 | FileCheck %s --check-prefix=SAME

// RUN: dist-gen llama --layers 2 --dp 2 --tp 2 --batch 8 > %t/llama.mlir
// RUN: %python %S/../../scripts/npy.py inputs %t/llama.mlir llama_step %t/lin --id-range 256 > /dev/null
// RUN: dist-run %t/llama.mlir --entry llama_step --input-dir %t/lin --out %t/l1
// RUN: dist-run %t/llama.mlir --entry llama_step -n 4 --microbatches 2 --input-dir %t/lin --out %t/l4
// RUN: %python %S/../../scripts/npy.py compare %t/l1 %t/l4 | FileCheck %s --check-prefix=SAME

// RUN: dist-gen gpt --layers 1 --dp 1 --tp 1 --batch 4 --forward-only | sed -e 's/dist.requires_grad, //' > %t/fwd.mlir
// RUN: %python %S/../../scripts/npy.py inputs %t/fwd.mlir gpt_step %t/fin --id-range 128 > /dev/null
// RUN: dist-run %t/fwd.mlir --entry gpt_step --input-dir %t/fin --out %t/f1
// RUN: dist-run %t/fwd.mlir --entry gpt_step --microbatches 4 --input-dir %t/fin --out %t/f4
// RUN: %python %S/../../scripts/npy.py compare %t/f1 %t/f4 | FileCheck %s --check-prefix=SAME

// SAME: results; max difference against -n 1: {{(0\.00e\+00|[0-9.]+e-(0[6-9]|[1-9][0-9]))$}}

// The microbatches run the partitioned step: -n is the mesh's devices.
// RUN: not dist-run %t/gpt.mlir --entry gpt_step --microbatches 2 --input-dir %t/in --out %t/x 2>&1 | FileCheck %s --check-prefix=DEVICES
// DEVICES: the mesh has 4 devices: run with -n 4 (--microbatches runs the partitioned step)
// RUN: not dist-run %t/gpt.mlir --entry gpt_step -n 4 --schedule gpipe --input-dir %t/in --out %t/x 2>&1 | FileCheck %s --check-prefix=SCHEDULE
// SCHEDULE: error: --schedule needs --microbatches: it orders the microbatches' work
// RUN: not dist-run %t/gpt.mlir --entry gpt_step -n 4 --microbatches 2 --schedule interleaved --input-dir %t/in --out %t/x 2>&1 | FileCheck %s --check-prefix=NAME
// NAME: error: invalid value 'interleaved' for '--schedule <SCHEDULE>': must be gpipe, 1f1b, zb-h1 or interleaved-1f1b
// Interleaved 1F1B is modelled by dist-pipeline-report, not run: dist-run
// says so before it compiles anything.
// RUN: not dist-run %t/gpt.mlir --entry gpt_step -n 4 --microbatches 2 --schedule interleaved-1f1b --input-dir %t/in --out %t/x 2>&1 | FileCheck %s --check-prefix=INTERLEAVED
// INTERLEAVED: error: --schedule interleaved-1f1b (model chunks on each device) is modelled by dist-pipeline-report, not run: use gpipe, 1f1b or zb-h1
