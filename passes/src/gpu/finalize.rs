//! `dist-finalize-gpu-launches`: what the transform schedule leaves for the
//! host and device to agree on memory.
//!
//! - Shared-memory buffers the promotion allocated inside a `gpu.launch`
//!   become the launch's workgroup attributions (static shared memory).
//! - Every other buffer is allocated with `gpu.alloc host_shared` (CUDA
//!   managed memory), so host code, the kernels and NCCL all read it, and
//!   constants a kernel reads are copied into such a buffer.
//! - The schedule and its tags are removed.

use super::plan::{SCHEDULE_MODULE, TAG};
use crate::propagate_sharding::graph::{block_ops, fail, op_name, users};
use crate::{DistPass, PassError, PassInfo};
use dist_dialect::ir::OperationExt;
use melior::ir::attribute::{DenseI32ArrayAttribute, StringAttribute};
use melior::ir::operation::{OperationBuilder, OperationLike, WalkOrder, WalkResult};
use melior::ir::{Attribute, Identifier, OperationRef, TypeLike, ValueLike};

pub const INFO: PassInfo = PassInfo {
    argument: "dist-finalize-gpu-launches",
    summary: "Give scheduled GPU launches their shared memory and the host managed buffers; drop the schedule",
    anchor: "builtin.module",
    options: &[],
    dialects: &["gpu", "memref"],
    create: || Box::new(FinalizeGpuLaunches),
};

struct FinalizeGpuLaunches;

/// Whether an op enclosing `op` satisfies `test`.
fn has_ancestor(op: &OperationRef<'_, '_>, test: impl Fn(&OperationRef<'_, '_>) -> bool) -> bool {
    let mut raw = op.to_raw();
    loop {
        // SAFETY: `raw` is a live op; a null parent ends the walk.
        raw = unsafe { mlir_sys::mlirOperationGetParentOperation(raw) };
        if raw.ptr.is_null() {
            return false;
        }
        // SAFETY: a non-null parent of a live op is live.
        if test(&unsafe { OperationRef::from_raw(raw) }) {
            return true;
        }
    }
}

fn inside_launch(op: &OperationRef<'_, '_>) -> bool {
    has_ancestor(op, |a| op_name(a) == "gpu.launch")
}

fn is_workgroup(ty: melior::ir::Type<'_>) -> bool {
    ty.to_string().contains("#gpu.address_space<workgroup>")
}

/// Destroys `op`.
fn erase(op: OperationRef<'_, '_>) {
    // SAFETY: callers pass a live op nothing refers to any more.
    unsafe { mlir_sys::mlirOperationDestroy(op.to_raw()) };
}

/// Inserts `new` before `at`.
fn insert_before(at: OperationRef<'_, '_>, new: melior::ir::Operation<'_>) -> mlir_sys::MlirOperation {
    let raw = new.into_raw();
    // SAFETY: `at` is live and in a block; the block takes ownership.
    unsafe {
        let block = mlir_sys::mlirOperationGetBlock(at.to_raw());
        mlir_sys::mlirBlockInsertOwnedOperationBefore(block, at.to_raw(), raw);
    }
    raw
}

impl DistPass for FinalizeGpuLaunches {
    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let mut launches = Vec::new();
        let mut allocs = Vec::new();
        let mut deallocs = Vec::new();
        let mut globals = Vec::new();
        let mut schedules = Vec::new();
        module.walk(WalkOrder::PreOrder, |op| {
            // SAFETY: the walk hands out live ops of this module.
            let op = unsafe { OperationRef::from_raw(op.to_raw()) };
            // SAFETY: removing an absent attribute is a no-op.
            unsafe { mlir_sys::mlirOperationRemoveAttributeByName(op.to_raw(), melior::StringRef::new(TAG).to_raw()) };
            match op_name(&op) {
                "builtin.module" => {
                    let named = op
                        .attribute("sym_name")
                        .ok()
                        .and_then(|a| StringAttribute::try_from(a).ok())
                        .is_some_and(|s| s.value() == SCHEDULE_MODULE);
                    if named {
                        schedules.push(op);
                        return WalkResult::Skip;
                    }
                }
                "gpu.launch" => launches.push(op),
                "memref.alloc" => allocs.push(op),
                "memref.dealloc" => deallocs.push(op),
                "memref.get_global" => globals.push(op),
                _ => {}
            }
            WalkResult::Advance
        });
        for schedule in schedules {
            erase(schedule);
        }
        let context_ref = module.context();
        // SAFETY: `context_ref` lives to the end of this function.
        let context = unsafe { context_ref.to_ref() };
        let segments = Attribute::from(DenseI32ArrayAttribute::new(context, &[0, 0, 0]));
        let unit = Attribute::unit(context);
        // Deallocations: workgroup memory lives as long as the launch; host
        // buffers go back to the driver.
        for dealloc in deallocs {
            let buffer = dealloc
                .operand_at(0)
                .ok_or_else(|| fail(dealloc.location(), "a deallocation without its buffer"))?;
            if is_workgroup(buffer.r#type()) {
                erase(dealloc);
            } else if !inside_launch(&dealloc) {
                free_managed(context, buffer, dealloc)?;
                erase(dealloc);
            }
        }
        for alloc in allocs {
            let location = alloc.location();
            let result = alloc
                .result_at(0)
                .ok_or_else(|| fail(location, "an allocation without a result"))?;
            let ty = result.r#type();
            if is_workgroup(ty) {
                let Some(launch) = launches.iter().find(|l| encloses(l, &alloc)) else {
                    return Err(fail(location, "shared memory allocated outside a GPU launch"));
                };
                if alloc.operand_count() != 0 {
                    return Err(fail(location, "shared memory of dynamic size is not supported"));
                }
                // SAFETY: `launch` is a live gpu.launch; the attribution
                // replaces every use of the allocation.
                unsafe {
                    let shared = dist_dialect::ffi::distGpuLaunchAddWorkgroupAttribution(
                        launch.to_raw(),
                        ty.to_raw(),
                        location.to_raw(),
                    );
                    mlir_sys::mlirValueReplaceAllUsesOfWith(result.to_raw(), shared);
                }
                erase(alloc);
            } else if !inside_launch(&alloc) {
                if alloc.operand_count() != 0 {
                    return Err(fail(
                        location,
                        "host buffers of dynamic size are not supported on the GPU",
                    ));
                }
                let managed = managed_alloc(context, location, ty, segments, unit)?;
                let raw = insert_before(alloc, managed);
                // SAFETY: both values are live; the old one goes with its op.
                unsafe {
                    mlir_sys::mlirValueReplaceAllUsesOfWith(result.to_raw(), mlir_sys::mlirOperationGetResult(raw, 0));
                }
                erase(alloc);
            }
        }
        for global in globals {
            stage_global(context, global, segments, unit)?;
        }
        Ok(())
    }
}

