// RUN: dist-opt %s --split-input-file --convert-dist-to-linalg --dist-schedule-gpu=matmul=generated | FileCheck %s
// By default products are left for cuBLASLt (dist-call-blas{library=cublaslt}):
// no tile, no launch; the elementwise op is planned as before.
// RUN: dist-opt %s --split-input-file --convert-dist-to-linalg --dist-schedule-gpu | FileCheck %s --check-prefix=LT
// RUN: dist-opt %s --split-input-file --convert-dist-to-linalg --dist-schedule-gpu="matmul=generated matmul-tile=32,16,8 max-threads=64" | FileCheck %s --check-prefix=SMALL
// RUN: not dist-opt %s --dist-schedule-gpu=matmul-tile=64,64 2>&1 | FileCheck %s --check-prefix=BAD-TILE
// RUN: not dist-opt %s --dist-schedule-gpu=max-threads=0 2>&1 | FileCheck %s --check-prefix=BAD-THREADS

// RUN: not dist-opt %s --dist-schedule-gpu=matmul-tile=128,128,64 2>&1 | FileCheck %s --check-prefix=BAD-SHARED
// RUN: not dist-opt %s --dist-schedule-gpu=max-threads=2048 2>&1 | FileCheck %s --check-prefix=BAD-BLOCK

// BAD-TILE: matmul-tile must be three positive sizes M,N,K, not '64,64'
// BAD-THREADS: max-threads must be an integer from 1 to 1024 (a block's limit), not '0'
// BAD-SHARED: matmul-tile must be sizes whose f64 tiles fit a block's 48 KiB of shared memory (these need 128 KiB), not '128,128,64'
// BAD-BLOCK: max-threads must be an integer from 1 to 1024 (a block's limit), not '2048'

// A matmul gets 64x64 block tiles, a K loop of 16 staged through shared
// memory and 16x16 threads of 4x4 outputs each; the elementwise op one
// thread per element over 2 rows x 128 columns per block.
func.func @matmul_then_elementwise(%x: tensor<64x32xf32>, %w: tensor<32x128xf32>) -> tensor<64x128xf32> {
  %y = dist.matmul %x, %w : (tensor<64x32xf32>, tensor<32x128xf32>) -> tensor<64x128xf32>
  %g = dist.gelu %y : (tensor<64x128xf32>) -> tensor<64x128xf32>
  return %g : tensor<64x128xf32>
}
// CHECK-LABEL: func.func @matmul_then_elementwise
// CHECK:         linalg.matmul {dist.gpu_tile = 0 : i64}
// CHECK:         linalg.generic
// CHECK-SAME:      attrs = {dist.gpu_tile = 1 : i64}
// CHECK-LABEL: module @__dist_gpu_schedule attributes {transform.with_named_sequence}
// CHECK:       transform.named_sequence @__dist_gpu_tile
// CHECK:         %[[MM:.*]] = transform.structured.match attributes {dist.gpu_tile = 0 : i64}
// CHECK-NEXT:    %[[MMB:.*]], %[[MMF:.*]] = transform.structured.tile_using_forall %[[MM]] tile_sizes [64, 64, 0](mapping = [#gpu.block<linear_dim_1>, #gpu.block<linear_dim_0>])
// CHECK:         transform.annotate %[[MMF]] "dist.gpu_tile"
// CHECK-NEXT:    transform.structured.tile_using_for %[[MMB]] tile_sizes [0, 0, 16]
// CHECK:         %[[EW:.*]] = transform.structured.match attributes {dist.gpu_tile = 1 : i64}
// CHECK-NEXT:    %[[EWB:.*]], %{{.*}} = transform.structured.tile_using_forall %[[EW]] tile_sizes [2, 128](mapping = [#gpu.block<linear_dim_1>, #gpu.block<linear_dim_0>])
// CHECK:         transform.structured.tile_using_forall %[[EWB]] tile_sizes [1, 1](mapping = [#gpu.thread<y>, #gpu.thread<x>])
// CHECK:       transform.named_sequence @__dist_gpu_map
// CHECK:         transform.structured.promote %{{.*}} {memory_space = #gpu.address_space<workgroup>, operands_to_promote = [0, 1]}
// CHECK-NEXT:    transform.structured.tile_using_forall %{{.*}} tile_sizes [4, 4, 0](mapping = [#gpu.thread<y>, #gpu.thread<x>])
// CHECK:         transform.split_handle
// CHECK-NEXT:    tile_using_forall %{{.*}} num_threads [16, 16](mapping = [#gpu.thread<y>, #gpu.thread<x>])
// CHECK-NEXT:    tile_using_forall %{{.*}} num_threads [16, 16](mapping = [#gpu.thread<y>, #gpu.thread<x>])
// CHECK-NEXT:    %[[L0:.*]] = transform.gpu.map_forall_to_blocks %{{.*}} generate_gpu_launch
// CHECK-NEXT:    transform.gpu.map_nested_forall_to_threads %[[L0]] block_dims = [16, 16, 1] :
// CHECK:         %[[L1:.*]] = transform.gpu.map_forall_to_blocks %{{.*}} generate_gpu_launch
// CHECK-NEXT:    transform.gpu.map_nested_forall_to_threads %[[L1]] block_dims = [128, 2, 1] sync_after_distribute = false
// SMALL-LABEL: func.func @matmul_then_elementwise
// SMALL:         tile_using_forall %{{.*}} tile_sizes [32, 16, 0]
// SMALL:         tile_using_for %{{.*}} tile_sizes [0, 0, 8]
// SMALL:         tile_using_forall %{{.*}} tile_sizes [1, 64](mapping
// SMALL:         promote
// SMALL-NEXT:    tile_using_forall %{{.*}} tile_sizes [4, 2, 0](mapping = [#gpu.thread<y>, #gpu.thread<x>])
// SMALL:         block_dims = [8, 8, 1] :
// SMALL:         block_dims = [64, 1, 1] sync_after_distribute = false
// LT-LABEL: func.func @matmul_then_elementwise
// LT:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<64x32xf32>, tensor<32x128xf32>) outs(%{{.*}} : tensor<64x128xf32>) -> tensor<64x128xf32>
// LT:         linalg.generic {{.*}}dist.gpu_tile = 0 : i64
// LT:       transform.named_sequence @__dist_gpu_tile
// LT-NOT:     tile_using_for {{.*}}tile_sizes [0, 0, 16]

