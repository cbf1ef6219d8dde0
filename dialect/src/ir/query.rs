//! Reading the IR without printing it: names, attributes, uses, the ops of
//! a block, walks and ancestors.
//!
//! melior's lookups format an error (and some print the op) on every miss;
//! these answer `Option`s and never print, which both the threaded function
//! passes (see [`super::OperationExt`]) and the hot loops of the passes need.

use crate::model::Sharding;
use melior::ir::attribute::{
    ArrayAttribute, DenseI64ArrayAttribute, FlatSymbolRefAttribute, FloatAttribute, IntegerAttribute, StringAttribute,
};
use melior::ir::operation::{OperationLike, WalkOrder, WalkResult};
use melior::ir::{Attribute, AttributeLike, BlockLike, BlockRef, OperationRef, Type, TypeLike, Value, ValueLike};
use melior::{Context, ContextRef};
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use super::{FunctionOpRef, ShardingAttribute};
use crate::ops::attr;

/// The op's name, borrowed from the context (no copy per op).
pub fn op_name<'c>(op: &OperationRef<'c, '_>) -> &'c str {
    // SAFETY: `op` is live; an op name is an identifier uniqued in the
    // context, so its bytes live as long as the context.
    let name = unsafe {
        let raw = mlir_sys::mlirIdentifierStr(mlir_sys::mlirOperationGetName(op.to_raw()));
        std::slice::from_raw_parts(raw.data.cast::<u8>(), raw.length)
    };
    std::str::from_utf8(name).unwrap_or("?")
}

/// `context` as a `&Context` for as long as the MLIR context lives.
///
/// melior hands out a `ContextRef`, whose `to_ref` borrows from the
/// `ContextRef` itself; builders need a `&'c Context`. Each distinct context
/// handle gets one `ContextRef` kept for the life of the process (a word
/// each; a handle MLIR reuses for a later context maps to the same word),
/// so the reference points at stable memory.
fn stable_context<'c>(context: ContextRef<'c>) -> &'c Context {
    /// Context handle -> address of its leaked `ContextRef<'static>`.
    static KEPT: OnceLock<Mutex<HashMap<usize, usize>>> = OnceLock::new();
    // SAFETY: the reference is read at once, while `context` lives.
    let raw = unsafe { context.to_ref() }.to_raw();
    let mut kept = KEPT
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    let address = *kept.entry(raw.ptr as usize).or_insert_with(|| {
        // SAFETY: `raw` is a live context; the handle is only read through
        // references whose lifetime is that of the context (`'c`).
        Box::leak(Box::new(unsafe { ContextRef::from_raw(raw) })) as *const ContextRef<'static> as usize
    });
    // SAFETY: `address` is a leaked `ContextRef` for this handle, alive for
    // the rest of the process; the reference is handed out for `'c`, within
    // the MLIR context's life.
    unsafe { (*(address as *const ContextRef<'c>)).to_ref() }
}

/// The context `op` lives in, for as long as the context lives.
pub fn context_of<'c>(op: &OperationRef<'c, '_>) -> &'c Context {
    stable_context(op.context())
}

/// The context `ty` is uniqued in.
pub fn context_of_type<'c>(ty: Type<'c>) -> &'c Context {
    stable_context(ty.context())
}

/// Attribute `name` of `op`, if present.
pub fn attribute<'c>(op: &OperationRef<'c, '_>, name: &str) -> Option<Attribute<'c>> {
    // SAFETY: `op` is live; a null result means absent.
    unsafe {
        Attribute::from_option_raw(mlir_sys::mlirOperationGetAttributeByName(
            op.to_raw(),
            melior::StringRef::new(name).to_raw(),
        ))
    }
}

/// The string of attribute `name`, if it is a string attribute.
pub fn string_attribute(op: &OperationRef<'_, '_>, name: &str) -> Option<String> {
    attribute(op, name)
        .and_then(|a| StringAttribute::try_from(a).ok())
        .map(|s| s.value().to_owned())
}

/// The symbol of attribute `name`, if it is a flat symbol reference (a
/// call's callee, the global a `memref.get_global` reads).
pub fn symbol_ref_attribute(op: &OperationRef<'_, '_>, name: &str) -> Option<String> {
    attribute(op, name)
        .and_then(|a| FlatSymbolRefAttribute::try_from(a).ok())
        .map(|s| s.value().to_owned())
}

/// The integer of attribute `name`, if it is an integer attribute.
pub fn integer_attribute(op: &OperationRef<'_, '_>, name: &str) -> Option<i64> {
    attribute(op, name)
        .and_then(|a| IntegerAttribute::try_from(a).ok())
        .map(|i| i.value())
}

/// The value of the float attribute `name`, if it is one.
pub fn float_attribute(op: &OperationRef<'_, '_>, name: &str) -> Option<f64> {
    attribute(op, name)
        .and_then(|a| FloatAttribute::try_from(a).ok())
        .map(|f| f.value())
}

