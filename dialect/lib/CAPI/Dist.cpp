//===- Dist.cpp - C API of the dist dialect ---------------------------------===//

#include "Dist-c/Dist.h"
#include "ParseGuards.h"
#include "Dist/DistOps.h"

#include "mlir/CAPI/IR.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/CAPI/Registration.h"
#include "mlir/CAPI/Support.h"
#include "mlir/CAPI/Pass.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Location.h"
#include "mlir/Transforms/RegionUtils.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;
using namespace mlir::dist;

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Dist, dist, DistDialect)

static ShardingAttr sharding(MlirAttribute attr) {
  return cast<ShardingAttr>(unwrap(attr));
}
static MeshOp mesh(MlirOperation op) { return cast<MeshOp>(unwrap(op)); }

static ArrayAttr axisList(MLIRContext *ctx, const MlirStringRef *names,
                          intptr_t n) {
  SmallVector<Attribute> axes;
  for (intptr_t i = 0; i < n; ++i)
    axes.push_back(StringAttr::get(ctx, unwrap(names[i])));
  return ArrayAttr::get(ctx, axes);
}

MlirAttribute distShardingAttrGetChecked(MlirLocation loc, MlirStringRef mesh,
                                         intptr_t numDims,
                                         const intptr_t *dimOffsets,
                                         const MlirStringRef *dimAxes,
                                         intptr_t numPartialAxes,
                                         const MlirStringRef *partialAxes,
                                         DistReductionKind partialKind) {
  Location location = unwrap(loc);
  MLIRContext *ctx = location.getContext();
  SmallVector<Attribute> dims;
  for (intptr_t d = 0; d < numDims; ++d)
    dims.push_back(axisList(ctx, dimAxes + dimOffsets[d],
                            dimOffsets[d + 1] - dimOffsets[d]));
  return wrap(ShardingAttr::getChecked(
      location, ctx, FlatSymbolRefAttr::get(ctx, unwrap(mesh)),
      ArrayAttr::get(ctx, dims), axisList(ctx, partialAxes, numPartialAxes),
      static_cast<ReductionKind>(partialKind)));
}

bool distAttributeIsASharding(MlirAttribute attr) {
  return isa<ShardingAttr>(unwrap(attr));
}
MlirStringRef distShardingAttrGetMesh(MlirAttribute attr) {
  return wrap(sharding(attr).getMesh().getValue());
}
intptr_t distShardingAttrGetNumDims(MlirAttribute attr) {
  return sharding(attr).getDims().size();
}
intptr_t distShardingAttrGetDimNumAxes(MlirAttribute attr, intptr_t dim) {
  return cast<ArrayAttr>(sharding(attr).getDims()[dim]).size();
}
MlirStringRef distShardingAttrGetDimAxis(MlirAttribute attr, intptr_t dim,
                                         intptr_t pos) {
  auto axes = cast<ArrayAttr>(sharding(attr).getDims()[dim]);
  return wrap(cast<StringAttr>(axes[pos]).getValue());
}
intptr_t distShardingAttrGetNumPartialAxes(MlirAttribute attr) {
  return sharding(attr).getPartialAxes().size();
}
MlirStringRef distShardingAttrGetPartialAxis(MlirAttribute attr,
                                             intptr_t pos) {
  return wrap(cast<StringAttr>(sharding(attr).getPartialAxes()[pos]).getValue());
}
DistReductionKind distShardingAttrGetPartialKind(MlirAttribute attr) {
  return static_cast<DistReductionKind>(sharding(attr).getPartialKind());
}

bool distReductionKindAttrGetValue(MlirAttribute attr,
                                   DistReductionKind *kind) {
  auto kindAttr = dyn_cast<ReductionKindAttr>(unwrap(attr));
  if (!kindAttr)
    return false;
  *kind = static_cast<DistReductionKind>(kindAttr.getValue());
  return true;
}

MlirAttribute distReductionKindAttrGet(MlirContext ctx,
                                       DistReductionKind kind) {
  return wrap(
      ReductionKindAttr::get(unwrap(ctx), static_cast<ReductionKind>(kind)));
}

MlirAttribute distLinalgIteratorTypeAttrGet(MlirContext ctx,
                                            MlirStringRef name) {
  auto kind = utils::symbolizeIteratorType(unwrap(name));
  if (!kind)
    return MlirAttribute{nullptr};
  return wrap(linalg::IteratorTypeAttr::get(unwrap(ctx), *kind));
}

