// dist-outline-loops: each linalg op on memrefs moves into a noinline
// function of its own, named after its function and its position; values
// its body reads from above become arguments. What a function keeps (calls)
// is tuned for the generic CPU, keeping the LLVM attributes it has.
// RUN: dist-opt %s --dist-outline-loops | FileCheck %s

// CHECK-LABEL: func.func @step
// CHECK-SAME:    (%[[X:.*]]: memref<8xf32>, %[[Y:.*]]: memref<8xf32>, %[[T:.*]]: memref<4xf32>)
// CHECK-SAME:    attributes {passthrough = {{\[\["tune-cpu", "generic"\]\]}}}
// CHECK-NEXT:    %[[C:.*]] = arith.constant 2
// CHECK-NEXT:    call @step__loop0(%[[X]], %[[Y]]) : (memref<8xf32>, memref<8xf32>) -> ()
// CHECK-NEXT:    call @step__loop1(%[[Y]], %[[T]], %[[C]]) : (memref<8xf32>, memref<4xf32>, index) -> ()
// CHECK-NEXT:    return
// CHECK:       func.func private @step__loop1(%[[Y1:.*]]: memref<8xf32>, %[[T1:.*]]: memref<4xf32>, %[[C1:.*]]: index)
// CHECK-SAME:    attributes {passthrough = ["noinline"]}
// CHECK:         memref.load %[[T1]][%[[C1]]]
// CHECK:       func.func private @step__loop0(%{{.*}}: memref<8xf32>, %{{.*}}: memref<8xf32>)
// CHECK-SAME:    attributes {passthrough = ["noinline"]}
// CHECK-NEXT:    linalg.generic
// CHECK:         math.absf
func.func @step(%x: memref<8xf32>, %y: memref<8xf32>, %t: memref<4xf32>) {
  %c = arith.constant 2 : index
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : memref<8xf32>) outs(%y : memref<8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = math.absf %a : f32
    linalg.yield %r : f32
  }
  // The body reads %t and %c from above.
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>], iterator_types = ["parallel"]} outs(%y : memref<8xf32>) {
  ^bb0(%b: f32):
    %v = memref.load %t[%c] : memref<4xf32>
    %r = arith.addf %b, %v : f32
    linalg.yield %r : f32
  }
  return
}

// A name the module already has is skipped.
// CHECK-LABEL: func.func @user
// CHECK-SAME:    attributes {passthrough = ["nounwind", {{\["tune-cpu", "generic"\]}}]}
// CHECK-NEXT:    call @user__loop1
// CHECK:       func.func private @user__loop1(
// CHECK:       func.func private @user__loop0()
// CHECK-NEXT:    return
func.func @user(%y: memref<8xf32>) attributes {passthrough = ["nounwind"]} {
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>], iterator_types = ["parallel"]} outs(%y : memref<8xf32>) {
  ^bb0(%b: f32):
    %r = arith.addf %b, %b : f32
    linalg.yield %r : f32
  }
  return
}
func.func private @user__loop0() {
  return
}

// A function without loop nests keeps its tuning.
// CHECK-LABEL: func.func @calls_only()
// CHECK-NOT:     passthrough
// CHECK-NEXT:    call @user__loop0() : () -> ()
func.func @calls_only() {
  call @user__loop0() : () -> ()
  return
}
