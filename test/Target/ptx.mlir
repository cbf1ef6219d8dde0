// REQUIRES: ptxas
// RUN: dist-opt %s --split-input-file --dist-lower-to-gpu=matmul=generated --emit=ptx | FileCheck %s
// RUN: dist-opt %s --split-input-file --pass-pipeline='builtin.module(dist-gpu-kernels{matmul=generated},dist-compile-gpu-kernels{chip=sm_80},dist-gpu-host-to-llvm)' --emit=ptx | FileCheck %s --check-prefix=SM80
// RUN: dist-opt %s --split-input-file --dist-lower-to-gpu=matmul=generated | FileCheck %s --check-prefix=HOST
// The emitted PTX assembles.
// RUN: dist-opt %s --split-input-file --dist-lower-to-gpu=matmul=generated --emit=ptx -o %t.ptx
// RUN: %python %S/Inputs/ptxas_each.py %ptxas sm_90 %t.ptx | FileCheck %s --check-prefix=PTXAS
// RUN: dist-opt %s --split-input-file --pass-pipeline='builtin.module(dist-gpu-kernels{matmul=generated},dist-compile-gpu-kernels{chip=sm_80},dist-gpu-host-to-llvm)' --emit=ptx -o %t.sm80.ptx
// RUN: %python %S/Inputs/ptxas_each.py %ptxas sm_80 %t.sm80.ptx | FileCheck %s --check-prefix=PTXAS80
// RUN: not dist-opt %s --dist-compile-gpu-kernels=chip=sm_70 2>&1 | FileCheck %s --check-prefix=BAD-CHIP
// RUN: not dist-opt %s --emit=ptx 2>&1 | FileCheck %s --check-prefix=NO-KERNELS
// RUN: not dist-opt %s --dist-compile-gpu-kernels=opt-level=4 2>&1 | FileCheck %s --check-prefix=BAD-OPT
// RUN: not dist-opt %s --dist-compile-gpu-kernels=jobs=many 2>&1 | FileCheck %s --check-prefix=BAD-JOBS
// BAD-OPT: opt-level must be an integer from 0 to 3, not '4'
// BAD-JOBS: jobs must be a non-negative integer, not 'many'

// BAD-CHIP: chip must be sm_80 or sm_90, not 'sm_70'
// NO-KERNELS: error: code generation failed: the module has no GPU kernels: compile them first (--dist-lower-to-gpu)
// PTXAS: ptxas assembled 31 of 31 kernels for sm_90, 0 spilling registers
// PTXAS80: ptxas assembled 31 of 31 kernels for sm_80, 0 spilling registers

// The tiled matmul's kernel is an sm_90 entry point with two 4 KiB
// shared-memory tiles, barriers between the stages, and its product read
// from shared memory; the gelu's erf comes from libdevice, linked and
// inlined (no external function is left).
func.func @matmul_gelu(%x: tensor<64x32xf32>, %w: tensor<32x128xf32>) -> tensor<64x128xf32> {
  %y = dist.matmul %x, %w : (tensor<64x32xf32>, tensor<32x128xf32>) -> tensor<64x128xf32>
  %g = dist.gelu %y : (tensor<64x128xf32>) -> tensor<64x128xf32>
  return %g : tensor<64x128xf32>
}
// CHECK-LABEL: // gpu.binary @matmul_gelu_kernel
// CHECK:       .target sm_90
// CHECK-NEXT:  .address_size 64
// CHECK:       .visible .entry matmul_gelu_kernel(
// CHECK:       .shared .align {{[0-9]+}} .b8 [[TILE_A:__wg_[a-z_0-9]+]][4096];
// CHECK:       .shared .align {{[0-9]+}} .b8 [[TILE_B:__wg_[a-z_0-9]+]][4096];
// CHECK:       st.shared.{{(v4.)?}}b32
// CHECK:       bar.sync 0;
// CHECK:       ld.shared.{{(v4.)?}}b32
// CHECK:       ld.shared.{{(v4.)?}}b32
// CHECK-LABEL: // gpu.binary @matmul_gelu_kernel_0
// CHECK:       .target sm_90
// CHECK:       .visible .entry matmul_gelu_kernel(
// CHECK-NOT:   .shared
// CHECK-NOT:   bar.sync
// CHECK-NOT:   .extern
// CHECK-NOT:   __nv_erff
// CHECK:       ret;
// SM80-LABEL: // gpu.binary @matmul_gelu_kernel
// SM80:       .target sm_80
// SM80-LABEL: // gpu.binary @matmul_gelu_kernel_0
// SM80:       .target sm_80
// The host embeds the PTX for the driver to load.
// HOST-LABEL: llvm.func @matmul_gelu
// HOST:         gpu.launch_func <{{.*}}> @matmul_gelu_kernel::@matmul_gelu_kernel
// HOST:         gpu.launch_func <{{.*}}> @matmul_gelu_kernel_0::@matmul_gelu_kernel
// HOST:       gpu.binary @matmul_gelu_kernel <#gpu.select_object<0 : i64>> [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "{{.*}}.target sm_90

