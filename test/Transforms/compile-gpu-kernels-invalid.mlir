// RUN: dist-opt %s --verify-diagnostics --dist-compile-gpu-kernels

// A kernel module still in the GPU dialect cannot be compiled: the
// translation's own errors come first, then the pass says what to run.
module attributes {gpu.container_module} {
  // expected-error @+1 {{the kernel module does not translate to LLVM IR: lower it to the NVVM dialect first}}
  gpu.module @unlowered {
    // expected-error @+2 {{unsupported GPU operation: gpu.func}}
    // expected-error @+1 {{LLVM Translation failed for operation: gpu.func}}
    gpu.func @kernel() kernel {
      gpu.return
    }
  }
}
