//! The IR layer: safe wrappers over MLIR's and the dialect's C API, in
//! melior's style. The passes change and read the IR only through this
//! module and melior; of its functions only those that erase ops are
//! `unsafe`, since copies of an erased op's handle cannot be checked.
//!
//! - this module: the dialect's attributes, ops and types, diagnostics,
//!   parsing and printing;
//! - [`build`]: attributes and types melior has no constructor for;
//! - [`query`]: reading without printing (names, attributes, uses, walks);
//! - [`rewrite`]: changing the IR in place;
//! - [`llvm`]: translation to LLVM IR;
//! - [`pass`]: pass managers and pipelines as the drivers build them, the
//!   registry's contents, printing.

pub mod build;
pub mod llvm;
pub mod pass;
pub mod query;
pub mod rewrite;

pub use llvm::translate_to_llvm;
pub use query::*;
pub use rewrite::*;

use crate::error::{Error, Result};
use crate::ffi;
use crate::model::{Mesh, MeshAxis, Partial, ReductionKind, Sharding};
use melior::dialect::{DialectHandle, DialectRegistry};
use melior::ir::block::BlockArgument;
use melior::ir::operation::{OperationLike, OperationResult};
use melior::ir::{
    Attribute, AttributeLike, BlockLike, Location, Module, OperationRef, RegionLike, RegionRef, Type, TypeLike, Value,
    ValueLike,
};
use melior::{Context, StringRef};
use mlir_sys::MlirStringRef;

/// The handle that registers or loads the `dist` dialect.
pub fn dialect_handle() -> DialectHandle {
    // SAFETY: the C API returns a static, valid handle.
    unsafe { DialectHandle::from_raw(ffi::mlirGetDialectHandle__dist__()) }
}

/// A context in which `dist` and every upstream dialect are registered (and
/// loaded lazily by the parser), as in mlir-opt.
pub fn context_with_all_dialects() -> Context {
    let registry = DialectRegistry::new();
    dialect_handle().insert_dialect(&registry);
    melior::utility::register_all_dialects(&registry);
    let context = Context::new();
    context.append_dialect_registry(&registry);
    context
}

/// Copies a C API string into Rust. Dialect strings are UTF-8 by
/// construction (they come from the parser or from Rust).
fn string(raw: MlirStringRef) -> String {
    // SAFETY: every MlirStringRef the C API hands out points at live storage
    // of the context for the duration of this call.
    let s = unsafe { StringRef::from_raw(raw) };
    s.as_str().unwrap_or_default().to_owned()
}

/// A `#dist.sharding` attribute.
#[derive(Clone, Copy, Debug)]
pub struct ShardingAttribute<'c> {
    attribute: Attribute<'c>,
}

impl<'c> ShardingAttribute<'c> {
    /// Builds the attribute for `sharding`; mesh-independent rules are
    /// checked (and reported at `location`) by the attribute verifier.
    pub fn new(location: Location<'c>, sharding: &Sharding) -> Result<Self> {
        sharding.validate()?;
        let mut offsets = vec![0isize];
        let mut axes = Vec::new();
        for dim in &sharding.dims {
            axes.extend(dim.iter().map(|a| StringRef::new(a).to_raw()));
            offsets.push(axes.len() as isize);
        }
        let partial: Vec<_> = sharding
            .partial_axes()
            .iter()
            .map(|a| StringRef::new(a).to_raw())
            .collect();
        let kind = sharding.partial.as_ref().map_or(ReductionKind::Sum, |p| p.kind);
        // SAFETY: all pointers refer to vectors alive across the call, with
        // the lengths passed; the C API copies the strings.
        let raw = unsafe {
            ffi::distShardingAttrGetChecked(
                location.to_raw(),
                StringRef::new(&sharding.mesh).to_raw(),
                sharding.dims.len() as isize,
                offsets.as_ptr(),
                axes.as_ptr(),
                partial.len() as isize,
                partial.as_ptr(),
                kind.to_raw(),
            )
        };
        // SAFETY: a null result means the verifier rejected it.
        unsafe { Attribute::from_option_raw(raw) }
            .map(|attribute| Self { attribute })
            .ok_or_else(|| Error::Mlir(format!("invalid sharding {sharding}")))
    }

    pub fn attribute(&self) -> Attribute<'c> {
        self.attribute
    }

    /// The attribute as the pure-Rust model.
    pub fn to_model(&self) -> Sharding {
        let raw = self.attribute.to_raw();
        // SAFETY: `raw` is a live sharding attribute (checked in try_from),
        // and indices stay within the counts the C API reports.
        unsafe {
            let dims = (0..ffi::distShardingAttrGetNumDims(raw))
                .map(|d| {
                    (0..ffi::distShardingAttrGetDimNumAxes(raw, d))
                        .map(|i| string(ffi::distShardingAttrGetDimAxis(raw, d, i)))
                        .collect()
                })
                .collect();
            let axes: Vec<String> = (0..ffi::distShardingAttrGetNumPartialAxes(raw))
                .map(|i| string(ffi::distShardingAttrGetPartialAxis(raw, i)))
                .collect();
            let partial = (!axes.is_empty()).then(|| Partial {
                axes,
                kind: ReductionKind::from_raw(ffi::distShardingAttrGetPartialKind(raw))
                    .expect("the C API only returns known reduction kinds"),
            });
            Sharding {
                mesh: string(ffi::distShardingAttrGetMesh(raw)),
                dims,
                partial,
            }
        }
    }
}