/// The elements of the dense i64 array attribute `name`, if it is one.
pub fn i64_array_attribute(op: &OperationRef<'_, '_>, name: &str) -> Option<Vec<i64>> {
    attribute(op, name)
        .and_then(|a| DenseI64ArrayAttribute::try_from(a).ok())
        .map(|a| (0..a.len()).filter_map(|i| a.element(i).ok()).collect())
}

/// The strings of the array attribute `name`, in order; `None` if it is
/// absent or not an array, and an element that is not a string is `None`.
pub fn string_array_attribute(op: &OperationRef<'_, '_>, name: &str) -> Option<Vec<Option<String>>> {
    let list = attribute(op, name).and_then(|a| ArrayAttribute::try_from(a).ok())?;
    Some(
        (0..list.len())
            .map(|i| {
                list.element(i)
                    .ok()
                    .and_then(|a| StringAttribute::try_from(a).ok())
                    .map(|s| s.value().to_owned())
            })
            .collect(),
    )
}

/// The mesh axis names of a collective's `axes` attribute, in order.
pub fn axis_names(op: &OperationRef<'_, '_>) -> Vec<String> {
    string_array_attribute(op, attr::AXES)
        .map(|list| list.into_iter().flatten().collect())
        .unwrap_or_default()
}

/// The bytes a `#gpu.object` holds (its PTX or binary), if `attribute` is
/// one.
pub fn gpu_object_bytes<'c>(attribute: Attribute<'c>) -> Option<&'c [u8]> {
    // SAFETY: `attribute` is live; the bytes are uniqued in the context,
    // which lives for `'c`.
    unsafe {
        if !mlir_sys::mlirAttributeIsAGPUObjectAttr(attribute.to_raw()) {
            return None;
        }
        let raw = mlir_sys::mlirGPUObjectAttrGetObject(attribute.to_raw());
        Some(std::slice::from_raw_parts(raw.data.cast::<u8>(), raw.length))
    }
}

/// The sharding an attribute holds, if it is a `#dist.sharding`.
pub fn sharding_of(attribute: Attribute<'_>) -> Option<Sharding> {
    ShardingAttribute::try_from(attribute).ok().map(|s| s.to_model())
}

/// The `dist.sharding` entry of result `index` of `op`, if it has one.
pub fn result_sharding_attribute<'c>(op: &OperationRef<'c, '_>, index: usize) -> Option<Attribute<'c>> {
    attribute(op, attr::SHARDING)
        .and_then(|a| ArrayAttribute::try_from(a).ok())
        .and_then(|list| list.element(index).ok())
}

/// The sharding of `value`: its function argument's, or its op's entry.
pub fn value_sharding(value: Value<'_, '_>, function: FunctionOpRef<'_, '_>) -> Option<Sharding> {
    let attribute = match super::op_result(value) {
        Some(result) => result_sharding_attribute(&result.owner(), result.result_number()),
        None => function.argument_attribute(super::block_argument_of(value)?.argument_number(), attr::SHARDING),
    }?;
    sharding_of(attribute)
}

/// The ops that read `value`, in use-list order.
pub fn users<'c, 'a>(value: impl Into<Value<'c, 'a>>) -> Vec<OperationRef<'c, 'a>> {
    let value = value.into();
    let mut users = Vec::new();
    // SAFETY: walks the use list of a live value; its users live as long as
    // the value's block.
    unsafe {
        let mut operand = mlir_sys::mlirValueGetFirstUse(value.to_raw());
        while !operand.ptr.is_null() {
            users.push(OperationRef::from_raw(mlir_sys::mlirOpOperandGetOwner(operand)));
            operand = mlir_sys::mlirOpOperandGetNextUse(operand);
        }
    }
    users
}

/// Each use of `value`: the op that reads it and the operand number, in
/// use-list order.
pub fn uses<'c, 'a>(value: impl Into<Value<'c, 'a>>) -> Vec<(OperationRef<'c, 'a>, usize)> {
    let value = value.into();
    let mut uses = Vec::new();
    // SAFETY: as in `users`.
    unsafe {
        let mut operand = mlir_sys::mlirValueGetFirstUse(value.to_raw());
        while !operand.ptr.is_null() {
            let owner = OperationRef::from_raw(mlir_sys::mlirOpOperandGetOwner(operand));
            uses.push((owner, mlir_sys::mlirOpOperandGetOperandNumber(operand) as usize));
            operand = mlir_sys::mlirOpOperandGetNextUse(operand);
        }
    }
    uses
}

/// Whether anything reads `value`.
pub fn has_uses<'c>(value: impl ValueLike<'c>) -> bool {
    // SAFETY: `value` is live.
    unsafe { !mlir_sys::mlirValueGetFirstUse(value.to_raw()).ptr.is_null() }
}

/// The ops of `block`, in order.
pub fn block_ops<'c, 'a>(block: BlockRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut ops = Vec::new();
    let mut next = block.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        ops.push(op);
    }
    ops
}

