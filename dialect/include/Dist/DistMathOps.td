//===- DistMathOps.td - elementwise math functions ------------*- tablegen -*-===//
//
// The functions of one tensor that models apply elementwise (activations,
// normalizations written out, the pieces of a numerically stable softmax or
// cross-entropy), and the gradient ops of those whose gradient is not an op
// of the dialect already. Each keeps its operand's type and shards any way
// its operand does.
//
// A gradient op takes the forward operand `x`, not its result: the
// derivative is computed from `x` in the same loop as the product with
// `dout`, so the forward result need not stay live for the backward.
//
//===----------------------------------------------------------------------===//

#ifndef DIST_MATH_OPS_TD
#define DIST_MATH_OPS_TD

include "Dist/DistBase.td"

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

def Dist_ExpOp : Dist_UnaryOp<"exp", "Exponential"> {
  let description = [{
    `out = e^x`. Its gradient is `dist.mul` of the result and `dout`.

    ```mlir
    %e = dist.exp %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
    ```
  }];
}

def Dist_LogOp : Dist_UnaryOp<"log", "Natural logarithm"> {
  let description = [{
    `out = ln(x)` (NaN below 0, -inf at 0). Its gradient is `dist.div` of
    `dout` by `x`.

    ```mlir
    %l = dist.log %s : (tensor<4x8xf32>) -> tensor<4x8xf32>
    ```
  }];
}

def Dist_SqrtOp : Dist_UnaryOp<"sqrt", "Square root"> {
  let description = [{
    `out = sqrt(x)`.

    ```mlir
    %r = dist.sqrt %v : (tensor<4x8xf32>) -> tensor<4x8xf32>
    ```
  }];
}

def Dist_RsqrtOp : Dist_UnaryOp<"rsqrt", "Reciprocal square root"> {
  let description = [{
    `out = 1 / sqrt(x)`, the inverse standard deviation of a normalization.

    ```mlir
    %r = dist.rsqrt %v : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
    ```
  }];
}

def Dist_SigmoidOp : Dist_UnaryOp<"sigmoid", "Logistic function"> {
  let description = [{
    `out = 1 / (1 + e^-x)`, in [0, 1] for every finite `x`.

    ```mlir
    %s = dist.sigmoid %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
    ```
  }];
}

def Dist_SiluOp : Dist_UnaryOp<"silu", "Sigmoid linear unit (swish)"> {
  let description = [{
    `out = x * sigmoid(x)`, the gate activation of SwiGLU.

    ```mlir
    %y = dist.silu %x : (tensor<4x8x64xf32>) -> tensor<4x8x64xf32>
    ```
  }];
}

def Dist_TanhOp : Dist_UnaryOp<"tanh", "Hyperbolic tangent"> {
  let description = [{
    `out = tanh(x)`.

    ```mlir
    %t = dist.tanh %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
    ```
  }];
}

def Dist_NegOp : Dist_UnaryOp<"neg", "Negation"> {
  let description = [{
    `out = -x`. Linear: its gradient is `dist.neg` of `dout`, and a value
    partial over a sum stays so.

    ```mlir
    %n = dist.neg %x : (tensor<4x8x4xf32>) -> tensor<4x8x4xf32>
    ```
  }];
}

def Dist_ReciprocalOp : Dist_UnaryOp<"reciprocal", "Reciprocal"> {
  let description = [{
    `out = 1 / x` (inf at 0).

    ```mlir
    %r = dist.reciprocal %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
    ```
  }];
}

//===----------------------------------------------------------------------===//
// Gradients
//===----------------------------------------------------------------------===//

def Dist_SqrtGradOp : Dist_UnaryGradOp<"sqrt_grad", "Gradient of dist.sqrt"> {
  let description = [{
    `dx = dout / (2 sqrt(x))`.

    ```mlir
    %dx = dist.sqrt_grad %x, %dout : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    ```
  }];
}

def Dist_RsqrtGradOp : Dist_UnaryGradOp<"rsqrt_grad", "Gradient of dist.rsqrt"> {
  let description = [{
    `dx = -dout / (2 x sqrt(x))`.

    ```mlir
    %dx = dist.rsqrt_grad %x, %dout : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    ```
  }];
}

def Dist_SigmoidGradOp : Dist_UnaryGradOp<"sigmoid_grad", "Gradient of dist.sigmoid"> {
  let description = [{
    `dx = dout * s (1 - s)` with `s = sigmoid(x)`.

    ```mlir
    %dx = dist.sigmoid_grad %x, %dout : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    ```
  }];
}

def Dist_SiluGradOp : Dist_UnaryGradOp<"silu_grad", "Gradient of dist.silu"> {
  let description = [{
    `dx = dout * s (1 + x (1 - s))` with `s = sigmoid(x)`.

    ```mlir
    %dx = dist.silu_grad %x, %dout : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    ```
  }];
}

def Dist_TanhGradOp : Dist_UnaryGradOp<"tanh_grad", "Gradient of dist.tanh"> {
  let description = [{
    `dx = dout * (1 - tanh(x)^2)`.

    ```mlir
    %dx = dist.tanh_grad %x, %dout : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    ```
  }];
}

def Dist_ReciprocalGradOp : Dist_UnaryGradOp<"reciprocal_grad", "Gradient of dist.reciprocal"> {
  let description = [{
    `dx = -dout / x^2`.

    ```mlir
    %dx = dist.reciprocal_grad %x, %dout : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    ```
  }];
}

#endif // DIST_MATH_OPS_TD
