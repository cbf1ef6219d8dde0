// dist-gen llama writes a Llama training step from global sizes: the
// forward pass with Megatron's shardings, differentiated by
// dist-append-backward, and with --optimizer each parameter's update.
// RUN: dist-gen llama --layers 1 --dp 2 --tp 2 --forward-only | FileCheck %s --check-prefix=FWD
// Propagation of the forward pass has no conflicts to report once
// dist-decompose has expanded the vocabulary-parallel cross-entropy.
// RUN: dist-gen llama --layers 2 --dp 2 --tp 2 --forward-only | dist-opt - --dist-decompose --dist-propagate-sharding -o /dev/null 2>&1 | FileCheck %s --allow-empty --check-prefix=QUIET
// With the sequence over sp, attention reads every key and value: the
// scores' and the context's k and v are gathered over sp, and nothing else.
// RUN: dist-gen llama --layers 1 --dp 2 --tp 2 --sp 2 --forward-only | dist-opt - --dist-decompose --dist-propagate-sharding -o /dev/null 2>&1 | FileCheck %s --check-prefix=SP
// Megatron's collectives, and no device ever holds the whole logits: the
// cross-entropy moves per-token values only (4 x 16 floats, 256 bytes over
// tp=2 in ring terms: 128 bytes per device).
// RUN: dist-gen llama --layers 1 --dp 2 --tp 2 --forward-only | dist-opt - --dist-decompose --dist-propagate-sharding --dist-resolve-partial --dist-comm-report -o /dev/null 2>&1 | FileCheck %s --check-prefix=COMM
// The step: the loss, then one gradient per parameter with its sharding.
// RUN: dist-gen llama --layers 1 --dp 2 --tp 2 | FileCheck %s --check-prefix=STEP
// RUN: dist-gen llama --layers 1 --dp 2 --tp 2 --optimizer adamw --zero 1 | FileCheck %s --check-prefix=ADAMW
// RUN: dist-gen llama --layers 1 --dp 2 --tp 2 --optimizer sgd | FileCheck %s --check-prefix=SGD
// --recompute keeps each residual block's input for the backward and
// recomputes the rest: the activation peak of 8 layers falls from 1.23 MB
// to 0.35 MB a device, the parameters and gradients unchanged.
// RUN: dist-gen llama --layers 8 --dp 2 --tp 2 --optimizer adamw | dist-opt - --dist-propagate-sharding=remarks=none --dist-resolve-partial --dist-memory-report -o /dev/null 2>&1 | FileCheck %s --check-prefix=STORED
// RUN: dist-gen llama --layers 8 --dp 2 --tp 2 --optimizer adamw --recompute | dist-opt - --dist-propagate-sharding=remarks=none --dist-resolve-partial --dist-memory-report -o /dev/null 2>&1 | FileCheck %s --check-prefix=RECOMPUTED
// RUN: not dist-gen llama --layers 1 --dp 1 --tp 1 --forward-only --recompute 2>&1 | FileCheck %s --check-prefix=FWD-RC
// RUN: not dist-gen gpt --layers 1 --dp 1 --tp 1 --recompute 2>&1 | FileCheck %s --check-prefix=GPT-RC
// --unsharded writes the global program alone, for dist-auto-parallel: no
// mesh, no sharding, the parameters and the data still marked. Its step
// (with the backward) has none either; a mesh option with it is refused.
// RUN: dist-gen llama --layers 1 --unsharded --forward-only | FileCheck %s --check-prefix=UNSHARDED
// RUN: dist-gen llama --layers 1 --unsharded --optimizer adamw | FileCheck %s --check-prefix=UNSHARDED-STEP
// RUN: not dist-gen llama --layers 1 --unsharded --tp 2 2>&1 | FileCheck %s --check-prefix=UNSHARDED-TP
// RUN: not dist-gen moe --layers 1 --unsharded --ep 2 2>&1 | FileCheck %s --check-prefix=UNSHARDED-EP
// UNSHARDED: // Llama forward pass and loss: 1 layers, in the global view without a mesh (dist-gen llama).
// UNSHARDED-NOT: dist.mesh
// UNSHARDED: %ids: tensor<4x16xi64> {dist.batch_dim = 0 : i64},
// UNSHARDED: %embed: tensor<256x64xf32> {dist.requires_grad},
// UNSHARDED-NOT: dist.sharding
// UNSHARDED-STEP-NOT: dist.sharding
// UNSHARDED-STEP: dist.adamw
// UNSHARDED-TP: error: the argument '--unsharded' cannot be used with '--tp <TP>'
// UNSHARDED-EP: error: the argument '--unsharded' cannot be used with '--ep <EP>'
// Sizes that cannot be generated are refused, naming the option.
// RUN: not dist-gen llama --layers 1 --dp 2 --tp 4 --vocab 3 2>&1 | FileCheck %s --check-prefix=VOCAB
// RUN: not dist-gen llama --layers 1 --dp 2 --tp 4 --kv-heads 2 2>&1 | FileCheck %s --check-prefix=KV
// RUN: not dist-gen llama --layers 1 --dp 1 --tp 1 --heads 6 --kv-heads 4 2>&1 | FileCheck %s --check-prefix=GROUP
// RUN: not dist-gen llama --layers 1 --dp 1 --tp 1 --head-dim 7 2>&1 | FileCheck %s --check-prefix=ODD
// RUN: not dist-gen gpt --layers 1 --dp 1 --tp 1 --ffn 64 2>&1 | FileCheck %s --check-prefix=GPT-FFN
// RUN: not dist-gen llama --layers 1 --dp 1 --tp 1 --heads 4611686018427387904 --kv-heads 1 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: not dist-gen gpt --layers 1 --dp 1 --tp 1 --heads 4611686018427387904 2>&1 | FileCheck %s --check-prefix=HUGE-GPT
// RUN: not dist-gen llama --layers 1 --dp 2 --tp 2 --zero 1 2>&1 | FileCheck %s --check-prefix=NO-OPT

