//===- DistBase.td - dist dialect definition and shared bases -*- tablegen -*-===//
//
// The `dist` dialect: distributed tensors on named device meshes. Programs are
// written in the global view (global tensor shapes); shardings say how each
// value is laid out over a mesh and which mesh axes still owe a reduction
// (partial values).
//
//===----------------------------------------------------------------------===//

#ifndef DIST_BASE_TD
#define DIST_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

def Dist_Dialect : Dialect {
  let name = "dist";
  let cppNamespace = "::mlir::dist";
  let summary = "Distributed tensors: device meshes, shardings with partial status, "
                "training ops and collectives";
  // Shardings in the examples end in `}]`, which would close a `[{` code
  // block, so the description is a list of lines.
  let description = !interleave([
    "    The `dist` dialect describes a training step in the *global view*: every",
    "    tensor has its global shape, a `dist.mesh` names the devices, and the",
    "    `#dist.sharding` attribute says how a value is split over the mesh axes and",
    "    over which axes it is *partial* (a pending reduction, e.g. a gradient that",
    "    each data-parallel rank computed from its own micro-batch).",
    "",
    "    Shardings sit on function arguments and results as the argument/result",
    "    attribute `dist.sharding`, and on op results as the discardable attribute",
    "    `dist.sharding = [...]` with one entry per result.",
    "",
    "    The unit argument attribute `dist.requires_grad` (on floating-point",
    "    tensors) asks `dist-append-backward` for the gradient of the function's",
    "    loss, its first result, with respect to that argument.",
    "",
    "    `dist-append-backward` marks each gradient it returns with the integer",
    "    result attribute `dist.gradient_of`, the index of the argument it is the",
    "    gradient of.",
    "",
    "    The integer argument attribute `dist.batch_dim` marks a data argument and",
    "    the dim its samples run along, which `dist-split-microbatches` splits into",
    "    microbatches; that pass marks the function with `dist.microbatch_axis`,",
    "    the mesh axis of its microbatches, for `dist-schedule-pipeline`.",
    "",
    "    The dictionary module attribute `dist.plan` holds the choices of a plan",
    "    that are not layouts, which `dist-auto-parallel` writes and `dist-run`",
    "    takes as its defaults: `recompute` (bool, `--recompute`) and `overlap`",
    "    (bool, `--overlap`), e.g. `module attributes {dist.plan = {overlap = true,",
    "    recompute = false}}`.",
    "",
    "    ```mlir",
    "    dist.mesh @mesh = <[\"dp\"=2, \"tp\"=4]>",
    "    func.func @f(%x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{\"dp\"}, {}]>})",
    "        -> tensor<8x16xf32> {",
    "      return %x : tensor<8x16xf32>",
    "    }",
    "    ```"
  ], "\n");
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Defined beside the storage classes they need (DistAttrs.cpp).
    void registerAttributes();
    void registerTypes();

    /// Name of the sharding attribute on function arguments/results and ops.
    static constexpr ::llvm::StringLiteral getShardingAttrName() {
      return ::llvm::StringLiteral("dist.sharding");
    }
    /// Name of the attribute dist-partition leaves on function arguments and
    /// results: the sharding of the global value this local one is a shard of.
    static constexpr ::llvm::StringLiteral getLocalShardingAttrName() {
      return ::llvm::StringLiteral("dist.local");
    }
    /// Name of the unit argument attribute that asks dist-append-backward
    /// for the gradient of the loss with respect to the argument.
    static constexpr ::llvm::StringLiteral getRequiresGradAttrName() {
      return ::llvm::StringLiteral("dist.requires_grad");
    }
    /// Name of the integer result attribute dist-append-backward puts on
    /// each gradient it returns: the index of the argument it is the
    /// gradient of.
    static constexpr ::llvm::StringLiteral getGradientOfAttrName() {
      return ::llvm::StringLiteral("dist.gradient_of");
    }
    /// Name of the integer argument attribute that marks a data argument
    /// and the dim its samples run along, which microbatching splits.
    static constexpr ::llvm::StringLiteral getBatchDimAttrName() {
      return ::llvm::StringLiteral("dist.batch_dim");
    }
    /// Name of the string attribute dist-split-microbatches puts on a
    /// function: the mesh axis of its microbatches, which
    /// dist-schedule-pipeline runs one after another.
    static constexpr ::llvm::StringLiteral getMicrobatchAxisAttrName() {
      return ::llvm::StringLiteral("dist.microbatch_axis");
    }
    /// Name of the attribute dist-schedule-gpu puts on each linalg op it
    /// schedules: the op's index, which the transform schedule matches.
    static constexpr ::llvm::StringLiteral getGpuTileAttrName() {
      return ::llvm::StringLiteral("dist.gpu_tile");
    }
    /// Name of the unit attribute the GPU schedule puts on a warp's
    /// 16 x 8 x 16 bf16 product, which dist-lower-gpu-mma turns into
    /// mma.sync.
    static constexpr ::llvm::StringLiteral getGpuMmaAttrName() {
      return ::llvm::StringLiteral("dist.gpu_mma");
    }
    /// Name of the unit attribute dist-fuse-product-bias puts on the bias
    /// broadcast a product starts from, which dist-call-blas turns into
    /// cuBLASLt's bias epilogue.
    static constexpr ::llvm::StringLiteral getProductBiasAttrName() {
      return ::llvm::StringLiteral("dist.product_bias");
    }
    /// Name of the dictionary attribute on a module: the choices of a plan
    /// that are not layouts (dist-auto-parallel writes it, dist-run reads
    /// its defaults from it).
    static constexpr ::llvm::StringLiteral getPlanAttrName() {
      return ::llvm::StringLiteral("dist.plan");
    }
    /// Name of the unit attribute on a function dist-outline-layers made
    /// of a run of identical layers.
    static constexpr ::llvm::StringLiteral getLayerAttrName() {
      return ::llvm::StringLiteral("dist.layer");
    }

    /// Shardings already verified against a type and a mesh (its axis
    /// names and sizes): the verifier runs after every pass, and the same
    /// few hundred pairs recur on every op of a large program. Attributes
    /// and types are uniqued per context, so the cache is the dialect's.
    using VerifiedSharding = std::tuple<::mlir::Attribute, ::mlir::Type, unsigned,
                                        ::mlir::Attribute, ::mlir::Attribute>;
    bool isVerified(const VerifiedSharding &key) const;
    void setVerified(const VerifiedSharding &key) const;

  private:
    mutable ::llvm::sys::SmartRWMutex<true> verifiedMutex;
    mutable ::llvm::DenseSet<VerifiedSharding> verified;

  public:
  }];
}

