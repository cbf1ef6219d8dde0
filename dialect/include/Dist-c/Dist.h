/*===- Dist.h - C API of the dist dialect --------------------------*- C -*-===*\
|*                                                                            *|
|* What the Rust side needs: register the dialect, build and inspect meshes,  *|
|* shardings and handle types, register Rust passes by name, and read the     *|
|* file:line:col of a location.                                               *|
\*===----------------------------------------------------------------------===*/

#ifndef DIST_C_DIST_H
#define DIST_C_DIST_H

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Dist, dist);

/// Reduction kinds, in the order of the ODS enum.
typedef enum DistReductionKind {
  DistReductionSum = 0,
  DistReductionAvg = 1,
  DistReductionMax = 2,
  DistReductionMin = 3,
} DistReductionKind;

/*===--- #dist.sharding ---------------------------------------------------===*/

/// Builds `#dist.sharding<@mesh, [...], partial = kind{...}>`. Dim `d` is
/// split by `dimAxes[dimOffsets[d] .. dimOffsets[d + 1])` (so `dimOffsets`
/// has `numDims + 1` entries). Returns a null attribute and emits a
/// diagnostic at `loc` if the sharding is malformed.
MLIR_CAPI_EXPORTED MlirAttribute distShardingAttrGetChecked(
    MlirLocation loc, MlirStringRef mesh, intptr_t numDims,
    const intptr_t *dimOffsets, const MlirStringRef *dimAxes,
    intptr_t numPartialAxes, const MlirStringRef *partialAxes,
    DistReductionKind partialKind);

MLIR_CAPI_EXPORTED bool distAttributeIsASharding(MlirAttribute attr);
MLIR_CAPI_EXPORTED MlirStringRef distShardingAttrGetMesh(MlirAttribute attr);
MLIR_CAPI_EXPORTED intptr_t distShardingAttrGetNumDims(MlirAttribute attr);
MLIR_CAPI_EXPORTED intptr_t distShardingAttrGetDimNumAxes(MlirAttribute attr,
                                                          intptr_t dim);
MLIR_CAPI_EXPORTED MlirStringRef
distShardingAttrGetDimAxis(MlirAttribute attr, intptr_t dim, intptr_t pos);
MLIR_CAPI_EXPORTED intptr_t
distShardingAttrGetNumPartialAxes(MlirAttribute attr);
MLIR_CAPI_EXPORTED MlirStringRef
distShardingAttrGetPartialAxis(MlirAttribute attr, intptr_t pos);
MLIR_CAPI_EXPORTED DistReductionKind
distShardingAttrGetPartialKind(MlirAttribute attr);

/// The kind held by a `#dist<kind ...>` reduction-kind attribute (the `kind`
/// of collectives); false if `attr` is not one.
MLIR_CAPI_EXPORTED bool distReductionKindAttrGetValue(MlirAttribute attr,
                                                      DistReductionKind *kind);

/// The `#dist<kind ...>` attribute of `kind`.
MLIR_CAPI_EXPORTED MlirAttribute distReductionKindAttrGet(MlirContext ctx,
                                                         DistReductionKind kind);

/// The rank of `type` if it is a statically shaped ranked tensor, else -1.
/// Writes the sizes of its first `capacity` dims to `sizes`: one call where
/// the generic shaped-type API takes one per dim.
MLIR_CAPI_EXPORTED intptr_t distStaticTensorShape(MlirType type,
                                                  int64_t *sizes,
                                                  intptr_t capacity);

/*===--- dist.mesh --------------------------------------------------------===*/

MLIR_CAPI_EXPORTED bool distOperationIsAMesh(MlirOperation op);
/// The mesh `name` visible from `from` (searching enclosing symbol tables);
/// a null operation if there is none.
MLIR_CAPI_EXPORTED MlirOperation distLookupMesh(MlirOperation from,
                                                MlirStringRef name);
