//===- DistTraits.h - traits shared by every dist op ------------*- C++ -*-===//

#ifndef DIST_DISTTRAITS_H
#define DIST_DISTTRAITS_H

#include "mlir/IR/OpDefinition.h"

namespace mlir::OpTrait::dist {

/// Checks that every statically shaped tensor `op` takes or makes has a size
/// in bytes that a signed 64-bit integer holds (DistOps.cpp).
LogicalResult verifyTensorSizesFit(Operation *op);

/// Every tensor of the op has a size in bytes below 2^63: memref sizes and
/// offsets, the runtime's buffers and the passes' per-device sizes are
/// signed 64-bit integers, so a larger tensor would wrap around to a small
/// one (a memory report of 8 bytes for 2^64 elements) instead of failing.
template <typename ConcreteType>
class TensorSizesFit : public TraitBase<ConcreteType, TensorSizesFit> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    return verifyTensorSizesFit(op);
  }
};

} // namespace mlir::OpTrait::dist

#endif // DIST_DISTTRAITS_H
