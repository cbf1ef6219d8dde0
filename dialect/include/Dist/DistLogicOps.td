//===- DistLogicOps.td - comparisons, selection, logic, iota -*- tablegen -*-===//
//
// The ops whose values are booleans (`i1`) and integers: the masks, index
// arithmetic and one-hot encodings real programs build around their float
// compute (`jnp.where`, `jax.nn.one_hot`, `leaky_relu`, attention masks).
// Each broadcasts NumPy-style and shards any way its operands do. Booleans
// and integers carry no gradient: `dist-append-backward` stops at them, and
// `dist.select` routes its float operands' gradients by its predicate.
//
//===----------------------------------------------------------------------===//

#ifndef DIST_LOGIC_OPS_TD
#define DIST_LOGIC_OPS_TD

include "Dist/DistBase.td"

//===----------------------------------------------------------------------===//
// Comparison and selection
//===----------------------------------------------------------------------===//

def Dist_CompareOp : Dist_ComputeOp<"compare"> {
  let summary = "Elementwise comparison with NumPy broadcasting";
  let description = [{
    `out = x <direction> y`, a boolean per element, with `direction` one of
    `eq`, `ne`, `lt`, `le`, `gt`, `ge` (`stablehlo.compare`). `x` and `y`
    have one element type and broadcast as `dist.add`. Floats compare as
    IEEE-754 does: every comparison with a NaN is false but `ne`, which is
    true. Integers compare signed; booleans unsigned (false < true).

    ```mlir
    %pos = dist.compare %x, %zero {direction = "gt"} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xi1>
    ```
  }];
  let arguments = (ins Dist_Tensor:$x, Dist_Tensor:$y, StrAttr:$direction);
  let results = (outs Dist_BoolTensor:$out);
}

def Dist_SelectOp : Dist_ComputeOp<"select"> {
  let summary = "Elementwise choice by a boolean predicate";
  let description = [{
    `out = pred ? on_true : on_false` (`jnp.where`, `stablehlo.select`),
    the three operands broadcasting as `dist.add` does two. `on_true`,
    `on_false` and `out` have one element type. Its gradient
    (`dist.select_grad`) sends `dout` to `on_true` where `pred` holds and to
    `on_false` elsewhere; the predicate has none.

    ```mlir
    %leaky = dist.select %pos, %x, %scaled : (tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    ```
  }];
  let arguments = (ins Dist_BoolTensor:$pred, Dist_Tensor:$on_true,
                       Dist_Tensor:$on_false);
  let results = (outs Dist_Tensor:$out);
}

def Dist_SelectGradOp : Dist_ComputeOp<"select_grad"> {
  let summary = "Gradient of dist.select";
  let description = [{
    `d_on_true = pred ? dout : 0` and `d_on_false = pred ? 0 : dout`, each
    summed over the dims its operand was broadcast along; `on_true` and
    `on_false` give their shapes.

    ```mlir
    %dt, %df = dist.select_grad %pos, %x, %zero, %dout : (tensor<4x8xi1>, tensor<4x8xf32>, tensor<f32>, tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<f32>)
    ```
  }];
  let arguments = (ins Dist_BoolTensor:$pred, Dist_FloatTensor:$on_true,
                       Dist_FloatTensor:$on_false, Dist_FloatTensor:$dout);
  let results = (outs Dist_FloatTensor:$d_on_true,
                      Dist_FloatTensor:$d_on_false);
}

def Dist_IsFiniteOp : Dist_ComputeOp<"is_finite"> {
  let summary = "Whether each element is finite";
  let description = [{
    `out = x` is neither infinite nor NaN (`stablehlo.is_finite`,
    `jnp.isfinite`: what `jax.nn.logsumexp` and optax's losses test a
    maximum with).

    ```mlir
    %ok = dist.is_finite %m : (tensor<4x1xf32>) -> tensor<4x1xi1>
    ```
  }];
  let arguments = (ins Dist_FloatTensor:$x);
  let results = (outs Dist_BoolTensor:$out);
}

//===----------------------------------------------------------------------===//
// Logic
//===----------------------------------------------------------------------===//

/// `out = x op y` on booleans, or bit by bit on integers, broadcasting as
/// `dist.add`.
class Dist_LogicOp<string mnemonic, string opSummary>
    : Dist_ComputeOp<mnemonic> {
  let summary = opSummary;
  let arguments = (ins Dist_IntTensor:$x, Dist_IntTensor:$y);
  let results = (outs Dist_IntTensor:$out);
}

def Dist_AndOp : Dist_LogicOp<"and", "Elementwise logical (bitwise) and"> {
  let description = [{
    `out = x & y` on booleans or integers of one type, broadcasting as
    `dist.add` (`stablehlo.and`, `jnp.logical_and`).

    ```mlir
    %both = dist.and %causal, %valid : (tensor<8x8xi1>, tensor<1x8xi1>) -> tensor<8x8xi1>
    ```
  }];
}

def Dist_OrOp : Dist_LogicOp<"or", "Elementwise logical (bitwise) or"> {
  let description = [{
    `out = x | y` on booleans or integers of one type, broadcasting as
    `dist.add` (`stablehlo.or`).

    ```mlir
    %either = dist.or %a, %b : (tensor<4x8xi1>, tensor<4x8xi1>) -> tensor<4x8xi1>
    ```
  }];
}

def Dist_XorOp : Dist_LogicOp<"xor", "Elementwise logical (bitwise) exclusive or"> {
  let description = [{
    `out = x ^ y` on booleans or integers of one type, broadcasting as
    `dist.add` (`stablehlo.xor`).

    ```mlir
    %differ = dist.xor %a, %b : (tensor<4x8xi1>, tensor<4x8xi1>) -> tensor<4x8xi1>
    ```
  }];
}

def Dist_NotOp : Dist_ComputeOp<"not", [SameOperandsAndResultType]> {
  let summary = "Elementwise logical (bitwise) negation";
  let description = [{
    `out = !x` on booleans, `~x` bit by bit on integers (`stablehlo.not`).

    ```mlir
    %masked = dist.not %keep : (tensor<4x8xi1>) -> tensor<4x8xi1>
    ```
  }];
  let arguments = (ins Dist_IntTensor:$x);
  let results = (outs Dist_IntTensor:$out);
  let hasVerifier = 0;
}

//===----------------------------------------------------------------------===//
// Index generation
//===----------------------------------------------------------------------===//

def Dist_IotaOp : Dist_ComputeOp<"iota"> {
  let summary = "The positions along one dim";
  let description = [{
    `out[i...] = offset + i[dim]` in the result's element type (an integer
    or a float), for every position `i...` (`stablehlo.iota`,
    `jnp.arange` broadcast): `offset` is an `index` operand, 0 when absent.
    Under a split `dim` the *global* positions count: `dist-partition`
    adds this device's first position along `dim` to the offset.

    ```mlir
    %rows = dist.iota {dim = 0 : i64} : () -> tensor<8x8xi32>
    %pos = dist.iota %start {dim = 1 : i64} : (index) -> tensor<4x16xf32>
    ```
  }];
  let arguments = (ins Optional<Index>:$offset, I64Attr:$dim);
  let results = (outs Dist_NumericTensor:$out);
  let assemblyFormat =
      "($offset^)? attr-dict `:` functional-type(operands, results)";
}

#endif // DIST_LOGIC_OPS_TD
