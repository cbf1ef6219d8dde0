// RUN: dist-opt %s --split-input-file --dist-chain-gpu-launches | FileCheck %s
// Idempotent: a second run finds every launch chained and every wait placed.
// RUN: dist-opt %s --split-input-file --dist-chain-gpu-launches --dist-chain-gpu-launches | FileCheck %s

// Launches and fills follow each other on the stream (each depends on the
// token before it); a free depends on the chain and nothing waits for it.
// A buffer only the device touches moves from managed memory to device
// memory, allocated on the stream.
// The host waits once, before it reads device memory (a function argument);
// a host buffer (memref.alloc) it touches without waiting.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<64xf32>) kernel {
      gpu.return
    }
  }
  func.func @chain(%x: memref<64xf32>) -> f32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0.0 : f32
    %a = gpu.alloc host_shared () : memref<64xf32>
    %w0 = gpu.wait async
    %f = gpu.memset async [%w0] %a, %zero : memref<64xf32>, f32
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<64xf32>)
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<64xf32>)
    %host = memref.alloc() : memref<4xf32>
    memref.store %zero, %host[%c0] : memref<4xf32>
    %w1 = gpu.wait async
    %d = gpu.dealloc async [%w1] %a : memref<64xf32>
    %v = memref.load %x[%c0] : memref<64xf32>
    memref.dealloc %host : memref<4xf32>
    return %v : f32
  }
}
// CHECK-LABEL: func.func @chain
// CHECK:         %[[W0:.*]] = gpu.wait async
// CHECK-NEXT:    %[[A:.*]], %[[AT:.*]] = gpu.alloc async [%[[W0]]] () : memref<64xf32>
// CHECK-NEXT:    %[[F:.*]] = gpu.memset async [%[[AT]]] %[[A]]
// CHECK-NEXT:    %[[L0:.*]] = gpu.launch_func async [%[[F]]] @kernels::@k
// CHECK-NEXT:    %[[L1:.*]] = gpu.launch_func async [%[[L0]]] @kernels::@k
// CHECK-NEXT:    %[[HOST:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT:    memref.store %{{.*}}, %[[HOST]]
// CHECK-NEXT:    gpu.dealloc async [%[[L1]]] %[[A]]
// CHECK-NEXT:    gpu.wait [%[[L1]]]
// CHECK-NEXT:    memref.load %{{.*}}[%{{.*}}] : memref<64xf32>
// CHECK-NEXT:    memref.dealloc %[[HOST]]
// CHECK-NEXT:    return

// -----

// A collective and a send (ordered on the compute stream by the runtime,
// on NCCL) join the stream: the host waits only at the return, so that the
// results are complete. A call that is not stream-ordered (host code of
// the program's) reads its buffer on the host, so the host waits before
// it.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<64xf32>) kernel {
      gpu.return
    }
  }
  func.func private @dist_rt_all_reduce_f32(memref<?xf32>, memref<?xf32>, memref<?xi64>, memref<?xi64>, i32)
  func.func private @dist_rt_send_f32(memref<?xf32>, memref<?xi64>, memref<?xi64>, i64, i64)
  func.func private @inspect(memref<?xf32>)
  memref.global "private" constant @mesh : memref<2xi64> = dense<[2, 2]>
  func.func @collective(%x: memref<64xf32>, %y: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    %c0_i32 = arith.constant 0 : i32
    %c0_i64 = arith.constant 0 : i64
    %mesh = memref.get_global @mesh : memref<2xi64>
    %m = memref.cast %mesh : memref<2xi64> to memref<?xi64>
    %in = memref.cast %x : memref<64xf32> to memref<?xf32>
    %out = memref.cast %y : memref<64xf32> to memref<?xf32>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<64xf32>)
    call @dist_rt_all_reduce_f32(%in, %out, %m, %m, %c0_i32) : (memref<?xf32>, memref<?xf32>, memref<?xi64>, memref<?xi64>, i32) -> ()
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%y : memref<64xf32>)
    call @dist_rt_send_f32(%out, %m, %m, %c0_i64, %c0_i64) : (memref<?xf32>, memref<?xi64>, memref<?xi64>, i64, i64) -> ()
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%y : memref<64xf32>)
    call @inspect(%out) : (memref<?xf32>) -> ()
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%y : memref<64xf32>)
    return
  }
}
// CHECK-LABEL: func.func @collective
// CHECK:         %[[W:.*]] = gpu.wait async
// CHECK-NEXT:    %[[L0:.*]] = gpu.launch_func async [%[[W]]] @kernels::@k
// CHECK-NEXT:    call @dist_rt_all_reduce_f32
// CHECK-NEXT:    %[[L1:.*]] = gpu.launch_func async [%[[L0]]] @kernels::@k
// CHECK-NEXT:    call @dist_rt_send_f32
// CHECK-NEXT:    %[[L2:.*]] = gpu.launch_func async [%[[L1]]] @kernels::@k
// CHECK-NEXT:    gpu.wait [%[[L2]]]
// CHECK-NEXT:    call @inspect
// CHECK-NEXT:    %[[W2:.*]] = gpu.wait async
// CHECK-NEXT:    %[[L3:.*]] = gpu.launch_func async [%[[W2]]] @kernels::@k
// CHECK-NEXT:    gpu.wait [%[[L3]]]
// CHECK-NEXT:    return

