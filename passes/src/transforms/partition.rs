//! The `dist-partition` pass. Its documentation (what it does, preconditions, before
//! and after) is [`INFO`]'s description: `dist-opt --help-passes` prints it
//! and docs/passes.md holds it.

use crate::error::{PassError, fail};
use crate::ops::{self, Localize};
use crate::registry::{DistPass, PassInfo};
use crate::sharding::graph::{self, Graph};
use crate::sharding::needs::{layouts_and_needs, report_needs};
use crate::sharding::rules::Axis;
use crate::sharding::solver::Layout;
use dist_dialect::DistOp;
use dist_dialect::ir::{
    Located, OperationExt, block_argument, context_of, element_type, handle_type, remove_attribute, set_operand,
    set_type,
};
use dist_dialect::ods::dist;
use dist_dialect::ops::attr::{self, SHARDING};
use melior::Context;
use melior::dialect::{arith, ods::tensor};
use melior::ir::attribute::{ArrayAttribute, FlatSymbolRefAttribute, IntegerAttribute, StringAttribute};
use melior::ir::operation::OperationLike;
use melior::ir::r#type::RankedTensorType;
use melior::ir::{Attribute, BlockLike, BlockRef, Location, OperationRef, RegionLike, Type, Value, ValueLike};
use rustc_hash::FxHashMap;

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
local type (every split dim divided by the product of its axes' sizes),
the collectives take the local form their verifiers check, an async
start's handle carries its local results, and the function type follows.
The ops that compute differently on a shard are completed here, by their
descriptions: the gradient of a `reduce_mean` over a split dim divides by
the local count, so a `dist.scale` by `1/shards` follows it; an embedding
on a vocabulary-split table (an embedding gradient with a
vocabulary-split result) gets the first row of its shard as its offset,
`dist.axis_index` of the vocabulary axes times the local row count; a
causal mask (and its gradient) with a split query or key dim gets both
dims' first global positions. Every argument and result gets `dist.local`, what the local value
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
    options: &[],
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
        };
        // Types first: the ops added to complete others take local types.
        partition.set_local_types()?;
        partition.complete_ops()?;
        for site in &graph.sites {
            remove_attribute(site.results, SHARDING);
        }
        mark_local(&graph, &layouts).map_err(|m| fail(op.location(), &m))?;
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
}

impl<'c, 'a> Partitioner<'_, 'c, 'a> {
    fn shards(&self, axes: &[Axis]) -> i64 {
        axes.iter()
            .map(|&a| self.graph.problem.axis_sizes[a as usize])
            .product()
    }

    fn id(&self, value: Value<'c, 'a>) -> Option<usize> {
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

    /// The local shape of value `v`, or why it has none.
    fn local_shape(&self, v: usize) -> Result<Vec<i64>, String> {
        let shape = &self.graph.problem.values[v].shape;
        shape
            .iter()
            .zip(&self.layouts[v].dims)
            .enumerate()
            .map(|(d, (&size, axes))| {
                let n = self.shards(axes);
                if size % n == 0 {
                    Ok(size / n)
                } else {
                    Err(format!(
                        "dim {d} of size {size} does not split over the {n} devices of {}",
                        crate::sharding::solver::axes_text(&self.graph.problem.axis_names, axes)
                    ))
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
        let graph_op = &self.graph.problem.ops[i];
        let crate::sharding::rules::Rule::Factor(rule) = &*graph_op.rule else {
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
            let shape: Vec<u64> = self.graph.problem.values[v]
                .shape
                .iter()
                .zip(&want.dims)
                .map(|(&size, axes)| (size / self.shards(axes)) as u64)
                .collect();
            let value = op.operand_at(index).expect("the operand exists");
            let ty: Type<'c> = RankedTensorType::new(&shape, element_type(value.r#type()), None).into();
            let empty = tensor::empty(self.context, ty, &[], op.location());
            let empty = op
                .block()
                .expect("in the body")
                .insert_operation_before(op, empty.into());
            set_operand(op, index, empty.result_at(0).expect("one"));
        }
        Ok(())
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
            let shape = self.local_shape(v).map_err(|m| Located::new(location_of(*value), m))?;
            let dims: Vec<u64> = shape.iter().map(|&d| d as u64).collect();
            local_types.push(RankedTensorType::new(&dims, element_type(value.r#type()), None).into());
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

/// Every tensor argument and result says what it is a shard of
/// (`dist.local`), declared or not: the caller feeding and reading the
/// per-device program needs each one's layout.
fn mark_local(graph: &Graph<'_, '_>, layouts: &[Layout]) -> Result<(), String> {
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
