// examples/jax/block.py written by hand in the dist dialect (the same model:
// tied vocabulary-parallel embedding, pre-norm attention with a causal mask,
// a tanh-GELU MLP, final layer norm, mean cross-entropy; Megatron shardings
// on a 2 x 2 mesh; argument order and shardings as the export's). The
// StableHLO import of the JAX export must show the same collectives
// (test/Examples/jax-import.mlir).
dist.mesh @mesh = <["dp"=2, "tp"=2]>
func.func @block(%tokens: tensor<2x8xi32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>},
    %targets: tensor<2x8xi32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>},
    %embed: tensor<32x16xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>},
    %ln1_s: tensor<16xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{}]>},
    %ln1_b: tensor<16xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{}]>},
    %wq: tensor<16x16xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
    %wk: tensor<16x16xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
    %wv: tensor<16x16xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
    %wo: tensor<16x16xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>},
    %ln2_s: tensor<16xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{}]>},
    %ln2_b: tensor<16xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{}]>},
    %w1: tensor<16x64xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
    %w2: tensor<64x16xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>},
    %lnf_s: tensor<16xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{}]>},
    %lnf_b: tensor<16xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{}]>})
    -> (tensor<f32> {dist.sharding = #dist.sharding<@mesh, []>}) {
  %x0 = dist.embedding %tokens, %embed : (tensor<2x8xi32>, tensor<32x16xf32>) -> tensor<2x8x16xf32>
  %h1, %m1, %r1 = dist.layer_norm %x0, %ln1_s, %ln1_b {begin_norm_axis = 2 : i64, epsilon = 1.000000e-05 : f32} : (tensor<2x8x16xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<2x8x16xf32>, tensor<2x8xf32>, tensor<2x8xf32>)
  %q = dist.matmul %h1, %wq : (tensor<2x8x16xf32>, tensor<16x16xf32>) -> tensor<2x8x16xf32>
  %q4 = dist.reshape %q : (tensor<2x8x16xf32>) -> tensor<2x8x2x8xf32>
  %qh = dist.transpose %q4 {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x8x2x8xf32>) -> tensor<2x2x8x8xf32>
  %k = dist.matmul %h1, %wk : (tensor<2x8x16xf32>, tensor<16x16xf32>) -> tensor<2x8x16xf32>
  %k4 = dist.reshape %k : (tensor<2x8x16xf32>) -> tensor<2x8x2x8xf32>
  %kh = dist.transpose %k4 {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x8x2x8xf32>) -> tensor<2x2x8x8xf32>
  %v = dist.matmul %h1, %wv : (tensor<2x8x16xf32>, tensor<16x16xf32>) -> tensor<2x8x16xf32>
  %v4 = dist.reshape %v : (tensor<2x8x16xf32>) -> tensor<2x8x2x8xf32>
  %vh = dist.transpose %v4 {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x8x2x8xf32>) -> tensor<2x2x8x8xf32>
  %s = dist.matmul %qh, %kh {transpose_y} : (tensor<2x2x8x8xf32>, tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %ss = dist.scale %s {factor = 0.35355339059327379 : f64} : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %sm = dist.causal_mask %ss : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %p = dist.softmax %sm {axis = -1 : i64} : (tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %o = dist.matmul %p, %vh : (tensor<2x2x8x8xf32>, tensor<2x2x8x8xf32>) -> tensor<2x2x8x8xf32>
  %ot = dist.transpose %o {perm = array<i64: 0, 2, 1, 3>} : (tensor<2x2x8x8xf32>) -> tensor<2x8x2x8xf32>
  %o3 = dist.reshape %ot : (tensor<2x8x2x8xf32>) -> tensor<2x8x16xf32>
  %a = dist.matmul %o3, %wo : (tensor<2x8x16xf32>, tensor<16x16xf32>) -> tensor<2x8x16xf32>
  %x1 = dist.add %x0, %a : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %h2, %m2, %r2 = dist.layer_norm %x1, %ln2_s, %ln2_b {begin_norm_axis = 2 : i64, epsilon = 1.000000e-05 : f32} : (tensor<2x8x16xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<2x8x16xf32>, tensor<2x8xf32>, tensor<2x8xf32>)
  %u = dist.matmul %h2, %w1 : (tensor<2x8x16xf32>, tensor<16x64xf32>) -> tensor<2x8x64xf32>
  %g = dist.gelu %u {approximate = "tanh"} : (tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
  %d = dist.matmul %g, %w2 : (tensor<2x8x64xf32>, tensor<64x16xf32>) -> tensor<2x8x16xf32>
  %x2 = dist.add %x1, %d : (tensor<2x8x16xf32>, tensor<2x8x16xf32>) -> tensor<2x8x16xf32>
  %hf, %mf, %rf = dist.layer_norm %x2, %lnf_s, %lnf_b {begin_norm_axis = 2 : i64, epsilon = 1.000000e-05 : f32} : (tensor<2x8x16xf32>, tensor<16xf32>, tensor<16xf32>) -> (tensor<2x8x16xf32>, tensor<2x8xf32>, tensor<2x8xf32>)
  %logits = dist.matmul %hf, %embed {transpose_y} : (tensor<2x8x16xf32>, tensor<32x16xf32>) -> tensor<2x8x32xf32>
  %loss = dist.cross_entropy %logits, %targets : (tensor<2x8x32xf32>, tensor<2x8xi32>) -> tensor<f32>
  return %loss : tensor<f32>
}
