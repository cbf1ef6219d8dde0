//===- DistDialect.cpp - dist dialect registration and attribute checks ---===//

#include "Dist/DistDialect.h"
#include "Dist/DistOps.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::dist;

#include "Dist/DistDialect.cpp.inc"

namespace {
/// Every dist op may be inlined: none refers to its enclosing function (a
/// mesh is a module-level symbol) and none has a region. This lets the
/// upstream inliner flatten a step into the function that calls it, as
/// `dist-gen llama` does with the step it differentiates.
struct DistInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;

  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
};
} // namespace

void DistDialect::initialize() {
  registerAttributes();
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "Dist/DistOps.cpp.inc"
      , 
#define GET_OP_LIST
#include "Dist/DistCollectiveOps.cpp.inc"
      ,
#define GET_OP_LIST
#include "Dist/DistOptimizerOps.cpp.inc"
      ,
#define GET_OP_LIST
#include "Dist/DistMathOps.cpp.inc"
      ,
#define GET_OP_LIST
#include "Dist/DistLogicOps.cpp.inc"
      ,
#define GET_OP_LIST
#include "Dist/DistPipelineOps.cpp.inc"
      >();
  addInterfaces<DistInlinerInterface>();
}

MeshOp mlir::dist::lookupMesh(Operation *from, FlatSymbolRefAttr name) {
  if (!name)
    return nullptr;
  return SymbolTable::lookupNearestSymbolFrom<MeshOp>(from, name);
}

bool DistDialect::isVerified(const VerifiedSharding &key) const {
  llvm::sys::SmartScopedReader<true> lock(verifiedMutex);
  return verified.contains(key);
}

void DistDialect::setVerified(const VerifiedSharding &key) const {
  llvm::sys::SmartScopedWriter<true> lock(verifiedMutex);
  verified.insert(key);
}

LogicalResult mlir::dist::verifyShardingFor(
    Operation *anchor, ShardingAttr sharding, Type type,
    llvm::function_ref<InFlightDiagnostic()> emitError, bool globalType) {
  MeshOp mesh = lookupMesh(anchor, sharding.getMesh());
  if (!mesh)
    return emitError() << "sharding refers to unknown mesh "
                       << sharding.getMesh();
  auto *dialect = sharding.getContext()->getLoadedDialect<DistDialect>();
  DistDialect::VerifiedSharding key{sharding, type, globalType,
                                    mesh.getAxisNamesAttr(),
                                    mesh.getAxisSizesAttr()};
  if (dialect->isVerified(key))
    return success();
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return emitError() << "sharding needs a ranked tensor, got " << type;
  if (sharding.getRank() != tensor.getRank())
    return emitError() << "sharding has " << sharding.getRank()
                       << " dims but the tensor " << type << " has rank "
                       << tensor.getRank();
  auto checkAxis = [&](StringRef axis) -> LogicalResult {
    if (mesh.getAxisIndex(axis) < 0)
      return emitError() << "mesh " << sharding.getMesh() << " has no axis \""
                         << axis << "\"";
    return success();
  };
  ArrayRef<int64_t> sizes = mesh.getAxisSizes();
  for (int64_t dim = 0; dim < tensor.getRank(); ++dim) {
    int64_t parts = 1;
    for (StringRef axis : sharding.getDimAxes(dim)) {
      if (failed(checkAxis(axis)))
        return failure();
      parts *= sizes[mesh.getAxisIndex(axis)];
    }
    int64_t size = tensor.getDimSize(dim);
    // A dim the shards do not divide is split as GSPMD splits it: shards of
    // ceil(size / parts), the last ones padded (some may hold only
    // padding). It needs at least as many entries as shards, and one axis:
    // over two, the outer axis's padded blocks would not nest in the flat
    // layout the shards follow.
    if (!globalType || ShapedType::isDynamic(size))
      continue;
    if (size < parts)
      return emitError() << "tensor dim " << dim << " of size " << size
                         << " has fewer entries than " << parts
                         << ", the number of shards of its mesh axes";
    if (size % parts != 0 && sharding.getDimAxes(dim).size() > 1)
      return emitError() << "tensor dim " << dim << " of size " << size
                         << " is split unevenly over "
                         << sharding.getDimAxes(dim).size()
                         << " mesh axes; an uneven split takes one axis";
  }
  for (Attribute axis : sharding.getPartialAxes())
    if (failed(checkAxis(cast<StringAttr>(axis).getValue())))
      return failure();
  dialect->setVerified(key);
  return success();
}

