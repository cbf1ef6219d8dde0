// RUN: dist-opt %s --split-input-file --verify-diagnostics --dist-finalize-gpu-launches | FileCheck %s

// Shared memory allocated in a launch becomes its workgroup attribution
// (its deallocation goes); host buffers become managed allocations freed
// through an asynchronous gpu.dealloc that is waited for at once.
func.func @launch(%n: index) {
  %c1 = arith.constant 1 : index
  %host = memref.alloc() {alignment = 64 : i64} : memref<64xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %tile = memref.alloc() : memref<256xi8, #gpu.address_space<workgroup>>
    %v = memref.view %tile[%c1][] : memref<256xi8, #gpu.address_space<workgroup>> to memref<16xf32, #gpu.address_space<workgroup>>
    %x = memref.load %host[%tx] : memref<64xf32>
    memref.store %x, %v[%tx] : memref<16xf32, #gpu.address_space<workgroup>>
    memref.dealloc %tile : memref<256xi8, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  memref.dealloc %host : memref<64xf32>
  return
}
// CHECK-LABEL: func.func @launch
// CHECK:         %[[HOST:.*]] = gpu.alloc host_shared () : memref<64xf32>
// CHECK-NEXT:    gpu.launch blocks({{.*}}) threads({{.*}}) workgroup(%[[TILE:.*]] : memref<256xi8, #gpu.address_space<workgroup>>)
// CHECK-NEXT:      memref.view %[[TILE]]
// CHECK-NOT:       memref.alloc
// CHECK-NOT:       memref.dealloc
// CHECK:           gpu.terminator
// CHECK:         %[[T0:.*]] = gpu.wait async
// CHECK-NEXT:    %{{.*}} = gpu.dealloc async [%[[T0]]] %[[HOST]] : memref<64xf32>
// CHECK-NEXT:    return

// -----

// The schedule and its tags are removed.
func.func @tagged(%x: memref<4xf32>, %v: f32) {
  linalg.fill {dist.gpu_tile = 0 : i64} ins(%v : f32) outs(%x : memref<4xf32>)
  return
}
module @__dist_gpu_schedule attributes {transform.with_named_sequence} {
  transform.named_sequence @__dist_gpu_tile(%root: !transform.any_op {transform.readonly}) {
    transform.yield
  }
}
// CHECK-LABEL: func.func @tagged
// CHECK-NOT:   dist.gpu_tile
// CHECK-NOT:   __dist_gpu_schedule

// -----

func.func @shared_outside_launch() {
  // expected-error @+1 {{shared memory allocated outside a GPU launch}}
  %tile = memref.alloc() : memref<256xi8, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @dynamic_shared(%n: index) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{shared memory of dynamic size is not supported}}
    %tile = memref.alloc(%n) : memref<?xi8, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}

// -----

func.func @dynamic_host(%n: index) {
  // expected-error @+1 {{host buffers of dynamic size are not supported on the GPU}}
  %b = memref.alloc(%n) : memref<?xf32>
  return
}
