// RUN: env -u CUDA_ROOT dist-opt %s --split-input-file --verify-diagnostics --dist-lower-to-gpu
// RUN: not dist-opt %s --split-input-file --pass-pipeline='builtin.module(dist-gpu-kernels,dist-compile-gpu-kernels{libdevice=%t.missing.bc})' 2>&1 | FileCheck %s --check-prefix=MISSING

// A kernel that calls a libdevice function needs libdevice: without
// CUDA_ROOT or the libdevice option, the error names both, at the op whose
// kernel needs it; a libdevice option naming no file says so.
func.func @needs_libdevice(%x: tensor<256xf32>) -> tensor<256xf32> {
  // expected-error @+1 {{a kernel calls a math function from libdevice: set CUDA_ROOT to a CUDA toolkit (or the nvidia-cuda-nvcc-cu12 wheel's nvidia/cuda_nvcc) or pass libdevice=PATH}}
  %g = dist.gelu %x : (tensor<256xf32>) -> tensor<256xf32>
  return %g : tensor<256xf32>
}
// MISSING: ptx-invalid.mlir:[[@LINE-3]]:8: error: libdevice not found at '{{.*}}.missing.bc'

