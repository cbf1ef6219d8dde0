//===- DistCollectiveOps.td - dist collectives ----------------*- tablegen -*-===//
//
// Collectives over a list of axes of a mesh. The device group of a device is
// the set of devices that differ from it only along those axes, ranked in
// the order the axes are listed (major to minor).
//
// The ops live in two views. In the global view (before dist-partition)
// operand and result have the same global type and the shardings say what
// changed. After dist-partition the types are per-device local types, and
// the verifier checks the local relation (e.g. all_gather multiplies `dim`
// by the group size). Both forms verify.
//
//===----------------------------------------------------------------------===//

#ifndef DIST_COLLECTIVE_OPS_TD
#define DIST_COLLECTIVE_OPS_TD

include "Dist/DistBase.td"
include "Dist/DistTypes.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class Dist_CollectiveOp<string mnemonic, list<Trait> traits = []>
    : Dist_Op<mnemonic, !listconcat(traits,
          [DeclareOpInterfaceMethods<SymbolUserOpInterface>])> {
}

/// Async forms have effects, so generic passes (CSE, canonicalization, code
/// motion) never merge or reorder them; dist-overlap-collectives schedules
/// them deterministically, so every rank still issues the same sequence.
class Dist_AsyncOp<string mnemonic, list<Trait> traits = []>
    : Dist_CollectiveOp<mnemonic, !listconcat(traits, [MemoryEffects<[MemRead, MemWrite]>])>;

//===----------------------------------------------------------------------===//
// Synchronous collectives
//===----------------------------------------------------------------------===//

def Dist_AllReduceOp : Dist_CollectiveOp<"all_reduce", [Pure]> {
  let summary = "Reduce across the device group; every device gets the result";
  let description = [{
    Resolves a value partial over `axes`: the result is the `kind` reduction
    of the operands of all devices in the group.

    ```mlir
    %r = dist.all_reduce %x on @mesh axes = ["dp", "tp"] kind = sum
        : tensor<8x16xf32> -> tensor<8x16xf32>
    ```
  }];
  let arguments = (ins Dist_Tensor:$input, FlatSymbolRefAttr:$mesh,
                       StrArrayAttr:$axes, Dist_ReductionKindAttr:$kind);
  let results = (outs Dist_Tensor:$result);
  let assemblyFormat = "$input `on` $mesh `axes` `=` $axes `kind` `=` `` $kind attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def Dist_AllReduceCoalescedOp : Dist_CollectiveOp<"all_reduce_coalesced", [Pure]> {
  let summary = "One all-reduce over several tensors (a gradient bucket)";
  let description = [{
    Reduces every operand like `dist.all_reduce`, as a single collective over
    their concatenation, so small gradients share one launch.

    ```mlir
    %a, %b = dist.all_reduce_coalesced %ga, %gb on @mesh axes = ["dp"] kind = sum
        : (tensor<64x64xf32>, tensor<64xf32>) -> (tensor<64x64xf32>, tensor<64xf32>)
    ```
  }];
  let arguments = (ins Variadic<Dist_Tensor>:$inputs, FlatSymbolRefAttr:$mesh,
                       StrArrayAttr:$axes, Dist_ReductionKindAttr:$kind);
  let results = (outs Variadic<Dist_Tensor>:$results);
  let assemblyFormat = "$inputs `on` $mesh `axes` `=` $axes `kind` `=` `` $kind attr-dict `:` functional-type($inputs, $results)";
  let hasVerifier = 1;
}

def Dist_ReduceScatterOp : Dist_CollectiveOp<"reduce_scatter", [Pure]> {
  let summary = "Reduce across the device group and keep one slice of `dim`";
  let description = [{
    Resolves a partial value into one split along `dim` over `axes`; each
    device keeps the slice of the reduction at its index in the group.

    ```mlir
    %r = dist.reduce_scatter %x on @mesh axes = ["tp"] dim = 0 kind = sum
        : tensor<8x16xf32> -> tensor<2x16xf32>
    ```
  }];
  let arguments = (ins Dist_Tensor:$input, FlatSymbolRefAttr:$mesh,
                       StrArrayAttr:$axes, I64Attr:$dim,
                       Dist_ReductionKindAttr:$kind);
  let results = (outs Dist_Tensor:$result);
  let assemblyFormat = "$input `on` $mesh `axes` `=` $axes `dim` `=` $dim `kind` `=` `` $kind attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def Dist_ReduceScatterCoalescedOp : Dist_CollectiveOp<"reduce_scatter_coalesced", [Pure]> {
  let summary = "One reduce-scatter over several tensors (a gradient bucket)";
  let description = [{
    Reduce-scatters every operand along `dim` like `dist.reduce_scatter`, as
    a single collective: each device's blocks of all operands travel in one
    buffer, so the small gradients of a ZeRO step share one launch.

    ```mlir
    %a, %b = dist.reduce_scatter_coalesced %ga, %gb on @mesh axes = ["dp"] dim = 0 kind = sum
        : (tensor<64x64xf32>, tensor<64xf32>) -> (tensor<32x64xf32>, tensor<32xf32>)
    ```
  }];
  let arguments = (ins Variadic<Dist_Tensor>:$inputs, FlatSymbolRefAttr:$mesh,
                       StrArrayAttr:$axes, I64Attr:$dim,
                       Dist_ReductionKindAttr:$kind);
  let results = (outs Variadic<Dist_Tensor>:$results);
  let assemblyFormat = "$inputs `on` $mesh `axes` `=` $axes `dim` `=` $dim `kind` `=` `` $kind attr-dict `:` functional-type($inputs, $results)";
  let hasVerifier = 1;
}

