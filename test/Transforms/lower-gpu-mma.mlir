// RUN: dist-opt %s --split-input-file --dist-lower-gpu-mma | FileCheck %s
// RUN: dist-opt %s --split-input-file --dist-lower-gpu-mma --canonicalize --cse | FileCheck %s --check-prefix=CLEAN

// One warp's 16 x 8 x 16 tile of a bf16 product summed in f32, as the GPU
// schedule leaves it in a launch: each lane loads its A fragment (rows g
// and g + 8, columns 2t, 2t + 1, 2t + 8, 2t + 9; two bf16 a register, the
// first in the low half), its B fragment (K rows 2t, 2t + 1, 2t + 8, 2t + 9
// of column g) and its 4 sums of C (rows g, g + 8, columns 2t, 2t + 1),
// runs mma.sync and stores the 4 sums back.
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @warp_tile(%a: memref<16x16xbf16>, %b: memref<16x8xbf16>, %c: memref<16x8xf32>) {
  %one = arith.constant 1 : index
  %warp = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %one, %gy = %one, %gz = %one)
             threads(%tx, %ty, %tz) in (%sx = %warp, %sy = %one, %sz = %one) {
    linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%a, %b : memref<16x16xbf16>, memref<16x8xbf16>) outs(%c : memref<16x8xf32>) attrs = {dist.gpu_mma} {
    ^bb0(%p: bf16, %q: bf16, %acc: f32):
      %pf = arith.extf %p : bf16 to f32
      %qf = arith.extf %q : bf16 to f32
      %m = arith.mulf %pf, %qf : f32
      %s = arith.addf %acc, %m : f32
      linalg.yield %s : f32
    }
    gpu.terminator
  }
  return
}
// CHECK-LABEL: func.func @warp_tile
// CHECK-SAME:    (%[[A:.*]]: memref<16x16xbf16>, %[[B:.*]]: memref<16x8xbf16>, %[[C:.*]]: memref<16x8xf32>)
// CHECK:         %[[LANE:.*]] = gpu.lane_id
// CHECK-NEXT:    %[[FOUR:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[G:.*]] = arith.divui %[[LANE]], %[[FOUR]] : index
// CHECK-NEXT:    %[[T:.*]] = arith.remui %[[LANE]], %[[FOUR]] : index
// CHECK-NEXT:    %[[TWO:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[T2:.*]] = arith.muli %[[T]], %[[TWO]] : index
// CHECK:         %[[A0:.*]] = memref.load %[[A]][%[[G]], %[[T2]]] : memref<16x16xbf16>
// CHECK-NEXT:    %[[A0BITS:.*]] = arith.bitcast %[[A0]] : bf16 to i16
// CHECK-NEXT:    %[[A0WIDE:.*]] = arith.extui %[[A0BITS]] : i16 to i32
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[T2P1:.*]] = arith.addi %[[T2]], %[[ONE]] : index
// CHECK:         memref.load %[[A]][%[[G]], %[[T2P1]]] : memref<16x16xbf16>
// CHECK:         %[[HIGH:.*]] = arith.shli %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:    %[[RA0:.*]] = arith.ori %[[A0WIDE]], %[[HIGH]] : i32
// CHECK:         memref.load %[[B]][%[[T2]], %[[G]]] : memref<16x8xbf16>
// CHECK:         %[[C0:.*]] = memref.load %[[C]][%[[G]], %[[T2]]] : memref<16x8xf32>
// CHECK:         %[[D:.*]] = nvvm.mma.sync A[%[[RA0]], %{{.*}}, %{{.*}}, %{{.*}}]  B[%{{.*}}, %{{.*}}]  C[%[[C0]], %{{.*}}, %{{.*}}, %{{.*}}]
// CHECK-SAME:      layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>
// CHECK-SAME:      multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>
// CHECK-SAME:      shape = #nvvm.shape<m = 16, n = 8, k = 16>
// CHECK-SAME:      (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT:    %[[D0:.*]] = llvm.extractvalue %[[D]][0]
// CHECK-NEXT:    memref.store %[[D0]], %[[C]][%[[G]], %[[T2]]] : memref<16x8xf32>
// CHECK-COUNT-3: memref.store
// CHECK-NOT:     linalg.generic
// After cleanup: 8 loads of A, 4 of B, 4 of C, one mma and 4 stores.
// CLEAN-LABEL: func.func @warp_tile
// CLEAN-COUNT-16: memref.load
// CLEAN-NOT:      memref.load
// CLEAN:          nvvm.mma.sync
// CLEAN-COUNT-4:  memref.store

// -----

// Operands read through their maps: a batch dim of 1 at index 0, and a
// transposed B ([n, k]) read at [g, 2t].
#a = affine_map<(b, m, n, k) -> (b, m, k)>
#b = affine_map<(b, m, n, k) -> (n, k)>
#c = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @batched_transposed(%a: memref<1x16x16xbf16>, %b: memref<8x16xbf16>, %c: memref<1x16x8xf32>) {
  %one = arith.constant 1 : index
  %warp = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %one, %gy = %one, %gz = %one)
             threads(%tx, %ty, %tz) in (%sx = %warp, %sy = %one, %sz = %one) {
    linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
        ins(%a, %b : memref<1x16x16xbf16>, memref<8x16xbf16>) outs(%c : memref<1x16x8xf32>) attrs = {dist.gpu_mma} {
    ^bb0(%p: bf16, %q: bf16, %acc: f32):
      %pf = arith.extf %p : bf16 to f32
      %qf = arith.extf %q : bf16 to f32
      %m = arith.mulf %pf, %qf : f32
      %s = arith.addf %acc, %m : f32
      linalg.yield %s : f32
    }
    gpu.terminator
  }
  return
}
// CHECK-LABEL: func.func @batched_transposed
// CHECK-SAME:    (%[[A:.*]]: memref<1x16x16xbf16>, %[[B:.*]]: memref<8x16xbf16>, %[[C:.*]]: memref<1x16x8xf32>)
// CHECK:         %[[G:.*]] = arith.divui
// CHECK:         %[[T2:.*]] = arith.muli
// CHECK:         %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT:    memref.load %[[A]][%[[Z]], %[[G]], %[[T2]]] : memref<1x16x16xbf16>
// CHECK:         memref.load %[[B]][%[[G]], %[[T2]]] : memref<8x16xbf16>
// CHECK:         nvvm.mma.sync
