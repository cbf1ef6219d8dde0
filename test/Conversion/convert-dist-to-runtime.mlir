// RUN: dist-opt %s --split-input-file --convert-dist-to-runtime | FileCheck %s
// The lowered module goes through bufferization, deallocation and the LLVM
// lowering, with no collective left.
// RUN: dist-opt %s --split-input-file --convert-dist-to-runtime --inline --symbol-dce --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --ownership-based-buffer-deallocation --buffer-deallocation-simplification --bufferization-lower-deallocations --convert-bufferization-to-memref --convert-linalg-to-loops --convert-scf-to-cf --expand-strided-metadata --lower-affine --finalize-memref-to-llvm --convert-to-llvm --reconcile-unrealized-casts | FileCheck %s --check-prefix=LLVM

// A sync all-reduce becomes a call to a helper that flattens the operand,
// calls the runtime on its buffer and a new one, and reshapes the result;
// two identical collectives share one helper, and the mesh is gone.
dist.mesh @mesh = <["dp"=2, "tp"=4]>
func.func @all_reduce(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = dist.all_reduce %x on @mesh axes = ["tp"] kind = avg : tensor<4x8xf32> -> tensor<4x8xf32>
  %s = dist.all_reduce %r on @mesh axes = ["tp"] kind = avg : tensor<4x8xf32> -> tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}
// CHECK-NOT:   dist.mesh
// CHECK-LABEL: func.func @all_reduce
// CHECK-SAME:    (%[[X:.*]]: tensor<4x8xf32>)
// CHECK-NEXT:    %[[R:.*]] = call @[[H:__dist_rt_[0-9]+]](%[[X]]) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    %[[S:.*]] = call @[[H]](%[[R]])
// CHECK:       func.func private @dist_rt_all_reduce_f32(memref<?xf32>, memref<?xf32>, memref<?xi64>, memref<?xi64>, i32) attributes {llvm.emit_c_interface}
// CHECK:       func.func private @[[H]](%[[A:.*]]: tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK:         tensor.reshape %[[A]]
// CHECK:         %[[IN:.*]] = bufferization.to_buffer %{{.*}} read_only : tensor<32xf32> to memref<32xf32>
// CHECK:         %[[OUT:.*]] = memref.alloc() : memref<32xf32>
// The mesh [2, 4] numbered row-major, the tp axis (1), kind avg (1).
// CHECK:         arith.constant dense<[2, 2, 4, 0]> : tensor<4xi64>
// CHECK:         arith.constant dense<1> : tensor<1xi64>
// CHECK:         %[[KIND:.*]] = arith.constant 1 : i32
// CHECK:         call @dist_rt_all_reduce_f32({{.*}}, %[[KIND]])
// CHECK:         bufferization.to_tensor %[[OUT]] restrict writable
// LLVM-LABEL:  llvm.func @all_reduce
// LLVM:          llvm.call @_mlir_ciface_dist_rt_all_reduce_f32
// LLVM-NOT:      dist.

// -----

// An async start copies its input and returns the request with both
// buffers; the wait's helper waits, then unpacks.
dist.mesh @mesh = <["x"=2]>
func.func @async(%x: tensor<8xf32>) -> tensor<8xf32> {
  %h = dist.all_reduce_start %x on @mesh axes = ["x"] kind = sum : tensor<8xf32> -> !dist.handle<tensor<8xf32>>
  %r = dist.wait %h : !dist.handle<tensor<8xf32>> -> tensor<8xf32>
  return %r : tensor<8xf32>
}
// CHECK-LABEL: func.func @async
// CHECK-NEXT:    %[[P:.*]]:3 = call @[[START:__dist_rt_[0-9]+]](%{{.*}}) : (tensor<8xf32>) -> (i64, memref<?xf32>, memref<8xf32>)
// CHECK-NEXT:    %[[R:.*]] = call @[[WAIT:__dist_rt_[0-9]+]](%[[P]]#0, %[[P]]#1, %[[P]]#2)
// CHECK-NEXT:    return %[[R]]
// CHECK:       func.func private @[[START]]
// CHECK:         memref.copy
// CHECK:         call @dist_rt_all_reduce_start_f32
// CHECK:       func.func private @[[WAIT]]
// CHECK:         call @dist_rt_wait_f32

// -----

// A send flattens its operand and hands the buffer to the runtime, which
// copies it and returns; a receive fills a new buffer. Both name the peer's
// index in the group over the axes and the tag that pairs them.
dist.mesh @mesh = <["pp"=2, "dp"=2]>
func.func @point_to_point(%x: tensor<4x8xf32>) -> tensor<4x8xbf16> {
  dist.send %x to 1 on @mesh axes = ["pp"] tag = 3 : tensor<4x8xf32>
  %y = dist.recv from 1 on @mesh axes = ["pp"] tag = 4 : tensor<4x8xbf16>
  return %y : tensor<4x8xbf16>
}
// CHECK-LABEL: func.func @point_to_point
// CHECK-SAME:    (%[[X:.*]]: tensor<4x8xf32>)
// CHECK-NEXT:    call @[[SEND:__dist_rt_[0-9]+]](%[[X]]) : (tensor<4x8xf32>) -> ()
// CHECK-NEXT:    %[[Y:.*]] = call @[[RECV:__dist_rt_[0-9]+]]() : () -> tensor<4x8xbf16>
// CHECK-NEXT:    return %[[Y]]
// CHECK-DAG:   func.func private @dist_rt_send_f32(memref<?xf32>, memref<?xi64>, memref<?xi64>, i64, i64) attributes {llvm.emit_c_interface}
// CHECK-DAG:   func.func private @dist_rt_recv_bf16(memref<?xbf16>, memref<?xi64>, memref<?xi64>, i64, i64) attributes {llvm.emit_c_interface}
// CHECK:       func.func private @[[SEND]](%[[A:.*]]: tensor<4x8xf32>)
// CHECK:         %[[IN:.*]] = bufferization.to_buffer %{{.*}} read_only : tensor<32xf32> to memref<32xf32>
// CHECK:         %[[INC:.*]] = memref.cast %[[IN]]
// The mesh [2, 2], the pp axis (0), peer 1, tag 3.
// CHECK:         arith.constant dense<[2, 2, 2, 0]> : tensor<4xi64>
// CHECK:         arith.constant dense<0> : tensor<1xi64>
// CHECK:         %[[PEER:.*]] = arith.constant 1 : i64
// CHECK-NEXT:    %[[TAG:.*]] = arith.constant 3 : i64
// CHECK-NEXT:    call @dist_rt_send_f32(%[[INC]], %{{.*}}, %{{.*}}, %[[PEER]], %[[TAG]])
// CHECK:       func.func private @[[RECV]]() -> tensor<4x8xbf16>
// CHECK:         %[[OUT:.*]] = memref.alloc() : memref<32xbf16>
// CHECK:         call @dist_rt_recv_bf16(
// CHECK:         bufferization.to_tensor %[[OUT]] restrict writable
