// RUN: dist-opt %s --split-input-file --dist-outline-layers="min-ops=2" | FileCheck %s
// The pass leaves nothing to do behind it.
// RUN: dist-opt %s --split-input-file --dist-outline-layers="min-ops=2" > %t
// RUN: dist-opt %t --split-input-file --dist-outline-layers="min-ops=2" | diff %t -
// A generated step, partitioned: one body for its forward layers and one
// for its backward layers, each called once per layer, whatever the depth.
// RUN: dist-gen gpt --layers 4 --dp 2 --tp 2 | dist-opt - --dist-lower-to-local --dist-outline-layers | FileCheck %s --check-prefix=GPT
// RUN: dist-gen gpt --layers 8 --dp 2 --tp 2 | dist-opt - --dist-lower-to-local --dist-outline-layers | FileCheck %s --check-prefix=GPT8
// With overlap the async collectives stay with their waits, and with an
// optimizer the per-layer updates are a body too.
// RUN: dist-gen gpt --layers 3 --dp 2 --tp 2 --optimizer adamw | dist-opt - --dist-lower-to-local --dist-outline-layers | FileCheck %s --check-prefix=ADAMW
// Llama's layers (RMSNorm, grouped-query attention with rotary tables,
// SwiGLU), its backward written by dist-append-backward: the same two bodies.
// RUN: dist-gen llama --layers 4 --dp 2 --tp 2 | dist-opt - --dist-lower-to-local --dist-outline-layers | FileCheck %s --check-prefix=LLAMA
// RUN: not dist-opt %s --dist-outline-layers="min-ops=0" 2>&1 | FileCheck %s --check-prefix=BAD

// GPT-COUNT-4: call @gpt_step__layer0(
// GPT-COUNT-4: call @gpt_step__layer1(
// GPT-NOT:     call @
// GPT:         func.func private @gpt_step__layer0(
// GPT:         dist.layer_norm
// GPT:         func.func private @gpt_step__layer1(
// GPT:         dist.layer_norm_grad
// GPT-NOT:     func.func

// GPT8-COUNT-8: call @gpt_step__layer0(
// GPT8-COUNT-8: call @gpt_step__layer1(
// GPT8-NOT:     func.func private @gpt_step__layer2

// ADAMW-COUNT-3: call @gpt_step__layer0(
// ADAMW-COUNT-3: call @gpt_step__layer1(
// ADAMW-COUNT-3: call @gpt_step__layer2(
// ADAMW:         func.func private @gpt_step__layer2(
// ADAMW:         dist.adamw

// LLAMA-COUNT-4: call @llama_step__layer0(
// LLAMA-COUNT-4: call @llama_step__layer1(
// LLAMA-NOT:     call @llama_step__layer
// LLAMA:         func.func private @llama_step__layer0(
// LLAMA:         dist.rms_norm
// LLAMA:         func.func private @llama_step__layer1(
// LLAMA:         dist.rms_norm_grad
// LLAMA-NOT:     func.func private @llama_step__layer2

// BAD: min-ops must be a positive integer, not '0'

// Layers that alternate between two kinds repeat in pairs: one body holds
// one layer of each kind, and each kind is compiled once.
// CHECK-LABEL: func.func @alternating(
// CHECK-NEXT:    %[[A:.*]] = call @alternating__layer0(%arg0, %arg1, %arg2) {no_inline} : (tensor<8x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
// CHECK-NEXT:    %[[B:.*]] = call @alternating__layer0(%[[A]], %arg3, %arg4) {no_inline}
// CHECK-NEXT:    return %[[B]]
// CHECK:       func.func private @alternating__layer0(%arg0: tensor<8x16xf32>, %arg1: tensor<16x16xf32>, %arg2: tensor<16x16xf32>) -> tensor<8x16xf32> attributes {dist.layer} {
// CHECK-NEXT:    %[[M0:.*]] = dist.matmul %arg0, %arg1
// CHECK-NEXT:    %[[G:.*]] = dist.gelu %[[M0]]
// CHECK-NEXT:    %[[M1:.*]] = dist.matmul %[[G]], %arg2
// CHECK-NEXT:    %[[R:.*]] = dist.relu %[[M1]]
// CHECK-NEXT:    return %[[R]]
func.func @alternating(%x: tensor<8x16xf32>, %w0: tensor<16x16xf32>, %w1: tensor<16x16xf32>,
                       %w2: tensor<16x16xf32>, %w3: tensor<16x16xf32>) -> tensor<8x16xf32> {
  %0 = dist.matmul %x, %w0 : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %1 = dist.gelu %0 : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %2 = dist.matmul %1, %w1 : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %3 = dist.relu %2 : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %4 = dist.matmul %3, %w2 : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %5 = dist.gelu %4 : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %6 = dist.matmul %5, %w3 : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %7 = dist.relu %6 : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %7 : tensor<8x16xf32>
}

// -----

// A value every layer saves for later (the backward) is a result of the
// body; a layer that reads its input twice reads one argument twice.
// CHECK-LABEL: func.func @saved(
// CHECK-NEXT:    %[[L0:.*]]:2 = call @saved__layer0(%arg0, %arg1) {no_inline} : (tensor<8x16xf32>, tensor<16x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>)
// CHECK-NEXT:    %[[L1:.*]]:2 = call @saved__layer0(%[[L0]]#1, %arg2) {no_inline}
// CHECK-NEXT:    %[[S:.*]] = dist.add %[[L0]]#0, %[[L1]]#0
// CHECK-NEXT:    return %[[S]], %[[L1]]#1
// CHECK:       func.func private @saved__layer0(%arg0: tensor<8x16xf32>, %arg1: tensor<16x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) attributes {dist.layer} {
// CHECK-NEXT:    %[[M:.*]] = dist.matmul %arg0, %arg1
// CHECK-NEXT:    %[[T:.*]] = dist.tanh %[[M]]
// CHECK-NEXT:    %[[Y:.*]] = dist.add %[[T]], %arg0
// CHECK-NEXT:    return %[[M]], %[[Y]]
func.func @saved(%x: tensor<8x16xf32>, %w0: tensor<16x16xf32>, %w1: tensor<16x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %0 = dist.matmul %x, %w0 : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %1 = dist.tanh %0 : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %2 = dist.add %1, %x : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %3 = dist.matmul %2, %w1 : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %4 = dist.tanh %3 : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %5 = dist.add %4, %2 : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %6 = dist.add %0, %3 : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %6, %5 : tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

// A function of several blocks is left as it is.
// CHECK-LABEL: func.func @branches(
// CHECK-NOT:     call
// CHECK:         return
func.func @branches(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = dist.tanh %x : (tensor<4xf32>) -> tensor<4xf32>
  %1 = dist.tanh %0 : (tensor<4xf32>) -> tensor<4xf32>
  cf.br ^next
^next:
  %2 = dist.tanh %1 : (tensor<4xf32>) -> tensor<4xf32>
  %3 = dist.tanh %2 : (tensor<4xf32>) -> tensor<4xf32>
  return %3 : tensor<4xf32>
}
