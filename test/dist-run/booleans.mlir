// Boolean and integer values in a step: a mask (i1) read from numpy's bool,
// a comparison, a logical and, a select (leaky ReLU, as jnp.where writes
// it), an iota split over tp (each shard counts from its own first column)
// and its cast to f32; the mask and the columns written back as bool and
// int32. The same results on one device and on the 2 x 2 mesh, and with
// --grad the gradients follow every forward result: grad.x.npy is the
// last result, not the second.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import sys; sys.path.insert(0, '%S/../../scripts'); import npy; npy.write('%t/x.npy', [2, 4], [-1.0, 2.0, 0.5, -0.25, 3.0, -2.0, 1.5, 0.75], 'f4'); npy.write('%t/keep.npy', [2, 4], [1, 1, 0, 1, 1, 1, 1, 0], 'b1')"
// RUN: dist-run %s --entry main --grad --input-dir %t --out %t/one
// RUN: dist-run %s --entry main --grad -n 4 --input-dir %t --out %t/four
// RUN: %python -c "import sys; sys.path.insert(0, '%S/../../scripts'); import npy; [print(npy.read_with_shape('%t/one/' + f)) for f in ('loss.npy', 'result1.npy', 'result2.npy', 'grad.x.npy')]" | FileCheck %s
// RUN: %python -c "import sys; sys.path.insert(0, '%S/../../scripts'); import npy; [print(npy.read_with_shape('%t/four/' + f)) for f in ('loss.npy', 'result1.npy', 'result2.npy', 'grad.x.npy')]" | FileCheck %s
// loss = sum((select(x > 0 and keep, x, x / 10) * column)^2)
// CHECK:      ([], 'f4', [13.1062{{[0-9]*}}])
// CHECK-NEXT: ([2, 4], 'b1', [0, 1, 0, 0, 1, 0, 1, 0])
// CHECK-NEXT: ([2, 4], 'i4', [0, 1, 2, 3, 0, 1, 2, 3])
// CHECK-NEXT: ([2, 4], 'f4', [0.0, 4.0, 0.04{{[0-9]*}}, -0.045{{[0-9]*}}, 0.0, -0.04{{[0-9]*}}, 12.0, 0.135{{[0-9]*}}])
// RUN: cmp %t/one/result3.npy %t/one/grad.x.npy
// On a GPU: every kernel of the step (booleans in, out and between) assembles.
// RUN: %if ptxas %{ dist-run %s --entry main --grad -n 4 --device gpu --no-run --keep-exe %t/gpu %}
// RUN: %if ptxas %{ %python %S/Inputs/ptxas_all.py %t/gpu %ptxas sm_90 | FileCheck %s --check-prefix=PTXAS %}
// PTXAS: {{[1-9][0-9]*}} PTX modules assembled
dist.mesh @mesh = <["dp"=2, "tp"=2]>
func.func @main(%x: tensor<2x4xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {"tp"}]>, dist.requires_grad},
                %keep: tensor<2x4xi1> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>})
    -> (tensor<f32>, tensor<2x4xi1>, tensor<2x4xi32>) {
  %zero = arith.constant dense<0.0> : tensor<f32>
  %positive = dist.compare %x, %zero {direction = "gt"} : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x4xi1>
  %kept = dist.and %positive, %keep : (tensor<2x4xi1>, tensor<2x4xi1>) -> tensor<2x4xi1>
  %small = dist.scale %x {factor = 0.1 : f64} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %leaky = dist.select %kept, %x, %small : (tensor<2x4xi1>, tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %columns = dist.iota {dim = 1 : i64} : () -> tensor<2x4xi32>
  %weights = dist.cast %columns : (tensor<2x4xi32>) -> tensor<2x4xf32>
  %w = dist.mul %leaky, %weights : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %sq = dist.mul %w, %w : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %l = dist.reduce_sum %sq {dims = array<i64: 0, 1>} : (tensor<2x4xf32>) -> tensor<f32>
  return %l, %kept, %columns : tensor<f32>, tensor<2x4xi1>, tensor<2x4xi32>
}