MLIR_CAPI_EXPORTED MlirStringRef distMeshGetName(MlirOperation mesh);
MLIR_CAPI_EXPORTED intptr_t distMeshGetNumAxes(MlirOperation mesh);
MLIR_CAPI_EXPORTED MlirStringRef distMeshGetAxisName(MlirOperation mesh,
                                                     intptr_t axis);
MLIR_CAPI_EXPORTED int64_t distMeshGetAxisSize(MlirOperation mesh,
                                               intptr_t axis);
/// Number of explicit device ids, 0 if devices are numbered row-major.
MLIR_CAPI_EXPORTED intptr_t distMeshGetNumDeviceIds(MlirOperation mesh);
MLIR_CAPI_EXPORTED int64_t distMeshGetDeviceId(MlirOperation mesh,
                                               intptr_t pos);

/*===--- !dist.handle -----------------------------------------------------===*/

/// `!dist.handle<types...>`; a null type (and an error diagnostic) if the
/// list is empty or holds a non-tensor type.
MLIR_CAPI_EXPORTED MlirType distHandleTypeGet(MlirContext ctx, intptr_t n,
                                              const MlirType *types);
MLIR_CAPI_EXPORTED bool distTypeIsAHandle(MlirType type);

/*===--- Rust passes ------------------------------------------------------===*/

/// One string-valued option of a Rust pass, parsed by MLIR's option parser
/// (`--pass="name=value"`) and listed by `--help`.
typedef struct DistRustPassOption {
  MlirStringRef name;
  MlirStringRef description;
  MlirStringRef defaultValue;
} DistRustPassOption;

/// Callbacks of one pass instance; `state` is owned by Rust.
typedef struct DistRustPassCallbacks {
  /// Creates the state of a new instance from the registration's `userData`.
  void *(*create)(void *userData);
  void (*destroy)(void *state);
  /// Sets option `name` to `value` (every option is set once with its
  /// default when the instance is created). On a bad value, writes the
  /// message through `emit` and fails.
  MlirLogicalResult (*setOption)(void *state, MlirStringRef name,
                                 MlirStringRef value, MlirStringCallback emit,
                                 void *emitData);
  /// Runs on `op`; failure marks the pass as failed (the pass emits the
  /// diagnostics itself).
  MlirLogicalResult (*run)(void *state, MlirOperation op);
} DistRustPassCallbacks;

/// Registers a pass with MLIR's global registry so that `--pass-pipeline`
/// strings name it by `argument`. `opName` is the anchor op (empty: any);
/// `dialects` name the dialects whose ops it creates (`arith`,
/// `bufferization`, `func`, `linalg`, `math`, `memref`, `tensor`), loaded
/// before it runs. Strings are copied.
MLIR_CAPI_EXPORTED void
distRegisterRustPass(MlirStringRef argument, MlirStringRef description,
                     MlirStringRef opName, intptr_t numOptions,
                     const DistRustPassOption *options, intptr_t numDialects,
                     const MlirStringRef *dialects,
                     DistRustPassCallbacks callbacks, void *userData);

/// Moves `op` (without results) into a new private function `name` placed
/// after its function, taking its operands and the values its regions use
/// from above as arguments, marked `noinline` for LLVM; a `func.call`
/// replaces it. Returns the function.
MLIR_CAPI_EXPORTED MlirOperation distOutlineIntoFunction(MlirOperation op,
                                                         MlirStringRef name);

/// Registers the passes written in C++ (`dist-approximate-math`).
MLIR_CAPI_EXPORTED void distRegisterCppPasses(void);

/// Writes the textual pipeline (nested under `builtin.module`) of
/// registered pipeline `index` for its option text `options` through
/// `append` and returns true, or writes why the options are wrong and
/// returns false.
typedef bool (*DistPipelineBuilder)(intptr_t index, MlirStringRef options,
                                    MlirStringCallback append, void *userData);

/// Registers the pass pipeline `builder` writes for `index` under the name
/// `argument`, with options (`argument{opts}`). Strings are copied.
MLIR_CAPI_EXPORTED void distRegisterPassPipeline(MlirStringRef argument,
                                                 MlirStringRef description,
                                                 DistPipelineBuilder builder,
                                                 intptr_t index);

