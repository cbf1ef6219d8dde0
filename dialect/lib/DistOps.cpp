//===- DistOps.cpp - dist mesh and compute op verifiers ---------------------===//

#include "Dist/DistOps.h"
#include "ShapeCheck.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::dist;

//===----------------------------------------------------------------------===//
// TensorSizesFit
//===----------------------------------------------------------------------===//

/// Whether a static tensor type has more than 2^63 - 1 bytes. Elements
/// other than integers and floats (index, complex) count as 8 bytes, the
/// size of an index and of a complex<f32>.
static bool exceedsInt64Bytes(RankedTensorType type) {
  if (!type.hasStaticShape())
    return false;
  Type element = type.getElementType();
  int64_t bits = element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 64;
  int64_t size = (bits + 7) / 8;
  for (int64_t dim : type.getShape())
    if (llvm::MulOverflow(size, dim, size))
      return true;
  return false;
}

LogicalResult mlir::OpTrait::dist::verifyTensorSizesFit(Operation *op) {
  auto check = [&](Type type, StringRef what, unsigned index) -> LogicalResult {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || !exceedsInt64Bytes(tensor))
      return success();
    return op->emitOpError()
           << what << " #" << index << " of type " << type
           << " has more than 2^63 - 1 bytes: a tensor's size in bytes must "
              "fit in a signed 64-bit integer";
  };
  for (auto [i, type] : llvm::enumerate(op->getOperandTypes()))
    if (failed(check(type, "operand", i)))
      return failure();
  for (auto [i, type] : llvm::enumerate(op->getResultTypes()))
    if (failed(check(type, "result", i)))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// MeshOp: `@name = <["dp"=2, "tp"=4], devices = [...]>`
//===----------------------------------------------------------------------===//

static ParseResult parseMeshShape(OpAsmParser &parser, ArrayAttr &names,
                                  DenseI64ArrayAttr &sizes,
                                  DenseI64ArrayAttr &devices) {
  SmallVector<Attribute> nameAttrs;
  SmallVector<int64_t> sizeValues;
  if (parser.parseLess() ||
      parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square, [&] {
        std::string name;
        int64_t size;
        if (parser.parseString(&name) || parser.parseEqual() ||
            parser.parseInteger(size))
          return failure();
        nameAttrs.push_back(parser.getBuilder().getStringAttr(name));
        sizeValues.push_back(size);
        return success();
      }))
    return failure();
  if (succeeded(parser.parseOptionalComma())) {
    SmallVector<int64_t> ids;
    if (parser.parseKeyword("devices") || parser.parseEqual() ||
        parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square, [&] {
          return parser.parseInteger(ids.emplace_back());
        }))
      return failure();
    devices = parser.getBuilder().getDenseI64ArrayAttr(ids);
  }
  names = parser.getBuilder().getArrayAttr(nameAttrs);
  sizes = parser.getBuilder().getDenseI64ArrayAttr(sizeValues);
  return parser.parseGreater();
}

static void printMeshShape(OpAsmPrinter &printer, MeshOp, ArrayAttr names,
                           DenseI64ArrayAttr sizes,
                           DenseI64ArrayAttr devices) {
  printer << "<[";
  llvm::interleaveComma(llvm::zip(names, sizes.asArrayRef()), printer,
                        [&](auto axis) {
                          printer.printString(
                              cast<StringAttr>(std::get<0>(axis)).getValue());
                          printer << '=' << std::get<1>(axis);
                        });
  printer << ']';
  if (devices) {
    printer << ", devices = [";
    llvm::interleaveComma(devices.asArrayRef(), printer);
    printer << ']';
  }
  printer << '>';
}

/// The most devices a mesh may have: MPI ranks are 32-bit.
static constexpr int64_t kMaxDevices = 2147483647;

int64_t MeshOp::getNumDevices() {
  int64_t n = 1;
  for (int64_t size : getAxisSizes())
    n *= size;
  return n;
}

int64_t MeshOp::getAxisIndex(StringRef name) {
  for (auto [i, axis] : llvm::enumerate(getAxisNames()))
    if (cast<StringAttr>(axis).getValue() == name)
      return i;
  return -1;
}

