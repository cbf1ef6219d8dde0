//! The `dist-partition` pass. Its documentation (what it does, preconditions, before
//! and after) is [`INFO`]'s description: `dist-opt --help-passes` prints it
//! and docs/passes.md holds it.

use crate::error::PassError;
use crate::ops::{self, Localize};
use crate::pass::{DistPass, PassInfo};
use crate::sharding::graph::{self, Graph};
use crate::sharding::needs::{layouts_and_needs, report_needs};
use crate::sharding::solver::Layout;
use crate::vocabulary::comm::local_size;
use crate::vocabulary::linalg::build::slice_attributes;
use crate::vocabulary::rules::{Axis, FactorRule};
use dist_dialect::ir::build::{splat_attribute, tensor_type};
use dist_dialect::ir::{
    Located, OperationExt, axis_names, block_argument, context_of, element_type, handle_type, integer_attribute,
    op_name, remove_attribute, replace_all_uses_except, set_operand, set_type, static_tensor_shape,
};
use dist_dialect::ods::dist;
use dist_dialect::ops::attr::{self, SHARDING};
use dist_dialect::{DistOp, ReductionKind};
use melior::Context;
use melior::dialect::{arith, ods::tensor};
use melior::ir::attribute::{
    ArrayAttribute, FlatSymbolRefAttribute, FloatAttribute, IntegerAttribute, StringAttribute,
};
use melior::ir::operation::{OperationBuilder, OperationLike};
use melior::ir::r#type::IntegerType;
use melior::ir::{Attribute, BlockLike, BlockRef, Location, OperationRef, RegionLike, Type, Value, ValueLike};
use rustc_hash::FxHashMap;
use thiserror::Error;

#[derive(Debug, Default)]
pub struct Partition;

pub const INFO: PassInfo = PassInfo {
    argument: "dist-partition",
    summary: "Rewrite a global-view function into the per-device program (local shapes, explicit shard offsets)",
    description: r#"`dist-partition`: rewrites a function from the global view to the
program one device runs (SPMD).

Preconditions: every value has a sharding (`dist-propagate-sharding`)
and every use sees its value in the layout it needs
(`dist-resolve-partial`, so every reshard is an explicit collective);
otherwise the pass fails naming the use. Each value's type becomes its
local type (every split dim divided by the product of its axes' sizes;
a dim they do not divide is split GSPMD's way, in shards of ceil(size /
shards), the last ones padded),
the collectives take the local form their verifiers check, an async
start's handle carries its local results, and the function type follows.
The ops that compute differently on a shard are completed here, by their
descriptions: the gradient of a `reduce_mean` over a split dim divides by
the local count, so a `dist.scale` by `1/shards` follows it; an embedding
on a vocabulary-split table (an embedding gradient with a
vocabulary-split result) gets the first row of its shard as its offset,
`dist.axis_index` of the vocabulary axes times the local row count; a
causal mask (and its gradient) with a split query or key dim gets both
dims' first global positions. Over a padded dim, the operands of an op
that sums, or takes the max or min, over it get `dist.mask_padding` (the
padding becomes 0, -inf or +inf; a mean over it is an error), a gather
takes whole shards and cuts the padding (`tensor.extract_slice`), and a
split pads its operand with zeros first (`tensor.insert_slice`). Every argument and result gets `dist.local`, what the local value
is a shard of (declared or propagated); the per-op shardings are
dropped.

Before:
```mlir
func.func @f(%x: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>}) -> tensor<8x16xf32> {
  %y = dist.gelu %x {dist.sharding = [#dist.sharding<@mesh, [{"dp"}, {}]>]} : (tensor<8x16xf32>) -> tensor<8x16xf32>
```
After (`dp` = 4):
```mlir
func.func @f(%x: tensor<2x16xf32> {dist.local = #dist.sharding<@mesh, [{"dp"}, {}]>}) -> tensor<2x16xf32> {
  %y = dist.gelu %x : (tensor<2x16xf32>) -> tensor<2x16xf32>
```
"#,
    anchor: "func.func",
    options: Vec::new,
    dialects: &["arith", "tensor"],
    create: || Box::new(Partition),
};

