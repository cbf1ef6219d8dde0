//===- ShapeCheck.h - shape checks that name the offending value -*- C++ -*-===//

#ifndef DIST_LIB_SHAPECHECK_H
#define DIST_LIB_SHAPECHECK_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"

namespace mlir::dist {

inline ArrayRef<int64_t> shapeOf(Value v) {
  return cast<ShapedType>(v.getType()).getShape();
}

/// Verifier messages in the form `expected dout dim 1 to be 64, got 32`.
class ShapeChecker {
public:
  explicit ShapeChecker(Operation *op) : op(op) {}

  LogicalResult shape(StringRef name, Type actual, ArrayRef<int64_t> expected) {
    ArrayRef<int64_t> got = cast<ShapedType>(actual).getShape();
    if (got.size() != expected.size())
      return op->emitOpError() << "expected " << name << " to have rank "
                               << expected.size() << ", got " << got.size();
    for (auto [dim, pair] : llvm::enumerate(llvm::zip(expected, got)))
      if (std::get<0>(pair) != std::get<1>(pair))
        return op->emitOpError()
               << "expected " << name << " dim " << dim << " to be "
               << std::get<0>(pair) << ", got " << std::get<1>(pair);
    return success();
  }
  LogicalResult shape(StringRef name, Value v, ArrayRef<int64_t> expected) {
    return shape(name, v.getType(), expected);
  }

  LogicalResult elementType(StringRef name, Type actual, Type expected) {
    Type got = cast<ShapedType>(actual).getElementType();
    if (got != expected)
      return op->emitOpError() << "expected " << name << " element type "
                               << expected << ", got " << got;
    return success();
  }

  Operation *op;
};

/// The shape `operands` broadcast to, NumPy-style: aligned at the trailing
/// dims, a missing or size-1 dim stretches to the others' size. Emits an
/// error naming the operands and fails where they do not broadcast.
inline FailureOr<SmallVector<int64_t>>
broadcastShape(Operation *op,
               ArrayRef<std::pair<StringRef, Value>> operands) {
  size_t rank = 0;
  for (auto &[name, value] : operands)
    rank = std::max(rank, shapeOf(value).size());
  SmallVector<int64_t> out(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    for (auto &[name, value] : operands) {
      ArrayRef<int64_t> shape = shapeOf(value);
      if (i + shape.size() < rank)
        continue;
      int64_t size = shape[i + shape.size() - rank];
      if (size != 1 && out[i] != 1 && size != out[i]) {
        InFlightDiagnostic diag = op->emitOpError();
        for (auto [k, operand] : llvm::enumerate(operands))
          diag << (k == 0 ? "" : k + 1 == operands.size() ? " and " : ", ")
               << operand.first;
        return diag << " do not broadcast: " << out[i] << " vs " << size
                    << " at dim " << i << " of the result";
      }
      if (size != 1)
        out[i] = size;
    }
  }
  return out;
}

/// All tensor operands and results share one element type.
inline LogicalResult verifySameElementType(Operation *op) {
  Type element;
  auto types = llvm::concat<const Type>(op->getOperandTypes(),
                                        op->getResultTypes());
  for (Type type : types) {
    auto shaped = dyn_cast<ShapedType>(type);
    if (!shaped)
      continue;
    if (!element)
      element = shaped.getElementType();
    else if (shaped.getElementType() != element)
      return op->emitOpError() << "expects one element type, got " << element
                               << " and " << shaped.getElementType();
  }
  return success();
}

} // namespace mlir::dist

#endif // DIST_LIB_SHAPECHECK_H