// -----

// A batched product: one block per batch in the grid, and each shared-memory
// copy spread over the block's threads along its two inner dims.
func.func @batched(%a: tensor<4x32x16xf32>, %b: tensor<4x16x8xf32>) -> tensor<4x32x8xf32> {
  %y = dist.matmul %a, %b : (tensor<4x32x16xf32>, tensor<4x16x8xf32>) -> tensor<4x32x8xf32>
  return %y : tensor<4x32x8xf32>
}
// CHECK-LABEL: func.func @batched
// CHECK:         linalg.batch_matmul {dist.gpu_tile = 0 : i64}
// CHECK:         tile_using_forall %{{.*}} tile_sizes [1, 32, 8, 0](mapping = [#gpu.block<linear_dim_2>, #gpu.block<linear_dim_1>, #gpu.block<linear_dim_0>])
// CHECK:         tile_using_for %{{.*}} tile_sizes [0, 0, 0, 16]
// CHECK:         tile_using_forall %{{.*}} tile_sizes [0, 2, 1, 0](mapping = [#gpu.thread<y>, #gpu.thread<x>])
// CHECK:         num_threads [0, 16, 8]
// CHECK-NEXT:    num_threads [0, 16, 8]
// CHECK:         block_dims = [8, 16, 1] :

// -----

// Attention's scores, batch x heads x queries x keys: a grid maps three loops
// (upstream's block mapping drops a fourth without a word), so the batch
// loop steps on the host around the launch, one launch per sequence.
func.func @four_parallel_loops(%q: tensor<2x4x32x16xf32>, %k: tensor<2x4x16x32xf32>) -> tensor<2x4x32x32xf32> {
  %s = dist.matmul %q, %k : (tensor<2x4x32x16xf32>, tensor<2x4x16x32xf32>) -> tensor<2x4x32x32xf32>
  return %s : tensor<2x4x32x32xf32>
}
// CHECK-LABEL: func.func @four_parallel_loops
// CHECK:         %[[OP:.*]] = transform.structured.match attributes {dist.gpu_tile = 0 : i64}
// CHECK-NEXT:    %[[HOSTED:.*]], %{{.*}} = transform.structured.tile_using_for %[[OP]] tile_sizes [1, 0, 0, 0, 0]
// CHECK-NEXT:    transform.structured.tile_using_forall %[[HOSTED]] tile_sizes [0, 1, 32, 32, 0](mapping = [#gpu.block<linear_dim_2>, #gpu.block<linear_dim_1>, #gpu.block<linear_dim_0>])

// -----