// -----

// A copy between contiguous device buffers is a copy on the stream; one
// into a strided view stays a host copy, after a wait. A host loop of
// launches waits before it, and its body waits at its end for what it
// queued (a token crossing control flow would be taken for an event by
// gpu-to-llvm). A region that only frees follows the chain.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<64xf32>) kernel {
      gpu.return
    }
  }
  func.func @regions(%x: memref<64xf32>, %y: memref<64xf32>, %z: memref<4x32xf32>, %flag: i1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<64xf32>)
    memref.copy %x, %y : memref<64xf32> to memref<64xf32>
    %a = gpu.alloc host_shared () : memref<64xf32>
    scf.if %flag {
      %w = gpu.wait async
      %d = gpu.dealloc async [%w] %a : memref<64xf32>
    }
    %half = memref.subview %z[0, 0] [4, 16] [1, 1] : memref<4x32xf32> to memref<4x16xf32, strided<[32, 1]>>
    %other = memref.subview %z[0, 16] [4, 16] [1, 1] : memref<4x32xf32> to memref<4x16xf32, strided<[32, 1], offset: 16>>
    memref.copy %half, %other : memref<4x16xf32, strided<[32, 1]>> to memref<4x16xf32, strided<[32, 1], offset: 16>>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<64xf32>)
    scf.for %i = %c0 to %c4 step %c1 {
      gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<64xf32>)
    }
    return
  }
}
// CHECK-LABEL: func.func @regions
// CHECK:         %[[W:.*]] = gpu.wait async
// CHECK-NEXT:    %[[L0:.*]] = gpu.launch_func async [%[[W]]] @kernels::@k
// CHECK-NEXT:    %[[C:.*]] = gpu.memcpy async [%[[L0]]] %{{.*}}, %{{.*}} : memref<64xf32>, memref<64xf32>
// CHECK-NEXT:    %[[A:.*]], %[[AT:.*]] = gpu.alloc async [%[[C]]] () : memref<64xf32>
// CHECK-NEXT:    scf.if
// CHECK-NEXT:      gpu.dealloc async [%[[AT]]] %[[A]]
// CHECK-NEXT:    }
// CHECK:         gpu.wait [%[[AT]]]
// CHECK-NEXT:    memref.copy
// CHECK-NEXT:    %[[W1:.*]] = gpu.wait async
// CHECK-NEXT:    %[[L1:.*]] = gpu.launch_func async [%[[W1]]] @kernels::@k
// CHECK-NEXT:    gpu.wait [%[[L1]]]
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      %[[W2:.*]] = gpu.wait async
// CHECK-NEXT:      %[[L2:.*]] = gpu.launch_func async [%[[W2]]] @kernels::@k
// CHECK-NEXT:      gpu.wait [%[[L2]]]
// CHECK-NEXT:    }
// CHECK-NEXT:    return

// -----

