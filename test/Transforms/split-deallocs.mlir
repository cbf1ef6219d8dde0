// dist-split-deallocs: a bufferization.dealloc splits into one per group of
// operands that may share a buffer: the results of one call of a defined
// function (each result alone where the callee returns distinct fresh
// buffers), one allocation (through its views), the function's arguments.
// Memrefs whose condition is the constant false are dropped; a retained
// value whose group frees nothing is not owned afterwards.
// RUN: dist-opt %s --dist-split-deallocs | FileCheck %s
// RUN: dist-opt %s --dist-split-deallocs | dist-opt --dist-split-deallocs | FileCheck %s

func.func private @layer(%x: memref<8xf32>) -> (memref<8xf32>, memref<8xf32>) {
  %a = memref.alloc() : memref<8xf32>
  %b = memref.alloc() : memref<8xf32>
  return %a, %b : memref<8xf32>, memref<8xf32>
}
// Its results may be one buffer.
func.func private @pair(%x: memref<8xf32>) -> (memref<8xf32>, memref<8xf32>) {
  %a = memref.alloc() : memref<8xf32>
  return %a, %a : memref<8xf32>, memref<8xf32>
}
func.func private @external() -> memref<8xf32>

// CHECK-LABEL: func.func @step
// CHECK-SAME:    (%[[X:.*]]: memref<8xf32>
// CHECK-DAG:     %[[TRUE:.*]] = arith.constant true
// CHECK-DAG:     %[[R:.*]]:2 = call @layer(%[[X]])
// CHECK-DAG:     %[[S:.*]]:2 = call @pair(%[[R]]#0)
// CHECK:         %[[BASE:.*]], %{{.*}}, %{{.*}}, %{{.*}} = memref.extract_strided_metadata
// CHECK-NEXT:    bufferization.dealloc (%[[R]]#0 : memref<8xf32>) if (%[[TRUE]]){{$}}
// CHECK-NEXT:    bufferization.dealloc (%[[R]]#1 : memref<8xf32>) if (%[[TRUE]]){{$}}
// CHECK-NEXT:    %[[OWNED:.*]] = bufferization.dealloc (%[[S]]#0, %[[S]]#1 : memref<8xf32>, memref<8xf32>) if (%[[TRUE]], %[[TRUE]]) retain (%[[S]]#1 : memref<8xf32>)
// CHECK-NEXT:    bufferization.dealloc (%[[BASE]] : memref<f32>) if (%[[TRUE]]){{$}}
// CHECK-NEXT:    %[[NOT_OWNED:.*]] = arith.constant false
// CHECK-NEXT:    return %[[S]]#1, %[[X]], %[[OWNED]], %[[NOT_OWNED]]
func.func @step(%x: memref<8xf32>) -> (memref<8xf32>, memref<8xf32>, i1, i1) {
  %true = arith.constant true
  %false = arith.constant false
  %r:2 = call @layer(%x) : (memref<8xf32>) -> (memref<8xf32>, memref<8xf32>)
  %s:2 = call @pair(%r#0) : (memref<8xf32>) -> (memref<8xf32>, memref<8xf32>)
  %a = memref.alloc() : memref<8xf32>
  %v = memref.subview %a[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  %base, %offset, %size, %stride = memref.extract_strided_metadata %v : memref<4xf32, strided<[1]>> -> memref<f32>, index, index, index
  %o:2 = bufferization.dealloc (%r#0, %r#1, %s#0, %s#1, %base, %x : memref<8xf32>, memref<8xf32>, memref<8xf32>, memref<8xf32>, memref<f32>, memref<8xf32>) if (%true, %true, %true, %true, %true, %false) retain (%s#1, %x : memref<8xf32>, memref<8xf32>)
  return %s#1, %x, %o#0, %o#1 : memref<8xf32>, memref<8xf32>, i1, i1
}

// A loop that yields its own iteration argument ends with its initial
// value's buffer: it frees with the allocation it started from.
// CHECK-LABEL: func.func @carried
// CHECK:         %[[INIT:.*]] = memref.alloc()
// CHECK:         %[[LOOP:.*]] = scf.for
// CHECK:         %[[OTHER:.*]] = memref.alloc()
// CHECK-NEXT:    bufferization.dealloc (%[[LOOP]] : memref<8xf32>) if (%{{.*}}){{$}}
// CHECK-NEXT:    bufferization.dealloc (%[[OTHER]] : memref<8xf32>) if (%{{.*}}){{$}}
// CHECK-NEXT:    return
func.func @carried(%c: i1) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %init = memref.alloc() : memref<8xf32>
  %loop = scf.for %i = %c0 to %c4 step %c1 iter_args(%b = %init) -> (memref<8xf32>) {
    %cast = memref.cast %b : memref<8xf32> to memref<?xf32>
    %back = memref.cast %cast : memref<?xf32> to memref<8xf32>
    scf.yield %back : memref<8xf32>
  }
  %other = memref.alloc() : memref<8xf32>
  bufferization.dealloc (%loop, %other : memref<8xf32>, memref<8xf32>) if (%c, %c)
  return
}

// Ownership-based deallocation returns a buffer it may not own as
// `scf.if %owned { yield %b } else { clone %b }`: the result has %b's
// origin, whatever the condition; with both branches making their buffer
// it is a fresh one; with a constant condition only the taken branch
// counts.
// CHECK-LABEL: func.func @owned_or_cloned
// CHECK-SAME:    (%[[C:.*]]: i1)
// CHECK:         %[[R:.*]]:2 = call @layer
// CHECK:         %[[MAYBE:.*]] = scf.if %[[C]]
// CHECK:         %[[FRESH:.*]] = scf.if %[[C]]
// CHECK:         bufferization.clone
// CHECK-NEXT:    scf.yield
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[A:.*]] = memref.alloc()
// CHECK:         %[[TAKEN:.*]] = scf.if %{{.*}}
// CHECK:         %[[OWNED:.*]] = bufferization.dealloc (%[[R]]#0, %[[MAYBE]] : memref<8xf32>, memref<8xf32>) if (%[[C]], %[[C]]) retain (%[[MAYBE]] : memref<8xf32>)
// CHECK-NEXT:    bufferization.dealloc (%[[FRESH]] : memref<8xf32>) if (%[[C]]){{$}}
// CHECK-NEXT:    bufferization.dealloc (%[[A]], %[[TAKEN]] : memref<8xf32>, memref<8xf32>) if (%[[C]], %[[C]]){{$}}
// CHECK-NEXT:    return %[[MAYBE]], %[[OWNED]]
func.func @owned_or_cloned(%c: i1) -> (memref<8xf32>, i1) {
  %false = arith.constant false
  %x = memref.alloc() : memref<8xf32>
  %r:2 = call @layer(%x) : (memref<8xf32>) -> (memref<8xf32>, memref<8xf32>)
  %maybe = scf.if %c -> (memref<8xf32>) {
    scf.yield %r#0 : memref<8xf32>
  } else {
    %copy = bufferization.clone %r#0 : memref<8xf32> to memref<8xf32>
    scf.yield %copy : memref<8xf32>
  }
  %fresh = scf.if %c -> (memref<8xf32>) {
    %n = memref.alloc() : memref<8xf32>
    scf.yield %n : memref<8xf32>
  } else {
    %copy = bufferization.clone %r#1 : memref<8xf32> to memref<8xf32>
    scf.yield %copy : memref<8xf32>
  }
  %a = memref.alloc() : memref<8xf32>
  %taken = scf.if %false -> (memref<8xf32>) {
    scf.yield %r#1 : memref<8xf32>
  } else {
    scf.yield %a : memref<8xf32>
  }
  %o = bufferization.dealloc (%r#0, %fresh, %a, %maybe, %taken : memref<8xf32>, memref<8xf32>, memref<8xf32>, memref<8xf32>, memref<8xf32>) if (%c, %c, %c, %c, %c) retain (%maybe : memref<8xf32>)
  return %maybe, %o : memref<8xf32>, i1
}

// Buffers of unknown origin leave their dealloc whole: a declared
// function's result, a loop yielding another buffer, a nested block's
// argument, an scf.if that yields buffers of two origins, or one buffer it
// makes as two results.
// CHECK-LABEL: func.func @unknown
// CHECK:         bufferization.dealloc (%{{.*}}, %{{.*}} : memref<8xf32>, memref<8xf32>) if
// CHECK:         bufferization.dealloc (%{{.*}}, %{{.*}}, %{{.*}} : memref<8xf32>, memref<8xf32>, memref<8xf32>) if
// CHECK:         bufferization.dealloc (%{{.*}}#0, %{{.*}}#1 : memref<8xf32>, memref<8xf32>) if
// CHECK:         bufferization.dealloc (%{{.*}}, %{{.*}} : memref<8xf32>, memref<8xf32>) if
// CHECK:         bufferization.dealloc (%{{.*}}, %{{.*}} : memref<8xf32>, memref<8xf32>) if
// CHECK-NEXT:    scf.yield
func.func @unknown(%c: i1) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %e = call @external() : () -> memref<8xf32>
  %a = memref.alloc() : memref<8xf32>
  bufferization.dealloc (%e, %a : memref<8xf32>, memref<8xf32>) if (%c, %c)
  %p = memref.alloc() : memref<8xf32>
  %q = memref.alloc() : memref<8xf32>
  %either = scf.if %c -> (memref<8xf32>) {
    scf.yield %p : memref<8xf32>
  } else {
    scf.yield %q : memref<8xf32>
  }
  bufferization.dealloc (%p, %q, %either : memref<8xf32>, memref<8xf32>, memref<8xf32>) if (%c, %c, %c)
  %twice:2 = scf.if %c -> (memref<8xf32>, memref<8xf32>) {
    %m = memref.alloc() : memref<8xf32>
    scf.yield %m, %m : memref<8xf32>, memref<8xf32>
  } else {
    %m = memref.alloc() : memref<8xf32>
    %n = memref.alloc() : memref<8xf32>
    scf.yield %m, %n : memref<8xf32>, memref<8xf32>
  }
  bufferization.dealloc (%twice#0, %twice#1 : memref<8xf32>, memref<8xf32>) if (%c, %c)
  %init = memref.alloc() : memref<8xf32>
  %loop = scf.for %i = %c0 to %c4 step %c1 iter_args(%b = %init) -> (memref<8xf32>) {
    %n = memref.alloc() : memref<8xf32>
    scf.yield %n : memref<8xf32>
  }
  %a2 = memref.alloc() : memref<8xf32>
  bufferization.dealloc (%loop, %a2 : memref<8xf32>, memref<8xf32>) if (%c, %c)
  scf.for %i = %c0 to %c4 step %c1 iter_args(%b = %init) -> (memref<8xf32>) {
    %a3 = memref.alloc() : memref<8xf32>
    bufferization.dealloc (%b, %a3 : memref<8xf32>, memref<8xf32>) if (%c, %c)
    scf.yield %b : memref<8xf32>
  }
  return
}

// An unranked result may be another result's buffer: the results of
// @cast_pair stay together.
func.func private @cast_pair() -> (memref<8xf32>, memref<*xf32>) {
  %a = memref.alloc() : memref<8xf32>
  %u = memref.cast %a : memref<8xf32> to memref<*xf32>
  return %a, %u : memref<8xf32>, memref<*xf32>
}
// CHECK-LABEL: func.func @unranked
// CHECK:         bufferization.dealloc (%{{.*}}#0, %{{.*}}#1 : memref<8xf32>, memref<*xf32>) if (%{{.*}}, %{{.*}}){{$}}
func.func @unranked() {
  %true = arith.constant true
  %r:2 = call @cast_pair() : () -> (memref<8xf32>, memref<*xf32>)
  bufferization.dealloc (%r#0, %r#1 : memref<8xf32>, memref<*xf32>) if (%true, %true)
  return
}

// A call names a function of its own symbol table: the nested module's
// @pair, which returns two buffers, says nothing of this module's.
// CHECK-LABEL: func.func @shadowed
// CHECK:         bufferization.dealloc (%{{.*}}#0, %{{.*}}#1 : memref<8xf32>, memref<8xf32>) if (%{{.*}}, %{{.*}}){{$}}
func.func @shadowed(%x: memref<8xf32>) {
  %true = arith.constant true
  %r:2 = call @pair(%x) : (memref<8xf32>) -> (memref<8xf32>, memref<8xf32>)
  bufferization.dealloc (%r#0, %r#1 : memref<8xf32>, memref<8xf32>) if (%true, %true)
  return
}
module @inner {
  func.func private @pair(%x: memref<8xf32>) -> (memref<8xf32>, memref<8xf32>) {
    %a = memref.alloc() : memref<8xf32>
    %b = memref.alloc() : memref<8xf32>
    return %a, %b : memref<8xf32>, memref<8xf32>
  }
}
