//===- ParseGuards.h - refuse inputs that crash MLIR 22's parser ---------===//

#ifndef DIST_CAPI_PARSEGUARDS_H
#define DIST_CAPI_PARSEGUARDS_H

#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/LLVM.h"

namespace mlir::dist {
/// Reports (at its location) the first construct of `source` that upstream
/// MLIR 22's parser crashes on; see ParseGuards.cpp.
LogicalResult checkParserGuards(MLIRContext *ctx, StringRef source,
                                StringRef filename);
} // namespace mlir::dist

#endif // DIST_CAPI_PARSEGUARDS_H
