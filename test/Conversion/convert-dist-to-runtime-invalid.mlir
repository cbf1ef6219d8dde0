// RUN: dist-opt %s --split-input-file --verify-diagnostics --convert-dist-to-runtime

// MPI has no reduction for bf16 buffers in the runtime: only f32 and f64.
dist.mesh @mesh = <["x"=2]>
func.func @bf16(%x: tensor<8xbf16>) -> tensor<8xbf16> {
  // expected-error @below {{the runtime's collectives take f32 or f64 tensors, not bf16}}
  %r = dist.all_reduce %x on @mesh axes = ["x"] kind = sum : tensor<8xbf16> -> tensor<8xbf16>
  return %r : tensor<8xbf16>
}
