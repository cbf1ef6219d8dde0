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

def Dist_AbsOp : Dist_UnaryOp<"abs", "Absolute value"> {
  let description = [{
    `out = |x|`. Its gradient is `dist.abs_grad`, `dout * sign(x)`: 0 at 0,
    as JAX's.

    ```mlir
    %a = dist.abs %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
    ```
  }];
}

def Dist_SignOp : Dist_UnaryOp<"sign", "Sign"> {
  let description = [{
    `out = 1` where `x > 0`, `-1` where `x < 0`, and `x` itself at zero (of
    either sign) and NaN, as `stablehlo.sign`. Piecewise constant: its
    gradient is zero, so `dist-append-backward` sends nothing through it.

    ```mlir
    %s = dist.sign %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
    ```
  }];
}

def Dist_FloorOp : Dist_UnaryOp<"floor", "Round down to an integer"> {
  let description = [{
    `out = floor(x)`, the largest integer not above `x`. Piecewise
    constant: its gradient is zero.

    ```mlir
    %f = dist.floor %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
    ```
  }];
}

def Dist_CeilOp : Dist_UnaryOp<"ceil", "Round up to an integer"> {
  let description = [{
    `out = ceil(x)`, the smallest integer not below `x`. Piecewise
    constant: its gradient is zero.

    ```mlir
    %c = dist.ceil %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
    ```
  }];
}

def Dist_RoundOp : Dist_UnaryOp<"round", "Round to the nearest integer, ties to even"> {
  let description = [{
    `out` is the integer nearest `x`, a tie going to the even one
    (`stablehlo.round_nearest_even`, `jnp.round`). Piecewise constant: its
    gradient is zero.

    ```mlir
    %r = dist.round %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
    ```
  }];
}

def Dist_SquareOp : Dist_UnaryOp<"square", "Square"> {
  let description = [{
    `out = x * x` (`chlo.square`, `jnp.square`). Its gradient is
    `dist.square_grad`, `2 x dout`.

    ```mlir
    %q = dist.square %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
    ```
  }];
}

def Dist_SinOp : Dist_UnaryOp<"sin", "Sine"> {
  let description = [{
    `out = sin(x)`, `x` in radians. Its gradient is `dist.sin_grad`,
    `dout * cos(x)`.

    ```mlir
    %s = dist.sin %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
    ```
  }];
}

def Dist_CosOp : Dist_UnaryOp<"cos", "Cosine"> {
  let description = [{
    `out = cos(x)`, `x` in radians. Its gradient is `dist.cos_grad`,
    `-dout * sin(x)`.

    ```mlir
    %c = dist.cos %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
    ```
  }];
}

def Dist_ErfOp : Dist_UnaryOp<"erf", "Error function"> {
  let description = [{
    `out = erf(x) = 2/sqrt(pi) * integral from 0 to x of e^(-t^2) dt`. Its
    gradient is `dist.erf_grad`, `dout * 2/sqrt(pi) * e^(-x^2)`.

    ```mlir
    %e = dist.erf %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
    ```
  }];
}

def Dist_Log1pOp : Dist_UnaryOp<"log1p", "Logarithm of one plus x"> {
  let description = [{
    `out = ln(1 + x)`, computed as such (not as the logarithm of the sum,
    which loses the digits of a small `x`: `stablehlo.log_plus_one`,
    `jax.nn.softplus`, optax's `sigmoid_binary_cross_entropy`,
    `torch.log1p`). Its gradient is `dist.log1p_grad`, `dout / (1 + x)`.

    ```mlir
    %l = dist.log1p %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
    ```
  }];
}

def Dist_Expm1Op : Dist_UnaryOp<"expm1", "Exponential minus one"> {
  let description = [{
    `out = e^x - 1`, computed as such (`stablehlo.exponential_minus_one`,
    `jax.nn.elu`, `torch.expm1`). Its gradient is `dist.expm1_grad`,
    `dout * e^x`.

    ```mlir
    %e = dist.expm1 %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
    ```
  }];
}

def Dist_AtanOp : Dist_UnaryOp<"atan", "Arc tangent"> {
  let description = [{
    `out = atan(x)`, in `(-pi/2, pi/2)` (`chlo.atan`, `jnp.arctan`,
    `torch.atan`; the importer also writes `asin`, `acos` and `atan2`
    with it). Its gradient is `dist.atan_grad`, `dout / (1 + x^2)`.

    ```mlir
    %a = dist.atan %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
    ```
  }];
}

def Dist_ErfcOp : Dist_UnaryOp<"erfc", "Complementary error function"> {
  let description = [{
    `out = erfc(x) = 1 - erf(x)`, computed as such (not as the difference,
    which loses every digit where `erf(x)` nears 1: `chlo.erfc` of exact
    GELU). Its gradient is `dist.erfc_grad`, `-dout * 2/sqrt(pi) * e^(-x^2)`.

    ```mlir
    %e = dist.erfc %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
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

def Dist_AbsGradOp : Dist_UnaryGradOp<"abs_grad", "Gradient of dist.abs"> {
  let description = [{
    `dx = dout * sign(x)`, 0 where `x` is 0.

    ```mlir
    %dx = dist.abs_grad %x, %dout : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    ```
  }];
}

def Dist_SquareGradOp : Dist_UnaryGradOp<"square_grad", "Gradient of dist.square"> {
  let description = [{
    `dx = 2 x dout`.

    ```mlir
    %dx = dist.square_grad %x, %dout : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    ```
  }];
}

def Dist_SinGradOp : Dist_UnaryGradOp<"sin_grad", "Gradient of dist.sin"> {
  let description = [{
    `dx = dout * cos(x)`.

    ```mlir
    %dx = dist.sin_grad %x, %dout : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    ```
  }];
}

def Dist_CosGradOp : Dist_UnaryGradOp<"cos_grad", "Gradient of dist.cos"> {
  let description = [{
    `dx = -dout * sin(x)`.

    ```mlir
    %dx = dist.cos_grad %x, %dout : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    ```
  }];
}

def Dist_ErfGradOp : Dist_UnaryGradOp<"erf_grad", "Gradient of dist.erf"> {
  let description = [{
    `dx = dout * 2/sqrt(pi) * e^(-x^2)`.

    ```mlir
    %dx = dist.erf_grad %x, %dout : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    ```
  }];
}

def Dist_Log1pGradOp : Dist_UnaryGradOp<"log1p_grad", "Gradient of dist.log1p"> {
  let description = [{
    `dx = dout / (1 + x)`.

    ```mlir
    %dx = dist.log1p_grad %x, %dout : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    ```
  }];
}

def Dist_Expm1GradOp : Dist_UnaryGradOp<"expm1_grad", "Gradient of dist.expm1"> {
  let description = [{
    `dx = dout * e^x`.

    ```mlir
    %dx = dist.expm1_grad %x, %dout : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    ```
  }];
}

def Dist_AtanGradOp : Dist_UnaryGradOp<"atan_grad", "Gradient of dist.atan"> {
  let description = [{
    `dx = dout / (1 + x^2)`.

    ```mlir
    %dx = dist.atan_grad %x, %dout : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    ```
  }];
}

def Dist_ErfcGradOp : Dist_UnaryGradOp<"erfc_grad", "Gradient of dist.erfc"> {
  let description = [{
    `dx = -dout * 2/sqrt(pi) * e^(-x^2)`.

    ```mlir
    %dx = dist.erfc_grad %x, %dout : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    ```
  }];
}

#endif // DIST_MATH_OPS_TD
