// With --grad the results are the loss and the gradients in argument
// order (result0.npy, result1.npy, ...); dist-run also writes them by
// name: loss.npy and grad.<argument>.npy, the same arrays.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/../../scripts/npy.py inputs %s step %t/in > /dev/null
// RUN: dist-run %s --entry step --grad -n 2 --input-dir %t/in --out %t/out
// RUN: cmp %t/out/result0.npy %t/out/loss.npy
// RUN: cmp %t/out/result1.npy %t/out/grad.w1.npy
// RUN: cmp %t/out/result2.npy %t/out/grad.b.npy
// More processes than cores (here one core, by taskset) run, with a
// warning that their timings measure the sharing.
// RUN: taskset -c 0 dist-run %s --entry step --grad -n 2 --input-dir %t/in --out %t/one-core 2>&1 | FileCheck %s --check-prefix=SHARED
// SHARED: dist-run: warning: 2 processes share this machine's 1 core: they run, but their timings measure the sharing more than the step
// RUN: cmp %t/out/loss.npy %t/one-core/loss.npy
dist.mesh @mesh = <["dp"=2]>
func.func @step(%x: tensor<4x8xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>},
                %w1: tensor<8x8xf32> {dist.requires_grad},
                %b: tensor<8xf32> {dist.requires_grad}) -> tensor<f32> {
  %h = dist.matmul %x, %w1 : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %y = dist.add %h, %b : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %t = dist.tanh %y : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %l = dist.reduce_mean %t {dims = array<i64: 0, 1>} : (tensor<4x8xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
