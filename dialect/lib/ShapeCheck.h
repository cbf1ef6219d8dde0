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

} // namespace mlir::dist

#endif // DIST_LIB_SHAPECHECK_H
