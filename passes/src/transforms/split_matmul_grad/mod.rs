//! The `dist-split-matmul-grad` pass. Its documentation (what it does, preconditions, before
//! and after) is [`INFO`]'s description: `dist-opt --help-passes` prints it
//! and docs/passes.md holds it.

mod layouts;

use layouts::NotSplit;

use crate::error::{PassError, fail};
use crate::ops::matmul_grad::{self as plan, GradOperands, Input, Operands, Split, Step};
use crate::pass::options::PassOptions;
use crate::pass::{DistPass, PassInfo};
use crate::sharding::graph::{self, ShardingAttributes};
use crate::sharding::solver::{Layout, layout_text};
use crate::vocabulary::comm::CollectiveKind;
use dist_dialect::ir::build::tensor_type;
use dist_dialect::ir::{
    FunctionOpRef, MeshOpRef, OperationExt, Severity, context_of, emit_diagnostic, erase, insert_before,
    replace_all_uses,
};
use dist_dialect::model::Mesh;
use dist_dialect::ods::dist;
use dist_dialect::ops::attr::SHARDING;
use dist_dialect::{DistOp, Sharding};
use melior::Context;
use melior::ir::attribute::{ArrayAttribute, DenseI64ArrayAttribute};
use melior::ir::operation::{OperationLike, OperationMutLike};
use melior::ir::{Attribute, BlockLike, Location, Operation, OperationRef, RegionLike, Type, Value, ValueLike};
use rustc_hash::{FxHashMap, FxHashSet};
use std::ops::ControlFlow;

crate::pass::options::option_enum! {
    /// Which matmul gradients the pass splits.
    pub enum Which {
        /// Those whose dx a collective reads.
        Comm = "comm",
        /// Every one.
        All = "all",
    }
}

crate::pass::options::pass_options! {
    /// The options of `dist-split-matmul-grad`.
    pub struct SplitMatmulGradOptions {
        split: Which = "split", "comm",
            "Which matmul_grads to split: comm (those whose dx a collective reads) or all";
    }
}

#[derive(Debug, Default)]
pub struct SplitMatmulGrad {
    options: SplitMatmulGradOptions,
}

pub const INFO: PassInfo = PassInfo {
    argument: "dist-split-matmul-grad",
    summary: "Split dist.matmul_grad into its dx and dy matmuls so a collective on dx overlaps dy",
    description: r#"`dist-split-matmul-grad`: splits `dist.matmul_grad` into the matmuls of
its two gradients, so that a collective on dx can run while dy (dW) is
computed.

Preconditions: the function has shardings (`dist-propagate-sharding`)
and, for the default `split=comm`, its collectives
(`dist-resolve-partial`). With `split=comm` only a matmul_grad whose dx
a communicating collective reads is split (the overlap case), directly
or through ops that keep it partial (the Q/K/V input gradients summed
into one all-reduce), and one is skipped, with a remark, when that
collective also depends on dy: the dy matmul could not overlap it. `split=all` splits every matmul_grad (zero
bubble schedules run dX and dW apart). Only the gradients that are used
are computed; leading dims are folded into one GEMM where the shardings
allow (see [`plan`]); each new op gets the sharding its rule derives from
its operands, and a split that would need a reshard or would change a
gradient's sharding is skipped with a remark.

Before:
```mlir
%dx, %dw = dist.matmul_grad %x, %w, %dout : (tensor<8x16xf32>, tensor<16x64xf32>, tensor<8x64xf32>) -> (tensor<8x16xf32>, tensor<16x64xf32>)
%r = dist.all_reduce %dx on @mesh axes = ["tp"] kind = sum : tensor<8x16xf32> -> tensor<8x16xf32>
```
After:
```mlir
%dx = dist.matmul %dout, %w {transpose_y} : (tensor<8x64xf32>, tensor<16x64xf32>) -> tensor<8x16xf32>
%dw = dist.matmul %x, %dout {transpose_x} : (tensor<8x16xf32>, tensor<8x64xf32>) -> tensor<16x64xf32>
%r = dist.all_reduce %dx on @mesh axes = ["tp"] kind = sum : tensor<8x16xf32> -> tensor<8x16xf32>
```
"#,
    anchor: "func.func",
    options: SplitMatmulGradOptions::info,
    dialects: &[],
    create: || Box::new(SplitMatmulGrad::default()),
};

