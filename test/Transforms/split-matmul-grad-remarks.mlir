// RUN: dist-opt %s --split-input-file --verify-diagnostics --dist-split-matmul-grad

// The all-reduce of dx also waits for dy (through a matmul on dy and the
// sum): splitting could not let dy overlap it.
dist.mesh @mesh = <["tp"=4]>
func.func @collective_needs_dy(%x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}]>},
                               %w: tensor<16x64xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
                               %dout: tensor<8x64xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
                               %z: tensor<8x64xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>}) -> tensor<8x16xf32> {
  // expected-remark @below {{not split: the dist.all_reduce that reduces dx also depends on dy, so dy cannot overlap it}}
  %dx, %dw = dist.matmul_grad %x, %w, %dout {dist.sharding = [#dist.sharding<@mesh, [{}, {}], partial = sum{"tp"}>, #dist.sharding<@mesh, [{}, {"tp"}]>]} : (tensor<8x16xf32>, tensor<16x64xf32>, tensor<8x64xf32>) -> (tensor<8x16xf32>, tensor<16x64xf32>)
  %e = dist.matmul %z, %dw {dist.sharding = [#dist.sharding<@mesh, [{}, {}], partial = sum{"tp"}>], transpose_y} : (tensor<8x64xf32>, tensor<16x64xf32>) -> tensor<8x16xf32>
  %s = dist.add %dx, %e {dist.sharding = [#dist.sharding<@mesh, [{}, {}], partial = sum{"tp"}>]} : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %r = dist.all_reduce %s on @mesh axes = ["tp"] kind = sum {dist.sharding = [#dist.sharding<@mesh, [{}, {}]>]} : tensor<8x16xf32> -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// -----

// The annotation says dx is not partial, but the dx matmul would produce a
// partial: the split would change what dx means, so it is skipped.
dist.mesh @mesh = <["tp"=4]>
func.func @sharding_would_change(%x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}]>},
                                 %w: tensor<16x64xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
                                 %dout: tensor<8x64xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>}) -> tensor<8x16xf32> {
  // expected-remark @below {{not split: dx would be [{}, {}], partial = sum{"tp"} where dist.matmul_grad gives [{}, {}]}}
  %dx, %dw = dist.matmul_grad %x, %w, %dout {dist.sharding = [#dist.sharding<@mesh, [{}, {}]>, #dist.sharding<@mesh, [{}, {"tp"}]>]} : (tensor<8x16xf32>, tensor<16x64xf32>, tensor<8x64xf32>) -> (tensor<8x16xf32>, tensor<16x64xf32>)
  %r = dist.all_gather %dx on @mesh axes = ["tp"] dim = 1 {dist.sharding = [#dist.sharding<@mesh, [{}, {}]>]} : tensor<8x16xf32> -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// -----

// Some of the shardings around it are missing: splitting would drop them.
dist.mesh @mesh = <["tp"=4]>
func.func @noarg(%x: tensor<8x16xf32>,
                 %w: tensor<16x64xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
                 %dout: tensor<8x64xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>}) -> (tensor<8x16xf32>, tensor<16x64xf32>) {
  // expected-remark @below {{not split: operand #0 has no sharding on @mesh}}
  %dx, %dw = dist.matmul_grad %x, %w, %dout {dist.sharding = [#dist.sharding<@mesh, [{}, {}], partial = sum{"tp"}>, #dist.sharding<@mesh, [{}, {"tp"}]>]} : (tensor<8x16xf32>, tensor<16x64xf32>, tensor<8x64xf32>) -> (tensor<8x16xf32>, tensor<16x64xf32>)
  %r = dist.all_reduce %dx on @mesh axes = ["tp"] kind = sum {dist.sharding = [#dist.sharding<@mesh, [{}, {}]>]} : tensor<8x16xf32> -> tensor<8x16xf32>
  return %r, %dw : tensor<8x16xf32>, tensor<16x64xf32>
}

// -----

// dy reaches the collective through a region: still a dependence.
dist.mesh @mesh = <["tp"=4]>
func.func @nested(%x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {}]>},
                  %w: tensor<16x64xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
                  %dout: tensor<8x64xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
                  %z: tensor<8x64xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>}) -> tensor<8x16xf32> {
  // expected-remark @below {{not split: the dist.all_reduce_coalesced that reduces dx also depends on dy, so dy cannot overlap it}}
  %dx, %dw = dist.matmul_grad %x, %w, %dout {dist.sharding = [#dist.sharding<@mesh, [{}, {}], partial = sum{"tp"}>, #dist.sharding<@mesh, [{}, {"tp"}]>]} : (tensor<8x16xf32>, tensor<16x64xf32>, tensor<8x64xf32>) -> (tensor<8x16xf32>, tensor<16x64xf32>)
  %e = scf.execute_region -> tensor<8x16xf32> {
    %m = dist.matmul %z, %dw {dist.sharding = [#dist.sharding<@mesh, [{}, {}], partial = sum{"tp"}>], transpose_y} : (tensor<8x64xf32>, tensor<16x64xf32>) -> tensor<8x16xf32>
    scf.yield %m : tensor<8x16xf32>
  }
  %r:2 = dist.all_reduce_coalesced %dx, %e on @mesh axes = ["tp"] kind = sum {dist.sharding = [#dist.sharding<@mesh, [{}, {}]>, #dist.sharding<@mesh, [{}, {}]>]} : (tensor<8x16xf32>, tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
  return %r#0 : tensor<8x16xf32>
}
