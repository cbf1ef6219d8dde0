// The kernels the schedule generates (products included: matmul=generated).
// RUN: dist-opt %s --split-input-file --dist-gpu-kernels=matmul=generated | FileCheck %s
// The default: products are cuBLASLt calls on the stream, between the
// launches, their outputs' zeros a memset before them.
// RUN: dist-opt %s --split-input-file --dist-gpu-kernels | FileCheck %s --check-prefix=LT
// RUN: dist-opt %s --split-input-file --dist-gpu-kernels="tf32" | FileCheck %s --check-prefix=TF32
// RUN: not dist-opt %s --dist-gpu-kernels="matmul=generated tf32" 2>&1 | FileCheck %s --check-prefix=BAD-TF32
// RUN: not dist-opt %s --dist-gpu-kernels=matmul=cublas 2>&1 | FileCheck %s --check-prefix=BAD-MATMUL

// The matmul's kernel stages 64x16 and 16x64 tiles of its operands in two
// 4 KiB shared-memory buffers with a barrier after each copy and after the
// product; the gelu is a kernel of its own. The intermediate buffer, which
// only the device touches, is device memory allocated on the stream and
// freed after its last launch; the result, which the caller may read on
// the host (no caller here says otherwise), stays managed (host_shared).
func.func @matmul_gelu(%x: tensor<64x32xf32>, %w: tensor<32x128xf32>) -> tensor<64x128xf32> {
  %y = dist.matmul %x, %w : (tensor<64x32xf32>, tensor<32x128xf32>) -> tensor<64x128xf32>
  %g = dist.gelu %y : (tensor<64x128xf32>) -> tensor<64x128xf32>
  return %g : tensor<64x128xf32>
}
// CHECK-LABEL: module attributes {gpu.container_module}
// CHECK-LABEL: func.func @matmul_gelu
// CHECK-SAME:    (%[[X:.*]]: memref<64x32xf32>, %[[W:.*]]: memref<32x128xf32>) -> memref<64x128xf32>
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG:     %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG:     %[[C128:.*]] = arith.constant 128 : index
// CHECK:         %[[Y:.*]], %[[YT:.*]] = gpu.alloc async [%{{.*}}] () : memref<64x128xf32>
// CHECK-NEXT:    %[[FILL:.*]] = gpu.memset async [%[[YT]]] %[[Y]]
// CHECK-NEXT:    %[[L0:.*]] = gpu.launch_func async [%[[FILL]]] @[[MM:.*]]::@{{.*}} blocks in (%[[C2]], %[[C1]], %[[C1]]) threads in (%[[C16]], %[[C16]], %[[C1]]) args(%[[X]] : memref<64x32xf32>, %[[W]] : memref<32x128xf32>, %[[Y]] : memref<64x128xf32>
// CHECK-NEXT:    %[[G:.*]] = gpu.alloc host_shared () : memref<64x128xf32>
// CHECK-NEXT:    %[[L1:.*]] = gpu.launch_func async [%[[L0]]] @[[EW:.*]]::@{{.*}} blocks in (%[[C1]], %[[C32]], %[[C1]]) threads in (%[[C128]], %[[C2]], %[[C1]]) args(%[[Y]] : memref<64x128xf32>, %[[G]] : memref<64x128xf32>
// CHECK-NEXT:    %{{.*}} = gpu.dealloc async [%[[L1]]] %[[Y]] : memref<64x128xf32>
// CHECK-NEXT:    gpu.wait [%[[L1]]]
// CHECK-NEXT:    return %[[G]] : memref<64x128xf32>
// CHECK:       gpu.module @[[MM]] {
// CHECK-NEXT:    llvm.mlir.global internal @{{.*}}() {addr_space = 3 : i32} : !llvm.array<4096 x i8>
// CHECK-NEXT:    llvm.mlir.global internal @{{.*}}() {addr_space = 3 : i32} : !llvm.array<4096 x i8>
// CHECK-NEXT:    llvm.func @{{.*}} attributes {gpu.kernel, gpu.known_block_size = array<i32: 16, 16, 1>, gpu.known_grid_size = array<i32: 2, 1, 1>, nvvm.kernel
// CHECK-COUNT-2: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK:         nvvm.barrier0
// CHECK:         llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK:         nvvm.barrier0
// CHECK:       gpu.module @[[EW]] {
// CHECK-NOT:     addr_space = 3
// CHECK-NOT:     nvvm.barrier0
// CHECK:         llvm.call @__nv_erff
// CHECK-NOT:   dist.gpu_tile
// CHECK-NOT:   __dist_gpu_schedule

