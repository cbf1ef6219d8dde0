// Reductions whose length grows keep their accuracy: every sum the lowering
// emits (reduce_mean, reduce_sum, layer_norm statistics, softmax sums, the
// bias gradient over rows, the weight gradient over rows) is within 1e-6 of
// a float64 reference on inputs in [1, 2), where a running float32 sum of
// 2^18 terms is off by 1e-5.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/check_reductions.py %s %t | FileCheck %s
// CHECK: mean of 512x512: {{.*}} ok
// CHECK: sum over 2048 rows: {{.*}} ok
// CHECK: layer_norm y over 65536: {{.*}} ok
// CHECK: layer_norm mean over 65536: {{.*}} ok
// CHECK: layer_norm rstd over 65536: {{.*}} ok
// CHECK: softmax over 65536: {{.*}} ok
// CHECK: bias gradient over 2048 rows: {{.*}} ok
// CHECK: weight gradient over 2048 rows: {{.*}} ok
// CHECK: matmul over 2048, y transposed: {{.*}} ok
// CHECK: all within 1e-06
func.func @reductions(%x: tensor<512x512xf32>, %rows: tensor<2048x64xf32>, %long: tensor<4x65536xf32>,
                      %g: tensor<65536xf32>, %b: tensor<65536xf32>, %bias: tensor<48xf32>,
                      %w: tensor<64x48xf32>, %dy: tensor<2048x48xf32>, %p: tensor<8x2048xf32>,
                      %q: tensor<16x2048xf32>)
    -> (tensor<f32>, tensor<64xf32>, tensor<4x65536xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4x65536xf32>,
        tensor<48xf32>, tensor<64x48xf32>, tensor<8x16xf32>) {
  %mean = dist.reduce_mean %x {dims = array<i64: 0, 1>} : (tensor<512x512xf32>) -> tensor<f32>
  %sum = dist.reduce_sum %rows {dims = array<i64: 0>} : (tensor<2048x64xf32>) -> tensor<64xf32>
  %ln:3 = dist.layer_norm %long, %g, %b {begin_norm_axis = 1 : i64}
      : (tensor<4x65536xf32>, tensor<65536xf32>, tensor<65536xf32>) -> (tensor<4x65536xf32>, tensor<4xf32>, tensor<4xf32>)
  %sm = dist.softmax %long {axis = 1 : i64} : (tensor<4x65536xf32>) -> tensor<4x65536xf32>
  %y = dist.matmul %rows, %w : (tensor<2048x64xf32>, tensor<64x48xf32>) -> tensor<2048x48xf32>
  %dx, %dbias = dist.add_grad %y, %bias, %dy : (tensor<2048x48xf32>, tensor<48xf32>, tensor<2048x48xf32>) -> (tensor<2048x48xf32>, tensor<48xf32>)
  %drows, %dw = dist.matmul_grad %rows, %w, %dy : (tensor<2048x64xf32>, tensor<64x48xf32>, tensor<2048x48xf32>) -> (tensor<2048x64xf32>, tensor<64x48xf32>)
  %pq = dist.matmul %p, %q {transpose_y} : (tensor<8x2048xf32>, tensor<16x2048xf32>) -> tensor<8x16xf32>
  return %mean, %sum, %ln#0, %ln#1, %ln#2, %sm, %dbias, %dw, %pq
      : tensor<f32>, tensor<64xf32>, tensor<4x65536xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4x65536xf32>,
        tensor<48xf32>, tensor<64x48xf32>, tensor<8x16xf32>
}
