//===- DistPipelineOps.cpp - dist pipeline-parallel stages -----------------===//
//
// The stage boundary keeps its operand's type (SameOperandsAndResultType in
// the ODS): it has no verifier of its own.
//
//===----------------------------------------------------------------------===//

#include "Dist/DistOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::dist;

#define GET_OP_CLASSES
#include "Dist/DistPipelineOps.cpp.inc"
