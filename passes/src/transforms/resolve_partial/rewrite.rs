//! Writes a [`Plan`] into the function: the collectives and scales, each
//! with its result sharding, right after the value it reads (a bucket
//! after its last gradient; an argument's right before its first reader),
//! and the uses rewired.

use super::plan::{Plan, Precision, ProgramOrder, Resolution, Step};
use crate::sharding::graph::{Graph, ShardingAttributes};
use crate::sharding::needs::Use;
use crate::sharding::solver::Layout;
use crate::vocabulary::rules::{Axis, Transfer};
use dist_dialect::ReductionKind;
use dist_dialect::ir::build::reduction_kind_attribute;
use dist_dialect::ir::{Located, OperationExt, context_of, op_result, set_operand};
use dist_dialect::ods::dist;
use dist_dialect::ops::attr::SHARDING;
use melior::Context;
use melior::ir::attribute::{
    ArrayAttribute, FlatSymbolRefAttribute, FloatAttribute, IntegerAttribute, StringAttribute,
};
use melior::ir::operation::{OperationLike, OperationMutLike};
use melior::ir::r#type::IntegerType;
use melior::ir::{Attribute, BlockLike, Location, Operation, OperationRef, Type, Value, ValueLike};
use rustc_hash::FxHashMap;

/// Where inserted ops go.
#[derive(Clone, Copy)]
enum Place<'c, 'a> {
    /// After this op (a value's definition).
    After(OperationRef<'c, 'a>),
    /// Right before this op (an argument's first reader).
    Before(OperationRef<'c, 'a>),
}

struct Writer<'g, 'c, 'a> {
    graph: &'g Graph<'c, 'a>,
    order: &'g ProgramOrder,
    context: &'c Context,
    /// The last op inserted after each op (keyed by that op).
    cursors: FxHashMap<usize, OperationRef<'c, 'a>>,
    shardings: ShardingAttributes<'g, 'c>,
}

impl<'c, 'a> Writer<'_, 'c, 'a> {
    fn axes(&self, axes: &[Axis]) -> ArrayAttribute<'c> {
        let names: Vec<Attribute<'c>> = axes
            .iter()
            .map(|&a| StringAttribute::new(self.context, &self.graph.problem.axis_names[a as usize]).into())
            .collect();
        ArrayAttribute::new(self.context, &names)
    }

    fn i64(&self, value: usize) -> IntegerAttribute<'c> {
        IntegerAttribute::new(IntegerType::new(self.context, 64).into(), value as i64)
    }

    fn kind(&self, kind: ReductionKind) -> Attribute<'c> {
        reduction_kind_attribute(self.context, kind)
    }

    fn location(&self, value: usize) -> Location<'c> {
        op_result(self.graph.values[value]).map_or_else(
            || self.graph.function.operation().location(),
            |result| result.owner().location(),
        )
    }

    /// Where the ops of `resolution`, reading `value`, go: after the op
    /// defining `value`, or, for an argument, before the first op that
    /// reads them (an async pair's start), else before the return.
    fn place(&self, value: usize, resolution: &Resolution) -> Place<'c, 'a> {
        match op_result(self.graph.values[value]) {
            Some(result) => Place::After(result.owner()),
            None => Place::Before(self.order.first_reader(resolution).map_or_else(
                || self.graph.terminator.expect("results come from the return"),
                |op| self.graph.sites[op].op,
            )),
        }
    }

    /// Inserts `op` at `place`: after what was placed after the same op
    /// before, or right before the reader (so in insertion order too).
    fn insert(&mut self, place: Place<'c, 'a>, op: melior::ir::Operation<'c>) -> OperationRef<'c, 'a> {
        let block = self
            .graph
            .terminator
            .and_then(|t| t.block())
            .expect("a function body has a return");
        match place {
            Place::Before(reader) => block.insert_operation_before(reader, op),
            Place::After(owner) => {
                let key = owner.to_raw().ptr as usize;
                let last = self.cursors.get(&key).copied().unwrap_or(owner);
                let inserted = block.insert_operation_after(last, op);
                self.cursors.insert(key, inserted);
                inserted
            }
        }
    }

    fn build(
        &mut self,
        step: &Step,
        inputs: &[Value<'c, 'a>],
        layouts: &[&Layout],
        location: Location<'c>,
    ) -> Result<Operation<'c>, Located<'c>> {
        let context = self.context;
        let mesh = FlatSymbolRefAttribute::new(context, self.graph.mesh.name());
        // A collective changes a value's layout, not its global type.
        let types: Vec<Type<'c>> = inputs.iter().map(|v| v.r#type()).collect();
        let (input, ty) = (inputs[0], types[0]);
        let mut op: Operation<'c> = match step {
            Step::Scale { divisor } => {
                let factor = FloatAttribute::new(context, Type::float64(context), 1.0 / *divisor as f64);
                dist::scale(context, input, factor, location).into()
            }
            Step::Cast { to } => {
                let element = match to {
                    Precision::F32 => Type::float32(context),
                    Precision::BF16 => Type::bfloat16(context),
                    Precision::F16 => Type::float16(context),
                };
                let shape = dist_dialect::ir::static_tensor_shape(ty).unwrap_or_default();
                let shape: Vec<u64> = shape.iter().map(|&d| d as u64).collect();
                let cast_type = melior::ir::r#type::RankedTensorType::new(&shape, element, None).into();
                dist::cast(context, cast_type, input, location).into()
            }
            Step::Collective(Transfer::Reduce {
                axes,
                kind,
                scatter_dim,
            }) => {
                let (axes, kind) = (self.axes(axes), self.kind(*kind));
                match (scatter_dim.map(|d| self.i64(d)), inputs.len()) {
                    (Some(dim), 1) => dist::reduce_scatter(context, ty, input, mesh, axes, dim, kind, location).into(),
                    (Some(dim), _) => {
                        dist::reduce_scatter_coalesced(context, &types, inputs, mesh, axes, dim, kind, location).into()
                    }
                    (None, 1) => dist::all_reduce(context, ty, input, mesh, axes, kind, location).into(),
                    (None, _) => dist::all_reduce_coalesced(context, &types, inputs, mesh, axes, kind, location).into(),
                }
            }
            Step::Collective(Transfer::Gather { dim, axes }) => {
                dist::all_gather(context, ty, input, mesh, self.axes(axes), self.i64(*dim), location).into()
            }
            Step::Collective(Transfer::Slice { dim, axes }) => {
                dist::all_slice(context, ty, input, mesh, self.axes(axes), self.i64(*dim), location).into()
            }
            Step::Collective(Transfer::AllToAll {
                split_dim,
                concat_dim,
                axes,
            }) => {
                let (split_dim, concat_dim) = (self.i64(*split_dim), self.i64(*concat_dim));
                dist::all_to_all(
                    context,
                    ty,
                    input,
                    mesh,
                    self.axes(axes),
                    split_dim,
                    concat_dim,
                    location,
                )
                .into()
            }
        };
        let shardings = layouts
            .iter()
            .map(|l| self.shardings.get(l, location))
            .collect::<Result<Vec<_>, _>>()?;
        op.set_attribute(SHARDING, ArrayAttribute::new(context, &shardings).into());
        Ok(op)
    }
}