// FWD:      // Llama forward pass and loss: 1 layers on a dp=2 x tp=2 mesh (dist-gen llama).
// FWD-NEXT: dist.mesh @mesh = <["dp"=2, "tp"=2]>
// FWD-LABEL: func.func @llama_step(
// FWD-NEXT:    %ids: tensor<4x16xi64> {dist.batch_dim = 0 : i64, dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>},
// FWD-NEXT:    %labels: tensor<4x16xi64> {dist.batch_dim = 0 : i64, dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>},
// FWD-NEXT:    %cos: tensor<16x8xf32>,
// FWD-NEXT:    %sin: tensor<16x8xf32>,
// FWD-NEXT:    %embed: tensor<256x64xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>},
// FWD-NEXT:    %attn_norm_0: tensor<64xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{}]>},
// FWD-NEXT:    %wq_0: tensor<64x64xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
// 4 key/value heads of 8: wk and wv are 64 x 32.
// FWD-NEXT:    %wk_0: tensor<64x32xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
// FWD-NEXT:    %wv_0: tensor<64x32xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
// FWD-NEXT:    %wo_0: tensor<64x64xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>},
// FWD-NEXT:    %mlp_norm_0: tensor<64xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{}]>},
// FWD-NEXT:    %w1_0: tensor<64x128xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
// FWD-NEXT:    %w3_0: tensor<64x128xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
// FWD-NEXT:    %w2_0: tensor<128x64xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>},
// FWD-NEXT:    %final_norm: tensor<64xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{}]>},
// FWD-NEXT:    %lm_head: tensor<64x256xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>})
// FWD-NEXT:    -> (tensor<f32>) {
// FWD-NEXT:  %[[X:.*]] = dist.embedding %ids, %embed
// FWD-NEXT:  %[[H:.*]], %{{.*}} = dist.rms_norm %[[X]], %attn_norm_0 {begin_norm_axis = 2 : i64, epsilon = 1.000000e-05 : f32}
// Grouped-query heads: [batch, kv head, group, seq, head dim], k and v with a
// group of 1 that broadcasts.
// FWD:       dist.transpose {{.*}} -> tensor<4x4x2x16x8xf32>
// FWD:       dist.transpose {{.*}} -> tensor<4x4x1x16x8xf32>
// Rotary embeddings by halves.
// FWD:       %[[LO:.*]] = dist.slice %[[Q:.*]] {offsets = array<i64: 0, 0, 0, 0, 0>, sizes = array<i64: 4, 4, 2, 16, 4>}
// FWD-NEXT:  %[[HI:.*]] = dist.slice %[[Q]] {offsets = array<i64: 0, 0, 0, 0, 4>, sizes = array<i64: 4, 4, 2, 16, 4>}
// FWD-NEXT:  %[[NEG:.*]] = dist.neg %[[HI]]
// FWD-NEXT:  %[[ROT:.*]] = dist.concat %[[NEG]], %[[LO]] {dim = 4 : i64}
// FWD-NEXT:  %[[QC:.*]] = dist.mul %[[Q]], %cos : (tensor<4x4x2x16x8xf32>, tensor<16x8xf32>) -> tensor<4x4x2x16x8xf32>
// FWD-NEXT:  %[[QS:.*]] = dist.mul %[[ROT]], %sin
// FWD-NEXT:  dist.add %[[QC]], %[[QS]]
// FWD:       dist.matmul {{.*}} {transpose_y} : (tensor<4x4x2x16x8xf32>, tensor<4x4x1x16x8xf32>) -> tensor<4x4x2x16x16xf32>
// FWD-NEXT:  dist.scale {{.*}} {factor = 0.35355339059327373 : f64}
// FWD-NEXT:  dist.causal_mask
// FWD-NEXT:  dist.softmax {{.*}} {axis = 4 : i64}
// SwiGLU.
// FWD:       %[[GATE:.*]] = dist.matmul %{{.*}}, %w1_0
// FWD-NEXT:  %[[UP:.*]] = dist.matmul %{{.*}}, %w3_0
// FWD-NEXT:  %[[ACT:.*]] = dist.silu %[[GATE]]
// FWD-NEXT:  %[[GLU:.*]] = dist.mul %[[ACT]], %[[UP]]
// FWD-NEXT:  dist.matmul %[[GLU]], %w2_0
// FWD:       %[[LOGITS:.*]] = dist.matmul %{{.*}}, %lm_head : (tensor<4x16x64xf32>, tensor<64x256xf32>) -> tensor<4x16x256xf32>
// FWD-NEXT:  %[[LOSS:.*]] = dist.cross_entropy %[[LOGITS]], %labels : (tensor<4x16x256xf32>, tensor<4x16xi64>) -> tensor<f32>
// FWD-NEXT:  return %[[LOSS]] : tensor<f32>

