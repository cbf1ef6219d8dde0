// REQUIRES: jax
// dist-gen llama --dtype bf16, the mixed-precision step: differentiated by
// dist-append-backward through the casts (each parameter's gradient comes
// back to f32 through its cast's), and with AdamW at ZeRO stages 0-3 on
// dp x tp = 2 x 2 updating the f32 master parameters and moments. Two bf16
// steps that round at other points differ by about their own rounding, so
// each is measured by its error against the same step in float64
// (scripts/jax_llama.py): ours is no larger than XLA's bf16 step's.
// RUN: rm -rf %t && mkdir -p %t
// RUN: dist-gen llama --layers 2 --dp 2 --tp 2 --heads 8 --kv-heads 2 --forward-only --dtype bf16 > %t/llama.mlir
// RUN: FileCheck %s --input-file %t/llama.mlir
// CHECK:     %cos: tensor<16x8xf32>
// CHECK:     dist.cast %cos : (tensor<16x8xf32>) -> tensor<16x8xbf16>
// CHECK:     dist.cast %embed : (tensor<256x64xf32>) -> tensor<256x64xbf16>
// CHECK:     %[[LOGITS:.*]] = dist.matmul {{.*}} -> tensor<4x16x256xbf16>
// CHECK:     %[[WIDE:.*]] = dist.cast %[[LOGITS]] : (tensor<4x16x256xbf16>) -> tensor<4x16x256xf32>
// CHECK:     dist.cross_entropy %[[WIDE]], %labels : (tensor<4x16x256xf32>, tensor<4x16xi64>) -> tensor<f32>
// RUN: %python %S/../../scripts/npy.py inputs %t/llama.mlir llama_step %t/in --id-range 256 --scale 0.1 > /dev/null
// RUN: %jax_python %S/../../scripts/jax_llama.py rope %t/in 10000
// RUN: dist-run %t/llama.mlir --grad --entry llama_step -n 1 --input-dir %t/in --out %t/n1
// RUN: dist-run %t/llama.mlir --grad --entry llama_step -n 4 --input-dir %t/in --out %t/n4
// RUN: %jax_python %S/../../scripts/jax_llama.py bench %t/in %t/n1,%t/n4 2 8 2 1 bf16 > %t/errors.txt
//
// The AdamW step at each ZeRO stage: the loss, then each parameter's new
// value and moments (JAX's references computed once for all four).
// RUN: dist-gen llama --layers 1 --dp 2 --tp 2 --heads 8 --kv-heads 2 --optimizer adamw --zero 0 --dtype bf16 > %t/adamw0.mlir
// RUN: %python %S/../../scripts/npy.py inputs %t/adamw0.mlir llama_step %t/adamw-in --id-range 256 --scale 0.1 > /dev/null
// RUN: %jax_python %S/../../scripts/jax_llama.py rope %t/adamw-in 10000
// RUN: dist-run %t/adamw0.mlir --entry llama_step -n 4 --input-dir %t/adamw-in --out %t/zero0
// RUN: dist-gen llama --layers 1 --dp 2 --tp 2 --heads 8 --kv-heads 2 --optimizer adamw --zero 1 --dtype bf16 > %t/adamw1.mlir
// RUN: dist-run %t/adamw1.mlir --entry llama_step -n 4 --input-dir %t/adamw-in --out %t/zero1
// RUN: dist-gen llama --layers 1 --dp 2 --tp 2 --heads 8 --kv-heads 2 --optimizer adamw --zero 2 --dtype bf16 > %t/adamw2.mlir
// RUN: dist-run %t/adamw2.mlir --entry llama_step -n 4 --input-dir %t/adamw-in --out %t/zero2 --overlap
// RUN: dist-gen llama --layers 1 --dp 2 --tp 2 --heads 8 --kv-heads 2 --optimizer adamw --zero 3 --dtype bf16 > %t/adamw3.mlir
// RUN: dist-run %t/adamw3.mlir --entry llama_step -n 4 --input-dir %t/adamw-in --out %t/zero3
// RUN: %jax_python %S/../../scripts/jax_llama.py adamw %t/adamw-in %t/zero0,%t/zero1,%t/zero2,%t/zero3 1 8 2 >> %t/errors.txt
// RUN: %python -c "import sys; [print(float(w[w.index('f64-error') + 1]) <= float(w[w.index('xla-f64-error') + 1])) for w in map(str.split, open(sys.argv[1]))]" %t/errors.txt | FileCheck %s --check-prefix=ERROR
// ERROR-COUNT-6: True
// ERROR-NOT:     False
