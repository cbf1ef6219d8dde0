//===- DistOptimizerOps.td - dist optimizer steps -------------*- tablegen -*-===//
//
// The update of a parameter from its gradient, in the program, so that the
// layouts of parameters and optimizer states decide where the update runs
// and what it communicates (ZeRO by annotation). Both ops are elementwise:
// every tensor operand and result but AdamW's step count has the
// parameter's type, f32 or f64: half-precision training keeps f32 master
// weights and states (in bf16, beta2 = 0.999 rounds to 1 and the bias
// correction divides by zero).
//
//===----------------------------------------------------------------------===//

#ifndef DIST_OPTIMIZER_OPS_TD
#define DIST_OPTIMIZER_OPS_TD

include "Dist/DistBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Dist_AdamWOp : Dist_Op<"adamw", [Pure]> {
  let summary = "One AdamW step (PyTorch's AdamW): the new parameter and moments";
  let description = [{
    With `t` the value of `step` (the 1-based step count, a rank-0 f32
    tensor, so that one compiled step serves every iteration) and `g` the
    gradient:

    ```
    m' = beta1 m + (1 - beta1) g
    v' = beta2 v + (1 - beta2) g^2
    param' = param - lr (m' / (1 - beta1^t) / (sqrt(v' / (1 - beta2^t)) + epsilon)
                         + weight_decay param)
    ```

    Every tensor but `step` has the parameter's type, f32 or f64. The
    verifier requires finite `lr >= 0`, `0 <= beta1, beta2 < 1`, finite
    `epsilon > 0` and finite `weight_decay >= 0`. A step count of 0 would
    divide by zero (`1 - beta^0`); steps count from 1.

    ```mlir
    %p1, %m1, %v1 = dist.adamw %p, %g, %m, %v, %step
        {lr = 1.0e-3 : f64, beta1 = 0.9 : f64, beta2 = 0.999 : f64,
         epsilon = 1.0e-8 : f64, weight_decay = 0.01 : f64}
        : (tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>, tensor<f32>)
        -> (tensor<16x64xf32>, tensor<16x64xf32>, tensor<16x64xf32>)
    ```
  }];
  let arguments = (ins Dist_FloatTensor:$param, Dist_FloatTensor:$grad,
                       Dist_FloatTensor:$m, Dist_FloatTensor:$v,
                       Dist_FloatTensor:$step, F64Attr:$lr, F64Attr:$beta1,
                       F64Attr:$beta2, F64Attr:$epsilon, F64Attr:$weight_decay);
  let results = (outs Dist_FloatTensor:$new_param, Dist_FloatTensor:$new_m,
                      Dist_FloatTensor:$new_v);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Dist_SgdOp : Dist_Op<"sgd", [Pure]> {
  let summary = "One SGD step (PyTorch's SGD), with or without momentum";
  let description = [{
    Without a momentum buffer: `param' = param - lr grad`. With one (a third
    operand, and the `momentum` attribute) it also returns the new buffer,
    as PyTorch's SGD without dampening or Nesterov, the buffer starting at
    zero:

    ```
    buf' = momentum buf + grad
    param' = param - lr buf'
    ```

    Every tensor has the parameter's type, f32 or f64; finite `lr >= 0`
    and `0 <= momentum < 1`.

    ```mlir
    %p1 = dist.sgd %p, %g {lr = 1.0e-2 : f64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %p2, %b1 = dist.sgd %p, %g, %b {lr = 1.0e-2 : f64, momentum = 0.9 : f64}
        : (tensor<64xf32>, tensor<64xf32>, tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>)
    ```
  }];
  let arguments = (ins Dist_FloatTensor:$param, Dist_FloatTensor:$grad,
                       Optional<Dist_FloatTensor>:$momentum_buffer,
                       F64Attr:$lr, OptionalAttr<F64Attr>:$momentum);
  let results = (outs Dist_FloatTensor:$new_param,
                      Optional<Dist_FloatTensor>:$new_momentum_buffer);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

#endif // DIST_OPTIMIZER_OPS_TD