impl<'c> TryFrom<Attribute<'c>> for ShardingAttribute<'c> {
    type Error = Error;
    fn try_from(attribute: Attribute<'c>) -> Result<Self> {
        // SAFETY: `attribute` is a live attribute.
        if unsafe { ffi::distAttributeIsASharding(attribute.to_raw()) } {
            Ok(Self { attribute })
        } else {
            Err(Error::WrongKind {
                expected: "#dist.sharding",
                found: attribute.to_string(),
            })
        }
    }
}

/// `attributes` for the C API: null where `None`.
fn raw_attributes(attributes: &[Option<Attribute<'_>>]) -> Vec<mlir_sys::MlirAttribute> {
    attributes
        .iter()
        .map(|a| a.map_or(mlir_sys::MlirAttribute { ptr: std::ptr::null() }, |a| a.to_raw()))
        .collect()
}

/// A borrowed `dist.mesh` op.
#[derive(Clone, Copy, Debug)]
pub struct MeshOpRef<'c, 'a> {
    operation: OperationRef<'c, 'a>,
}

impl<'c, 'a> MeshOpRef<'c, 'a> {
    /// The mesh `name` visible from `from`, searching enclosing symbol tables.
    pub fn lookup(from: &impl OperationLike<'c, 'a>, name: &str) -> Option<Self> {
        // SAFETY: `from` is a live operation; a null result means no mesh.
        unsafe {
            let raw = ffi::distLookupMesh(from.to_raw(), StringRef::new(name).to_raw());
            OperationRef::from_option_raw(raw).map(|operation| Self { operation })
        }
    }

    pub fn operation(&self) -> OperationRef<'c, 'a> {
        self.operation
    }

    /// The mesh as the pure-Rust model.
    pub fn to_model(&self) -> Result<Mesh> {
        let raw = self.operation.to_raw();
        // SAFETY: `raw` is a live, verified `dist.mesh` and indices stay
        // within the counts the C API reports.
        unsafe {
            let axes = (0..ffi::distMeshGetNumAxes(raw))
                .map(|i| MeshAxis {
                    name: string(ffi::distMeshGetAxisName(raw, i)),
                    size: ffi::distMeshGetAxisSize(raw, i),
                })
                .collect();
            let n = ffi::distMeshGetNumDeviceIds(raw);
            let devices = (n > 0).then(|| (0..n).map(|i| ffi::distMeshGetDeviceId(raw, i)).collect());
            Mesh::from_parts(string(ffi::distMeshGetName(raw)), axes, devices)
        }
    }
}

impl<'c, 'a> TryFrom<OperationRef<'c, 'a>> for MeshOpRef<'c, 'a> {
    type Error = Error;
    fn try_from(operation: OperationRef<'c, 'a>) -> Result<Self> {
        // SAFETY: `operation` is live.
        if unsafe { ffi::distOperationIsAMesh(operation.to_raw()) } {
            Ok(Self { operation })
        } else {
            Err(Error::WrongKind {
                expected: "dist.mesh",
                found: operation.name().as_string_ref().as_str().unwrap_or("?").to_owned(),
            })
        }
    }
}

/// The reduction kind held by a collective's `kind` attribute.
pub fn reduction_kind(attribute: Attribute<'_>) -> Option<ReductionKind> {
    let mut raw = 0;
    // SAFETY: `attribute` is live and `raw` a valid out-pointer.
    unsafe { ffi::distReductionKindAttrGetValue(attribute.to_raw(), &mut raw) }
        .then(|| ReductionKind::from_raw(raw))
        .flatten()
}

/// A borrowed function-like op (FunctionOpInterface), for its argument and
/// result attributes.
#[derive(Clone, Copy, Debug)]
pub struct FunctionOpRef<'c, 'a> {
    operation: OperationRef<'c, 'a>,
}

impl<'c, 'a> FunctionOpRef<'c, 'a> {
    pub fn operation(&self) -> OperationRef<'c, 'a> {
        self.operation
    }

    pub fn num_arguments(&self) -> usize {
        // SAFETY: `operation` is a live function-like op.
        unsafe { ffi::distFunctionGetNumArguments(self.operation.to_raw()) as usize }
    }

    pub fn num_results(&self) -> usize {
        // SAFETY: `operation` is a live function-like op.
        unsafe { ffi::distFunctionGetNumResults(self.operation.to_raw()) as usize }
    }

    /// The argument types (`inputs`) or result types of the function type.
    fn signature_types(&self, inputs: bool) -> Vec<Type<'c>> {
        let Some(function_type) = attribute(&self.operation, "function_type")
            .and_then(|a| melior::ir::attribute::TypeAttribute::try_from(a).ok())
            .and_then(|t| melior::ir::r#type::FunctionType::try_from(t.value()).ok())
        else {
            return Vec::new();
        };
        let count = if inputs {
            function_type.input_count()
        } else {
            function_type.result_count()
        };
        (0..count)
            .filter_map(|i| {
                if inputs {
                    function_type.input(i).ok()
                } else {
                    function_type.result(i).ok()
                }
            })
            .collect()
    }

    /// The types of the arguments, in order.
    pub fn argument_types(&self) -> Vec<Type<'c>> {
        self.signature_types(true)
    }

    /// The types of the results, in order.
    pub fn result_types(&self) -> Vec<Type<'c>> {
        self.signature_types(false)
    }

    /// Where argument `index` is written: its own location in the entry
    /// block, or the function's for a declaration.
    pub fn argument_location(&self, index: usize) -> Location<'c> {
        self.operation
            .region_at(0)
            .and_then(|r| r.first_block())
            .and_then(|b| block_argument(&b, index))
            .map_or_else(|| self.operation.location(), |a| a.location())
    }

    /// The indices of the arguments that carry attribute `name`, in order.
    pub fn arguments_with(&self, name: &str) -> Vec<usize> {
        (0..self.num_arguments())
            .filter(|&i| self.argument_attribute(i, name).is_some())
            .collect()
    }

    /// Attribute `name` of argument `index` (`index < num_arguments()`).
    pub fn argument_attribute(&self, index: usize, name: &str) -> Option<Attribute<'c>> {
        assert!(index < self.num_arguments(), "argument #{index} out of range");
        // SAFETY: the index is in range; a null result means absent.
        unsafe {
            Attribute::from_option_raw(ffi::distFunctionGetArgAttr(
                self.operation.to_raw(),
                index as isize,
                StringRef::new(name).to_raw(),
            ))
        }
    }

    /// Sets attribute `name` of each argument whose entry in `attributes`
    /// is `Some` (one entry per argument), in one rebuild of the argument
    /// attributes.
    pub fn set_argument_attributes(&self, name: &str, attributes: &[Option<Attribute<'c>>]) {
        assert_eq!(attributes.len(), self.num_arguments(), "one entry per argument");
        let raw = raw_attributes(attributes);
        // SAFETY: one entry per argument; the attributes live in the op's
        // context; null entries are skipped by the C API.
        unsafe {
            ffi::distFunctionSetArgAttrs(
                self.operation.to_raw(),
                StringRef::new(name).to_raw(),
                raw.len() as isize,
                raw.as_ptr(),
            )
        }
    }

    /// Sets attribute `name` of each result with `Some` attribute (one
    /// entry per result), in one update.
    pub fn set_result_attributes(&self, name: &str, attributes: &[Option<Attribute<'c>>]) {
        assert_eq!(attributes.len(), self.num_results(), "one entry per result");
        let raw = raw_attributes(attributes);
        // SAFETY: as in `set_argument_attributes`, for the results.
        unsafe {
            ffi::distFunctionSetResultAttrs(
                self.operation.to_raw(),
                StringRef::new(name).to_raw(),
                raw.len() as isize,
                raw.as_ptr(),
            )
        }
    }

    /// Removes attribute `name` from every argument and result.
    pub fn remove_argument_and_result_attributes(&self, name: &str) {
        // SAFETY: the op is a live function-like op.
        unsafe { ffi::distFunctionRemoveArgResultAttrs(self.operation.to_raw(), StringRef::new(name).to_raw()) }
    }

    /// Sets the function type; the entry block's argument types must match.
    pub fn set_type(&self, inputs: &[Type<'c>], results: &[Type<'c>]) {
        let context = self.operation.context();
        // SAFETY: `context` lives through the call; the types belong to it.
        unsafe {
            let ty = melior::ir::r#type::FunctionType::new(context.to_ref(), inputs, results);
            ffi::distFunctionSetType(self.operation.to_raw(), ty.to_raw());
        }
    }

    /// Erases the arguments `erase` flags (one flag per argument), with
    /// their attributes and the function type's inputs. Each must be unused;
    /// false where MLIR refuses.
    pub fn erase_arguments(&self, erase: &[bool]) -> bool {
        assert_eq!(erase.len(), self.num_arguments(), "one flag per argument");
        // SAFETY: the op is a live function; the flags outlive the call.
        unsafe { ffi::distFunctionEraseArguments(self.operation.to_raw(), erase.len() as isize, erase.as_ptr()) }
    }

    /// Attribute `name` of result `index` (`index < num_results()`).
    pub fn result_attribute(&self, index: usize, name: &str) -> Option<Attribute<'c>> {
        assert!(index < self.num_results(), "result #{index} out of range");
        // SAFETY: the index is in range; a null result means absent.
        unsafe {
            Attribute::from_option_raw(ffi::distFunctionGetResultAttr(
                self.operation.to_raw(),
                index as isize,
                StringRef::new(name).to_raw(),
            ))
        }
    }
}

