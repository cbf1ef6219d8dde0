// REQUIRES: ptxas
// dist-run --device gpu compiles the step to PTX kernels and links a host
// program against the runtime's CUDA-driver and NCCL backend (it is kept
// with --keep-exe). Without a GPU it then says so and fails; with one (and
// CUDA_ROOT), gpu-run.mlir compares its results with the CPU's.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../../scripts/npy.py inputs %S/../../examples/megatron-mlp.mlir step %t/in
// RUN: %if cuda-driver %{ dist-run %S/../../examples/megatron-mlp.mlir --entry step -n 1 --input-dir %t/in --out %t/gpu --device gpu --keep-exe %t/step %} %else %{ not dist-run %S/../../examples/megatron-mlp.mlir --entry step -n 4 --input-dir %t/in --out %t/gpu --device gpu --overlap --keep-exe %t/step 2>&1 | FileCheck %s --check-prefix=NOGPU %}
// RUN: %python -c "import os, sys; sys.exit(not os.access(sys.argv[1], os.X_OK))" %t/step
// NOGPU: dist-run: --device gpu needs an NVIDIA GPU and its driver: the CUDA driver (libcuda.so.1) is not installed
// Every kernel the executable carries assembles, as the driver's JIT would
// assemble it: kernels are named after their functions, so dist-run's names
// for the program's functions must be PTX identifiers, whatever the entry's.
// RUN: %python %S/Inputs/ptxas_all.py %t/step %ptxas sm_90 | FileCheck %s --check-prefix=PTXAS
// RUN: sed -e 's/@step(/@"my step.v2"(/' %S/../../examples/megatron-mlp.mlir > %t/quoted.mlir
// RUN: %if cuda-driver %{ dist-run %t/quoted.mlir --entry "my step.v2" -n 1 --input-dir %t/in --out %t/quoted --device gpu --keep-exe %t/quoted-step %} %else %{ not dist-run %t/quoted.mlir --entry "my step.v2" -n 1 --input-dir %t/in --out %t/quoted --device gpu --keep-exe %t/quoted-step %}
// RUN: %python %S/Inputs/ptxas_all.py %t/quoted-step %ptxas sm_90 | FileCheck %s --check-prefix=PTXAS
// PTXAS: {{[1-9][0-9]*}} PTX modules assembled
//
// Bad GPU options are clear errors.
// RUN: not dist-run %S/../../examples/megatron-mlp.mlir --entry step -n 1 --input-dir %t/in --out %t/x --device tpu 2>&1 | FileCheck %s --check-prefix=DEVICE
// DEVICE: error: invalid value 'tpu' for '--device <DEVICE>'
// DEVICE-NEXT: [possible values: cpu, gpu]
// RUN: not dist-run %S/../../examples/megatron-mlp.mlir --entry step -n 1 --input-dir %t/in --out %t/x --device gpu --chip sm_75 2>&1 | FileCheck %s --check-prefix=CHIP
// CHIP: error: invalid value 'sm_75' for '--chip <CHIP>': must be sm_80 or sm_90
// RUN: not dist-run %S/../../examples/megatron-mlp.mlir --entry step -n 1 --input-dir %t/in --out %t/x --chip sm_80 2>&1 | FileCheck %s --check-prefix=CPU-CHIP
// CPU-CHIP: error: --chip needs --device gpu
// RUN: not dist-run %S/../../examples/megatron-mlp.mlir --entry step -n 1 --input-dir %t/in --out %t/x --matmul-tile 32,32,8 2>&1 | FileCheck %s --check-prefix=CPU-TILE
// CPU-TILE: error: --matmul-tile needs --device gpu
// RUN: not dist-run %S/../../examples/megatron-mlp.mlir --entry step --device gpu --gpu-matmul=generated --matmul-tile 64,64 --no-run --keep-exe %t/x 2>&1 | FileCheck %s --check-prefix=BAD-TILE
// BAD-TILE: error: invalid value '64,64' for '--matmul-tile <M,N,K>': must be three positive sizes M,N,K
// RUN: not dist-run %S/../../examples/megatron-mlp.mlir --entry step --device gpu --matmul-tile 32,32,8 --no-run --keep-exe %t/x 2>&1 | FileCheck %s --check-prefix=CUBLASLT-TILE
// CUBLASLT-TILE: error: --matmul-tile tiles the generated products: it needs --gpu-matmul=generated
// RUN: not dist-run %S/../../examples/megatron-mlp.mlir --entry step -n 1 --input-dir %t/in --out %t/x --gpu-matmul generated 2>&1 | FileCheck %s --check-prefix=CPU-MATMUL
// CPU-MATMUL: error: --gpu-matmul needs --device gpu
// RUN: not dist-run %S/../../examples/megatron-mlp.mlir --entry step --device gpu --gpu-matmul=cublas --no-run --keep-exe %t/x 2>&1 | FileCheck %s --check-prefix=BAD-MATMUL
// BAD-MATMUL: error: invalid value 'cublas' for '--gpu-matmul <GPU_MATMUL>': must be cublaslt or generated
// RUN: not dist-run %S/../../examples/megatron-mlp.mlir --entry step --device gpu --gpu-matmul=generated --gpu-tf32 --no-run --keep-exe %t/x 2>&1 | FileCheck %s --check-prefix=GENERATED-TF32
// RUN: not dist-run %S/../../examples/megatron-mlp.mlir --entry step -n 1 --input-dir %t/in --out %t/x --gpu-tf32 2>&1 | FileCheck %s --check-prefix=GENERATED-TF32
// GENERATED-TF32: error: --gpu-tf32 needs --device gpu with products on cuBLASLt (--gpu-matmul=cublaslt)
// RUN: not dist-run %S/../../examples/megatron-mlp.mlir --entry step --no-run 2>&1 | FileCheck %s --check-prefix=KEEP-EXE
// KEEP-EXE: error: --no-run needs --keep-exe: without it nothing would be left
// RUN: not dist-run %S/../../examples/megatron-mlp.mlir --entry step --runtime %t/none.a --no-run --keep-exe %t/x 2>&1 | FileCheck %s --check-prefix=RUNTIME
// RUNTIME: error: invalid value '{{.*}}none.a' for '--runtime <LIB>': no such library
//
// --no-run builds without inputs (a program for another machine), here
// with the products generated with another block tile; its kernels
// assemble too.
// RUN: dist-run %S/../../examples/megatron-mlp.mlir --entry step --device gpu --gpu-matmul=generated --matmul-tile 32,32,8 --no-run --keep-exe %t/tiled
// RUN: %python %S/Inputs/ptxas_all.py %t/tiled %ptxas sm_90 | FileCheck %s --check-prefix=PTXAS
