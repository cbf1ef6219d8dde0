// REQUIRES: jax
// The Llama-style block against an independent autodiff reference: the same
// model written in JAX as Llama code has it (repeat_kv, rotate_half, a -inf
// mask, log_softmax; scripts/jax_llama.py through Inputs/llama_jax.py,
// float64), on the same inputs. The
// loss and the 12 gradients of dist-run --grad, on one device and on the
// 2 x 2 mesh, agree with it (npy.py compare names the reference "-n 1").
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../../scripts/npy.py inputs %S/Inputs/llama-block.mlir llama %t/in --id-range 64 > /dev/null
// RUN: %jax_python %S/Inputs/llama_jax.py %t/in %t/jax
// RUN: dist-run %S/Inputs/llama-block.mlir --grad --entry llama -n 1 --input-dir %t/in --out %t/n1
// RUN: dist-run %S/Inputs/llama-block.mlir --grad --entry llama -n 4 --input-dir %t/in --out %t/n4
// RUN: %python %S/../../scripts/npy.py compare %t/jax %t/n1 | FileCheck %s
// RUN: %python %S/../../scripts/npy.py compare %t/jax %t/n4 | FileCheck %s
// CHECK: 13 results; max difference against -n 1: {{[0-9.]+e-0[6-9]$}}