/// Whether `argument` names a registered pass or pass pipeline.
MLIR_CAPI_EXPORTED bool distIsRegisteredPass(MlirStringRef argument);

/// Runs `pipeline` (as `--pass-pipeline` spells the passes inside the op's
/// name) on `op`, from inside the Rust pass that runs on it or on an op
/// that holds it; MLIR's parse error goes to `callback`. Failure: the
/// pipeline does not parse or a pass of it failed (its diagnostics were
/// emitted).
MLIR_CAPI_EXPORTED MlirLogicalResult distRunNestedPipeline(
    MlirOperation op, MlirStringRef pipeline, MlirStringCallback callback,
    void *userData);

/// A new instance of the dist pass `argument` (its default options), owned
/// by the caller until added to a pass manager; null unless a Rust pass of
/// that name is registered or it is dist-approximate-math.
MLIR_CAPI_EXPORTED MlirPass distCreateRegisteredPass(MlirStringRef argument);

/// Adds the registered pass or pipeline `name` with its `options` to `pm`
/// as mlir-opt's pass flags do: an op-specific pass nests implicitly (the
/// textual pipeline parser turns implicit nesting off). Errors go to
/// `callback`.
MLIR_CAPI_EXPORTED MlirLogicalResult distOpPassManagerAddPassFlag(
    MlirOpPassManager pm, MlirStringRef name, MlirStringRef options,
    MlirStringCallback callback, void *userData);

/// Prints every registered pass and pass pipeline with its description and
/// options to stdout, as `mlir-opt --help` does.
MLIR_CAPI_EXPORTED void distPrintRegisteredPasses(void);

/// Calls `callback` with the name of every pass and pass pipeline
/// registered by the first call (in no particular order).
MLIR_CAPI_EXPORTED void distForEachRegisteredPassName(MlirStringCallback callback,
                                                      void *userData);

/*===--- Function-like ops -----------------------------------------------===*/

/// Whether `op` implements FunctionOpInterface (`func.func`, ...).
MLIR_CAPI_EXPORTED bool distOperationIsAFunction(MlirOperation op);
/// Sets attribute `name` of every result `i < n` whose `attrs[i]` is not
/// null, rebuilding the result attributes once.
MLIR_CAPI_EXPORTED void distFunctionSetResultAttrs(MlirOperation op,
                                                   MlirStringRef name,
                                                   intptr_t n,
                                                   const MlirAttribute *attrs);
/// Removes attribute `name` from every argument and result of the
/// function-like `op`.
MLIR_CAPI_EXPORTED void distFunctionRemoveArgResultAttrs(MlirOperation op,
                                                         MlirStringRef name);
/// Sets the function type of the function-like `op` (its entry block's
/// argument types must already match).
MLIR_CAPI_EXPORTED void distFunctionSetType(MlirOperation op, MlirType type);
/// Erases the arguments of the function-like `op` whose `erase` flag is set
/// (`n` flags, one per argument), with their attributes; the arguments
/// must have no uses. False where MLIR refuses.
MLIR_CAPI_EXPORTED bool distFunctionEraseArguments(MlirOperation op, intptr_t n,
                                                   const bool *erase);
/// Whether `op` (with the ops nested in it) has no memory effects, as
/// `mlir::isMemoryEffectFree` decides: such an op may be reordered with any
/// op it has no def-use relation with.
MLIR_CAPI_EXPORTED bool distOperationIsMemoryEffectFree(MlirOperation op);
MLIR_CAPI_EXPORTED intptr_t distFunctionGetNumArguments(MlirOperation op);
MLIR_CAPI_EXPORTED intptr_t distFunctionGetNumResults(MlirOperation op);
/// Attribute `name` of argument `index` of the function-like `op`; null if
/// absent.
MLIR_CAPI_EXPORTED MlirAttribute distFunctionGetArgAttr(MlirOperation op,
                                                        intptr_t index,
                                                        MlirStringRef name);
