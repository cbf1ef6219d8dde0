//! Tensor-level IR the GPU pipeline's rewrites share: attributes from
//! text, reshapes, and the maps of linalg ops.

use crate::error::{PassError, fail};
use dist_dialect::ir::build::tensor_type;
use dist_dialect::ir::{OperationExt, attribute, element_type, insert_before};
use melior::Context;
use melior::ir::operation::OperationBuilder;
use melior::ir::{Attribute, Identifier, Location, OperationRef, Value, ValueLike};

/// The attribute `text` spells; one MLIR refuses is an error at `location`.
pub fn parse<'c>(context: &'c Context, text: &str, location: Location<'c>) -> Result<Attribute<'c>, PassError> {
    Attribute::parse(context, text).ok_or_else(|| fail(location, &format!("cannot build the attribute {text}")))
}

/// `name` (`tensor.collapse_shape` or `tensor.expand_shape`) of `value` by
/// `reassociation`, to or from `shape`, before `at`.
pub fn reshape<'c, 'a>(
    context: &'c Context,
    at: OperationRef<'c, 'a>,
    name: &str,
    value: Value<'c, 'a>,
    reassociation: &[Vec<usize>],
    shape: &[i64],
    location: Location<'c>,
) -> Result<Value<'c, 'a>, PassError> {
    let groups = reassociation
        .iter()
        .map(|g| format!("[{}]", g.iter().map(usize::to_string).collect::<Vec<_>>().join(", ")))
        .collect::<Vec<_>>()
        .join(", ");
    let mut attributes = vec![(
        Identifier::new(context, "reassociation"),
        parse(context, &format!("[{groups}]"), location)?,
    )];
    if name == "tensor.expand_shape" {
        let dims = shape.iter().map(i64::to_string).collect::<Vec<_>>().join(", ");
        attributes.push((
            Identifier::new(context, "static_output_shape"),
            parse(context, &format!("array<i64: {dims}>"), location)?,
        ));
    }
    let reshaped = OperationBuilder::new(name, location)
        .add_operands(&[value])
        .add_results(&[tensor_type(shape, element_type(value.r#type()))])
        .add_attributes(&attributes)
        .build()
        .map_err(|e| fail(location, &e.to_string()))?;
    Ok(insert_before(at, reshaped)
        .result_at(0)
        .expect("a reshape result")
        .into())
}

/// The groups of a `tensor.expand_shape`'s or `collapse_shape`'s
/// `reassociation` (as [`reshape`] writes it).
pub fn reassociation(op: &OperationRef<'_, '_>) -> Option<Vec<Vec<usize>>> {
    let text = attribute(op, "reassociation")?.to_string();
    text.trim_start_matches('[')
        .trim_end_matches(']')
        .split("], [")
        .map(|group| group.split(',').map(|d| d.trim().parse().ok()).collect())
        .collect()
}

/// Per operand of the linalg op `op`, the loop each of its dims is indexed
/// by; `None` unless every map is a projected permutation.
pub fn operand_loops(op: &OperationRef<'_, '_>) -> Option<Vec<Vec<usize>>> {
    attribute(op, "indexing_maps")?
        .to_string()
        .split("affine_map<")
        .skip(1)
        .map(|map| {
            let results = map.split("-> (").nth(1)?.split(')').next()?;
            results
                .split(',')
                .map(str::trim)
                .filter(|r| !r.is_empty())
                .map(|r| r.strip_prefix('d')?.parse().ok())
                .collect()
        })
        .collect()
}

/// `affine_map<(d0, ...) -> (...)>` of `loops` loops, each result the loop
/// of its index in `results`.
pub fn map_text(loops: usize, results: &[usize]) -> String {
    let names = |ds: &mut dyn Iterator<Item = usize>| ds.map(|d| format!("d{d}")).collect::<Vec<_>>().join(", ");
    format!(
        "affine_map<({}) -> ({})>",
        names(&mut (0..loops)),
        names(&mut results.iter().copied())
    )
}

/// `[#linalg.iterator_type<...>, ...]`, a reduction where `reduction` is.
pub fn iterators_text(reduction: &[bool]) -> String {
    let items: Vec<String> = reduction
        .iter()
        .map(|&r| format!("#linalg.iterator_type<{}>", if r { "reduction" } else { "parallel" }))
        .collect();
    format!("[{}]", items.join(", "))
}
