//===- DistPipelineOps.td - dist pipeline-parallel stages -----*- tablegen -*-===//
//
// Pipeline parallelism splits a program into stages that run on the devices
// of one coordinate each along a mesh axis (`pp`). The user marks where a
// stage ends in the forward program, as PyTorch's `pipe_split` does; the
// marks are identities, so a program with them computes what it computes
// without them, on any mesh, pipelined or not.
//
//===----------------------------------------------------------------------===//

#ifndef DIST_PIPELINE_OPS_TD
#define DIST_PIPELINE_OPS_TD

include "Dist/DistBase.td"

def Dist_StageBoundaryOp : Dist_ComputeOp<"stage_boundary", [SameOperandsAndResultType]> {
  let summary = "The end of a pipeline stage: an identity on the value that crosses it";
  let description = [{
    `out = x`. The ops before the first boundary form stage 0, those
    between the k-th and the (k+1)-th stage k; the value a boundary reads
    is what the next stage receives. Its gradient is a boundary too (the
    backward crosses the same stages the other way). It moves no bytes and
    has the sharding of its operand; until a pipeline schedule places the
    stages, it is the identity.

    ```mlir
    %h1 = dist.stage_boundary %h : (tensor<8x16x64xf32>) -> tensor<8x16x64xf32>
    %h2 = "dist.stage_boundary"(%h1) : (tensor<8x16x64xf32>) -> tensor<8x16x64xf32>
    ```
  }];
  let arguments = (ins Dist_Tensor:$x);
  let results = (outs Dist_Tensor:$out);
  let hasVerifier = 0;
}

#endif // DIST_PIPELINE_OPS_TD
