// Found by dist-fuzz (seed 20261205, input 80202): `array<index- ...>`
// slipped past the dense-array guard, which read `index-` as one word; the
// parser then read an undefined bit width (crashing now or corrupting the
// heap for a later input).
// RUN: dist-fuzz --replay %s | FileCheck %s
// CHECK: rejected by the parser or verifier
// was-run dist-opt %s --split-input-file --convert-dist-to-linalg --dist-schedule-gpu | FileCheck %s
// was-run dist-opt %s --split-input-file --convert-dist-to-linalg --dist-schedule-gpu="matmul-tile=32,16,8 max-threads=64" | FileCheck %s --check-prefix=SMALL
// was-run not dist-opt %s --dist-schedule-gpu=matmul-tile=64,64 2>&1 | FileCheck %s --check-prefix=BAD-TILE
// was-run not dist-opt %s --dist-schedule-gpu=max-threads=0 2>&1 | FileCheck %s --check-prefix=BAD-THREADS

// was-run not dist-opt %s --dist-schedule-gpu=matmul-tile=128,128,64 2>&1 | FileCheck %s --check-prefix=BAD-SHARED
// was-run not dist-opt %s --dist-schedule-gpu=max-threads=2048 2>&1 | FileCheck %s --check-prefix=BAD-BLOCK

// BAD-TILE: matmul-tile takes three sizes M,N,K, not '64,64'
// BAD-THREADS: max-threads takes positive integers, not '0'
// BAD-SHARED: matmul-tile 128,128,64 needs 128 KiB of shared memory for f64 tiles; the limit is 48
// BAD-BLOCK: max-threads is at most 1024 (a block's limit), not 2048

// A matmul gets 64x64 block tiles, a K loop of 16 staged through shared
// memory and 16x16 threads of 4x4 outputs each; the elementwise op one
// thread per element over 2 rows x 128 columns per block.
func.func @matmul_then_elementwise(%x: tensor<64x32xf32>, %w: tensor<32so.>) -> tensor<64x128xf32> {
  %y = dist.matmul %x, %w : (tensor<64x32xf32>, tensor<32x128xf32>) -> tensor<64x128xf32>
  %g = dist.gelu %y : (tensor<64x128xf32>) -> tensor<64x128xf32>
  return %g : tensor<64x128xf32>
}
// was-check-LABEL: func.func @matmul_then_elementwise
// was-check:         linalg.matmul {dist.gpu_tile = 0 : i64}
// was-check:         linalg.generic
// was-check-SAME:      attrs = {dist.gpu_tile = 1 : i64}
// was-check-LABEL: module @__dist_gpu_schedule attributes {transform.with_named_sequence}
// was-check:       transform.named_sequence @__dist_gpu_tile
// was-check:         %[[MM:.*]] = transform.structured.match attributes {dist.gpu_tile = 0 : i64}
// was-check-NEXT:    %[[MMB:.*]], %[[MMF:.*]] = transform.structured.tile_using_forall %[[MM]] tile_sizes [64, 64, 0](mapping = [#gpu.block<linear_dim_1>, #gpu.block<linear_dim_0>])
// was-check:         transform.annotate %[[MMF]] "dist.gpu_tile"
// was-check-NEXT:    transform.structured.tile_using_for %[[MMB]] tile_sizes [0, 0, 16]
// was-check:         %[[EW:.*]] = transform.structured.match attributes {dist.gpu_tile = 1 : i64}
// was-check-NEXT:    %[[EWB:.*]], %{{.*}} = transform.structured.tile_using_forall %[[EW]] tile_sizes [2, 128](mapping = [#gpu.block<linear_dim_1>, #gpu.block<linear_dim_0>])
// was-check:         transform.structured.tile_using_forall %[[EWB]] tile_sizes [1, 1](mapping = [#gpu.thread<y>, #gpu.thread<x>])
// was-check:       transform.named_sequence @__dist_gpu_map
// was-check:         transform.structured.promote %{{.*}} {memory_space = #gpu.address_space<workgroup>, operands_to_promote = [0, 1]}
// was-check-NEXT:    transform.structured.tile_using_forall %{{.*}} tile_sizes [4, 4, 0](mapping = [#gpu.thread<y>, #gpu.thread<x>])
// was-check:         transform.split_handle
// was-check-NEXT:    tile_using_forall %{{.*}} num_threads [16, 16](mapping = [#gpu.thread<y>, #gpu.thread<x>])
// was-check-NEXT:    tile_using_forall %{{.*}} num_threads [16, 16](mapping = [#gpu.thread<y>, #gpu.thread<x>])
// was-check-NEXT:    %[[L0:.*]] = transform.gpu.map_forall_to_blocks %{{.*}} generate_gpu_launch
// was-check-NEXT:    transform.gpu.map_nested_forall_to_threads %[[L0]] block_dims = [16, 16, 1] :
// was-check:         %[[L1:.*]] = transform.gpu.map_forall_to_blocks %{{.*}} generate_gpu_launch
// was-check-NEXT:    transform.gpu.map_nested_forall_to_threads %[[L1]] block_dims = [128, 2, 1] sync_after_distribute = false
// SMALL-LABEL: func.func @matmul_then_elementwise
// SMALL:         tile_using_forall %{{.*}} tile_sizes [32, 16, 0]
// SMALL:         tile_using_for %{{.*}} tile_sizes [0, 0, 8]
// SMALL:         tile_using_forall %{{.*}} tile_sizes [1, 64](mapping
// SMALL:         promote
// SMALL-NEXT:    tile_using_forall %{{.*}} tile_sizes [4, 2, 0](mapping = [#gpu.thread<y>, #gpu.thread<x>])
// SMALL:         block_dims = [8, 8, 1] :
// SMALL:         block_dims = [64, 1, 1] sync_after_distribute = false

