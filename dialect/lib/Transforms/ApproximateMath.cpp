//===- ApproximateMath.cpp - dist-approximate-math -----------------------===//
//
// libm's tanhf, expf and erff are scalar calls that stop LLVM from
// vectorizing the loops around them: in the GPT step, gelu's tanh alone took
// 30% of the time. Upstream MLIR's polynomial approximations (the ones its
// CPU pipelines use) are straight-line f32 code that vectorizes. This pass
// applies them; it is C++ because the patterns are.
//
//===----------------------------------------------------------------------===//

#include "Dist-c/Dist.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;

namespace {
struct ApproximateMath
    : public PassWrapper<ApproximateMath, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ApproximateMath)

  StringRef getArgument() const final { return "dist-approximate-math"; }
  StringRef getDescription() const final {
    return "Replace f32 tanh, erf, exp, expm1, log and log1p by upstream's "
           "polynomial approximations (vectorizable, no libm calls). Runs "
           "on any op; before: `%y = math.tanh %x : f32`; after: the "
           "arith ops of the approximation";
  }
  void getDependentDialects(DialectRegistry &registry) const final {
    registry.insert<arith::ArithDialect, math::MathDialect,
                    vector::VectorDialect>();
  }

  void runOnOperation() final {
    auto selected = [](StringRef name) {
      return llvm::is_contained({"math.tanh", "math.erf", "math.exp",
                                 "math.expm1", "math.log", "math.log1p"},
                                name);
    };
    // Only those ops and what their rewrites create: nothing else is folded.
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      if (selected(op->getName().getStringRef()))
        ops.push_back(op);
    });
    if (ops.empty())
      return;
    RewritePatternSet patterns(&getContext());
    populateMathPolynomialApproximationPatterns(patterns, selected);
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
    config.enableFolding(false);
    if (failed(applyOpPatternsGreedily(ops, std::move(patterns), config)))
      signalPassFailure();
  }
};
} // namespace

void distRegisterCppPasses(void) { PassRegistration<ApproximateMath>(); }

mlir::Pass *distCreateApproximateMathPass() { return new ApproximateMath(); }
