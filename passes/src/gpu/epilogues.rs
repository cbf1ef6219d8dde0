//! The `dist-fuse-reduction-epilogues` pass. Its documentation (what it
//! does, preconditions, before and after) is [`INFO`]'s description:
//! `dist-opt --help-passes` prints it and docs/passes.md holds it.

use super::tensor_ir::{iterators_text, map_text, operand_loops, parse};
use crate::error::{PassError, fail};
use crate::pass::{DistPass, PassInfo};
use dist_dialect::ir::{
    OperationExt, block_argument, block_ops, clone_op, context_of, element_type, erase, insert_before,
    integer_attribute, linalg_contraction_dims, linalg_static_loops, op_name, op_result, replace_all_uses, set_operand,
    users, walk_preorder,
};
use melior::Context;
use melior::ir::attribute::DenseI32ArrayAttribute;
use melior::ir::operation::{OperationBuilder, OperationLike, WalkResult};
use melior::ir::{
    Attribute, Block, BlockLike, BlockRef, Identifier, Location, OperationRef, Region, RegionLike, Type, Value,
    ValueLike,
};
use std::collections::HashMap;

pub const INFO: PassInfo = PassInfo {
    argument: "dist-fuse-reduction-epilogues",
    summary: "Fuse an elementwise op into the reduction it reads (a row sum and its mean, an f64 partial sum and \
              its rounding): one op whose body loops over the reduction",
    description: r#"`dist-fuse-reduction-epilogues`: a reduction and the elementwise op of
its result as one kernel.

A sum kept in f64 is rounded to f32 by an elementwise op, and a norm's
variance becomes its reciprocal square root in another. Upstream
elementwise fusion does not fuse a consumer into a reduction, so each pair
is two kernels, with the f64 partial sums in memory between them. The GPU
schedule runs a reduction's rows inside one thread anyway, so the pair
becomes one elementwise op over the reduction's parallel loops, whose body
loops over the reduction (`scf.for`, the accumulator carried in a
register, the inputs read with `tensor.extract`) and then applies the
elementwise body once.

- **Precondition:** linalg ops on static tensors, before
  `dist-schedule-gpu` and bufferization.
- **Fused:** a `linalg.generic` reduction of one result that is not a
  contraction (products keep their tiled kernels), whose result map
  lists its parallel loops in order and whose inputs' maps are projected
  permutations, read only by an all-parallel `linalg.generic` of that one
  input and one init, both indexed by the identity.
- **Effect:** the same values (the reduction's order is kept).

```mlir
// before
%s = linalg.generic {iterator_types = ["parallel", "reduction"]} ins(%x : tensor<512x1024xf32>) outs(%zeros : tensor<512xf64>) {
  ^bb0(%in: f32, %acc: f64): %w = arith.extf %in : f32 to f64  %r = arith.addf %acc, %w : f64  linalg.yield %r : f64 }
%m = linalg.generic {iterator_types = ["parallel"]} ins(%s : tensor<512xf64>) outs(%e : tensor<512xf32>) {
  ^bb0(%in: f64, %o: f32): %t = arith.truncf %in : f64 to f32  linalg.yield %t : f32 }
// after
%m = linalg.generic {iterator_types = ["parallel"]} outs(%e : tensor<512xf32>) {
^bb0(%o: f32):
  %i = linalg.index 0 : index
  %a0 = tensor.extract %zeros[%i] : tensor<512xf64>
  %sum = scf.for %k = %c0 to %c1024 step %c1 iter_args(%acc = %a0) -> (f64) {
    %in = tensor.extract %x[%i, %k] : tensor<512x1024xf32>
    ... the reduction's body ...  scf.yield %r : f64 }
  %t = arith.truncf %sum : f64 to f32
  linalg.yield %t : f32 }
```
"#,
    anchor: "builtin.module",
    options: Vec::new,
    dialects: &["tensor", "linalg", "scf", "arith"],
    create: || Box::new(FuseReductionEpilogues),
};

struct FuseReductionEpilogues;

impl DistPass for FuseReductionEpilogues {
    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let context = context_of(&module);
        let mut pairs = Vec::new();
        walk_preorder(&module, |op| {
            if op_name(&op) == "gpu.module" {
                return WalkResult::Skip;
            }
            if let Some(epilogue) = fusible_epilogue(&op) {
                pairs.push((op, epilogue));
            }
            WalkResult::Advance
        });
        for (reduction, epilogue) in pairs {
            fuse(context, reduction, epilogue)?;
        }
        Ok(())
    }
}

