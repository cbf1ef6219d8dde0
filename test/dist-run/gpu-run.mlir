// REQUIRES: ptxas, cuda-driver
// On a machine with a GPU: the Megatron MLP step on one GPU, and on the
// 2 x 2 mesh over NCCL when there are 4 GPUs, agrees with the CPU run.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../../scripts/npy.py inputs %S/../../examples/megatron-mlp.mlir step %t/in
// RUN: dist-run %S/../../examples/megatron-mlp.mlir --entry step -n 1 --input-dir %t/in --out %t/cpu
// RUN: dist-run %S/../../examples/megatron-mlp.mlir --entry step -n 1 --input-dir %t/in --out %t/gpu --device gpu
// RUN: %python %S/../../scripts/npy.py compare %t/cpu %t/gpu | FileCheck %s
// CHECK: loss {{[0-9.]+}} (reference {{[0-9.]+}}); 4 results; max difference against -n 1: {{.*}}e-0{{[5-9]}}
