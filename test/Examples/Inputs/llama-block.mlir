// A Llama-3-style block and its loss, written with the ops as a model reads:
// token embedding, RMSNorm, grouped-query causal attention (4 query heads
// sharing 2 key/value heads through a size-1 broadcast dim) with rotary
// embeddings (rotate-half by slice, neg and concat; cos and sin inputs),
// SwiGLU, residuals, a final RMSNorm, a vocabulary-split LM head and the
// cross-entropy. Megatron's layout: q/k/v, gate and up split by columns
// (heads) over tp, o and down by rows; the batch over dp.
// Shapes: batch 2, sequence 8, hidden 32, head dim 8, vocabulary 64.
dist.mesh @mesh = <["dp"=2, "tp"=2]>
func.func @llama(
    %ids: tensor<2x8xi64> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>},
    %labels: tensor<2x8xi64> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>},
    %cos: tensor<8x8xf32>, %sin: tensor<8x8xf32>,
    %embed: tensor<64x32xf32> {dist.requires_grad},
    %attn_norm: tensor<32xf32> {dist.requires_grad},
    %wq: tensor<32x32xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
    %wk: tensor<32x16xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
    %wv: tensor<32x16xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
    %wo: tensor<32x32xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>},
    %mlp_norm: tensor<32xf32> {dist.requires_grad},
    %wgate: tensor<32x64xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
    %wup: tensor<32x64xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
    %wdown: tensor<64x32xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>},
    %final_norm: tensor<32xf32> {dist.requires_grad},
    %lm_head: tensor<32x64xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>})
    -> tensor<f32> {
  %x = dist.embedding %ids, %embed : (tensor<2x8xi64>, tensor<64x32xf32>) -> tensor<2x8x32xf32>

  // Attention.
  %h, %r1 = dist.rms_norm %x, %attn_norm {begin_norm_axis = 2 : i64, epsilon = 1.000000e-05 : f32} : (tensor<2x8x32xf32>, tensor<32xf32>) -> (tensor<2x8x32xf32>, tensor<2x8xf32>)
  %q0 = dist.matmul %h, %wq : (tensor<2x8x32xf32>, tensor<32x32xf32>) -> tensor<2x8x32xf32>
  %k0 = dist.matmul %h, %wk : (tensor<2x8x32xf32>, tensor<32x16xf32>) -> tensor<2x8x16xf32>
  %v0 = dist.matmul %h, %wv : (tensor<2x8x32xf32>, tensor<32x16xf32>) -> tensor<2x8x16xf32>
  // [batch, seq, kv head, group, head dim] -> [batch, kv head, group, seq, head dim]
  %q1 = dist.reshape %q0 : (tensor<2x8x32xf32>) -> tensor<2x8x2x2x8xf32>
  %q = dist.transpose %q1 {perm = array<i64: 0, 2, 3, 1, 4>} : (tensor<2x8x2x2x8xf32>) -> tensor<2x2x2x8x8xf32>
  %k1 = dist.reshape %k0 : (tensor<2x8x16xf32>) -> tensor<2x8x2x1x8xf32>
  %k = dist.transpose %k1 {perm = array<i64: 0, 2, 3, 1, 4>} : (tensor<2x8x2x1x8xf32>) -> tensor<2x2x1x8x8xf32>
  %v1 = dist.reshape %v0 : (tensor<2x8x16xf32>) -> tensor<2x8x2x1x8xf32>
  %v = dist.transpose %v1 {perm = array<i64: 0, 2, 3, 1, 4>} : (tensor<2x8x2x1x8xf32>) -> tensor<2x2x1x8x8xf32>

  // Rotary embeddings: x cos + rotate_half(x) sin, rotate_half = [-x2, x1].
  %q_lo = dist.slice %q {offsets = array<i64: 0, 0, 0, 0, 0>, sizes = array<i64: 2, 2, 2, 8, 4>} : (tensor<2x2x2x8x8xf32>) -> tensor<2x2x2x8x4xf32>
  %q_hi = dist.slice %q {offsets = array<i64: 0, 0, 0, 0, 4>, sizes = array<i64: 2, 2, 2, 8, 4>} : (tensor<2x2x2x8x8xf32>) -> tensor<2x2x2x8x4xf32>
  %q_neg = dist.neg %q_hi : (tensor<2x2x2x8x4xf32>) -> tensor<2x2x2x8x4xf32>
  %q_rot = dist.concat %q_neg, %q_lo {dim = 4 : i64} : (tensor<2x2x2x8x4xf32>, tensor<2x2x2x8x4xf32>) -> tensor<2x2x2x8x8xf32>
  %q_cos = dist.mul %q, %cos : (tensor<2x2x2x8x8xf32>, tensor<8x8xf32>) -> tensor<2x2x2x8x8xf32>
  %q_sin = dist.mul %q_rot, %sin : (tensor<2x2x2x8x8xf32>, tensor<8x8xf32>) -> tensor<2x2x2x8x8xf32>
  %q_r = dist.add %q_cos, %q_sin : (tensor<2x2x2x8x8xf32>, tensor<2x2x2x8x8xf32>) -> tensor<2x2x2x8x8xf32>
  %k_lo = dist.slice %k {offsets = array<i64: 0, 0, 0, 0, 0>, sizes = array<i64: 2, 2, 1, 8, 4>} : (tensor<2x2x1x8x8xf32>) -> tensor<2x2x1x8x4xf32>
  %k_hi = dist.slice %k {offsets = array<i64: 0, 0, 0, 0, 4>, sizes = array<i64: 2, 2, 1, 8, 4>} : (tensor<2x2x1x8x8xf32>) -> tensor<2x2x1x8x4xf32>
  %k_neg = dist.neg %k_hi : (tensor<2x2x1x8x4xf32>) -> tensor<2x2x1x8x4xf32>
  %k_rot = dist.concat %k_neg, %k_lo {dim = 4 : i64} : (tensor<2x2x1x8x4xf32>, tensor<2x2x1x8x4xf32>) -> tensor<2x2x1x8x8xf32>
  %k_cos = dist.mul %k, %cos : (tensor<2x2x1x8x8xf32>, tensor<8x8xf32>) -> tensor<2x2x1x8x8xf32>
  %k_sin = dist.mul %k_rot, %sin : (tensor<2x2x1x8x8xf32>, tensor<8x8xf32>) -> tensor<2x2x1x8x8xf32>
  %k_r = dist.add %k_cos, %k_sin : (tensor<2x2x1x8x8xf32>, tensor<2x2x1x8x8xf32>) -> tensor<2x2x1x8x8xf32>

  // Grouped-query scores: the group dim of k and v is 1 and broadcasts.
  %s0 = dist.matmul %q_r, %k_r {transpose_y} : (tensor<2x2x2x8x8xf32>, tensor<2x2x1x8x8xf32>) -> tensor<2x2x2x8x8xf32>
  %s1 = dist.scale %s0 {factor = 0.35355339059327373 : f64} : (tensor<2x2x2x8x8xf32>) -> tensor<2x2x2x8x8xf32>
  %s = dist.causal_mask %s1 : (tensor<2x2x2x8x8xf32>) -> tensor<2x2x2x8x8xf32>
  %p = dist.softmax %s {axis = 4 : i64} : (tensor<2x2x2x8x8xf32>) -> tensor<2x2x2x8x8xf32>
  %o0 = dist.matmul %p, %v : (tensor<2x2x2x8x8xf32>, tensor<2x2x1x8x8xf32>) -> tensor<2x2x2x8x8xf32>
  %o1 = dist.transpose %o0 {perm = array<i64: 0, 3, 1, 2, 4>} : (tensor<2x2x2x8x8xf32>) -> tensor<2x8x2x2x8xf32>
  %o2 = dist.reshape %o1 : (tensor<2x8x2x2x8xf32>) -> tensor<2x8x32xf32>
  %o = dist.matmul %o2, %wo : (tensor<2x8x32xf32>, tensor<32x32xf32>) -> tensor<2x8x32xf32>
  %x1 = dist.add %x, %o : (tensor<2x8x32xf32>, tensor<2x8x32xf32>) -> tensor<2x8x32xf32>

  // SwiGLU.
  %m, %r2 = dist.rms_norm %x1, %mlp_norm {begin_norm_axis = 2 : i64, epsilon = 1.000000e-05 : f32} : (tensor<2x8x32xf32>, tensor<32xf32>) -> (tensor<2x8x32xf32>, tensor<2x8xf32>)
  %gate = dist.matmul %m, %wgate : (tensor<2x8x32xf32>, tensor<32x64xf32>) -> tensor<2x8x64xf32>
  %up = dist.matmul %m, %wup : (tensor<2x8x32xf32>, tensor<32x64xf32>) -> tensor<2x8x64xf32>
  %act = dist.silu %gate : (tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
  %glu = dist.mul %act, %up : (tensor<2x8x64xf32>, tensor<2x8x64xf32>) -> tensor<2x8x64xf32>
  %down = dist.matmul %glu, %wdown : (tensor<2x8x64xf32>, tensor<64x32xf32>) -> tensor<2x8x32xf32>
  %x2 = dist.add %x1, %down : (tensor<2x8x32xf32>, tensor<2x8x32xf32>) -> tensor<2x8x32xf32>

  // The LM head, its vocabulary split over tp, and the loss.
  %f, %r3 = dist.rms_norm %x2, %final_norm {begin_norm_axis = 2 : i64, epsilon = 1.000000e-05 : f32} : (tensor<2x8x32xf32>, tensor<32xf32>) -> (tensor<2x8x32xf32>, tensor<2x8xf32>)
  %logits = dist.matmul %f, %lm_head : (tensor<2x8x32xf32>, tensor<32x64xf32>) -> tensor<2x8x64xf32>
  %loss = dist.cross_entropy %logits, %labels : (tensor<2x8x64xf32>, tensor<2x8xi64>) -> tensor<f32>
  return %loss : tensor<f32>
}
