// REQUIRES: jax
// dist-gen llama against an independent autodiff reference: the same model
// written in JAX as Llama code has it (repeat_kv, rotate_half, a -inf mask,
// log_softmax; scripts/jax_llama.py, float64), with Llama's rotary tables
// (base 10000) and parameters of a trained model's scale. Two layers, 8
// query heads sharing 2 key/value heads; the loss and the 22 gradients of
// dist-run --grad, on one device and on dp x sp x tp = 2 x 2 x 2, agree with
// it to 1e-4 of each tensor's largest value.
// RUN: rm -rf %t && mkdir -p %t
// RUN: dist-gen llama --layers 2 --dp 2 --tp 2 --sp 2 --heads 8 --kv-heads 2 --forward-only > %t/llama.mlir
// RUN: %python %S/../../scripts/npy.py inputs %t/llama.mlir llama_step %t/in --id-range 256 --scale 0.1 > /dev/null
// RUN: %jax_python %S/../../scripts/jax_llama.py rope %t/in 10000
// RUN: %jax_python %S/../../scripts/jax_llama.py grad %t/in %t/jax 2 8 2
// RUN: dist-run %t/llama.mlir --grad --entry llama_step -n 1 --input-dir %t/in --out %t/n1
// RUN: dist-run %t/llama.mlir --grad --entry llama_step -n 8 --input-dir %t/in --out %t/n8
// RUN: %python %S/../../scripts/npy.py compare %t/jax %t/n1 --per-tensor | FileCheck %s
// RUN: %python %S/../../scripts/npy.py compare %t/jax %t/n8 --per-tensor | FileCheck %s
// CHECK: 22 results; max difference relative to each tensor's largest value: {{[0-9.]+e-0[5-9]$}}
