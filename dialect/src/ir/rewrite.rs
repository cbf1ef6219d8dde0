//! Changing the IR in place: erasing and moving ops, replacing uses,
//! setting operands, types and attributes.
//!
//! melior changes the IR through owned `Operation`s and `OperationRefMut`s;
//! a pass holds `OperationRef`s into IR that MLIR owns, so these take
//! borrowed handles. Preconditions MLIR only asserts (in builds with
//! assertions) are checked here and panic, which the pass registry reports
//! as an internal error; erasing is `unsafe` because copies of the handle
//! cannot be checked.

use super::Located;
use melior::ir::operation::{OperationBuilder, OperationLike};
use melior::ir::{
    Attribute, AttributeLike, BlockLike, Identifier, Location, Operation, OperationRef, Type, TypeLike, Value,
    ValueLike,
};

/// Erases `op`, an op in a block whose results have no uses left.
///
/// # Safety
/// No handle to `op` or to an op nested in it (every `OperationRef` copy,
/// a walk in progress over it) may be used afterwards.
pub unsafe fn erase(op: OperationRef<'_, '_>) {
    assert!(op.block().is_some(), "only an op in a block is erased");
    assert!(
        op.results().all(|r| !super::has_uses(r)),
        "an op is erased after its uses are replaced"
    );
    // SAFETY: `op` is live and owned by its block, which lets go of it;
    // the caller uses no handle to it afterwards.
    unsafe { mlir_sys::mlirOperationDestroy(op.to_raw()) }
}

/// Replaces `op` by `values`, one per result in order, and erases it (as
/// MLIR's `RewriterBase::replaceOp`).
///
/// # Safety
/// As for [`erase`]: no handle to `op` or to an op nested in it may be used
/// afterwards.
pub unsafe fn replace_op<'c, 'b>(op: OperationRef<'c, '_>, values: impl IntoIterator<Item = Value<'c, 'b>>) {
    let values: Vec<Value<'c, 'b>> = values.into_iter().collect();
    assert_eq!(values.len(), op.result_count(), "one value replaces each result");
    for (old, new) in op.results().zip(values) {
        replace_all_uses(old, new);
    }
    // SAFETY: its uses were replaced above; the rest is the caller's.
    unsafe { erase(op) }
}

/// Makes every use of `old` use `new` instead.
pub fn replace_all_uses<'c>(old: impl ValueLike<'c>, new: impl ValueLike<'c>) {
    // SAFETY: both values are live.
    unsafe { mlir_sys::mlirValueReplaceAllUsesOfWith(old.to_raw(), new.to_raw()) }
}

/// Makes every use of `old` use `new` instead, except those by `except`.
pub fn replace_all_uses_except<'c>(old: impl ValueLike<'c>, new: impl ValueLike<'c>, except: OperationRef<'c, '_>) {
    let mut except = [except.to_raw()];
    // SAFETY: the values and `except` are live; the array outlives the call.
    unsafe { mlir_sys::mlirValueReplaceAllUsesExcept(old.to_raw(), new.to_raw(), 1, except.as_mut_ptr()) }
}

/// Sets operand `index` of `op` (which must have that many) to `value`.
pub fn set_operand<'c>(op: OperationRef<'c, '_>, index: usize, value: impl ValueLike<'c>) {
    assert!(
        index < op.operand_count(),
        "operand {index} of an op with {}",
        op.operand_count()
    );
    // SAFETY: `op` and `value` are live and `index` is in range.
    unsafe { mlir_sys::mlirOperationSetOperand(op.to_raw(), index as isize, value.to_raw()) }
}

/// Replaces all operands of `op` by `values`.
pub fn set_operands<'c>(op: OperationRef<'c, '_>, values: &[melior::ir::Value<'c, '_>]) {
    let raw: Vec<_> = values.iter().map(|v| v.to_raw()).collect();
    // SAFETY: `op` and the values are live; the array outlives the call.
    unsafe { mlir_sys::mlirOperationSetOperands(op.to_raw(), raw.len() as isize, raw.as_ptr()) }
}

/// Changes the type of `value` in place (its users must accept it).
pub fn set_type<'c>(value: impl ValueLike<'c>, ty: Type<'c>) {
    // SAFETY: both are live.
    unsafe { mlir_sys::mlirValueSetType(value.to_raw(), ty.to_raw()) }
}

