// dist-gen writes a GPT training step that parses, verifies and propagates.
// RUN: dist-gen gpt --layers 2 --dp 2 --tp 4 | dist-opt - --dist-propagate-sharding=remarks=none | FileCheck %s
// RUN: dist-gen gpt --layers 1 --dp 2 --tp 2 --sp 2 | dist-opt - --dist-propagate-sharding=remarks=none | FileCheck %s --check-prefix=SP
// Propagation of the generated program has no conflicts to report.
// RUN: dist-gen gpt --layers 2 --dp 2 --tp 4 | dist-opt - --dist-propagate-sharding -o /dev/null 2>&1 | FileCheck %s --allow-empty --check-prefix=QUIET
// Attention scores are scaled by 1/sqrt(head_dim), forward and backward.
// RUN: dist-gen gpt --layers 1 --dp 1 --tp 1 --heads 2 --head-dim 64 | dist-opt - | FileCheck %s --check-prefix=SCALE64
// RUN: dist-gen gpt --layers 1 --dp 1 --tp 1 --heads 2 --head-dim 32 | dist-opt - | FileCheck %s --check-prefix=SCALE32
// --forward-only stops at the loss and asks for every parameter's gradient;
// dist-append-backward then appends them in the hand-written step's order.
// RUN: dist-gen gpt --layers 1 --dp 2 --tp 2 --forward-only | FileCheck %s --check-prefix=FWD
// RUN: dist-gen gpt --layers 1 --dp 2 --tp 2 --forward-only | dist-opt - --dist-append-backward | FileCheck %s --check-prefix=AD
// --optimizer ends the step in each parameter's update; --zero picks the
// stage by layouts: the states split over dp from stage 1, the parameters
// at stage 3.
// RUN: dist-gen gpt --layers 1 --dp 2 --tp 2 --optimizer adamw --zero 1 | FileCheck %s --check-prefix=ZERO1
// RUN: dist-gen gpt --layers 1 --dp 2 --tp 2 --optimizer adamw --zero 3 | FileCheck %s --check-prefix=ZERO3
// RUN: dist-gen gpt --layers 1 --dp 2 --tp 2 --optimizer sgd | FileCheck %s --check-prefix=SGD
// RUN: not dist-gen gpt --layers 1 --dp 2 --tp 2 --zero 1 2>&1 | FileCheck %s --check-prefix=NO-OPT
// RUN: not dist-gen gpt --layers 1 --dp 2 --tp 2 --optimizer adam 2>&1 | FileCheck %s --check-prefix=BAD-OPT
// RUN: not dist-gen gpt --layers 1 --dp 2 --tp 2 --optimizer sgd --zero 4 2>&1 | FileCheck %s --check-prefix=BAD-ZERO
// RUN: not dist-gen gpt --layers 1 --dp 2 --tp 2 --optimizer sgd --forward-only 2>&1 | FileCheck %s --check-prefix=FWD-OPT
// A stage that cannot split a tensor over dp is refused, not written as
// stage 0 (dp=3: hidden 64 and vocabulary 128 are not multiples of 3).
// RUN: not dist-gen gpt --layers 1 --dp 3 --tp 1 --optimizer adamw --zero 1 2>&1 | FileCheck %s --check-prefix=UNSPLIT
// UNSPLIT: dist-gen: ZeRO stage 1 cannot split %b1_0, %ln1_b_0, %ln1_g_0, %ln2_b_0, %ln2_g_0, %lnf_b, %lnf_g, %table, %w1_0, %w2_0, %wk_0, %wo_0, %wq_0, %wv_0 over dp=3: no dim divides evenly
// RUN: not dist-gen gpt --layers 0 --dp 2 --tp 4 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not dist-gen gpt --dp 2 --tp 4 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not dist-gen bert --layers 1 --dp 2 --tp 4 2>&1 | FileCheck %s --check-prefix=KIND

// CHECK: dist.mesh @mesh = <["dp"=2, "tp"=4]>
// CHECK-LABEL: func.func @gpt_step
// The vocab-parallel embedding is partial over tp.
// CHECK: dist.embedding {{.*}}[#dist.sharding<@mesh, [{"dp"}, {}, {}], partial = sum{"tp"}>]
// Column-parallel q projection, heads split over tp.
// CHECK: dist.matmul {{.*}}[#dist.sharding<@mesh, [{"dp"}, {}, {"tp"}]>]
// CHECK: dist.transpose {{.*}}[#dist.sharding<@mesh, [{"dp"}, {"tp"}, {}, {}]>]
// CHECK: dist.softmax {{.*}}[#dist.sharding<@mesh, [{"dp"}, {"tp"}, {}, {}]>]
// Row-parallel output projection: partial over tp.
// CHECK: dist.matmul {{.*}}[#dist.sharding<@mesh, [{"dp"}, {}, {}], partial = sum{"tp"}>]
// MLP weight gradients: split like the weight, partial over dp.
// CHECK: dist.matmul_grad {{.*}}[#dist.sharding<@mesh, [{"dp"}, {}, {"tp"}]>, #dist.sharding<@mesh, [{"tp"}, {}], partial = sum{"dp"}>]
// CHECK: dist.add_grad {{.*}}#dist.sharding<@mesh, [{"tp"}], partial = sum{"dp"}>]
// CHECK: dist.matmul_grad {{.*}}[#dist.sharding<@mesh, [{"dp"}, {}, {}], partial = sum{"tp"}>, #dist.sharding<@mesh, [{}, {"tp"}], partial = sum{"dp"}>]
// CHECK: dist.layer_norm_grad {{.*}}#dist.sharding<@mesh, [{}], partial = sum{"dp"}>, #dist.sharding<@mesh, [{}], partial = sum{"dp"}>]
// The embedding gradient: vocab-split, partial over dp.
// CHECK: dist.embedding_grad {{.*}}[#dist.sharding<@mesh, [{"tp"}, {}], partial = sum{"dp"}>]

