//===- DistPlugin.cpp - dist dialect plugin for mlir-opt --------------------===//
//
// `mlir-opt --load-dialect-plugin=libDistPlugin.so` parses, verifies and
// prints dist IR with upstream's driver.
//
//===----------------------------------------------------------------------===//

#include "Dist/DistDialect.h"

#include "mlir/Tools/Plugins/DialectPlugin.h"

extern "C" LLVM_ATTRIBUTE_WEAK ::mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "Dist", LLVM_VERSION_STRING,
          [](::mlir::DialectRegistry *registry) {
            registry->insert<::mlir::dist::DistDialect>();
          }};
}