impl DistPass for SplitMatmulGrad {
    fn options(&mut self) -> Option<&mut dyn PassOptions> {
        Some(&mut self.options)
    }

    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), PassError> {
        let function = FunctionOpRef::try_from(op).map_err(|e| fail(op.location(), &e.to_string()))?;
        let Some(region) = function.operation().region_at(0) else {
            return Ok(());
        };
        // The body's ops, block after block.
        let mut ops = Vec::new();
        let mut next = region.first_block();
        while let Some(block) = next {
            ops.extend(dist_dialect::ir::block_ops(block));
            next = block.next_in_region();
        }
        // Positions of the original ops (compared within a block only):
        // inserting ops would make MLIR renumber a block at every order
        // query.
        let positions: FxHashMap<usize, usize> = ops
            .iter()
            .enumerate()
            .map(|(i, o)| (o.to_raw().ptr as usize, i))
            .collect();
        let mut meshes: FxHashMap<String, Option<Mesh>> = FxHashMap::default();
        for grad in ops {
            if DistOp::MatmulGrad.is(&grad) {
                self.split(grad, function, &positions, &mut meshes)?;
            }
        }
        Ok(())
    }
}

impl SplitMatmulGrad {
    /// Splits `grad` if its gradients may be computed apart (or `split=all`
    /// asks for every one), else leaves it with a remark that says why.
    fn split<'c>(
        &self,
        grad: OperationRef<'c, '_>,
        function: FunctionOpRef<'c, '_>,
        positions: &FxHashMap<usize, usize>,
        meshes: &mut FxHashMap<String, Option<Mesh>>,
    ) -> Result<(), PassError> {
        let (dx, dy) = (result(grad, 0), result(grad, 1));
        if !(self.options.split == Which::All) {
            match overlap_blocker(grad, dx, dy, positions) {
                Blocker::NoCollective => return Ok(()),
                Blocker::Reads(name) => {
                    remark(
                        grad,
                        &format!("not split: the {name} that reduces dx also depends on dy, so dy cannot overlap it"),
                    );
                    return Ok(());
                }
                Blocker::None => {}
            }
        }
        let grad_operands = GradOperands::of(grad);
        let operands = grad_operands.shapes();
        let (want_dx, want_dy) = (dist_dialect::ir::has_uses(dx), dist_dialect::ir::has_uses(dy));
        // Without shardings around it the split carries none; with some
        // missing it would lose them.
        let sharded = match sharded(grad, function, meshes) {
            Ok(sharded) => sharded,
            Err(why) => {
                remark(grad, &format!("not split: {why}"));
                return Ok(());
            }
        };
        let split = [true, false].into_iter().map(|fold| {
            let split = plan::split(&operands, want_dx, want_dy, fold);
            let layouts = carried(sharded.as_ref(), &split, &operands)?;
            Ok((split, layouts))
        });
        // Folded if the shardings allow it, else batched.
        let mut failure = None;
        let Some((split, layouts)) = split
            .filter_map(|s: Result<_, NotSplit>| s.map_err(|e| failure = Some(e)).ok())
            .next()
        else {
            let why = failure.map(|e| e.to_string()).unwrap_or_default();
            remark(grad, &format!("not split: {why}"));
            return Ok(());
        };
        let context = context_of(&grad);
        let element = dist_dialect::ir::element_type(dx.r#type());
        let mut built: Vec<Value<'_, '_>> = Vec::new();
        let mut attributes_for = sharded.as_ref().map(|s| ShardingAttributes::new(&s.mesh));
        for (planned, layout) in split.steps.iter().zip(&layouts) {
            let read = |input: &Input| grad_operands.read(*input, &built);
            let ty = tensor_type(&planned.shape, element);
            let location = grad.location();
            let mut new = step_op(context, &planned.step, ty, location, read);
            if let (Some(layout), Some(shardings)) = (layout, attributes_for.as_mut()) {
                let sharding = shardings.get(layout, location)?;
                new.set_attribute(SHARDING, ArrayAttribute::new(context, &[sharding]).into());
            }
            let new = insert_before(grad, new);
            built.push(new.result_at(0).expect("one result").into());
        }
        for (old, step) in [(dx, split.dx), (dy, split.dy)] {
            if let Some(step) = step {
                replace_all_uses(old, built[step]);
            }
        }
        // SAFETY: its results were replaced by the split products, and each site is visited once.
        #[allow(unsafe_code)]
        unsafe {
            erase(grad)
        };
        Ok(())
    }
}