def Dist_ReductionKind : I32EnumAttr<"ReductionKind",
    "How partial values combine across a mesh axis", [
  I32EnumAttrCase<"Sum", 0, "sum">,
  I32EnumAttrCase<"Avg", 1, "avg">,
  I32EnumAttrCase<"Max", 2, "max">,
  I32EnumAttrCase<"Min", 3, "min">
]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::dist";
}

def Dist_ReductionKindAttr : EnumAttr<Dist_Dialect, Dist_ReductionKind, "kind"> {
  let summary = "Reduction kind of a collective (`sum`, `avg`, `max`, `min`)";
  let assemblyFormat = "$value";
}

/// Every tensor of a dist op has a size in bytes below 2^63 (DistTraits.h).
def Dist_TensorSizesFit : NativeOpTrait<"TensorSizesFit"> {
  let cppNamespace = "::mlir::OpTrait::dist";
}

class Dist_Op<string mnemonic, list<Trait> traits = []>
    : Op<Dist_Dialect, mnemonic, !listconcat([Dist_TensorSizesFit], traits)>;

/// Statically shaped tensors: sharding divisibility and local shapes are
/// computed at compile time, so dist ops reject dynamic dims.
def Dist_FloatTensor : StaticShapeTensorOf<[AnyFloat]>;
def Dist_IntTensor : StaticShapeTensorOf<[AnySignlessInteger]>;
def Dist_BoolTensor : StaticShapeTensorOf<[I1]>;
/// Floats and integers: what arithmetic computes on.
def Dist_NumericTensor : StaticShapeTensorOf<[AnyFloat, AnySignlessInteger]>;
def Dist_Tensor : StaticShapeTensorOf<[AnyType]>;


//===----------------------------------------------------------------------===//
// Base classes of the compute ops
//===----------------------------------------------------------------------===//

class Dist_ComputeOp<string mnemonic, list<Trait> traits = []>
    : Dist_Op<mnemonic, !listconcat(traits, [Pure])> {
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

class Dist_UnaryOp<string mnemonic, string opSummary>
    : Dist_ComputeOp<mnemonic, [SameOperandsAndResultType]> {
  let summary = opSummary;
  let arguments = (ins Dist_FloatTensor:$x);
  let results = (outs Dist_FloatTensor:$out);
  let hasVerifier = 0;
}

class Dist_UnaryGradOp<string mnemonic, string opSummary>
    : Dist_ComputeOp<mnemonic, [SameOperandsAndResultType]> {
  let summary = opSummary;
  let arguments = (ins Dist_FloatTensor:$x, Dist_FloatTensor:$dout);
  let results = (outs Dist_FloatTensor:$dx);
  let hasVerifier = 0;
}

/// `out = x op y` with NumPy broadcasting: the shapes align at their
/// trailing dims, and a missing or size-1 dim of either stretches to the
/// other's size.
class Dist_BinaryOp<string mnemonic, string opSummary>
    : Dist_ComputeOp<mnemonic> {
  let summary = opSummary;
  let arguments = (ins Dist_NumericTensor:$x, Dist_NumericTensor:$y);
  let results = (outs Dist_NumericTensor:$out);
}

class Dist_BinaryGradOp<string mnemonic, string opSummary>
    : Dist_ComputeOp<mnemonic> {
  let summary = opSummary;
  let arguments = (ins Dist_FloatTensor:$x, Dist_FloatTensor:$y,
                       Dist_FloatTensor:$dout);
  let results = (outs Dist_FloatTensor:$dx, Dist_FloatTensor:$dy);
}

#endif // DIST_BASE_TD
