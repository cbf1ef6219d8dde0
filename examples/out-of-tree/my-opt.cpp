//===- my-opt.cpp - an mlir-opt with the dist dialect and passes ----------===//
//
// An out-of-tree tool on MlirOptMain: upstream's func dialect and passes,
// and dist's through its C API (DistMLIR::Dialect, DistMLIR::Passes).
// Registered before the command line is parsed, each dist pass is a flag
// (`--dist-propagate-sharding`) as in dist-opt.
//
//===----------------------------------------------------------------------===//

#include "Dist-c/Dist.h"

#include "mlir/CAPI/IR.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<mlir::func::FuncDialect>();
  mlirDistRegisterDialect(wrap(&registry));
  mlir::registerTransformsPasses();
  mlirRegisterDistPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "my-opt: dist passes out of tree\n", registry));
}
