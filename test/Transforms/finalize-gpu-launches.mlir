// RUN: dist-opt %s --split-input-file --verify-diagnostics --dist-finalize-gpu-launches | FileCheck %s

// Shared memory allocated in a launch becomes its workgroup attribution
// (its deallocation goes); host buffers become managed allocations freed
// through an asynchronous gpu.dealloc on the compute stream, not waited for.
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
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{host buffers of dynamic size are not supported on the GPU}}
  %b = memref.alloc(%n) : memref<?xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %x = memref.load %b[%tx] : memref<?xf32>
    gpu.terminator
  }
  return
}

// -----

// Buffers only host code touches (the deallocation's bookkeeping: element
// stores and loads, a call of a host function this module defines, a query
// of a buffer's address) stay host memory, freed on the host: the host
// touches them without waiting for the device. One a launch reads, one
// passed to a function the module only declares (the runtime), and one
// passed to a defined function that launches kernels, are device memory.
func.func private @helper(%flags: memref<?xi1>) {
  return
}
func.func private @runtime(%flags: memref<?xi1>)
func.func private @launches(%flags: memref<?xi1>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %x = memref.load %flags[%tx] : memref<?xi1>
    gpu.terminator
  }
  return
}
func.func @host_only(%x: memref<64xf32>) -> i1 {
  %c0 = arith.constant 0 : index
  %true = arith.constant true
  %flags = memref.alloc() : memref<2xi1>
  %p = memref.extract_aligned_pointer_as_index %flags : memref<2xi1> -> index
  memref.store %true, %flags[%c0] : memref<2xi1>
  %cast = memref.cast %flags : memref<2xi1> to memref<?xi1>
  call @helper(%cast) : (memref<?xi1>) -> ()
  %first = memref.load %flags[%c0] : memref<2xi1>
  memref.dealloc %flags : memref<2xi1>
  %sent = memref.alloc() : memref<2xi1>
  %sent_cast = memref.cast %sent : memref<2xi1> to memref<?xi1>
  call @runtime(%sent_cast) : (memref<?xi1>) -> ()
  memref.dealloc %sent : memref<2xi1>
  %read = memref.alloc() : memref<2xi1>
  %read_cast = memref.cast %read : memref<2xi1> to memref<?xi1>
  call @launches(%read_cast) : (memref<?xi1>) -> ()
  memref.dealloc %read : memref<2xi1>
  return %first : i1
}
// CHECK-LABEL: func.func @host_only
// CHECK:         %[[FLAGS:.*]] = memref.alloc() : memref<2xi1>
// CHECK:         call @helper
// CHECK:         memref.load %[[FLAGS]]
// CHECK-NEXT:    memref.dealloc %[[FLAGS]] : memref<2xi1>
// CHECK-NEXT:    %[[SENT:.*]] = gpu.alloc host_shared () : memref<2xi1>
// CHECK:         call @runtime
// CHECK-NEXT:    %[[T:.*]] = gpu.wait async
// CHECK-NEXT:    gpu.dealloc async [%[[T]]] %[[SENT]]
// CHECK-NEXT:    %[[READ:.*]] = gpu.alloc host_shared () : memref<2xi1>
// CHECK:         call @launches
// CHECK-NEXT:    %[[T2:.*]] = gpu.wait async
// CHECK-NEXT:    gpu.dealloc async [%[[T2]]] %[[READ]]

// -----