// QUIET-NOT: remark
// SP:      remark: factor 'n' cannot be split over {"sp"}: {"sp"} is taken by factor 'm'; operand #1 is resharded
// SP-NEXT: remark: factor 'k' cannot be split over {"sp"}: {"sp"} is taken by factor 'm'; operand #1 is resharded
// SP-NOT:  remark

// COMM: all_reduce  sum     "tp"  {{.*}} f32    8192  %0     dist.rms_norm
// COMM: all_reduce  max     "tp"  {{.*}} f32     128
// COMM: all_reduce  sum     "tp"  {{.*}} f32     128
// COMM: all_reduce  sum     "tp"  {{.*}} f32     128
// COMM: all_reduce  sum     "dp"  {{.*}} f32       4
// COMM: total: 7 collectives

// STEP:      // Llama training step: 1 layers on a dp=2 x tp=2 mesh (dist-gen llama).
// STEP-LABEL: func.func @llama_step
// STEP-SAME:   (%ids: tensor<4x16xi64> {{[^%]*}}, %labels: {{[^%]*}}, %cos: tensor<16x8xf32>, %sin: tensor<16x8xf32>, %embed: tensor<256x64xf32>
// STEP-SAME:   -> (tensor<f32>, tensor<256x64xf32> {dist.gradient_of = 4 : i64, dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>}, tensor<64xf32> {dist.gradient_of = 5 : i64, dist.sharding = #dist.sharding<@mesh, [{}]>}, tensor<64x64xf32> {dist.gradient_of = 6 : i64, dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>}, tensor<64x32xf32> {dist.gradient_of = 7 : i64, dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>}, tensor<64x32xf32> {dist.gradient_of = 8 : i64, dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>}, tensor<64x64xf32> {dist.gradient_of = 9 : i64, dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>}, tensor<64xf32> {dist.gradient_of = 10 : i64, dist.sharding = #dist.sharding<@mesh, [{}]>}, tensor<64x128xf32> {dist.gradient_of = 11 : i64, dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>}, tensor<64x128xf32> {dist.gradient_of = 12 : i64, dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>}, tensor<128x64xf32> {dist.gradient_of = 13 : i64, dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>}, tensor<64xf32> {dist.gradient_of = 14 : i64, dist.sharding = #dist.sharding<@mesh, [{}]>}, tensor<64x256xf32> {dist.gradient_of = 15 : i64, dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>})
// STEP:        dist.cross_entropy_grad
// STEP:        dist.embedding_grad
// STEP-NOT:    func.func

// Stage 1: the moments of wq (64 x 64, columns over tp) split over dp too.
// ADAMW-LABEL: func.func @llama_step
// ADAMW-SAME:    %m_wq_0: tensor<64x64xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {"tp"}]>}
// ADAMW-NOT:   func.call
// ADAMW-COUNT-12: dist.adamw
// ADAMW-NOT:   func.func
// SGD-COUNT-12: dist.sgd

// STORED:     parameters           659712
// STORED:     gradients            659712
// STORED:     activations (peak)  1232524
// RECOMPUTED: parameters           659712
// RECOMPUTED: gradients            659712
// RECOMPUTED: activations (peak)   345740
// FWD-RC: error: the argument '--forward-only' cannot be used with '--recompute'
// GPT-RC: error: unexpected argument '--recompute' found

// VOCAB: dist-gen: --vocab 3 has fewer entries than tp=4: a split dim needs at least one per shard
// KV: dist-gen: --kv-heads 2 has fewer entries than tp=4: a split dim needs at least one per shard
// GROUP: dist-gen: --heads 6 is not a multiple of --kv-heads 4: each key/value head serves a whole group
// ODD: dist-gen: --head-dim 7 is odd; rotary embeddings rotate its two halves
// GPT-FFN: error: unexpected argument '--ffn' found
// HUGE: dist-gen: the sizes are too large: the activations [batch, seq, hidden] would have more than 2^63 elements
// HUGE-GPT: dist-gen: the sizes are too large: the MLP's activations [batch, seq, 4 hidden] would have more than 2^63 elements
// NO-OPT: error: the following required arguments were not provided:
