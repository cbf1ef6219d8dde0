//===- DistOps.td - dist mesh, compute and gradient ops ------*- tablegen -*-===//
//
// Compute ops are written on global shapes. Every op verifies its shapes and
// names the offending value in the message.
//
//===----------------------------------------------------------------------===//

#ifndef DIST_OPS_TD
#define DIST_OPS_TD

include "Dist/DistBase.td"
include "Dist/DistAttrs.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

//===----------------------------------------------------------------------===//
// Mesh
//===----------------------------------------------------------------------===//

def Dist_MeshOp : Dist_Op<"mesh", [Symbol]> {
  let summary = "A named device mesh with named axes";
  let description = [{
    Declares a logical N-D arrangement of devices. Each axis has a name and a
    size >= 1. Devices are numbered row-major over the axes unless an explicit
    `devices` list (a permutation of `0 .. product(sizes) - 1`) maps mesh
    positions, in row-major order, to device ids.

    ```mlir
    dist.mesh @mesh = <["dp"=2, "tp"=4]>
    dist.mesh @ring = <["x"=4], devices = [0, 2, 3, 1]>
    ```
  }];
  let arguments = (ins
    SymbolNameAttr:$sym_name,
    StrArrayAttr:$axis_names,
    DenseI64ArrayAttr:$axis_sizes,
    OptionalAttr<DenseI64ArrayAttr>:$devices
  );
  let assemblyFormat = [{
    $sym_name `=` custom<MeshShape>($axis_names, $axis_sizes, $devices) attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    int64_t getNumDevices();
    /// Index of the axis called `name`, or -1.
    int64_t getAxisIndex(::llvm::StringRef name);
  }];
}

def Dist_AxisIndexOp : Dist_Op<"axis_index",
    [Pure, DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "This device's index in its group along mesh axes";
  let description = [{
    The rank of the executing device in its group over `axes` (the devices
    that differ from it only along those axes, ranked in the order the axes
    are listed, major to minor): a value in `[0, product of their sizes)`.
    Per-device programs (after `dist-partition`) use it to find their
    shard, e.g. the first vocabulary row of an embedding shard.

    ```mlir
    %i = dist.axis_index @mesh axes = ["tp"] : index
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$mesh, StrArrayAttr:$axes);
  let results = (outs Index:$index);
  let assemblyFormat = "$mesh `axes` `=` $axes attr-dict `:` type($index)";
}

//===----------------------------------------------------------------------===//
// Matmul
//===----------------------------------------------------------------------===//

def Dist_MatmulOp : Dist_ComputeOp<"matmul"> {
  let summary = "Batched matrix product with broadcasting (matmul_v2)";
  let description = [{
    `out[b..., m, n] = sum_k x[b..., m, k] * y[b..., k, n]`. Both operands
    have rank >= 2; `transpose_x`/`transpose_y` swap the last two dims of the
    operand first. Leading (batch) dims broadcast NumPy-style: missing dims
    and dims of size 1 stretch.

    ```mlir
    %out = dist.matmul %x, %w {transpose_y}
        : (tensor<4x8x16xf32>, tensor<32x16xf32>) -> tensor<4x8x32xf32>
    ```
  }];
  let arguments = (ins Dist_FloatTensor:$x, Dist_FloatTensor:$y,
                       UnitAttr:$transpose_x, UnitAttr:$transpose_y);
  let results = (outs Dist_FloatTensor:$out);
}

def Dist_MatmulGradOp : Dist_ComputeOp<"matmul_grad"> {
  let summary = "Gradient of dist.matmul with respect to both operands";
  let description = [{
    Given `out = matmul(x, y)` and `dout = d(loss)/d(out)`, returns
    `dx = dout . y^T` (reduces n) and `dy = x^T . dout` (reduces the batch
    dims and m; broadcast batch dims of `y` are summed away). The transpose
    flags are those of the forward op; `dx`/`dy` have the types of `x`/`y`.

    ```mlir
    %dx, %dw = dist.matmul_grad %x, %w, %dout
        : (tensor<8x16xf32>, tensor<16x32xf32>, tensor<8x32xf32>)
        -> (tensor<8x16xf32>, tensor<16x32xf32>)
    ```
  }];
  let arguments = (ins Dist_FloatTensor:$x, Dist_FloatTensor:$y,
                       Dist_FloatTensor:$dout,
                       UnitAttr:$transpose_x, UnitAttr:$transpose_y);
  let results = (outs Dist_FloatTensor:$dx, Dist_FloatTensor:$dy);
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

def Dist_AddOp : Dist_BinaryOp<"add", "Elementwise sum with NumPy broadcasting"> {
  let description = [{
    `out = x + y`. The shapes align at their trailing dims; a missing or
    size-1 dim of either operand stretches to the other's size (a bias, a
    per-row statistic).

    ```mlir
    %out = dist.add %h, %bias : (tensor<8x32xf32>, tensor<32xf32>) -> tensor<8x32xf32>
    ```
  }];
}

def Dist_SubOp : Dist_BinaryOp<"sub", "Elementwise difference with NumPy broadcasting"> {
  let description = [{
    `out = x - y`, broadcasting as `dist.add`.

    ```mlir
    %centered = dist.sub %x, %mean : (tensor<8x32xf32>, tensor<8x1xf32>) -> tensor<8x32xf32>
    ```
  }];
}

def Dist_MulOp : Dist_BinaryOp<"mul", "Elementwise product with NumPy broadcasting"> {
  let description = [{
    `out = x * y`, broadcasting as `dist.add`.

    ```mlir
    %scaled = dist.mul %x, %rstd : (tensor<4x8x32xf32>, tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    ```
  }];
}

def Dist_DivOp : Dist_BinaryOp<"div", "Elementwise quotient with NumPy broadcasting"> {
  let description = [{
    `out = x / y`, broadcasting as `dist.add`.

    ```mlir
    %z = dist.div %x, %r : (tensor<4x8x32xf32>, tensor<4x8x1xf32>) -> tensor<4x8x32xf32>
    ```
  }];
}

def Dist_PowOp : Dist_BinaryOp<"pow", "Elementwise power with NumPy broadcasting"> {
  let description = [{
    `out = x^y`, broadcasting as `dist.add` (`stablehlo.power` of floats,
    `jnp.power`, `torch.pow`): NaN where `x < 0` and `y` is not an integer.

    ```mlir
    %p = dist.pow %x, %two : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
    ```
  }];
}

def Dist_RemOp : Dist_BinaryOp<"rem", "Elementwise remainder with NumPy broadcasting"> {
  let description = [{
    `out = x - trunc(x / y) * y`, broadcasting as `dist.add`: the remainder
    of the division toward zero, of the dividend's sign (`stablehlo.remainder`,
    C's `fmod`, `torch.fmod`; `jnp.remainder` and `torch.remainder` add the
    divisor where the signs differ). Of integers, `x % 0` is `x` and
    `MIN % -1` is 0 (where the machine's division would trap), as XLA.

    ```mlir
    %r = dist.rem %x, %y : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
    ```
  }];
}

def Dist_MaximumOp : Dist_BinaryOp<"maximum", "Elementwise maximum with NumPy broadcasting"> {
  let description = [{
    `out = max(x, y)`, broadcasting as `dist.add`. NaN if either is NaN.

    ```mlir
    %m = dist.maximum %x, %floor : (tensor<4x8xf32>, tensor<1xf32>) -> tensor<4x8xf32>
    ```
  }];
}

def Dist_MinimumOp : Dist_BinaryOp<"minimum", "Elementwise minimum with NumPy broadcasting"> {
  let description = [{
    `out = min(x, y)`, broadcasting as `dist.add`. NaN if either is NaN.

    ```mlir
    %m = dist.minimum %x, %ceiling : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
    ```
  }];
}

def Dist_AddGradOp : Dist_BinaryGradOp<"add_grad", "Gradient of dist.add"> {
  let description = [{
    `dx = dout` and `dy = dout`, each summed over the dims its operand was
    broadcast along (the bias gradient sums over the rows).

    ```mlir
    %dx, %db = dist.add_grad %h, %bias, %dout
        : (tensor<8x32xf32>, tensor<32xf32>, tensor<8x32xf32>)
        -> (tensor<8x32xf32>, tensor<32xf32>)
    ```
  }];
}

def Dist_SubGradOp : Dist_BinaryGradOp<"sub_grad", "Gradient of dist.sub"> {
  let description = [{
    `dx = dout`, `dy = -dout`, each summed over its operand's broadcast dims.

    ```mlir
    %dp, %dt = dist.sub_grad %pred, %target, %dout
        : (tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>)
        -> (tensor<8x4xf32>, tensor<8x4xf32>)
    ```
  }];
}

def Dist_MulGradOp : Dist_BinaryGradOp<"mul_grad", "Gradient of dist.mul"> {
  let description = [{
    `dx = dout * y`, `dy = dout * x`, each summed over its operand's
    broadcast dims.

    ```mlir
    %da, %db = dist.mul_grad %a, %b, %dout
        : (tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>)
        -> (tensor<8x4xf32>, tensor<8x4xf32>)
    ```
  }];
}

def Dist_DivGradOp : Dist_BinaryGradOp<"div_grad", "Gradient of dist.div"> {
  let description = [{
    `dx = dout / y`, `dy = -dout * x / y^2`, each summed over its operand's
    broadcast dims.

    ```mlir
    %dx, %dr = dist.div_grad %x, %r, %dout
        : (tensor<4x8x32xf32>, tensor<4x8x1xf32>, tensor<4x8x32xf32>)
        -> (tensor<4x8x32xf32>, tensor<4x8x1xf32>)
    ```
  }];
}

def Dist_PowGradOp : Dist_BinaryGradOp<"pow_grad", "Gradient of dist.pow"> {
  let description = [{
    `dx = dout * y * x^(y - 1)` (0 where `y` is 0) and
    `dy = dout * ln(x) * x^y` (0 where `x` is 0), as JAX's, each summed over
    its operand's broadcast dims.

    ```mlir
    %dx, %dy = dist.pow_grad %x, %y, %dout
        : (tensor<4x8xf32>, tensor<f32>, tensor<4x8xf32>)
        -> (tensor<4x8xf32>, tensor<f32>)
    ```
  }];
}

def Dist_RemGradOp : Dist_BinaryGradOp<"rem_grad", "Gradient of dist.rem"> {
  let description = [{
    `dx = dout` and `dy = -dout * trunc(x / y)`, as JAX's, each summed over
    its operand's broadcast dims (the remainder steps where `x / y` crosses
    an integer; between the steps this is its derivative).

    ```mlir
    %dx, %dy = dist.rem_grad %x, %y, %dout
        : (tensor<4x8xf32>, tensor<f32>, tensor<4x8xf32>)
        -> (tensor<4x8xf32>, tensor<f32>)
    ```
  }];
}

def Dist_MaximumGradOp : Dist_BinaryGradOp<"maximum_grad", "Gradient of dist.maximum"> {
  let description = [{
    `dout` goes to the larger operand, half to each where they are equal
    (as JAX's), each summed over its operand's broadcast dims.

    ```mlir
    %dx, %dy = dist.maximum_grad %x, %y, %dout
        : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>)
        -> (tensor<4x8xf32>, tensor<4x8xf32>)
    ```
  }];
}

def Dist_MinimumGradOp : Dist_BinaryGradOp<"minimum_grad", "Gradient of dist.minimum"> {
  let description = [{
    `dout` goes to the smaller operand, half to each where they are equal,
    each summed over its operand's broadcast dims.

    ```mlir
    %dx, %dy = dist.minimum_grad %x, %y, %dout
        : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>)
        -> (tensor<4x8xf32>, tensor<4x8xf32>)
    ```
  }];
}

def Dist_CastOp : Dist_ComputeOp<"cast"> {
  let summary = "Elementwise conversion between element types";
  let description = [{
    `out = x` in the result's element type (`stablehlo.convert`): between
    floats (f32, f64, bf16, f16) rounding to nearest even when it narrows
    (from f64 to a 16-bit type, and between bf16 and f16, through f32);
    from a float to an integer rounding toward zero (NaN and values out of
    range are undefined, as in C); from an integer (signed) or a boolean
    (false 0, true 1) to a float, rounding to nearest even; between
    integers sign-extending or truncating, a boolean extending as 0 or 1;
    to a boolean, `x != 0`. The shape is kept. Between floats the gradient
    casts `dout` back to the type of `x`, so a bf16 compute graph between
    casts of f32 master weights gives f32 gradients for them; a boolean or
    integer end carries none.

    ```mlir
    %h = "dist.cast"(%w) : (tensor<4x8xf32>) -> tensor<4x8xbf16>
    %w2 = dist.cast %h : (tensor<4x8xbf16>) -> tensor<4x8xf32>
    %m = dist.cast %keep : (tensor<4x8xi1>) -> tensor<4x8xf32>
    ```
  }];
  let arguments = (ins Dist_NumericTensor:$x);
  let results = (outs Dist_NumericTensor:$out);
}

def Dist_ScaleOp : Dist_ComputeOp<"scale", [SameOperandsAndResultType]> {
  let summary = "Multiplication by a compile-time constant";
  let description = [{
    `out = factor * x`. Linear, so it is its own gradient
    (`dx = scale(dout, factor)`).

    ```mlir
    %out = dist.scale %x {factor = 5.000000e-01 : f64} : (tensor<8xf32>) -> tensor<8xf32>
    ```
  }];
  let arguments = (ins Dist_FloatTensor:$x, F64Attr:$factor);
  let results = (outs Dist_FloatTensor:$out);
  let hasVerifier = 0;
}

def Dist_GeluOp : Dist_ComputeOp<"gelu", [SameOperandsAndResultType]> {
  let summary = "Gaussian error linear unit";
  let description = [{
    `approximate = "none"` (default) is the exact erf form,
    `approximate = "tanh"` the tanh approximation.

    ```mlir
    %out = dist.gelu %x {approximate = "tanh"} : (tensor<8x64xf32>) -> tensor<8x64xf32>
    ```
  }];
  let arguments = (ins Dist_FloatTensor:$x,
                       DefaultValuedStrAttr<StrAttr, "none">:$approximate);
  let results = (outs Dist_FloatTensor:$out);
}

def Dist_GeluGradOp : Dist_ComputeOp<"gelu_grad", [SameOperandsAndResultType]> {
  let summary = "Gradient of dist.gelu";
  let description = [{
    `dx = dout * gelu'(x)` for the same `approximate` form as the forward op.

    ```mlir
    %dx = dist.gelu_grad %x, %dout {approximate = "tanh"}
        : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
    ```
  }];
  let arguments = (ins Dist_FloatTensor:$x, Dist_FloatTensor:$dout,
                       DefaultValuedStrAttr<StrAttr, "none">:$approximate);
  let results = (outs Dist_FloatTensor:$dx);
}

