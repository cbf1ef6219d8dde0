//===- RustPass.cpp - register Rust passes with MLIR's pass registry --------===//
//
// The C API can build an external pass but cannot register one under a name,
// so `--pass-pipeline` strings could not mention Rust passes. This shim is a
// Pass subclass whose options are MLIR pass options (parsed, printed and
// listed by MLIR) and whose body calls back into Rust.
//
//===----------------------------------------------------------------------===//

#include "Dist-c/Dist.h"
#include "Dist/DistDialect.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Pass.h"
#include "mlir/CAPI/Support.h"
#include "mlir/CAPI/Utils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"

#include <deque>

using namespace mlir;

namespace {
struct OptionSpec {
  std::string name, description, defaultValue;
};

/// Everything one registration owns; lives for the whole process.
struct Registration {
  std::string argument, description, opName;
  std::vector<OptionSpec> options;
  /// Dialects whose ops the pass creates, loaded before it runs.
  std::vector<std::string> dialects;
  DistRustPassCallbacks callbacks;
  void *userData;
  TypeID typeID;
};

class RustPass;

/// The Rust pass this thread runs, for the pipelines it runs on its op
/// (`distRunNestedPipeline`).
static thread_local RustPass *running = nullptr;

class RustPass : public Pass {
public:
  explicit RustPass(const Registration &reg)
      : Pass(reg.typeID, reg.opName.empty()
                             ? std::nullopt
                             : std::optional<StringRef>(reg.opName)),
        reg(reg), state(reg.callbacks.create(reg.userData)) {
    for (const OptionSpec &spec : reg.options)
      values.push_back(std::make_unique<Option<std::string>>(
          *this, spec.name, llvm::cl::desc(spec.description),
          llvm::cl::init(spec.defaultValue)));
    // Rust starts from every declared default; parsed or copied values
    // are pushed again later. Defaults are valid by construction.
    (void)pushOptions([](const Twine &) { return failure(); });
  }
  ~RustPass() override { reg.callbacks.destroy(state); }

  StringRef getName() const override { return reg.argument; }
  StringRef getArgument() const override { return reg.argument; }
  StringRef getDescription() const override { return reg.description; }
  bool canScheduleOn(RegisteredOperationName) const override { return true; }

  void getDependentDialects(DialectRegistry &registry) const override {
    // Every Rust pass may build dist ops and attributes, on input that has
    // none yet (an import).
    registry.insert<dist::DistDialect>();
    for (const std::string &name : reg.dialects) {
      if (name == "arith")
        registry.insert<arith::ArithDialect>();
      else if (name == "linalg")
        registry.insert<linalg::LinalgDialect>();
      else if (name == "math")
        registry.insert<math::MathDialect>();
      else if (name == "tensor")
        registry.insert<tensor::TensorDialect>();
      else if (name == "memref")
        registry.insert<memref::MemRefDialect>();
      else if (name == "bufferization")
        registry.insert<bufferization::BufferizationDialect>();
      else if (name == "func")
        registry.insert<func::FuncDialect>();
      else if (name == "gpu")
        registry.insert<gpu::GPUDialect>();
      else if (name == "llvm")
        registry.insert<LLVM::LLVMDialect>();
      else if (name == "nvvm")
        registry.insert<NVVM::NVVMDialect>();
      else if (name == "scf")
        registry.insert<scf::SCFDialect>();
      else if (name == "transform")
        registry.insert<transform::TransformDialect>();
      else
        llvm::report_fatal_error(
            Twine("a Rust pass depends on an unknown dialect: ") + name);
    }
  }

  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) override {
    if (failed(Pass::initializeOptions(options, errorHandler)))
      return failure();
    return pushOptions(errorHandler);
  }

  std::unique_ptr<Pass> clonePass() const override {
    auto copy = std::make_unique<RustPass>(reg);
    copy->copyOptionValuesFrom(this);
    (void)copy->pushOptions([](const Twine &) { return failure(); });
    return copy;
  }

  void runOnOperation() override {
    RustPass *outer = running;
    running = this;
    MlirLogicalResult result = reg.callbacks.run(state, wrap(getOperation()));
    running = outer;
    if (mlirLogicalResultIsFailure(result))
      signalPassFailure();
  }

  /// Runs `pm` on `op`, this pass's op or one nested in it (MLIR's dynamic
  /// pass pipelines).
  LogicalResult runNested(OpPassManager &pm, Operation *op) {
    return runPipeline(pm, op);
  }

private:
  LogicalResult
  pushOptions(function_ref<LogicalResult(const Twine &)> errorHandler) {
    for (auto [spec, value] : llvm::zip(reg.options, values)) {
      std::string message;
      auto emit = [](MlirStringRef part, void *data) {
        static_cast<std::string *>(data)->append(part.data, part.length);
      };
      if (mlirLogicalResultIsFailure(reg.callbacks.setOption(
              state, wrap(StringRef(spec.name)),
              wrap(StringRef(value->getValue())), emit, &message)))
        return errorHandler(message);
    }
    return success();
  }

  const Registration &reg;
  void *state;
  std::vector<std::unique_ptr<Option<std::string>>> values;
};
} // namespace

/// Each registered Rust pass by argument. Registrations are never freed:
/// the registry keeps allocators that point at them until the process exits.
static llvm::StringMap<Registration *> &registered() {
  static llvm::StringMap<Registration *> byArgument;
  return byArgument;
}

