//===- DistOps.h - dist dialect operations -----------------------*- C++ -*-===//

#ifndef DIST_DISTOPS_H
#define DIST_DISTOPS_H

#include "Dist/DistDialect.h"
#include "Dist/DistTraits.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "Dist/DistOps.h.inc"

#define GET_OP_CLASSES
#include "Dist/DistCollectiveOps.h.inc"

#define GET_OP_CLASSES
#include "Dist/DistOptimizerOps.h.inc"

#define GET_OP_CLASSES
#include "Dist/DistMathOps.h.inc"

#define GET_OP_CLASSES
#include "Dist/DistLogicOps.h.inc"

#define GET_OP_CLASSES
#include "Dist/DistPipelineOps.h.inc"

#endif // DIST_DISTOPS_H
