//! The `dist-collapse-contraction-dims` pass. Its documentation (what it
//! does, preconditions, before and after) is [`INFO`]'s description:
//! `dist-opt --help-passes` prints it and docs/passes.md holds it.

use super::tensor_ir::{iterators_text, map_text, operand_loops, parse, reshape};
use crate::error::{PassError, fail};
use crate::pass::{DistPass, PassInfo};
use dist_dialect::ir::{
    OperationExt, clone_op, context_of, erase, insert_before, linalg_contraction_dims, linalg_static_loops, nested_ops,
    op_name, replace_all_uses, set_attribute, set_operands, set_type, static_tensor_shape, walk_preorder,
};
use melior::Context;
use melior::ir::operation::{OperationLike, WalkResult};
use melior::ir::{Location, OperationRef, Value, ValueLike};

pub const INFO: PassInfo = PassInfo {
    argument: "dist-collapse-contraction-dims",
    summary: "Collapse the runs of a contraction's loops that every operand holds together (batch dims, outer M \
              dims) into one loop each",
    description: r#"`dist-collapse-contraction-dims`: contractions in the canonical form
of one loop per role, as XLA's dot decomposition writes them.

Attention's products have two batch dims (batch, heads) and a
projection's input two M dims (batch, sequence). A GPU grid maps at most
three loops, so a product of more than three loops outside its K loop
would step over its outer dims on the host, a launch per step. Two
neighbouring loops of the same iterator type that every operand holds as
neighbouring dims in the same order (or lacks both) are one loop over
their product: each operand is collapsed (`tensor.collapse_shape`, a view
after bufferization), the contraction runs on the collapsed loops, and its
result is expanded back (`tensor.expand_shape`). Nothing is copied.

- **Precondition:** linalg contractions on static tensors
  (`linalg.generic` whose maps are projected permutations), before
  bufferization. Ops whose body reads `linalg.index` are left as they are.
- **Effect:** no contraction keeps two neighbouring loops that could be
  one; the values computed are the same.

```mlir
// before
%s = linalg.generic {indexing_maps = [affine_map<(b, h, m, n, k) -> (b, h, m, k)>,
       affine_map<(b, h, m, n, k) -> (b, h, n, k)>, affine_map<(b, h, m, n, k) -> (b, h, m, n)>],
       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
       ins(%q, %k : tensor<4x16x128x64xf32>, tensor<4x16x128x64xf32>) outs(%z : tensor<4x16x128x128xf32>)
// after
%q2 = tensor.collapse_shape %q [[0, 1], [2], [3]] : tensor<4x16x128x64xf32> into tensor<64x128x64xf32>
%k2 = tensor.collapse_shape %k [[0, 1], [2], [3]] ...
%z2 = tensor.collapse_shape %z [[0, 1], [2], [3]] ...
%s2 = linalg.generic {indexing_maps = [affine_map<(bh, m, n, k) -> (bh, m, k)>, ...],
       iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q2, %k2 ...) outs(%z2 ...)
%s = tensor.expand_shape %s2 [[0, 1], [2], [3]] output_shape [4, 16, 128, 128] ...
```
"#,
    anchor: "builtin.module",
    options: Vec::new,
    dialects: &["tensor", "linalg"],
    create: || Box::new(CollapseContractionDims),
};

struct CollapseContractionDims;

impl DistPass for CollapseContractionDims {
    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let context = context_of(&module);
        let mut contractions = Vec::new();
        walk_preorder(&module, |op| {
            if op_name(&op) == "linalg.generic" && linalg_contraction_dims(&op).is_some() {
                contractions.push(op);
            }
            WalkResult::Advance
        });
        for op in contractions {
            collapse(context, op)?;
        }
        Ok(())
    }
}

/// A contraction's loops, read from its attributes.
struct Loops {
    /// Per operand, the loop each of its dims is indexed by.
    maps: Vec<Vec<usize>>,
    /// Per loop, whether it is a reduction.
    reduction: Vec<bool>,
}

/// The runs of neighbouring loops that are one: of the same iterator type,
/// and in every operand either both absent or neighbouring dims in order.
fn groups(loops: &Loops) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for d in 0..loops.reduction.len() {
        let joins = d > 0
            && loops.reduction[d - 1] == loops.reduction[d]
            && loops.maps.iter().all(|map| {
                let at = |l: usize| map.iter().position(|&m| m == l);
                match (at(d - 1), at(d)) {
                    (None, None) => true,
                    (Some(a), Some(b)) => b == a + 1,
                    _ => false,
                }
            });
        match groups.last_mut() {
            Some(last) if joins => last.push(d),
            _ => groups.push(vec![d]),
        }
    }
    groups
}