/// Sets attribute `name` of every argument `i < n` whose `attrs[i]` is not
/// null, rebuilding the argument attributes once.
MLIR_CAPI_EXPORTED void distFunctionSetArgAttrs(MlirOperation op,
                                                MlirStringRef name, intptr_t n,
                                                const MlirAttribute *attrs);
/// Attribute `name` of result `index` of the function-like `op`; null if
/// absent.
MLIR_CAPI_EXPORTED MlirAttribute distFunctionGetResultAttr(MlirOperation op,
                                                           intptr_t index,
                                                           MlirStringRef name);

/*===--- Misc -------------------------------------------------------------===*/

/// File, line and column of the first file location inside `loc`; false if
/// it has none.
MLIR_CAPI_EXPORTED bool distLocationGetFileLineCol(MlirLocation loc,
                                                   MlirStringRef *file,
                                                   unsigned *line,
                                                   unsigned *column);

/// Parses `source` as a module (wrapping top-level ops in an implicit
/// `builtin.module`, as mlir-opt does) and verifies it; locations name
/// `filename`. Returns a null operation after emitting diagnostics on failure.
MLIR_CAPI_EXPORTED MlirOperation distParseSourceModule(MlirContext ctx,
                                                       MlirStringRef source,
                                                       MlirStringRef filename);

/// Emits a diagnostic of `severity` at `loc` (the C API only emits errors).
MLIR_CAPI_EXPORTED void distEmitDiagnostic(MlirLocation loc,
                                           MlirDiagnosticSeverity severity,
                                           MlirStringRef message);

/// Lets `pm` nest op-specific passes implicitly (`-cse` on a module), as
/// mlir-opt's pass flags do.
MLIR_CAPI_EXPORTED void distPassManagerEnableImplicitNesting(MlirPassManager pm);

/// Whether diagnostics on ops carry a "see current operation" note with
/// the op printed (on by default; mlir-opt turns it off to verify
/// diagnostics).
MLIR_CAPI_EXPORTED void distContextSetPrintOpOnDiagnostic(MlirContext ctx,
                                                          bool enable);

/// Names of the dialects registered in `ctx` (loaded or not), sorted.
MLIR_CAPI_EXPORTED void
distContextForEachAvailableDialect(MlirContext ctx, MlirStringCallback callback,
                                   void *userData);

/// The roles of a linalg contraction's operand dims, for a BLAS call: for
/// the two inputs and the init, in that order, `capacity` entries each (one
/// per dim, from the first):
/// batch loop (0..nb-1, in loop order), nb for m, nb+1 for n, nb+2 for k,
/// or -1 for a broadcast size-1 dim; of several m (or n) loops, all but the
/// innermost in the output are batch loops. Returns nb, or -1 unless `op`
/// is a multiply-accumulate on memrefs (or on tensors, for a decision made
/// before bufferization) with one k loop and operands of
/// rank at most `capacity` each: f32 inputs, or bf16 ones extended to f32
/// in the body, into an f32 output.
MLIR_CAPI_EXPORTED intptr_t distLinalgContractionRoles(MlirOperation op,
                                                       int64_t *roles,
                                                       intptr_t capacity);

/// The static loop ranges of a linalg op (`ShapedType::kDynamic` where
/// unknown) and whether each loop is a reduction, for up to `capacity` loops.
/// Returns the number of loops, or -1 if `op` is not a linalg op.
MLIR_CAPI_EXPORTED intptr_t distLinalgGetStaticLoops(MlirOperation op,
                                                     int64_t *ranges,
                                                     bool *reduction,
                                                     intptr_t capacity);

/*===--- Attributes of upstream dialects without a C API -----------------===*/
// Each returns a null attribute if `name` is none of the enum's words.

/// `#linalg.iterator_type<name>` (parallel or reduction).
MLIR_CAPI_EXPORTED MlirAttribute
distLinalgIteratorTypeAttrGet(MlirContext ctx, MlirStringRef name);

