//===- DistLogicOps.cpp - comparisons, selection, logic, iota -------------===//

#include "Dist/DistOps.h"
#include "ShapeCheck.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::dist;

#define GET_OP_CLASSES
#include "Dist/DistLogicOps.cpp.inc"

static Type elementOf(Value value) {
  return cast<ShapedType>(value.getType()).getElementType();
}

LogicalResult CompareOp::verify() {
  if (!llvm::is_contained({"eq", "ne", "lt", "le", "gt", "ge"},
                          getDirection()))
    return emitOpError() << "direction must be one of \"eq\", \"ne\", "
                            "\"lt\", \"le\", \"gt\", \"ge\", got \""
                         << getDirection() << '"';
  Type element = elementOf(getX());
  if (!element.isIntOrFloat())
    return emitOpError() << "compares floats, integers and booleans, not "
                         << element;
  if (elementOf(getY()) != element)
    return emitOpError() << "expects x and y of one element type, got "
                         << element << " and " << elementOf(getY());
  FailureOr<SmallVector<int64_t>> shape =
      broadcastShape(*this, {{"x", getX()}, {"y", getY()}});
  if (failed(shape))
    return failure();
  return ShapeChecker(*this).shape("out", getOut(), *shape);
}

LogicalResult SelectOp::verify() {
  Type element = elementOf(getOut());
  if (!element.isIntOrFloat())
    return emitOpError() << "selects floats, integers and booleans, not "
                         << element;
  for (auto [name, value] :
       {std::pair<StringRef, Value>{"on_true", getOnTrue()},
        {"on_false", getOnFalse()}})
    if (failed(ShapeChecker(*this).elementType(name, value.getType(),
                                               element)))
      return failure();
  FailureOr<SmallVector<int64_t>> shape = broadcastShape(
      *this,
      {{"pred", getPred()}, {"on_true", getOnTrue()}, {"on_false", getOnFalse()}});
  if (failed(shape))
    return failure();
  return ShapeChecker(*this).shape("out", getOut(), *shape);
}

LogicalResult SelectGradOp::verify() {
  FailureOr<SmallVector<int64_t>> shape = broadcastShape(
      *this,
      {{"pred", getPred()}, {"on_true", getOnTrue()}, {"on_false", getOnFalse()}});
  ShapeChecker check(*this);
  if (failed(shape) || failed(check.shape("dout", getDout(), *shape)) ||
      failed(check.shape("d_on_true", getDOnTrue(), shapeOf(getOnTrue()))) ||
      failed(check.shape("d_on_false", getDOnFalse(), shapeOf(getOnFalse()))))
    return failure();
  Type element = elementOf(getDout());
  for (auto [name, value] : {std::pair<StringRef, Value>{"on_true", getOnTrue()},
                             {"on_false", getOnFalse()},
                             {"d_on_true", getDOnTrue()},
                             {"d_on_false", getDOnFalse()}})
    if (failed(check.elementType(name, value.getType(), element)))
      return failure();
  return success();
}

LogicalResult IsFiniteOp::verify() {
  return ShapeChecker(*this).shape("out", getOut(), shapeOf(getX()));
}

template <typename Op> static LogicalResult verifyLogic(Op op) {
  FailureOr<SmallVector<int64_t>> shape =
      broadcastShape(op, {{"x", op.getX()}, {"y", op.getY()}});
  if (failed(shape) ||
      failed(ShapeChecker(op).shape("out", op.getOut(), *shape)))
    return failure();
  return verifySameElementType(op);
}

LogicalResult AndOp::verify() { return verifyLogic(*this); }
LogicalResult OrOp::verify() { return verifyLogic(*this); }
LogicalResult XorOp::verify() { return verifyLogic(*this); }

LogicalResult IotaOp::verify() {
  int64_t rank = shapeOf(getOut()).size();
  if (getDim() < 0 || getDim() >= rank)
    return emitOpError() << "dim " << getDim() << " is out of range for a "
                         << "result of rank " << rank;
  return success();
}