impl DistPass for Partition {
    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), PassError> {
        let Some(graph) = graph::for_pass(op, INFO.argument)? else {
            return Ok(());
        };
        let (layouts, pending) = layouts_and_needs(&graph)?;
        if !pending.is_empty() {
            return Err(report_needs(
                &graph,
                &layouts,
                &pending,
                "; run dist-resolve-partial first",
            ));
        }
        let context = context_of(&op);
        let mut partition = Partitioner {
            graph: &graph,
            layouts: &layouts,
            context,
            offsets: FxHashMap::default(),
            constants: FxHashMap::default(),
            cuts: FxHashMap::default(),
        };
        // Types first: the ops added to complete others take local types.
        partition.set_local_types()?;
        partition.even_collectives()?;
        partition.complete_ops()?;
        for site in &graph.sites {
            remove_attribute(site.results, SHARDING);
        }
        mark_local(&graph, &layouts)?;
        Ok(())
    }
}

type Partitioned<'c, T> = Result<T, Located<'c>>;

struct Partitioner<'g, 'c, 'a> {
    graph: &'g Graph<'c, 'a>,
    layouts: &'g [Layout],
    context: &'c Context,
    /// The offset value of each (vocabulary axes, local rows).
    offsets: FxHashMap<(Vec<Axis>, i64), Value<'c, 'a>>,
    /// The index constants built at the top of the body, by value.
    constants: FxHashMap<i64, Value<'c, 'a>>,
    /// Each cut a gather's padding made (`cut`), to the gathered value.
    cuts: FxHashMap<*const std::ffi::c_void, Value<'c, 'a>>,
}

impl<'g, 'c, 'a> Partitioner<'g, 'c, 'a> {
    fn shards(&self, axes: &[Axis]) -> i64 {
        axes.iter()
            .map(|&a| self.graph.problem.axis_sizes[a as usize])
            .product()
    }

    /// The graph value `value` is, or is the cut of (`cut`): a gathered
    /// value keeps its layout without its padding.
    fn id(&self, value: Value<'c, 'a>) -> Option<usize> {
        let value = self.cuts.get(&value.to_raw().ptr).copied().unwrap_or(value);
        self.graph.values.iter().position(|v| *v == value)
    }

    fn body(&self) -> BlockRef<'c, 'a> {
        self.graph
            .function
            .operation()
            .region_at(0)
            .and_then(|r| r.first_block())
            .expect("a function with a graph has a body")
    }

    /// Op `i` of the graph and its factor rule, if it has one (not a
    /// collective).
    fn factor_rule(&self, i: usize) -> Option<(&'g crate::sharding::solver::Op, &'g FactorRule)> {
        let op = &self.graph.problem.ops[i];
        match &*op.rule {
            crate::vocabulary::rules::Rule::Factor(rule) => Some((op, rule)),
            crate::vocabulary::rules::Rule::Collective(_) => None,
        }
    }

    /// The local shape of value `v`, or why it has none.
    fn local_shape(&self, v: usize) -> Result<Vec<i64>, TooFewEntries> {
        let shape = &self.graph.problem.values[v].shape;
        shape
            .iter()
            .zip(&self.layouts[v].dims)
            .enumerate()
            .map(|(d, (&size, axes))| {
                let n = self.shards(axes);
                if size >= n {
                    // Uneven: the last shards are padded (GSPMD's split).
                    Ok(local_size(size, n))
                } else {
                    Err(TooFewEntries {
                        dim: d,
                        size,
                        devices: n,
                        axes: crate::sharding::solver::axes_text(&self.graph.problem.axis_names, axes),
                    })
                }
            })
            .collect()
    }

