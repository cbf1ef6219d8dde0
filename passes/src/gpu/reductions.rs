//! The `dist-split-full-reductions` pass. Its documentation (what it does,
//! preconditions, before and after) is [`INFO`]'s description:
//! `dist-opt --help-passes` prints it and docs/passes.md holds it.

use super::tensor_ir::{iterators_text, map_text, operand_loops, parse, reshape};
use crate::error::{PassError, fail};
use crate::pass::{DistPass, PassInfo};
use dist_dialect::ir::build::tensor_type;
use dist_dialect::ir::{
    OperationExt, attribute, block_argument, block_ops, clone_op, context_of, element_type, erase, insert_before,
    integer_attribute, linalg_static_loops, nested_ops, op_name, op_result, replace_all_uses, set_attribute,
    set_operands, set_type, static_tensor_shape, walk_preorder,
};
use melior::Context;
use melior::ir::attribute::DenseI32ArrayAttribute;
use melior::ir::operation::{OperationBuilder, OperationLike, WalkResult};
use melior::ir::{
    Attribute, Block, BlockLike, Identifier, Location, OperationRef, Region, RegionLike, Type, Value, ValueLike,
};

pub const INFO: PassInfo = PassInfo {
    argument: "dist-split-full-reductions",
    summary: "Give every linalg op a parallel loop for the GPU grid: a large full reduction as parallel partial \
              reductions and their combination, an op of no parallel loop over a unit one",
    description: r#"`dist-split-full-reductions`: the ops a GPU grid could not map.

`dist-schedule-gpu` maps an op's parallel loops to blocks and threads. A
full reduction (the loss: a sum over every element, to a scalar) and an
op on scalars (the loss's scaling) have none, so they would run on the
host, reading device memory: the host would wait for the device before
them.

- A full reduction of at least 2048 elements whose body combines the
  output with one of `arith.addf`, `addi`, `mulf`, `maximumf`,
  `minimumf`, `maxnumf`, `minnumf`, from a splat init that is that
  combiner's identity, whose inputs are indexed by every loop in order
  and whose body reads no loop index, is split into R rows (R the largest divisor of its size up to
  1024): a reduction of each row in parallel (the same body, in the same
  element type: an f64 partial sum stays f64) into R partials starting
  from the identity, then the combination of the partials.
- An op of no parallel loop whose results are scalars (the combination
  above, a scalar's scaling and rounding) gets a parallel loop of one
  iteration in front of its loops (the indices its body reads move one
  loop out): its results are read through a view of one element, and it
  runs as one thread.

- **Precondition:** linalg ops on static tensors, before
  `dist-schedule-gpu` and bufferization.
- **Effect:** every linalg op with a scalar result has a parallel loop;
  the values are the same up to the order of the reduction.

```mlir
// before
%s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>],
       iterator_types = ["reduction", "reduction"]} ins(%x : tensor<512x1024xf32>) outs(%zero : tensor<f64>) {...}
// after
%rows = tensor.expand_shape (tensor.collapse_shape %x [[0, 1]]) [[0, 1]] output_shape [1024, 512]
%p = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
       iterator_types = ["parallel", "reduction"]} ins(%rows : tensor<1024x512xf32>) outs(%zeros : tensor<1024xf64>) {...}
%one = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>],
       iterator_types = ["parallel", "reduction"]} ins(%p : tensor<1024xf64>) outs(%init : tensor<1xf64>) {arith.addf}
%s = tensor.collapse_shape %one [] : tensor<1xf64> into tensor<f64>
```
"#,
    anchor: "builtin.module",
    options: Vec::new,
    dialects: &["tensor", "linalg", "arith"],
    create: || Box::new(SplitFullReductions),
};

/// The least size a full reduction is split from: below it, one thread's
/// loop costs less than a second launch.
const SPLIT_FROM: i64 = 2048;
/// The most rows a full reduction is split into.
const MAX_ROWS: i64 = 1024;

struct SplitFullReductions;

impl DistPass for SplitFullReductions {
    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let context = context_of(&module);
        let mut scalar_ops = Vec::new();
        walk_preorder(&module, |op| {
            if op_name(&op) == "gpu.module" {
                return WalkResult::Skip;
            }
            if op_name(&op) == "linalg.generic"
                && linalg_static_loops(&op).is_some_and(|loops| loops.iter().all(|&(_, reduction)| reduction))
            {
                scalar_ops.push(op);
            }
            WalkResult::Advance
        });
        for op in scalar_ops {
            let op = match split(context, op)? {
                Some(combination) => combination,
                None => op,
            };
            add_unit_loop(context, op)?;
        }
        Ok(())
    }
}

/// Splits the full reduction `op` into rows reduced in parallel and the
/// combination of their partials, which it returns (an op of no parallel
/// loop, replacing `op`); `None` where `op` is not such a reduction.
fn split<'c, 'a>(context: &'c Context, op: OperationRef<'c, 'a>) -> Result<Option<OperationRef<'c, 'a>>, PassError> {
    let location = op.location();
    let Some(loops) = linalg_static_loops(&op) else {
        return Ok(None);
    };
    let Some(sizes) = loops.iter().map(|&(size, _)| size).collect::<Option<Vec<i64>>>() else {
        return Ok(None);
    };
    let size: i64 = sizes.iter().product();
    let Some((combiner, identity)) = combiner(&op) else {
        return Ok(None);
    };
    let reads_indices = !nested_ops(&op, |n| op_name(n) == "linalg.index").is_empty();
    if size < SPLIT_FROM || op.result_count() != 1 || reads_indices {
        return Ok(None);
    }
    let rows = (1..=MAX_ROWS.min(size / 2)).rev().find(|r| size % r == 0).unwrap_or(1);
    if rows < 2 {
        return Ok(None);
    }
    let operands: Vec<Value> = op.operands().collect();
    let (init, inputs) = operands.split_last().expect("a reduction has an init");
    let rank = sizes.len();
    let in_order: Vec<usize> = (0..rank).collect();
    let inputs_in_order = operand_loops(&op).is_some_and(|maps| maps[..inputs.len()].iter().all(|m| *m == in_order));
    if !inputs_in_order || static_tensor_shape(init.r#type()).is_none_or(|s| !s.is_empty()) {
        return Ok(None);
    }
    // The inputs as rows: collapsed to one dim, then split in two.
    let mut row_inputs = Vec::new();
    for input in inputs {
        let flat = reshape(
            context,
            op,
            "tensor.collapse_shape",
            *input,
            std::slice::from_ref(&in_order),
            &[size],
            location,
        )?;
        row_inputs.push(reshape(
            context,
            op,
            "tensor.expand_shape",
            flat,
            &[vec![0, 1]],
            &[rows, size / rows],
            location,
        )?);
    }
    let element = element_type(init.r#type());
    let partial_type = tensor_type(&[rows], element);
    let identities = OperationBuilder::new("arith.constant", location)
        .add_attributes(&[(
            Identifier::new(context, "value"),
            splat_of(context, identity, partial_type)
                .ok_or_else(|| fail(location, &format!("cannot build the splat {identity} : {partial_type}")))?,
        )])
        .add_results(&[partial_type])
        .build()
        .map_err(|e| fail(location, &e.to_string()))?;
    let identities: Value = insert_before(op, identities).result_at(0).expect("a constant").into();
    let partials = insert_before(op, clone_op(op));
    let mut partial_operands = row_inputs;
    partial_operands.push(identities);
    set_operands(partials, &partial_operands);
    let mut maps = vec![map_text(2, &[0, 1]); inputs.len()];
    maps.push(map_text(2, &[0]));
    set_attribute(
        partials,
        "indexing_maps",
        parse(context, &format!("[{}]", maps.join(", ")), location)?,
    );
    set_attribute(
        partials,
        "iterator_types",
        parse(context, &iterators_text(&[false, true]), location)?,
    );
    let partial = partials.result_at(0).expect("a reduction's result");
    set_type(partial, partial_type);
    let maps = format!("[{}, {}]", map_text(1, &[0]), map_text(1, &[]));
    let combination = combination(context, location, partial.into(), *init, &maps, combiner)?;
    let combination = insert_before(op, combination);
    replace_all_uses(
        op.result_at(0).expect("a result"),
        combination.result_at(0).expect("a result"),
    );
    // SAFETY: its one result's uses were replaced; no handle to it is kept.
    #[allow(unsafe_code)]
    unsafe {
        erase(op)
    };
    Ok(Some(combination))
}

/// The op that combines the output with each element (the op yielded,
/// one of whose operands is the output argument) and that op's identity as
/// an attribute literal, if the init is a splat of that identity.
fn combiner<'c>(op: &OperationRef<'c, '_>) -> Option<(&'c str, &'static str)> {
    let body = op.region_at(0)?.first_block()?;
    let output = block_argument(&body, body.argument_count() - 1)?;
    let yielded = block_ops(body).pop()?.operand_at(0)?;
    let combine = op_result(yielded)?.owner();
    let reads_output = combine.operands().filter(|&v| v == output.into()).count() == 1;
    let others_read_output = block_ops(body)
        .iter()
        .filter(|inner| inner.to_raw().ptr != combine.to_raw().ptr)
        .any(|inner| inner.operands().any(|v| v == output.into()));
    if !reads_output || others_read_output || combine.operand_count() != 2 {
        return None;
    }
    let element = output.r#type().to_string();
    let identity = match (op_name(&combine), element.starts_with('f') || element == "bf16") {
        ("arith.addf", true) => "0.000000e+00",
        ("arith.addi", false) => "0",
        ("arith.mulf", true) => "1.000000e+00",
        ("arith.maximumf" | "arith.maxnumf", true) => "0xFF800000",
        ("arith.minimumf" | "arith.minnumf", true) => "0x7F800000",
        _ => return None,
    };
    let init = op.operand_at(op.operand_count() - 1)?;
    let splat = op_result(init)
        .map(|r| r.owner())
        .filter(|c| op_name(c) == "arith.constant")
        .and_then(|c| attribute(&c, "value"))?;
    (Some(splat) == splat_of(context_of(op), identity, init.r#type())).then_some((op_name(&combine), identity))
}

/// The splat of `identity` in a tensor of `ty` (hexadecimal infinities
/// spelled as wide as the element).
fn splat_of<'c>(context: &'c Context, identity: &str, ty: Type<'c>) -> Option<Attribute<'c>> {
    let element = element_type(ty).to_string();
    let literal = match (identity, element.as_str()) {
        ("0xFF800000", "f64") => "0xFFF0000000000000",
        ("0x7F800000", "f64") => "0x7FF0000000000000",
        ("0xFF800000", "bf16") => "0xFF80",
        ("0x7F800000", "bf16") => "0x7F80",
        (other, _) => other,
    };
    Attribute::parse(context, &format!("dense<{literal}> : {ty}"))
}

/// Gives `op` (a linalg.generic of no parallel loop and scalar results) a
/// parallel loop of one iteration in front: its init and result become
/// views of one element.
fn add_unit_loop<'c>(context: &'c Context, op: OperationRef<'c, '_>) -> Result<(), PassError> {
    let location = op.location();
    let Some(loops) = linalg_static_loops(&op) else {
        return Ok(());
    };
    let outputs = op.result_count();
    let operands: Vec<Value> = op.operands().collect();
    let scalar = |v: &Value| static_tensor_shape(v.r#type()).is_some_and(|s| s.is_empty());
    if outputs == 0 || !operands[operands.len() - outputs..].iter().all(scalar) {
        return Ok(());
    }
    let Some(maps) = operand_loops(&op) else { return Ok(()) };
    let rank = loops.len();
    let mut new_maps = Vec::new();
    let mut new_operands = Vec::new();
    for (i, (value, results)) in operands.iter().zip(&maps).enumerate() {
        let mut results: Vec<usize> = results.iter().map(|d| d + 1).collect();
        let mut value = *value;
        if i >= operands.len() - outputs {
            results.insert(0, 0);
            value = reshape(context, op, "tensor.expand_shape", value, &[], &[1], location)?;
        }
        new_maps.push(map_text(rank + 1, &results));
        new_operands.push(value);
    }
    let widened = insert_before(op, clone_op(op));
    set_operands(widened, &new_operands);
    // The body's loop indices move one loop out.
    for index in nested_ops(&widened, |n| op_name(n) == "linalg.index") {
        let dim = integer_attribute(&index, "dim").ok_or_else(|| fail(location, "a linalg.index without its dim"))?;
        set_attribute(index, "dim", parse(context, &format!("{} : i64", dim + 1), location)?);
    }
    set_attribute(
        widened,
        "indexing_maps",
        parse(context, &format!("[{}]", new_maps.join(", ")), location)?,
    );
    let reduction: Vec<bool> = std::iter::once(false).chain(std::iter::repeat_n(true, rank)).collect();
    set_attribute(
        widened,
        "iterator_types",
        parse(context, &iterators_text(&reduction), location)?,
    );
    let next = op.next_in_block().expect("a block ends with its terminator");
    for k in 0..outputs {
        let result = widened.result_at(k).expect("a result");
        let one = new_operands[operands.len() - outputs + k].r#type();
        set_type(result, one);
        let old = op.result_at(k).expect("a result");
        let scalar = reshape(
            context,
            next,
            "tensor.collapse_shape",
            result.into(),
            &[],
            &[],
            location,
        )?;
        replace_all_uses(old, scalar);
    }
    // SAFETY: its results' uses were replaced; no handle to it is kept.
    #[allow(unsafe_code)]
    unsafe {
        erase(op)
    };
    Ok(())
}

/// The full reduction of `partials` into `init` whose body combines the
/// output with each partial by `combiner`.
fn combination<'c>(
    context: &'c Context,
    location: Location<'c>,
    partials: Value<'c, '_>,
    init: Value<'c, '_>,
    maps: &str,
    combiner: &str,
) -> Result<melior::ir::Operation<'c>, PassError> {
    let element = element_type(init.r#type());
    let body = Block::new(&[(element, location), (element, location)]);
    let (input, output) = (
        block_argument(&body, 0).expect("an input"),
        block_argument(&body, 1).expect("an output"),
    );
    let combined = body.append_operation(
        OperationBuilder::new(combiner, location)
            .add_operands(&[output.into(), input.into()])
            .add_results(&[element])
            .build()
            .map_err(|e| fail(location, &e.to_string()))?,
    );
    body.append_operation(
        OperationBuilder::new("linalg.yield", location)
            .add_operands(&[combined.result_at(0).expect("a value").into()])
            .build()
            .map_err(|e| fail(location, &e.to_string()))?,
    );
    let region = Region::new();
    region.append_block(body);
    OperationBuilder::new("linalg.generic", location)
        .add_operands(&[partials, init])
        .add_results(&[init.r#type()])
        .add_attributes(&[
            (
                Identifier::new(context, "indexing_maps"),
                parse(context, maps, location)?,
            ),
            (
                Identifier::new(context, "iterator_types"),
                parse(context, &iterators_text(&[true]), location)?,
            ),
            (
                Identifier::new(context, "operandSegmentSizes"),
                Attribute::from(DenseI32ArrayAttribute::new(context, &[1, 1])),
            ),
        ])
        .add_regions([region])
        .build()
        .map_err(|e| fail(location, &e.to_string()))
}
