// dist-strip-call-descriptors: a private function whose every use is a
// call takes each static identity-layout memref as its aligned pointer and
// returns each as its allocated and aligned pointer; both sides rebuild the
// descriptor from the pointers and the constant shape.
// RUN: dist-opt %s --dist-strip-call-descriptors | FileCheck %s
// Idempotent: the pointers have nothing left to strip.
// RUN: dist-opt %s --dist-strip-call-descriptors | dist-opt --dist-strip-call-descriptors | FileCheck %s
// The casts fold away in the lowering: the layer takes and returns pointers.
// RUN: dist-opt %s --dist-strip-call-descriptors --finalize-memref-to-llvm --convert-to-llvm \
// RUN:   --reconcile-unrealized-casts | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVM

// LLVM: define { ptr, ptr, i64, [2 x i64], [2 x i64] } @step(ptr %0, ptr %1, i64 %2, i64 %3, i64 %4, ptr %5,
// LLVM: define { ptr, ptr } @layer(ptr %0, ptr %1, i64 %2)
// LLVM: define void @dynamic(ptr %0, ptr %1, i64 %2, i64 %3, i64 %4, ptr %5)
// LLVM: define void @taken(ptr %0, ptr %1, i64 %2, i64 %3, i64 %4)

// The caller passes aligned pointers and rebuilds the result's descriptor
// from the two it gets back: offset 0, sizes 2 x 3, strides 3 x 1.
// CHECK-LABEL: func.func @step
// CHECK-SAME:    (%[[X:.*]]: memref<8xf32>, %[[W:.*]]: memref<2x3xf32>, %[[N:.*]]: index) -> memref<2x3xf32>
// CHECK-NEXT:    %[[XD:.*]] = builtin.unrealized_conversion_cast %[[X]] : memref<8xf32> to !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:    %[[XP:.*]] = llvm.extractvalue %[[XD]][1]
// CHECK-NEXT:    %[[WD:.*]] = builtin.unrealized_conversion_cast %[[W]] : memref<2x3xf32> to
// CHECK-NEXT:    %[[WP:.*]] = llvm.extractvalue %[[WD]][1]
// CHECK-NEXT:    %[[R:.*]]:2 = call @layer(%[[XP]], %[[WP]], %[[N]]) {no_inline} : (!llvm.ptr, !llvm.ptr, index) -> (!llvm.ptr, !llvm.ptr)
// CHECK-NEXT:    %[[P:.*]] = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-NEXT:    %[[D0:.*]] = llvm.insertvalue %[[R]]#0, %[[P]][0]
// CHECK-NEXT:    %[[D1:.*]] = llvm.insertvalue %[[R]]#1, %[[D0]][1]
// CHECK-NEXT:    %[[OFF:.*]] = llvm.mlir.constant(0 : i64)
// CHECK-NEXT:    %[[D2:.*]] = llvm.insertvalue %[[OFF]], %[[D1]][2]
// CHECK-NEXT:    %[[S0:.*]] = llvm.mlir.constant(2 : i64)
// CHECK-NEXT:    %[[D3:.*]] = llvm.insertvalue %[[S0]], %[[D2]][3, 0]
// CHECK-NEXT:    %[[T0:.*]] = llvm.mlir.constant(3 : i64)
// CHECK-NEXT:    %[[D4:.*]] = llvm.insertvalue %[[T0]], %[[D3]][4, 0]
// CHECK-NEXT:    %[[S1:.*]] = llvm.mlir.constant(3 : i64)
// CHECK-NEXT:    %[[D5:.*]] = llvm.insertvalue %[[S1]], %[[D4]][3, 1]
// CHECK-NEXT:    %[[T1:.*]] = llvm.mlir.constant(1 : i64)
// CHECK-NEXT:    %[[D6:.*]] = llvm.insertvalue %[[T1]], %[[D5]][4, 1]
// CHECK-NEXT:    %[[Y:.*]] = builtin.unrealized_conversion_cast %[[D6]] : {{.*}} to memref<2x3xf32>
// A dynamic shape keeps its descriptor; the static operand beside it does not.
// CHECK-NEXT:    %[[CAST:.*]] = memref.cast %[[X]]
// CHECK-NEXT:    builtin.unrealized_conversion_cast %[[X]]
// CHECK-NEXT:    %[[XP2:.*]] = llvm.extractvalue
// CHECK-NEXT:    call @dynamic(%[[CAST]], %[[XP2]]) : (memref<?xf32>, !llvm.ptr) -> ()
// A function named other than by a call keeps its signature.
// CHECK-NEXT:    constant @taken
// CHECK-NEXT:    call @taken(%[[X]]) : (memref<8xf32>) -> ()
// CHECK-NEXT:    return %[[Y]] : memref<2x3xf32>
func.func @step(%x: memref<8xf32>, %w: memref<2x3xf32>, %n: index) -> memref<2x3xf32> {
  %y = call @layer(%x, %w, %n) {no_inline} : (memref<8xf32>, memref<2x3xf32>, index) -> memref<2x3xf32>
  %d = memref.cast %x : memref<8xf32> to memref<?xf32>
  call @dynamic(%d, %x) : (memref<?xf32>, memref<8xf32>) -> ()
  %f = func.constant @taken : (memref<8xf32>) -> ()
  call @taken(%x) : (memref<8xf32>) -> ()
  return %y : memref<2x3xf32>
}