/// `#gpu.select_object<target>`: the object of a `gpu.binary` to load.
MLIR_CAPI_EXPORTED MlirAttribute distGPUSelectObjectAttrGet(MlirContext ctx,
                                                           MlirAttribute target);

/// `#nvvm.target<chip = chip>`, the other parameters at their defaults.
MLIR_CAPI_EXPORTED MlirAttribute distNVVMTargetAttrGet(MlirContext ctx,
                                                      MlirStringRef chip);

/// `#nvvm.mma_layout<name>` (row or col).
MLIR_CAPI_EXPORTED MlirAttribute distNVVMMMALayoutAttrGet(MlirContext ctx,
                                                         MlirStringRef name);

/// `#nvvm.mma_type<name>` (bf16, f16, tf32, ...).
MLIR_CAPI_EXPORTED MlirAttribute distNVVMMMATypesAttrGet(MlirContext ctx,
                                                        MlirStringRef name);

/// `#nvvm.shape<m = m, n = n, k = k>`.
MLIR_CAPI_EXPORTED MlirAttribute distNVVMMMAShapeAttrGet(MlirContext ctx,
                                                        int m, int n, int k);

/// Adds a workgroup (shared-memory) attribution of `type` to the
/// `gpu.launch` op `launch` and returns its block argument.
MLIR_CAPI_EXPORTED MlirValue distGpuLaunchAddWorkgroupAttribution(
    MlirOperation launch, MlirType type, MlirLocation loc);

//===----------------------------------------------------------------------===//
// The dialect and the passes for hosts (libdist_mlir_plugin.so)
//===----------------------------------------------------------------------===//
//
// Defined by the plugin library, `target/<profile>/libdist_mlir_plugin.so`
// (installed as DistMLIR::Dialect and DistMLIR::Passes), which holds the one
// copy of the dialect its passes use: a host links it and no other dist
// library.

/// Inserts the dist dialect into `registry`.
MLIR_CAPI_EXPORTED void mlirDistRegisterDialect(MlirDialectRegistry registry);

/// Registers every dist pass and named pipeline with MLIR's registry, so
/// that textual pipelines and pass flags name them. The pipelines name
/// MLIR's own passes too: a host that runs them registers those
/// (`mlirRegisterAllPasses`).
MLIR_CAPI_EXPORTED void mlirRegisterDistPasses(void);

