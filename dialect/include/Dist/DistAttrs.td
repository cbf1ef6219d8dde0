//===- DistAttrs.td - dist dialect attributes ---------------*- tablegen -*-===//

#ifndef DIST_ATTRS_TD
#define DIST_ATTRS_TD

include "Dist/DistBase.td"

def Dist_ShardingAttr : AttrDef<Dist_Dialect, "Sharding"> {
  let mnemonic = "sharding";
  let summary = "Layout of a global tensor over a mesh, with optional partial status";
  let description = "\n    `#dist.sharding<@mesh, [dims...], partial = kind{axes...}>` names a\n    `dist.mesh` and gives, for every tensor dimension, the ordered list of mesh\n    axes that split it (major to minor; `{}` means the dimension is\n    replicated). Mesh axes that appear nowhere replicate the value, unless they\n    are listed as *partial*: then every device along those axes holds a\n    contribution and the true value is their reduction (`sum`, `avg`, `max` or\n    `min`).\n\n    ```mlir\n    #dist.sharding<@mesh, [{\"dp\"}, {}, {\"tp\"}]>\n    #dist.sharding<@mesh, [{}, {}], partial = sum{\"dp\", \"tp\"}>\n    ```\n\n    Rules checked here: a mesh axis is used at most once, partial axes are\n    disjoint from split axes, and a partial set is not empty. Rules that need\n    the mesh and the tensor (axes exist, rank matches, split dims divisible)\n    are checked where the attribute is attached.";
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