/// Collapses the loops of contraction `op` (a `linalg.generic` on tensors)
/// that [`groups`] joins; leaves it alone where none join.
fn collapse<'c>(context: &'c Context, op: OperationRef<'c, '_>) -> Result<(), PassError> {
    let location = op.location();
    let Some(loops) = read_loops(&op) else { return Ok(()) };
    let groups = groups(&loops);
    if groups.len() == loops.reduction.len() || !nested_ops(&op, |n| op_name(n) == "linalg.index").is_empty() {
        return Ok(());
    }
    let group_of = |l: usize| {
        groups
            .iter()
            .position(|g| g.contains(&l))
            .expect("every loop is in a group")
    };
    let operands: Vec<Value> = op.operands().collect();
    if operands.len() != loops.maps.len() {
        return Ok(());
    }
    let mut collapsed = Vec::new();
    let mut maps = Vec::new();
    let mut output_reassociation = Vec::new();
    for (value, map) in operands.iter().zip(&loops.maps) {
        let Some(shape) = static_tensor_shape(value.r#type()) else {
            return Ok(());
        };
        // Neighbouring dims of one group are one dim.
        let mut reassociation: Vec<Vec<usize>> = Vec::new();
        let mut results = Vec::new();
        for (dim, &l) in map.iter().enumerate() {
            let g = group_of(l);
            if results.last() == Some(&g) {
                reassociation.last_mut().expect("a group").push(dim);
            } else {
                results.push(g);
                reassociation.push(vec![dim]);
            }
        }
        let shape: Vec<i64> = reassociation
            .iter()
            .map(|dims| dims.iter().map(|&d| shape[d]).product())
            .collect();
        collapsed.push(regroup(
            context,
            op,
            "tensor.collapse_shape",
            *value,
            &reassociation,
            &shape,
            location,
        )?);
        maps.push(results);
        output_reassociation = reassociation;
    }
    let generic = insert_before(op, clone_op(op));
    set_operands(generic, &collapsed);
    let maps: Vec<String> = maps.iter().map(|m| map_text(groups.len(), m)).collect();
    set_attribute(
        generic,
        "indexing_maps",
        parse(context, &format!("[{}]", maps.join(", ")), location)?,
    );
    let reduction: Vec<bool> = groups.iter().map(|g| loops.reduction[g[0]]).collect();
    set_attribute(
        generic,
        "iterator_types",
        parse(context, &iterators_text(&reduction), location)?,
    );
    let old = op
        .result_at(0)
        .ok_or_else(|| fail(location, "a contraction without its result"))?;
    let init = *collapsed.last().expect("a contraction has an init");
    let result = generic.result_at(0).expect("a contraction's result");
    set_type(result, init.r#type());
    let shape = static_tensor_shape(old.r#type()).ok_or_else(|| fail(location, "a dynamic contraction result"))?;
    let next = op.next_in_block().expect("a block ends with its terminator");
    let expanded = regroup(
        context,
        next,
        "tensor.expand_shape",
        result.into(),
        &output_reassociation,
        &shape,
        location,
    )?;
    replace_all_uses(old, expanded);
    // SAFETY: its one result's uses were replaced; no handle to it is kept.
    #[allow(unsafe_code)]
    unsafe {
        erase(op)
    };
    Ok(())
}

/// The maps and iterator types of `op`, where its maps are projected
/// permutations (each result a loop).
fn read_loops(op: &OperationRef<'_, '_>) -> Option<Loops> {
    let reduction = linalg_static_loops(op)?.iter().map(|&(_, r)| r).collect();
    Some(Loops {
        maps: operand_loops(op)?,
        reduction,
    })
}

/// `value` reshaped by `reassociation` (see [`reshape`]), or `value` itself
/// where every group is one dim.
fn regroup<'c, 'a>(
    context: &'c Context,
    at: OperationRef<'c, 'a>,
    name: &str,
    value: Value<'c, 'a>,
    reassociation: &[Vec<usize>],
    shape: &[i64],
    location: Location<'c>,
) -> Result<Value<'c, 'a>, PassError> {
    if reassociation.iter().all(|g| g.len() == 1) {
        return Ok(value);
    }
    reshape(context, at, name, value, reassociation, shape, location)
}