/// The elementwise op that is the only reader of reduction `op`'s result,
/// where the two can be one op (see the pass's description).
fn fusible_epilogue<'c, 'a>(op: &OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    // A contraction keeps its own kernel: the schedule tiles it through
    // shared memory (or the tensor cores), which a loop in a thread is not.
    if op_name(op) != "linalg.generic"
        || op.result_count() != 1
        || op.operand_count() < 2
        || linalg_contraction_dims(op).is_some()
    {
        return None;
    }
    let loops = linalg_static_loops(op)?;
    let reductions = loops.iter().filter(|&&(_, r)| r).count();
    if reductions == 0 || reductions == loops.len() || loops.iter().any(|&(size, _)| size.is_none_or(|s| s < 1)) {
        return None;
    }
    let maps = operand_loops(op)?;
    let parallel: Vec<usize> = (0..loops.len()).filter(|&l| !loops[l].1).collect();
    if maps.last()? != &parallel {
        return None;
    }
    let result = op.result_at(0)?;
    let readers = users(result);
    let [epilogue] = readers.as_slice() else { return None };
    let epilogue_loops = linalg_static_loops(epilogue)?;
    let identity: Vec<usize> = (0..parallel.len()).collect();
    let fits = op_name(epilogue) == "linalg.generic"
        && epilogue.operand_count() == 2
        && epilogue.result_count() == 1
        && epilogue.operand_at(0) == Some(result.into())
        && epilogue_loops.len() == parallel.len()
        && epilogue_loops.iter().all(|&(_, r)| !r)
        && operand_loops(epilogue).is_some_and(|m| m.iter().all(|map| *map == identity))
        && epilogue.block() == op.block();
    (fits && simple_body(op) && simple_body(epilogue)).then_some(*epilogue)
}

/// Whether the body of the linalg op `op` has no op with regions and
/// yields a value it computes or takes (not one captured from outside),
/// so that it can be copied anywhere the op's operands are defined.
fn simple_body(op: &OperationRef<'_, '_>) -> bool {
    let Some(body) = op.region_at(0).and_then(|r| r.first_block()) else {
        return false;
    };
    let ops = block_ops(body);
    let inside = |value: Value| match op_result(value) {
        Some(result) => result.owner().block() == Some(body),
        None => {
            value.is_block_argument() && body.argument_count() > 0 && {
                (0..body.argument_count()).any(|i| block_argument(&body, i).is_some_and(|a| Value::from(a) == value))
            }
        }
    };
    ops.iter().all(|inner| inner.region_count() == 0)
        && ops
            .last()
            .and_then(|yield_op| yield_op.operand_at(0))
            .is_some_and(inside)
}