def Dist_ReluOp : Dist_UnaryOp<"relu", "Rectified linear unit"> {
  let description = [{
    `out = max(x, 0)`.

    ```mlir
    %out = dist.relu %x : (tensor<8x64xf32>) -> tensor<8x64xf32>
    ```
  }];
}

def Dist_ReluGradOp : Dist_UnaryGradOp<"relu_grad", "Gradient of dist.relu"> {
  let description = [{
    `dx = x > 0 ? dout : 0`.

    ```mlir
    %dx = dist.relu_grad %x, %dout : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
    ```
  }];
}

//===----------------------------------------------------------------------===//
// Normalization, embedding, softmax
//===----------------------------------------------------------------------===//

def Dist_LayerNormOp : Dist_ComputeOp<"layer_norm"> {
  let summary = "Layer normalization over the dims from begin_norm_axis on";
  let description = [{
    Normalizes `x` over dims `[begin_norm_axis, rank)`. `scale` and `bias`
    have the shape of those dims; `mean` and `rstd` (1 / sqrt(var + epsilon),
    the variance the population's, `epsilon` 1e-5 unless given, as in
    PyTorch's `LayerNorm`; Flax's default is 1e-6) have the shape of dims
    `[0, begin_norm_axis)` and are saved for the gradient.

    ```mlir
    %y, %mean, %rstd = dist.layer_norm %x, %g, %b {begin_norm_axis = 1 : i64, epsilon = 1.000000e-05 : f32}
        : (tensor<8x32xf32>, tensor<32xf32>, tensor<32xf32>)
        -> (tensor<8x32xf32>, tensor<8xf32>, tensor<8xf32>)
    ```
  }];
  let arguments = (ins Dist_FloatTensor:$x, Dist_FloatTensor:$scale,
                       Dist_FloatTensor:$bias, I64Attr:$begin_norm_axis,
                       DefaultValuedAttr<F32Attr, "1.0e-5">:$epsilon);
  let results = (outs Dist_FloatTensor:$y, Dist_FloatTensor:$mean,
                      Dist_FloatTensor:$rstd);
}