// SP: dist.mesh @mesh = <["dp"=2, "sp"=2, "tp"=2]>
// SP: dist.layer_norm {{.*}}[#dist.sharding<@mesh, [{"dp"}, {"sp"}, {}]>
// SP: dist.layer_norm_grad {{.*}}#dist.sharding<@mesh, [{}], partial = sum{"dp", "sp"}>, #dist.sharding<@mesh, [{}], partial = sum{"dp", "sp"}>]

// QUIET-NOT: remark
// BAD: error: invalid value '0' for '--layers <LAYERS>': a positive integer
// MISSING: error: the following required arguments were not provided:
// MISSING-NEXT: --layers <LAYERS>
// KIND: error: unrecognized subcommand 'bert'

// SCALE64-COUNT-2: dist.scale {{.*}} {factor = 1.250000e-01 : f64}
// SCALE64-NOT: dist.scale
// SCALE32-COUNT-2: dist.scale {{.*}} {factor = 0.17677669529663687 : f64}
// SCALE32-NOT: dist.scale

// FWD: // GPT forward pass and loss: 1 layers on a dp=2 x tp=2 mesh (dist-gen gpt).
// FWD-LABEL: func.func @gpt_step(
// FWD-NEXT: %ids: tensor<4x16xi64> {dist.batch_dim = 0 : i64, dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>},
// FWD-NEXT: %targets: tensor<4x16x256xf32> {dist.batch_dim = 0 : i64, dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}, {"tp"}]>},
// FWD-NEXT: %table: tensor<256x128xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>},
// FWD-COUNT-13: {dist.requires_grad, dist.sharding
// FWD-NEXT: -> (tensor<f32>) {
// FWD-NOT: _grad
// FWD: %[[LOSS:.*]] = dist.reduce_mean
// FWD-NEXT: return %[[LOSS]] : tensor<f32>

// AD-LABEL: func.func @gpt_step(
// AD-SAME: -> (tensor<f32>, tensor<256x128xf32> {dist.gradient_of = 2 : i64, dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>}, tensor<128xf32> {dist.gradient_of = 3 : i64, dist.sharding = #dist.sharding<@mesh, [{}]>}, tensor<128xf32> {dist.gradient_of = 4 : i64, dist.sharding = #dist.sharding<@mesh, [{}]>}, tensor<128xf32> {dist.gradient_of = 5 : i64, dist.sharding = #dist.sharding<@mesh, [{}]>}, tensor<128xf32> {dist.gradient_of = 6 : i64, dist.sharding = #dist.sharding<@mesh, [{}]>}, tensor<128x128xf32> {dist.gradient_of = 7 : i64, dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>}, tensor<128x128xf32> {dist.gradient_of = 8 : i64, dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>}, tensor<128x128xf32> {dist.gradient_of = 9 : i64, dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>}, tensor<128x128xf32> {dist.gradient_of = 10 : i64, dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>}, tensor<128xf32> {dist.gradient_of = 11 : i64, dist.sharding = #dist.sharding<@mesh, [{}]>}, tensor<128xf32> {dist.gradient_of = 12 : i64, dist.sharding = #dist.sharding<@mesh, [{}]>}, tensor<128x512xf32> {dist.gradient_of = 13 : i64, dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>}, tensor<512xf32> {dist.gradient_of = 14 : i64, dist.sharding = #dist.sharding<@mesh, [{"tp"}]>}, tensor<512x128xf32> {dist.gradient_of = 15 : i64, dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>})
// AD: dist.embedding_grad

// ZERO1: %wq_0: tensor<128x128xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
// ZERO1: %step: tensor<f32> {dist.sharding = #dist.sharding<@mesh, []>},
// ZERO1-NEXT: %m_table: tensor<256x128xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp", "dp"}, {}]>},
// ZERO1-NEXT: %v_table: tensor<256x128xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp", "dp"}, {}]>},
// ZERO1: %m_wq_0: tensor<128x128xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {"tp"}]>},
// ZERO1: -> (tensor<f32>,
// ZERO1-NEXT: tensor<256x128xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>},
// ZERO1-NEXT: tensor<256x128xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp", "dp"}, {}]>},
// ZERO1-NEXT: tensor<256x128xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp", "dp"}, {}]>},
// ZERO1: %{{.*}}, %{{.*}}, %{{.*}} = dist.adamw %table, %{{.*}}, %m_table, %v_table, %step {lr = 1.000000e-03 : f64, beta1 = 9.000000e-01 : f64, beta2 = 9.990000e-01 : f64, epsilon = 1.000000e-08 : f64, weight_decay = 1.000000e-02 : f64}

// ZERO3: %wq_0: tensor<128x128xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {"tp"}]>},
// ZERO3: -> (tensor<f32>,
// ZERO3-NEXT: tensor<256x128xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp", "dp"}, {}]>},

// SGD: %buf_table: tensor<256x128xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>},
// SGD: dist.sgd %table, %{{.*}}, %buf_table {lr = 1.000000e-02 : f64, momentum = 9.000000e-01 : f64}

// NO-OPT: error: the following required arguments were not provided:
// NO-OPT-NEXT: --optimizer <OPTIMIZER>
// BAD-OPT: error: invalid value 'adam' for '--optimizer <OPTIMIZER>'
// BAD-OPT-NEXT: [possible values: adamw, sgd]
// BAD-ZERO: error: invalid value '4' for '--zero <ZERO>': 4 is not in 0..=3
// FWD-OPT: error: the argument '--optimizer <OPTIMIZER>' cannot be used with '--forward-only'