// A product's zero output, which bufferization copies from a splat global,
// is filled on the device where a launch reads it next: a gpu.memset the
// stream orders before the launch (no wait), and the global goes. A
// 64-bit buffer of zeros (an f64 partial sum's start) is allocated as
// bytes and filled through a view as 32-bit words (gpu-to-llvm lowers
// memsets of 16 and 32 bits). A fill host code reads next (also through a
// view made before it), and a 64-bit splat that is not zero, stay host
// copies. The constants no longer read go.
memref.global "private" constant @zeros : memref<64xf32> = dense<0.000000e+00>
memref.global "private" constant @lowest : memref<8xf32> = dense<0xFF800000>
memref.global "private" constant @wide : memref<8xf64> = dense<0.000000e+00>
memref.global "private" constant @ones : memref<8xf64> = dense<1.000000e+00>
memref.global "private" constant @small : memref<4xf32> = dense<0.000000e+00>
func.func @fills(%c1: index) -> (f32, f32) {
  %c0 = arith.constant 0 : index
  %z = memref.get_global @zeros : memref<64xf32>
  %out = memref.alloc() : memref<64xf32>
  memref.copy %z, %out : memref<64xf32> to memref<64xf32>
  %w = memref.get_global @wide : memref<8xf64>
  %d = memref.alloc() : memref<8xf64>
  memref.copy %w, %d : memref<8xf64> to memref<8xf64>
  %o = memref.get_global @ones : memref<8xf64>
  %e = memref.alloc() : memref<8xf64>
  memref.copy %o, %e : memref<8xf64> to memref<8xf64>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %out[%c0] : memref<64xf32>
    %u = memref.load %d[%c0] : memref<8xf64>
    %t = memref.load %e[%c0] : memref<8xf64>
    gpu.terminator
  }
  %l = memref.get_global @lowest : memref<8xf32>
  %m = memref.alloc() : memref<8xf32>
  memref.copy %l, %m : memref<8xf32> to memref<8xf32>
  %first = memref.load %m[%c0] : memref<8xf32>
  %h = memref.alloc() : memref<4xf32>
  %hv = memref.cast %h : memref<4xf32> to memref<?xf32>
  %s = memref.get_global @small : memref<4xf32>
  memref.copy %s, %h : memref<4xf32> to memref<4xf32>
  %viewed = memref.load %hv[%c0] : memref<?xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %h[%c0] : memref<4xf32>
    gpu.terminator
  }
  return %first, %viewed : f32, f32
}
// CHECK-NOT:   @zeros : memref<64xf32>
// CHECK-NOT:   @wide : memref<8xf64>
// CHECK:       memref.global "private" constant @lowest
// CHECK-LABEL: func.func @fills
// CHECK-NOT:     memref.get_global @zeros
// CHECK-NOT:     memref.get_global @wide
// CHECK:         %[[OUT:.*]] = gpu.alloc host_shared () : memref<64xf32>
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[S0:.*]] = gpu.wait async
// CHECK-NEXT:    %{{.*}} = gpu.memset async [%[[S0]]] %[[OUT]], %[[ZERO]] : memref<64xf32>, f32
// CHECK-NEXT:    %[[BYTES:.*]] = gpu.alloc host_shared () : memref<64xi8>
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[D:.*]] = memref.view %[[BYTES]][%[[C0]]][] : memref<64xi8> to memref<8xf64>
// CHECK-NEXT:    %[[WORDS:.*]] = memref.view %[[BYTES]][%[[C0]]][] : memref<64xi8> to memref<16xi32>
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[S1:.*]] = gpu.wait async
// CHECK-NEXT:    %{{.*}} = gpu.memset async [%[[S1]]] %[[WORDS]], %[[Z]] : memref<16xi32>, i32
// CHECK-NEXT:    %[[ONES:.*]] = memref.get_global @ones
// CHECK-NEXT:    %[[E:.*]] = gpu.alloc host_shared () : memref<8xf64>
// CHECK-NEXT:    memref.copy %[[ONES]], %[[E]]
// CHECK-NEXT:    gpu.launch
// CHECK:           memref.load %[[D]]
// CHECK:         %[[LOWEST:.*]] = memref.get_global @lowest
// CHECK-NEXT:    %[[M:.*]] = gpu.alloc host_shared () : memref<8xf32>
// CHECK-NEXT:    memref.copy %[[LOWEST]], %[[M]]
// CHECK-NEXT:    memref.load %[[M]]
// CHECK:         memref.copy %{{.*}}, %{{.*}} : memref<4xf32> to memref<4xf32>

// -----

// A fill its function returns next (a pipeline stage's zeros for a result
// another stage computes) is a device fill where the function has one
// block: its caller waits for the stream before it reads the result, or
// the function waits before it returns (dist-chain-gpu-launches). A
// function of several blocks is not chained, and nothing would wait: its
// fill stays a host copy.
memref.global "private" constant @zeros : memref<16xf32> = dense<0.000000e+00>
func.func @returned() -> memref<16xf32> {
  %z = memref.get_global @zeros : memref<16xf32>
  %out = memref.alloc() : memref<16xf32>
  memref.copy %z, %out : memref<16xf32> to memref<16xf32>
  return %out : memref<16xf32>
}
func.func @returned_from_blocks(%flag: i1) -> memref<16xf32> {
  %z = memref.get_global @zeros : memref<16xf32>
  %out = memref.alloc() : memref<16xf32>
  memref.copy %z, %out : memref<16xf32> to memref<16xf32>
  cf.cond_br %flag, ^a, ^b
^a:
  return %out : memref<16xf32>
^b:
  return %out : memref<16xf32>
}
// CHECK-LABEL: func.func @returned
// CHECK-NEXT:    %[[OUT:.*]] = gpu.alloc host_shared () : memref<16xf32>
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[S:.*]] = gpu.wait async
// CHECK-NEXT:    gpu.memset async [%[[S]]] %[[OUT]], %[[ZERO]]
// CHECK-NEXT:    return %[[OUT]]
// CHECK-LABEL: func.func @returned_from_blocks
// CHECK:         memref.copy
// CHECK-NEXT:    cf.cond_br

// -----

// A fill read next by a host loop of launches (a product stepping over an
// outer dim) is a device fill too: the loop's launches follow it on the
// stream.
memref.global "private" constant @zeros : memref<4x8xf32> = dense<0.000000e+00>
func.func @fill_before_loop(%c1: index, %c4: index) {
  %c0 = arith.constant 0 : index
  %z = memref.get_global @zeros : memref<4x8xf32>
  %out = memref.alloc() : memref<4x8xf32>
  memref.copy %z, %out : memref<4x8xf32> to memref<4x8xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %v = memref.load %out[%i, %tx] : memref<4x8xf32>
      gpu.terminator
    }
  }
  return
}
// CHECK-LABEL: func.func @fill_before_loop
// CHECK-NOT:     memref.copy
// CHECK:         %[[OUT:.*]] = gpu.alloc host_shared () : memref<4x8xf32>
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[S:.*]] = gpu.wait async
// CHECK-NEXT:    gpu.memset async [%[[S]]] %[[OUT]], %[[ZERO]]
// CHECK-NEXT:    scf.for

// -----

