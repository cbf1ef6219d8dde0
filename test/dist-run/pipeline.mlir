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

// The forward program, differentiated by dist-append-backward (--grad),
// pipelines the same: each boundary's gradient is a boundary.
// RUN: dist-gen gpt --layers 4 --pp 4 --dp 1 --tp 1 --batch 8 --forward-only > %t/fwd.mlir
// RUN: dist-run %t/fwd.mlir --entry gpt_step --grad --input-dir %t/in4 --out %t/fwd-n1
// RUN: dist-run %t/fwd.mlir --entry gpt_step --grad -n 4 --microbatches 8 --schedule zb-h1 --input-dir %t/in4 --out %t/fwd-zb
// RUN: %python %S/../../scripts/npy.py compare %t/fwd-n1 %t/fwd-zb | FileCheck %s

// RUN: dist-gen gpt --layers 4 --pp 2 --dp 2 --tp 1 --batch 8 > %t/pp2.mlir
// RUN: %python %S/../../scripts/npy.py inputs %t/pp2.mlir gpt_step %t/in2 --id-range 128 > /dev/null
// RUN: dist-run %t/pp2.mlir --entry gpt_step --input-dir %t/in2 --out %t/pp2-n1
// RUN: dist-run %t/pp2.mlir --entry gpt_step -n 4 --microbatches 8 --schedule gpipe --input-dir %t/in2 --out %t/pp2-gpipe
// RUN: %python %S/../../scripts/npy.py compare %t/pp2-n1 %t/pp2-gpipe | FileCheck %s
// RUN: dist-run %t/pp2.mlir --entry gpt_step -n 4 --microbatches 8 --schedule 1f1b --input-dir %t/in2 --out %t/pp2-1f1b
// RUN: %python %S/../../scripts/npy.py compare %t/pp2-n1 %t/pp2-1f1b | FileCheck %s
// RUN: dist-run %t/pp2.mlir --entry gpt_step -n 4 --microbatches 8 --schedule zb-h1 --input-dir %t/in2 --out %t/pp2-zb
// RUN: %python %S/../../scripts/npy.py compare %t/pp2-n1 %t/pp2-zb | FileCheck %s

// Llama's derived backward, 2 stages x 2 tensor-parallel devices, ZB-H1.
// RUN: dist-gen llama --layers 2 --pp 2 --dp 1 --tp 2 --batch 4 --forward-only > %t/llama.mlir
// RUN: %python %S/../../scripts/npy.py inputs %t/llama.mlir llama_step %t/inl --id-range 256 > /dev/null
// RUN: dist-run %t/llama.mlir --entry llama_step --grad --input-dir %t/inl --out %t/llama-n1
// RUN: dist-run %t/llama.mlir --entry llama_step --grad -n 4 --microbatches 4 --schedule zb-h1 --input-dir %t/inl --out %t/llama-zb
// RUN: %python %S/../../scripts/npy.py compare %t/llama-n1 %t/llama-zb | FileCheck %s

// CHECK: results; max difference against -n 1: {{(0\.00e\+00|[0-9.]+e-(0[6-9]|[1-9][0-9]))$}}

// The trace of a pipelined run: one process per rank, spans that nest, the
// transfers between stages as communication, each part of a microbatch's
// work a compute span of its own (F3, B3, W3), and the measured bubble
// printed beside the bubble the report models, in the same unit (idle
// over compute).
// RUN: dist-run %t/pp2.mlir --entry gpt_step -n 4 --microbatches 8 --schedule zb-h1 --input-dir %t/in2 --out %t/pp2-trace --trace %t/pp2.json 2>&1 | FileCheck %s --check-prefix=BUBBLE
// RUN: %python %S/Inputs/check_trace.py %t/pp2.json 4 | FileCheck %s --check-prefix=TRACE
// BUBBLE: // dist-pipeline-report @gpt_step: 2 stages on "pp", 8 microbatches, zb-h1
// BUBBLE: bubble {{[0-9.]+}} (idle / compute)
// BUBBLE: dist-run: trace {{.*}}pp2.json: 4 ranks, 1 steps each; {{.*}}; pipeline: measured bubble {{[0-9.]+}} (idle / compute: sends and receives between stages over compute, all ranks)
// TRACE:      4 ranks, 4 step spans, 0 async collectives
// TRACE-NEXT: spans nest; each step is tiled by compute and communication
// TRACE-NEXT: collectives: {{.*}}recv send
// TRACE-NEXT: compute: B F W compute