/// Inserts the plan's ops and points every planned use at its node.
pub fn apply<'c>(graph: &Graph<'c, '_>, plan: &Plan, order: &ProgramOrder) -> Result<(), Located<'c>> {
    let operation = graph.function.operation();
    let context = context_of(&operation);
    let mut writer = Writer {
        graph,
        order,
        context,
        cursors: FxHashMap::default(),
        shardings: ShardingAttributes::new(&graph.mesh),
    };
    // Node results, by resolution.
    let mut results: Vec<Vec<Option<Value<'_, '_>>>> =
        plan.resolutions.iter().map(|r| vec![None; r.nodes.len()]).collect();
    let mut bucket_of: FxHashMap<usize, usize> = FxHashMap::default();
    for (b, bucket) in plan.buckets.iter().enumerate() {
        for &(r, _) in bucket {
            bucket_of.insert(r, b);
        }
    }
    let mut unbucketed: Vec<usize> = Vec::new();
    for r in 0..plan.resolutions.len() {
        match bucket_of.get(&r) {
            None => unbucketed.push(r),
            // A bucket is written when its last gradient is.
            Some(&b) if plan.buckets[b].last().map(|m| m.0) == Some(r) => {
                let bucket = &plan.buckets[b];
                let inputs: Vec<_> = bucket
                    .iter()
                    .map(|&(r, _)| graph.values[plan.resolutions[r].value])
                    .collect();
                let layouts: Vec<&Layout> = bucket
                    .iter()
                    .map(|&(r, n)| &plan.resolutions[r].nodes[n].layout)
                    .collect();
                let (first, root) = bucket[0];
                let value = plan.resolutions[r].value;
                let location = writer.location(value);
                let op = writer.build(&plan.resolutions[first].nodes[root].step, &inputs, &layouts, location)?;
                let op = writer.insert(writer.place(value, &plan.resolutions[r]), op);
                for (k, &(m, n)) in bucket.iter().enumerate() {
                    results[m][n] = op.result_at(k).map(Into::into);
                }
                // The rest of each member's tree follows the bucket.
                for &(m, _) in bucket {
                    write_tree(&mut writer, plan, m, Some(value), &mut results)?;
                }
            }
            Some(_) => {}
        }
    }
    for r in unbucketed {
        write_tree(&mut writer, plan, r, None, &mut results)?;
    }
    // Rewire the uses.
    for (r, resolution) in plan.resolutions.iter().enumerate() {
        for (n, node) in resolution.nodes.iter().enumerate() {
            let value = results[r][n].expect("every node was written");
            for at in &node.uses {
                let (op, index) = match *at {
                    Use::Operand { op, index } => (graph.sites[op].op, index),
                    Use::Result(index) => (graph.terminator.expect("results come from the return"), index),
                };
                set_operand(op, index, value);
            }
        }
    }
    Ok(())
}

/// Writes the nodes of resolution `r` not written yet, after the anchor of
/// `after` (a bucket's last gradient) or of the value itself.
fn write_tree<'c, 'a>(
    writer: &mut Writer<'_, 'c, 'a>,
    plan: &Plan,
    r: usize,
    after: Option<usize>,
    results: &mut [Vec<Option<Value<'c, 'a>>>],
) -> Result<(), Located<'c>> {
    let resolution = &plan.resolutions[r];
    let anchor_value = after.unwrap_or(resolution.value);
    let location = writer.location(resolution.value);
    let place = writer.place(anchor_value, resolution);
    for (n, node) in resolution.nodes.iter().enumerate() {
        if results[r][n].is_some() {
            continue;
        }
        let input = match node.parent {
            Some(p) => results[r][p].expect("parents are written first"),
            None => writer.graph.values[resolution.value],
        };
        let op = writer.build(&node.step, &[input], &[&node.layout], location)?;
        let op = writer.insert(place, op);
        results[r][n] = op.result_at(0).map(Into::into);
    }
    Ok(())
}