// LT-LABEL: func.func @matmul_gelu
// LT-SAME:    (%[[X:.*]]: memref<64x32xf32>, %[[W:.*]]: memref<32x128xf32>) -> memref<64x128xf32>
// LT:         %[[Y:.*]], %[[YT:.*]] = gpu.alloc async [%{{.*}}] () : memref<64x128xf32>
// LT-NEXT:    %[[FILL:.*]] = gpu.memset async [%[[YT]]] %[[Y]]
// LT-NEXT:    %[[XC:.*]] = memref.cast %[[X]] : memref<64x32xf32> to memref<*xf32>
// LT-NEXT:    %[[WC:.*]] = memref.cast %[[W]] : memref<32x128xf32> to memref<*xf32>
// LT-NEXT:    %[[YC:.*]] = memref.cast %[[Y]] : memref<64x128xf32> to memref<*xf32>
// LT-NEXT:    call @dist_rt_gpu_contract_f32(%[[XC]], %[[WC]], %[[YC]], %c49_i64, %c35_i64, %c33_i64, %c0_i64, %c0_i64)
// LT-NEXT:    %[[G:.*]] = gpu.alloc host_shared () : memref<64x128xf32>
// LT-NEXT:    %[[L1:.*]] = gpu.launch_func async [%[[FILL]]] @{{.*}} args(%[[Y]] : memref<64x128xf32>, %[[G]] : memref<64x128xf32>
// LT-NEXT:    %{{.*}} = gpu.dealloc async [%[[L1]]] %[[Y]] : memref<64x128xf32>
// LT-NEXT:    gpu.wait [%[[L1]]]
// LT-NEXT:    return %[[G]] : memref<64x128xf32>
// LT:         func.func private @dist_rt_gpu_contract_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, i64, i64, i64, i64) attributes {llvm.emit_c_interface}
// TF32-LABEL: func.func @matmul_gelu
// TF32:         call @dist_rt_gpu_contract_f32(%{{.*}}, %{{.*}}, %{{.*}}, %c49_i64, %c35_i64, %c33_i64, %c0_i64, %c1_i64)
// BAD-TF32: dist-lower-to-gpu-kernels: tf32 applies to products on cuBLASLt (matmul=cublaslt)
// BAD-MATMUL: dist-lower-to-gpu-kernels: matmul must be cublaslt or generated, not 'cublas'

// -----

// A constant a kernel reads directly (a kernel cannot read host globals) is
// the runtime's device copy, uploaded at the first call and the same buffer
// at every later one: nothing is copied or freed per call.
#id = affine_map<(d0) -> (d0)>
func.func @reads_constant(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%x, %c : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
// CHECK-LABEL: func.func @reads_constant
// CHECK-DAG:     %[[BYTES:.*]] = arith.constant 16 : i64
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK:         %[[GLOBAL:.*]] = memref.get_global @{{.*}} : memref<4xf32>
// CHECK-NEXT:    %[[ADDRESS:.*]] = memref.extract_aligned_pointer_as_index %[[GLOBAL]]
// CHECK-NEXT:    %[[DEVICE:.*]] = call @dist_rt_gpu_constant(%[[ADDRESS]], %[[BYTES]]) : (index, i64) -> memref<?xi8>
// CHECK-NEXT:    %[[UPLOADED:.*]] = memref.view %[[DEVICE]][%[[C0]]][] : memref<?xi8> to memref<4xf32>
// CHECK:         gpu.launch_func async [%{{.*}}] @{{.*}} args(%{{.*}} : memref<4xf32>, %[[UPLOADED]] : memref<4xf32>, %{{.*}} : memref<4xf32>
// CHECK-NOT:     memref.copy
// CHECK-NOT:     gpu.dealloc {{.*}} %[[UPLOADED]]
// CHECK:         return

// -----

// An elementwise op of five parallel loops is one launch: its three inner
// loops fill the grid (2 x 4 x 1 blocks of 8 x 32 threads) and each thread
// loops over the two outer ones (offsets 4096 and 2048 apart) instead of
// the host launching once per step of a loop over them.
func.func @five_loops(%s: tensor<2x2x2x32x32xf32>) -> tensor<2x2x2x32x32xf32> {
  %e = dist.exp %s : (tensor<2x2x2x32x32xf32>) -> tensor<2x2x2x32x32xf32>
  return %e : tensor<2x2x2x32x32xf32>
}
// CHECK-LABEL: func.func @five_loops
// CHECK:         %[[E:.*]] = gpu.alloc host_shared () : memref<2x2x2x32x32xf32>
// CHECK-NEXT:    %[[T:.*]] = gpu.wait async
// CHECK-NEXT:    %[[L:.*]] = gpu.launch_func async [%[[T]]] @[[K:.*]]::@{{.*}} blocks in (%c1, %c4, %c2) threads in (%c32, %c8, %c1)
// CHECK-NEXT:    gpu.wait [%[[L]]]
// CHECK-NEXT:    return %[[E]]
// CHECK:       gpu.module @[[K]]
// CHECK:         llvm.mlir.constant(2048 : index)
// CHECK-NEXT:    llvm.mlir.constant(4096 : index)
// CHECK:         llvm.br ^bb1
// CHECK:         llvm.mul %{{.*}}, %{{.*}} overflow<nsw, nuw> : i64
// CHECK:         llvm.call @__nv_expf