impl<'c, 'a> TryFrom<OperationRef<'c, 'a>> for FunctionOpRef<'c, 'a> {
    type Error = Error;
    fn try_from(operation: OperationRef<'c, 'a>) -> Result<Self> {
        // SAFETY: `operation` is live.
        if unsafe { ffi::distOperationIsAFunction(operation.to_raw()) } {
            Ok(Self { operation })
        } else {
            Err(Error::WrongKind {
                expected: "function-like op",
                found: operation.name().as_string_ref().as_str().unwrap_or("?").to_owned(),
            })
        }
    }
}

/// Severity of a diagnostic emitted from Rust.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
    Remark,
}

/// Emits a diagnostic at `location` through the context's handlers (so
/// `--verify-diagnostics` sees it).
pub fn emit_diagnostic(location: Location<'_>, severity: Severity, message: &str) {
    let severity = match severity {
        Severity::Error => mlir_sys::MlirDiagnosticSeverity_MlirDiagnosticError,
        Severity::Warning => mlir_sys::MlirDiagnosticSeverity_MlirDiagnosticWarning,
        Severity::Remark => mlir_sys::MlirDiagnosticSeverity_MlirDiagnosticRemark,
    };
    // SAFETY: `location` is live; the message is copied.
    unsafe { ffi::distEmitDiagnostic(location.to_raw(), severity, StringRef::new(message).to_raw()) }
}

