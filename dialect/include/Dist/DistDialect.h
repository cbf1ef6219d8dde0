//===- DistDialect.h - dist dialect, attributes and types --------*- C++ -*-===//

#ifndef DIST_DISTDIALECT_H
#define DIST_DISTDIALECT_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/RWMutex.h"

#include "Dist/DistEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "Dist/DistAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "Dist/DistTypes.h.inc"

#include "Dist/DistDialect.h.inc"

namespace mlir::dist {
class MeshOp;

/// Checks `sharding` against the mesh it names (looked up from `anchor`) and
/// against `type`: axes exist, rank matches, and for a global type (not the
/// local type of a shard) split dims divide evenly.
LogicalResult verifyShardingFor(Operation *anchor, ShardingAttr sharding,
                                Type type,
                                llvm::function_ref<InFlightDiagnostic()> emitError,
                                bool globalType = true);

/// The mesh named `name`, searched from `from` outwards; null if none.
MeshOp lookupMesh(Operation *from, FlatSymbolRefAttr name);
} // namespace mlir::dist

#endif // DIST_DISTDIALECT_H