/// A new dist pass with its default options, owned by the caller until a
/// pass manager takes it (`mlirOpPassManagerAddOwnedPass`), one per pass:
/// `convert-stablehlo-to-dist`.
MLIR_CAPI_EXPORTED MlirPass mlirCreateDistConvertStablehloToDist(void);
/// `dist-append-backward`.
MLIR_CAPI_EXPORTED MlirPass mlirCreateDistAppendBackward(void);
/// `dist-decompose`.
MLIR_CAPI_EXPORTED MlirPass mlirCreateDistDecompose(void);
/// `dist-propagate-sharding`.
MLIR_CAPI_EXPORTED MlirPass mlirCreateDistPropagateSharding(void);
/// `dist-resolve-partial`.
MLIR_CAPI_EXPORTED MlirPass mlirCreateDistResolvePartial(void);
/// `dist-verify-sharding`.
MLIR_CAPI_EXPORTED MlirPass mlirCreateDistVerifySharding(void);
/// `dist-split-matmul-grad`.
MLIR_CAPI_EXPORTED MlirPass mlirCreateDistSplitMatmulGrad(void);
/// `dist-overlap-collectives`.
MLIR_CAPI_EXPORTED MlirPass mlirCreateDistOverlapCollectives(void);
/// `dist-overlap-report`.
MLIR_CAPI_EXPORTED MlirPass mlirCreateDistOverlapReport(void);
/// `dist-pipeline-report`.
MLIR_CAPI_EXPORTED MlirPass mlirCreateDistPipelineReport(void);
/// `dist-auto-parallel`.
MLIR_CAPI_EXPORTED MlirPass mlirCreateDistAutoParallel(void);
/// `dist-split-microbatches`.
MLIR_CAPI_EXPORTED MlirPass mlirCreateDistSplitMicrobatches(void);
/// `dist-partition`.
MLIR_CAPI_EXPORTED MlirPass mlirCreateDistPartition(void);
/// `dist-schedule-pipeline`.
MLIR_CAPI_EXPORTED MlirPass mlirCreateDistSchedulePipeline(void);
/// `dist-pipeline`.
MLIR_CAPI_EXPORTED MlirPass mlirCreateDistPipeline(void);
/// `dist-elide-collectives`.
MLIR_CAPI_EXPORTED MlirPass mlirCreateDistElideCollectives(void);
/// `convert-dist-to-linalg`.
MLIR_CAPI_EXPORTED MlirPass mlirCreateDistConvertDistToLinalg(void);
/// `convert-dist-to-runtime`.
MLIR_CAPI_EXPORTED MlirPass mlirCreateDistConvertDistToRuntime(void);
/// `dist-canonicalize-globals`.
MLIR_CAPI_EXPORTED MlirPass mlirCreateDistCanonicalizeGlobals(void);
/// `dist-call-blas`.
MLIR_CAPI_EXPORTED MlirPass mlirCreateDistCallBlas(void);
/// `dist-outline-layers`.
MLIR_CAPI_EXPORTED MlirPass mlirCreateDistOutlineLayers(void);
/// `dist-outline-loops`.
MLIR_CAPI_EXPORTED MlirPass mlirCreateDistOutlineLoops(void);
/// `dist-split-deallocs`.
MLIR_CAPI_EXPORTED MlirPass mlirCreateDistSplitDeallocs(void);
/// `dist-strip-call-descriptors`.
MLIR_CAPI_EXPORTED MlirPass mlirCreateDistStripCallDescriptors(void);
/// `dist-comm-report`.
MLIR_CAPI_EXPORTED MlirPass mlirCreateDistCommReport(void);
/// `dist-memory-report`.
MLIR_CAPI_EXPORTED MlirPass mlirCreateDistMemoryReport(void);
/// `dist-collapse-contraction-dims`.
MLIR_CAPI_EXPORTED MlirPass mlirCreateDistCollapseContractionDims(void);
/// `dist-split-full-reductions`.
MLIR_CAPI_EXPORTED MlirPass mlirCreateDistSplitFullReductions(void);
/// `dist-fuse-reduction-epilogues`.
MLIR_CAPI_EXPORTED MlirPass mlirCreateDistFuseReductionEpilogues(void);
/// `dist-fuse-product-bias`.
MLIR_CAPI_EXPORTED MlirPass mlirCreateDistFuseProductBias(void);
/// `dist-copy-inserted-slices`.
MLIR_CAPI_EXPORTED MlirPass mlirCreateDistCopyInsertedSlices(void);
/// `dist-schedule-gpu`.
MLIR_CAPI_EXPORTED MlirPass mlirCreateDistScheduleGpu(void);
/// `dist-lower-gpu-mma`.
MLIR_CAPI_EXPORTED MlirPass mlirCreateDistLowerGpuMma(void);
/// `dist-finalize-gpu-launches`.
MLIR_CAPI_EXPORTED MlirPass mlirCreateDistFinalizeGpuLaunches(void);
/// `dist-chain-gpu-launches`.
MLIR_CAPI_EXPORTED MlirPass mlirCreateDistChainGpuLaunches(void);
/// `dist-compile-gpu-kernels`.
MLIR_CAPI_EXPORTED MlirPass mlirCreateDistCompileGpuKernels(void);
/// `dist-approximate-math`.
MLIR_CAPI_EXPORTED MlirPass mlirCreateDistApproximateMath(void);

#ifdef __cplusplus
}
#endif

#endif // DIST_C_DIST_H
