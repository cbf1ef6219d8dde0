//! The lowerings the ops' descriptions share: operand and shape access,
//! indexing maps, elementwise maps and sums (`crate::ops` uses them).

use super::build::{Body, Builder, Ix, Lowered};
use dist_dialect::ir::{OperationExt, element_type, i64_array_attribute, static_tensor_shape};
use dist_dialect::ops::attr;
use melior::ir::{OperationRef, Value, ValueLike};

/// The static shape of a tensor value.
pub fn shape(v: Value<'_, '_>) -> Vec<i64> {
    static_tensor_shape(v.r#type()).unwrap_or_default()
}

/// Operand `i` of `op`, which its verifier guarantees.
pub fn operand<'c, 'a>(op: OperationRef<'c, 'a>, i: usize) -> Value<'c, 'a> {
    op.operand_at(i).expect("the verifier checked the operands")
}

/// The identity map of `rank` loops.
pub fn all(rank: usize) -> Vec<Ix> {
    (0..rank).map(Ix::D).collect()
}

/// The map of the loops `loops` without those in `dropped`.
pub fn without(loops: usize, dropped: &[usize]) -> Vec<Ix> {
    (0..loops).filter(|d| !dropped.contains(d)).map(Ix::D).collect()
}

/// A reduction's `dims`, each in `0..rank`.
pub fn reduced_dims(op: OperationRef<'_, '_>, rank: usize) -> Vec<usize> {
    i64_array_attribute(&op, attr::DIMS)
        .unwrap_or_default()
        .iter()
        .map(|&d| normalize(d, rank))
        .collect()
}

/// `dim`, possibly negative, as an index in `0..rank`.
pub fn normalize(dim: i64, rank: usize) -> usize {
    dim.rem_euclid(rank.max(1) as i64) as usize
}

/// An elementwise op of one tensor.
pub fn map1<'c, 'a>(
    b: &mut Builder<'c, 'a>,
    x: Value<'c, 'a>,
    f: impl FnOnce(&mut Body<'c, '_>, Value<'c, '_>) -> Lowered<'c, Value<'c, 'c>>,
) -> Lowered<'c, Value<'c, 'a>> {
    let s = shape(x);
    let r = s.len();
    let init = b.empty(&s, element_type(x.r#type()))?;
    b.generic(r, &[], &[(x, all(r))], (init, all(r)), |body, a| f(body, a[0]))
}

/// An elementwise op of two tensors of one shape.
pub fn map2<'c, 'a>(
    b: &mut Builder<'c, 'a>,
    x: Value<'c, 'a>,
    y: Value<'c, 'a>,
    f: impl FnOnce(&mut Body<'c, '_>, Value<'c, '_>, Value<'c, '_>) -> Lowered<'c, Value<'c, 'c>>,
) -> Lowered<'c, Value<'c, 'a>> {
    let s = shape(x);
    let r = s.len();
    let init = b.empty(&s, element_type(x.r#type()))?;
    b.generic(r, &[], &[(x, all(r)), (y, all(r))], (init, all(r)), |body, a| {
        f(body, a[0], a[1])
    })
}

/// Sums `x` over `dims` (keeping them as size 1 with `keep`); `mean`
/// divides by their element count.
pub fn reduce<'c, 'a>(
    b: &mut Builder<'c, 'a>,
    x: Value<'c, 'a>,
    dims: &[usize],
    keep: bool,
    mean: bool,
) -> Lowered<'c, Value<'c, 'a>> {
    let xs = shape(x);
    let r = xs.len();
    let out_shape: Vec<i64> = (0..r)
        .filter_map(|d| match (dims.contains(&d), keep) {
            (false, _) => Some(xs[d]),
            (true, true) => Some(1),
            (true, false) => None,
        })
        .collect();
    let out_map: Vec<Ix> = (0..r)
        .filter_map(|d| match (dims.contains(&d), keep) {
            (false, _) => Some(Ix::D(d)),
            (true, true) => Some(Ix::Zero),
            (true, false) => None,
        })
        .collect();
    let count: i64 = dims.iter().map(|&d| xs[d]).product();
    let scale = if mean { 1.0 / count as f64 } else { 1.0 };
    let element = element_type(x.r#type());
    b.sum(
        r,
        dims,
        &[(x, all(r))],
        (&out_shape, out_map),
        element,
        scale,
        |_, a| Ok(a[0]),
    )
}
