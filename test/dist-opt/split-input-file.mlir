// RUN: dist-opt %s --split-input-file | FileCheck %s
// RUN: not dist-opt %s 2>&1 | FileCheck %s --check-prefix=WHOLE

// Each chunk is its own module; outputs are joined by the marker.
// CHECK-LABEL: func.func @first
// CHECK: // -----
// CHECK-LABEL: func.func @second
// Without splitting, the two meshes named @mesh collide.
// WHOLE: split-input-file.mlir:17:1: error: redefinition of symbol named 'mesh'
dist.mesh @mesh = <["x"=2]>
func.func @first() {
  return
}

// -----

dist.mesh @mesh = <["y"=4]>
func.func @second() {
  return
}
