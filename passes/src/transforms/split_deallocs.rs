//! The `dist-split-deallocs` pass. Its documentation (what it does, preconditions, before
//! and after) is [`INFO`]'s description: `dist-opt --help-passes` prints it
//! and docs/passes.md holds it.

use crate::error::PassError;
use crate::pass::{DistPass, PassInfo};
use dist_dialect::ir::{
    Located, OperationExt, block_argument, block_argument_of, block_ops, build_op, context_of, erase, insert_before,
    op_name, op_result, replace_all_uses, symbol_ref_attribute, walk_preorder,
};
use melior::ir::attribute::{BoolAttribute, DenseI32ArrayAttribute};
use melior::ir::operation::{OperationLike, WalkResult};
use melior::ir::r#type::{IntegerType, TypeLike};
use melior::ir::{BlockLike, Identifier, OperationRef, RegionLike, Value, ValueLike};
use rustc_hash::{FxHashMap, FxHashSet};

#[derive(Debug, Default)]
pub struct SplitDeallocs;

pub const INFO: PassInfo = PassInfo {
    argument: "dist-split-deallocs",
    summary: "Split each bufferization.dealloc by the buffers its operands can come from (linear-time, conservative)",
    description: r#"`dist-split-deallocs`: splits each `bufferization.dealloc` into one per
group of operands that may share a buffer, and drops the memrefs whose
condition is the constant false.

`ownership-based-buffer-deallocation` frees every buffer a block owns in one
`bufferization.dealloc` at its end, retaining the values the block returns.
`buffer-deallocation-simplification` then splits it with pairwise alias
queries, quadratic in its operands; and where the buffers come from calls,
which it cannot see into, the dealloc stays whole and is lowered to a
run-time alias check of every buffer against every retained value. The
training step with outlined layers (`dist-outline-layers`) holds the
results of every layer call: at 32 layers the simplification took 150 s
and the lowered checks most of the code generation (docs/perf.md).

What this pass knows: each result of a call to a function defined in the
module is a buffer the caller owns and nothing else holds
(`ownership-based-buffer-deallocation` clones what a function would
return without owning it), so it can share a buffer only with the other
results of the same call, and with none of them where the callee returns
buffers of distinct fresh origins (a layer function's results); so is
each `memref.alloc`, `memref.alloca` and
`bufferization.clone`; the function's arguments are buffers of the caller
and may share one with each other only. A view (subview, cast, reshape,
`extract_strided_metadata`) has its source's buffer. An `scf.if` that
yields a buffer from outside in one branch and one it makes (a clone) in
the other, as ownership-based deallocation returns a buffer it may not own,
has the outside buffer's origin (with a constant condition, the taken
branch's). The operands of a
dealloc are grouped by the op (or the arguments) their buffer comes from,
and each group gets its own dealloc; a retained value whose group frees
nothing is not owned afterwards (false). A dealloc with an operand of any
other origin (a block argument of a nested region, the result of another
op) is left as it is.

Preconditions: right after `ownership-based-buffer-deallocation` with its
default options (no dynamic ownership of private functions), before
`buffer-deallocation-simplification`.

Before:
```mlir
%r:2 = call @layer(%x) : (memref<8xf32>) -> (memref<8xf32>, memref<8xf32>)
%a = memref.alloc() : memref<8xf32>
...
%o = bufferization.dealloc (%r#0, %r#1, %a, %x : ...) if (%true, %true, %true, %false) retain (%r#1 : memref<8xf32>)
return %r#1 : memref<8xf32>
```
After:
```mlir
%o = bufferization.dealloc (%r#0, %r#1 : ...) if (%true, %true) retain (%r#1 : memref<8xf32>)
bufferization.dealloc (%a : memref<8xf32>) if (%true)
return %r#1 : memref<8xf32>
```
"#,
    anchor: "builtin.module",
    options: Vec::new,
    dialects: &["bufferization"],
    create: || Box::new(SplitDeallocs),
};

/// Where a buffer comes from, as far as sharing goes: two values of
/// different origins never share a buffer; two of one origin may.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Origin {
    /// A fresh buffer made by one op (keyed by the op): an allocation, a
    /// clone, or the results of one call of a defined function.
    Fresh(usize),
    /// One result (keyed by the op and the result) of an op whose results
    /// are distinct fresh buffers: a call of a function that returns such,
    /// an `scf.if` whose branches both make the buffer they yield.
    Result(usize, usize),
    /// The function's arguments (the caller's buffers).
    Arguments,
}

