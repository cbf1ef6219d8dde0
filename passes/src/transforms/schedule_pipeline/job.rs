//! One part (F, B or W) of a microbatch's work on one stage, as a function
//! that each microbatch calls: compiled once, whatever the number of
//! microbatches (copied M times into one body, a 4-stage GPT step at 8
//! microbatches took 90 s of code generation).

use super::placement::Channel;
use super::{Step, key};
use dist_dialect::ir::{
    OperationExt, ancestor_in, block_argument, block_argument_of, clone_op, context_of, op_result, set_attribute,
    set_operand, symbol_name, users, walk_preorder,
};
use melior::dialect::func;
use melior::ir::attribute::{StringAttribute, TypeAttribute};
use melior::ir::operation::{OperationLike, WalkResult};
use melior::ir::r#type::FunctionType;
use melior::ir::{Block, BlockLike, Location, OperationRef, Region, RegionLike, Type, Value, ValueLike};
use rustc_hash::{FxHashMap, FxHashSet};
use std::ffi::c_void;

/// A part of the work, outlined.
pub(super) struct Job<'c, 'a> {
    pub(super) callee: String,
    /// What it reads from the rest of the step, in argument order.
    pub(super) inputs: Vec<Value<'c, 'a>>,
    /// The values of the step it returns: op, result number and value.
    pub(super) outputs: Vec<(usize, usize, Value<'c, 'a>)>,
    pub(super) location: Location<'c>,
}

impl<'c, 'a> Job<'c, 'a> {
    /// Outlines the ops `ops` (indices into the step's body, in order) as
    /// the private function `@<function>__<suffix>`, inserted after the
    /// step's function.
    pub(super) fn outline(step: &Step<'c, 'a>, ops: &[usize], suffix: &str) -> Self {
        let function = step.function.operation();
        let entry = function
            .region_at(0)
            .and_then(|r| r.first_block())
            .expect("a function with a body");
        let inside: FxHashSet<usize> = ops.iter().copied().collect();
        let mut inputs: Vec<Value<'c, 'a>> = Vec::new();
        let mut seen: FxHashSet<*const c_void> = FxHashSet::default();
        for &i in ops {
            walk_preorder(&step.body.ops[i], |nested| {
                for value in nested.operands() {
                    let outside = match op_result(value) {
                        Some(result) => step
                            .body
                            .position(&result.owner())
                            .is_some_and(|j| !inside.contains(&j)),
                        None => block_argument_of(value).is_some_and(|a| a.owner() == entry),
                    };
                    if outside && seen.insert(key(value)) {
                        inputs.push(value);
                    }
                }
                WalkResult::Advance
            });
        }
        let mut outputs = Vec::new();
        for &i in ops {
            for (r, result) in step.body.ops[i].results().enumerate() {
                let value: Value<'c, 'a> = result.into();
                let read_outside = users(value).into_iter().any(|user| {
                    ancestor_in(entry, user)
                        .and_then(|top| step.body.position(&top))
                        .is_none_or(|j| !inside.contains(&j))
                });
                let crosses = step
                    .placement
                    .as_ref()
                    .is_some_and(|p| p.channel(Channel::Microbatch(i, r)).is_some());
                if read_outside || crosses || step.sinks.contains_key(&key(value)) {
                    outputs.push((i, r, value));
                }
            }
        }
        let context = context_of(&function);
        let location = step.body.ops[ops[0]].location();
        let input_types: Vec<Type<'c>> = inputs.iter().map(|v| v.r#type()).collect();
        let output_types: Vec<Type<'c>> = outputs.iter().map(|(_, _, v)| v.r#type()).collect();
        let block = Block::new(&input_types.iter().map(|&t| (t, location)).collect::<Vec<_>>());
        let mut map: FxHashMap<*const c_void, Value<'c, '_>> = FxHashMap::default();
        for (k, &value) in inputs.iter().enumerate() {
            map.insert(
                key(value),
                block_argument(&block, k).expect("an argument per input").into(),
            );
        }
        let mut returned = vec![None; outputs.len()];
        for &i in ops {
            let original = step.body.ops[i];
            let copy = block.append_operation(clone_op(original));
            walk_preorder(&copy, |nested| {
                let operands: Vec<_> = nested.operands().collect();
                for (k, value) in operands.into_iter().enumerate() {
                    if let Some(&new) = map.get(&key(value)) {
                        set_operand(nested, k, new);
                    }
                }
                WalkResult::Advance
            });
            for (old, new) in original.results().zip(copy.results()) {
                let old: Value<'c, 'a> = old.into();
                map.insert(key(old), new.into());
                if let Some(k) = outputs.iter().position(|(_, _, v)| *v == old) {
                    returned[k] = Some(new.into());
                }
            }
        }
        let returned: Vec<Value> = returned.into_iter().map(|v| v.expect("an op of the job")).collect();
        block.append_operation(func::r#return(&returned, location));
        let region = Region::new();
        region.append_block(block);
        let callee = format!("{}__{suffix}", symbol_name(&function));
        let op = func::func(
            context,
            StringAttribute::new(context, &callee),
            TypeAttribute::new(FunctionType::new(context, &input_types, &output_types).into()),
            region,
            &[],
            location,
        );
        let module_body = function.block().expect("a function of a module");
        let op: OperationRef<'c, '_> = module_body.insert_operation_after(function, op);
        set_attribute(op, "sym_visibility", StringAttribute::new(context, "private").into());
        Self {
            callee,
            inputs,
            outputs,
            location,
        }
    }
}
