// Found by dist-fuzz (the suite's run, seed 16, input 7912, once the
// corpus held the PyTorch import's tests): an sdy.mesh after the function
// that names it. The import erased the mesh it had converted, then read
// the block's ops as collected before: a freed op, which crashed
// (SIGSEGV) where the function's conversion had reused its memory. The
// block is read again after the meshes are converted.
// RUN: dist-fuzz --replay %s | FileCheck %s
// CHECK: rejected by the import stage
// RUN: not dist-opt --allow-unregistered-dialect %s --convert-stablehlo-to-dist 2>&1 | FileCheck %s --check-prefix=ERROR
// ERROR: mesh-after-function.mlir:[[@LINE+1]]:25: error: argument #0: mesh @mesh has no axis "tp"
func.func @unknown_axis(%x: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"tp"}]>}) -> tensor<4xf32> {
  %0 = "stablehlo.tanh"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
"sdy.mesh"() <{mesh = #sdy.mesh<["dp"=2]>, sym_name = "mesh"}> : () -> ()