    /// Completes the ops whose local form computes otherwise (their
    /// descriptions' `localize`): a reduce_mean gradient over split dims,
    /// an embedding of a split vocabulary.
    fn complete_ops(&mut self) -> Partitioned<'c, ()> {
        let solver = crate::sharding::solver::Solver::new(&self.graph.problem);
        for (i, site) in self.graph.sites.iter().enumerate() {
            let op = site.op;
            self.reshape_shape_operands(&solver, i, op)?;
            if let Some(spec) = DistOp::of(&op).and_then(ops::spec) {
                spec.localize(op, self)?;
            }
            // After localize, which finds the operands' layouts by value.
            self.mask_padding(&solver, i, op)?;
        }
        Ok(())
    }

    /// An operand read only for its shape (`x` and `y` of `add_grad`) may
    /// be sharded unlike the op's layout, which resolution leaves alone:
    /// its local type would then not match. An empty tensor of the local
    /// shape the op needs takes its place (its values are never read).
    fn reshape_shape_operands(
        &self,
        solver: &crate::sharding::solver::Solver<'_>,
        i: usize,
        op: OperationRef<'c, 'a>,
    ) -> Partitioned<'c, ()> {
        let Some((graph_op, rule)) = self.factor_rule(i) else {
            return Ok(());
        };
        if rule.shape_only.is_empty() {
            return Ok(());
        }
        let a = solver.assign(i, self.layouts);
        for &index in &rule.shape_only {
            let v = graph_op.operands[index];
            let want = &a.operands[index];
            if want.dims == self.layouts[v].dims {
                continue;
            }
            let shape: Vec<i64> = self.graph.problem.values[v]
                .shape
                .iter()
                .zip(&want.dims)
                .map(|(&size, axes)| local_size(size, self.shards(axes)))
                .collect();
            let value = op.operand_at(index).expect("the operand exists");
            let ty = tensor_type(&shape, element_type(value.r#type()));
            let empty = tensor::empty(self.context, ty, &[], op.location());
            let empty = op
                .block()
                .expect("in the body")
                .insert_operation_before(op, empty.into());
            set_operand(op, index, empty.result_at(0).expect("one"));
        }
        Ok(())
    }

    /// Before an op that sums, or takes the max or min, over a dim split
    /// unevenly, that dim's padding in each operand becomes the reduction's
    /// identity (`dist.mask_padding`), so that it adds nothing. A mean over
    /// such a dim would count the padding: an error.
    fn mask_padding(
        &mut self,
        solver: &crate::sharding::solver::Solver<'_>,
        i: usize,
        op: OperationRef<'c, 'a>,
    ) -> Partitioned<'c, ()> {
        let Some((graph_op, rule)) = self.factor_rule(i) else {
            return Ok(());
        };
        let a = solver.assign(i, self.layouts);
        for (f, axes) in a.factors.iter().enumerate() {
            let reduced: Vec<usize> = (0..rule.results.len()).filter(|&r| rule.is_reduced(f, r)).collect();
            if axes.is_empty() || reduced.is_empty() {
                continue;
            }
            let carriers: Vec<(usize, usize)> = rule
                .operands
                .iter()
                .enumerate()
                .flat_map(|(k, dims)| {
                    dims.iter()
                        .enumerate()
                        .filter(move |(_, g)| **g == Some(f))
                        .map(move |(d, _)| (k, d))
                })
                .collect();
            let &(k0, d0) = carriers.first().expect("a reduced factor is an operand's");
            let size = self.graph.problem.values[graph_op.operands[k0]].shape[d0];
            let shards = self.shards(axes);
            if size % shards == 0 {
                continue;
            }
            let kinds: Vec<ReductionKind> = reduced.iter().map(|&r| rule.reduction[r]).collect();
            let fill = match kinds[..] {
                [first, ..] if kinds.iter().any(|&k| k != first) => None,
                [ReductionKind::Sum, ..] => Some(0.0),
                [ReductionKind::Max, ..] => Some(f64::NEG_INFINITY),
                [ReductionKind::Min, ..] => Some(f64::INFINITY),
                _ => None,
            };
            let Some(fill) = fill else {
                return Err(Located::new(
                    op.location(),
                    format!(
                        "'{}' reduces dim {d0} of operand #{k0} (size {size}), split unevenly over the {shards} \
                         devices of {}, in a way its padding would change (a mean counts it): split it evenly \
                         or not at all",
                        op_name(&op),
                        crate::sharding::solver::axes_text(&self.graph.problem.axis_names, axes)
                    ),
                ));
            };
            let rows = local_size(size, shards);
            let offset = self.offset(axes, rows, op.location())?;
            let spec = DistOp::from_name(op_name(&op)).and_then(ops::spec);
            // Integer operands (ids, labels) are read, never summed: their
            // float partners' padding is what would add up.
            for (k, d) in carriers {
                let x = op.operand_at(k).expect("the rule's operand exists");
                if dist_dialect::ir::is_float_tensor(x.r#type()) {
                    let fill = spec.map_or(fill, |s| s.padding_fill(k, fill));
                    let masked = self.mask(op, x, offset, d, size, fill);
                    set_operand(op, k, masked);
                }
            }
        }
        Ok(())
    }

    /// `dist.mask_padding` of `x` right before `op`.
    fn mask(
        &self,
        op: OperationRef<'c, 'a>,
        x: Value<'c, 'a>,
        offset: Value<'c, 'a>,
        dim: usize,
        size: i64,
        fill: f64,
    ) -> Value<'c, 'a> {
        let ctx = self.context;
        let i64_type = IntegerType::new(ctx, 64).into();
        let mask = dist::mask_padding(
            ctx,
            x.r#type(),
            x,
            offset,
            IntegerAttribute::new(i64_type, dim as i64),
            IntegerAttribute::new(i64_type, size),
            FloatAttribute::new(ctx, Type::float64(ctx), fill),
            op.location(),
        );
        let block = op.block().expect("in the body");
        let mask = block.insert_operation_before(op, mask.into());
        mask.result_at(0).expect("one result").into()
    }

    /// Collectives move whole shards: over a dim split unevenly, the
    /// operand of a split (`all_slice`, `reduce_scatter`, an `all_to_all`'s
    /// split dim) is padded with zeros to a whole number of shards first,
    /// and a gather (`all_gather`, an `all_to_all`'s concat dim) gathers the
    /// padded shards, then keeps the dim's entries.
    fn even_collectives(&mut self) -> Partitioned<'c, ()> {
        for site in &self.graph.sites {
            let op = site.op;
            let Some(kind) = DistOp::of(&op) else { continue };
            let (split, gather) = match kind.synchronous() {
                DistOp::AllSlice | DistOp::ReduceScatter | DistOp::ReduceScatterCoalesced => {
                    (integer_attribute(&op, attr::DIM), None)
                }
                DistOp::AllGather => (None, integer_attribute(&op, attr::DIM)),
                DistOp::AllToAll => (
                    integer_attribute(&op, attr::SPLIT_DIM),
                    integer_attribute(&op, attr::CONCAT_DIM),
                ),
                _ => continue,
            };
            let group = self.group(&op);
            // Every operand of a coalesced reduce_scatter, bucketed gradients.
            for k in 0..split.map_or(0, |_| op.operand_count()) {
                let d = split.expect("a split dim") as usize;
                let x = op.operand_at(k).expect("below the count");
                let shape = static_tensor_shape(x.r#type()).unwrap_or_default();
                let padded = local_size(shape[d], group) * group;
                if padded != shape[d] {
                    let wide = self.pad(op, x, d, padded);
                    set_operand(op, k, wide);
                }
            }
            if let Some(d) = gather {
                let x = op.operand_at(0).expect("a collective has an operand");
                let gathered = static_tensor_shape(x.r#type()).unwrap_or_default()[d as usize] * group;
                let result: Value<'c, 'a> = site.results.result_at(0).expect("a gathered result").into();
                let mut shape = static_tensor_shape(result.r#type()).unwrap_or_default();
                let size = shape[d as usize];
                if gathered != size {
                    shape[d as usize] = gathered;
                    set_type(result, tensor_type(&shape, element_type(result.r#type())));
                    if site.op != site.results {
                        let types: Vec<Type<'c>> = site.results.results().map(|r| r.r#type()).collect();
                        let handle = handle_type(self.context, &types)
                            .map_err(|e| Located::new(op.location(), e.to_string()))?;
                        set_type(op.result_at(0).expect("a start has a handle"), handle);
                    }
                    self.cut(site.results, result, d as usize, size);
                }
            }
        }
        Ok(())
    }

    /// The devices in the group of collective `op` (its `axes`).
    fn group(&self, op: &OperationRef<'c, 'a>) -> i64 {
        let names = &self.graph.problem.axis_names;
        axis_names(op)
            .iter()
            .filter_map(|a| names.iter().position(|n| n == a))
            .map(|a| self.graph.problem.axis_sizes[a])
            .product()
    }

    /// `x` with dim `dim` grown to `size` by zeros at its end, right before
    /// `op`: `x` inserted into a zero tensor.
    fn pad(&self, op: OperationRef<'c, 'a>, x: Value<'c, 'a>, dim: usize, size: i64) -> Value<'c, 'a> {
        let ctx = self.context;
        let mut shape = static_tensor_shape(x.r#type()).unwrap_or_default();
        let source = shape.clone();
        shape[dim] = size;
        let element = element_type(x.r#type());
        let ty = tensor_type(&shape, element);
        let zeros = splat_attribute(ctx, ty, 0.0);
        let block = op.block().expect("in the body");
        let zeros = block.insert_operation_before(op, arith::constant(ctx, zeros, op.location()));
        let offsets = vec![0; shape.len()];
        let insert = OperationBuilder::new("tensor.insert_slice", op.location())
            .add_operands(&[x, zeros.result_at(0).expect("one result").into()])
            .add_results(&[ty])
            .add_attributes(&slice_attributes(ctx, &offsets, &source, &[1, 1, 0, 0, 0]))
            .build()
            .expect("a valid tensor.insert_slice");
        let insert = block.insert_operation_before(op, insert);
        insert.result_at(0).expect("one result").into()
    }

    /// Replaces the uses of `result` (of `producer`) by its first `size`
    /// entries along `dim`.
    fn cut(&mut self, producer: OperationRef<'c, 'a>, result: Value<'c, 'a>, dim: usize, size: i64) {
        let mut shape = static_tensor_shape(result.r#type()).unwrap_or_default();
        shape[dim] = size;
        let ty = tensor_type(&shape, element_type(result.r#type()));
        let offsets = vec![0; shape.len()];
        let slice = OperationBuilder::new("tensor.extract_slice", producer.location())
            .add_operands(&[result])
            .add_results(&[ty])
            .add_attributes(&slice_attributes(self.context, &offsets, &shape, &[1, 0, 0, 0]))
            .build()
            .expect("a valid tensor.extract_slice");
        let block = producer.block().expect("in the body");
        let slice = block.insert_operation_after(producer, slice);
        let cut = slice.result_at(0).expect("one result");
        replace_all_uses_except(result, cut, slice);
        self.cuts.insert(cut.to_raw().ptr, result);
    }

    /// Every value to its local type; handles and the function type follow.
    fn set_local_types(&self) -> Partitioned<'c, ()> {
        let graph = self.graph;
        let location_of = |v: Value<'c, 'a>| {
            dist_dialect::ir::op_result(v)
                .map_or_else(|| graph.function.operation().location(), |r| r.owner().location())
        };
        let mut local_types: Vec<Type<'c>> = Vec::with_capacity(graph.values.len());
        for (v, value) in graph.values.iter().enumerate() {
            let shape = self
                .local_shape(v)
                .map_err(|e| Located::new(location_of(*value), e.to_string()))?;
            local_types.push(tensor_type(&shape, element_type(value.r#type())));
        }
        for (value, ty) in graph.values.iter().zip(&local_types) {
            set_type(*value, *ty);
        }
        for site in &graph.sites {
            if site.op == site.results {
                continue;
            }
            let types: Vec<Type<'c>> = site.results.results().map(|r| r.r#type()).collect();
            let handle =
                handle_type(self.context, &types).map_err(|e| Located::new(site.op.location(), e.to_string()))?;
            let h = site.op.result_at(0).expect("a start has a handle");
            set_type(h, handle);
        }
        let body = self.body();
        let inputs: Vec<Type<'c>> = (0..body.argument_count())
            .map(|i| block_argument(&body, i).expect("below the count").r#type())
            .collect();
        let results: Vec<Type<'c>> = graph
            .terminator
            .map(|t| t.operands().map(|v| v.r#type()).collect())
            .unwrap_or_default();
        graph.function.set_type(&inputs, &results);
        Ok(())
    }
}

impl<'c, 'a> Localize<'c, 'a> for Partitioner<'_, 'c, 'a> {
    fn context(&self) -> &'c Context {
        self.context
    }

    fn split(&self, value: Value<'c, 'a>) -> Option<Vec<Vec<Axis>>> {
        let v = self.id(value)?;
        Some(self.layouts[v].dims.iter().map(|axes| axes.to_vec()).collect())
    }

    fn shards(&self, axes: &[Axis]) -> i64 {
        Partitioner::shards(self, axes)
    }

    fn global_shape(&self, value: Value<'c, 'a>) -> Option<Vec<i64>> {
        self.id(value).map(|v| self.graph.problem.values[v].shape.clone())
    }

    fn index(&mut self, value: i64, location: Location<'c>) -> Partitioned<'c, Value<'c, 'a>> {
        if let Some(&v) = self.constants.get(&value) {
            return Ok(v);
        }
        let index = Type::index(self.context);
        let constant = arith::constant(self.context, IntegerAttribute::new(index, value).into(), location);
        let body = self.body();
        let first = body.first_operation().expect("the body has a return");
        let constant = body.insert_operation_before(first, constant);
        let v: Value<'c, 'a> = constant.result_at(0).expect("one result").into();
        self.constants.insert(value, v);
        Ok(v)
    }

    fn offset(&mut self, axes: &[Axis], rows: i64, location: Location<'c>) -> Partitioned<'c, Value<'c, 'a>> {
        if let Some(&v) = self.offsets.get(&(axes.to_vec(), rows)) {
            return Ok(v);
        }
        let ctx = self.context;
        let index = Type::index(ctx);
        let names: Vec<Attribute<'c>> = axes
            .iter()
            .map(|&a| StringAttribute::new(ctx, &self.graph.problem.axis_names[a as usize]).into())
            .collect();
        let mesh = FlatSymbolRefAttribute::new(ctx, self.graph.mesh.name());
        let axis_index = dist::axis_index(ctx, index, mesh, ArrayAttribute::new(ctx, &names), location);
        let constant = arith::constant(ctx, IntegerAttribute::new(index, rows).into(), location);
        let body = self.body();
        let first = body.first_operation().expect("the body has a return");
        let axis_index = body.insert_operation_before(first, axis_index.into());
        let constant = body.insert_operation_after(axis_index, constant);
        let i: Value<'c, 'a> = axis_index.result_at(0).expect("one result").into();
        let n: Value<'c, 'a> = constant.result_at(0).expect("one result").into();
        let product = arith::muli(i, n, location);
        let product = body.insert_operation_after(constant, product);
        let offset: Value<'c, 'a> = product.result_at(0).expect("one result").into();
        self.offsets.insert((axes.to_vec(), rows), offset);
        Ok(offset)
    }
}

/// A dim split over more devices than it has entries.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("dim {dim} of size {size} has fewer entries than the {devices} devices of {axes}")]
struct TooFewEntries {
    dim: usize,
    size: i64,
    devices: i64,
    axes: String,
}

/// Every tensor argument and result says what it is a shard of
/// (`dist.local`), declared or not: the caller feeding and reading the
/// per-device program needs each one's layout.
fn mark_local<'c>(graph: &Graph<'c, '_>, layouts: &[Layout]) -> Result<(), Located<'c>> {
    let function = graph.function;
    let location = function.operation().location();
    let mut attributes = crate::sharding::graph::ShardingAttributes::new(&graph.mesh);
    let arguments = graph
        .arguments
        .iter()
        .map(|id| id.map(|v| attributes.get(&layouts[v], location)).transpose())
        .collect::<Result<Vec<_>, _>>()?;
    function.remove_argument_and_result_attributes(SHARDING);
    function.set_argument_attributes(attr::LOCAL, &arguments);
    let results = graph
        .returned
        .iter()
        .map(|value| value.map(|v| attributes.get(&layouts[v], location)).transpose())
        .collect::<Result<Vec<_>, _>>()?;
    function.set_result_attributes(attr::LOCAL, &results);
    Ok(())
}