// -----

// Elementwise producers fuse into their consumers: two gelus are one kernel.
func.func @twice(%x: tensor<1024xf32>) -> tensor<1024xf32> {
  %a = dist.gelu %x : (tensor<1024xf32>) -> tensor<1024xf32>
  %b = dist.gelu %a : (tensor<1024xf32>) -> tensor<1024xf32>
  return %b : tensor<1024xf32>
}
// CHECK-LABEL: // gpu.binary @twice_kernel
// CHECK:       .visible .entry twice_kernel(
// CHECK-NOT:   // gpu.binary @twice
// HOST-LABEL: llvm.func @twice
// HOST-COUNT-1: gpu.launch_func
// HOST-NOT:     gpu.launch_func
// HOST:       gpu.binary @twice_kernel
// HOST-NOT:   gpu.binary @twice

// -----

// Two matmuls of the same shapes outline to kernels that differ only in
// their names: one is compiled, and both launches use it.
func.func @same_shapes(%x: tensor<32x32xf32>, %w1: tensor<32x32xf32>, %w2: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %a = dist.matmul %x, %w1 : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  %b = dist.matmul %x, %w2 : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  %s = dist.add %a, %b : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  return %s : tensor<32x32xf32>
}
// CHECK-LABEL: // gpu.binary @same_shapes_kernel
// CHECK:       .shared
// CHECK-LABEL: // gpu.binary @same_shapes_kernel_1
// CHECK-NOT:   // gpu.binary
// HOST-LABEL: llvm.func @same_shapes
// HOST:         gpu.launch_func <{{.*}}> @[[MM:same_shapes_kernel]]::@same_shapes_kernel
// HOST:         gpu.launch_func <{{.*}}> @[[MM]]::@same_shapes_kernel
// HOST:         gpu.launch_func <{{.*}}> @same_shapes_kernel_1::@same_shapes_kernel
// HOST:       gpu.binary @same_shapes_kernel
// HOST:       gpu.binary @same_shapes_kernel_1
// HOST-NOT:   gpu.binary

// -----

// The same matmul in two functions: kernels named after each function
// (and their shared-memory buffers after each kernel) still compile once.
func.func @first(%x: tensor<32x32xf32>, %w: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %y = dist.matmul %x, %w : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  return %y : tensor<32x32xf32>
}
func.func @second(%x: tensor<32x32xf32>, %w: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %y = dist.matmul %x, %w : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  return %y : tensor<32x32xf32>
}
// CHECK-LABEL: // gpu.binary @first_kernel
// CHECK:       .shared .align {{[0-9]+}} .b8 __wg_first_kernel_0
// CHECK-NOT:   // gpu.binary
// HOST-LABEL: llvm.func @first
// HOST:         gpu.launch_func <{{.*}}> @first_kernel::@first_kernel
// HOST:       gpu.binary @first_kernel
// HOST-LABEL: llvm.func @second
// HOST:         gpu.launch_func <{{.*}}> @first_kernel::@first_kernel
// HOST-NOT:   gpu.binary

// -----

// The math functions, the broadcasting binary ops and their gradients
// compile to kernels (counted by the PTXAS line): exp, log, tanh and the
// sigmoid's exp come from libdevice.
func.func @math(%x: tensor<32x64xf32>, %r: tensor<32x1xf32>, %d: tensor<32x64xf32>)
    -> (tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x1xf32>, tensor<32x64xf32>) {
  %e = dist.exp %x : (tensor<32x64xf32>) -> tensor<32x64xf32>
  %l = dist.log %e : (tensor<32x64xf32>) -> tensor<32x64xf32>
  %s = dist.silu %l : (tensor<32x64xf32>) -> tensor<32x64xf32>
  %t = dist.tanh %s : (tensor<32x64xf32>) -> tensor<32x64xf32>
  %q = dist.rsqrt %r : (tensor<32x1xf32>) -> tensor<32x1xf32>
  %z = dist.div %t, %q : (tensor<32x64xf32>, tensor<32x1xf32>) -> tensor<32x64xf32>
  %m = dist.maximum %z, %x : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
  %dx, %dr = dist.div_grad %t, %q, %d : (tensor<32x64xf32>, tensor<32x1xf32>, tensor<32x64xf32>) -> (tensor<32x64xf32>, tensor<32x1xf32>)
  %g = dist.silu_grad %x, %d : (tensor<32x64xf32>, tensor<32x64xf32>) -> tensor<32x64xf32>
  return %m, %dx, %dr, %g : tensor<32x64xf32>, tensor<32x64xf32>, tensor<32x1xf32>, tensor<32x64xf32>
}
// CHECK-LABEL: // gpu.binary @math_kernel
// CHECK:       .visible .entry math_kernel(
// CHECK-NOT:   .extern
// HOST-LABEL: llvm.func @math
// HOST:         gpu.launch_func <{{.*}}> @math_kernel::@math_kernel