// A constant the device alone reads (in a kernel, directly or through a
// view; a query of its sizes aside) is the runtime's device copy, uploaded
// once per program: a view of the bytes dist_rt_gpu_constant returns for
// the global's address. A constant host code reads through a view the
// device reads too stays a managed copy made before, freed at the end.
memref.global "private" constant @table : memref<2x4xf32> = dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]>
memref.global "private" constant @shared : memref<4xi32> = dense<[1, 2, 3, 4]>
func.func @constants(%c1: index) -> i32 {
  %c0 = arith.constant 0 : index
  %t = memref.get_global @table : memref<2x4xf32>
  %row = memref.subview %t[1, 0] [1, 4] [1, 1] : memref<2x4xf32> to memref<4xf32, strided<[1], offset: 4>>
  %d = memref.dim %t, %c0 : memref<2x4xf32>
  %s = memref.get_global @shared : memref<4xi32>
  %sv = memref.cast %s : memref<4xi32> to memref<?xi32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %a = memref.load %t[%c0, %tx] : memref<2x4xf32>
    %b = memref.load %row[%tx] : memref<4xf32, strided<[1], offset: 4>>
    %c = memref.load %sv[%tx] : memref<?xi32>
    gpu.terminator
  }
  %host = memref.load %sv[%c0] : memref<?xi32>
  return %host : i32
}
// CHECK-LABEL: func.func @constants
// CHECK:         %[[TABLE:.*]] = memref.get_global @table : memref<2x4xf32>
// CHECK-NEXT:    %[[ADDRESS:.*]] = memref.extract_aligned_pointer_as_index %[[TABLE]] : memref<2x4xf32> -> index
// CHECK-NEXT:    %[[BYTES:.*]] = arith.constant 32 : i64
// CHECK-NEXT:    %[[DEVICE:.*]] = call @dist_rt_gpu_constant(%[[ADDRESS]], %[[BYTES]]) : (index, i64) -> memref<?xi8>
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[UPLOADED:.*]] = memref.view %[[DEVICE]][%[[C0]]][] : memref<?xi8> to memref<2x4xf32>
// CHECK-NEXT:    %[[ROW:.*]] = memref.subview %[[UPLOADED]][1, 0] [1, 4] [1, 1]
// CHECK-NEXT:    memref.dim %[[TABLE]]
// CHECK-NEXT:    %[[SHARED:.*]] = memref.get_global @shared : memref<4xi32>
// CHECK-NEXT:    %[[MANAGED:.*]] = gpu.alloc host_shared () : memref<4xi32>
// CHECK-NEXT:    memref.copy %[[SHARED]], %[[MANAGED]]
// CHECK-NEXT:    %[[CAST:.*]] = memref.cast %[[MANAGED]]
// CHECK-NEXT:    gpu.launch
// CHECK-NEXT:      memref.load %[[UPLOADED]]
// CHECK-NEXT:      memref.load %[[ROW]]
// CHECK-NEXT:      memref.load %[[CAST]]
// CHECK:         memref.load %[[CAST]][%{{.*}}] : memref<?xi32>
// CHECK:         gpu.dealloc async [%{{.*}}] %[[MANAGED]]
// CHECK:       func.func private @dist_rt_gpu_constant(index, i64) -> memref<?xi8> attributes {llvm.emit_c_interface}

// -----

// Only a constant global is uploaded once: a mutable one may change between
// steps, so the device reads a managed copy made at each use. A constant
// read in a loop's body (not the function's block) is uploaded too.
memref.global "private" @mutable : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
memref.global "private" constant @table : memref<4xf32> = dense<[5.0, 6.0, 7.0, 8.0]>
func.func @globals(%c1: index) {
  %c0 = arith.constant 0 : index
  %m = memref.get_global @mutable : memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %a = memref.load %m[%tx] : memref<4xf32>
    gpu.terminator
  }
  scf.for %i = %c0 to %c1 step %c1 {
    %t = memref.get_global @table : memref<4xf32>
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
      %b = memref.load %t[%tx] : memref<4xf32>
      gpu.terminator
    }
  }
  return
}
// CHECK-LABEL: func.func @globals
// CHECK:         %[[MUTABLE:.*]] = memref.get_global @mutable : memref<4xf32>
// CHECK-NEXT:    %[[MANAGED:.*]] = gpu.alloc host_shared () : memref<4xf32>
// CHECK-NEXT:    memref.copy %[[MUTABLE]], %[[MANAGED]]
// CHECK:         scf.for
// CHECK:           %[[TABLE:.*]] = memref.get_global @table : memref<4xf32>
// CHECK-NEXT:      %[[ADDRESS:.*]] = memref.extract_aligned_pointer_as_index %[[TABLE]]
// CHECK:           call @dist_rt_gpu_constant(%[[ADDRESS]], %{{.*}})
// CHECK:       func.func private @dist_rt_gpu_constant
