// Found by dist-fuzz (seed 4242, input 269545): `iterator_types = [4]` made
// linalg.generic's parser (MLIR 22) read an integer as a string and crash.
// The parse entry refuses such entries first.
// RUN: dist-fuzz --replay %s | FileCheck %s
// CHECK: rejected by the parser or verifier

// A constant a kernel reads directly is copied into a managed buffer first
// (a kernel cannot read host globals) and freed at the end.
#id = affine_map<(d0) -> (d0)>
func.func @reads_constant(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = [4]} ins(%x, %c : tensor<4xf32>, tensor<xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
// was-check-LABEL: func.func @reads_constant
// was-check:         %[[GLOBAL:.*]] = memref.get_global @{{.*}} : memref<4xf32>
// was-check-NEXT:    %[[STAGED:.*]] = gpu.alloc host_shared () : memref<4xf32>
// was-check-NEXT:    memref.copy %[[GLOBAL]], %[[STAGED]]
// was-check:         gpu.launch_func @{{.*}} args(%{{.*}} : memref<4xf32>, %[[STAGED]] : memref<4xf32>, %{{.*}} : memref<"parallel"xf32>
// was-check:         gpu.dealloc async [%{{.*}}] %[[STAGED]]
// was-check:         return
