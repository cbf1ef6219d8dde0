// Hugging Face transformers' LlamaForCausalLM (examples/torch/llama.py: two
// layers, grouped-query attention, its own loss against labels, the
// Megatron plan), exported by scripts/torch-export.py through torch.export
// and torch-mlir on a 2 x 2 mesh (the checked-in export, which
// test/Conversion/torch-export.mlir re-exports byte for byte where PyTorch
// is installed), imported and differentiated by dist-run --grad, on one
// device and on the mesh's four, gives PyTorch autograd's loss and every
// parameter gradient (float64 PyTorch on the same seeded inputs, a quarter
// of the labels -100, saved under Inputs/torch) within 1e-4 of
// max(1, |value|); measured 1.9e-6 and 2.9e-6.
// RUN: rm -rf %t && mkdir -p %t
// RUN: dist-opt --allow-unregistered-dialect %S/../Conversion/Inputs/stablehlo/torch_llama.mlir --convert-stablehlo-to-dist -o %t/llama.mlir 2> %t/remarks
// RUN: %python %S/../../scripts/npy.py inputs %t/llama.mlir main %t/in --id-range 64 --ignore arg22=-100 > /dev/null
// RUN: dist-run %t/llama.mlir --entry main --grad -n 1 --input-dir %t/in --out %t/n1
// RUN: dist-run %t/llama.mlir --entry main --grad -n 4 --input-dir %t/in --out %t/n4
// RUN: %python %S/../../scripts/npy.py compare %S/Inputs/torch/llama-torch %t/n1 --tolerance 1e-4 | FileCheck %s --check-prefix=GRADS
// RUN: %python %S/../../scripts/npy.py compare %S/Inputs/torch/llama-torch %t/n4 --tolerance 1e-4 | FileCheck %s --check-prefix=GRADS
// GRADS: 22 results; max difference against -n 1: {{[0-9.]+e-(0[5-9]|[1-9][0-9])$}}
//
// The export marks the 21 parameters (they require grad), not the ids and
// labels; the import keeps the marks (requires-grad= would replace them).
// RUN: FileCheck %s --check-prefix=MARKS --input-file %t/llama.mlir
// MARKS-COUNT-21: dist.requires_grad
// MARKS-NOT:      dist.requires_grad
// RUN: dist-opt --allow-unregistered-dialect %S/../Conversion/Inputs/stablehlo/torch_llama.mlir --convert-stablehlo-to-dist="requires-grad=20" 2> /dev/null | FileCheck %s --check-prefix=OVERRIDE
// OVERRIDE-COUNT-1: dist.requires_grad
// OVERRIDE-NOT:     dist.requires_grad
//
// What torch-mlir spells out is imported by value: the RMS norms, softmaxes
// and HF's loss are raised (cross-entropy with PyTorch's ignore_index, the
// shifted labels padded with -100), the GQA products read keys and values
// of [batch, heads, seq, head_dim], the causal mask is dist.causal_mask.
// RUN: FileCheck %s --check-prefix=OPS --input-file %t/llama.mlir
// OPS-DAG: dist.embedding
// OPS-DAG: dist.rms_norm
// OPS-DAG: dist.causal_mask
// OPS-DAG: dist.softmax
// OPS-DAG: dist.matmul {{.*}} : (tensor<4x4x8x8xf32>, tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
// OPS-DAG: dist.cross_entropy {{.*}} {ignore_index = -100 : i64} : (tensor<32x64xf32>, tensor<32xi64>) -> tensor<f32>
//
// The communication Megatron places, derived by the rules: no all_gather
// (of the logits or anything else); the vocabulary-parallel loss reduces
// one value per position over tp three times (max, sum of exponentials,
// picked logit) and its sum and count over dp; each norm's input is
// all-reduced over tp (the row-parallel outputs and the vocab-parallel
// embedding), forward and backward.
// RUN: dist-opt %t/llama.mlir --dist-append-backward --dist-decompose --dist-propagate-sharding=remarks=none --dist-resolve-partial --dist-comm-report -o /dev/null 2>&1 | FileCheck %s --check-prefix=COMM
// COMM:     dist-comm-report @main on @mesh ["dp"=2, "tp"=2]
// COMM-NOT: all_gather
// COMM:     all_reduce  max     "tp"  2x2 {0,1} {2,3}  f32      64
// COMM-NOT: all_gather
// COMM:     all_reduce  sum     "tp"  2x2 {0,1} {2,3}  f32      64
// COMM-NEXT: all_reduce  sum     "tp"  2x2 {0,1} {2,3}  f32      64
// COMM-NEXT: all_reduce  sum     "dp"  2x2 {0,2} {1,3}  f32       4
// COMM-NEXT: all_reduce  sum     "dp"  2x2 {0,2} {1,3}  f32       4
// COMM-NOT: all_gather
// COMM:     total: {{[0-9]+}} collectives, {{[0-9]+}} bytes per device; all_reduce {{[0-9]+ \([0-9]+\)}}, all_slice {{[0-9]+}} (0){{$}}
//
// A PyTorch MLP (examples/torch/mlp.py: nn.Linear, nn.GELU with its exact
// erf, which torch-mlir writes as a rational function clamped to [-1, 1],
// nn.LayerNorm, F.cross_entropy with ignore_index): the forward export run
// by dist-run --grad, and PyTorch's own backward exported with it
// (torch-export.py --grad: AOTAutograd's joint graph, nll_loss's backward
// a scatter into zeros, imported as dist.take_along_grad) run as a whole
// step without --grad, both equal PyTorch autograd; measured 1.8e-7.
// RUN: dist-opt --allow-unregistered-dialect %S/../Conversion/Inputs/stablehlo/torch_mlp.mlir --convert-stablehlo-to-dist -o %t/mlp.mlir 2> /dev/null
// RUN: %python %S/../../scripts/npy.py inputs %t/mlp.mlir main %t/mlp-in --id-range 10 --ignore arg7=-100 > /dev/null
// RUN: dist-run %t/mlp.mlir --entry main --grad -n 1 --input-dir %t/mlp-in --out %t/mlp-n1
// RUN: dist-run %t/mlp.mlir --entry main --grad -n 4 --input-dir %t/mlp-in --out %t/mlp-n4
// RUN: %python %S/../../scripts/npy.py compare %S/Inputs/torch/mlp-torch %t/mlp-n1 --tolerance 1e-4 | FileCheck %s --check-prefix=MLP
// RUN: %python %S/../../scripts/npy.py compare %S/Inputs/torch/mlp-torch %t/mlp-n4 --tolerance 1e-4 | FileCheck %s --check-prefix=MLP
// RUN: dist-opt --allow-unregistered-dialect %S/../Conversion/Inputs/stablehlo/torch_mlp_grad.mlir --convert-stablehlo-to-dist -o %t/mlp-step.mlir
// RUN: dist-run %t/mlp-step.mlir --entry main -n 1 --input-dir %t/mlp-in --out %t/mlp-step-n1
// RUN: dist-run %t/mlp-step.mlir --entry main -n 4 --input-dir %t/mlp-in --out %t/mlp-step-n4
// RUN: %python %S/../../scripts/npy.py compare %S/Inputs/torch/mlp-torch %t/mlp-step-n1 --tolerance 1e-4 | FileCheck %s --check-prefix=MLP
// RUN: %python %S/../../scripts/npy.py compare %S/Inputs/torch/mlp-torch %t/mlp-step-n4 --tolerance 1e-4 | FileCheck %s --check-prefix=MLP
// RUN: FileCheck %s --check-prefix=STEP --input-file %t/mlp-step.mlir
// MLP: 7 results; max difference against -n 1: {{[0-9.]+e-(0[5-9]|[1-9][0-9])$}}
// STEP-NOT: dist.requires_grad
// STEP:     dist.take_along_grad
//
// Decoders of other Hugging Face classes, as their authors wrote them
// (examples/torch/hf_causal_lm.py): Qwen2 (biases on q, k and v, split
// with their weights) and Gemma (RMSNorm scaled by 1 + w, a tanh-GELU
// gated MLP, the embedding scaled by sqrt(hidden)); measured 6.4e-6 and
// 1.1e-5 (Gemma's logits reach 11 with these weights). Mistral, Phi3,
// Qwen3, Olmo and Granite import and agree as well (docs/stablehlo-import.md).
// RUN: dist-opt --allow-unregistered-dialect %S/../Conversion/Inputs/stablehlo/torch_qwen2.mlir --convert-stablehlo-to-dist -o %t/qwen2.mlir 2> /dev/null
// RUN: %python %S/../../scripts/npy.py inputs %t/qwen2.mlir main %t/qwen2-in --id-range 64 --ignore arg28=-100 > /dev/null
// RUN: dist-run %t/qwen2.mlir --entry main --grad -n 1 --input-dir %t/qwen2-in --out %t/qwen2-n1
// RUN: dist-run %t/qwen2.mlir --entry main --grad -n 4 --input-dir %t/qwen2-in --out %t/qwen2-n4
// RUN: %python %S/../../scripts/npy.py compare %S/Inputs/torch/qwen2-torch %t/qwen2-n1 --tolerance 1e-4 | FileCheck %s --check-prefix=QWEN2
// RUN: %python %S/../../scripts/npy.py compare %S/Inputs/torch/qwen2-torch %t/qwen2-n4 --tolerance 1e-4 | FileCheck %s --check-prefix=QWEN2
// QWEN2: 28 results; max difference against -n 1: {{[0-9.]+e-(0[5-9]|[1-9][0-9])$}}
// RUN: dist-opt --allow-unregistered-dialect %S/../Conversion/Inputs/stablehlo/torch_gemma.mlir --convert-stablehlo-to-dist -o %t/gemma.mlir 2> /dev/null
// RUN: %python %S/../../scripts/npy.py inputs %t/gemma.mlir main %t/gemma-in --id-range 64 --ignore arg22=-100 > /dev/null
// RUN: dist-run %t/gemma.mlir --entry main --grad -n 1 --input-dir %t/gemma-in --out %t/gemma-n1
// RUN: dist-run %t/gemma.mlir --entry main --grad -n 4 --input-dir %t/gemma-in --out %t/gemma-n4
// RUN: %python %S/../../scripts/npy.py compare %S/Inputs/torch/gemma-torch %t/gemma-n1 --tolerance 1e-4 | FileCheck %s --check-prefix=GEMMA
// RUN: %python %S/../../scripts/npy.py compare %S/Inputs/torch/gemma-torch %t/gemma-n4 --tolerance 1e-4 | FileCheck %s --check-prefix=GEMMA
// GEMMA: 22 results; max difference against -n 1: {{[0-9.]+e-(0[5-9]|[1-9][0-9])$}}