fn encloses(launch: &OperationRef<'_, '_>, op: &OperationRef<'_, '_>) -> bool {
    has_ancestor(op, |a| a.to_raw().ptr == launch.to_raw().ptr)
}

fn managed_alloc<'c>(
    context: &'c melior::Context,
    location: melior::ir::Location<'c>,
    ty: melior::ir::Type<'c>,
    segments: Attribute<'c>,
    unit: Attribute<'c>,
) -> Result<melior::ir::Operation<'c>, PassError> {
    OperationBuilder::new("gpu.alloc", location)
        .add_attributes(&[
            (Identifier::new(context, "hostShared"), unit),
            (Identifier::new(context, "operandSegmentSizes"), segments),
        ])
        .add_results(&[ty])
        .build()
        .map_err(|e| fail(location, &e.to_string()))
}

/// A constant read by a kernel is copied into a managed buffer (freed at the
/// end of its block), since a kernel cannot read host globals.
fn stage_global<'c>(
    context: &'c melior::Context,
    global: OperationRef<'c, '_>,
    segments: Attribute<'c>,
    unit: Attribute<'c>,
) -> Result<(), PassError> {
    let location = global.location();
    let value = global
        .result_at(0)
        .ok_or_else(|| fail(location, "a global read without a result"))?;
    let readers: Vec<_> = users(value.into()).into_iter().filter(inside_launch).collect();
    if readers.is_empty() || inside_launch(&global) {
        return Ok(());
    }
    let block = global.block().expect("an op in a block");
    let next = global.next_in_block().expect("a block ends with its terminator");
    let managed = managed_alloc(context, location, value.r#type(), segments, unit)?;
    let buffer_raw = insert_before(next, managed);
    // SAFETY: the op was just inserted and has one result.
    let buffer = unsafe { melior::ir::Value::from_raw(mlir_sys::mlirOperationGetResult(buffer_raw, 0)) };
    let copy = OperationBuilder::new("memref.copy", location)
        .add_operands(&[value.into(), buffer])
        .build()
        .map_err(|e| fail(location, &e.to_string()))?;
    insert_before(next, copy);
    for reader in readers {
        for i in 0..reader.operand_count() {
            if reader.operand_at(i).is_some_and(|v| v == value.into()) {
                // SAFETY: `reader` is live; `buffer` dominates it (defined
                // right after the global, which dominates every use).
                unsafe { mlir_sys::mlirOperationSetOperand(reader.to_raw(), i as isize, buffer.to_raw()) };
            }
        }
    }
    let terminator = block_ops(block).pop().expect("a terminator");
    free_managed(context, buffer, terminator)
}

/// Frees the managed `buffer` before `at`. The runtime lowering takes only
/// the asynchronous `gpu.dealloc`, so it is ordered on a stream of its own
/// that is waited for at once.
fn free_managed<'c>(
    context: &'c melior::Context,
    buffer: melior::ir::Value<'c, '_>,
    at: OperationRef<'c, '_>,
) -> Result<(), PassError> {
    let location = at.location();
    let token = melior::ir::Type::parse(context, "!gpu.async.token").expect("the GPU token type");
    let build = |builder: OperationBuilder<'c>| builder.build().map_err(|e| fail(location, &e.to_string()));
    let stream = insert_before(
        at,
        build(OperationBuilder::new("gpu.wait", location).add_results(&[token]))?,
    );
    // SAFETY: the op was just inserted and has one result.
    let ready = unsafe { melior::ir::Value::from_raw(mlir_sys::mlirOperationGetResult(stream, 0)) };
    let free = insert_before(
        at,
        build(
            OperationBuilder::new("gpu.dealloc", location)
                .add_operands(&[ready, buffer])
                .add_results(&[token]),
        )?,
    );
    // SAFETY: as above.
    let done = unsafe { melior::ir::Value::from_raw(mlir_sys::mlirOperationGetResult(free, 0)) };
    insert_before(
        at,
        build(OperationBuilder::new("gpu.wait", location).add_operands(&[done]))?,
    );
    Ok(())
}
