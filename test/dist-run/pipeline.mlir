// Pipeline stages: with --microbatches a step whose mesh has pp stages runs
// each stage's work on its own devices, in the order of --schedule, the
// boundary values sent between neighbouring stages (dist.send, dist.recv)
// and the results collected from the stages that compute them: the step
// equals the one-device step, for every schedule.
// RUN: rm -rf %t && mkdir -p %t
// RUN: dist-gen gpt --layers 2 --pp 2 --dp 2 --tp 1 --batch 4 > %t/pp2.mlir
// RUN: %python %S/../../scripts/npy.py inputs %t/pp2.mlir gpt_step %t/in --id-range 128 > /dev/null
// RUN: dist-run %t/pp2.mlir --entry gpt_step --input-dir %t/in --out %t/n1
// RUN: dist-run %t/pp2.mlir --entry gpt_step -n 4 --microbatches 2 --schedule gpipe --input-dir %t/in --out %t/gpipe
// RUN: %python %S/../../scripts/npy.py compare %t/n1 %t/gpipe | FileCheck %s
// RUN: dist-run %t/pp2.mlir --entry gpt_step -n 4 --microbatches 2 --schedule 1f1b --input-dir %t/in --out %t/1f1b
// RUN: %python %S/../../scripts/npy.py compare %t/n1 %t/1f1b | FileCheck %s
// RUN: dist-run %t/pp2.mlir --entry gpt_step -n 4 --microbatches 2 --schedule zb-h1 --input-dir %t/in --out %t/zb
// RUN: %python %S/../../scripts/npy.py compare %t/n1 %t/zb | FileCheck %s

// CHECK: results; max difference against -n 1: {{[0-9.]+e-(0[6-9]|[1-9][0-9])$}}