/// The operands of a dealloc split by origin: for each group, in order of
/// first appearance, the indices of its memrefs and of its retained values.
/// `None` if some operand's origin is unknown. Memrefs whose condition is
/// known false (`never_freed`) join no group.
pub fn split(
    memrefs: &[Option<Origin>],
    never_freed: &[bool],
    retained: &[Option<Origin>],
) -> Option<Vec<(Vec<usize>, Vec<usize>)>> {
    let mut index: FxHashMap<Origin, usize> = FxHashMap::default();
    let mut groups: Vec<(Vec<usize>, Vec<usize>)> = Vec::new();
    let mut group_of = |origin: Origin, groups: &mut Vec<(Vec<usize>, Vec<usize>)>| {
        *index.entry(origin).or_insert_with(|| {
            groups.push((Vec::new(), Vec::new()));
            groups.len() - 1
        })
    };
    for (i, (origin, &dead)) in memrefs.iter().zip(never_freed).enumerate() {
        let origin = (*origin)?;
        if !dead {
            let g = group_of(origin, &mut groups);
            groups[g].0.push(i);
        }
    }
    for (j, origin) in retained.iter().enumerate() {
        let g = group_of((*origin)?, &mut groups);
        groups[g].1.push(j);
    }
    Some(groups)
}

impl DistPass for SplitDeallocs {
    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        // The module's own functions: a call names a symbol of the nearest
        // symbol table, and a nested module's functions are another table
        // (left as they are).
        let Some(body) = module.region_at(0).and_then(|r| r.first_block()) else {
            return Ok(());
        };
        let functions: Vec<_> = block_ops(body)
            .into_iter()
            .filter(|op| op_name(op) == "func.func" && op.region_at(0).and_then(|r| r.first_block()).is_some())
            .collect();
        let mut deallocs = Vec::new();
        for function in &functions {
            walk_preorder(function, |op| {
                if op_name(&op) == "bufferization.dealloc" {
                    deallocs.push(op);
                }
                WalkResult::Advance
            });
        }
        let mut defined: Defined = functions
            .iter()
            .map(|f| (dist_dialect::ir::symbol_name(f), false))
            .collect();
        // Calls inside a callee count as shared results here: one round,
        // conservative.
        let disjoint: Vec<bool> = functions.iter().map(|&f| has_disjoint_results(f, &defined)).collect();
        for (f, d) in functions.iter().zip(disjoint) {
            defined.insert(dist_dialect::ir::symbol_name(f), d);
        }
        for dealloc in deallocs {
            rewrite(dealloc, &defined)?;
        }
        Ok(())
    }
}

/// The functions the module defines, and whether each returns distinct
/// fresh buffers.
type Defined = FxHashMap<String, bool>;

/// Whether `function` returns from its one block only buffers of distinct
/// fresh origins: then no two results of a call of it share a buffer.
fn has_disjoint_results(function: OperationRef<'_, '_>, defined: &Defined) -> bool {
    let Some(body) = function.region_at(0).and_then(|r| r.first_block()) else {
        return false;
    };
    if body.next_in_region().is_some() {
        return false;
    }
    let Some(ret) = body.terminator() else {
        return false;
    };
    let mut seen = FxHashSet::default();
    ret.operands().all(|v| {
        let ty = v.r#type();
        if TypeLike::is_unranked_mem_ref(&ty) {
            // Its buffer is another result's as often as not.
            return false;
        }
        !TypeLike::is_mem_ref(&ty)
            || match origin(v, defined) {
                Some(o @ (Origin::Fresh(_) | Origin::Result(..))) => seen.insert(o),
                _ => false,
            }
    })
}

/// The value whose buffer `value` views: through subviews, casts,
/// reshapes and `extract_strided_metadata`'s base buffer.
fn viewed<'c: 'a, 'a>(value: Value<'c, 'a>) -> Value<'c, 'a> {
    let mut value = value;
    while let Some(result) = op_result(value) {
        let op = result.owner();
        let is_view = match op_name(&op) {
            "memref.subview"
            | "memref.cast"
            | "memref.reinterpret_cast"
            | "memref.reshape"
            | "memref.expand_shape"
            | "memref.collapse_shape"
            | "memref.transpose"
            | "memref.view" => true,
            "memref.extract_strided_metadata" => result.result_number() == 0,
            _ => false,
        };
        match is_view.then(|| op.operand_at(0)).flatten() {
            Some(source) => value = source,
            None => break,
        }
    }
    value
}

