//! Between global values and the device's shards in the generated `main`:
//! the collectives that cut an input to its shard and complete a result
//! from its shards, along each split dim of a sharding.

use super::i64_type;
use dist_dialect::Sharding;
use dist_dialect::ir::build::splat_attribute;
use dist_dialect::ir::build::tensor_type;
use dist_dialect::ir::element_type;
use dist_dialect::model::Mesh;
use dist_dialect::ods::dist;
use dist_passes::conversion::to_runtime::body::{Body, shape_of};
use dist_passes::vocabulary::comm::local_size;
use melior::Context;
use melior::dialect::arith::{self, CmpiPredicate};
use melior::ir::attribute::{ArrayAttribute, FlatSymbolRefAttribute, IntegerAttribute, StringAttribute};
use melior::ir::{Attribute, Type, Value, ValueLike};

/// Which way a value moves between its global form and its shards.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Spread {
    /// `dist.all_slice`: each device keeps its shard.
    Slice,
    /// `dist.all_gather`: each device gets the whole.
    Gather,
}

/// `["a", "b"]`: the axes of a collective.
pub fn axes_attribute<'c>(context: &'c Context, axes: &[String]) -> ArrayAttribute<'c> {
    let names: Vec<Attribute<'c>> = axes.iter().map(|a| StringAttribute::new(context, a).into()).collect();
    ArrayAttribute::new(context, &names)
}

/// `value` sliced or gathered (`spread`) along each split dim of
/// `sharding`, each such dim taken to `target`'s size. A dim its shards do
/// not divide moves in whole padded shards (as `dist-partition` moves it):
/// zeros appended before a slice, the padding cut after a gather.
pub fn per_split_dim<'c, 'b>(
    b: &Body<'c, 'b>,
    meshes: &[Mesh],
    spread: Spread,
    sharding: &Sharding,
    mut value: Value<'c, 'b>,
    target: &[i64],
) -> Value<'c, 'b> {
    let context = b.context;
    for (d, axes) in sharding.dims.iter().enumerate().filter(|(_, a)| !a.is_empty()) {
        let group = meshes
            .iter()
            .find(|m| m.name() == sharding.mesh)
            .and_then(|m| m.group_size(axes).ok())
            .unwrap_or(1);
        let size = shape_of(value)[d];
        let whole = local_size(size.max(target[d]), group) * group;
        if spread == Spread::Slice && whole != size {
            value = pad(b, value, d, whole);
        }
        let mut next = shape_of(value);
        next[d] = match spread {
            Spread::Slice => target[d],
            Spread::Gather => whole,
        };
        let ty = tensor_type(&next, element_type(value.r#type()));
        let mesh = FlatSymbolRefAttribute::new(context, &sharding.mesh);
        let axes = axes_attribute(context, axes);
        let dim = IntegerAttribute::new(i64_type(context), d as i64);
        value = match spread {
            Spread::Slice => b.value(dist::all_slice(context, ty, value, mesh, axes, dim, b.location)),
            Spread::Gather => b.value(dist::all_gather(context, ty, value, mesh, axes, dim, b.location)),
        };
        if spread == Spread::Gather && whole != target[d] {
            value = cut(b, value, d, target[d]);
        }
    }
    value
}

/// A tensor of `value`'s type of zeros.
fn zeros<'c, 'b>(b: &Body<'c, 'b>, ty: Type<'c>) -> Value<'c, 'b> {
    b.value(arith::constant(
        b.context,
        splat_attribute(b.context, ty, 0.0),
        b.location,
    ))
}

/// `value` with dim `d` grown to `size` by zeros at its end.
fn pad<'c, 'b>(b: &Body<'c, 'b>, value: Value<'c, 'b>, d: usize, size: i64) -> Value<'c, 'b> {
    let mut wide = shape_of(value);
    wide[d] = size;
    let zeros = zeros(b, tensor_type(&wide, element_type(value.r#type())));
    b.insert_slice(value, zeros, &vec![0; wide.len()])
}

/// The first `size` entries of `value` along dim `d`.
fn cut<'c, 'b>(b: &Body<'c, 'b>, value: Value<'c, 'b>, d: usize, size: i64) -> Value<'c, 'b> {
    let mut kept = shape_of(value);
    kept[d] = size;
    b.extract_slice(value, &vec![Some(0); kept.len()], None, &kept)
}

/// An argument partial over `axes` (a sum of the devices' values): the
/// whole `value` on the first device of each group over them, zeros on
/// the others, so that the sum is the value. (An average, a maximum or
/// a minimum of equal values is the value: each device takes it.)
pub fn first_of_group<'c, 'b>(b: &Body<'c, 'b>, value: Value<'c, 'b>, mesh: &str, axes: &[String]) -> Value<'c, 'b> {
    let (context, location) = (b.context, b.location);
    let index = Type::index(context);
    let mesh = FlatSymbolRefAttribute::new(context, mesh);
    let coordinate = b.value(dist::axis_index(
        context,
        index,
        mesh,
        axes_attribute(context, axes),
        location,
    ));
    let origin = b.constant(0, index);
    let first = b.value(arith::cmpi(context, CmpiPredicate::Eq, coordinate, origin, location));
    let zeros = zeros(b, value.r#type());
    b.value(arith::select(first, value, zeros, location))
}