// The callee rebuilds each used argument's descriptor at its entry (the
// aligned pointer in both pointer fields: a callee never frees its
// arguments) and returns both pointers of its result.
// CHECK-LABEL: func.func private @layer
// CHECK-SAME:    (%[[A:.*]]: !llvm.ptr, %[[B:.*]]: !llvm.ptr, %[[I:.*]]: index) -> (!llvm.ptr, !llvm.ptr)
// CHECK-NEXT:    llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// CHECK-NEXT:    llvm.insertvalue %[[B]], %{{.*}}[0]
// CHECK-NEXT:    llvm.insertvalue %[[B]], %{{.*}}[1]
// CHECK:         %[[BM:.*]] = builtin.unrealized_conversion_cast %{{.*}} to memref<2x3xf32>
// CHECK-NEXT:    llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
// CHECK-NEXT:    llvm.insertvalue %[[A]], %{{.*}}[0]
// CHECK-NEXT:    llvm.insertvalue %[[A]], %{{.*}}[1]
// CHECK:         %[[AM:.*]] = builtin.unrealized_conversion_cast %{{.*}} to memref<8xf32>
// CHECK-NEXT:    %[[C:.*]] = memref.alloc() : memref<2x3xf32>
// CHECK-NEXT:    memref.copy %[[BM]], %[[C]]
// CHECK-NEXT:    memref.load %[[AM]][%[[I]]]
// CHECK-NEXT:    memref.store
// CHECK-NEXT:    %[[CD0:.*]] = builtin.unrealized_conversion_cast %[[C]]
// CHECK-NEXT:    %[[ALLOCATED:.*]] = llvm.extractvalue %[[CD0]][0]
// CHECK-NEXT:    %[[CD1:.*]] = builtin.unrealized_conversion_cast %[[C]]
// CHECK-NEXT:    %[[ALIGNED:.*]] = llvm.extractvalue %[[CD1]][1]
// CHECK-NEXT:    return %[[ALLOCATED]], %[[ALIGNED]] : !llvm.ptr, !llvm.ptr
func.func private @layer(%a: memref<8xf32>, %b: memref<2x3xf32>, %n: index) -> memref<2x3xf32> {
  %c = memref.alloc() : memref<2x3xf32>
  memref.copy %b, %c : memref<2x3xf32> to memref<2x3xf32>
  %v = memref.load %a[%n] : memref<8xf32>
  memref.store %v, %c[%n, %n] : memref<2x3xf32>
  return %c : memref<2x3xf32>
}

// An unused argument becomes a pointer without a descriptor.
// CHECK-LABEL: func.func private @dynamic
// CHECK-SAME:    (%{{.*}}: memref<?xf32>, %{{.*}}: !llvm.ptr) {
// CHECK-NEXT:    return
func.func private @dynamic(%a: memref<?xf32>, %b: memref<8xf32>) {
  return
}

// CHECK-LABEL: func.func private @taken
// CHECK-SAME:    (%{{.*}}: memref<8xf32>)
func.func private @taken(%a: memref<8xf32>) {
  return
}

// Declarations, public functions and functions with argument attributes
// keep their signatures.
// CHECK-LABEL: func.func private @declared(memref<8xf32>)
func.func private @declared(%a: memref<8xf32>)
// CHECK-LABEL: func.func @public(%{{.*}}: memref<8xf32>)
func.func @public(%a: memref<8xf32>) {
  return
}
// CHECK-LABEL: func.func private @annotated(%{{.*}}: memref<8xf32> {llvm.noalias})
func.func private @annotated(%a: memref<8xf32> {llvm.noalias}) {
  return
}
// CHECK-LABEL: func.func @caller
// CHECK-NEXT:    call @public(%{{.*}}) : (memref<8xf32>) -> ()
// CHECK-NEXT:    call @annotated(%{{.*}}) : (memref<8xf32>) -> ()
func.func @caller(%x: memref<8xf32>) {
  call @public(%x) : (memref<8xf32>) -> ()
  call @annotated(%x) : (memref<8xf32>) -> ()
  return
}

// A symbol named inside an array attribute is a use other than a call: the
// function keeps its signature.
// CHECK-LABEL: func.func private @listed
// CHECK-SAME:    (%{{.*}}: memref<8xf32>)
func.func private @listed(%a: memref<8xf32>) {
  return
}
func.func @lister(%x: memref<8xf32>) attributes {refs = [@listed]} {
  call @listed(%x) : (memref<8xf32>) -> ()
  return
}

// A call in a nested module names that module's function: only this
// module's @shadow and its call here change.
// CHECK-LABEL: func.func private @shadow
// CHECK-SAME:    (%{{.*}}: !llvm.ptr)
func.func private @shadow(%a: memref<8xf32>) {
  return
}
// CHECK-LABEL: func.func @shadow_caller
// CHECK:         call @shadow(%{{.*}}) : (!llvm.ptr) -> ()
func.func @shadow_caller(%x: memref<8xf32>) {
  call @shadow(%x) : (memref<8xf32>) -> ()
  return
}
// CHECK-LABEL: module @inner
// CHECK:         func.func private @shadow(%{{.*}}: memref<8xf32>)
// CHECK:         call @shadow(%{{.*}}) : (memref<8xf32>) -> ()
module @inner {
  func.func private @shadow(%a: memref<8xf32>) {
    return
  }
  func.func @user(%x: memref<8xf32>) {
    call @shadow(%x) : (memref<8xf32>) -> ()
    return
  }
}