/// The origin of `value`'s buffer; `None` if unknown.
fn origin(value: Value<'_, '_>, defined: &Defined) -> Option<Origin> {
    let mut value = viewed(value);
    loop {
        if let Some(argument) = block_argument_of(value) {
            let block = argument.owner();
            let owner = block.parent_operation()?;
            let is_entry = block.parent_region()?.first_block() == Some(block);
            return (op_name(&owner) == "func.func" && is_entry).then_some(Origin::Arguments);
        }
        let result = op_result(value)?;
        let op = result.owner();
        let key = op.to_raw().ptr as usize;
        match op_name(&op) {
            "memref.alloc" | "memref.alloca" | "bufferization.clone" => return Some(Origin::Fresh(key)),
            "func.call" => {
                return match defined.get(&symbol_ref_attribute(&op, "callee")?)? {
                    true => Some(Origin::Result(key, result.result_number())),
                    false => Some(Origin::Fresh(key)),
                };
            }
            // A loop that yields its own iteration argument (a buffer
            // updated in place) ends with its initial value's buffer.
            "scf.for" => {
                let r = result.result_number();
                let body = op.region_at(0)?.first_block()?;
                let yielded = viewed(body.terminator()?.operand_at(r)?);
                let carried = block_argument(&body, r + 1)?;
                if yielded != Value::from(carried) {
                    return None;
                }
                // Operands: lower bound, upper bound, step, initial values.
                value = viewed(op.operand_at(3 + r)?);
            }
            "scf.if" => return if_origin(&op, result.result_number(), defined),
            _ => return None,
        }
    }
}

/// What a branch of an `scf.if` yields as its result `r`.
enum Yielded<'c, 'a> {
    /// A buffer the branch makes (an allocation or a clone): nothing
    /// outside the `scf.if` sees it but its result.
    Made,
    Outside(Value<'c, 'a>),
}

/// The origin of result `r` of `if_op`. Ownership-based deallocation
/// returns a buffer it may not own as `scf.if %owned { yield %b } else {
/// clone %b }`: the result is `%b`'s buffer or one only the result holds,
/// so it has `%b`'s origin. With a constant condition only the taken branch
/// counts.
fn if_origin(if_op: &OperationRef<'_, '_>, r: usize, defined: &Defined) -> Option<Origin> {
    let branch = |region: usize| -> Option<Yielded> {
        let terminator = if_op.region_at(region)?.first_block()?.terminator()?;
        let yielded = viewed(terminator.operand_at(r)?);
        let made = op_result(yielded).is_some_and(|result| {
            let maker = result.owner();
            matches!(
                op_name(&maker),
                "memref.alloc" | "memref.alloca" | "bufferization.clone"
            ) && maker.parent_operation() == Some(*if_op)
        });
        if !made {
            return Some(Yielded::Outside(yielded));
        }
        // Yielded as two results, it would be one buffer of two origins.
        let times = terminator.operands().filter(|&v| viewed(v) == yielded).count();
        (times == 1).then_some(Yielded::Made)
    };
    let branches = match constant_bool(if_op.operand_at(0)?) {
        Some(taken) => vec![branch(if taken { 0 } else { 1 })?],
        None => vec![branch(0)?, branch(1)?],
    };
    let mut outside = None;
    for yielded in branches {
        if let Yielded::Outside(value) = yielded {
            let o = origin(value, defined)?;
            if outside.is_some_and(|other| other != o) {
                return None;
            }
            outside = Some(o);
        }
    }
    Some(outside.unwrap_or(Origin::Result(if_op.to_raw().ptr as usize, r)))
}

/// A dealloc's count of memrefs (as many conditions follow) and of
/// retained values.
fn segment_sizes(dealloc: &OperationRef<'_, '_>) -> Option<(usize, usize)> {
    let sizes = DenseI32ArrayAttribute::try_from(dealloc.attribute("operandSegmentSizes").ok()?).ok()?;
    if sizes.len() != 3 {
        return None;
    }
    Some((sizes.element(0).ok()? as usize, sizes.element(2).ok()? as usize))
}

