// --emit writes LLVM IR or an object once the module is in the LLVM
// dialect; before that it is a clear error.
// RUN: dist-opt %S/../../examples/megatron-mlp.mlir --dist-partition-pipeline --dist-lower-to-llvm --emit=llvm -O3 | FileCheck %s --check-prefix=LL
// LL: define {{.*}}@step(
// LL: call {{.*}}@_mlir_ciface_dist_rt_all_reduce_f32
// RUN: not dist-opt %S/../../examples/megatron-mlp.mlir --emit=obj -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNLOWERED
// UNLOWERED: error: code generation failed: the module does not translate to LLVM IR: lower it to the LLVM dialect first (--dist-lower-to-cpu)
// RUN: not dist-opt %S/../../examples/megatron-mlp.mlir --emit=exe 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: --emit takes mlir, llvm, obj or ptx, not 'exe'
//
// --mcpu: a generic x86-64 by default (SSE: vectors of 4 floats), a newer
// level or this machine's CPU on request; anything else is refused.
// RUN: dist-opt %S/../../examples/megatron-mlp.mlir --dist-lower-to-llvm --emit=llvm -O3 | FileCheck %s --check-prefix=GENERIC
// GENERIC: <4 x float>
// GENERIC-NOT: <8 x float>
// RUN: dist-opt %S/../../examples/megatron-mlp.mlir --dist-lower-to-llvm --emit=llvm -O3 --mcpu=x86-64-v3 | FileCheck %s --check-prefix=V3
// V3: <8 x float>
// RUN: dist-opt %S/../../examples/megatron-mlp.mlir --dist-lower-to-llvm --emit=obj --mcpu=native -o %t.o
// RUN: not dist-opt %S/../../examples/megatron-mlp.mlir --dist-lower-to-llvm --emit=obj --mcpu=pentium -o /dev/null 2>&1 | FileCheck %s --check-prefix=CPU
// CPU: --mcpu takes native, x86-64, x86-64-v2, x86-64-v3, x86-64-v4, not 'pentium'