/// An error at the op (or value) at fault: the one diagnostic type of the
/// passes. [`Located::emit`] reports it there; the passes crate turns it into
/// a pass failure, as MLIR's `return op->emitError(...)` does.
#[derive(Clone)]
pub struct Located<'c> {
    pub location: Location<'c>,
    pub message: String,
}

impl<'c> Located<'c> {
    pub fn new(location: Location<'c>, message: impl Into<String>) -> Self {
        Self {
            location,
            message: message.into(),
        }
    }

    /// An error at `op`.
    pub fn at(op: &OperationRef<'c, '_>, message: impl Into<String>) -> Self {
        Self::new(op.location(), message)
    }

    /// Reports the error at its location.
    pub fn emit(&self) {
        emit_diagnostic(self.location, Severity::Error, &self.message);
    }
}

impl std::fmt::Debug for Located<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.location, self.message)
    }
}

/// `!dist.handle<...>`: the result of an async collective start.
pub fn handle_type<'c>(context: &'c Context, types: &[Type<'c>]) -> Result<Type<'c>> {
    let raw: Vec<_> = types.iter().map(|t| t.to_raw()).collect();
    // SAFETY: `raw` holds live types of `context`; a null result means the
    // type verifier rejected the list.
    let ty = unsafe { ffi::distHandleTypeGet(context.to_raw(), raw.len() as isize, raw.as_ptr()) };
    if ty.ptr.is_null() {
        return Err(Error::Mlir("a handle carries one or more ranked tensor types".into()));
    }
    // SAFETY: checked non-null above.
    Ok(unsafe { Type::from_raw(ty) })
}

/// The shape of `ty` if it is a statically shaped ranked tensor.
pub fn static_tensor_shape(ty: Type<'_>) -> Option<Vec<i64>> {
    let mut sizes = [0i64; 8];
    // SAFETY: `ty` is live and `sizes` holds `capacity` elements.
    let rank = unsafe { ffi::distStaticTensorShape(ty.to_raw(), sizes.as_mut_ptr(), sizes.len() as isize) };
    let rank = usize::try_from(rank).ok()?;
    if rank <= sizes.len() {
        return Some(sizes[..rank].to_vec());
    }
    let mut sizes = vec![0; rank];
    // SAFETY: as above, with room for every dim.
    unsafe { ffi::distStaticTensorShape(ty.to_raw(), sizes.as_mut_ptr(), rank as isize) };
    Some(sizes)
}

/// The shape of `ty` if it is a memref of static shape, identity layout and
/// the default memory space: one whose lowered descriptor is constant but
/// for its two pointers.
pub fn static_identity_memref_shape(ty: Type<'_>) -> Option<Vec<i64>> {
    let raw = ty.to_raw();
    // SAFETY: `ty` is live, and each query is made on a type or attribute
    // of the kind it reads.
    unsafe {
        if !mlir_sys::mlirTypeIsAMemRef(raw)
            || !mlir_sys::mlirShapedTypeHasStaticShape(raw)
            || !mlir_sys::mlirMemRefTypeGetMemorySpace(raw).ptr.is_null()
        {
            return None;
        }
        let layout = mlir_sys::mlirMemRefTypeGetLayout(raw);
        if !mlir_sys::mlirAttributeIsAAffineMap(layout)
            || !mlir_sys::mlirAffineMapIsIdentity(mlir_sys::mlirAffineMapAttrGetValue(layout))
        {
            return None;
        }
        let rank = mlir_sys::mlirShapedTypeGetRank(raw);
        Some(
            (0..rank as isize)
                .map(|d| mlir_sys::mlirShapedTypeGetDimSize(raw, d))
                .collect(),
        )
    }
}

/// A C API string callback that appends each chunk to the `String` behind
/// `data`.
///
/// # Safety
/// `data` must point to a live `String` not otherwise borrowed during the
/// call, and `chunk` must be a valid string reference.
pub unsafe extern "C" fn append_to_string(chunk: MlirStringRef, data: *mut std::ffi::c_void) {
    // SAFETY: guaranteed by the caller.
    let (out, chunk) = unsafe { (&mut *(data as *mut String), StringRef::from_raw(chunk)) };
    out.push_str(chunk.as_str().unwrap_or("<invalid utf-8>"));
}

/// The sizes and strides of a ranked memref of strided layout (MLIR's
/// `ShapedType::kDynamic`, `i64::MIN`, where one is not static); `None` for
/// any other type.
pub fn memref_sizes_and_strides(ty: Type<'_>) -> Option<(Vec<i64>, Vec<i64>)> {
    let raw = ty.to_raw();
    // SAFETY: `ty` is live; the memref queries run on a memref, and
    // `strides` holds one entry per dim.
    unsafe {
        if !mlir_sys::mlirTypeIsAMemRef(raw) {
            return None;
        }
        let rank = mlir_sys::mlirShapedTypeGetRank(raw);
        let sizes = (0..rank as isize)
            .map(|d| mlir_sys::mlirShapedTypeGetDimSize(raw, d))
            .collect();
        let mut strides = vec![0i64; rank as usize];
        let mut offset = 0i64;
        let result = mlir_sys::mlirMemRefTypeGetStridesAndOffset(raw, strides.as_mut_ptr(), &mut offset);
        (result.value != 0).then_some((sizes, strides))
    }
}

/// The rank of a ranked shaped type (a memref or a tensor); 0 otherwise.
pub fn memref_rank(ty: Type<'_>) -> usize {
    // SAFETY: `ty` is live; the rank is only read from ranked shaped types.
    unsafe {
        if mlir_sys::mlirTypeIsAShaped(ty.to_raw()) && mlir_sys::mlirShapedTypeHasRank(ty.to_raw()) {
            mlir_sys::mlirShapedTypeGetRank(ty.to_raw()) as usize
        } else {
            0
        }
    }
}

/// `tensor<4x8xf32>`: the textual type of a static tensor.
pub fn tensor_type_text(shape: &[i64], element: &str) -> String {
    let mut s = String::from("tensor<");
    for d in shape {
        s.push_str(&d.to_string());
        s.push('x');
    }
    s.push_str(element);
    s.push('>');
    s
}

/// The element type of a shaped type; any other type is its own element.
pub fn element_type<'c>(ty: Type<'c>) -> Type<'c> {
    // SAFETY: `ty` is live; the query is guarded by its type check.
    unsafe {
        let raw = ty.to_raw();
        if mlir_sys::mlirTypeIsAShaped(raw) {
            Type::from_raw(mlir_sys::mlirShapedTypeGetElementType(raw))
        } else {
            ty
        }
    }
}

