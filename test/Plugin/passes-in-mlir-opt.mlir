// The plugin (target/<profile>/libdist_mlir_plugin.so) loaded by upstream
// mlir-opt as both a dialect and a pass plugin: the dist passes run inside
// mlir-opt's pass manager and print what dist-opt prints, byte for byte.
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t
// RUN: mlir-opt --load-dialect-plugin=%dist_plugin --load-pass-plugin=%dist_plugin %s \
// RUN:   --pass-pipeline='builtin.module(func.func(dist-propagate-sharding,dist-resolve-partial))' -o %t/mlir-opt.mlir
// RUN: dist-opt %s --pass-pipeline='builtin.module(func.func(dist-propagate-sharding,dist-resolve-partial))' -o %t/dist-opt.mlir
// RUN: cmp %t/mlir-opt.mlir %t/dist-opt.mlir
// RUN: FileCheck %s --input-file %t/mlir-opt.mlir
// CHECK: dist.all_reduce %{{.*}} on @mesh axes = ["tp"] kind = sum
//
// Pass options and named pipelines (and their old names) are registered too.
// RUN: mlir-opt --load-dialect-plugin=%dist_plugin --load-pass-plugin=%dist_plugin %s \
// RUN:   --pass-pipeline='builtin.module(func.func(dist-propagate-sharding{remarks=none direction=forward}),dist-lower-to-local)' \
// RUN:   | FileCheck %s --check-prefix=LOCAL
// LOCAL: func.func @step({{.*}} {dist.local = #dist.sharding<@mesh, [{"dp"}, {"tp"}]>}
// LOCAL: dist.all_reduce
//
// mlir-opt's instrumentation sees the Rust passes: timing, IR dumps.
// RUN: mlir-opt --load-dialect-plugin=%dist_plugin --load-pass-plugin=%dist_plugin %s \
// RUN:   --pass-pipeline='builtin.module(func.func(dist-propagate-sharding,dist-resolve-partial))' --mlir-timing -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TIMING
// TIMING: dist-propagate-sharding
// TIMING: dist-resolve-partial
// RUN: mlir-opt --load-dialect-plugin=%dist_plugin --load-pass-plugin=%dist_plugin %s \
// RUN:   --pass-pipeline='builtin.module(func.func(dist-propagate-sharding))' --mlir-print-ir-after-all -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DUMP
// DUMP: IR Dump After dist-propagate-sharding (dist-propagate-sharding)
// DUMP: dist.matmul %{{.*}} {dist.sharding =
//
// A pass failure is a located diagnostic and leaves a crash reproducer
// that names the pipeline.
// RUN: not mlir-opt --load-dialect-plugin=%dist_plugin --load-pass-plugin=%dist_plugin %S/Inputs/unpropagated.mlir \
// RUN:   --pass-pipeline='builtin.module(func.func(dist-partition))' --mlir-pass-pipeline-crash-reproducer=%t/repro.mlir \
// RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=FAIL
// FAIL: unpropagated.mlir:5:8: error: this value has no sharding: run dist-propagate-sharding first
// RUN: FileCheck %s --check-prefix=REPRO --input-file %t/repro.mlir
// REPRO: pipeline: "builtin.module(func.func(dist-partition))"
//
// A bad option is refused with the pass's own message.
// RUN: not mlir-opt --load-dialect-plugin=%dist_plugin --load-pass-plugin=%dist_plugin %s \
// RUN:   --pass-pipeline='builtin.module(func.func(dist-propagate-sharding{direction=sideways}))' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BAD
// BAD: direction must be both, forward or backward, not 'sideways'
//
// The named pipelines (and their old names) as dist-opt runs them; the
// comparison below runs each through mlir-opt too.
// RUN: dist-opt %s --dist-lower-to-local | FileCheck %s --check-prefix=LOCAL
// RUN: dist-opt %s --dist-partition-pipeline | FileCheck %s --check-prefix=LOCAL
// RUN: dist-opt %s --dist-lower-to-local --dist-lower-to-cpu | FileCheck %s --check-prefix=CPU
// RUN: dist-opt %s --dist-lower-to-local --dist-lower-to-llvm | FileCheck %s --check-prefix=CPU
// CPU: llvm.func @step
// CPU: llvm.call @dist_rt_all_reduce_f32
// RUN: dist-opt %s --dist-lower-to-local --dist-lower-to-gpu-kernels | FileCheck %s --check-prefix=KERNELS
// RUN: dist-opt %s --dist-lower-to-local --dist-gpu-kernels | FileCheck %s --check-prefix=KERNELS
// KERNELS: call @dist_rt_gpu_contract_f32
// KERNELS: call @dist_rt_all_reduce_f32
// RUN: dist-opt %s --dist-lower-to-local --dist-gpu-kernels=matmul=generated | FileCheck %s --check-prefix=GENERATED
// GENERATED: gpu.launch_func async [{{.*}}] @step_kernel::@step_kernel
// GENERATED: gpu.module @step_kernel
// RUN: dist-opt %s --dist-lower-to-local --dist-gpu-kernels=matmul=generated --dist-compile-gpu-kernels --dist-lower-gpu-host-to-llvm \
// RUN:   | FileCheck %s --check-prefix=HOST
// RUN: dist-opt %s --dist-lower-to-local --dist-gpu-kernels=matmul=generated --dist-compile-gpu-kernels --dist-gpu-host-to-llvm \
// RUN:   | FileCheck %s --check-prefix=HOST
// HOST: llvm.func @step
// HOST: gpu.binary @step_kernel
// RUN: dist-opt %s --dist-lower-to-local --dist-lower-to-gpu | FileCheck %s --check-prefix=CUBLASLT-HOST
// CUBLASLT-HOST: llvm.func @step
// CUBLASLT-HOST: llvm.call @_mlir_ciface_dist_rt_gpu_contract_f32
// RUN: dist-opt %s --dist-canonicalize-globals | FileCheck %s --check-prefix=GLOBALS
// GLOBALS: func.func @step
//
// Every dist-opt command of the pass, lowering, example and dialect tests
// that uses only passes and mlir-opt's flags gives the same output through
// mlir-opt with the plugin: its pass flags as the pipeline dist-opt builds
// from them (every pass and named pipeline appears in one).
// RUN: %python %S/Inputs/both_drivers.py %dist_bin_dir/dist-opt mlir-opt %dist_plugin %S %S/../Transforms \
// RUN:   %S/../Conversion %S/../Target %S/../Examples %S/../Dialect/Dist | FileCheck %s --check-prefix=BOTH
// BOTH: {{[0-9]+}} commands of {{[0-9]+}} tests gave the same output in dist-opt and mlir-opt with the plugin
// BOTH-NEXT: run in dist-opt only (its own flags): --emit
dist.mesh @mesh = <["dp"=2, "tp"=2]>
func.func @step(%x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {"tp"}]>},
                %w: tensor<16x8xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>}) -> tensor<8x8xf32> {
  %y = dist.matmul %x, %w : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  return %y : tensor<8x8xf32>
}
