// --emit writes LLVM IR or an object once the module is in the LLVM
// dialect; before that it is a clear error.
// RUN: dist-opt %S/../../examples/megatron-mlp.mlir --dist-partition-pipeline --dist-lower-to-llvm --emit=llvm -O3 | FileCheck %s --check-prefix=LL
// LL: define {{.*}}@step(
// LL: call {{.*}}@_mlir_ciface_dist_rt_all_reduce_f32
// RUN: not dist-opt %S/../../examples/megatron-mlp.mlir --emit=obj -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNLOWERED
// UNLOWERED: error: code generation failed: the module does not translate to LLVM IR: lower it to the LLVM dialect first (--dist-lower-to-llvm)
// RUN: not dist-opt %S/../../examples/megatron-mlp.mlir --emit=exe 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: --emit takes mlir, llvm, obj or ptx, not 'exe'
