// The pipelines' earlier names are aliases of the current ones: the same
// passes, byte-identical output.
// RUN: dist-opt %S/../../examples/megatron-mlp.mlir --dist-partition-pipeline > %t.local.old
// RUN: dist-opt %S/../../examples/megatron-mlp.mlir --dist-lower-to-local > %t.local
// RUN: diff %t.local.old %t.local
// RUN: dist-opt %t.local --dist-lower-to-llvm > %t.cpu.old
// RUN: dist-opt %t.local --dist-lower-to-cpu > %t.cpu
// RUN: diff %t.cpu.old %t.cpu
// RUN: dist-opt %t.local --dist-gpu-kernels > %t.kernels.old
// RUN: dist-opt %t.local --dist-lower-to-gpu-kernels > %t.kernels
// RUN: diff %t.kernels.old %t.kernels
// RUN: dist-opt --help | FileCheck %s

// CHECK-LABEL: Pass Pipelines:
// CHECK:      --dist-lower-to-local {{ *}}- Global view to per-device programs
// CHECK-NEXT: --dist-partition-pipeline {{ *}}- Alias of --dist-lower-to-local
// CHECK:      --dist-lower-to-cpu {{ *}}- Lower local or single-device dist IR to the LLVM dialect
// CHECK-NEXT: --dist-lower-to-llvm {{ *}}- Alias of --dist-lower-to-cpu
// CHECK:      --dist-lower-to-gpu-kernels {{ *}}- Lower local or single-device dist IR to GPU kernels
// CHECK-NEXT: --dist-gpu-kernels {{ *}}- Alias of --dist-lower-to-gpu-kernels
// CHECK:      --dist-lower-gpu-host-to-llvm {{ *}}- Lower a host program
// CHECK-NEXT: --dist-gpu-host-to-llvm {{ *}}- Alias of --dist-lower-gpu-host-to-llvm
// CHECK:      --dist-lower-to-gpu {{ *}}- dist-lower-to-gpu-kernels, dist-compile-gpu-kernels
