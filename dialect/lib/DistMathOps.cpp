//===- DistMathOps.cpp - dist elementwise math functions -------------------===//
//
// The math ops keep their operand's type (SameOperandsAndResultType in the
// ODS): they have no verifier of their own.
//
//===----------------------------------------------------------------------===//

#include "Dist/DistOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::dist;

#define GET_OP_CLASSES
#include "Dist/DistMathOps.cpp.inc"
