//===- DistCollectiveOps.cpp - dist collective verifiers --------------------===//

#include "Dist/DistOps.h"
#include "ShapeCheck.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::dist;

namespace {
/// How a collective's local result shape relates to its operand's.
enum class Relation {
  Same,     // all_reduce
  Split,    // reduce_scatter, all_slice: dim / group size
  Gather,   // all_gather: dim * group size
  AllToAll, // split_dim / group size, concat_dim * group size
};

struct CollectiveShape {
  Relation relation;
  int64_t dim = 0;       // Split, Gather; split_dim of AllToAll
  int64_t concatDim = 0; // AllToAll
};
} // namespace

/// Checks of one operand/result pair that need no mesh: rank, element type,
/// dims in range, and for all_reduce identical types.
static LogicalResult verifyPairTypes(Operation *op, Type in, Type out,
                                     CollectiveShape shape) {
  auto inType = cast<RankedTensorType>(in);
  auto outType = cast<RankedTensorType>(out);
  ShapeChecker check(op);
  if (failed(check.elementType("result", outType, inType.getElementType())))
    return failure();
  int64_t rank = inType.getRank();
  if (outType.getRank() != rank)
    return op->emitOpError() << "expected result to have rank " << rank
                             << ", got " << outType.getRank();
  auto checkDim = [&](StringRef name, int64_t dim) -> LogicalResult {
    if (dim < 0 || dim >= rank)
      return op->emitOpError() << name << " " << dim << " is out of range [0, "
                               << rank << ")";
    return success();
  };
  switch (shape.relation) {
  case Relation::Same:
    if (in != out)
      return op->emitOpError() << "expected result type " << in << ", got "
                               << out;
    return success();
  case Relation::Split:
  case Relation::Gather:
    return checkDim("dim", shape.dim);
  case Relation::AllToAll:
    if (failed(checkDim("split_dim", shape.dim)) ||
        failed(checkDim("concat_dim", shape.concatDim)))
      return failure();
    return success();
  }
  llvm_unreachable("unknown relation");
}

/// The global view keeps the type; the local view scales dims by the size
/// of the device group.
static LogicalResult verifyLocalShape(Operation *op, Type in, Type out,
                                      CollectiveShape shape, int64_t group) {
  if (in == out || shape.relation == Relation::Same)
    return success();
  SmallVector<int64_t> expected(cast<ShapedType>(in).getShape());
  auto divide = [&](int64_t dim) -> LogicalResult {
    if (expected[dim] % group != 0)
      return op->emitOpError() << "operand dim " << dim << " of size "
                               << expected[dim] << " does not split over "
                               << group << " devices";
    expected[dim] /= group;
    return success();
  };
  switch (shape.relation) {
  case Relation::Same:
    break;
  case Relation::Split:
    if (failed(divide(shape.dim)))
      return failure();
    break;
  case Relation::Gather:
    expected[shape.dim] *= group;
    break;
  case Relation::AllToAll:
    if (failed(divide(shape.dim)))
      return failure();
    expected[shape.concatDim] *= group;
    break;
  }
  if (cast<ShapedType>(out).getShape() == ArrayRef<int64_t>(expected))
    return success();
  auto diag = op->emitOpError()
              << "expected result type " << in
              << " (global view) or the local shape [";
  llvm::interleaveComma(expected, diag);
  return diag << "] for a group of " << group << " devices, got " << out;
}

/// Looks up the mesh, checks the axes, and returns the group size.
static FailureOr<int64_t> verifyMeshAxes(Operation *op,
                                         SymbolTableCollection &symbolTable,
                                         FlatSymbolRefAttr meshName,
                                         ArrayAttr axes) {
  auto mesh = symbolTable.lookupNearestSymbolFrom<MeshOp>(op, meshName);
  if (!mesh)
    return op->emitOpError() << "refers to unknown mesh " << meshName;
  if (axes.empty())
    return op->emitOpError() << "needs at least one mesh axis";
  llvm::StringSet<> seen;
  int64_t group = 1;
  for (Attribute axisAttr : axes) {
    StringRef axis = cast<StringAttr>(axisAttr).getValue();
    int64_t index = mesh.getAxisIndex(axis);
    if (index < 0)
      return op->emitOpError() << "mesh " << meshName << " has no axis \""
                               << axis << "\"";
    if (!seen.insert(axis).second)
      return op->emitOpError() << "mesh axis \"" << axis
                               << "\" is listed twice";
    group *= mesh.getAxisSizes()[index];
  }
  return group;
}