// An elementwise op of five parallel loops (grouped-query attention's
// scores, batch x kv heads x groups x queries x keys): its two outer loops
// leave the grid and run inside each thread, one launch in all instead of
// a launch per step of a host loop.
func.func @five_parallel_loops(%s: tensor<2x2x2x32x32xf32>) -> tensor<2x2x2x32x32xf32> {
  %e = dist.exp %s : (tensor<2x2x2x32x32xf32>) -> tensor<2x2x2x32x32xf32>
  return %e : tensor<2x2x2x32x32xf32>
}
// CHECK-LABEL: func.func @five_parallel_loops
// CHECK:         %[[OP:.*]] = transform.structured.match attributes {dist.gpu_tile = 0 : i64}
// CHECK-NOT:     tile_using_for
// CHECK-NEXT:    transform.structured.tile_using_forall %[[OP]] tile_sizes [0, 0, 1, 8, 32](mapping = [#gpu.block<linear_dim_2>, #gpu.block<linear_dim_1>, #gpu.block<linear_dim_0>])
// CHECK:         tile_using_forall %{{.*}} tile_sizes [0, 0, 0, 1, 1](mapping = [#gpu.thread<y>, #gpu.thread<x>])

// -----

// A bf16 product summed in f32 runs on the tensor cores: blocks of 32 x 32
// outputs (the 64 x 64 tile shrunk to 8 warps of 256 threads), a K loop of
// 16, one warp per 16 x 8 tile (N along x), and each warp's product tagged
// for dist-lower-gpu-mma. An f32 product of the same shape keeps threads.
func.func @bf16_on_tensor_cores(%x: tensor<64x32xbf16>, %w: tensor<32x64xbf16>) -> tensor<64x64xbf16> {
  %y = dist.matmul %x, %w : (tensor<64x32xbf16>, tensor<32x64xbf16>) -> tensor<64x64xbf16>
  return %y : tensor<64x64xbf16>
}
// CHECK-LABEL: func.func @bf16_on_tensor_cores
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<64x32xbf16>, tensor<32x64xbf16>) outs(%{{.*}} : tensor<64x64xf32>) attrs = {dist.gpu_tile = 0 : i64}
// CHECK:       transform.named_sequence @__dist_gpu_tile
// CHECK:         tile_using_forall %{{.*}} tile_sizes [32, 32, 0](mapping = [#gpu.block<linear_dim_1>, #gpu.block<linear_dim_0>])
// CHECK:         tile_using_for %{{.*}} tile_sizes [0, 0, 16]
// CHECK:       transform.named_sequence @__dist_gpu_map
// CHECK:         transform.structured.promote
// CHECK-NEXT:    %[[WARP:.*]], %{{.*}} = transform.structured.tile_using_forall %{{.*}} tile_sizes [16, 8, 0](mapping = [#gpu.warp<y>, #gpu.warp<x>])
// CHECK-NEXT:    transform.annotate %[[WARP]] "dist.gpu_mma"
// CHECK:         block_dims = [128, 2, 1] :
// With matmul-tile=32,16,8 and 64 threads (two warps) the block is 16 x
// 16; K still steps by the tile's 16.
// SMALL-LABEL: func.func @bf16_on_tensor_cores
// SMALL:         tile_using_forall %{{.*}} tile_sizes [16, 16, 0]
// SMALL:         tile_using_for %{{.*}} tile_sizes [0, 0, 16]
// SMALL:         tile_using_forall %{{.*}} tile_sizes [16, 8, 0](mapping = [#gpu.warp<y>, #gpu.warp<x>])
// SMALL:         block_dims = [64, 1, 1] :
// LT-LABEL: func.func @bf16_on_tensor_cores
// LT:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<64x32xbf16>, tensor<32x64xbf16>) outs(%{{.*}} : tensor<64x64xf32>) {
// LT:         linalg.generic {{.*}}dist.gpu_tile = 0 : i64
// LT-NOT:     dist.gpu_mma

// -----

// Loops that are not multiples of the tensor cores' 16 x 8 x 16 tile (M of
// 24) stay on threads.
func.func @bf16_odd_sizes(%x: tensor<24x32xbf16>, %w: tensor<32x64xbf16>) -> tensor<24x64xbf16> {
  %y = dist.matmul %x, %w : (tensor<24x32xbf16>, tensor<32x64xbf16>) -> tensor<24x64xbf16>
  return %y : tensor<24x64xbf16>
}
// CHECK-LABEL: func.func @bf16_odd_sizes
// CHECK:       transform.named_sequence @__dist_gpu_map
// CHECK-NOT:     dist.gpu_mma
// CHECK:         mapping = [#gpu.thread<y>, #gpu.thread<x>]

// -----

// A full reduction has no parallel loop to spread: it stays on the host, and
// the schedule is empty.
func.func @host_only(%x: tensor<64xf32>) -> tensor<f32> {
  %s = dist.reduce_sum %x {dims = array<i64: 0>} : (tensor<64xf32>) -> tensor<f32>
  return %s : tensor<f32>
}
// CHECK-LABEL: func.func @host_only
// CHECK-NOT:     dist.gpu_tile
// CHECK:       transform.named_sequence @__dist_gpu_tile
// CHECK-NEXT:    transform.yield
// CHECK:       transform.named_sequence @__dist_gpu_map
// CHECK-NEXT:    transform.yield