/// The value of `value` where it is a constant `i1`.
fn constant_bool(value: Value<'_, '_>) -> Option<bool> {
    let result = op_result(value)?;
    let op = result.owner();
    if op_name(&op) != "arith.constant" || result.r#type().to_string() != "i1" {
        return None;
    }
    let constant = melior::ir::attribute::IntegerAttribute::try_from(op.attribute("value").ok()?).ok()?;
    Some(constant.value() != 0)
}

fn rewrite<'c>(dealloc: OperationRef<'c, '_>, defined: &Defined) -> Result<(), Located<'c>> {
    let Some((n, k)) = segment_sizes(&dealloc) else {
        return Ok(());
    };
    let operands: Vec<Value> = dealloc.operands().collect();
    let (memrefs, rest) = operands.split_at(n);
    let (conditions, retained) = rest.split_at(n);
    let memref_origins: Vec<Option<Origin>> = memrefs.iter().map(|&m| origin(m, defined)).collect();
    let never_freed: Vec<bool> = conditions.iter().map(|&c| constant_bool(c) == Some(false)).collect();
    let retained_origins: Vec<Option<Origin>> = retained.iter().map(|&r| origin(r, defined)).collect();
    let Some(groups) = split(&memref_origins, &never_freed, &retained_origins) else {
        return Ok(());
    };
    let dropped = never_freed.iter().filter(|&&d| d).count();
    if groups.len() <= 1 && dropped == 0 {
        return Ok(());
    }
    let context = context_of(&dealloc);
    let location = dealloc.location();
    let i1 = IntegerType::new(context, 1).into();
    let mut ownership: Vec<Option<Value>> = vec![None; k];
    for (group_memrefs, group_retained) in groups {
        if group_memrefs.is_empty() {
            continue;
        }
        let mut new_operands: Vec<Value> = group_memrefs.iter().map(|&i| memrefs[i]).collect();
        new_operands.extend(group_memrefs.iter().map(|&i| conditions[i]));
        new_operands.extend(group_retained.iter().map(|&j| retained[j]));
        let segments = [
            group_memrefs.len() as i32,
            group_memrefs.len() as i32,
            group_retained.len() as i32,
        ];
        let op = build_op(
            "bufferization.dealloc",
            location,
            &new_operands,
            &vec![i1; group_retained.len()],
            &[(
                Identifier::new(context, "operandSegmentSizes"),
                DenseI32ArrayAttribute::new(context, &segments).into(),
            )],
        )?;
        let new = insert_before(dealloc, op);
        for (r, &j) in group_retained.iter().enumerate() {
            ownership[j] = Some(new.result(r).expect("a result per retained value").into());
        }
    }
    for (j, owned) in ownership.into_iter().enumerate() {
        let old = dealloc.result(j).expect("a result per retained value");
        let new = match owned {
            Some(value) => value,
            // Nothing that frees shares its buffer: not owned afterwards.
            None => {
                let constant = build_op(
                    "arith.constant",
                    location,
                    &[],
                    &[i1],
                    &[(
                        Identifier::new(context, "value"),
                        BoolAttribute::new(context, false).into(),
                    )],
                )?;
                insert_before(dealloc, constant).result(0).expect("one result").into()
            }
        };
        replace_all_uses(old, new);
    }
    // SAFETY: every use of its results was replaced; no handle is kept.
    #[allow(unsafe_code)]
    unsafe {
        erase(dealloc)
    };
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{Origin, split};

    #[test]
    fn groups_follow_origins_in_order_of_appearance() {
        let (call, alloc) = (Origin::Fresh(1), Origin::Fresh(2));
        let memrefs = [Some(call), Some(alloc), Some(call), Some(Origin::Arguments)];
        let groups = split(
            &memrefs,
            &[false, false, false, true],
            &[Some(call), Some(Origin::Arguments)],
        );
        // The argument frees nothing: its group holds only the retained value.
        assert_eq!(
            groups,
            Some(vec![(vec![0, 2], vec![0]), (vec![1], vec![]), (vec![], vec![1])])
        );
    }

    #[test]
    fn an_unknown_origin_keeps_the_dealloc() {
        assert_eq!(split(&[Some(Origin::Fresh(1)), None], &[false, false], &[]), None);
        assert_eq!(split(&[Some(Origin::Fresh(1))], &[false], &[None]), None);
    }
}
