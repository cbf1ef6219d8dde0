// RUN: dist-opt %s --split-input-file --convert-dist-to-linalg --verify-diagnostics
// Each failure of convert-dist-to-linalg, one per chunk.

// A forward program that asks for gradients has no backward yet: lowering
// it would drop the request (and the marked argument stops being a tensor
// at bufferization). The error is at the argument.
dist.mesh @mesh = <["dp"=2]>
func.func @step(%x: tensor<8x16xf32>,
                // expected-error@+1 {{argument #1 asks for a gradient (dist.requires_grad) but the function has no backward: derive it first with dist-append-backward (dist-run --grad), or drop the attribute to compile the forward alone}}
                %w: tensor<16x4xf32> {dist.requires_grad}) -> tensor<f32> {
  %h = dist.matmul %x, %w : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  %l = dist.reduce_mean %h {dims = array<i64: 0, 1>} : (tensor<8x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
