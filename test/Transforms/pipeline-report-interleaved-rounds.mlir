// RUN: dist-opt %s --verify-diagnostics --dist-pipeline-report="schedule=interleaved-1f1b virtual-stages=2 microbatches=3" -o /dev/null
// Interleaved 1F1B runs the microbatches in rounds of the stages.

// Two devices, each with two model chunks: three boundaries make four
// logical stages.
dist.mesh @mesh = <["pp"=2]>
// expected-error @below {{interleaved-1f1b runs the microbatches 2 at a time: 3 is not a multiple of the 2 stages}}
func.func @chunks(%x: tensor<4x8xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}]>}) -> tensor<4x8xf32> {
  %a = dist.gelu %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %b = dist.stage_boundary %a : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %c = dist.gelu %b : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %d = dist.stage_boundary %c : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %e = dist.gelu %d : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %f = dist.stage_boundary %e : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %g = dist.gelu %f : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %g : tensor<4x8xf32>
}