/// The op of one planned step, of result type `ty`, its inputs given by `read`.
fn step_op<'c, 'a>(
    context: &'c Context,
    step: &Step,
    ty: Type<'c>,
    location: Location<'c>,
    read: impl Fn(&Input) -> Value<'c, 'a>,
) -> Operation<'c> {
    match step {
        Step::Matmul {
            x,
            y,
            transpose_x,
            transpose_y,
        } => {
            let mut matmul = dist::MatmulOperationBuilder::new(context, location)
                .out(ty)
                .x(read(x))
                .y(read(y));
            if *transpose_x {
                matmul = matmul.transpose_x(Attribute::unit(context));
            }
            if *transpose_y {
                matmul = matmul.transpose_y(Attribute::unit(context));
            }
            matmul.build().into()
        }
        Step::Reshape(input) => dist::reshape(context, ty, read(input), location).into(),
        Step::ReduceSum { input, dims } => {
            let dims = DenseI64ArrayAttribute::new(context, dims);
            dist::ReduceSumOperationBuilder::new(context, location)
                .out(ty)
                .x(read(input))
                .dims(dims.into())
                .build()
                .into()
        }
    }
}

fn result<'c, 'a>(op: OperationRef<'c, 'a>, index: usize) -> Value<'c, 'a> {
    op.result_at(index).expect("index below the result count").into()
}

fn remark(op: OperationRef<'_, '_>, message: &str) {
    emit_diagnostic(op.location(), Severity::Remark, message);
}

fn communicates(op: &OperationRef<'_, '_>) -> bool {
    op.name()
        .as_string_ref()
        .as_str()
        .ok()
        .and_then(CollectiveKind::from_op_name)
        .is_some_and(|k| k != CollectiveKind::AllSlice)
}

enum Blocker {
    /// No collective communicates dx: not the overlap case.
    NoCollective,
    /// The named collective on dx also depends on dy.
    Reads(String),
    None,
}

/// Visits the ops reading `from`, each once, then the readers of the
/// values `visit` names, until `visit` breaks.
fn walk_users<'c: 'a, 'a, T>(
    from: Value<'c, 'a>,
    mut visit: impl FnMut(OperationRef<'c, 'a>) -> ControlFlow<T, Vec<Value<'c, 'a>>>,
) -> Option<T> {
    let mut seen: FxHashSet<usize> = FxHashSet::default();
    let mut frontier = vec![from];
    while let Some(value) = frontier.pop() {
        for user in dist_dialect::ir::users(value) {
            if !seen.insert(user.to_raw().ptr as usize) {
                continue;
            }
            match visit(user) {
                ControlFlow::Break(found) => return Some(found),
                ControlFlow::Continue(values) => frontier.extend(values),
            }
        }
    }
    None
}

/// The communicating collectives that reduce or reshard dx: its readers,
/// and through ops that keep it partial (a sum of partial gradients), the
/// readers of those.
fn collectives_on<'c, 'a>(dx: Value<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut found = Vec::new();
    walk_users::<()>(dx, |user| {
        if communicates(&user) {
            found.push(user);
            ControlFlow::Continue(Vec::new())
        } else {
            ControlFlow::Continue(
                (0..user.result_count())
                    .filter(|&i| is_partial(&user, i))
                    .map(|i| result(user, i))
                    .collect(),
            )
        }
    });
    found
}

/// Whether result `index` of `op` is sharded partial.
fn is_partial(op: &OperationRef<'_, '_>, index: usize) -> bool {
    dist_dialect::ir::attribute(op, SHARDING)
        .and_then(|a| ArrayAttribute::try_from(a).ok())
        .and_then(|list| list.element(index).ok())
        .and_then(dist_dialect::ir::sharding_of)
        .is_some_and(|s| s.partial.is_some())
}