/// Whether `ty` is a ranked tensor of floating-point elements: a value
/// that can have a gradient.
pub fn is_float_tensor(ty: Type<'_>) -> bool {
    ty.is_ranked_tensor() && element_type(ty).is_float()
}

/// Bytes of one element of a tensor type (8 for index and unknown types).
pub fn element_bytes(ty: Type<'_>) -> u64 {
    let element = element_type(ty).to_raw();
    // SAFETY: `element` is live; each query is guarded by its type check.
    unsafe {
        let bits = if mlir_sys::mlirTypeIsAFloat(element) {
            mlir_sys::mlirFloatTypeGetWidth(element) as u64
        } else if mlir_sys::mlirTypeIsAInteger(element) {
            mlir_sys::mlirIntegerTypeGetWidth(element) as u64
        } else {
            64
        };
        bits.div_ceil(8)
    }
}

pub fn is_handle_type(ty: Type<'_>) -> bool {
    // SAFETY: `ty` is live.
    unsafe { ffi::distTypeIsAHandle(ty.to_raw()) }
}

/// Whether `op` and the ops nested in it have no memory effects, so that
/// only def-use edges order it (MLIR's `isMemoryEffectFree`).
pub fn is_memory_effect_free(op: &OperationRef<'_, '_>) -> bool {
    // SAFETY: `op` is live.
    unsafe { ffi::distOperationIsMemoryEffectFree(op.to_raw()) }
}

