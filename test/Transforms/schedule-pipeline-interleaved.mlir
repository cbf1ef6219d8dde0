// RUN: dist-opt %s --verify-diagnostics --dist-schedule-pipeline=schedule=interleaved-1f1b -o /dev/null

// Interleaved 1F1B (model chunks on each device) is a schedule the cost
// model knows (dist-pipeline-report virtual-stages=), not one this pass
// writes: it says so rather than running another order.
dist.mesh @mesh = <["dp"=2, "mb"=2]>
// expected-error @below {{schedule interleaved-1f1b (model chunks on each device) is modelled by dist-pipeline-report (virtual-stages=), not written by dist-schedule-pipeline: use gpipe, 1f1b or zb-h1}}
func.func @step(%x: tensor<2x8xf32> {dist.batch_dim = 0 : i64, dist.local = #dist.sharding<@mesh, [{"dp", "mb"}, {}]>},
                %w: tensor<8x8xf32> {dist.local = #dist.sharding<@mesh, [{}, {}]>})
    -> (tensor<f32> {dist.local = #dist.sharding<@mesh, []>}, tensor<8x8xf32> {dist.local = #dist.sharding<@mesh, [{}, {}]>})
    attributes {dist.microbatch_axis = "mb"} {
  %y = dist.matmul %x, %w : (tensor<2x8xf32>, tensor<8x8xf32>) -> tensor<2x8xf32>
  %l = dist.reduce_mean %y {dims = array<i64: 0, 1>} : (tensor<2x8xf32>) -> tensor<f32>
  %loss = dist.all_reduce %l on @mesh axes = ["dp", "mb"] kind = avg : tensor<f32> -> tensor<f32>
  %dw = dist.matmul %x, %y {transpose_x} : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<8x8xf32>
  %g = dist.all_reduce %dw on @mesh axes = ["dp", "mb"] kind = sum : tensor<8x8xf32> -> tensor<8x8xf32>
  %w2 = dist.sub %w, %g : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %loss, %w2 : tensor<f32>, tensor<8x8xf32>
}