// Where buffers live. One host code reads stays managed; one a kernel
// writes and a defined function takes is device memory if that function's
// argument is touched by the device alone; a returned one is device memory
// if every caller hands it only to kernels and to the runtime's writer of
// results, which copies it to the host.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<64xf32>) kernel {
      gpu.return
    }
  }
  func.func private @dist_rt_store_f32(i64, memref<?xf32>, memref<?xi64>)
  memref.global "private" constant @shape : memref<1xi64> = dense<64>
  func.func @produce() -> (memref<64xf32>, memref<64xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %stored = gpu.alloc host_shared () : memref<64xf32>
    %read = gpu.alloc host_shared () : memref<64xf32>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%stored : memref<64xf32>)
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%read : memref<64xf32>)
    return %stored, %read : memref<64xf32>, memref<64xf32>
  }
  func.func @consume(%x: memref<64xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<64xf32>)
    return
  }
  func.func @main() -> f32 {
    %c0 = arith.constant 0 : index
    %c0_i64 = arith.constant 0 : i64
    %stored, %read = call @produce() : () -> (memref<64xf32>, memref<64xf32>)
    %shape = memref.get_global @shape : memref<1xi64>
    %s = memref.cast %shape : memref<1xi64> to memref<?xi64>
    %flat = memref.cast %stored : memref<64xf32> to memref<?xf32>
    call @dist_rt_store_f32(%c0_i64, %flat, %s) : (i64, memref<?xf32>, memref<?xi64>) -> ()
    %v = memref.load %read[%c0] : memref<64xf32>
    %passed = gpu.alloc host_shared () : memref<64xf32>
    call @consume(%passed) : (memref<64xf32>) -> ()
    return %v : f32
  }
}
// CHECK-LABEL: func.func @produce
// CHECK:         %[[STORED:.*]], %{{.*}} = gpu.alloc async [%{{.*}}] () : memref<64xf32>
// CHECK-NEXT:    %[[READ:.*]] = gpu.alloc host_shared () : memref<64xf32>
// CHECK-LABEL: func.func @main
// CHECK:         call @produce
// CHECK:         gpu.alloc async [%{{.*}}] () : memref<64xf32>
// CHECK-NEXT:    call @consume

// -----

// A private function called only from another private function's host
// code is ordered on the stream like a collective: it enters with the
// caller's work possibly queued (it waits before its own host access) and
// returns without waiting; its caller waits only where it touches what the
// call queued. The step (private, called from the public entry, which
// expects complete results) still waits at its return.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<64xf32>) kernel {
      gpu.return
    }
  }
  func.func private @part(%x: memref<64xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0.0 : f32
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<64xf32>)
    return
  }
  func.func private @reads(%x: memref<64xf32>) -> f32 {
    %c0 = arith.constant 0 : index
    %v = memref.load %x[%c0] : memref<64xf32>
    return %v : f32
  }
  func.func private @step(%x: memref<64xf32>) -> f32 {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<64xf32>)
    call @part(%x) : (memref<64xf32>) -> ()
    call @part(%x) : (memref<64xf32>) -> ()
    %v = call @reads(%x) : (memref<64xf32>) -> f32
    call @part(%x) : (memref<64xf32>) -> ()
    return %v : f32
  }
  func.func @entry(%x: memref<64xf32>) -> f32 {
    %v = call @step(%x) : (memref<64xf32>) -> f32
    return %v : f32
  }
}
// CHECK-LABEL: func.func private @part
// CHECK:         gpu.launch_func async
// CHECK-NEXT:    return
// CHECK-LABEL: func.func private @reads
// CHECK:         %[[STREAM:.*]] = gpu.wait async
// CHECK-NEXT:    gpu.wait [%[[STREAM]]]
// CHECK-NEXT:    memref.load
// CHECK-LABEL: func.func private @step
// CHECK:         gpu.launch_func async
// CHECK-NEXT:    call @part
// CHECK-NEXT:    call @part
// CHECK-NEXT:    call @reads
// CHECK-NEXT:    call @part
// CHECK-NEXT:    %[[STREAM:.*]] = gpu.wait async
// CHECK-NEXT:    gpu.wait [%[[STREAM]]]
// CHECK-NEXT:    return
// CHECK-LABEL: func.func @entry
// CHECK-NEXT:    call @step
// CHECK-NEXT:    return
