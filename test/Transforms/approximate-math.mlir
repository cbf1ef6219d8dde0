// dist-approximate-math: f32 tanh, erf and exp become upstream's polynomial
// approximations (no libm call, vectorizable); other math ops and other
// types stay.
// RUN: dist-opt %s --dist-approximate-math | FileCheck %s

// CHECK-LABEL: func.func @f32_math
// CHECK-NOT:     math.tanh
// CHECK-NOT:     math.erf
// CHECK-NOT:     math.exp
// CHECK:         math.sqrt
// CHECK:         return
func.func @f32_math(%x: f32) -> (f32, f32, f32, f32) {
  %t = math.tanh %x : f32
  %e = math.erf %x : f32
  %p = math.exp %x : f32
  %s = math.sqrt %x : f32
  return %t, %e, %p, %s : f32, f32, f32, f32
}

// CHECK-LABEL: func.func @f64_math
// CHECK:         math.tanh %{{.*}} : f64
func.func @f64_math(%x: f64) -> f64 {
  %t = math.tanh %x : f64
  return %t : f64
}
