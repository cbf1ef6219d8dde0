//===- DistOptimizerOps.cpp - dist optimizer step verifiers ----------------===//

#include "Dist/DistOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/SmallString.h"

#include <cmath>

using namespace mlir;
using namespace mlir::dist;

/// Each of `values` (named by `names`) has the parameter's type.
static LogicalResult verifyParamTyped(Operation *op, Type param,
                                      ValueRange values,
                                      ArrayRef<StringRef> names) {
  for (auto [value, name] : llvm::zip(values, names))
    if (value.getType() != param)
      return op->emitOpError() << "expected " << name << " of type " << param
                               << " (the parameter's), got "
                               << value.getType();
  return success();
}

/// `value` in the shortest form that reads back as it (0.1, 1.0000001):
/// diagnostics otherwise print doubles in a fixed exponent form.
static std::string shortest(double value) {
  llvm::SmallString<32> text;
  llvm::APFloat(value).toString(text);
  return std::string(text);
}

/// Attribute `name` is a rate in [0, 1).
static LogicalResult verifyRate(Operation *op, StringRef name, double value) {
  if (!(value >= 0 && value < 1))
    return op->emitOpError() << "expected " << name << " in [0, 1), got "
                             << shortest(value);
  return success();
}

/// Attribute `name` is finite and at least 0 (or above 0 when
/// `positive`).
static LogicalResult verifyNonNegative(Operation *op, StringRef name,
                                       double value, bool positive = false) {
  if (!(positive ? value > 0 : value >= 0) || std::isinf(value))
    return op->emitOpError() << "expected a finite " << name
                             << (positive ? " > 0" : " >= 0") << ", got "
                             << shortest(value);
  return success();
}

/// The parameter is f32 or f64: the update's constants and bias
/// corrections are not representable in half precision.
static LogicalResult verifyParamElement(Operation *op, Type param) {
  Type element = cast<RankedTensorType>(param).getElementType();
  if (!element.isF32() && !element.isF64())
    return op->emitOpError() << "expected an f32 or f64 parameter (keep "
                                "half-precision training's master weights "
                                "in f32), got "
                             << param;
  return success();
}

LogicalResult AdamWOp::verify() {
  Type param = getParam().getType();
  if (failed(verifyParamElement(*this, param)) ||
      failed(verifyParamTyped(
          *this, param,
          {getGrad(), getM(), getV(), getNewParam(), getNewM(), getNewV()},
          {"grad", "m", "v", "result #0", "result #1", "result #2"})))
    return failure();
  auto step = cast<RankedTensorType>(getStep().getType());
  if (step.getRank() != 0 || !step.getElementType().isF32())
    return emitOpError() << "expected step to be a rank-0 f32 tensor (the "
                            "1-based step count), got "
                         << step;
  return success(
      succeeded(verifyNonNegative(*this, "lr", getLr().convertToDouble())) &&
      succeeded(verifyRate(*this, "beta1", getBeta1().convertToDouble())) &&
      succeeded(verifyRate(*this, "beta2", getBeta2().convertToDouble())) &&
      succeeded(verifyNonNegative(*this, "epsilon",
                                  getEpsilon().convertToDouble(),
                                  /*positive=*/true)) &&
      succeeded(verifyNonNegative(*this, "weight_decay",
                                  getWeightDecay().convertToDouble())));
}

LogicalResult SgdOp::verify() {
  Type param = getParam().getType();
  if (failed(verifyParamElement(*this, param)) ||
      failed(verifyParamTyped(*this, param, {getGrad(), getNewParam()},
                              {"grad", "result #0"})) ||
      failed(verifyNonNegative(*this, "lr", getLr().convertToDouble())))
    return failure();
  // The buffer, its attribute and its result come together.
  bool buffer = static_cast<bool>(getMomentumBuffer());
  if (buffer != getMomentum().has_value() ||
      buffer != static_cast<bool>(getNewMomentumBuffer()))
    return emitOpError() << "expected a momentum buffer operand, the "
                            "momentum attribute and the new buffer result "
                            "together, got "
                         << (buffer ? "a" : "no") << " buffer, "
                         << (getMomentum() ? "a" : "no") << " momentum and "
                         << getNumResults() << " result(s)";
  if (!buffer)
    return success();
  if (failed(verifyParamTyped(*this, param,
                              {getMomentumBuffer(), getNewMomentumBuffer()},
                              {"momentum_buffer", "result #1"})))
    return failure();
  return verifyRate(*this, "momentum", getMomentum()->convertToDouble());
}

#define GET_OP_CLASSES
#include "Dist/DistOptimizerOps.cpp.inc"