MlirAttribute distGPUSelectObjectAttrGet(MlirContext ctx,
                                         MlirAttribute target) {
  return wrap(gpu::SelectObjectAttr::get(unwrap(ctx), unwrap(target)));
}

MlirAttribute distNVVMTargetAttrGet(MlirContext ctx, MlirStringRef chip) {
  return wrap(NVVM::NVVMTargetAttr::get(unwrap(ctx), /*optLevel=*/2,
                                        "nvptx64-nvidia-cuda", unwrap(chip)));
}

MlirAttribute distNVVMMMALayoutAttrGet(MlirContext ctx, MlirStringRef name) {
  auto layout = NVVM::symbolizeMMALayout(unwrap(name));
  if (!layout)
    return MlirAttribute{nullptr};
  return wrap(NVVM::MMALayoutAttr::get(unwrap(ctx), *layout));
}

MlirAttribute distNVVMMMATypesAttrGet(MlirContext ctx, MlirStringRef name) {
  auto type = NVVM::symbolizeMMATypes(unwrap(name));
  if (!type)
    return MlirAttribute{nullptr};
  return wrap(NVVM::MMATypesAttr::get(unwrap(ctx), *type));
}

MlirAttribute distNVVMMMAShapeAttrGet(MlirContext ctx, int m, int n, int k) {
  return wrap(NVVM::MMAShapeAttr::get(unwrap(ctx), m, n, k));
}

bool distOperationIsAMesh(MlirOperation op) { return isa<MeshOp>(unwrap(op)); }

MlirOperation distLookupMesh(MlirOperation from, MlirStringRef name) {
  Operation *op = unwrap(from);
  return wrap(lookupMesh(op, FlatSymbolRefAttr::get(op->getContext(),
                                                    unwrap(name)))
                  .getOperation());
}
MlirStringRef distMeshGetName(MlirOperation op) {
  return wrap(mesh(op).getSymName());
}
intptr_t distMeshGetNumAxes(MlirOperation op) {
  return mesh(op).getAxisSizes().size();
}
MlirStringRef distMeshGetAxisName(MlirOperation op, intptr_t axis) {
  return wrap(cast<StringAttr>(mesh(op).getAxisNames()[axis]).getValue());
}
int64_t distMeshGetAxisSize(MlirOperation op, intptr_t axis) {
  return mesh(op).getAxisSizes()[axis];
}
intptr_t distMeshGetNumDeviceIds(MlirOperation op) {
  std::optional<ArrayRef<int64_t>> ids = mesh(op).getDevices();
  return ids ? ids->size() : 0;
}
int64_t distMeshGetDeviceId(MlirOperation op, intptr_t pos) {
  return (*mesh(op).getDevices())[pos];
}

MlirType distHandleTypeGet(MlirContext ctx, intptr_t n, const MlirType *types) {
  SmallVector<Type> unwrapped;
  for (intptr_t i = 0; i < n; ++i)
    unwrapped.push_back(unwrap(types[i]));
  return wrap(HandleType::getChecked(UnknownLoc::get(unwrap(ctx)),
                                     unwrap(ctx), ArrayRef<Type>(unwrapped)));
}
bool distTypeIsAHandle(MlirType type) { return isa<HandleType>(unwrap(type)); }