/// Replaces `reduction` and its `epilogue` by one all-parallel generic
/// whose body loops over the reduction, then applies the epilogue's body.
fn fuse<'c>(
    context: &'c Context,
    reduction: OperationRef<'c, '_>,
    epilogue: OperationRef<'c, '_>,
) -> Result<(), PassError> {
    let location = reduction.location();
    let loops = linalg_static_loops(&reduction).ok_or_else(|| fail(location, "a reduction without static loops"))?;
    let maps = operand_loops(&reduction).ok_or_else(|| fail(location, "a reduction without its maps"))?;
    let operands: Vec<Value> = reduction.operands().collect();
    let (init, inputs) = operands.split_last().expect("a reduction has an init");
    let epilogue_init = epilogue.operand_at(1).expect("an epilogue's init");
    let out_type = epilogue.result_at(0).expect("a result").r#type();
    let rank = loops.len() - loops.iter().filter(|&&(_, r)| r).count();

    let body = Block::new(&[(element_type(out_type), location)]);
    let region = Region::new();
    let body = region.append_block(body);
    let index = Type::index(context);
    let constant = |value: i64| -> Result<Value<'c, '_>, PassError> {
        let op = OperationBuilder::new("arith.constant", location)
            .add_attributes(&[(
                Identifier::new(context, "value"),
                parse(context, &format!("{value} : index"), location)?,
            )])
            .add_results(&[index])
            .build()
            .map_err(|e| fail(location, &e.to_string()))?;
        Ok(body.append_operation(op).result_at(0).expect("a constant").into())
    };
    let (zero, one) = (constant(0)?, constant(1)?);
    // The value of each of the reduction's loops: a parallel one is the new
    // op's index, a reduction one its scf.for's induction variable.
    let mut loop_values: Vec<Option<Value>> = vec![None; loops.len()];
    let mut d = 0;
    for (l, &(_, reduces)) in loops.iter().enumerate() {
        if !reduces {
            let op = OperationBuilder::new("linalg.index", location)
                .add_attributes(&[(
                    Identifier::new(context, "dim"),
                    parse(context, &format!("{d} : i64"), location)?,
                )])
                .add_results(&[index])
                .build()
                .map_err(|e| fail(location, &e.to_string()))?;
            loop_values[l] = Some(body.append_operation(op).result_at(0).expect("an index").into());
            d += 1;
        }
    }
    let parallel: Vec<Value> = loop_values.iter().flatten().copied().collect();
    let start = extract(location, &body, *init, &parallel)?;
    // Every loop's bound before the outermost loop, which they must dominate.
    let mut uppers = Vec::new();
    for &(size, reduces) in &loops {
        if reduces {
            uppers.push(constant(size.expect("a static loop"))?);
        }
    }
    let mut uppers = uppers.into_iter();
    let accumulator = element_type(init.r#type());
    // The loops, outermost first; the innermost gets the reduction's body.
    let mut block = body;
    let mut carried = start;
    let mut fors = Vec::new();
    for (l, &(_, reduces)) in loops.iter().enumerate() {
        if !reduces {
            continue;
        }
        let upper = uppers.next().expect("a bound per reduction loop");
        let inner = Block::new(&[(index, location), (accumulator, location)]);
        let inner_region = Region::new();
        inner_region.append_block(inner);
        let for_op = OperationBuilder::new("scf.for", location)
            .add_operands(&[zero, upper, one, carried])
            .add_results(&[accumulator])
            .add_regions([inner_region])
            .build()
            .map_err(|e| fail(location, &e.to_string()))?;
        let for_op = block.append_operation(for_op);
        let inner = for_op.region_at(0).and_then(|r| r.first_block()).expect("a loop body");
        loop_values[l] = block_argument(&inner, 0).map(Into::into);
        carried = block_argument(&inner, 1).expect("the accumulator").into();
        fors.push(for_op);
        block = inner;
    }
    // The innermost body: the inputs' elements, then the reduction's body.
    let source = reduction.region_at(0).and_then(|r| r.first_block()).expect("a body");
    let mut mapped: HashMap<usize, Value> = HashMap::new();
    for (k, input) in inputs.iter().enumerate() {
        let indices: Vec<Value> = maps[k]
            .iter()
            .map(|&l| loop_values[l].expect("every loop has a value"))
            .collect();
        let element = extract(location, &block, *input, &indices)?;
        mapped.insert(
            block_argument(&source, k).expect("an input").to_raw().ptr as usize,
            element,
        );
    }
    mapped.insert(
        block_argument(&source, inputs.len()).expect("the output").to_raw().ptr as usize,
        carried,
    );
    let yielded = clone_body(location, &source, &block, &mut mapped, &loop_values)?;
    // Each loop yields its body's accumulator; the outermost's result is the
    // reduction's value.
    let mut value = yielded;
    for for_op in fors.iter().rev() {
        let inner = for_op.region_at(0).and_then(|r| r.first_block()).expect("a loop body");
        let yield_op = OperationBuilder::new("scf.yield", location)
            .add_operands(&[value])
            .build()
            .map_err(|e| fail(location, &e.to_string()))?;
        inner.append_operation(yield_op);
        value = for_op.result_at(0).expect("the loop's result").into();
    }
    // The epilogue's body on the reduction's value.
    let tail = epilogue.region_at(0).and_then(|r| r.first_block()).expect("a body");
    let mut tail_mapped: HashMap<usize, Value> = HashMap::new();
    tail_mapped.insert(block_argument(&tail, 0).expect("an input").to_raw().ptr as usize, value);
    tail_mapped.insert(
        block_argument(&tail, 1).expect("the output").to_raw().ptr as usize,
        block_argument(&body, 0).expect("the output").into(),
    );
    let result = clone_body(location, &tail, &body, &mut tail_mapped, &[])?;
    body.append_operation(
        OperationBuilder::new("linalg.yield", location)
            .add_operands(&[result])
            .build()
            .map_err(|e| fail(location, &e.to_string()))?,
    );
    let fused = OperationBuilder::new("linalg.generic", location)
        .add_operands(&[epilogue_init])
        .add_results(&[out_type])
        .add_attributes(&[
            (
                Identifier::new(context, "indexing_maps"),
                parse(
                    context,
                    &format!("[{}]", map_text(rank, &(0..rank).collect::<Vec<_>>())),
                    location,
                )?,
            ),
            (
                Identifier::new(context, "iterator_types"),
                parse(context, &iterators_text(&vec![false; rank]), location)?,
            ),
            (
                Identifier::new(context, "operandSegmentSizes"),
                Attribute::from(DenseI32ArrayAttribute::new(context, &[0, 1])),
            ),
        ])
        .add_regions([region])
        .build()
        .map_err(|e| fail(location, &e.to_string()))?;
    let fused = insert_before(epilogue, fused);
    replace_all_uses(
        epilogue.result_at(0).expect("a result"),
        fused.result_at(0).expect("a result"),
    );
    // SAFETY: the epilogue's result's uses were replaced, and the reduction's
    // only reader is the epilogue, erased first; no handle to either is kept.
    #[allow(unsafe_code)]
    unsafe {
        erase(epilogue);
        erase(reduction);
    }
    Ok(())
}

/// `tensor.extract %tensor[indices]`, appended to `block`.
fn extract<'c, 'a>(
    location: Location<'c>,
    block: &BlockRef<'c, 'a>,
    tensor: Value<'c, '_>,
    indices: &[Value<'c, '_>],
) -> Result<Value<'c, 'a>, PassError> {
    let mut operands = vec![tensor];
    operands.extend_from_slice(indices);
    let op = OperationBuilder::new("tensor.extract", location)
        .add_operands(&operands)
        .add_results(&[element_type(tensor.r#type())])
        .build()
        .map_err(|e| fail(location, &e.to_string()))?;
    Ok(block.append_operation(op).result_at(0).expect("an element").into())
}

/// Appends copies of the ops of `source` (a linalg body) but its yield to
/// `target`, their operands renamed by `mapped` (which gains their results)
/// and each `linalg.index d` by `loops[d]`; returns the value yielded.
fn clone_body<'c, 'a>(
    location: Location<'c>,
    source: &BlockRef<'c, '_>,
    target: &BlockRef<'c, 'a>,
    mapped: &mut HashMap<usize, Value<'c, 'a>>,
    loops: &[Option<Value<'c, 'a>>],
) -> Result<Value<'c, 'a>, PassError> {
    for op in block_ops(*source) {
        if op_name(&op) == "linalg.yield" {
            let value = op
                .operand_at(0)
                .ok_or_else(|| fail(location, "a body that yields nothing"))?;
            return mapped
                .get(&(value.to_raw().ptr as usize))
                .copied()
                .ok_or_else(|| fail(location, "a body that yields a value from outside it"));
        }
        if op_name(&op) == "linalg.index" {
            let dim = integer_attribute(&op, "dim").ok_or_else(|| fail(location, "an index without its dim"))?;
            let value = loops
                .get(dim as usize)
                .copied()
                .flatten()
                .ok_or_else(|| fail(location, "an epilogue reads a loop index"))?;
            mapped.insert(op.result_at(0).expect("an index").to_raw().ptr as usize, value);
            continue;
        }
        if op.region_count() > 0 {
            return Err(fail(location, "a body op with regions"));
        }
        let copy = target.append_operation(clone_op(op));
        for i in 0..copy.operand_count() {
            let operand = copy.operand_at(i).expect("an operand");
            if let Some(&renamed) = mapped.get(&(operand.to_raw().ptr as usize)) {
                set_operand(copy, i, renamed);
            }
        }
        for (old, new) in op.results().zip(copy.results()) {
            mapped.insert(old.to_raw().ptr as usize, new.into());
        }
    }
    Err(fail(location, "a body without its yield"))
}