/// Sets (or replaces) attribute `name` of `op`.
pub fn set_attribute<'c>(op: OperationRef<'c, '_>, name: &str, value: Attribute<'c>) {
    // SAFETY: `op` and `value` are live; the name is copied.
    unsafe {
        mlir_sys::mlirOperationSetAttributeByName(op.to_raw(), melior::StringRef::new(name).to_raw(), value.to_raw())
    }
}

/// Removes attribute `name` of `op`, if present.
pub fn remove_attribute(op: OperationRef<'_, '_>, name: &str) {
    // SAFETY: `op` is live; the name is copied.
    unsafe { mlir_sys::mlirOperationRemoveAttributeByName(op.to_raw(), melior::StringRef::new(name).to_raw()) };
}

/// Moves `op` right before `at` (possibly in another block).
pub fn move_before(op: OperationRef<'_, '_>, at: OperationRef<'_, '_>) {
    assert!(
        op.block().is_some() && at.block().is_some(),
        "ops are moved between blocks"
    );
    // SAFETY: both are live ops in blocks.
    unsafe { mlir_sys::mlirOperationMoveBefore(op.to_raw(), at.to_raw()) }
}

/// Moves `op` right after `at` (possibly in another block).
pub fn move_after(op: OperationRef<'_, '_>, at: OperationRef<'_, '_>) {
    assert!(
        op.block().is_some() && at.block().is_some(),
        "ops are moved between blocks"
    );
    // SAFETY: both are live ops in blocks.
    unsafe { mlir_sys::mlirOperationMoveAfter(op.to_raw(), at.to_raw()) }
}

/// Moves `op` out of its block to the end of `block`.
pub fn move_to_end<'c, 'a>(op: OperationRef<'c, '_>, block: &impl BlockLike<'c, 'a>) {
    assert!(op.block().is_some(), "only an op in a block is moved");
    // SAFETY: `op` is live and in a block, which lets go of it; `block`
    // takes ownership.
    unsafe {
        mlir_sys::mlirOperationRemoveFromParent(op.to_raw());
        mlir_sys::mlirBlockAppendOwnedOperation(block.to_raw(), op.to_raw());
    }
}

/// A copy of `op` (its operands, attributes, result types and regions), in
/// no block yet.
pub fn clone_op<'c>(op: OperationRef<'c, '_>) -> Operation<'c> {
    // SAFETY: `op` is live; the copy is a new op that the caller owns.
    unsafe { Operation::from_raw(mlir_sys::mlirOperationClone(op.to_raw())) }
}

/// The new op `name` of `operands`, result types `results` and
/// `attributes`, at `location` and in no block yet; one MLIR refuses is an
/// error at `location`.
pub fn build_op<'c>(
    name: &str,
    location: Location<'c>,
    operands: &[Value<'c, '_>],
    results: &[Type<'c>],
    attributes: &[(Identifier<'c>, Attribute<'c>)],
) -> Result<Operation<'c>, Located<'c>> {
    OperationBuilder::new(name, location)
        .add_operands(operands)
        .add_results(results)
        .add_attributes(attributes)
        .build()
        .map_err(|e| Located::new(location, format!("cannot build {name}: {e}")))
}

/// Inserts the new op `op` right before `at`, in `at`'s block, and returns
/// it borrowed from there.
pub fn insert_before<'c, 'a>(at: OperationRef<'c, 'a>, op: Operation<'c>) -> OperationRef<'c, 'a> {
    let block = at.block().expect("an op in a block");
    block.insert_operation_before(at, op)
}

/// Renames the symbol `op` defines to `name`, and every use of its old name
/// in `scope` (the symbol table op holding it, usually the module). False
/// if MLIR could not update every use (it walks the whole scope and may
/// have updated some); the symbol itself is then left as it was. `name`
/// must be new to `scope`, or two symbols would share it.
pub fn rename_symbol(op: OperationRef<'_, '_>, name: &str, scope: OperationRef<'_, '_>) -> bool {
    let old = super::symbol_name(&op);
    // SAFETY: `scope` is live; the strings outlive the call.
    let replaced = unsafe {
        mlir_sys::mlirSymbolTableReplaceAllSymbolUses(
            melior::StringRef::new(&old).to_raw(),
            melior::StringRef::new(name).to_raw(),
            scope.to_raw(),
        )
    };
    if replaced.value == 0 {
        return false;
    }
    let context = super::context_of(&op);
    set_attribute(
        op,
        crate::ops::attr::SYM_NAME,
        melior::ir::attribute::StringAttribute::new(context, name).into(),
    );
    true
}
