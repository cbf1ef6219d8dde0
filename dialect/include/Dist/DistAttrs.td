//===- DistAttrs.td - dist dialect attributes ---------------*- tablegen -*-===//

#ifndef DIST_ATTRS_TD
#define DIST_ATTRS_TD

include "Dist/DistBase.td"

def Dist_ShardingAttr : AttrDef<Dist_Dialect, "Sharding"> {
  let mnemonic = "sharding";
  let summary = "Layout of a global tensor over a mesh, with optional partial status";
  // Shardings in the examples end in `}]`, which would close a `[{` code
  // block, so the description is a list of lines.
  let description = !interleave([
    "    `#dist.sharding<@mesh, [dims...], partial = kind{axes...}>` names a",
    "    `dist.mesh` and gives, for every tensor dimension, the ordered list of mesh",
    "    axes that split it (major to minor; `{}` means the dimension is",
    "    replicated). Mesh axes that appear nowhere replicate the value, unless they",
    "    are listed as *partial*: then every device along those axes holds a",
    "    contribution and the true value is their reduction (`sum`, `avg`, `max` or",
    "    `min`).",
    "",
    "    ```mlir",
    "    #dist.sharding<@mesh, [{\"dp\"}, {}, {\"tp\"}]>",
    "    #dist.sharding<@mesh, [{}, {}], partial = sum{\"dp\", \"tp\"}>",
    "    ```",
    "",
    "    Rules checked here: a mesh axis is used at most once, partial axes are",
    "    disjoint from split axes, and a partial set is not empty. Rules that need",
    "    the mesh and the tensor (axes exist, rank matches, split dims divisible)",
    "    are checked where the attribute is attached."
  ], "\n");
  let parameters = (ins
    "::mlir::FlatSymbolRefAttr":$mesh,
    "::mlir::ArrayAttr":$dims,
    "::mlir::ArrayAttr":$partial_axes,
    "::mlir::dist::ReductionKind":$partial_kind
  );
  let builders = [
    AttrBuilderWithInferredContext<(ins "::mlir::FlatSymbolRefAttr":$mesh,
        "::mlir::ArrayAttr":$dims), [{
      return $_get(mesh.getContext(), mesh, dims,
                   ::mlir::ArrayAttr::get(mesh.getContext(), {}),
                   ::mlir::dist::ReductionKind::Sum);
    }]>
  ];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Mesh axes splitting tensor dimension `dim`, major to minor.
    ::llvm::SmallVector<::llvm::StringRef> getDimAxes(unsigned dim) const;
    bool isPartial() const { return !getPartialAxes().empty(); }
    int64_t getRank() const { return getDims().size(); }
  }];
}

#endif // DIST_ATTRS_TD