// -----

// Slices and concatenations (rotate-half) compile to kernels too.
func.func @rotate_half(%x: tensor<4x8x16xf32>) -> tensor<4x8x16xf32> {
  %a = dist.slice %x {offsets = array<i64: 0, 0, 0>, sizes = array<i64: 4, 8, 8>} : (tensor<4x8x16xf32>) -> tensor<4x8x8xf32>
  %b = dist.slice %x {offsets = array<i64: 0, 0, 8>, sizes = array<i64: 4, 8, 8>} : (tensor<4x8x16xf32>) -> tensor<4x8x8xf32>
  %n = dist.neg %b : (tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %c = dist.concat %n, %a {dim = 2 : i64} : (tensor<4x8x8xf32>, tensor<4x8x8xf32>) -> tensor<4x8x16xf32>
  return %c : tensor<4x8x16xf32>
}
// HOST-LABEL: llvm.func @rotate_half
// HOST:         gpu.launch_func

// -----

// A causal mask with its offsets, as a partitioned step has it.
func.func @masked(%s: tensor<2x4x8xf32>, %q: index, %k: index) -> tensor<2x4x8xf32> {
  %m = dist.causal_mask %s, %q, %k : (tensor<2x4x8xf32>, index, index) -> tensor<2x4x8xf32>
  %p = dist.softmax %m {axis = 2 : i64} : (tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  return %p : tensor<2x4x8xf32>
}
// HOST-LABEL: llvm.func @masked
// HOST:         gpu.launch_func

// -----

// The fused cross-entropy and its gradient, as one device runs them, with
// the integer labels read in the kernels.
func.func @xent(%x: tensor<4x8x64xf32>, %labels: tensor<4x8xi64>, %dl: tensor<f32>) -> (tensor<f32>, tensor<4x8x64xf32>) {
  %l = dist.cross_entropy %x, %labels : (tensor<4x8x64xf32>, tensor<4x8xi64>) -> tensor<f32>
  %g = dist.cross_entropy_grad %x, %labels, %dl : (tensor<4x8x64xf32>, tensor<4x8xi64>, tensor<f32>) -> tensor<4x8x64xf32>
  return %l, %g : tensor<f32>, tensor<4x8x64xf32>
}
// HOST-LABEL: llvm.func @xent
// HOST:         gpu.launch_func

// -----

// bf16 products on the tensor cores, on sm_90 and sm_80 alike: one
// mma.sync.m16n8k16 (bf16 in, f32 sums) per warp and K step, for a plain
// product, one with a transposed weight, and attention's batched scores
// (batch and heads on the host and the grid); each result rounded to bf16
// in its own kernel. The rest of a bf16 step (gelu here) stays on threads.
func.func @bf16_products(%x: tensor<64x32xbf16>, %w: tensor<32x64xbf16>, %wt: tensor<64x32xbf16>,
                         %q: tensor<2x4x32x16xbf16>, %k: tensor<2x4x16x32xbf16>)
    -> (tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<2x4x32x32xbf16>) {
  %y = dist.matmul %x, %w : (tensor<64x32xbf16>, tensor<32x64xbf16>) -> tensor<64x64xbf16>
  %g = dist.gelu %y : (tensor<64x64xbf16>) -> tensor<64x64xbf16>
  %t = dist.matmul %x, %wt {transpose_y} : (tensor<64x32xbf16>, tensor<64x32xbf16>) -> tensor<64x64xbf16>
  %s = dist.matmul %q, %k : (tensor<2x4x32x16xbf16>, tensor<2x4x16x32xbf16>) -> tensor<2x4x32x32xbf16>
  return %g, %t, %s : tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<2x4x32x32xbf16>
}
// CHECK-LABEL: // gpu.binary @bf16_products_kernel
// CHECK:       mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// CHECK-LABEL: // gpu.binary @bf16_products_kernel_1
// CHECK:       mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// CHECK-LABEL: // gpu.binary @bf16_products_kernel_3
// CHECK:       mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// SM80-LABEL: // gpu.binary @bf16_products_kernel
// SM80:       .target sm_80
// SM80:       mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// HOST-LABEL: llvm.func @bf16_products
// HOST:         gpu.launch_func