def Dist_LayerNormGradOp : Dist_ComputeOp<"layer_norm_grad"> {
  let summary = "Gradient of dist.layer_norm";
  let description = [{
    Returns `dx`, and `dscale`/`dbias`, which sum over dims
    `[0, begin_norm_axis)`.

    ```mlir
    %dx, %dg, %db = dist.layer_norm_grad %x, %g, %mean, %rstd, %dy {begin_norm_axis = 1 : i64}
        : (tensor<8x32xf32>, tensor<32xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8x32xf32>)
        -> (tensor<8x32xf32>, tensor<32xf32>, tensor<32xf32>)
    ```
  }];
  let arguments = (ins Dist_FloatTensor:$x, Dist_FloatTensor:$scale,
                       Dist_FloatTensor:$mean, Dist_FloatTensor:$rstd,
                       Dist_FloatTensor:$dy, I64Attr:$begin_norm_axis);
  let results = (outs Dist_FloatTensor:$dx, Dist_FloatTensor:$dscale,
                      Dist_FloatTensor:$dbias);
}

def Dist_RmsNormOp : Dist_ComputeOp<"rms_norm"> {
  let summary = "Root-mean-square normalization over the dims from begin_norm_axis on";
  let description = [{
    `y = x * rstd * scale` with `rstd = 1 / sqrt(mean(x^2) + epsilon)`
    (`epsilon` 1e-5 unless given), the
    mean over dims `[begin_norm_axis, rank)` (Llama's RMSNorm). `scale` has
    the shape of those dims; `rstd`, of dims `[0, begin_norm_axis)`, is
    saved for the gradient.

    ```mlir
    %y, %rstd = dist.rms_norm %x, %g {begin_norm_axis = 2 : i64, epsilon = 1.000000e-05 : f32}
        : (tensor<4x8x32xf32>, tensor<32xf32>) -> (tensor<4x8x32xf32>, tensor<4x8xf32>)
    ```
  }];
  let arguments = (ins Dist_FloatTensor:$x, Dist_FloatTensor:$scale,
                       I64Attr:$begin_norm_axis,
                       DefaultValuedAttr<F32Attr, "1.0e-5">:$epsilon);
  let results = (outs Dist_FloatTensor:$y, Dist_FloatTensor:$rstd);
}

def Dist_RmsNormGradOp : Dist_ComputeOp<"rms_norm_grad"> {
  let summary = "Gradient of dist.rms_norm";
  let description = [{
    With `xhat = x * rstd` and `g = dy * scale`: `dx = rstd * (g - xhat *
    mean(g * xhat))` (the mean over the normalized dims), and `dscale`, the
    sum of `dy * xhat` over dims `[0, begin_norm_axis)`.

    ```mlir
    %dx, %dg = dist.rms_norm_grad %x, %g, %rstd, %dy {begin_norm_axis = 2 : i64}
        : (tensor<4x8x32xf32>, tensor<32xf32>, tensor<4x8xf32>, tensor<4x8x32xf32>)
        -> (tensor<4x8x32xf32>, tensor<32xf32>)
    ```
  }];
  let arguments = (ins Dist_FloatTensor:$x, Dist_FloatTensor:$scale,
                       Dist_FloatTensor:$rstd, Dist_FloatTensor:$dy,
                       I64Attr:$begin_norm_axis);
  let results = (outs Dist_FloatTensor:$dx, Dist_FloatTensor:$dscale);
}

def Dist_CausalMaskOp : Dist_ComputeOp<"causal_mask"> {
  let summary = "Attention scores with the future masked to -inf";
  let description = [{
    The last two dims of `scores` are the query and the key position:
    `out[..., q, k] = k > q ? -inf : scores[..., q, k]`, so a softmax over
    the keys gives no weight to later positions. No S x S mask is stored.
    Two trailing `index` operands (query, then key) give the positions of
    the first query and key (a chunk of queries after a cached prefix);
    none means 0 and 0. Under a split query or key dim the *global*
    positions count: `dist-partition` adds each dim's first position on
    this device to the given offsets.

    ```mlir
    %p = dist.causal_mask %s : (tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    %c = dist.causal_mask %s, %q0, %k0 : (tensor<4x4x8x16xf32>, index, index) -> tensor<4x4x8x16xf32>
    ```
  }];
  let arguments = (ins Dist_FloatTensor:$scores, Variadic<Index>:$offsets);
  let results = (outs Dist_FloatTensor:$out);
}

def Dist_CausalMaskGradOp : Dist_ComputeOp<"causal_mask_grad"> {
  let summary = "Gradient of dist.causal_mask";
  let description = [{
    `dx[..., q, k] = k > q ? 0 : dout[..., q, k]`, with the same offsets as
    the forward op under a split query or key dim.

    ```mlir
    %dx = dist.causal_mask_grad %dout : (tensor<4x4x8x8xf32>) -> tensor<4x4x8x8xf32>
    ```
  }];
  let arguments = (ins Dist_FloatTensor:$dout, Variadic<Index>:$offsets);
  let results = (outs Dist_FloatTensor:$dx);
}

def Dist_AttentionOp : Dist_ComputeOp<"attention"> {
  let summary = "Scaled dot-product attention, causal or not, in blocks that skip masked work";
  let description = [{
    `out = softmax(scale * q k^T + mask) v` over the last two dims (queries
    then features of `q`; keys then features of `k` and `v`), and `lse`, the
    log-sum-exp of each query's row of masked scores (f32, f64 for f64
    inputs), saved for the
    gradient. The leading dims of `k` and `v` are one shape, each dim
    `q`'s or 1: a size-1 dim broadcasts over the query heads that share a
    key head (grouped-query attention). No scores tensor is stored: the lowering
    goes over blocks of queries and keys with a running maximum and sum
    (FlashAttention's), and a block whose keys all come after its queries
    is skipped, so causal attention costs half of the full one.

    With `causal`, query `i` sees key `j` where `position(j) <=
    position(offset + i)`; `offset`, the index of the first query among
    the keys, is 0 unless given (`dist-partition` gives each shard of a
    split query dim its own; `offset` plus the queries is at most the
    keys). Positions are the indices themselves, or
    with `balance = S` the order `dist-gen llama --balance` stores a
    sequence in for `S` shards of context parallelism: of `2 S` equal
    chunks, shard `s` holds chunks `s` and `2 S - 1 - s`
    (`scripts/npy.py balance`), so that under the mask every shard does the
    same work.

    ```mlir
    %o, %lse = dist.attention %q, %k, %v {causal, scale = 0.125 : f64}
        : (tensor<2x4x2x64x64xf32>, tensor<2x4x1x64x64xf32>, tensor<2x4x1x64x64xf32>)
        -> (tensor<2x4x2x64x64xf32>, tensor<2x4x2x64xf32>)
    %b, %m = dist.attention %q, %k, %v, %first {balance = 2 : i64, causal, scale = 0.125 : f64}
        : (tensor<2x8x32x64xf32>, tensor<2x8x64x64xf32>, tensor<2x8x64x64xf32>, index)
        -> (tensor<2x8x32x64xf32>, tensor<2x8x32xf32>)
    ```
  }];
  let arguments = (ins Dist_FloatTensor:$q, Dist_FloatTensor:$k,
                       Dist_FloatTensor:$v, Optional<Index>:$offset,
                       F64Attr:$scale, UnitAttr:$causal,
                       OptionalAttr<I64Attr>:$balance);
  let results = (outs Dist_FloatTensor:$out, Dist_FloatTensor:$lse);
}

def Dist_AttentionGradOp : Dist_ComputeOp<"attention_grad"> {
  let summary = "Gradient of dist.attention";
  let description = [{
    With `p = exp(scale * q k^T + mask - lse)` (the forward's attention
    weights, recomputed block by block from the saved `lse`) and `D` the
    row sums of `dout * out`: `dv = p^T dout`, `ds = p * (dout v^T - D)`,
    `dq = scale * ds k` and `dk = scale * ds^T q`, each of its operand's
    type (summed over the dims `k` and `v` broadcast). The mask, `offset`,
    `balance` and skipped blocks are the forward's.

    ```mlir
    %dq, %dk, %dv = dist.attention_grad %q, %k, %v, %o, %lse, %do {causal, scale = 0.125 : f64}
        : (tensor<2x8x64x64xf32>, tensor<2x8x64x64xf32>, tensor<2x8x64x64xf32>,
           tensor<2x8x64x64xf32>, tensor<2x8x64xf32>, tensor<2x8x64x64xf32>)
        -> (tensor<2x8x64x64xf32>, tensor<2x8x64x64xf32>, tensor<2x8x64x64xf32>)
    ```
  }];
  let arguments = (ins Dist_FloatTensor:$q, Dist_FloatTensor:$k,
                       Dist_FloatTensor:$v, Dist_FloatTensor:$out,
                       Dist_FloatTensor:$lse, Dist_FloatTensor:$dout,
                       Optional<Index>:$offset, F64Attr:$scale,
                       UnitAttr:$causal, OptionalAttr<I64Attr>:$balance);
  let results = (outs Dist_FloatTensor:$dq, Dist_FloatTensor:$dk,
                      Dist_FloatTensor:$dv);
}

def Dist_MaskPaddingOp : Dist_ComputeOp<"mask_padding"> {
  let summary = "The padding of an unevenly split dim replaced by a fill value";
  let description = [{
    A dim of `size` entries split over more devices than divide it is split
    as GSPMD splits it: shards of ceil(size / devices), the last ones padded.
    `out = x` where the global position `offset + i` along `dim` is below
    `size`, and `fill` elsewhere. `dist-partition` inserts it before an op
    that sums over such a dim (fill 0) or takes its maximum (-inf) or
    minimum (+inf), so that the padding adds nothing to the result.

    ```mlir
    %m = dist.mask_padding %x, %first {dim = 1 : i64, size = 1001 : i64, fill = 0xFFF0000000000000 : f64} : (tensor<8x251xf32>, index) -> tensor<8x251xf32>
    ```
  }];
  let arguments = (ins Dist_FloatTensor:$x, Index:$offset, I64Attr:$dim,
                       I64Attr:$size, F64Attr:$fill);
  let results = (outs Dist_FloatTensor:$out);
}

def Dist_EmbeddingOp : Dist_ComputeOp<"embedding"> {
  let summary = "Row lookup in an embedding table";
  let description = [{
    `out[i..., h] = table[ids[i...], h]` for an integer `ids` tensor and a
    `[vocab, hidden]` table. With an `offset` (the program's, plus each
    shard's first row where `dist-partition` splits the vocabulary) the
    table holds rows `offset ..
    offset + vocab - 1` of the full one, and ids outside that range give
    zero rows (the other shards supply them: the result is partial).

    ```mlir
    %h = dist.embedding %ids, %table : (tensor<4x16xi64>, tensor<1000x64xf32>) -> tensor<4x16x64xf32>
    %p = dist.embedding %ids, %shard, %offset : (tensor<4x16xi64>, tensor<250x64xf32>, index) -> tensor<4x16x64xf32>
    ```
  }];
  let arguments = (ins Dist_IntTensor:$ids, Dist_FloatTensor:$table,
                       Optional<Index>:$offset);
  let results = (outs Dist_FloatTensor:$out);
}

def Dist_EmbeddingGradOp : Dist_ComputeOp<"embedding_grad"> {
  let summary = "Gradient of dist.embedding with respect to the table";
  let description = [{
    Scatter-adds the rows of `dout` into a zero table: `dtable[v, h] =
    sum over ids[i...] == v of dout[i..., h]`. `table` gives the shape. With
    an `offset` the table is rows `offset ..` of the full one and ids
    outside it are skipped.

    ```mlir
    %dt = dist.embedding_grad %ids, %table, %dout
        : (tensor<4x16xi64>, tensor<1000x64xf32>, tensor<4x16x64xf32>) -> tensor<1000x64xf32>
    ```
  }];
  let arguments = (ins Dist_IntTensor:$ids, Dist_FloatTensor:$table,
                       Dist_FloatTensor:$dout, Optional<Index>:$offset);
  let results = (outs Dist_FloatTensor:$dtable);
}

def Dist_SoftmaxOp : Dist_ComputeOp<"softmax", [SameOperandsAndResultType]> {
  let summary = "Softmax along one axis";
  let description = [{
    `axis` may be negative (counted from the end).

    ```mlir
    %p = dist.softmax %s {axis = -1 : i64} : (tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    ```
  }];
  let arguments = (ins Dist_FloatTensor:$x, I64Attr:$axis);
  let results = (outs Dist_FloatTensor:$out);
}

def Dist_SoftmaxGradOp : Dist_ComputeOp<"softmax_grad", [SameOperandsAndResultType]> {
  let summary = "Gradient of dist.softmax from its output";
  let description = [{
    `dx = y * (dy - sum(dy * y, axis))` where `y` is the softmax output.

    ```mlir
    %ds = dist.softmax_grad %p, %dp {axis = -1 : i64}
        : (tensor<4x8x8xf32>, tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    ```
  }];
  let arguments = (ins Dist_FloatTensor:$y, Dist_FloatTensor:$dy, I64Attr:$axis);
  let results = (outs Dist_FloatTensor:$dx);
}

def Dist_TakeAlongOp : Dist_ComputeOp<"take_along"> {
  let summary = "One entry of the last dim per position, by integer index";
  let description = [{
    `out[i...] = x[i..., idx[i...]]` (NumPy's `take_along_axis` on the last
    dim): `idx` has the shape of `x` without its last dim. With an `offset`
    (the program's, plus each shard's first entry where `dist-partition`
    splits that dim) `x` holds entries
    `offset .. offset + n - 1` of it, and an index outside gives 0 (another
    shard holds it: the result is partial, a sum over the split). An index
    outside the whole dim gives 0 too.

    ```mlir
    %picked = dist.take_along %logits, %labels : (tensor<4x8x64xf32>, tensor<4x8xi64>) -> tensor<4x8xf32>
    ```
  }];
  let arguments = (ins Dist_FloatTensor:$x, Dist_IntTensor:$idx,
                       Optional<Index>:$offset);
  let results = (outs Dist_FloatTensor:$out);
}

def Dist_TakeAlongGradOp : Dist_ComputeOp<"take_along_grad"> {
  let summary = "Gradient of dist.take_along: dout scattered to the indexed entries";
  let description = [{
    `dx[i..., v] = v == idx[i...] ? dout[i...] : 0`, `dx` of the forward
    operand's type. `dout` broadcasts NumPy-style against `idx` (a scalar
    gives every picked entry the same value: a one-hot tensor times it);
    `offset` as for `dist.take_along`.

    ```mlir
    %dx = dist.take_along_grad %labels, %dout : (tensor<4x8xi64>, tensor<4x8xf32>) -> tensor<4x8x64xf32>
    ```
  }];
  let arguments = (ins Dist_IntTensor:$idx, Dist_FloatTensor:$dout,
                       Optional<Index>:$offset);
  let results = (outs Dist_FloatTensor:$dx);
}

def Dist_TopKOp : Dist_ComputeOp<"top_k"> {
  let summary = "The k largest entries of the last dim, and their indices";
  let description = [{
    `values[i..., j]` is the `j`-th largest entry of `x[i..., :]` and
    `indices[i..., j]` its index, for `j < k` (`jax.lax.top_k`,
    `torch.topk`): sorted from the largest in the floats' total order (as
    JAX's top_k sorts: `-NaN < -inf < ... < -0.0 < +0.0 < ... < +inf <
    +NaN`), entries of the same bits in index order. A mixture-of-experts router picks each
    token's experts with it. The values' gradient goes back to the picked
    entries (`dist.top_k_grad`); the indices have none. The last dim is
    whole on each device (a split one is gathered first).

    ```mlir
    %weights, %experts = dist.top_k %scores {k = 2 : i64} : (tensor<4x8x8xf32>) -> (tensor<4x8x2xf32>, tensor<4x8x2xi64>)
    ```
  }];
  let arguments = (ins Dist_FloatTensor:$x, I64Attr:$k);
  let results = (outs Dist_FloatTensor:$values, Dist_IntTensor:$indices);
}

def Dist_TopKGradOp : Dist_ComputeOp<"top_k_grad"> {
  let summary = "Gradient of dist.top_k: dvalues added to the picked entries";
  let description = [{
    `dx[i..., v]` is the sum of `dvalues[i..., j]` over the `j` with
    `indices[i..., j] == v` (0 where there is none), `dx` of the forward
    operand's type: its last dim, which the indices index, is the
    result's.

    ```mlir
    %dscores = dist.top_k_grad %experts, %dweights : (tensor<4x8x2xi64>, tensor<4x8x2xf32>) -> tensor<4x8x8xf32>
    ```
  }];
  let arguments = (ins Dist_IntTensor:$indices, Dist_FloatTensor:$dvalues);
  let results = (outs Dist_FloatTensor:$dx);
}

def Dist_CrossEntropyOp : Dist_ComputeOp<"cross_entropy"> {
  let summary = "Mean softmax cross-entropy of logits against integer labels";
  let description = [{
    The mean over every position `t` (all dims but the last) of
    `logsumexp(logits[t, :]) - logits[t, labels[t]]`, computed stably (the
    row's maximum subtracted before the exponentials), `V` the last dim. A
    label outside `[0, V)` picks no logit (0, as `dist.take_along`): its
    position contributes its log-sum-exp, and its gradient no one-hot.

    With `ignore_index` (PyTorch's: Hugging Face pads shifted labels with
    -100) the positions whose label equals it are left out of the sum and
    of the count: the mean is over the others (NaN when there are none, as
    PyTorch's).

    Split over a mesh axis along the vocabulary, no device holds a whole
    row: `dist-decompose` expands the op into the row maximum, the sum of
    the exponentials and the picked logit, reductions that such a split
    leaves partial (max, then sum), so resolution places Megatron's
    vocab-parallel cross-entropy, three all-reduces of one value per
    position.

    ```mlir
    %loss = dist.cross_entropy %logits, %labels : (tensor<4x8x64xf32>, tensor<4x8xi64>) -> tensor<f32>
    %mean = dist.cross_entropy %logits, %labels {ignore_index = -100 : i64}
        : (tensor<4x8x64xf32>, tensor<4x8xi64>) -> tensor<f32>
    ```
  }];
  let arguments = (ins Dist_FloatTensor:$logits, Dist_IntTensor:$labels,
                       OptionalAttr<I64Attr>:$ignore_index);
  let results = (outs Dist_FloatTensor:$loss);
}

def Dist_CrossEntropyGradOp : Dist_ComputeOp<"cross_entropy_grad"> {
  let summary = "Gradient of dist.cross_entropy with respect to the logits";
  let description = [{
    `dlogits[t, v] = (softmax(logits[t, :])[v] - (v == labels[t])) * dloss / N`,
    `N` the number of positions; with `ignore_index` (that of the forward
    op), 0 at the positions whose label equals it and `N` the number of
    the others.

    ```mlir
    %dlogits = dist.cross_entropy_grad %logits, %labels, %dloss
        : (tensor<4x8x64xf32>, tensor<4x8xi64>, tensor<f32>) -> tensor<4x8x64xf32>
    ```
  }];
  let arguments = (ins Dist_FloatTensor:$logits, Dist_IntTensor:$labels,
                       Dist_FloatTensor:$dloss, OptionalAttr<I64Attr>:$ignore_index);
  let results = (outs Dist_FloatTensor:$dlogits);
}

//===----------------------------------------------------------------------===//
// Reductions and shape ops
//===----------------------------------------------------------------------===//

class Dist_ReduceOp<string mnemonic, string opSummary, string formula,
                    Type tensor = Dist_FloatTensor, string ofIntegers = "">
    : Dist_ComputeOp<mnemonic> {
  let summary = opSummary;
  let description = "Reduces `x` over `dims` (distinct, in `[0, rank)`): " # formula # [{.
    With `keepdim` the reduced dims stay as size 1.}] # ofIntegers # [{

    ```mlir
    %s = dist.}] # mnemonic # [{ %x {dims = array<i64: 1>} : (tensor<8x32xf32>) -> tensor<8xf32>
    ```
  }];
  let arguments = (ins tensor:$x, DenseI64ArrayAttr:$dims,
                       UnitAttr:$keepdim);
  let results = (outs tensor:$out);
}

/// What the reductions that also take integers and booleans say of them.
defvar Dist_DiscreteReduction = [{

    Of integers and booleans (of no gradient) it reads the reduced dims
    whole: a partial value is a float.}];

class Dist_ReduceGradOp<string mnemonic, string forward>
    : Dist_ComputeOp<mnemonic> {
  let summary = "Gradient of dist." # forward;
  let description = "Broadcasts `dout` back to the shape of `x`"
      # !if(!eq(forward, "reduce_mean"), ", divided by the number of reduced elements", "")
      # [{. `dims` and `keepdim` are those of the forward op.

    ```mlir
    %dx = dist.}] # mnemonic # [{ %x, %dout {dims = array<i64: 1>}
        : (tensor<8x32xf32>, tensor<8xf32>) -> tensor<8x32xf32>
    ```
  }];
  let arguments = (ins Dist_FloatTensor:$x, Dist_FloatTensor:$dout,
                       DenseI64ArrayAttr:$dims, UnitAttr:$keepdim);
  let results = (outs Dist_FloatTensor:$dx);
}

def Dist_ReduceSumOp : Dist_ReduceOp<"reduce_sum", "Sum over dims",
    "the sum (of integers, wrapping on overflow; booleans sum with `dist.reduce_max`)",
    Dist_NumericTensor, Dist_DiscreteReduction>;
def Dist_ReduceMeanOp : Dist_ReduceOp<"reduce_mean", "Mean over dims", "the arithmetic mean">;
def Dist_ReduceSumGradOp : Dist_ReduceGradOp<"reduce_sum_grad", "reduce_sum">;
def Dist_ReduceMeanGradOp : Dist_ReduceGradOp<"reduce_mean_grad", "reduce_mean">;
def Dist_ReduceMaxOp : Dist_ReduceOp<"reduce_max", "Maximum over dims",
    "the largest element (NaN if one is NaN; integers signed; of booleans, their or); a reduced dim split over a "
    "mesh axis leaves it `partial = max` there", Dist_NumericTensor, Dist_DiscreteReduction>;
def Dist_ReduceMinOp : Dist_ReduceOp<"reduce_min", "Minimum over dims",
    "the smallest element (NaN if one is NaN; integers signed; of booleans, their and); a reduced dim split over a "
    "mesh axis leaves it `partial = min` there", Dist_NumericTensor, Dist_DiscreteReduction>;

/// The gradient of a reduction that chooses an element: `dout` goes to
/// every element equal to the reduced value (`out`, the forward result).
class Dist_ReduceChoiceGradOp<string mnemonic, string forward>
    : Dist_ComputeOp<mnemonic> {
  let summary = "Gradient of dist." # forward;
  let description = [{
    `dx = x == out ? dout : 0`, `out` and `dout` broadcast back over the
    reduced dims (`dims` and `keepdim` are those of the forward op). Every
    element equal to the reduced value gets `dout`: on one device or split
    over the reduced dims, each element is compared with the global value.

    ```mlir
    %dx = dist.}] # mnemonic # [{ %x, %out, %dout {dims = array<i64: 1>}
        : (tensor<8x32xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<8x32xf32>
    ```
  }];
  let arguments = (ins Dist_FloatTensor:$x, Dist_FloatTensor:$out,
                       Dist_FloatTensor:$dout, DenseI64ArrayAttr:$dims,
                       UnitAttr:$keepdim);
  let results = (outs Dist_FloatTensor:$dx);
}

def Dist_CumsumOp : Dist_ComputeOp<"cumsum", [SameOperandsAndResultType]> {
  let summary = "Running sum along a dim";
  let description = [{
    `out[..., i, ...] = sum over k <= i of x[..., k, ...]` along `dim`
    (with `reverse`, over `k >= i`): `jnp.cumsum`, `torch.cumsum`, which
    StableHLO writes as a `reduce_window` that adds over a window padded to
    the dim's length; mixture-of-experts dispatch numbers each token's
    place in its expert's buffer with it. Of floats and integers
    (wrapping). Its gradient is the running sum of `dout` the other way.
    The summed dim is whole on each device (a split one is gathered
    first); the op is linear, so a partial `x` passes through.

    ```mlir
    %positions = dist.cumsum %onehot {dim = 1 : i64} : (tensor<4x8x2xi32>) -> tensor<4x8x2xi32>
    %dx = dist.cumsum %dout {dim = 1 : i64, reverse} : (tensor<4x8x2xf32>) -> tensor<4x8x2xf32>
    ```
  }];
  let arguments = (ins Dist_NumericTensor:$x, I64Attr:$dim, UnitAttr:$reverse);
  let results = (outs Dist_NumericTensor:$out);
}

def Dist_ReduceMaxGradOp : Dist_ReduceChoiceGradOp<"reduce_max_grad", "reduce_max">;
def Dist_ReduceMinGradOp : Dist_ReduceChoiceGradOp<"reduce_min_grad", "reduce_min">;

def Dist_ReshapeOp : Dist_ComputeOp<"reshape"> {
  let summary = "Reshape to a type with the same number of elements";
  let description = [{
    Row-major reshape. It is its own gradient (reshape back).

    ```mlir
    %flat = dist.reshape %x : (tensor<4x8x32xf32>) -> tensor<32x32xf32>
    ```
  }];
  let arguments = (ins Dist_Tensor:$x);
  let results = (outs Dist_Tensor:$out);
}

def Dist_SliceOp : Dist_ComputeOp<"slice"> {
  let summary = "A static rectangular slice with unit strides";
  let description = [{
    `out[i] = x[offsets + i]` for `i < sizes` in every dim. A dim it slices
    (fewer than all of its entries) is not split over a mesh axis: slicing a
    split dim gathers it first, so any layout of `x` is correct. Its
    gradient is `dist.slice_grad`.

    ```mlir
    %x2 = dist.slice %x {offsets = array<i64: 0, 0, 0, 4>, sizes = array<i64: 4, 4, 8, 4>}
        : (tensor<4x4x8x8xf32>) -> tensor<4x4x8x4xf32>
    ```
  }];
  let arguments = (ins Dist_Tensor:$x, DenseI64ArrayAttr:$offsets,
                       DenseI64ArrayAttr:$sizes);
  let results = (outs Dist_Tensor:$out);
}

def Dist_SliceGradOp : Dist_ComputeOp<"slice_grad"> {
  let summary = "Gradient of dist.slice: dout placed in zeros";
  let description = [{
    `dx` has the forward operand's type: `dout` at `offsets`, zero
    elsewhere.

    ```mlir
    %dx = dist.slice_grad %dout {offsets = array<i64: 0, 0, 0, 4>}
        : (tensor<4x4x8x4xf32>) -> tensor<4x4x8x8xf32>
    ```
  }];
  let arguments = (ins Dist_FloatTensor:$dout, DenseI64ArrayAttr:$offsets);
  let results = (outs Dist_FloatTensor:$dx);
}

def Dist_ConcatOp : Dist_ComputeOp<"concat"> {
  let summary = "Concatenation along one dim";
  let description = [{
    The operands, equal in every other dim, one after the other along
    `dim`. That dim is not split over a mesh axis (its operands are
    gathered along it first). Its gradient is `dist.concat_grad`.

    ```mlir
    %c = dist.concat %a, %b {dim = 3 : i64}
        : (tensor<4x4x8x4xf32>, tensor<4x4x8x4xf32>) -> tensor<4x4x8x8xf32>
    ```
  }];
  let arguments = (ins Variadic<Dist_Tensor>:$inputs, I64Attr:$dim);
  let results = (outs Dist_Tensor:$out);
}

def Dist_ConcatGradOp : Dist_ComputeOp<"concat_grad"> {
  let summary = "Gradient of dist.concat: dout cut back into the operands";
  let description = [{
    One result per forward operand, each of its type: the slice of `dout`
    along `dim` that operand filled.

    ```mlir
    %da, %db = dist.concat_grad %dout {dim = 3 : i64}
        : (tensor<4x4x8x8xf32>) -> (tensor<4x4x8x4xf32>, tensor<4x4x8x4xf32>)
    ```
  }];
  let arguments = (ins Dist_FloatTensor:$dout, I64Attr:$dim);
  let results = (outs Variadic<Dist_FloatTensor>:$grads);
}

def Dist_TransposeOp : Dist_ComputeOp<"transpose"> {
  let summary = "Permutation of dims";
  let description = [{
    `out.shape[i] = x.shape[perm[i]]`. Its gradient is the transpose by the
    inverse permutation.

    ```mlir
    %t = dist.transpose %x {perm = array<i64: 0, 2, 1>} : (tensor<4x8x16xf32>) -> tensor<4x16x8xf32>
    ```
  }];
  let arguments = (ins Dist_Tensor:$x, DenseI64ArrayAttr:$perm);
  let results = (outs Dist_Tensor:$out);
}

#endif // DIST_OPS_TD