/// The ops of the first block of `op`'s first region: a function's or a
/// module's body (none for a declaration).
pub fn body_ops<'c, 'a>(op: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    use melior::ir::RegionLike;
    super::OperationExt::region_at(&op, 0)
        .and_then(|r| r.first_block())
        .map_or_else(Vec::new, block_ops)
}

/// The symbol name (`sym_name`) of `op`; empty if it has none.
pub fn symbol_name(op: &OperationRef<'_, '_>) -> String {
    string_attribute(op, attr::SYM_NAME).unwrap_or_default()
}

/// Whether `op` comes before `other`, both ops of one block.
pub fn is_before_in_block(op: &OperationRef<'_, '_>, other: &OperationRef<'_, '_>) -> bool {
    assert!(
        op.block().is_some() && op.block() == other.block(),
        "only ops of one block are ordered"
    );
    // SAFETY: both are live ops of one block.
    unsafe { mlir_sys::mlirOperationIsBeforeInBlock(op.to_raw(), other.to_raw()) }
}

/// Names values as the printer does (`%3`, `%arg0`), numbered in one op's
/// scope (a function's) once.
pub struct ValueNames(mlir_sys::MlirAsmState);

impl ValueNames {
    pub fn new(scope: &OperationRef<'_, '_>) -> Self {
        // SAFETY: the op is live; the flags are copied by the state.
        unsafe {
            let flags = mlir_sys::mlirOpPrintingFlagsCreate();
            let state = mlir_sys::mlirAsmStateCreateForOperation(scope.to_raw(), flags);
            mlir_sys::mlirOpPrintingFlagsDestroy(flags);
            Self(state)
        }
    }

    /// The name of `value`, a value in the scope.
    pub fn name(&self, value: Value<'_, '_>) -> String {
        let mut text = String::new();
        // SAFETY: the value and the state are live; the callback gets `text`.
        unsafe {
            mlir_sys::mlirValuePrintAsOperand(
                value.to_raw(),
                self.0,
                Some(super::append_to_string),
                &mut text as *mut String as *mut std::ffi::c_void,
            )
        };
        text
    }
}

impl Drop for ValueNames {
    fn drop(&mut self) {
        // SAFETY: created in `new`, destroyed once.
        unsafe { mlir_sys::mlirAsmStateDestroy(self.0) }
    }
}

/// The op `op` is nested in, if any.
pub fn parent_op<'c, 'a>(op: &OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    // SAFETY: `op` is live; a non-null parent of a live op is live.
    unsafe { OperationRef::from_option_raw(mlir_sys::mlirOperationGetParentOperation(op.to_raw())) }
}

/// `op` itself if it is in `block`, else the op of `block` it is nested in
/// (none if it is outside `block`).
pub fn ancestor_in<'c, 'a>(block: BlockRef<'c, 'a>, op: OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    let mut op = op;
    loop {
        if op.block() == Some(block) {
            return Some(op);
        }
        op = parent_op(&op)?;
    }
}

/// The innermost op `op` is nested in (not `op` itself) that passes `test`.
pub fn nearest_ancestor<'c, 'a>(
    op: &OperationRef<'c, 'a>,
    test: impl Fn(&OperationRef<'c, 'a>) -> bool,
) -> Option<OperationRef<'c, 'a>> {
    let mut next = parent_op(op);
    while let Some(parent) = next {
        if test(&parent) {
            return Some(parent);
        }
        next = parent_op(&parent);
    }
    None
}

/// Whether an op `op` is nested in (not `op` itself) passes `test`.
pub fn has_ancestor<'c, 'a>(op: &OperationRef<'c, 'a>, test: impl Fn(&OperationRef<'c, 'a>) -> bool) -> bool {
    nearest_ancestor(op, test).is_some()
}

/// Walks `op` and the ops nested in it in pre-order, handing out ops with
/// `op`'s lifetimes (melior's walk hands out ops borrowed for the call
/// only); `visit` answers whether to go into an op's regions.
pub fn walk_preorder<'c, 'a>(op: &OperationRef<'c, 'a>, mut visit: impl FnMut(OperationRef<'c, 'a>) -> WalkResult) {
    op.walk(WalkOrder::PreOrder, |nested| {
        // SAFETY: the walk hands out live ops nested in `op`, which live as
        // long as `op`'s block.
        visit(unsafe { OperationRef::from_raw(nested.to_raw()) })
    });
}

/// The ops nested in `op` (itself included) that `keep` selects, in
/// pre-order.
pub fn nested_ops<'c, 'a>(
    op: &OperationRef<'c, 'a>,
    keep: impl Fn(&OperationRef<'c, 'a>) -> bool,
) -> Vec<OperationRef<'c, 'a>> {
    let mut found = Vec::new();
    walk_preorder(op, |nested| {
        if keep(&nested) {
            found.push(nested);
        }
        WalkResult::Advance
    });
    found
}