/// Discardable attributes the dialect owns; anything else prefixed `dist.`
/// is most likely a typo and is rejected.
LogicalResult DistDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  if (attr.getName() == getGpuTileAttrName()) {
    if (!isa<IntegerAttr>(attr.getValue()))
      return op->emitError() << "expected '" << getGpuTileAttrName()
                             << "' to be an integer, got " << attr.getValue();
    return success();
  }
  if (attr.getName() == getGpuMmaAttrName() || attr.getName() == getLayerAttrName() ||
      attr.getName() == getProductBiasAttrName()) {
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitError() << "expected '" << attr.getName().getValue()
                             << "' to be a unit attribute, got " << attr.getValue();
    return success();
  }
  if (attr.getName() == getMicrobatchAxisAttrName()) {
    auto axis = dyn_cast<StringAttr>(attr.getValue());
    if (!axis || axis.getValue().empty() || !isa<FunctionOpInterface>(op))
      return op->emitError() << "expected '" << getMicrobatchAxisAttrName()
                             << "' to name a mesh axis on a function, got "
                             << attr.getValue();
    return success();
  }
  if (attr.getName() == getPlanAttrName()) {
    auto plan = dyn_cast<DictionaryAttr>(attr.getValue());
    if (!plan || !isa<ModuleOp>(op))
      return op->emitError() << "expected '" << getPlanAttrName()
                             << "' to be a dictionary on a module, got " << attr.getValue();
    for (NamedAttribute entry : plan) {
      if (entry.getName() != "recompute" && entry.getName() != "overlap")
        return op->emitError() << "'" << getPlanAttrName() << "' has no choice '"
                               << entry.getName().getValue()
                               << "' (it takes recompute and overlap)";
      if (!isa<BoolAttr>(entry.getValue()))
        return op->emitError() << "'" << getPlanAttrName() << "': expected '"
                               << entry.getName().getValue() << "' to be a bool, got "
                               << entry.getValue();
    }
    return success();
  }
  if (attr.getName() != getShardingAttrName())
    return op->emitError() << "unknown dist attribute '" << attr.getName().getValue()
                           << "'";
  auto list = dyn_cast<ArrayAttr>(attr.getValue());
  if (!list || list.size() != op->getNumResults() ||
      !llvm::all_of(list, llvm::IsaPred<ShardingAttr>))
    return op->emitError() << "expected '" << getShardingAttrName()
                           << "' to be an array of " << op->getNumResults()
                           << " #dist.sharding (one per result), got "
                           << attr.getValue();
  for (auto [i, sharding] : llvm::enumerate(list.getAsRange<ShardingAttr>()))
    if (failed(verifyShardingFor(op, sharding, op->getResult(i).getType(),
                                 [&] {
                                   return op->emitError()
                                          << "result #" << i << ": ";
                                 })))
      return failure();
  return success();
}

/// Shared by argument and result attributes of function-like ops:
/// `dist.sharding` on a global type, `dist.local` on the local type of one
/// device's shard (after dist-partition). Errors are reported at `loc`, the
/// argument's own location where it has one: a large function is not
/// printed with the error, and the message points at the argument.
static LogicalResult verifyValueShardingAttr(Operation *op,
                                             NamedAttribute attr, Type type,
                                             StringRef what, unsigned index,
                                             Location loc) {
  bool local = attr.getName() == DistDialect::getLocalShardingAttrName();
  if (!local && attr.getName() != DistDialect::getShardingAttrName())
    return emitError(loc) << "unknown dist attribute '" << attr.getName().getValue()
                          << "' on " << what << " #" << index;
  auto sharding = dyn_cast<ShardingAttr>(attr.getValue());
  if (!sharding)
    return emitError(loc) << "expected " << what << " #" << index
                          << " attribute '" << attr.getName().getValue()
                          << "' to be a #dist.sharding, got "
                          << attr.getValue();
  return verifyShardingFor(
      op, sharding, type,
      [&] { return emitError(loc) << what << " #" << index << ": "; },
      /*globalType=*/!local);
}