bool distLocationGetFileLineCol(MlirLocation loc, MlirStringRef *file,
                                unsigned *line, unsigned *column) {
  std::optional<FileLineColLoc> found;
  unwrap(loc)->walk([&](Location nested) {
    if (auto fileLoc = dyn_cast<FileLineColLoc>(nested)) {
      found = fileLoc;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (!found)
    return false;
  *file = wrap(found->getFilename().getValue());
  *line = found->getLine();
  *column = found->getColumn();
  return true;
}

void distContextForEachAvailableDialect(MlirContext ctx,
                                        MlirStringCallback callback,
                                        void *userData) {
  std::vector<StringRef> names = unwrap(ctx)->getAvailableDialects();
  llvm::sort(names);
  for (StringRef name : names)
    callback(wrap(name), userData);
}

MlirOperation distParseSourceModule(MlirContext ctx, MlirStringRef source,
                                    MlirStringRef filename) {
  if (failed(mlir::dist::checkParserGuards(unwrap(ctx), unwrap(source), unwrap(filename))))
    return MlirOperation{nullptr};
  // Verify after wrapping: symbols at the top level (dist.mesh) need the
  // implicit module as their symbol table.
  ParserConfig config(unwrap(ctx), /*verifyAfterParse=*/false);
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(unwrap(source), config, unwrap(filename));
  if (!module || failed(verify(*module)))
    return MlirOperation{nullptr};
  return wrap(module.release().getOperation());
}

void distPassManagerEnableImplicitNesting(MlirPassManager pm) {
  unwrap(pm)->setNesting(OpPassManager::Nesting::Implicit);
}

void distContextSetPrintOpOnDiagnostic(MlirContext ctx, bool enable) {
  unwrap(ctx)->printOpOnDiagnostic(enable);
}

intptr_t distStaticTensorShape(MlirType type, int64_t *sizes,
                               intptr_t capacity) {
  auto tensor = dyn_cast<RankedTensorType>(unwrap(type));
  if (!tensor || !tensor.hasStaticShape())
    return -1;
  ArrayRef<int64_t> shape = tensor.getShape();
  for (auto [i, size] : llvm::enumerate(shape.take_front(capacity)))
    sizes[i] = size;
  return shape.size();
}

bool distOperationIsAFunction(MlirOperation op) {
  return isa<FunctionOpInterface>(unwrap(op));
}

/// Sets `key` to `attrs[i]` (where not null) in `dicts[i]`, or removes it
/// from every dict when `attrs` is null. Done on the whole list, then set
/// once: one attribute at a time rebuilds (and uniques, for good) the array
/// of all of them each time, quadratic in time and memory (3 GB for the
/// 11,000 arguments of a 1,000-layer step).
static void updateDicts(MLIRContext *ctx, SmallVectorImpl<DictionaryAttr> &dicts,
                        StringAttr key, intptr_t n, const MlirAttribute *attrs) {
  for (auto [i, dict] : llvm::enumerate(dicts)) {
    if (attrs && (static_cast<intptr_t>(i) >= n || mlirAttributeIsNull(attrs[i])))
      continue;
    NamedAttrList list(dict);
    if (attrs)
      list.set(key, unwrap(attrs[i]));
    else if (!list.erase(key))
      continue;
    dict = list.getDictionary(ctx);
  }
}

void distFunctionSetResultAttrs(MlirOperation op, MlirStringRef name,
                                intptr_t n, const MlirAttribute *attrs) {
  auto fn = cast<FunctionOpInterface>(unwrap(op));
  SmallVector<DictionaryAttr> dicts;
  fn.getAllResultAttrs(dicts);
  updateDicts(fn->getContext(), dicts, StringAttr::get(fn->getContext(), unwrap(name)), n, attrs);
  fn.setAllResultAttrs(dicts);
}

void distFunctionRemoveArgResultAttrs(MlirOperation op, MlirStringRef name) {
  auto fn = cast<FunctionOpInterface>(unwrap(op));
  StringAttr key = StringAttr::get(fn->getContext(), unwrap(name));
  SmallVector<DictionaryAttr> dicts;
  fn.getAllArgAttrs(dicts);
  updateDicts(fn->getContext(), dicts, key, 0, nullptr);
  fn.setAllArgAttrs(dicts);
  dicts.clear();
  fn.getAllResultAttrs(dicts);
  updateDicts(fn->getContext(), dicts, key, 0, nullptr);
  fn.setAllResultAttrs(dicts);
}

void distFunctionSetType(MlirOperation op, MlirType type) {
  cast<FunctionOpInterface>(unwrap(op)).setType(unwrap(type));
}

bool distFunctionEraseArguments(MlirOperation op, intptr_t n, const bool *erase) {
  llvm::BitVector indices(n);
  for (intptr_t i = 0; i < n; ++i)
    if (erase[i])
      indices.set(i);
  return succeeded(cast<FunctionOpInterface>(unwrap(op)).eraseArguments(indices));
}

bool distOperationIsMemoryEffectFree(MlirOperation op) {
  return isMemoryEffectFree(unwrap(op));
}

intptr_t distFunctionGetNumArguments(MlirOperation op) {
  return cast<FunctionOpInterface>(unwrap(op)).getNumArguments();
}

intptr_t distFunctionGetNumResults(MlirOperation op) {
  return cast<FunctionOpInterface>(unwrap(op)).getNumResults();
}

MlirAttribute distFunctionGetArgAttr(MlirOperation op, intptr_t index,
                                     MlirStringRef name) {
  return wrap(cast<FunctionOpInterface>(unwrap(op)).getArgAttr(index,
                                                               unwrap(name)));
}

void distFunctionSetArgAttrs(MlirOperation op, MlirStringRef name, intptr_t n,
                             const MlirAttribute *attrs) {
  auto fn = cast<FunctionOpInterface>(unwrap(op));
  MLIRContext *ctx = fn->getContext();
  SmallVector<DictionaryAttr> dicts;
  fn.getAllArgAttrs(dicts);
  updateDicts(ctx, dicts, StringAttr::get(ctx, unwrap(name)), n, attrs);
  fn.setAllArgAttrs(dicts);
}

MlirAttribute distFunctionGetResultAttr(MlirOperation op, intptr_t index,
                                        MlirStringRef name) {
  return wrap(cast<FunctionOpInterface>(unwrap(op)).getResultAttr(
      index, unwrap(name)));
}

void distEmitDiagnostic(MlirLocation loc, MlirDiagnosticSeverity severity,
                        MlirStringRef message) {
  Location location = unwrap(loc);
  StringRef text = unwrap(message);
  switch (severity) {
  case MlirDiagnosticError:
    emitError(location, text);
    return;
  case MlirDiagnosticWarning:
    emitWarning(location, text);
    return;
  case MlirDiagnosticNote:
  case MlirDiagnosticRemark:
    // Notes attach to another diagnostic; alone they are remarks.
    emitRemark(location, text);
    return;
  }
}

MlirOperation distOutlineIntoFunction(MlirOperation op, MlirStringRef name) {
  Operation *target = unwrap(op);
  auto parent = target->getParentOfType<func::FuncOp>();
  llvm::SetVector<Value> arguments;
  arguments.insert(target->operand_begin(), target->operand_end());
  getUsedValuesDefinedAbove(target->getRegions(), arguments);
  SmallVector<Type> types;
  for (Value v : arguments)
    types.push_back(v.getType());
  OpBuilder builder(parent);
  builder.setInsertionPointAfter(parent);
  Location loc = target->getLoc();
  auto function = func::FuncOp::create(
      builder, loc, unwrap(name), builder.getFunctionType(types, {}));
  function.setPrivate();
  function->setAttr("passthrough",
                    builder.getArrayAttr(builder.getStringAttr("noinline")));
  Block *entry = function.addEntryBlock();
  IRMapping mapping;
  mapping.map(arguments.getArrayRef(), entry->getArguments());
  builder.setInsertionPointToStart(entry);
  builder.clone(*target, mapping);
  func::ReturnOp::create(builder, loc);
  builder.setInsertionPoint(target);
  func::CallOp::create(builder, loc, function, arguments.getArrayRef());
  target->erase();
  return wrap(function.getOperation());
}

/// Whether `op`'s body is exactly `out + in0 * in1`, or `out + extf(in0) *
/// extf(in1)` (a product of 16-bit inputs accumulated in f32:
/// `convert-dist-to-linalg`'s bf16 contractions), in either operand order:
/// isaContractionOpInterface also accepts other unary ops around the
/// operands (`exp(a) * b`), which a GEMM would drop.
static bool isPlainMultiplyAccumulate(linalg::LinalgOp op) {
  Block &body = op->getRegion(0).front();
  auto ops = body.getOperations().size();
  if (ops != 3 && ops != 5)
    return false;
  // What a body value is: a block argument, seen through an extf.
  auto argument = [&](Value v) -> int {
    if (auto ext = v.getDefiningOp<arith::ExtFOp>())
      v = ext.getIn();
    auto arg = dyn_cast<BlockArgument>(v);
    return arg && arg.getOwner() == &body ? arg.getArgNumber() : -1;
  };
  unsigned extensions = 0;
  for (Operation &inner : body.without_terminator())
    if (auto ext = dyn_cast<arith::ExtFOp>(inner)) {
      int input = argument(ext.getIn());
      if (input != 0 && input != 1)
        return false;
      ++extensions;
    }
  if (extensions != ops - 3)
    return false;
  auto yield = cast<linalg::YieldOp>(body.back());
  auto add = yield->getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add)
    return false;
  auto mul = add.getLhs().getDefiningOp<arith::MulFOp>();
  Value out = add.getRhs();
  if (!mul) {
    mul = add.getRhs().getDefiningOp<arith::MulFOp>();
    out = add.getLhs();
  }
  if (!mul || out != body.getArgument(2))
    return false;
  int lhs = argument(mul.getLhs()), rhs = argument(mul.getRhs());
  return (lhs == 0 && rhs == 1) || (lhs == 1 && rhs == 0);
}

intptr_t distLinalgContractionRoles(MlirOperation op, int64_t *roles,
                                   intptr_t capacity) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(unwrap(op));
  if (!linalgOp ||
      !(linalgOp.hasPureBufferSemantics() || linalgOp.hasPureTensorSemantics()) ||
      linalgOp.getNumDpsInputs() != 2 || linalgOp.getNumDpsInits() != 1 ||
      !linalg::isaContractionOpInterface(linalgOp) ||
      !isPlainMultiplyAccumulate(linalgOp))
    return -1;
  // f32 inputs, or bf16 ones (the runtime's two GEMMs), into f32.
  Type input;
  for (OpOperand &operand : linalgOp->getOpOperands()) {
    auto type = dyn_cast<ShapedType>(operand.get().getType());
    if (!type || !type.hasRank() || type.getRank() > capacity)
      return -1;
    Type element = type.getElementType();
    bool isInit = operand.getOperandNumber() == 2;
    if (isInit ? !element.isF32() : !(element.isF32() || element.isBF16()))
      return -1;
    if (!isInit && input && element != input)
      return -1;
    if (!isInit)
      input = element;
  }
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(linalgOp);
  // Every loop must be batch, m, n or k: a loop only one operand has (an
  // extra reduction of A, a parallel dim only C has) is not a GEMM's.
  if (failed(dims) || dims->m.empty() || dims->n.empty() ||
      dims->k.size() != 1 ||
      dims->batch.size() + dims->m.size() + dims->n.size() + 1 !=
          linalgOp.getNumLoops())
    return -1;
  // Of several m (or n) loops, the one innermost in the output is the GEMM's
  // m; the others run as batch loops that one input broadcasts over (a
  // batched activation times a weight), which the runtime folds into m.
  AffineMap init = linalgOp.getIndexingMapsArray().back();
  auto innermost = [&](ArrayRef<unsigned> loops) {
    return *llvm::max_element(loops, [&](unsigned a, unsigned b) {
      return *init.getResultPosition(getAffineDimExpr(a, init.getContext())) <
             *init.getResultPosition(getAffineDimExpr(b, init.getContext()));
    });
  };
  unsigned m = innermost(dims->m), n = innermost(dims->n), k = dims->k[0];
  SmallVector<unsigned> batch(dims->batch.begin(), dims->batch.end());
  for (unsigned loop : llvm::concat<const unsigned>(dims->m, dims->n))
    if (loop != m && loop != n)
      batch.push_back(loop);
  llvm::sort(batch);
  int64_t nb = batch.size();
  // The roles pack four bits a dim (`dist-call-blas`): k, the largest, is
  // nb + 2 and is stored plus one.
  if (nb > 12)
    return -1;
  auto role = [&](unsigned loop) -> int64_t {
    if (loop == m)
      return nb;
    if (loop == n)
      return nb + 1;
    if (loop == k)
      return nb + 2;
    return llvm::find(batch, loop) - batch.begin();
  };
  for (auto [i, map] : llvm::enumerate(linalgOp.getIndexingMapsArray())) {
    for (auto [j, expr] : llvm::enumerate(map.getResults())) {
      int64_t &slot = roles[i * capacity + j];
      if (auto dim = dyn_cast<AffineDimExpr>(expr))
        slot = role(dim.getPosition());
      else if (auto constant = dyn_cast<AffineConstantExpr>(expr);
               constant && constant.getValue() == 0)
        slot = -1;
      else
        return -1;
    }
  }
  return nb;
}

intptr_t distLinalgGetStaticLoops(MlirOperation op, int64_t *ranges,
                                  bool *reduction, intptr_t capacity) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(unwrap(op));
  if (!linalgOp)
    return -1;
  SmallVector<int64_t> loops = linalgOp.getStaticLoopRanges();
  SmallVector<utils::IteratorType> kinds = linalgOp.getIteratorTypesArray();
  for (intptr_t i = 0, e = std::min<intptr_t>(loops.size(), capacity); i < e;
       ++i) {
    ranges[i] = loops[i];
    reduction[i] = kinds[i] == utils::IteratorType::reduction;
  }
  return loops.size();
}

MlirValue distGpuLaunchAddWorkgroupAttribution(MlirOperation launch,
                                               MlirType type,
                                               MlirLocation loc) {
  return wrap(cast<gpu::LaunchOp>(unwrap(launch))
                  .addWorkgroupAttribution(unwrap(type), unwrap(loc)));
}
