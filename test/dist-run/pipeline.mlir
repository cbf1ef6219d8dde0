// Pipeline stages: with --microbatches a step whose mesh has pp stages runs
// each stage's work on its own devices, in the order of --schedule, the
// boundary values sent between neighbouring stages (dist.send, dist.recv)
// and the results collected from the stages that compute them. The 4-layer
// GPT over 4 stages, and over 2 stages x 2 data-parallel devices, at 8
// microbatches, equals the one-device step for every schedule.
// RUN: rm -rf %t && mkdir -p %t
// RUN: dist-gen gpt --layers 4 --pp 4 --dp 1 --tp 1 --batch 8 > %t/pp4.mlir
// RUN: %python %S/../../scripts/npy.py inputs %t/pp4.mlir gpt_step %t/in4 --id-range 128 > /dev/null
// RUN: dist-run %t/pp4.mlir --entry gpt_step --input-dir %t/in4 --out %t/pp4-n1
// RUN: dist-run %t/pp4.mlir --entry gpt_step -n 4 --microbatches 8 --schedule gpipe --input-dir %t/in4 --out %t/pp4-gpipe
// RUN: %python %S/../../scripts/npy.py compare %t/pp4-n1 %t/pp4-gpipe | FileCheck %s
// RUN: dist-run %t/pp4.mlir --entry gpt_step -n 4 --microbatches 8 --schedule 1f1b --input-dir %t/in4 --out %t/pp4-1f1b
// RUN: %python %S/../../scripts/npy.py compare %t/pp4-n1 %t/pp4-1f1b | FileCheck %s
// RUN: dist-run %t/pp4.mlir --entry gpt_step -n 4 --microbatches 8 --schedule zb-h1 --input-dir %t/in4 --out %t/pp4-zb
// RUN: %python %S/../../scripts/npy.py compare %t/pp4-n1 %t/pp4-zb | FileCheck %s

// RUN: dist-gen gpt --layers 4 --pp 2 --dp 2 --tp 1 --batch 8 > %t/pp2.mlir
// RUN: %python %S/../../scripts/npy.py inputs %t/pp2.mlir gpt_step %t/in2 --id-range 128 > /dev/null
// RUN: dist-run %t/pp2.mlir --entry gpt_step --input-dir %t/in2 --out %t/pp2-n1
// RUN: dist-run %t/pp2.mlir --entry gpt_step -n 4 --microbatches 8 --schedule gpipe --input-dir %t/in2 --out %t/pp2-gpipe
// RUN: %python %S/../../scripts/npy.py compare %t/pp2-n1 %t/pp2-gpipe | FileCheck %s
// RUN: dist-run %t/pp2.mlir --entry gpt_step -n 4 --microbatches 8 --schedule 1f1b --input-dir %t/in2 --out %t/pp2-1f1b
// RUN: %python %S/../../scripts/npy.py compare %t/pp2-n1 %t/pp2-1f1b | FileCheck %s
// RUN: dist-run %t/pp2.mlir --entry gpt_step -n 4 --microbatches 8 --schedule zb-h1 --input-dir %t/in2 --out %t/pp2-zb
// RUN: %python %S/../../scripts/npy.py compare %t/pp2-n1 %t/pp2-zb | FileCheck %s

// CHECK: results; max difference against -n 1: {{[0-9.]+e-(0[6-9]|[1-9][0-9])$}}
