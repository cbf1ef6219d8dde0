// REQUIRES: torch
// The PyTorch example (examples/torch/llama.py) exported by
// scripts/torch-export.py is the checked-in export, byte for byte (torch
// 2.15.0, torch-mlir 20261001, transformers 5.23.0, as pinned), and the
// references test/Examples/torch-import.mlir compares with are PyTorch
// autograd's in float64 on the inputs npy.py makes: where PyTorch is
// installed, both are made again and compared.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %torch_python %S/../../scripts/torch-export.py %S/../../examples/torch/llama.py --mesh dp=2,tp=2 --out %t/torch_llama.mlir
// RUN: cmp %t/torch_llama.mlir %S/Inputs/stablehlo/torch_llama.mlir
// RUN: dist-opt --allow-unregistered-dialect %t/torch_llama.mlir --convert-stablehlo-to-dist -o %t/llama.mlir 2> /dev/null
// RUN: %python %S/../../scripts/npy.py inputs %t/llama.mlir main %t/in --id-range 64 --ignore arg22=-100 > /dev/null
// RUN: %torch_python %S/Inputs/torch_autograd.py %S/../../examples/torch/llama.py %t/in %t/llama-torch
// RUN: %python %S/../../scripts/npy.py compare %S/../Examples/Inputs/torch/llama-torch %t/llama-torch --tolerance 1e-7 | FileCheck %s
// CHECK: 22 results
// RUN: %torch_python %S/../../scripts/torch-export.py %S/../../examples/torch/mlp.py --mesh dp=2,tp=2 --out %t/torch_mlp.mlir
// RUN: cmp %t/torch_mlp.mlir %S/Inputs/stablehlo/torch_mlp.mlir
// RUN: %torch_python %S/../../scripts/torch-export.py %S/../../examples/torch/mlp.py --mesh dp=2,tp=2 --grad --out %t/torch_mlp_grad.mlir
// RUN: cmp %t/torch_mlp_grad.mlir %S/Inputs/stablehlo/torch_mlp_grad.mlir
// RUN: dist-opt --allow-unregistered-dialect %t/torch_mlp.mlir --convert-stablehlo-to-dist -o %t/mlp.mlir 2> /dev/null
// RUN: %python %S/../../scripts/npy.py inputs %t/mlp.mlir main %t/mlp-in --id-range 10 --ignore arg7=-100 > /dev/null
// RUN: %torch_python %S/Inputs/torch_autograd.py %S/../../examples/torch/mlp.py %t/mlp-in %t/mlp-torch
// RUN: %python %S/../../scripts/npy.py compare %S/../Examples/Inputs/torch/mlp-torch %t/mlp-torch --tolerance 1e-7 | FileCheck %s --check-prefix=MLP
// MLP: 7 results
// RUN: env HF_MODEL=Qwen2 %torch_python %S/../../scripts/torch-export.py %S/../../examples/torch/hf_causal_lm.py --mesh dp=2,tp=2 --out %t/torch_qwen2.mlir
// RUN: cmp %t/torch_qwen2.mlir %S/Inputs/stablehlo/torch_qwen2.mlir
// RUN: env HF_MODEL=Gemma %torch_python %S/../../scripts/torch-export.py %S/../../examples/torch/hf_causal_lm.py --mesh dp=2,tp=2 --out %t/torch_gemma.mlir
// RUN: cmp %t/torch_gemma.mlir %S/Inputs/stablehlo/torch_gemma.mlir
// RUN: dist-opt --allow-unregistered-dialect %t/torch_gemma.mlir --convert-stablehlo-to-dist -o %t/gemma.mlir 2> /dev/null
// RUN: %python %S/../../scripts/npy.py inputs %t/gemma.mlir main %t/gemma-in --id-range 64 --ignore arg22=-100 > /dev/null
// RUN: env HF_MODEL=Gemma %torch_python %S/Inputs/torch_autograd.py %S/../../examples/torch/hf_causal_lm.py %t/gemma-in %t/gemma-torch
// RUN: %python %S/../../scripts/npy.py compare %S/../Examples/Inputs/torch/gemma-torch %t/gemma-torch --tolerance 1e-7 | FileCheck %s --check-prefix=GEMMA
// GEMMA: 22 results
//
// torch-mlir cannot lower the Llama's joint forward-backward graph (the
// backward of scaled_dot_product_attention): --grad says so on one line.
// RUN: not %torch_python %S/../../scripts/torch-export.py %S/../../examples/torch/llama.py --mesh dp=2,tp=2 --grad --out %t/grad.mlir 2>&1 | FileCheck %s --check-prefix=GRAD
// GRAD: torch-export: --grad: torch-mlir cannot import this model's forward-backward graph ({{.*}}); export the forward and let dist-run --grad differentiate it
