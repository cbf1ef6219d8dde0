//! The `dist-copy-inserted-slices` pass. Its documentation (what it does,
//! preconditions, before and after) is [`INFO`]'s description:
//! `dist-opt --help-passes` prints it and docs/passes.md holds it.

use crate::error::{PassError, fail};
use crate::pass::{DistPass, PassInfo};
use dist_dialect::ir::{
    OperationExt, attribute, block_argument, context_of, insert_before, op_name, op_result, set_operand,
    static_tensor_shape, uses, walk_preorder,
};
use melior::Context;
use melior::ir::attribute::DenseI32ArrayAttribute;
use melior::ir::operation::{OperationBuilder, OperationLike, WalkResult};
use melior::ir::{Attribute, BlockLike, Identifier, OperationRef, Region, RegionLike, Value, ValueLike};

pub const INFO: PassInfo = PassInfo {
    argument: "dist-copy-inserted-slices",
    summary: "Copy each inserted slice into its destination, and each slice a call takes into a tensor of its own, \
              with a linalg.copy, which the GPU runs as a kernel where bufferization would copy on the host",
    description: r#"`dist-copy-inserted-slices`: the copies of concatenations and pads as
ops the GPU schedule plans.

Bufferization writes a `tensor.insert_slice` (a concatenation's part, a
slice's gradient padded with zeros) as a `memref.copy` into a strided view
of the destination. On the GPU that is a host loop over device memory:
the host must wait for the device before it, and the pages move. Here the
source is copied by a `linalg.copy` into the destination's slice
(`tensor.extract_slice`), and that copy is inserted back: bufferization
then writes it in place, and `dist-schedule-gpu` plans it like any
elementwise op, a kernel.

A slice already computed in place (an op whose init is the same slice of
the same destination) is left as it is, and so is one computed into a
`tensor.empty`: `eliminate-empty-tensors`, which the GPU pipeline runs
next, makes its op write the destination's slice. A constant destination
(a pad's zeros) is first copied into a new tensor
(`bufferization.alloc_tensor`), so that the slices are written in place
there rather than into copies of the constant's slices.

A call takes buffers of the identity layout, so bufferization copies a
slice passed to a call (a microbatch's part of a pipelined step's data,
`dist-schedule-pipeline`) from its strided view on the host, before each
call that takes it. Each such slice is copied once by a `linalg.copy` into
a `tensor.empty` of its shape instead, and the calls take the copy.

- **Precondition:** tensors, before `dist-schedule-gpu` and
  bufferization; static slices.
- **Effect:** every `tensor.insert_slice` inserts the result of an op that
  wrote (or, after `eliminate-empty-tensors`, will write) its slice of a
  destination that is not a constant; no call takes a
  `tensor.extract_slice` of static shape.

```mlir
// before
%r = tensor.insert_slice %x into %d[0, 32] [4, 32] [1, 1] : tensor<4x32xf32> into tensor<4x64xf32>
// after
%s = tensor.extract_slice %d[0, 32] [4, 32] [1, 1] : tensor<4x64xf32> to tensor<4x32xf32>
%c = linalg.copy ins(%x : tensor<4x32xf32>) outs(%s : tensor<4x32xf32>) -> tensor<4x32xf32>
%r = tensor.insert_slice %c into %d[0, 32] [4, 32] [1, 1] : tensor<4x32xf32> into tensor<4x64xf32>
```
"#,
    anchor: "builtin.module",
    options: Vec::new,
    dialects: &["tensor", "linalg", "bufferization"],
    create: || Box::new(CopyInsertedSlices),
};

struct CopyInsertedSlices;

impl DistPass for CopyInsertedSlices {
    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let context = context_of(&module);
        let mut inserts = Vec::new();
        let mut extracts = Vec::new();
        walk_preorder(&module, |op| {
            match op_name(&op) {
                "gpu.module" => return WalkResult::Skip,
                "tensor.insert_slice" => inserts.push(op),
                "tensor.extract_slice" => extracts.push(op),
                _ => {}
            }
            WalkResult::Advance
        });
        for insert in inserts {
            writable_destination(context, insert)?;
            if !written_in_place(&insert) && empty_init(&insert).is_none() {
                copy_into_slice(context, insert)?;
            }
        }
        for extract in extracts {
            copy_slice_for_calls(context, extract)?;
        }
        Ok(())
    }
}

/// The attributes that place a slice: its static offsets, sizes and
/// strides (and the segments of any dynamic ones).
const PLACEMENT: [&str; 4] = [
    "static_offsets",
    "static_sizes",
    "static_strides",
    "operandSegmentSizes",
];

/// Whether the source of `insert` (a `tensor.insert_slice`) is the result of
/// an op whose init is the same slice of the same destination: bufferization
/// then writes it in place.
fn written_in_place(insert: &OperationRef<'_, '_>) -> bool {
    let (Some(source), Some(destination)) = (insert.operand_at(0), insert.operand_at(1)) else {
        return true;
    };
    let Some(producer) = op_result(source).map(|r| r.owner()) else {
        return false;
    };
    if !op_name(&producer).starts_with("linalg.") {
        return false;
    }
    let Some(init) = producer.operand_at(producer.operand_count().saturating_sub(1)) else {
        return false;
    };
    let Some(slice) = op_result(init).map(|r| r.owner()) else {
        return false;
    };
    op_name(&slice) == "tensor.extract_slice"
        && slice.operand_at(0) == Some(destination)
        && same_placement(&slice, insert)
}

/// Gives `insert` a destination its slices can be written in: a constant
/// (a pad's zeros) is copied into a new tensor first
/// (`bufferization.alloc_tensor`, an allocation and a fill from the
/// constant), which bufferization does anyway, but after the slices' writers
/// were given their own buffers.
fn writable_destination<'c>(context: &'c Context, insert: OperationRef<'c, '_>) -> Result<(), PassError> {
    let location = insert.location();
    let Some(destination) = insert.operand_at(1) else {
        return Err(fail(location, "an insert_slice without its destination"));
    };
    if op_result(destination).is_none_or(|r| op_name(&r.owner()) != "arith.constant") {
        return Ok(());
    }
    let copy = OperationBuilder::new("bufferization.alloc_tensor", location)
        .add_operands(&[destination])
        .add_results(&[destination.r#type()])
        .add_attributes(&[(
            Identifier::new(context, "operandSegmentSizes"),
            Attribute::from(DenseI32ArrayAttribute::new(context, &[0, 1, 0])),
        )])
        .build()
        .map_err(|e| fail(location, &e.to_string()))?;
    // Before the tensor.empty its source is computed into, if any, so that
    // eliminate-empty-tensors can replace it by a slice of the copy.
    let at = empty_init(&insert).unwrap_or(insert);
    let copy = insert_before(at, copy);
    set_operand(insert, 1, copy.result_at(0).expect("a tensor"));
    Ok(())
}

/// The `tensor.empty` the source of `insert` is computed into (the init of
/// the linalg op that produces it), if any: `eliminate-empty-tensors`,
/// which the GPU pipeline runs next, makes that op write the destination's
/// slice.
fn empty_init<'c, 'a>(insert: &OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    insert
        .operand_at(0)
        .and_then(op_result)
        .map(|r| r.owner())
        .filter(|producer| op_name(producer).starts_with("linalg."))
        .and_then(|producer| producer.operand_at(producer.operand_count().saturating_sub(1)))
        .and_then(op_result)
        .map(|init| init.owner())
        .filter(|init| op_name(init) == "tensor.empty")
}

/// Whether an `extract_slice` and an `insert_slice` name the same slice
/// (static offsets, sizes and strides, no dynamic ones).
fn same_placement(slice: &OperationRef<'_, '_>, insert: &OperationRef<'_, '_>) -> bool {
    slice.operand_count() == 1
        && insert.operand_count() == 2
        && PLACEMENT[..3]
            .iter()
            .all(|name| attribute(slice, name).map(|a| a.to_string()) == attribute(insert, name).map(|a| a.to_string()))
}

/// Rewrites `insert` to insert a `linalg.copy` of its source into the
/// destination's slice.
fn copy_into_slice<'c>(context: &'c Context, insert: OperationRef<'c, '_>) -> Result<(), PassError> {
    let location = insert.location();
    let (Some(source), Some(destination)) = (insert.operand_at(0), insert.operand_at(1)) else {
        return Err(fail(location, "an insert_slice without its operands"));
    };
    if insert.operand_count() != 2 {
        // Dynamic offsets, sizes or strides: not a slice this pass copies.
        return Ok(());
    }
    let mut placement = Vec::new();
    for name in &PLACEMENT[..3] {
        let value =
            attribute(&insert, name).ok_or_else(|| fail(location, &format!("an insert_slice without {name}")))?;
        placement.push((Identifier::new(context, name), value));
    }
    placement.push((
        Identifier::new(context, "operandSegmentSizes"),
        Attribute::from(DenseI32ArrayAttribute::new(context, &[1, 0, 0, 0])),
    ));
    let slice = OperationBuilder::new("tensor.extract_slice", location)
        .add_operands(&[destination])
        .add_results(&[source.r#type()])
        .add_attributes(&placement)
        .build()
        .map_err(|e| fail(location, &e.to_string()))?;
    let slice: Value = insert_before(insert, slice).result_at(0).expect("a slice").into();
    let copy = linalg_copy(context, source, slice, location)?;
    let copy = insert_before(insert, copy);
    set_operand(insert, 0, copy.result_at(0).expect("a copy's result"));
    Ok(())
}

/// Gives the calls that take the slice `extract` makes a copy of it, made
/// once by a `linalg.copy` into a `tensor.empty`.
fn copy_slice_for_calls<'c>(context: &'c Context, extract: OperationRef<'c, '_>) -> Result<(), PassError> {
    let location = extract.location();
    let slice: Value = extract
        .result_at(0)
        .ok_or_else(|| fail(location, "an extract_slice without its result"))?
        .into();
    let calls: Vec<_> = uses(slice)
        .into_iter()
        .filter(|(user, _)| op_name(user) == "func.call")
        .collect();
    if calls.is_empty() || static_tensor_shape(slice.r#type()).is_none() {
        return Ok(());
    }
    let next = extract
        .next_in_block()
        .ok_or_else(|| fail(location, "an extract_slice at the end of its block"))?;
    let empty = OperationBuilder::new("tensor.empty", location)
        .add_results(&[slice.r#type()])
        .build()
        .map_err(|e| fail(location, &e.to_string()))?;
    let empty = insert_before(next, empty).result_at(0).expect("a tensor").into();
    let copy = insert_before(next, linalg_copy(context, slice, empty, location)?);
    let copied = copy.result_at(0).expect("a copy's result");
    for (call, index) in calls {
        set_operand(call, index, copied);
    }
    Ok(())
}

/// `linalg.copy ins(%source) outs(%init)` on tensors, with its body.
fn linalg_copy<'c>(
    context: &'c Context,
    source: Value<'c, '_>,
    init: Value<'c, '_>,
    location: melior::ir::Location<'c>,
) -> Result<melior::ir::Operation<'c>, PassError> {
    let element = dist_dialect::ir::element_type(source.r#type());
    let body = melior::ir::Block::new(&[(element, location), (element, location)]);
    let input = block_argument(&body, 0).ok_or_else(|| fail(location, "a copy body without its input"))?;
    body.append_operation(
        OperationBuilder::new("linalg.yield", location)
            .add_operands(&[input.into()])
            .build()
            .map_err(|e| fail(location, &e.to_string()))?,
    );
    let region = Region::new();
    region.append_block(body);
    OperationBuilder::new("linalg.copy", location)
        .add_operands(&[source, init])
        .add_results(&[init.r#type()])
        .add_attributes(&[(
            Identifier::new(context, "operandSegmentSizes"),
            Attribute::from(DenseI32ArrayAttribute::new(context, &[1, 1])),
        )])
        .add_regions([region])
        .build()
        .map_err(|e| fail(location, &e.to_string()))
}
