//===- DistTypes.td - dist dialect types ---------------------*- tablegen -*-===//

#ifndef DIST_TYPES_TD
#define DIST_TYPES_TD

include "Dist/DistBase.td"

def Dist_HandleType : TypeDef<Dist_Dialect, "Handle"> {
  let mnemonic = "handle";
  let summary = "Handle of an in-flight asynchronous collective";
  let description = [{
    Returned by the `*_start` collectives and consumed by `dist.wait`, which
    yields the collective's results. The handle carries the result types so
    `dist.wait` is fully typed.

    ```mlir
    %h = dist.all_reduce_start %dx on @mesh axes = ["tp"] kind = sum
        : tensor<8x16xf32> -> !dist.handle<tensor<8x16xf32>>
    %r = dist.wait %h : !dist.handle<tensor<8x16xf32>> -> tensor<8x16xf32>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"::mlir::Type">:$types);
  let assemblyFormat = "`<` $types `>`";
  let genVerifyDecl = 1;
}

#endif // DIST_TYPES_TD