/// verify(): operand/result counts and the types of every pair.
static LogicalResult verifyCollectiveTypes(Operation *op, TypeRange ins,
                                           TypeRange outs,
                                           CollectiveShape shape) {
  if (ins.empty())
    return op->emitOpError() << "needs at least one operand";
  if (ins.size() != outs.size())
    return op->emitOpError() << "has " << ins.size() << " operands but "
                             << outs.size() << " results";
  for (auto [in, out] : llvm::zip(ins, outs))
    if (failed(verifyPairTypes(op, in, out, shape)))
      return failure();
  return success();
}

/// verifySymbolUses(): the mesh, its axes, and the local shape of every pair
/// for the resulting device group.
static LogicalResult
verifyCollectiveGroup(Operation *op, SymbolTableCollection &symbolTable,
                      FlatSymbolRefAttr mesh, ArrayAttr axes, TypeRange ins,
                      TypeRange outs, CollectiveShape shape) {
  FailureOr<int64_t> group = verifyMeshAxes(op, symbolTable, mesh, axes);
  if (failed(group))
    return failure();
  for (auto [in, out] : llvm::zip(ins, outs))
    if (failed(verifyLocalShape(op, in, out, shape, *group)))
      return failure();
  // Each pair verifies in either view, but one collective is in one: a
  // coalesced op whose operands disagree would move the wrong sizes.
  if (shape.relation != Relation::Same && *group > 1) {
    for (size_t i = 1; i < ins.size(); ++i) {
      bool global = ins[0] == outs[0], thisGlobal = ins[i] == outs[i];
      if (global != thisGlobal)
        return op->emitOpError()
               << "mixes the global view (operand #" << (global ? 0 : i)
               << " keeps its type) and the local view (operand #"
               << (global ? i : 0) << " does not)";
    }
  }
  return success();
}

static TypeRange handleTypes(Value handle) {
  return cast<HandleType>(handle.getType()).getTypes();
}

// A handle is a collective in flight: exactly one dist.wait may complete it.
// A second wait, or any other reader (a return, a call), would leave the
// communication unfinished or finish it twice, which no runtime supports.
static LogicalResult verifyHandleUses(Operation *start, Value handle) {
  unsigned waits = 0;
  for (Operation *user : handle.getUsers()) {
    if (!isa<WaitOp>(user))
      return start->emitOpError()
             << "handle is read by '" << user->getName()
             << "'; only one dist.wait may read a handle";
    ++waits;
  }
  if (waits > 1)
    return start->emitOpError()
           << "handle is waited for " << waits << " times; it must be waited for once";
  return success();
}

// Each op checks its types in verify() and its mesh-dependent shapes in
// verifySymbolUses(); `OUTS` names the result types (a handle's for starts),
// and starts check who reads their handle.
#define DIST_COLLECTIVE_CHECKED(OP, INS, OUTS, SHAPE, EXTRA)                   \
  LogicalResult OP::verify() {                                                 \
    if (failed(verifyCollectiveTypes(*this, INS, OUTS, SHAPE)))                \
      return failure();                                                        \
    return EXTRA;                                                              \
  }                                                                            \
  LogicalResult OP::verifySymbolUses(SymbolTableCollection &symbolTable) {     \
    return verifyCollectiveGroup(*this, symbolTable, getMeshAttr(), getAxes(), \
                                 INS, OUTS, SHAPE);                            \
  }
#define DIST_COLLECTIVE(OP, INS, OUTS, SHAPE)                                  \
  DIST_COLLECTIVE_CHECKED(OP, INS, OUTS, SHAPE, success())