/// The loops of a linalg op: each loop's static range (`None` where dynamic)
/// and whether it is a reduction; `None` if `op` is not a linalg op (or has
/// more than 16 loops).
pub fn linalg_static_loops(op: &OperationRef<'_, '_>) -> Option<Vec<(Option<i64>, bool)>> {
    const CAPACITY: usize = 16;
    let mut ranges = [0i64; CAPACITY];
    let mut reduction = [false; CAPACITY];
    // SAFETY: `op` is live and both buffers hold `CAPACITY` entries.
    let count = unsafe {
        ffi::distLinalgGetStaticLoops(
            op.to_raw(),
            ranges.as_mut_ptr(),
            reduction.as_mut_ptr(),
            CAPACITY as isize,
        )
    };
    let count = usize::try_from(count).ok().filter(|&c| c <= CAPACITY)?;
    Some(
        (0..count)
            .map(|i| ((ranges[i] >= 0).then_some(ranges[i]), reduction[i]))
            .collect(),
    )
}

/// The roles of a linalg contraction's two inputs and init (for each dim
/// of each operand: `-1` broadcast, else its loop's role), and its number
/// of batch loops; `None` unless `op` is a contraction a GEMM computes
/// (the body exactly `out + a * b`, every loop a batch, m, n or k loop).
pub fn linalg_contraction_roles(op: &OperationRef<'_, '_>) -> Option<([Vec<i64>; 3], usize)> {
    /// Operand dims the query answers for.
    const MAX_RANK: usize = 15;
    let mut raw = [0i64; 3 * MAX_RANK];
    // SAFETY: `op` is live and `raw` holds three operands of MAX_RANK dims.
    let batch = unsafe { ffi::distLinalgContractionRoles(op.to_raw(), raw.as_mut_ptr(), MAX_RANK as isize) };
    let batch = usize::try_from(batch).ok()?;
    let rank = |i: usize| {
        let ty = op.operand_at(i).expect("a contraction has three operands").r#type();
        memref_rank(ty)
    };
    Some((
        [0, 1, 2].map(|i| raw[i * MAX_RANK..i * MAX_RANK + rank(i)].to_vec()),
        batch,
    ))
}

/// The loops of a linalg contraction by role: batch, m, n and k, each
/// sorted; `None` if `op` is not a contraction.
pub fn linalg_contraction_dims(op: &OperationRef<'_, '_>) -> Option<[Vec<usize>; 4]> {
    // SAFETY: `op` is live; the attributes are owned by the context.
    let dims = unsafe {
        if !mlir_sys::mlirLinalgIsAContractionOp(op.to_raw()) {
            return None;
        }
        mlir_sys::mlirLinalgInferContractionDimensions(op.to_raw())
    };
    let list = |attr: mlir_sys::MlirAttribute| -> Vec<usize> {
        // SAFETY: the attribute is a dense i32 or i64 array (or null).
        let mut dims: Vec<usize> = unsafe {
            if attr.ptr.is_null() {
                return Vec::new();
            }
            let n = mlir_sys::mlirDenseArrayGetNumElements(attr);
            (0..n)
                .map(|i| {
                    if mlir_sys::mlirAttributeIsADenseI32Array(attr) {
                        mlir_sys::mlirDenseI32ArrayGetElement(attr, i) as usize
                    } else {
                        mlir_sys::mlirDenseI64ArrayGetElement(attr, i) as usize
                    }
                })
                .collect()
        };
        dims.sort_unstable();
        dims
    };
    Some([list(dims.batch), list(dims.m), list(dims.n), list(dims.k)])
}

/// How many threads the context of `op` runs passes on (1 when threading
/// is off).
pub fn thread_count(op: &OperationRef<'_, '_>) -> usize {
    // SAFETY: the context of a live op is live.
    unsafe { mlir_sys::mlirContextGetNumThreads(mlir_sys::mlirOperationGetContext(op.to_raw())) as usize }
}

/// Moves `op`, a linalg op without results inside a `func.func`, into a
/// new `noinline` function `name` of the module that takes what it reads,
/// and calls it in its place (`op` is erased).
///
/// # Safety
/// As for [`erase`]: no handle to `op` or to an op nested in it may be used
/// afterwards.
pub unsafe fn outline_into_function(op: OperationRef<'_, '_>, name: &str) {
    assert!(
        op.result_count() == 0 && has_ancestor(&op, |a| op_name(a) == "func.func"),
        "only a linalg op without results inside a function is outlined"
    );
    // SAFETY: `op` is live, has no results and a function around it; the
    // helper erases it and the caller uses no handle to it afterwards.
    unsafe { ffi::distOutlineIntoFunction(op.to_raw(), StringRef::new(name).to_raw()) };
}

/// Adds a workgroup (shared memory) buffer of type `ty` to the `gpu.launch`
/// `launch` and returns it.
pub fn add_workgroup_attribution<'c, 'a>(
    launch: OperationRef<'c, 'a>,
    ty: Type<'c>,
    location: Location<'c>,
) -> Value<'c, 'a> {
    assert_eq!(
        op_name(&launch),
        "gpu.launch",
        "a workgroup buffer belongs to a gpu.launch"
    );
    // SAFETY: `launch` is a live gpu.launch.
    unsafe {
        Value::from_raw(ffi::distGpuLaunchAddWorkgroupAttribution(
            launch.to_raw(),
            ty.to_raw(),
            location.to_raw(),
        ))
    }
}