LogicalResult MeshOp::verify() {
  ArrayAttr names = getAxisNames();
  ArrayRef<int64_t> sizes = getAxisSizes();
  if (names.empty())
    return emitOpError() << "needs at least one axis";
  if (names.size() != sizes.size())
    return emitOpError() << "has " << names.size() << " axis names but "
                         << sizes.size() << " sizes";
  llvm::StringSet<> seen;
  // Devices are MPI ranks (32-bit), and the product must not overflow.
  int64_t devices = 1;
  for (auto [name, size] : llvm::zip(names, sizes)) {
    StringRef axis = cast<StringAttr>(name).getValue();
    if (axis.empty())
      return emitOpError() << "axis names must not be empty";
    if (!seen.insert(axis).second)
      return emitOpError() << "axis \"" << axis << "\" is declared twice";
    if (size < 1)
      return emitOpError() << "axis \"" << axis << "\" has size " << size
                           << "; sizes must be >= 1";
    if (size > kMaxDevices / devices)
      return emitOpError() << "has more than " << kMaxDevices
                           << " devices (the product of its axis sizes); "
                              "devices are 32-bit MPI ranks";
    devices *= size;
  }
  if (std::optional<ArrayRef<int64_t>> devices = getDevices()) {
    if (static_cast<int64_t>(devices->size()) != getNumDevices())
      return emitOpError() << "has " << getNumDevices() << " devices but "
                           << devices->size() << " device ids";
    llvm::SmallSet<int64_t, 16> ids;
    for (int64_t id : *devices) {
      if (id < 0)
        return emitOpError() << "device id " << id << " is negative";
      if (!ids.insert(id).second)
        return emitOpError() << "device id " << id << " appears twice";
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Shared shape rules
//===----------------------------------------------------------------------===//

/// All float operands and results share one element type.
static LogicalResult verifySameFloatElementType(Operation *op) {
  Type element;
  auto check = [&](Type type) -> LogicalResult {
    auto shaped = dyn_cast<ShapedType>(type);
    if (!shaped)
      return success(); // an index operand (an embedding's offset)
    Type et = shaped.getElementType();
    if (!isa<FloatType>(et))
      return success();
    if (!element)
      element = et;
    else if (et != element)
      return op->emitOpError() << "expects one float element type, got "
                               << element << " and " << et;
    return success();
  };
  for (Type t : op->getOperandTypes())
    if (failed(check(t)))
      return failure();
  for (Type t : op->getResultTypes())
    if (failed(check(t)))
      return failure();
  return success();
}

/// Result shape of `matmul(x, y)`; emits an error and fails on a mismatch.
static FailureOr<SmallVector<int64_t>>
matmulResultShape(Operation *op, Value x, Value y, bool transX, bool transY) {
  ArrayRef<int64_t> xs = shapeOf(x), ys = shapeOf(y);
  if (xs.size() < 2 || ys.size() < 2)
    return op->emitOpError() << "expects x and y of rank >= 2, got ranks "
                             << xs.size() << " and " << ys.size();
  int64_t m = transX ? xs.back() : xs[xs.size() - 2];
  int64_t xk = transX ? xs[xs.size() - 2] : xs.back();
  int64_t yk = transY ? ys.back() : ys[ys.size() - 2];
  int64_t n = transY ? ys[ys.size() - 2] : ys.back();
  if (xk != yk)
    return op->emitOpError() << "contraction dims differ: x has k = " << xk
                             << ", y has k = " << yk;
  ArrayRef<int64_t> xb = xs.drop_back(2), yb = ys.drop_back(2);
  size_t rank = std::max(xb.size(), yb.size());
  SmallVector<int64_t> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    // Align batch dims on the right, NumPy-style.
    int64_t a = i + xb.size() >= rank ? xb[i + xb.size() - rank] : 1;
    int64_t b = i + yb.size() >= rank ? yb[i + yb.size() - rank] : 1;
    if (a != b && a != 1 && b != 1)
      return op->emitOpError() << "batch dims do not broadcast: " << a
                               << " vs " << b << " at batch dim " << i;
    out[i] = a == 1 ? b : a;
  }
  out.push_back(m);
  out.push_back(n);
  return out;
}

LogicalResult MatmulOp::verify() {
  FailureOr<SmallVector<int64_t>> shape = matmulResultShape(
      *this, getX(), getY(), getTransposeX(), getTransposeY());
  if (failed(shape) || failed(ShapeChecker(*this).shape("out", getOut(), *shape)))
    return failure();
  return verifySameFloatElementType(*this);
}

LogicalResult MatmulGradOp::verify() {
  FailureOr<SmallVector<int64_t>> shape = matmulResultShape(
      *this, getX(), getY(), getTransposeX(), getTransposeY());
  ShapeChecker check(*this);
  if (failed(shape) || failed(check.shape("dout", getDout(), *shape)) ||
      failed(check.shape("dx", getDx(), shapeOf(getX()))) ||
      failed(check.shape("dy", getDy(), shapeOf(getY()))))
    return failure();
  return verifySameFloatElementType(*this);
}

/// A binary arithmetic op: floats, or integers wider than a boolean (whose
/// arithmetic is dist.and, or and xor); `dist.pow` of floats only.
template <typename Op> static LogicalResult verifyBinary(Op op) {
  FailureOr<SmallVector<int64_t>> shape =
      broadcastShape(op, {{"x", op.getX()}, {"y", op.getY()}});
  if (failed(shape) ||
      failed(ShapeChecker(op).shape("out", op.getOut(), *shape)) ||
      failed(verifySameElementType(op)))
    return failure();
  Type element = cast<ShapedType>(op.getOut().getType()).getElementType();
  if (element.isInteger(1))
    return op.emitOpError()
           << "computes on floats and integers, not i1 (booleans combine "
              "with dist.and, dist.or and dist.xor)";
  if (std::is_same_v<Op, PowOp> && !isa<FloatType>(element))
    return op.emitOpError() << "computes on floats, not " << element;
  return success();
}

template <typename Op> static LogicalResult verifyBinaryGrad(Op op) {
  FailureOr<SmallVector<int64_t>> shape =
      broadcastShape(op, {{"x", op.getX()}, {"y", op.getY()}});
  ShapeChecker check(op);
  if (failed(shape) || failed(check.shape("dout", op.getDout(), *shape)) ||
      failed(check.shape("dx", op.getDx(), shapeOf(op.getX()))) ||
      failed(check.shape("dy", op.getDy(), shapeOf(op.getY()))))
    return failure();
  return verifySameFloatElementType(op);
}

LogicalResult AddOp::verify() { return verifyBinary(*this); }
LogicalResult SubOp::verify() { return verifyBinary(*this); }
LogicalResult MulOp::verify() { return verifyBinary(*this); }
LogicalResult AddGradOp::verify() { return verifyBinaryGrad(*this); }
LogicalResult SubGradOp::verify() { return verifyBinaryGrad(*this); }
LogicalResult MulGradOp::verify() { return verifyBinaryGrad(*this); }
LogicalResult DivOp::verify() { return verifyBinary(*this); }
LogicalResult MaximumOp::verify() { return verifyBinary(*this); }
LogicalResult MinimumOp::verify() { return verifyBinary(*this); }
LogicalResult DivGradOp::verify() { return verifyBinaryGrad(*this); }
LogicalResult MaximumGradOp::verify() { return verifyBinaryGrad(*this); }
LogicalResult PowOp::verify() { return verifyBinary(*this); }
LogicalResult RemOp::verify() { return verifyBinary(*this); }
LogicalResult RemGradOp::verify() { return verifyBinaryGrad(*this); }
LogicalResult PowGradOp::verify() { return verifyBinaryGrad(*this); }
LogicalResult MinimumGradOp::verify() { return verifyBinaryGrad(*this); }

static LogicalResult verifyApproximate(Operation *op, StringRef approximate) {
  if (approximate != "none" && approximate != "tanh")
    return op->emitOpError() << "approximate must be \"none\" or \"tanh\", got \""
                             << approximate << "\"";
  return success();
}

LogicalResult GeluOp::verify() { return verifyApproximate(*this, getApproximate()); }
LogicalResult GeluGradOp::verify() { return verifyApproximate(*this, getApproximate()); }

//===----------------------------------------------------------------------===//
// Layer norm
//===----------------------------------------------------------------------===//

/// Checks begin_norm_axis and the shapes of scale, mean and rstd, which all
/// layer-norm ops share.
static LogicalResult verifyNormOperands(ShapeChecker &check, Value x,
                                        int64_t axis, Value scale,
                                        ArrayRef<std::pair<StringRef, Value>> stats) {
  ArrayRef<int64_t> xs = shapeOf(x);
  int64_t rank = xs.size();
  if (axis < 0 || axis >= rank)
    return check.op->emitOpError() << "begin_norm_axis " << axis
                                   << " is out of range [0, " << rank << ")";
  if (failed(check.shape("scale", scale, xs.drop_front(axis))))
    return failure();
  for (auto [name, stat] : stats)
    if (failed(check.shape(name, stat, xs.take_front(axis))))
      return failure();
  return verifySameFloatElementType(check.op);
}

static LogicalResult verifyLayerNormOperands(ShapeChecker &check, Value x,
                                             int64_t axis, Value scale,
                                             Value mean, Value rstd) {
  return verifyNormOperands(check, x, axis, scale, {{"mean", mean}, {"rstd", rstd}});
}

LogicalResult LayerNormOp::verify() {
  ShapeChecker check(*this);
  int64_t axis = static_cast<int64_t>(getBeginNormAxis());
  if (failed(verifyLayerNormOperands(check, getX(), axis, getScale(),
                                     getMean(), getRstd())) ||
      failed(check.shape("bias", getBias(), shapeOf(getScale()))) ||
      failed(check.shape("y", getY(), shapeOf(getX()))))
    return failure();
  return success();
}

LogicalResult LayerNormGradOp::verify() {
  ShapeChecker check(*this);
  int64_t axis = static_cast<int64_t>(getBeginNormAxis());
  if (failed(verifyLayerNormOperands(check, getX(), axis, getScale(),
                                     getMean(), getRstd())) ||
      failed(check.shape("dy", getDy(), shapeOf(getX()))) ||
      failed(check.shape("dx", getDx(), shapeOf(getX()))) ||
      failed(check.shape("dscale", getDscale(), shapeOf(getScale()))) ||
      failed(check.shape("dbias", getDbias(), shapeOf(getScale()))))
    return failure();
  return success();
}

LogicalResult RmsNormOp::verify() {
  ShapeChecker check(*this);
  int64_t axis = static_cast<int64_t>(getBeginNormAxis());
  if (failed(verifyNormOperands(check, getX(), axis, getScale(), {{"rstd", getRstd()}})))
    return failure();
  return check.shape("y", getY(), shapeOf(getX()));
}

LogicalResult RmsNormGradOp::verify() {
  ShapeChecker check(*this);
  int64_t axis = static_cast<int64_t>(getBeginNormAxis());
  if (failed(verifyNormOperands(check, getX(), axis, getScale(), {{"rstd", getRstd()}})) ||
      failed(check.shape("dy", getDy(), shapeOf(getX()))) ||
      failed(check.shape("dx", getDx(), shapeOf(getX()))))
    return failure();
  return check.shape("dscale", getDscale(), shapeOf(getScale()));
}

//===----------------------------------------------------------------------===//
// Causal mask
//===----------------------------------------------------------------------===//

/// A tensor of query x key positions (rank >= 2) masked into `out` of its
/// type, with no offsets or one per position dim.
static LogicalResult verifyCausalMask(Operation *op, Value in, Value out,
                                      ValueRange offsets) {
  if (shapeOf(in).size() < 2)
    return op->emitOpError() << "expected query and key dims (rank >= 2), got rank "
                             << shapeOf(in).size();
  if (!offsets.empty() && offsets.size() != 2)
    return op->emitOpError() << "expected no offsets or two (query, key), got "
                             << offsets.size();
  if (in.getType() != out.getType())
    return op->emitOpError() << "expected the result of type " << in.getType()
                             << ", got " << out.getType();
  return success();
}

LogicalResult CausalMaskOp::verify() {
  return verifyCausalMask(*this, getScores(), getOut(), getOffsets());
}

LogicalResult CausalMaskGradOp::verify() {
  return verifyCausalMask(*this, getDout(), getDx(), getOffsets());
}

//===----------------------------------------------------------------------===//
// Attention
//===----------------------------------------------------------------------===//

/// The operands `q`, `k`, `v` and attributes of an attention op, and its
/// output `out` and log-sum-exp `lse` (results of the forward, operands of
/// the gradient).
static LogicalResult verifyAttention(Operation *op, Value q, Value k, Value v,
                                     Value out, Value lse, Value offset,
                                     bool causal,
                                     std::optional<uint64_t> balance) {
  ShapeChecker check(op);
  ArrayRef<int64_t> qs = shapeOf(q), ks = shapeOf(k), vs = shapeOf(v);
  size_t rank = qs.size();
  if (rank < 2)
    return op->emitOpError()
           << "expected q of rank >= 2 (queries, features), got rank " << rank;
  if (ks.size() != rank || vs.size() != rank)
    return op->emitOpError() << "expected k and v of q's rank " << rank
                             << ", got " << ks.size() << " and " << vs.size();
  for (auto [name, shape] :
       {std::pair<StringRef, ArrayRef<int64_t>>{"k", ks}, {"v", vs}})
    for (size_t d = 0; d + 2 < rank; ++d)
      if (shape[d] != qs[d] && shape[d] != 1)
        return op->emitOpError()
               << "expected " << name << " dim " << d << " to be " << qs[d]
               << " (q's) or 1 (broadcast), got " << shape[d];
  if (ks.drop_back(2) != vs.drop_back(2))
    return op->emitOpError()
           << "expected k and v of one leading shape (the heads they share)";
  int64_t queries = qs[rank - 2], keys = ks[rank - 2];
  if (ks[rank - 1] != qs[rank - 1])
    return op->emitOpError() << "expected k's features (last dim) to be q's "
                             << qs[rank - 1] << ", got " << ks[rank - 1];
  if (vs[rank - 2] != keys)
    return op->emitOpError() << "expected v dim " << rank - 2 << " (keys) to be "
                             << keys << ", got " << vs[rank - 2];
  SmallVector<int64_t> rows(qs.drop_back());
  SmallVector<int64_t> outs(rows);
  outs.push_back(vs.back());
  if (failed(check.shape("out", out, outs)) ||
      failed(check.shape("lse", lse, rows)))
    return failure();
  Type element = cast<ShapedType>(q.getType()).getElementType();
  for (auto [name, value] : {std::pair<StringRef, Value>{"k", k}, {"v", v}, {"out", out}})
    if (failed(check.elementType(name, value.getType(), element)))
      return failure();
  // The log-sum-exp is kept in f32 (f64 for f64 inputs): 16 bits would
  // put a relative error of 2^-8 of it into every recomputed weight.
  Type wide = element.isF64() ? element : Float32Type::get(op->getContext());
  if (failed(check.elementType("lse", lse.getType(), wide)))
    return failure();
  if (offset && !causal)
    return op->emitOpError() << "an offset places the queries of a causal "
                                "mask: expected causal";
  if (!balance)
    return success();
  if (!causal)
    return op->emitOpError() << "balance orders the positions of a causal "
                                "mask: expected causal";
  int64_t shards = static_cast<int64_t>(*balance);
  if (shards < 1 || keys % (2 * shards) != 0)
    return op->emitOpError()
           << "expected balance >= 1 dividing the " << keys
           << " keys into 2 x balance equal chunks, got " << shards;
  if (queries > keys)
    return op->emitOpError() << "expected at most the " << keys
                             << " keys' queries under balance, got " << queries;
  return success();
}

LogicalResult AttentionOp::verify() {
  return verifyAttention(*this, getQ(), getK(), getV(), getOut(), getLse(),
                         getOffset(), getCausal(), getBalance());
}

LogicalResult AttentionGradOp::verify() {
  if (failed(verifyAttention(*this, getQ(), getK(), getV(), getOut(), getLse(),
                             getOffset(), getCausal(), getBalance())))
    return failure();
  for (auto [name, value, like] :
       {std::tuple<StringRef, Value, Value>{"dout", getDout(), getOut()},
        {"dq", getDq(), getQ()},
        {"dk", getDk(), getK()},
        {"dv", getDv(), getV()}})
    if (value.getType() != like.getType())
      return emitOpError() << "expected " << name << " of type " << like.getType()
                           << ", got " << value.getType();
  return success();
}

//===----------------------------------------------------------------------===//
// Cast
//===----------------------------------------------------------------------===//

/// The types the lowering converts between: the floats of the dialect and
/// signless integers (booleans included).
static bool castable(Type element) {
  return element.isF16() || element.isBF16() || element.isF32() ||
         element.isF64() || element.isSignlessInteger();
}

LogicalResult CastOp::verify() {
  auto in = cast<RankedTensorType>(getX().getType());
  auto out = cast<RankedTensorType>(getOut().getType());
  if (in.getShape() != out.getShape())
    return emitOpError() << "result type " << out
                         << " has another shape than the operand's " << in;
  for (Type element : {in.getElementType(), out.getElementType()})
    if (!castable(element))
      return emitOpError()
             << "casts between f16, bf16, f32, f64 and signless integers, not "
             << element;
  return success();
}

//===----------------------------------------------------------------------===//
// MaskPadding
//===----------------------------------------------------------------------===//

LogicalResult MaskPaddingOp::verify() {
  if (getX().getType() != getOut().getType())
    return emitOpError() << "result type " << getOut().getType()
                         << " differs from the operand's " << getX().getType();
  int64_t rank = shapeOf(getX()).size();
  if (getDim() < 0 || getDim() >= rank)
    return emitOpError() << "dim " << getDim() << " is out of range for rank "
                         << rank;
  if (getSize() < 1)
    return emitOpError() << "size must be positive, not " << getSize();
  return success();
}

//===----------------------------------------------------------------------===//
// Embedding
//===----------------------------------------------------------------------===//

/// Shape of the looked-up rows: ids.shape + [hidden].
static FailureOr<SmallVector<int64_t>> embeddingShape(Operation *op, Value ids,
                                                      Value table) {
  ArrayRef<int64_t> ts = shapeOf(table);
  if (ts.size() != 2)
    return op->emitOpError() << "expected table to have rank 2, got "
                             << ts.size();
  SmallVector<int64_t> out(shapeOf(ids));
  out.push_back(ts[1]);
  return out;
}

LogicalResult EmbeddingOp::verify() {
  FailureOr<SmallVector<int64_t>> shape = embeddingShape(*this, getIds(), getTable());
  if (failed(shape) || failed(ShapeChecker(*this).shape("out", getOut(), *shape)))
    return failure();
  return verifySameFloatElementType(*this);
}

LogicalResult EmbeddingGradOp::verify() {
  FailureOr<SmallVector<int64_t>> shape = embeddingShape(*this, getIds(), getTable());
  ShapeChecker check(*this);
  if (failed(shape) || failed(check.shape("dout", getDout(), *shape)) ||
      failed(check.shape("dtable", getDtable(), shapeOf(getTable()))))
    return failure();
  return verifySameFloatElementType(*this);
}

//===----------------------------------------------------------------------===//
// Take along, cross-entropy
//===----------------------------------------------------------------------===//

/// `idx` (named `idxName`) indexes the last dim of `x` (named `what`, of
/// rank >= 1): it has `x`'s other dims.
static LogicalResult verifyIndexing(ShapeChecker &check, StringRef what,
                                    Value x, StringRef idxName, Value idx) {
  ArrayRef<int64_t> xs = shapeOf(x);
  if (xs.empty())
    return check.op->emitOpError() << "expected " << what
                                   << " of rank >= 1, got a scalar";
  return check.shape(idxName, idx, xs.drop_back());
}

LogicalResult TakeAlongOp::verify() {
  ShapeChecker check(*this);
  if (failed(verifyIndexing(check, "x", getX(), "idx", getIdx())) ||
      failed(check.shape("out", getOut(), shapeOf(getIdx()))))
    return failure();
  return verifySameFloatElementType(*this);
}

LogicalResult TakeAlongGradOp::verify() {
  ShapeChecker check(*this);
  if (failed(verifyIndexing(check, "dx", getDx(), "idx", getIdx())))
    return failure();
  ArrayRef<int64_t> ds = shapeOf(getDout()), is = shapeOf(getIdx());
  if (ds.size() > is.size())
    return emitOpError() << "expected dout of rank <= " << is.size()
                         << " (the rank of idx), got " << ds.size();
  for (auto [d, size] : llvm::enumerate(ds)) {
    int64_t want = is[is.size() - ds.size() + d];
    if (size != want && size != 1)
      return emitOpError() << "dout does not broadcast to idx: " << size
                           << " vs " << want << " at dim " << d << " of dout";
  }
  return verifySameFloatElementType(*this);
}

LogicalResult TopKOp::verify() {
  ShapeChecker check(*this);
  ArrayRef<int64_t> xs = shapeOf(getX());
  if (xs.empty())
    return emitOpError() << "expected x of rank >= 1, got a scalar";
  int64_t k = getK();
  if (k < 1 || k > xs.back())
    return emitOpError() << "expected k in [1, " << xs.back()
                         << "] (the size of x's last dim), got " << k;
  SmallVector<int64_t> picked(xs.drop_back());
  picked.push_back(k);
  if (failed(check.shape("values", getValues(), picked)) ||
      failed(check.shape("indices", getIndices(), picked)))
    return failure();
  return verifySameFloatElementType(*this);
}

LogicalResult TopKGradOp::verify() {
  ShapeChecker check(*this);
  ArrayRef<int64_t> is = shapeOf(getIndices()), ds = shapeOf(getDx());
  if (is.empty())
    return emitOpError() << "expected indices of rank >= 1, got a scalar";
  if (failed(check.shape("dvalues", getDvalues(), is)))
    return failure();
  SmallVector<int64_t> whole(is.drop_back());
  whole.push_back(ds.empty() ? 0 : ds.back());
  if (failed(check.shape("dx", getDx(), whole)))
    return failure();
  if (ds.back() < is.back())
    return emitOpError() << "expected dx's last dim to hold the " << is.back()
                         << " picked entries, got " << ds.back();
  return verifySameFloatElementType(*this);
}

LogicalResult CrossEntropyOp::verify() {
  ShapeChecker check(*this);
  if (failed(verifyIndexing(check, "logits", getLogits(), "labels", getLabels())) ||
      failed(check.shape("loss", getLoss(), {})))
    return failure();
  return verifySameFloatElementType(*this);
}

LogicalResult CrossEntropyGradOp::verify() {
  ShapeChecker check(*this);
  if (failed(verifyIndexing(check, "logits", getLogits(), "labels", getLabels())) ||
      failed(check.shape("dloss", getDloss(), {})) ||
      failed(check.shape("dlogits", getDlogits(), shapeOf(getLogits()))))
    return failure();
  return verifySameFloatElementType(*this);
}

//===----------------------------------------------------------------------===//
// Softmax
//===----------------------------------------------------------------------===//

static LogicalResult verifySoftmaxAxis(Operation *op, Value x, int64_t axis) {
  int64_t rank = shapeOf(x).size();
  if (axis < -rank || axis >= rank)
    return op->emitOpError() << "axis " << axis << " is out of range [" << -rank
                             << ", " << rank << ")";
  return success();
}

LogicalResult SoftmaxOp::verify() {
  return verifySoftmaxAxis(*this, getX(), static_cast<int64_t>(getAxis()));
}
LogicalResult SoftmaxGradOp::verify() {
  return verifySoftmaxAxis(*this, getY(), static_cast<int64_t>(getAxis()));
}

//===----------------------------------------------------------------------===//
// Reductions, reshape, transpose
//===----------------------------------------------------------------------===//

/// Shape of `x` reduced over `dims`.
static FailureOr<SmallVector<int64_t>>
reducedShape(Operation *op, Value x, ArrayRef<int64_t> dims, bool keepdim) {
  ArrayRef<int64_t> xs = shapeOf(x);
  int64_t rank = xs.size();
  SmallVector<bool> reduced(rank, false);
  for (int64_t dim : dims) {
    if (dim < 0 || dim >= rank)
      return op->emitOpError() << "reduced dim " << dim
                               << " is out of range [0, " << rank << ")";
    if (reduced[dim])
      return op->emitOpError() << "reduced dim " << dim << " is listed twice";
    reduced[dim] = true;
  }
  SmallVector<int64_t> out;
  for (int64_t d = 0; d < rank; ++d) {
    if (!reduced[d])
      out.push_back(xs[d]);
    else if (keepdim)
      out.push_back(1);
  }
  return out;
}

template <typename Op> static LogicalResult verifyReduce(Op op) {
  FailureOr<SmallVector<int64_t>> shape =
      reducedShape(op, op.getX(), op.getDims(), op.getKeepdim());
  if (failed(shape) || failed(ShapeChecker(op).shape("out", op.getOut(), *shape)))
    return failure();
  return verifySameElementType(op);
}

template <typename Op> static LogicalResult verifyReduceGrad(Op op) {
  FailureOr<SmallVector<int64_t>> shape =
      reducedShape(op, op.getX(), op.getDims(), op.getKeepdim());
  ShapeChecker check(op);
  if (failed(shape) || failed(check.shape("dout", op.getDout(), *shape)) ||
      failed(check.shape("dx", op.getDx(), shapeOf(op.getX()))))
    return failure();
  return verifySameFloatElementType(op);
}

LogicalResult ReduceSumOp::verify() {
  if (cast<ShapedType>(getX().getType()).getElementType().isInteger(1))
    return emitOpError() << "sums booleans: their or is dist.reduce_max";
  return verifyReduce(*this);
}
LogicalResult ReduceMeanOp::verify() { return verifyReduce(*this); }
LogicalResult ReduceSumGradOp::verify() { return verifyReduceGrad(*this); }
LogicalResult ReduceMeanGradOp::verify() { return verifyReduceGrad(*this); }
LogicalResult ReduceMaxOp::verify() { return verifyReduce(*this); }
LogicalResult ReduceMinOp::verify() { return verifyReduce(*this); }

template <typename Op> static LogicalResult verifyReduceChoiceGrad(Op op) {
  if (failed(verifyReduceGrad(op)))
    return failure();
  return ShapeChecker(op).shape("out", op.getOut(), shapeOf(op.getDout()));
}

LogicalResult ReduceMaxGradOp::verify() { return verifyReduceChoiceGrad(*this); }
LogicalResult ReduceMinGradOp::verify() { return verifyReduceChoiceGrad(*this); }

LogicalResult ReshapeOp::verify() {
  auto in = cast<ShapedType>(getX().getType());
  auto out = cast<ShapedType>(getOut().getType());
  if (in.getNumElements() != out.getNumElements())
    return emitOpError() << "cannot reshape " << in.getNumElements()
                         << " elements into " << out.getNumElements();
  return ShapeChecker(*this).elementType("out", out, in.getElementType());
}

/// `offsets` and `sizes` (as many as `x` has dims) cut a rectangle out of
/// a tensor of shape `xs`.
static LogicalResult verifySliceBounds(Operation *op, ArrayRef<int64_t> xs,
                                       ArrayRef<int64_t> offsets,
                                       ArrayRef<int64_t> sizes) {
  if (offsets.size() != xs.size() || sizes.size() != xs.size())
    return op->emitOpError() << "expected " << xs.size()
                             << " offsets and sizes (the rank of x), got "
                             << offsets.size() << " and " << sizes.size();
  for (auto [d, bounds] : llvm::enumerate(llvm::zip(offsets, sizes))) {
    auto [offset, size] = bounds;
    if (offset < 0 || size < 1 || offset > xs[d] - size)
      return op->emitOpError()
             << "slice [" << offset << ", " << offset + size << ") of dim " << d
             << " is not within its " << xs[d] << " entries";
  }
  return success();
}

LogicalResult SliceOp::verify() {
  if (failed(verifySliceBounds(*this, shapeOf(getX()), getOffsets(), getSizes())))
    return failure();
  ShapeChecker check(*this);
  if (failed(check.shape("out", getOut(), getSizes())))
    return failure();
  return check.elementType("out", getOut().getType(),
                           cast<ShapedType>(getX().getType()).getElementType());
}

LogicalResult SliceGradOp::verify() {
  ArrayRef<int64_t> douts = shapeOf(getDout());
  if (failed(verifySliceBounds(*this, shapeOf(getDx()), getOffsets(), douts)))
    return failure();
  return verifySameFloatElementType(*this);
}

/// The shape of the operands `parts` concatenated along `dim`.
static FailureOr<SmallVector<int64_t>> concatShape(Operation *op,
                                                   ValueRange parts,
                                                   int64_t dim) {
  SmallVector<ArrayRef<int64_t>> shapes;
  for (Value v : parts)
    shapes.push_back(shapeOf(v));
  if (shapes.empty())
    return op->emitOpError() << "expected at least one operand";
  ArrayRef<int64_t> first = shapes.front();
  if (dim < 0 || dim >= static_cast<int64_t>(first.size()))
    return op->emitOpError() << "dim " << dim << " is out of range for rank "
                             << first.size();
  SmallVector<int64_t> out(first);
  out[dim] = 0;
  for (auto [i, shape] : llvm::enumerate(shapes)) {
    if (shape.size() != first.size())
      return op->emitOpError() << "operand #" << i << " has rank "
                               << shape.size() << ", operand #0 " << first.size();
    for (auto [d, size] : llvm::enumerate(shape))
      if (static_cast<int64_t>(d) != dim && size != first[d])
        return op->emitOpError() << "operand #" << i << " has " << size
                                 << " entries in dim " << d << ", operand #0 "
                                 << first[d];
    out[dim] += shape[dim];
  }
  return out;
}

LogicalResult CumsumOp::verify() {
  int64_t rank = cast<ShapedType>(getX().getType()).getRank();
  if (getDim() < 0 || getDim() >= rank)
    return emitOpError() << "dim " << getDim() << " is out of range [0, "
                         << rank << ")";
  if (cast<ShapedType>(getX().getType()).getElementType().isInteger(1))
    return emitOpError() << "sums booleans: a running sum is of numbers";
  return success();
}

LogicalResult ConcatOp::verify() {
  FailureOr<SmallVector<int64_t>> shape =
      concatShape(*this, getInputs(), getDim());
  if (failed(shape) || failed(ShapeChecker(*this).shape("out", getOut(), *shape)))
    return failure();
  Type element = cast<ShapedType>(getOut().getType()).getElementType();
  for (Value v : getInputs())
    if (failed(ShapeChecker(*this).elementType("operand", v.getType(), element)))
      return failure();
  return success();
}

LogicalResult ConcatGradOp::verify() {
  FailureOr<SmallVector<int64_t>> shape =
      concatShape(*this, getGrads(), getDim());
  if (failed(shape) || failed(ShapeChecker(*this).shape("dout", getDout(), *shape)))
    return failure();
  return verifySameFloatElementType(*this);
}

LogicalResult TransposeOp::verify() {
  ArrayRef<int64_t> xs = shapeOf(getX());
  ArrayRef<int64_t> perm = getPerm();
  int64_t rank = xs.size();
  SmallVector<bool> seen(rank, false);
  if (static_cast<int64_t>(perm.size()) != rank)
    return emitOpError() << "perm has " << perm.size()
                         << " entries but x has rank " << rank;
  SmallVector<int64_t> out;
  for (int64_t p : perm) {
    if (p < 0 || p >= rank || seen[p])
      return emitOpError() << "perm must be a permutation of [0, " << rank
                           << ")";
    seen[p] = true;
    out.push_back(xs[p]);
  }
  ShapeChecker check(*this);
  if (failed(check.shape("out", getOut(), out)))
    return failure();
  return check.elementType("out", getOut().getType(),
                           cast<ShapedType>(getX().getType()).getElementType());
}

#define GET_OP_CLASSES
#include "Dist/DistOps.cpp.inc"