def Dist_AllGatherOp : Dist_CollectiveOp<"all_gather", [Pure]> {
  let summary = "Concatenate the group's slices along `dim`";
  let description = [{
    Turns a value split along `dim` over `axes` into one replicated on them.

    ```mlir
    %r = dist.all_gather %x on @mesh axes = ["tp"] dim = 1
        : tensor<8x4xf32> -> tensor<8x16xf32>
    ```
  }];
  let arguments = (ins Dist_Tensor:$input, FlatSymbolRefAttr:$mesh,
                       StrArrayAttr:$axes, I64Attr:$dim);
  let results = (outs Dist_Tensor:$result);
  let assemblyFormat = "$input `on` $mesh `axes` `=` $axes `dim` `=` $dim attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def Dist_AllToAllOp : Dist_CollectiveOp<"all_to_all", [Pure]> {
  let summary = "Re-split: from split along `concat_dim` to split along `split_dim`";
  let description = [{
    Each device cuts its slice along `split_dim` into one piece per group
    member, sends piece i to member i, and concatenates what it receives
    along `concat_dim`.

    ```mlir
    %r = dist.all_to_all %x on @mesh axes = ["tp"] split_dim = 1 concat_dim = 0
        : tensor<2x16xf32> -> tensor<8x4xf32>
    ```
  }];
  let arguments = (ins Dist_Tensor:$input, FlatSymbolRefAttr:$mesh,
                       StrArrayAttr:$axes, I64Attr:$split_dim,
                       I64Attr:$concat_dim);
  let results = (outs Dist_Tensor:$result);
  let assemblyFormat = "$input `on` $mesh `axes` `=` $axes `split_dim` `=` $split_dim `concat_dim` `=` $concat_dim attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def Dist_AllSliceOp : Dist_CollectiveOp<"all_slice", [Pure]> {
  let summary = "Keep this device's slice of `dim` (no communication)";
  let description = [{
    Turns a value replicated on `axes` into one split along `dim` over them,
    each device keeping the slice at its index in the group.

    ```mlir
    %r = dist.all_slice %x on @mesh axes = ["tp"] dim = 1
        : tensor<8x16xf32> -> tensor<8x4xf32>
    ```
  }];
  let arguments = (ins Dist_Tensor:$input, FlatSymbolRefAttr:$mesh,
                       StrArrayAttr:$axes, I64Attr:$dim);
  let results = (outs Dist_Tensor:$result);
  let assemblyFormat = "$input `on` $mesh `axes` `=` $axes `dim` `=` $dim attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Asynchronous collectives
//===----------------------------------------------------------------------===//

def Dist_AllReduceStartOp : Dist_AsyncOp<"all_reduce_start"> {
  let summary = "Start an all-reduce (one or several tensors) and return its handle";
  let description = [{
    Asynchronous `dist.all_reduce` / `dist.all_reduce_coalesced`: the
    reduction runs while later ops execute, until `dist.wait` on the handle.

    ```mlir
    %h = dist.all_reduce_start %dx on @mesh axes = ["tp"] kind = sum
        : tensor<8x16xf32> -> !dist.handle<tensor<8x16xf32>>
    ```
  }];
  let arguments = (ins Variadic<Dist_Tensor>:$inputs, FlatSymbolRefAttr:$mesh,
                       StrArrayAttr:$axes, Dist_ReductionKindAttr:$kind);
  let results = (outs Dist_HandleType:$handle);
  let assemblyFormat = "$inputs `on` $mesh `axes` `=` $axes `kind` `=` `` $kind attr-dict `:` type($inputs) `->` qualified(type($handle))";
  let hasVerifier = 1;
}

def Dist_ReduceScatterStartOp : Dist_AsyncOp<"reduce_scatter_start"> {
  let summary = "Start a reduce-scatter (one or several tensors) and return its handle";
  let description = [{
    Asynchronous `dist.reduce_scatter` / `dist.reduce_scatter_coalesced`.
    One operand prints as before, so the single form is unchanged.

    ```mlir
    %h = dist.reduce_scatter_start %x on @mesh axes = ["tp"] dim = 0 kind = sum
        : tensor<8x16xf32> -> !dist.handle<tensor<2x16xf32>>
    ```
  }];
  let arguments = (ins Variadic<Dist_Tensor>:$inputs, FlatSymbolRefAttr:$mesh,
                       StrArrayAttr:$axes, I64Attr:$dim,
                       Dist_ReductionKindAttr:$kind);
  let results = (outs Dist_HandleType:$handle);
  let assemblyFormat = "$inputs `on` $mesh `axes` `=` $axes `dim` `=` $dim `kind` `=` `` $kind attr-dict `:` type($inputs) `->` qualified(type($handle))";
  let hasVerifier = 1;
}

def Dist_AllGatherStartOp : Dist_AsyncOp<"all_gather_start"> {
  let summary = "Start an all-gather and return its handle";
  let description = [{
    Asynchronous `dist.all_gather`.

    ```mlir
    %h = dist.all_gather_start %x on @mesh axes = ["tp"] dim = 1
        : tensor<8x4xf32> -> !dist.handle<tensor<8x16xf32>>
    ```
  }];
  let arguments = (ins Dist_Tensor:$input, FlatSymbolRefAttr:$mesh,
                       StrArrayAttr:$axes, I64Attr:$dim);
  let results = (outs Dist_HandleType:$handle);
  let assemblyFormat = "$input `on` $mesh `axes` `=` $axes `dim` `=` $dim attr-dict `:` type($input) `->` qualified(type($handle))";
  let hasVerifier = 1;
}

def Dist_AllToAllStartOp : Dist_AsyncOp<"all_to_all_start"> {
  let summary = "Start an all-to-all and return its handle";
  let description = [{
    Asynchronous `dist.all_to_all`.

    ```mlir
    %h = dist.all_to_all_start %x on @mesh axes = ["tp"] split_dim = 1 concat_dim = 0
        : tensor<2x16xf32> -> !dist.handle<tensor<8x4xf32>>
    ```
  }];
  let arguments = (ins Dist_Tensor:$input, FlatSymbolRefAttr:$mesh,
                       StrArrayAttr:$axes, I64Attr:$split_dim,
                       I64Attr:$concat_dim);
  let results = (outs Dist_HandleType:$handle);
  let assemblyFormat = "$input `on` $mesh `axes` `=` $axes `split_dim` `=` $split_dim `concat_dim` `=` $concat_dim attr-dict `:` type($input) `->` qualified(type($handle))";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Point to point
//===----------------------------------------------------------------------===//

// A pipeline's stages pass their boundary values to each other: one device
// sends, one receives, and the others in the group do nothing. They come
// in pairs of equal `tag` and type, each naming the other's index in the
// group over `axes`, and each runs on its own device's branch of the
// program (a per-stage function), never in code every device runs.

def Dist_SendOp : Dist_AsyncOp<"send"> {
  let summary = "Send a tensor to one device of the group, without waiting for it to arrive";
  let description = [{
    Sends `input` to the device whose index in this device's group over
    `axes` (as `dist.axis_index` numbers it) is `peer`, where a
    `dist.recv` of the same `tag` from this device takes it. The send does
    not wait for the receive: the runtime keeps a copy of the data until it
    has gone, so the sender goes on, and the value may be freed after it.

    ```mlir
    dist.send %h to 1 on @mesh axes = ["pp"] tag = 3 : tensor<4x16x64xf32>
    ```
  }];
  let arguments = (ins Dist_Tensor:$input, FlatSymbolRefAttr:$mesh,
                       StrArrayAttr:$axes, I64Attr:$peer, I64Attr:$tag);
  let assemblyFormat = "$input `to` $peer `on` $mesh `axes` `=` $axes `tag` `=` $tag attr-dict `:` type($input)";
}

def Dist_RecvOp : Dist_AsyncOp<"recv"> {
  let summary = "Receive a tensor from one device of the group, waiting until it has arrived";
  let description = [{
    The `input` of the `dist.send` of the same `tag` on the device whose
    index in this device's group over `axes` is `peer`; the receive blocks
    until it has arrived.

    ```mlir
    %h = dist.recv from 0 on @mesh axes = ["pp"] tag = 3 : tensor<4x16x64xf32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$mesh, StrArrayAttr:$axes,
                       I64Attr:$peer, I64Attr:$tag);
  let results = (outs Dist_Tensor:$result);
  let assemblyFormat = "`from` $peer `on` $mesh `axes` `=` $axes `tag` `=` $tag attr-dict `:` type($result)";
}

def Dist_WaitOp : Dist_Op<"wait", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "Wait for an asynchronous collective and take its results";
  let description = [{
    Blocks until the collective behind `handle` completes; the results have
    the types the handle carries.

    ```mlir
    %r = dist.wait %h : !dist.handle<tensor<8x16xf32>> -> tensor<8x16xf32>
    ```
  }];
  let arguments = (ins Dist_HandleType:$handle);
  let results = (outs Variadic<Dist_Tensor>:$results);
  let assemblyFormat = "$handle attr-dict `:` qualified(type($handle)) `->` type($results)";
  let hasVerifier = 1;
}

#endif // DIST_COLLECTIVE_OPS_TD
