//! The `dist-overlap-collectives` pass. Its documentation (what it does, preconditions, before
//! and after) is [`INFO`]'s description: `dist-opt --help-passes` prints it
//! and docs/passes.md holds it.

pub mod schedule;

use crate::error::{PassError, fail};
use crate::pass::{DistPass, PassInfo};
use dist_dialect::DistOp;
use dist_dialect::ir::{
    FunctionOpRef, Located, OperationExt, attribute, block_ops, build_op, context_of, handle_type,
    is_memory_effect_free, move_before, replace_op, walk_preorder,
};
use dist_dialect::ods::dist;
use dist_dialect::ops::attr::SHARDING;
use melior::ir::operation::{OperationLike, OperationMutLike, WalkResult};
use melior::ir::{BlockLike, BlockRef, Identifier, Operation, OperationRef, RegionLike, Type, Value, ValueLike};
use rustc_hash::FxHashMap;
use schedule::{Class, Node};
use std::ffi::c_void;

#[derive(Debug, Default)]
pub struct OverlapCollectives;

pub const INFO: PassInfo = PassInfo {
    argument: "dist-overlap-collectives",
    summary: "Issue collectives as async start/wait pairs, started early and waited late, around independent compute",
    description: r#"`dist-overlap-collectives`: issues every communicating collective
asynchronously and schedules it against independent compute.

Preconditions: none beyond a function body (shardings are carried, not
read). Each `all_reduce`, `all_reduce_coalesced`, `reduce_scatter`,
`reduce_scatter_coalesced`, `all_gather` and `all_to_all` becomes its
`*_start` (one over all operands for a coalesced op) and a `dist.wait`
(which takes the sharding); `all_slice` moves nothing and stays. Then
each block of the body is list-scheduled ([`schedule`]): a start right
after its last operand's producer, a wait right before its first use,
and every op that does not depend on the collective in between. An op
never moves across one it depends on: def-use (including uses inside
its regions) and ops with memory effects in order with each other and
with starts and waits. Every rank runs the same program, so every rank
issues the collectives in the same order. `--dist-overlap-report` measures the result.

Before:
```mlir
%dx = dist.matmul %dout, %w {transpose_y} ...
%dw = dist.matmul %x, %dout {transpose_x} ...
%r = dist.all_reduce %dx on @mesh axes = ["tp"] kind = sum ...
%g = dist.gelu %r ...
```
After:
```mlir
%dx = dist.matmul %dout, %w {transpose_y} ...
%h = dist.all_reduce_start %dx on @mesh axes = ["tp"] kind = sum ...
%dw = dist.matmul %x, %dout {transpose_x} ...
%r = dist.wait %h ...
%g = dist.gelu %r ...
```
"#,
    anchor: "func.func",
    options: Vec::new,
    dialects: &[],
    create: || Box::new(OverlapCollectives),
};

impl DistPass for OverlapCollectives {
    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), PassError> {
        let function = FunctionOpRef::try_from(op).map_err(|e| fail(op.location(), &e.to_string()))?;
        let Some(region) = function.operation().region_at(0) else {
            return Ok(());
        };
        let mut next = region.first_block();
        while let Some(block) = next {
            next = block.next_in_region();
            let converted = make_async(block)?;
            let ops = block_ops(block);
            if converted || ops.iter().any(|o| async_class(o).is_some()) {
                reorder(&ops);
            }
        }
        Ok(())
    }
}

fn async_class(op: &OperationRef<'_, '_>) -> Option<Class> {
    match DistOp::of(op)? {
        DistOp::Wait => Some(Class::Wait),
        kind if kind.is_async_start() => Some(Class::Start),
        _ => None,
    }
}

/// Replaces each sync collective of `block` with its start and wait, in
/// its place; whether there were any.
fn make_async<'c>(block: BlockRef<'c, '_>) -> Result<bool, Located<'c>> {
    let mut converted = false;
    for op in block_ops(block) {
        let Some(start) = DistOp::of(&op).and_then(DistOp::asynchronous) else {
            continue;
        };
        let start = start.name();
        let context = context_of(&op);
        let location = op.location();
        let types: Vec<Type<'_>> = op.results().map(|r| r.r#type()).collect();
        let handle = handle_type(context, &types).map_err(|e| Located::at(&op, e.to_string()))?;
        let sharding = Identifier::new(context, SHARDING);
        let attributes: Vec<_> = op.attributes().filter(|(name, _)| *name != sharding).collect();
        let operands: Vec<Value<'_, '_>> = op.operands().collect();
        let start_op = build_op(start, location, &operands, &[handle], &attributes)?;
        let start_op = block.insert_operation_before(op, start_op);
        let handle: Value<'_, '_> = start_op.result_at(0).expect("a start has a handle").into();
        let mut wait: Operation<'_> = dist::wait(context, &types, handle, location).into();
        if let Some(s) = attribute(&op, SHARDING) {
            wait.set_attribute(SHARDING, s);
        }
        let wait = block.insert_operation_before(op, wait);
        // SAFETY: the loop does not visit the op again.
        #[allow(unsafe_code)]
        unsafe {
            replace_op(op, wait.results().map(Value::from))
        };
        converted = true;
    }
    Ok(converted)
}

/// Every value an op reads, also inside its regions.
fn reads(op: &OperationRef<'_, '_>, out: &mut Vec<*const c_void>) {
    out.extend(op.operands().map(|v| v.to_raw().ptr));
    if op.region_count() == 0 {
        return;
    }
    walk_preorder(op, |nested| {
        out.extend(nested.operands().map(|v| v.to_raw().ptr));
        WalkResult::Advance
    });
}

/// Schedules `ops` (a block's, terminator last) and moves them into that
/// order.
fn reorder(ops: &[OperationRef<'_, '_>]) {
    let Some((terminator, body)) = ops.split_last() else {
        return;
    };
    let mut producer: FxHashMap<*const c_void, usize> = FxHashMap::default();
    let mut nodes = Vec::with_capacity(body.len());
    let mut last_barrier = None;
    // Starts and waits since the last op with other effects.
    let mut since_barrier: Vec<usize> = Vec::new();
    let mut read = Vec::new();
    for (i, op) in body.iter().enumerate() {
        read.clear();
        reads(op, &mut read);
        let mut after: Vec<usize> = read.iter().filter_map(|v| producer.get(v).copied()).collect();
        let class = match async_class(op) {
            Some(class) => {
                after.extend(last_barrier);
                since_barrier.push(i);
                class
            }
            None if is_memory_effect_free(op) => Class::Compute,
            None => {
                after.extend(last_barrier);
                after.append(&mut since_barrier);
                last_barrier = Some(i);
                Class::Compute
            }
        };
        after.sort_unstable();
        after.dedup();
        nodes.push(Node { class, after });
        producer.extend(op.results().map(|r| (r.to_raw().ptr, i)));
    }
    let order = schedule::schedule(&nodes);
    if order.iter().enumerate().all(|(k, &i)| k == i) {
        return;
    }
    for i in order {
        move_before(body[i], *terminator);
    }
}
