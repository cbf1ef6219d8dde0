// Every compute and gradient op, lowered to LLVM and run by mlir-runner on
// seeded random inputs, against float64 references (gradients by finite
// differences): all four matmul transposes at ranks 2-4 with broadcast
// batches, the binary ops (add, sub, mul, div, maximum, minimum) with NumPy
// broadcasting of either operand, the math functions (exp, log, sqrt,
// rsqrt, sigmoid, silu, tanh, neg, reciprocal, abs, square, sin, cos, erf,
// erfc, sign, floor, ceil, round), gelu (both forms), relu,
// scale, the reductions (sum, mean, max, min; keepdim or not), softmax,
// layer_norm and rms_norm (two begin_norm_axis), embedding with and
// without a shard offset, causal_mask (with and without offsets), slice,
// concat (two and three operands), reshape, transpose, take_along (with and
// without a shard offset), cross_entropy, top_k (with ties), and each one's gradient; cast
// between f32 and f64 both ways, mask_padding on a shard past the end; the
// AdamW and SGD steps (with and without momentum, and in f64) against their
// float64 definitions. And bf16 ops (gelu and its gradient, exp, softmax,
// reduce_max, reduce_sum, matmul, layer_norm): each computes in f32 (a
// reduction accumulates in f32) and rounds its result once, so it lands
// within two bf16 ulps of the float64 reference rounded to bf16. And the
// ops of booleans and integers, exactly: compare in all six directions on
// f32 (with ties), i32 (signed), i1 (unsigned) and bf16; select of floats
// (broadcast predicate, scalar choice) with its gradient, and of integers;
// and, or, xor and not on i1 and i32; is_finite (infinities, NaN, the
// largest and smallest f32, bf16); iota (i32, and f32 from an offset);
// casts between floats, integers and booleans (toward zero, != 0, 0 / 1,
// wrapping); integer add, sub, mul, div (x / 0 = -1, MIN / -1 = MIN),
// maximum and minimum.
// RUN: %python %S/Inputs/check_linalg.py dist-opt %mlir_runner %mlir_runner_libs | FileCheck %s
// The same cases through dist-lower-to-llvm, as dist-run compiles them:
// every matmul on the runtime's BLAS, tanh/erf/exp as polynomials.
// RUN: %python %S/Inputs/check_linalg.py dist-opt %mlir_runner %dist_runtime_libs --cpu-pipeline | FileCheck %s
// The tensor-level lowering of the GPU pipeline: scatters (embedding_grad)
// parallel over vocabulary x hidden instead of a loop over the tokens, and
// products of two batch dims (or two M dims) on one collapsed loop, and
// concatenations and pads written in place by copies.
// RUN: %python %S/Inputs/check_linalg.py dist-opt %mlir_runner %mlir_runner_libs --dense-scatter | FileCheck %s
// The same cases through dist-lower-to-llvm with every product on the
// runtime's cuBLASLt GEMMs (dist-call-blas{library=cublaslt}, after the GPU
// pipeline's collapsed contraction dims), run by stand-ins for the CUDA
// driver and cuBLASLt that compute on the host: the layouts, transposes and
// batch strides the runtime hands cuBLASLt give the products the references
// expect, and the stand-in saw no bad call (73 products of 51 shapes; the
// matrices are host memory here).
// RUN: rm -rf %t && mkdir -p %t/lib
// RUN: cc -shared -fPIC -o %t/lib/libcuda.so.1 %S/../dist-run/Inputs/mock_cuda.c
// RUN: cc -O2 -shared -fPIC -o %t/lib/libcublasLt.so.13 %S/../dist-run/Inputs/mock_cublaslt.c
// RUN: env LD_LIBRARY_PATH=%t/lib MOCK_CUDA_LOG=%t/log %python %S/Inputs/check_linalg.py dist-opt %mlir_runner %dist_runtime_libs --cublaslt | FileCheck %s
// RUN: FileCheck %s --check-prefix=CUBLASLT < %t/log
// CUBLASLT: cublaslt: heuristics 51 matmuls 73 bad 0 host 219
// CHECK-NOT: FAIL
// CHECK: 285 of 285 cases within 0.0002 (bf16 results: 0.015625)