#define DIST_ASYNC_COLLECTIVE(OP, INS, SHAPE)                                  \
  DIST_COLLECTIVE_CHECKED(OP, INS, handleTypes(getHandle()), SHAPE,            \
                          verifyHandleUses(*this, getHandle()))

// Parenthesized: the macros above pass them on as one argument.
#define SAME (CollectiveShape{Relation::Same})
#define SPLIT (CollectiveShape{Relation::Split, static_cast<int64_t>(getDim())})
#define GATHER                                                                 \
  (CollectiveShape{Relation::Gather, static_cast<int64_t>(getDim())})
#define ALL_TO_ALL                                                             \
  (CollectiveShape{Relation::AllToAll, static_cast<int64_t>(getSplitDim()),    \
                   static_cast<int64_t>(getConcatDim())})

DIST_COLLECTIVE(AllReduceOp, getInput().getType(), getResult().getType(), SAME)
DIST_COLLECTIVE(AllReduceCoalescedOp, getInputs().getTypes(),
                getResults().getTypes(), SAME)
DIST_COLLECTIVE(ReduceScatterOp, getInput().getType(), getResult().getType(),
                SPLIT)
DIST_COLLECTIVE(ReduceScatterCoalescedOp, getInputs().getTypes(),
                getResults().getTypes(), SPLIT)
DIST_COLLECTIVE(AllGatherOp, getInput().getType(), getResult().getType(),
                GATHER)
DIST_COLLECTIVE(AllToAllOp, getInput().getType(), getResult().getType(),
                ALL_TO_ALL)
DIST_COLLECTIVE(AllSliceOp, getInput().getType(), getResult().getType(), SPLIT)
DIST_ASYNC_COLLECTIVE(AllReduceStartOp, getInputs().getTypes(), SAME)
DIST_ASYNC_COLLECTIVE(ReduceScatterStartOp, getInputs().getTypes(), SPLIT)
DIST_ASYNC_COLLECTIVE(AllGatherStartOp, getInput().getType(), GATHER)
DIST_ASYNC_COLLECTIVE(AllToAllStartOp, getInput().getType(), ALL_TO_ALL)

#undef DIST_COLLECTIVE_CHECKED
#undef DIST_COLLECTIVE
#undef DIST_ASYNC_COLLECTIVE
#undef SAME
#undef SPLIT
#undef GATHER
#undef ALL_TO_ALL

LogicalResult AxisIndexOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return success(succeeded(verifyMeshAxes(*this, symbolTable, getMeshAttr(), getAxes())));
}

/// The largest tag MPI promises (MPI_TAG_UB is at least 32767).
static constexpr int64_t kMaxTag = 32767;

/// A point-to-point op names a device of its group and a tag MPI can carry.
static LogicalResult verifyPeer(Operation *op, SymbolTableCollection &symbolTable,
                                FlatSymbolRefAttr mesh, ArrayAttr axes,
                                int64_t peer, int64_t tag) {
  FailureOr<int64_t> group = verifyMeshAxes(op, symbolTable, mesh, axes);
  if (failed(group))
    return failure();
  if (peer < 0 || peer >= *group)
    return op->emitOpError() << "names device " << peer
                             << " of a group of " << *group << " over "
                             << axes;
  if (tag < 0 || tag > kMaxTag)
    return op->emitOpError() << "has tag " << tag << ", outside [0, "
                             << kMaxTag << "] (MPI's least tag bound)";
  return success();
}

LogicalResult SendOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return verifyPeer(*this, symbolTable, getMeshAttr(), getAxes(), getPeer(),
                    getTag());
}

LogicalResult RecvOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return verifyPeer(*this, symbolTable, getMeshAttr(), getAxes(), getPeer(),
                    getTag());
}

LogicalResult WaitOp::verify() {
  TypeRange expected = handleTypes(getHandle());
  if (TypeRange(getResultTypes()) != expected)
    return emitOpError() << "expected the result types the handle carries ("
                         << getHandle().getType() << ")";
  return success();
}

#define GET_OP_CLASSES
#include "Dist/DistCollectiveOps.cpp.inc"