/// Whether splitting `grad` lets dy overlap the collectives on its dx.
fn overlap_blocker(
    grad: OperationRef<'_, '_>,
    dx: Value<'_, '_>,
    dy: Value<'_, '_>,
    positions: &FxHashMap<usize, usize>,
) -> Blocker {
    let position = |op: &OperationRef<'_, '_>| positions.get(&(op.to_raw().ptr as usize)).copied();
    let collectives = collectives_on(dx);
    if collectives.is_empty() {
        return Blocker::NoCollective;
    }
    // Everything that depends on dy and comes before the last collective.
    let block = grad.block().expect("in a block");
    let last = collectives
        .iter()
        .filter_map(|&c| dist_dialect::ir::ancestor_in(block, c))
        .filter_map(|c| position(&c))
        .max()
        .unwrap_or(usize::MAX);
    // A reader nested in an op of the block stands for that op, whose
    // results carry what flows out of the region.
    let reads = walk_users(dy, |user| {
        let Some(op) = dist_dialect::ir::ancestor_in(block, user) else {
            return ControlFlow::Continue(Vec::new());
        };
        let is_collective =
            |c: &&OperationRef<'_, '_>| c.to_raw().ptr == op.to_raw().ptr || c.to_raw().ptr == user.to_raw().ptr;
        if let Some(c) = collectives.iter().find(is_collective) {
            return ControlFlow::Break(c.name().as_string_ref().as_str().unwrap_or("?").to_owned());
        }
        if position(&op).is_none_or(|p| p >= last) {
            return ControlFlow::Continue(Vec::new());
        }
        let mut next: Vec<Value<'_, '_>> = user.results().map(Value::from).collect();
        if op != user {
            next.extend(op.results().map(Value::from));
        }
        ControlFlow::Continue(next)
    });
    if let Some(name) = reads {
        return Blocker::Reads(name);
    }
    Blocker::None
}

/// The mesh of a matmul_grad and the layouts of its operands and results,
/// as their sharding attributes give them.
struct Sharded {
    mesh: Mesh,
    inputs: [Layout; 3],
    results: [Layout; 2],
}

/// `None` for a matmul_grad without shardings; an error naming what is
/// missing if it has some but not all it needs.
fn sharded(
    grad: OperationRef<'_, '_>,
    function: FunctionOpRef<'_, '_>,
    meshes: &mut FxHashMap<String, Option<Mesh>>,
) -> Result<Option<Sharded>, NotSplit> {
    let Some(list) = dist_dialect::ir::attribute(&grad, SHARDING).and_then(|a| ArrayAttribute::try_from(a).ok()) else {
        return Ok(None);
    };
    let result = |i| list.element(i).ok().and_then(dist_dialect::ir::sharding_of);
    let (Some(dx), Some(dy)) = (result(0), result(1)) else {
        return Err(NotSplit::NotTwoShardings);
    };
    let mesh = meshes
        .entry(dx.mesh.clone())
        .or_insert_with_key(|name| MeshOpRef::lookup(&grad, name).and_then(|m| m.to_model().ok()))
        .clone()
        .ok_or_else(|| NotSplit::NoMesh(dx.mesh.clone()))?;
    let layout = |s: Option<Sharding>, what: &str| {
        let s = s.filter(|s| s.mesh == mesh.name()).ok_or_else(|| NotSplit::Unsharded {
            what: what.to_owned(),
            mesh: mesh.name().to_owned(),
        })?;
        graph::layout_of(&mesh, &s, grad.location()).map_err(|d| NotSplit::Layout(d.message))
    };
    let input = |i: usize| {
        let sharding = grad
            .operand_at(i)
            .and_then(|v| dist_dialect::ir::value_sharding(v, function));
        layout(sharding, &format!("operand #{i}"))
    };
    Ok(Some(Sharded {
        inputs: [input(0)?, input(1)?, input(2)?],
        results: [layout(Some(dx), "dx")?, layout(Some(dy), "dy")?],
        mesh,
    }))
}

/// The layouts of the split's results, `None` each in a function without
/// shardings on these values; an error if they need a reshard or if a
/// gradient would not keep the layout matmul_grad gave it.
fn carried(sharded: Option<&Sharded>, split: &Split, operands: &Operands<'_>) -> Result<Vec<Option<Layout>>, NotSplit> {
    let Some(sharded) = sharded else {
        return Ok(vec![None; split.steps.len()]);
    };
    let names: Vec<String> = sharded.mesh.axes().iter().map(|a| a.name.clone()).collect();
    let sizes: Vec<i64> = sharded.mesh.axes().iter().map(|a| a.size).collect();
    let [x, y, dout] = &sharded.inputs;
    let layouts = layouts::layouts(split, operands, [x, y, dout], &names, &sizes)?;
    for (name, step, want) in [
        ("dx", split.dx, &sharded.results[0]),
        ("dy", split.dy, &sharded.results[1]),
    ] {
        if let Some(step) = step
            && layouts[step] != *want
        {
            return Err(NotSplit::Changed {
                gradient: name,
                got: layout_text(&names, &layouts[step]),
                want: layout_text(&names, want),
            });
        }
    }
    Ok(layouts.into_iter().map(Some).collect())
}