/// Positional accessors that answer `None` out of range and never print.
///
/// melior's `operand(i)`, `result(i)`, `region(i)`, `successor(i)` and
/// `BlockLike::argument(i)` format the op (or block) into their error even
/// when the caller discards it, and printing anything below the top level
/// prints and verifies its whole module. In a function pass that reads the
/// functions other threads are rewriting (a data race that crashed
/// `dist-opt`), and it costs O(module) per miss. `clippy.toml` forbids
/// those methods; use these.
pub trait OperationExt<'c: 'a, 'a>: OperationLike<'c, 'a> {
    /// Operand `index`, if the op has that many.
    fn operand_at(&self, index: usize) -> Option<Value<'c, 'a>> {
        (index < self.operand_count())
            // SAFETY: `self` is live and `index` in range.
            .then(|| unsafe { Value::from_raw(mlir_sys::mlirOperationGetOperand(self.to_raw(), index as isize)) })
    }

    /// Result `index`, if the op has that many.
    fn result_at(&self, index: usize) -> Option<OperationResult<'c, 'a>> {
        (index < self.result_count()).then(|| {
            // SAFETY: `self` is live and `index` in range.
            unsafe { OperationResult::from_raw(mlir_sys::mlirOperationGetResult(self.to_raw(), index as isize)) }
        })
    }

    /// Region `index`, if the op has that many.
    fn region_at(&self, index: usize) -> Option<RegionRef<'c, 'a>> {
        (index < self.region_count())
            // SAFETY: `self` is live and `index` in range.
            .then(|| unsafe { RegionRef::from_raw(mlir_sys::mlirOperationGetRegion(self.to_raw(), index as isize)) })
    }
}

impl<'c: 'a, 'a, T: OperationLike<'c, 'a>> OperationExt<'c, 'a> for T {}

/// `op` printed on its own: numbered in its own scope and not verified
/// again. `to_string()` numbers (and verifies) the whole module for every op
/// below the top level.
pub fn print_local<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> String {
    let mut text = String::new();
    // SAFETY: `op` is live; the flags are destroyed after use and `text`
    // outlives the call.
    unsafe {
        let flags = mlir_sys::mlirOpPrintingFlagsCreate();
        mlir_sys::mlirOpPrintingFlagsUseLocalScope(flags);
        mlir_sys::mlirOpPrintingFlagsAssumeVerified(flags);
        mlir_sys::mlirOperationPrintWithFlags(
            op.to_raw(),
            flags,
            Some(append_to_string),
            &mut text as *mut String as *mut std::ffi::c_void,
        );
        mlir_sys::mlirOpPrintingFlagsDestroy(flags);
    }
    text
}

/// Argument `index` of `block`, if it has that many (see [`OperationExt`]).
pub fn block_argument<'c, 'a>(block: &impl BlockLike<'c, 'a>, index: usize) -> Option<BlockArgument<'c, 'a>> {
    (index < block.argument_count())
        // SAFETY: `block` is live and `index` in range.
        .then(|| unsafe { BlockArgument::from_raw(mlir_sys::mlirBlockGetArgument(block.to_raw(), index as isize)) })
}

/// `value` as an op result, or `None` for a block argument; unlike
/// `OperationResult::try_from`, which prints the value into its error.
pub fn op_result<'c, 'a>(value: Value<'c, 'a>) -> Option<OperationResult<'c, 'a>> {
    value
        .is_operation_result()
        // SAFETY: `value` is a live op result.
        .then(|| unsafe { OperationResult::from_raw(value.to_raw()) })
}

/// `value` as a block argument, or `None` for an op result; unlike
/// `BlockArgument::try_from`, which prints the value into its error.
pub fn block_argument_of<'c, 'a>(value: Value<'c, 'a>) -> Option<BlockArgument<'c, 'a>> {
    value
        .is_block_argument()
        // SAFETY: `value` is a live block argument.
        .then(|| unsafe { BlockArgument::from_raw(value.to_raw()) })
}

/// Parses `source` as mlir-opt does (top-level ops are wrapped in an implicit
/// `builtin.module`), with locations in `filename`. On failure the
/// diagnostics went to the context's handlers.
pub fn parse_module<'c>(context: &'c Context, source: &str, filename: &str) -> Option<Module<'c>> {
    // SAFETY: strings outlive the call; a null result means failure, and a
    // non-null one is a module op whose ownership passes to the Module.
    unsafe {
        let op = ffi::distParseSourceModule(
            context.to_raw(),
            StringRef::new(source).to_raw(),
            StringRef::new(filename).to_raw(),
        );
        if op.ptr.is_null() {
            return None;
        }
        Module::from_raw(mlir_sys::mlirModuleFromOperation(op))
    }
    .into()
}

/// File, line and column of the first file location inside `location`.
pub fn file_line_col(location: Location<'_>) -> Option<(String, u32, u32)> {
    let mut file = StringRef::new("").to_raw();
    let (mut line, mut column) = (0, 0);
    // SAFETY: out-pointers are valid locals; `location` is live.
    unsafe { ffi::distLocationGetFileLineCol(location.to_raw(), &mut file, &mut line, &mut column) }
        .then(|| (string(file), line, column))
}

