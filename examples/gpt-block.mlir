// A GPT block training step (dist-gen gpt --layers 1 --dp 2 --tp 2): token
// embedding (vocabulary-parallel), one transformer layer, loss and every
// gradient, with Megatron annotations on a 2 x 2 mesh. scripts/demo.sh runs it
// on 4 processes against the unpartitioned run.
// GPT training step: 1 layers on a dp=2 x tp=2 mesh (dist-gen gpt).
dist.mesh @mesh = <["dp"=2, "tp"=2]>

func.func @gpt_step(
    %ids: tensor<4x16xi64> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>},
    %targets: tensor<4x16x256xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}, {"tp"}]>},
    %dloss: tensor<f32> {dist.sharding = #dist.sharding<@mesh, []>},
    %table: tensor<256x128xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>},
    %lnf_g: tensor<128xf32> {dist.sharding = #dist.sharding<@mesh, [{}]>},
    %lnf_b: tensor<128xf32> {dist.sharding = #dist.sharding<@mesh, [{}]>},
    %ln1_g_0: tensor<128xf32> {dist.sharding = #dist.sharding<@mesh, [{}]>},
    %ln1_b_0: tensor<128xf32> {dist.sharding = #dist.sharding<@mesh, [{}]>},
    %wq_0: tensor<128x128xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
    %wk_0: tensor<128x128xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
    %wv_0: tensor<128x128xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
    %wo_0: tensor<128x128xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>},
    %ln2_g_0: tensor<128xf32> {dist.sharding = #dist.sharding<@mesh, [{}]>},
    %ln2_b_0: tensor<128xf32> {dist.sharding = #dist.sharding<@mesh, [{}]>},
    %w1_0: tensor<128x512xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
    %b1_0: tensor<512xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp"}]>},
    %w2_0: tensor<512x128xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>})
    -> (tensor<f32>,
        tensor<256x128xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>},
        tensor<128xf32> {dist.sharding = #dist.sharding<@mesh, [{}]>},
        tensor<128xf32> {dist.sharding = #dist.sharding<@mesh, [{}]>},
        tensor<128xf32> {dist.sharding = #dist.sharding<@mesh, [{}]>},
        tensor<128xf32> {dist.sharding = #dist.sharding<@mesh, [{}]>},
        tensor<128x128xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
        tensor<128x128xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
        tensor<128x128xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
        tensor<128x128xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>},
        tensor<128xf32> {dist.sharding = #dist.sharding<@mesh, [{}]>},
        tensor<128xf32> {dist.sharding = #dist.sharding<@mesh, [{}]>},
        tensor<128x512xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
        tensor<512xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp"}]>},
        tensor<512x128xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>}) {
  %v0_0 = dist.embedding %ids, %table : (tensor<4x16xi64>, tensor<256x128xf32>) -> tensor<4x16x128xf32>
  %v1_0, %v1_1, %v1_2 = dist.layer_norm %v0_0, %ln1_g_0, %ln1_b_0 {begin_norm_axis = 2 : i64} : (tensor<4x16x128xf32>, tensor<128xf32>, tensor<128xf32>) -> (tensor<4x16x128xf32>, tensor<4x16xf32>, tensor<4x16xf32>)
  %v2_0 = dist.matmul %v1_0, %wq_0 : (tensor<4x16x128xf32>, tensor<128x128xf32>) -> tensor<4x16x128xf32>
  %v3_0 = dist.matmul %v1_0, %wk_0 : (tensor<4x16x128xf32>, tensor<128x128xf32>) -> tensor<4x16x128xf32>
  %v4_0 = dist.matmul %v1_0, %wv_0 : (tensor<4x16x128xf32>, tensor<128x128xf32>) -> tensor<4x16x128xf32>
  %v5_0 = dist.reshape %v2_0 : (tensor<4x16x128xf32>) -> tensor<4x16x4x32xf32>
  %v6_0 = dist.transpose %v5_0 {perm = array<i64: 0, 2, 1, 3>} : (tensor<4x16x4x32xf32>) -> tensor<4x4x16x32xf32>
  %v7_0 = dist.reshape %v3_0 : (tensor<4x16x128xf32>) -> tensor<4x16x4x32xf32>
  %v8_0 = dist.transpose %v7_0 {perm = array<i64: 0, 2, 1, 3>} : (tensor<4x16x4x32xf32>) -> tensor<4x4x16x32xf32>
  %v9_0 = dist.reshape %v4_0 : (tensor<4x16x128xf32>) -> tensor<4x16x4x32xf32>
  %v10_0 = dist.transpose %v9_0 {perm = array<i64: 0, 2, 1, 3>} : (tensor<4x16x4x32xf32>) -> tensor<4x4x16x32xf32>
  %v11_0 = dist.matmul %v6_0, %v8_0 {transpose_y} : (tensor<4x4x16x32xf32>, tensor<4x4x16x32xf32>) -> tensor<4x4x16x16xf32>
  %v12_0 = dist.scale %v11_0 {factor = 0.17677669529663687 : f64} : (tensor<4x4x16x16xf32>) -> tensor<4x4x16x16xf32>
  %v13_0 = dist.softmax %v12_0 {axis = -1 : i64} : (tensor<4x4x16x16xf32>) -> tensor<4x4x16x16xf32>
  %v14_0 = dist.matmul %v13_0, %v10_0 : (tensor<4x4x16x16xf32>, tensor<4x4x16x32xf32>) -> tensor<4x4x16x32xf32>
  %v15_0 = dist.transpose %v14_0 {perm = array<i64: 0, 2, 1, 3>} : (tensor<4x4x16x32xf32>) -> tensor<4x16x4x32xf32>
  %v16_0 = dist.reshape %v15_0 : (tensor<4x16x4x32xf32>) -> tensor<4x16x128xf32>
  %v17_0 = dist.matmul %v16_0, %wo_0 : (tensor<4x16x128xf32>, tensor<128x128xf32>) -> tensor<4x16x128xf32>
  %v18_0 = dist.add %v0_0, %v17_0 : (tensor<4x16x128xf32>, tensor<4x16x128xf32>) -> tensor<4x16x128xf32>
  %v19_0, %v19_1, %v19_2 = dist.layer_norm %v18_0, %ln2_g_0, %ln2_b_0 {begin_norm_axis = 2 : i64} : (tensor<4x16x128xf32>, tensor<128xf32>, tensor<128xf32>) -> (tensor<4x16x128xf32>, tensor<4x16xf32>, tensor<4x16xf32>)
  %v20_0 = dist.matmul %v19_0, %w1_0 : (tensor<4x16x128xf32>, tensor<128x512xf32>) -> tensor<4x16x512xf32>
  %v21_0 = dist.add %v20_0, %b1_0 : (tensor<4x16x512xf32>, tensor<512xf32>) -> tensor<4x16x512xf32>
  %v22_0 = dist.gelu %v21_0 {approximate = "tanh"} : (tensor<4x16x512xf32>) -> tensor<4x16x512xf32>
  %v23_0 = dist.matmul %v22_0, %w2_0 : (tensor<4x16x512xf32>, tensor<512x128xf32>) -> tensor<4x16x128xf32>
  %v24_0 = dist.add %v18_0, %v23_0 : (tensor<4x16x128xf32>, tensor<4x16x128xf32>) -> tensor<4x16x128xf32>
  %v25_0, %v25_1, %v25_2 = dist.layer_norm %v24_0, %lnf_g, %lnf_b {begin_norm_axis = 2 : i64} : (tensor<4x16x128xf32>, tensor<128xf32>, tensor<128xf32>) -> (tensor<4x16x128xf32>, tensor<4x16xf32>, tensor<4x16xf32>)
  %v26_0 = dist.matmul %v25_0, %table {transpose_y} : (tensor<4x16x128xf32>, tensor<256x128xf32>) -> tensor<4x16x256xf32>
  %v27_0 = dist.sub %v26_0, %targets : (tensor<4x16x256xf32>, tensor<4x16x256xf32>) -> tensor<4x16x256xf32>
  %v28_0 = dist.mul %v27_0, %v27_0 : (tensor<4x16x256xf32>, tensor<4x16x256xf32>) -> tensor<4x16x256xf32>
  %v29_0 = dist.reduce_mean %v28_0 {dims = array<i64: 0, 1, 2>} : (tensor<4x16x256xf32>) -> tensor<f32>
  %v30_0 = dist.reduce_mean_grad %v28_0, %dloss {dims = array<i64: 0, 1, 2>} : (tensor<4x16x256xf32>, tensor<f32>) -> tensor<4x16x256xf32>
  %v31_0, %v31_1 = dist.mul_grad %v27_0, %v27_0, %v30_0 : (tensor<4x16x256xf32>, tensor<4x16x256xf32>, tensor<4x16x256xf32>) -> (tensor<4x16x256xf32>, tensor<4x16x256xf32>)
  %v32_0 = dist.add %v31_0, %v31_1 : (tensor<4x16x256xf32>, tensor<4x16x256xf32>) -> tensor<4x16x256xf32>
  %v33_0, %v33_1 = dist.sub_grad %v26_0, %targets, %v32_0 : (tensor<4x16x256xf32>, tensor<4x16x256xf32>, tensor<4x16x256xf32>) -> (tensor<4x16x256xf32>, tensor<4x16x256xf32>)
  %v34_0, %v34_1 = dist.matmul_grad %v25_0, %table, %v33_0 {transpose_y} : (tensor<4x16x128xf32>, tensor<256x128xf32>, tensor<4x16x256xf32>) -> (tensor<4x16x128xf32>, tensor<256x128xf32>)
  %v35_0, %v35_1, %v35_2 = dist.layer_norm_grad %v24_0, %lnf_g, %v25_1, %v25_2, %v34_0 {begin_norm_axis = 2 : i64} : (tensor<4x16x128xf32>, tensor<128xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16x128xf32>) -> (tensor<4x16x128xf32>, tensor<128xf32>, tensor<128xf32>)
  %v36_0, %v36_1 = dist.add_grad %v18_0, %v23_0, %v35_0 : (tensor<4x16x128xf32>, tensor<4x16x128xf32>, tensor<4x16x128xf32>) -> (tensor<4x16x128xf32>, tensor<4x16x128xf32>)
  %v37_0, %v37_1 = dist.matmul_grad %v22_0, %w2_0, %v36_1 : (tensor<4x16x512xf32>, tensor<512x128xf32>, tensor<4x16x128xf32>) -> (tensor<4x16x512xf32>, tensor<512x128xf32>)
  %v38_0 = dist.gelu_grad %v21_0, %v37_0 {approximate = "tanh"} : (tensor<4x16x512xf32>, tensor<4x16x512xf32>) -> tensor<4x16x512xf32>
  %v39_0, %v39_1 = dist.add_grad %v20_0, %b1_0, %v38_0 : (tensor<4x16x512xf32>, tensor<512xf32>, tensor<4x16x512xf32>) -> (tensor<4x16x512xf32>, tensor<512xf32>)
  %v40_0, %v40_1 = dist.matmul_grad %v19_0, %w1_0, %v39_0 : (tensor<4x16x128xf32>, tensor<128x512xf32>, tensor<4x16x512xf32>) -> (tensor<4x16x128xf32>, tensor<128x512xf32>)
  %v41_0, %v41_1, %v41_2 = dist.layer_norm_grad %v18_0, %ln2_g_0, %v19_1, %v19_2, %v40_0 {begin_norm_axis = 2 : i64} : (tensor<4x16x128xf32>, tensor<128xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16x128xf32>) -> (tensor<4x16x128xf32>, tensor<128xf32>, tensor<128xf32>)
  %v42_0 = dist.add %v36_0, %v41_0 : (tensor<4x16x128xf32>, tensor<4x16x128xf32>) -> tensor<4x16x128xf32>
  %v43_0, %v43_1 = dist.add_grad %v0_0, %v17_0, %v42_0 : (tensor<4x16x128xf32>, tensor<4x16x128xf32>, tensor<4x16x128xf32>) -> (tensor<4x16x128xf32>, tensor<4x16x128xf32>)
  %v44_0, %v44_1 = dist.matmul_grad %v16_0, %wo_0, %v43_1 : (tensor<4x16x128xf32>, tensor<128x128xf32>, tensor<4x16x128xf32>) -> (tensor<4x16x128xf32>, tensor<128x128xf32>)
  %v45_0 = dist.reshape %v44_0 : (tensor<4x16x128xf32>) -> tensor<4x16x4x32xf32>
  %v46_0 = dist.transpose %v45_0 {perm = array<i64: 0, 2, 1, 3>} : (tensor<4x16x4x32xf32>) -> tensor<4x4x16x32xf32>
  %v47_0, %v47_1 = dist.matmul_grad %v13_0, %v10_0, %v46_0 : (tensor<4x4x16x16xf32>, tensor<4x4x16x32xf32>, tensor<4x4x16x32xf32>) -> (tensor<4x4x16x16xf32>, tensor<4x4x16x32xf32>)
  %v48_0 = dist.softmax_grad %v13_0, %v47_0 {axis = -1 : i64} : (tensor<4x4x16x16xf32>, tensor<4x4x16x16xf32>) -> tensor<4x4x16x16xf32>
  %v49_0 = dist.scale %v48_0 {factor = 0.17677669529663687 : f64} : (tensor<4x4x16x16xf32>) -> tensor<4x4x16x16xf32>
  %v50_0, %v50_1 = dist.matmul_grad %v6_0, %v8_0, %v49_0 {transpose_y} : (tensor<4x4x16x32xf32>, tensor<4x4x16x32xf32>, tensor<4x4x16x16xf32>) -> (tensor<4x4x16x32xf32>, tensor<4x4x16x32xf32>)
  %v51_0 = dist.transpose %v50_0 {perm = array<i64: 0, 2, 1, 3>} : (tensor<4x4x16x32xf32>) -> tensor<4x16x4x32xf32>
  %v52_0 = dist.reshape %v51_0 : (tensor<4x16x4x32xf32>) -> tensor<4x16x128xf32>
  %v53_0 = dist.transpose %v50_1 {perm = array<i64: 0, 2, 1, 3>} : (tensor<4x4x16x32xf32>) -> tensor<4x16x4x32xf32>
  %v54_0 = dist.reshape %v53_0 : (tensor<4x16x4x32xf32>) -> tensor<4x16x128xf32>
  %v55_0 = dist.transpose %v47_1 {perm = array<i64: 0, 2, 1, 3>} : (tensor<4x4x16x32xf32>) -> tensor<4x16x4x32xf32>
  %v56_0 = dist.reshape %v55_0 : (tensor<4x16x4x32xf32>) -> tensor<4x16x128xf32>
  %v57_0, %v57_1 = dist.matmul_grad %v1_0, %wq_0, %v52_0 : (tensor<4x16x128xf32>, tensor<128x128xf32>, tensor<4x16x128xf32>) -> (tensor<4x16x128xf32>, tensor<128x128xf32>)
  %v58_0, %v58_1 = dist.matmul_grad %v1_0, %wk_0, %v54_0 : (tensor<4x16x128xf32>, tensor<128x128xf32>, tensor<4x16x128xf32>) -> (tensor<4x16x128xf32>, tensor<128x128xf32>)
  %v59_0, %v59_1 = dist.matmul_grad %v1_0, %wv_0, %v56_0 : (tensor<4x16x128xf32>, tensor<128x128xf32>, tensor<4x16x128xf32>) -> (tensor<4x16x128xf32>, tensor<128x128xf32>)
  %v60_0 = dist.add %v57_0, %v58_0 : (tensor<4x16x128xf32>, tensor<4x16x128xf32>) -> tensor<4x16x128xf32>
  %v61_0 = dist.add %v60_0, %v59_0 : (tensor<4x16x128xf32>, tensor<4x16x128xf32>) -> tensor<4x16x128xf32>
  %v62_0, %v62_1, %v62_2 = dist.layer_norm_grad %v0_0, %ln1_g_0, %v1_1, %v1_2, %v61_0 {begin_norm_axis = 2 : i64} : (tensor<4x16x128xf32>, tensor<128xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16x128xf32>) -> (tensor<4x16x128xf32>, tensor<128xf32>, tensor<128xf32>)
  %v63_0 = dist.add %v43_0, %v62_0 : (tensor<4x16x128xf32>, tensor<4x16x128xf32>) -> tensor<4x16x128xf32>
  %v64_0 = dist.embedding_grad %ids, %table, %v63_0 : (tensor<4x16xi64>, tensor<256x128xf32>, tensor<4x16x128xf32>) -> tensor<256x128xf32>
  %v65_0 = dist.add %v34_1, %v64_0 : (tensor<256x128xf32>, tensor<256x128xf32>) -> tensor<256x128xf32>
  return %v29_0, %v65_0, %v35_1, %v35_2, %v62_1, %v62_2, %v57_1, %v58_1, %v59_1, %v44_1, %v41_1, %v41_2, %v40_1, %v39_1, %v37_1 : tensor<f32>, tensor<256x128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128x128xf32>, tensor<128x128xf32>, tensor<128x128xf32>, tensor<128x128xf32>, tensor<128xf32>, tensor<128xf32>, tensor<128x512xf32>, tensor<512xf32>, tensor<512x128xf32>
}
