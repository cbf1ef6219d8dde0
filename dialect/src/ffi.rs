//! Raw bindings of `Dist-c/Dist.h`, written by hand (the header is small and
//! bindgen would add a libclang run to every clean build).

use mlir_sys::{
    MlirAttribute, MlirContext, MlirDiagnosticSeverity, MlirDialectHandle, MlirLocation, MlirLogicalResult,
    MlirOpPassManager, MlirOperation, MlirPassManager, MlirStringCallback, MlirStringRef, MlirType, MlirValue,
};
use std::ffi::c_void;

/// `DistReductionKind`.
pub type DistReductionKind = u32;

/// `DistPipelineBuilder` (Dist.h): writes a registered pipeline's passes
/// for its option text, or why the options are wrong (then false).
pub type DistPipelineBuilder = unsafe extern "C" fn(
    index: isize,
    options: MlirStringRef,
    append: MlirStringCallback,
    user_data: *mut c_void,
) -> bool;

#[repr(C)]
#[derive(Clone, Copy)]
pub struct DistRustPassOption {
    pub name: MlirStringRef,
    pub description: MlirStringRef,
    pub default_value: MlirStringRef,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct DistRustPassCallbacks {
    pub create: unsafe extern "C" fn(user_data: *mut c_void) -> *mut c_void,
    pub destroy: unsafe extern "C" fn(state: *mut c_void),
    pub set_option: unsafe extern "C" fn(
        state: *mut c_void,
        name: MlirStringRef,
        value: MlirStringRef,
        emit: MlirStringCallback,
        emit_data: *mut c_void,
    ) -> MlirLogicalResult,
    pub run: unsafe extern "C" fn(state: *mut c_void, op: MlirOperation) -> MlirLogicalResult,
}

unsafe extern "C" {
    pub fn mlirGetDialectHandle__dist__() -> MlirDialectHandle;

    pub fn distShardingAttrGetChecked(
        loc: MlirLocation,
        mesh: MlirStringRef,
        num_dims: isize,
        dim_offsets: *const isize,
        dim_axes: *const MlirStringRef,
        num_partial_axes: isize,
        partial_axes: *const MlirStringRef,
        partial_kind: DistReductionKind,
    ) -> MlirAttribute;
    pub fn distAttributeIsASharding(attr: MlirAttribute) -> bool;
    pub fn distShardingAttrGetMesh(attr: MlirAttribute) -> MlirStringRef;
    pub fn distShardingAttrGetNumDims(attr: MlirAttribute) -> isize;
    pub fn distShardingAttrGetDimNumAxes(attr: MlirAttribute, dim: isize) -> isize;
    pub fn distShardingAttrGetDimAxis(attr: MlirAttribute, dim: isize, pos: isize) -> MlirStringRef;
    pub fn distShardingAttrGetNumPartialAxes(attr: MlirAttribute) -> isize;
    pub fn distShardingAttrGetPartialAxis(attr: MlirAttribute, pos: isize) -> MlirStringRef;
    pub fn distShardingAttrGetPartialKind(attr: MlirAttribute) -> DistReductionKind;
    pub fn distReductionKindAttrGetValue(attr: MlirAttribute, kind: *mut DistReductionKind) -> bool;
    pub fn distReductionKindAttrGet(ctx: MlirContext, kind: DistReductionKind) -> MlirAttribute;
    pub fn distLinalgIteratorTypeAttrGet(ctx: MlirContext, name: MlirStringRef) -> MlirAttribute;
    pub fn distGPUSelectObjectAttrGet(ctx: MlirContext, target: MlirAttribute) -> MlirAttribute;
    pub fn distNVVMTargetAttrGet(ctx: MlirContext, chip: MlirStringRef) -> MlirAttribute;
    pub fn distNVVMMMALayoutAttrGet(ctx: MlirContext, name: MlirStringRef) -> MlirAttribute;
    pub fn distNVVMMMATypesAttrGet(ctx: MlirContext, name: MlirStringRef) -> MlirAttribute;
    pub fn distNVVMMMAShapeAttrGet(ctx: MlirContext, m: i32, n: i32, k: i32) -> MlirAttribute;

    pub fn distOperationIsAMesh(op: MlirOperation) -> bool;
    pub fn distLookupMesh(from: MlirOperation, name: MlirStringRef) -> MlirOperation;
    pub fn distMeshGetName(mesh: MlirOperation) -> MlirStringRef;
    pub fn distMeshGetNumAxes(mesh: MlirOperation) -> isize;
    pub fn distMeshGetAxisName(mesh: MlirOperation, axis: isize) -> MlirStringRef;
    pub fn distMeshGetAxisSize(mesh: MlirOperation, axis: isize) -> i64;
    pub fn distMeshGetNumDeviceIds(mesh: MlirOperation) -> isize;
    pub fn distMeshGetDeviceId(mesh: MlirOperation, pos: isize) -> i64;

    pub fn distHandleTypeGet(ctx: MlirContext, n: isize, types: *const MlirType) -> MlirType;
    pub fn distTypeIsAHandle(ty: MlirType) -> bool;

    pub fn distRegisterRustPass(
        argument: MlirStringRef,
        description: MlirStringRef,
        op_name: MlirStringRef,
        num_options: isize,
        options: *const DistRustPassOption,
        num_dialects: isize,
        dialects: *const MlirStringRef,
        callbacks: DistRustPassCallbacks,
        user_data: *mut c_void,
    );
    pub fn distIsRegisteredPass(argument: MlirStringRef) -> bool;
    pub fn distRunNestedPipeline(
        op: MlirOperation,
        pipeline: MlirStringRef,
        callback: MlirStringCallback,
        user_data: *mut c_void,
    ) -> MlirLogicalResult;
    pub fn distCreateRegisteredPass(argument: MlirStringRef) -> mlir_sys::MlirPass;
    pub fn distRegisterPassPipeline(
        argument: MlirStringRef,
        description: MlirStringRef,
        builder: DistPipelineBuilder,
        index: isize,
    );
    pub fn distOpPassManagerAddPassFlag(
        pm: MlirOpPassManager,
        name: MlirStringRef,
        options: MlirStringRef,
        callback: MlirStringCallback,
        user_data: *mut c_void,
    ) -> MlirLogicalResult;
    pub fn distPrintRegisteredPasses();
    pub fn distForEachRegisteredPassName(callback: MlirStringCallback, user_data: *mut c_void);

    pub fn distLocationGetFileLineCol(
        loc: MlirLocation,
        file: *mut MlirStringRef,
        line: *mut u32,
        column: *mut u32,
    ) -> bool;
    pub fn distParseSourceModule(ctx: MlirContext, source: MlirStringRef, filename: MlirStringRef) -> MlirOperation;
    pub fn distPassManagerEnableImplicitNesting(pm: MlirPassManager);
    pub fn distContextSetPrintOpOnDiagnostic(ctx: MlirContext, enable: bool);
    pub fn distStaticTensorShape(ty: MlirType, sizes: *mut i64, capacity: isize) -> isize;
    pub fn distOperationIsAFunction(op: MlirOperation) -> bool;
    pub fn distOperationIsMemoryEffectFree(op: MlirOperation) -> bool;
    pub fn distRegisterCppPasses();
    pub fn distOutlineIntoFunction(op: MlirOperation, name: MlirStringRef) -> MlirOperation;
    pub fn distLinalgContractionRoles(op: MlirOperation, roles: *mut i64, capacity: isize) -> isize;
    pub fn distLinalgGetStaticLoops(
        op: MlirOperation,
        ranges: *mut i64,
        reduction: *mut bool,
        capacity: isize,
    ) -> isize;
    pub fn distGpuLaunchAddWorkgroupAttribution(launch: MlirOperation, ty: MlirType, loc: MlirLocation) -> MlirValue;
    pub fn distFunctionSetType(op: MlirOperation, ty: MlirType);
    pub fn distFunctionEraseArguments(op: MlirOperation, n: isize, erase: *const bool) -> bool;
    pub fn distFunctionRemoveArgResultAttrs(op: MlirOperation, name: MlirStringRef);
    pub fn distFunctionSetResultAttrs(op: MlirOperation, name: MlirStringRef, n: isize, attrs: *const MlirAttribute);
    pub fn distFunctionGetNumArguments(op: MlirOperation) -> isize;
    pub fn distFunctionGetNumResults(op: MlirOperation) -> isize;
    pub fn distFunctionGetArgAttr(op: MlirOperation, index: isize, name: MlirStringRef) -> MlirAttribute;
    pub fn distFunctionSetArgAttrs(op: MlirOperation, name: MlirStringRef, n: isize, attrs: *const MlirAttribute);
    pub fn distFunctionGetResultAttr(op: MlirOperation, index: isize, name: MlirStringRef) -> MlirAttribute;
    pub fn distEmitDiagnostic(loc: MlirLocation, severity: MlirDiagnosticSeverity, message: MlirStringRef);
    pub fn distContextForEachAvailableDialect(ctx: MlirContext, callback: MlirStringCallback, user_data: *mut c_void);
}