/// `dist.requires_grad` asks for a gradient, which only a floating-point
/// tensor has (statically shaped, as every dist op's); the attribute
/// carries no value.
static LogicalResult verifyRequiresGradAttr(NamedAttribute attr, Type type,
                                            unsigned index, Location loc) {
  if (!isa<UnitAttr>(attr.getValue()))
    return emitError(loc) << "expected '" << attr.getName().getValue()
                          << "' on argument #" << index
                          << " to be a unit attribute, got " << attr.getValue();
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape() ||
      !isa<FloatType>(tensor.getElementType()))
    return emitError(loc) << "'" << attr.getName().getValue()
                          << "' on argument #" << index
                          << " needs a statically shaped floating-point "
                             "tensor, got "
                          << type;
  return success();
}

/// `dist.batch_dim` marks a data argument: the dim of its samples, which
/// microbatching splits.
static LogicalResult verifyBatchDimAttr(NamedAttribute attr, Type type,
                                        unsigned index, Location loc) {
  // A tensor, or its buffer once bufferized.
  auto dim = dyn_cast<IntegerAttr>(attr.getValue());
  auto shaped = dyn_cast<ShapedType>(type);
  if (!dim || !shaped || !shaped.hasRank() || dim.getInt() < 0 ||
      dim.getInt() >= shaped.getRank())
    return emitError(loc) << "expected '" << attr.getName().getValue()
                          << "' on argument #" << index
                          << " to be a dim of its ranked tensor " << type
                          << ", got " << attr.getValue();
  return success();
}

LogicalResult DistDialect::verifyRegionArgAttribute(Operation *op,
                                                    unsigned regionIndex,
                                                    unsigned argIndex,
                                                    NamedAttribute attr) {
  // Function declarations have no entry block, and an entry block that
  // disagrees with the signature (which the function's own verifier reports
  // next) may lack the argument: take the signature's type and the
  // function's location.
  Region &region = op->getRegion(regionIndex);
  bool hasArgument = !region.empty() && argIndex < region.getNumArguments();
  Location loc =
      hasArgument ? region.getArgument(argIndex).getLoc() : op->getLoc();
  Type type;
  if (auto fn = dyn_cast<FunctionOpInterface>(op)) {
    ArrayRef<Type> types = fn.getArgumentTypes();
    if (argIndex >= types.size())
      return op->emitError() << "argument attributes of argument #" << argIndex
                             << ", which the signature does not have";
    type = types[argIndex];
  } else {
    if (!hasArgument)
      return op->emitError() << "dist argument attributes need a region with "
                                "arguments or a function-like op";
    type = region.getArgument(argIndex).getType();
  }
  if (attr.getName() == getRequiresGradAttrName())
    return verifyRequiresGradAttr(attr, type, argIndex, loc);
  if (attr.getName() == getBatchDimAttrName())
    return verifyBatchDimAttr(attr, type, argIndex, loc);
  return verifyValueShardingAttr(op, attr, type, "argument", argIndex, loc);
}

LogicalResult DistDialect::verifyRegionResultAttribute(Operation *op,
                                                       unsigned regionIndex,
                                                       unsigned resultIndex,
                                                       NamedAttribute attr) {
  auto fn = dyn_cast<FunctionOpInterface>(op);
  if (!fn)
    return op->emitError() << "dist result attributes are only supported on "
                              "function-like ops";
  if (attr.getName() == getGradientOfAttrName()) {
    // The index of an argument (whose type later passes may change apart
    // from the result's: partitioning, microbatching).
    auto index = dyn_cast<IntegerAttr>(attr.getValue());
    int64_t arg = index ? index.getInt() : -1;
    if (arg < 0 || arg >= static_cast<int64_t>(fn.getNumArguments()))
      return op->emitError()
             << "expected '" << attr.getName().getValue() << "' on result #"
             << resultIndex << " to be the index of an argument (of "
             << fn.getNumArguments() << "), got " << attr.getValue();
    return success();
  }
  ArrayRef<Type> types = fn.getResultTypes();
  if (resultIndex >= types.size())
    return op->emitError() << "result attributes of result #" << resultIndex
                           << ", which the signature does not have";
  return verifyValueShardingAttr(op, attr, types[resultIndex], "result",
                                 resultIndex, op->getLoc());
}
