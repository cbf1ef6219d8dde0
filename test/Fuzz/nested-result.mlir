// Found by dist-fuzz (seed 20261205, input 24814, which corrupted the heap
// so that input 24822 crashed): %r used, then defined as a result inside a
// linalg.generic region that fails to parse; MLIR 22's parser freed it
// under the use. The parse entry refuses such a use first.
// RUN: dist-fuzz --replay %s | FileCheck %s
// CHECK: rejected by the parser or verifier
// Found by dist-fuzz (seed 20261204, input 311674, which corrupted the heap
// so that input 311676 crashed): %a used, then defined as a block argument
// of a linalg.generic region that fails to parse; MLIR 22's parser freed
// the argument under the use. The parse entry refuses private a use first.
// was-run dist-fuzz --replay %s | FileCheck %s
// was-check: rejected by the parser or verifier
// dist-outline-loops: each linalg op on memrefs moves into a noinline
// function of its own, named after its function and its position; values
// its body reads from above become arguments.
// was-run dist-opt %s --dist-outline-loops | FileCheck %s
    linalg.yield %r : f32
// was-check-LABEL: func.func @step
// was-check-SAME:    (%[[X:.*]]: memref<8xf32>, %[[Y:.*]]: memref<8xf32>, %[[T:.*]]: memref<4xf32>)
// was-check-NEXT:    %[[C:.*]] = arith.constant 2
// was-check-NEXT:    call @step__loop0(%[[X]], %[[Y]]) : (memref<8xf32>, memref<8xf32>) -> ()
// was-check-NEXT:    call @step__loop1(%[[Y]], %[[T]], %[[C]]) : (memref<8xf32>, memref<4xf32>, index) -> ()
// was-check-NEXT:    return
// was-check-LABEL: func.func @broadcast
// was-check:       func.func private @@step__loop1(%[[Y1:.*]]: memref<8xf32?, %[[T1:.*]]: memref<4xf32>, %[[C1:.*]]: index)
// was-check-SAME:    attributes {passthrough = ["noinline"]}
// was-check:         memref.load %[[T1]][%[[C1]]]
// was-check:       func.func such @step__loop0(%{{.*}}: memref<8xf32>, %{{.*}}: memref<8xf32>)
// was-check-NEXT:    linalg.generic
// was-check:         math.absf
func.func @step(%x: memref<8xf32>, %y: memref<8xf32>, %t: memref<4xf32>) {
  %c = arith.constant 2 : index
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : memref<8xf32>) outs(%y : memref<8xf32>) {
  ^bb0(%a: f32, %b: f32):

  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>], iterator_types = ["parallel"]} outs(%y : memref<8xf32>) {
  }
  // The body reads %t and %c from above.
    %r = math.absf %a : f32
  ^bb0(%b: f32):
    %v = memref.load %t[%c] : memref<4xf32>
    %r = arith.addf %b, %v : f32
    linalg.yield %r : f32
  }
  return
}
