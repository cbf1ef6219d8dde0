// Every gradient rule of dist-append-backward, checked numerically: for
// each differentiable op (all four matmul transposes at ranks 2-4 with
// broadcast batches, add/sub/mul/div/rem/maximum/minimum with NumPy
// broadcasting of either operand and with an operand read twice, the math
// functions (exp, log, sqrt, rsqrt, sigmoid, silu, tanh, neg, reciprocal,
// abs, square, sin, cos, erf, erfc, log1p, expm1, atan, and sign, floor, ceil,
// round, through
// which no gradient flows),
// scale, relu, gelu in both forms, reduce_max and reduce_min, reduce_sum
// and reduce_mean over several dims with and without keepdim, softmax on
// two axes, layer_norm and rms_norm at two begin_norm_axis, embedding with
// and without a shard offset, slice, concat, reshape, transpose, take_along,
// cross_entropy, top_k's values), the derived gradients of
// sum(w * op(inputs)), run by mlir-runner, against central finite
// differences of a float64 reference of the op.
// RUN: %python %S/Inputs/check_autodiff.py dist-opt %mlir_runner %mlir_runner_libs | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: 96 of 96 cases within 0.0002 (bf16 results: 0.015625)