#[cfg(test)]
mod tests {
    use super::*;
    use melior::ir::{BlockLike, RegionLike};

    fn context() -> Context {
        let context = context_with_all_dialects();
        context.load_all_available_dialects();
        context
    }

    #[test]
    fn sharding_round_trips_through_mlir() {
        let context = context();
        let text = r#"#dist.sharding<@mesh, [{"dp"}, {}, {"tp", "sp"}], partial = max{"pp"}>"#;
        let attribute = Attribute::parse(&context, text).unwrap();
        let sharding = ShardingAttribute::try_from(attribute).unwrap();
        let model = sharding.to_model();
        assert_eq!(model.to_string(), text);
        assert_eq!(attribute.to_string(), text);
        let rebuilt = ShardingAttribute::new(Location::unknown(&context), &model).unwrap();
        assert_eq!(rebuilt.attribute(), attribute);
    }

    #[test]
    fn invalid_sharding_is_an_error() {
        let context = context();
        let bad = Sharding::new("mesh", &[&["dp"], &["dp"]]);
        assert_eq!(
            ShardingAttribute::new(Location::unknown(&context), &bad).unwrap_err(),
            Error::AxisUsedTwice("dp".into())
        );
        let not_sharding = Attribute::parse(&context, "42 : i64").unwrap();
        assert!(ShardingAttribute::try_from(not_sharding).is_err());
    }

    #[test]
    fn mesh_is_read_from_the_module() {
        let context = context();
        let module = parse_module(
            &context,
            r#"dist.mesh @ring = <["x"=4], devices = [0, 2, 3, 1]>
               dist.mesh @grid = <["dp"=2, "tp"=2]>"#,
            "meshes.mlir",
        )
        .unwrap();
        let body = module.body();
        let first = body.first_operation().unwrap();
        let grid = MeshOpRef::lookup(&first, "grid").unwrap().to_model().unwrap();
        assert_eq!(grid.to_string(), r#"dist.mesh @grid = <["dp"=2, "tp"=2]>"#);
        let ring = MeshOpRef::try_from(first).unwrap().to_model().unwrap();
        assert_eq!(ring.explicit_devices(), Some(&[0, 2, 3, 1][..]));
        assert!(MeshOpRef::lookup(&first, "nope").is_none());
    }

    #[test]
    fn handle_type_prints() {
        let context = context();
        let t = Type::parse(&context, "tensor<4xf32>").unwrap();
        let h = handle_type(&context, &[t, t]).unwrap();
        assert!(is_handle_type(h));
        assert!(handle_type(&context, &[]).is_err());
        let f32 = Type::parse(&context, "f32").unwrap();
        assert!(handle_type(&context, &[f32]).is_err());
        assert_eq!(h.to_string(), "!dist.handle<tensor<4xf32>, tensor<4xf32>>");
    }

    #[test]
    fn function_attributes_are_read_and_written() {
        let context = context();
        let module = parse_module(
            &context,
            r#"dist.mesh @m = <["x"=2]>
               func.func @f(%a: tensor<4xf32>, %b: tensor<4xf32> {dist.sharding = #dist.sharding<@m, [{"x"}]>})
                   -> (tensor<4xf32> {dist.sharding = #dist.sharding<@m, [{}]>}) {
                 %k = dist.all_reduce %a on @m axes = ["x"] kind = max : tensor<4xf32> -> tensor<4xf32>
                 return %k : tensor<4xf32>
               }"#,
            "f.mlir",
        )
        .unwrap();
        let body = module.body();
        let mesh = body.first_operation().unwrap();
        assert!(FunctionOpRef::try_from(mesh).is_err());
        let f = FunctionOpRef::try_from(mesh.next_in_block().unwrap()).unwrap();
        assert_eq!((f.num_arguments(), f.num_results()), (2, 1));
        assert!(f.argument_attribute(0, "dist.sharding").is_none());
        let b = f.argument_attribute(1, "dist.sharding").unwrap();
        f.set_argument_attributes("dist.sharding", &[Some(b), None]);
        assert_eq!(f.argument_attribute(0, "dist.sharding"), Some(b));
        let r = f.result_attribute(0, "dist.sharding").unwrap();
        assert_eq!(r.to_string(), r#"#dist.sharding<@m, [{}]>"#);
        let region = f.operation().region_at(0).unwrap();
        let reduce = region.first_block().unwrap().first_operation().unwrap();
        let kind = reduce.attribute("kind").unwrap();
        assert_eq!(reduction_kind(kind), Some(ReductionKind::Max));
        assert_eq!(reduction_kind(b), None);
    }

    #[test]
    fn locations_give_file_line_col() {
        let context = context();
        let loc = Location::new(&context, "a.mlir", 3, 7);
        assert_eq!(file_line_col(loc), Some(("a.mlir".into(), 3, 7)));
        assert_eq!(file_line_col(Location::unknown(&context)), None);
    }
}