void distRegisterRustPass(MlirStringRef argument, MlirStringRef description,
                          MlirStringRef opName, intptr_t numOptions,
                          const DistRustPassOption *options,
                          intptr_t numDialects, const MlirStringRef *dialects,
                          DistRustPassCallbacks callbacks, void *userData) {
  static std::deque<Registration> registrations;
  static TypeIDAllocator typeIDs;
  Registration &reg = registrations.emplace_back();
  reg.argument = unwrap(argument).str();
  reg.description = unwrap(description).str();
  reg.opName = unwrap(opName).str();
  for (intptr_t i = 0; i < numOptions; ++i)
    reg.options.push_back({unwrap(options[i].name).str(),
                           unwrap(options[i].description).str(),
                           unwrap(options[i].defaultValue).str()});
  for (intptr_t i = 0; i < numDialects; ++i)
    reg.dialects.push_back(unwrap(dialects[i]).str());
  reg.callbacks = callbacks;
  reg.userData = userData;
  reg.typeID = typeIDs.allocate();
  registerPass([&reg]() -> std::unique_ptr<Pass> {
    return std::make_unique<RustPass>(reg);
  });
  registered()[reg.argument] = &reg;
}

void distRegisterPassPipeline(MlirStringRef argument, MlirStringRef description,
                              DistPipelineBuilder builder, intptr_t index) {
  registerPassPipeline(
      unwrap(argument), unwrap(description),
      [builder, index](OpPassManager &pm, StringRef options,
                       function_ref<LogicalResult(const Twine &)> errorHandler)
          -> LogicalResult {
        std::string text;
        auto append = [](MlirStringRef chunk, void *data) {
          static_cast<std::string *>(data)->append(chunk.data, chunk.length);
        };
        if (!builder(index, wrap(options), append, &text))
          return errorHandler(text);
        std::string error;
        llvm::raw_string_ostream errors(error);
        if (failed(parsePassPipeline(text, pm, errors)))
          return errorHandler("a registered dist pipeline does not parse: " +
                              error);
        return success();
      },
      // The options are listed in the Rust pipeline's documentation
      // (`dist-opt --help-passes`), not by MLIR's option printer.
      [](function_ref<void(const detail::PassOptions &)>) {});
}

MlirLogicalResult distRunNestedPipeline(MlirOperation op, MlirStringRef pipeline,
                                        MlirStringCallback callback,
                                        void *userData) {
  mlir::detail::CallbackOstream stream(callback, userData);
  if (!running) {
    stream << "a nested pipeline runs from inside a Rust pass";
    return wrap(failure());
  }
  Operation *operation = unwrap(op);
  OpPassManager pm(operation->getName());
  if (failed(parsePassPipeline(unwrap(pipeline), pm, stream)))
    return wrap(failure());
  return wrap(running->runNested(pm, operation));
}

bool distIsRegisteredPass(MlirStringRef argument) {
  StringRef arg = unwrap(argument);
  return PassInfo::lookup(arg) || PassPipelineInfo::lookup(arg);
}

/// The C++ pass (Transforms/ApproximateMath.cpp).
mlir::Pass *distCreateApproximateMathPass();

MlirPass distCreateRegisteredPass(MlirStringRef argument) {
  StringRef arg = unwrap(argument);
  if (arg == "dist-approximate-math")
    return wrap(distCreateApproximateMathPass());
  auto found = registered().find(arg);
  if (found == registered().end())
    return MlirPass{nullptr};
  return wrap(static_cast<Pass *>(new RustPass(*found->second)));
}

MlirLogicalResult distOpPassManagerAddPassFlag(MlirOpPassManager pm,
                                               MlirStringRef name,
                                               MlirStringRef options,
                                               MlirStringCallback callback,
                                               void *userData) {
  mlir::detail::CallbackOstream stream(callback, userData);
  StringRef arg = unwrap(name);
  const PassRegistryEntry *entry = PassInfo::lookup(arg);
  if (!entry)
    entry = PassPipelineInfo::lookup(arg);
  if (!entry) {
    stream << "'" << arg << "' does not refer to a registered pass or pass pipeline";
    return wrap(failure());
  }
  auto errorHandler = [&](const Twine &message) {
    stream << message;
    return failure();
  };
  if (failed(entry->addToPipeline(*unwrap(pm), unwrap(options), errorHandler))) {
    // Option errors went to llvm::errs(); name the pass as the textual
    // pipeline parser does.
    stream << "\nfailed to add `" << arg << "` with options `" << unwrap(options)
           << "`";
    return wrap(failure());
  }
  return wrap(success());
}

void distPrintRegisteredPasses(void) {
  printRegisteredPasses();
  llvm::outs().flush();
}

void distForEachRegisteredPassName(MlirStringCallback callback,
                                   void *userData) {
  // MLIR keeps its registry of passes and pipelines private; a command-line
  // parser of pass names is the one public view of it. Made without an
  // argument name, it registers every pass and pipeline as an option of its
  // own in LLVM's process-wide option table (as mlir-opt's `-cse`), so the
  // options it adds are the names. Made once: a second parser would
  // register each name twice, which LLVM treats as a fatal error, as it
  // would a pass named like an LLVM option (mlir-opt, which registers the
  // same names beside the same options, shows that none is). Only the
  // drivers' error paths (a mistyped flag) call this.
  static const std::vector<std::string> names = [] {
    auto &options = llvm::cl::getRegisteredOptions();
    llvm::StringSet<> before;
    for (const auto &entry : options)
      before.insert(entry.first);
    static PassNameCLParser parser("", "");
    std::vector<std::string> added;
    for (const auto &entry : options)
      if (!before.contains(entry.first))
        added.push_back(entry.first.str());
    return added;
  }();
  for (const std::string &name : names)
    callback(mlirStringRefCreate(name.data(), name.size()), userData);
}
