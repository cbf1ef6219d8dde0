//! The `dist-schedule-pipeline` pass. Its documentation (what it does, preconditions, before
//! and after) is [`INFO`]'s description: `dist-opt --help-passes` prints it
//! and docs/passes.md holds it.

use super::split_microbatches::set_mesh_axes;
use crate::error::PassError;
use crate::ops;
use crate::pass::options::PassOptions;
use crate::pass::{DistPass, PassInfo};
use crate::pipeline::microbatches::{self, Class, Role};
use crate::pipeline::schedule::{Phase, Plan, Schedule};
use crate::pipeline::{Body, StageOptions, stages};
use crate::vocabulary::comm::CollectiveKind;
use dist_dialect::DistOp;
use dist_dialect::ir::{
    FunctionOpRef, Located, MeshOpRef, OperationExt, ShardingAttribute, attribute, axis_names, block_argument_of,
    body_ops, file_line_col, op_name, reduction_kind, remove_attribute, sharding_of, string_attribute, walk_preorder,
};
use dist_dialect::model::{Mesh, ReductionKind, Sharding};
use dist_dialect::ops::attr::{self, MICROBATCH_AXIS};
use melior::ir::operation::{OperationLike, WalkResult};
use melior::ir::{Attribute, BlockLike, Location, OperationRef, RegionLike, Value, ValueLike};
use rustc_hash::{FxHashMap, FxHashSet};
use std::ffi::c_void;

crate::pass::options::pass_options! {
    /// How the stages run, and whether each part of a microbatch's work is
    /// marked for `dist-run --trace`.
    pub struct SchedulePipelineOptions {
        trace_jobs: bool = "trace-jobs", "false",
            "Call dist_rt_trace_job before each part of a microbatch's work, which names its compute in dist-run --trace";
        @group stages: StageOptions;
    }
}

#[derive(Debug, Default)]
pub struct SchedulePipeline {
    options: SchedulePipelineOptions,
}

mod dispatch;
mod job;
mod placement;
mod writer;

use placement::Placement;
use writer::Writer;

pub const INFO: PassInfo = PassInfo {
    argument: "dist-schedule-pipeline",
    summary: "Run a per-device step's microbatches (dist-split-microbatches) one after another in the order of a \
              pipeline schedule, summing what the step sums over them",
    description: r#"`dist-schedule-pipeline`: for each function marked
`dist.microbatch_axis = "<axis>"` by `dist-split-microbatches` and
partitioned since (`dist-lower-to-local`), so that the function is one
microbatch's step, writes the step of all the microbatches: their work one
after another on each device, in the order `schedule=` gives (`gpipe`: every
forward, then every backward; `1f1b` and `zb-h1`: each microbatch's
backward right after its forward, one microbatch's activations live at a
time), with the microbatch axis gone.

- The ops that read no data argument run once, first (a weight's transpose).
- The ops that read a data argument, or what was computed from one, run
  once per microbatch on its slice (`dist.slice`) of the whole data
  argument: the forward (F), what the loss, the first result, depends on,
  and the backward (B and W, as `dist-pipeline-report` tells them apart)
  are each outlined as a private function `@<step>__f` (`__b`, `__w`) that
  each microbatch calls, compiled once whatever their number.
- An all-reduce over the microbatch axis (`dist.all_reduce`,
  `dist.all_reduce_coalesced`, `dist.all_reduce_start`) becomes a running
  sum (maximum, minimum) over the microbatches, as each one's operand is
  computed, and then an all-reduce over its other axes, if any; an
  average is the sum over the count. Everything that reads its result
  runs once, last: a parameter's gradient summed over the microbatches
  then over `dp`, once, and the optimizer update after it.
- An op linear in its operands (`dist.add`, `sub`, `neg`, `scale`,
  `reshape`, `transpose`, a synchronous sum over mesh axes) that
  reads no data argument, computes no result and is read only by such
  sums (or by other such ops) runs once too, on the sums of its operands:
  a gradient's reduce-scatter over `dp` (ZeRO) once a step.
- A result split over the microbatch axis is the microbatches' results
  concatenated (`dist.concat`); one partial over it is summed.

The step so computes what it computed on the mesh with the microbatch
axis, where each microbatch had a device of its own: with a batch mean
as the loss, the loss and the gradients of the whole batch. The mesh loses
the axis; the data arguments, their layouts and the results take their
types and layouts without it.

Errors, on the op at fault: an op that reads one microbatch's value and a
sum over all of them (a batch norm's statistics: the microbatches depend
on each other), any other collective over the microbatch axis or a device
index along it, a result that is one microbatch's value without a layout
that splits or sums it over the axis, a data argument summed over the
axis as it is, a body of several blocks, the mark on a declaration.

Stages: a function with `dist.stage_boundary` ops on a mesh whose `axis=`
(default `pp`) has `p > 1` devices becomes `p` private functions
`@<step>_stage<s>`, each running its stage's work (stage assignment as in
`dist-pipeline-report`) in that stage's order of the schedule (checked
before it is written), and the step a `scf.index_switch` on the device's
coordinate along the axis that calls its stage's function. A
microbatch's boundary value is sent (`dist.send`, not waiting) to the
neighbouring stage right after it is computed and received (`dist.recv`)
where that stage first reads it; a tag per value and microbatch pairs
them. The sums over the microbatches that another stage reads (a tied
embedding's gradient) and what is computed after them are sent once,
after the microbatches, the sums first. What reads no data is computed by
every stage that reads it. A result that one stage computes is zero on
the others and partial (sum) over the axis. Refused: a microbatch's value
read on another stage without a boundary between neighbouring stages (a
skip connection), a value of another stage read inside an op's regions,
boundaries at another depth than the stage count needs, and more
transfers than MPI's 32768 tags.

Preconditions: after `dist-split-microbatches` and `dist-lower-to-local`
(before `dist-lower-to-cpu`); the microbatch axis is the mesh's last.

Before (one microbatch's step; 2 microbatches on the axis `mb`):
```mlir
dist.mesh @mesh = <["dp"=2, "mb"=2]>
func.func @step(%x: tensor<2x8xf32> {dist.local = #dist.sharding<@mesh, [{"dp", "mb"}, {}]>},
                %w: tensor<8x8xf32> {dist.local = #dist.sharding<@mesh, [{}, {}]>})
    -> tensor<8x8xf32> attributes {dist.microbatch_axis = "mb"} {
  %dw = dist.matmul %x, %x {transpose_x} : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<8x8xf32>
  %g = dist.all_reduce %dw on @mesh axes = ["dp", "mb"] kind = sum : tensor<8x8xf32> -> tensor<8x8xf32>
  %w2 = dist.sub %w, %g : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %w2 : tensor<8x8xf32>
}
```
After:
```mlir
dist.mesh @mesh = <["dp"=2]>
func.func @step(%x: tensor<4x8xf32> {dist.local = #dist.sharding<@mesh, [{"dp"}, {}]>}, ...) {
  %x0 = dist.slice %x {offsets = array<i64: 0, 0>, sizes = array<i64: 2, 8>} : ...
  %dw0 = dist.matmul %x0, %x0 {transpose_x} : ...
  %x1 = dist.slice %x {offsets = array<i64: 2, 0>, sizes = array<i64: 2, 8>} : ...
  %dw1 = dist.matmul %x1, %x1 {transpose_x} : ...
  %sum = dist.add %dw0, %dw1 : ...
  %g = dist.all_reduce %sum on @mesh axes = ["dp"] kind = sum : ...
  %w2 = dist.sub %w, %g : ...
```
"#,
    anchor: "builtin.module",
    options: SchedulePipelineOptions::info,
    dialects: &["scf", "func", "arith"],
    create: || Box::new(SchedulePipeline::default()),
};

impl DistPass for SchedulePipeline {
    fn options(&mut self) -> Option<&mut dyn PassOptions> {
        Some(&mut self.options)
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let functions: Vec<_> = body_ops(module)
            .into_iter()
            .filter_map(|op| FunctionOpRef::try_from(op).ok())
            .filter(|f| attribute(&f.operation(), MICROBATCH_AXIS).is_some())
            .collect();
        if let Some(declaration) = functions
            .iter()
            .find(|f| f.operation().region_at(0).and_then(|r| r.first_block()).is_none())
        {
            return Err(Located::at(
                &declaration.operation(),
                format!("{MICROBATCH_AXIS} marks a function without a body: there is no step to schedule"),
            )
            .into());
        }
        let mut meshes: Vec<(String, String)> = Vec::new();
        for function in &functions {
            let operation = function.operation();
            let axis = string_attribute(&operation, MICROBATCH_AXIS)
                .filter(|a| !a.is_empty())
                .ok_or_else(|| Located::at(&operation, format!("{MICROBATCH_AXIS} must name a mesh axis")))?;
            let (stage_options, trace_jobs) = (&self.options.stages, self.options.trace_jobs);
            let step = Step::read(*function, &axis, stage_options)?;
            let mesh = match step.placement.as_ref().map(|p| p.count) {
                Some(count) => dispatch::split(module, *function, count, &axis, stage_options, trace_jobs)?,
                None => step.unroll(None, trace_jobs)?,
            };
            remove_attribute(operation, MICROBATCH_AXIS);
            if !meshes.contains(&(mesh.clone(), axis.clone())) {
                meshes.push((mesh, axis));
            }
        }
        for (mesh, axis) in meshes {
            remove_axis(&module, &functions[0].operation(), &mesh, &axis)?;
        }
        Ok(())
    }
}

/// Where a microbatch's value goes besides its users in the microbatch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Sink {
    /// Operand `operand` of the all-reduce `op` over the microbatch axis.
    Reduce { op: usize, operand: usize },
    /// Result `index`, partial over the microbatch axis.
    SumResult { index: usize },
    /// Result `index`, split over the microbatch axis along `dim`.
    ConcatResult { index: usize, dim: usize },
}

/// A microbatch's step, read.
struct Step<'c, 'a> {
    function: FunctionOpRef<'c, 'a>,
    body: Body<'c, 'a>,
    classes: Vec<Class>,
    phases: Vec<Phase>,
    plan: Plan,
    /// The microbatch axis and its size.
    axis: String,
    microbatches: usize,
    mesh: String,
    /// Per argument, the dim a data argument is split along over the axis.
    data_dims: Vec<Option<usize>>,
    /// Per op, whether it runs once on its operands' sums over the
    /// microbatches ([`microbatches::push_down`]).
    pushed: Vec<bool>,
    /// The results of those ops: sums over the microbatches already.
    summed: FxHashSet<*const c_void>,
    /// The stages, for a step with boundaries on a mesh of several.
    placement: Option<Placement>,
    /// The sinks reading each value (by its handle).
    sinks: FxHashMap<*const c_void, Vec<(Sink, ReductionKind)>>,
}

fn key(value: Value<'_, '_>) -> *const c_void {
    value.to_raw().ptr
}

fn without(axes: &[String], axis: &str) -> Vec<String> {
    axes.iter().filter(|a| *a != axis).cloned().collect()
}

/// The data arguments of a step and the mesh they are split on.
struct DataSplit {
    /// Each argument's dim split over the microbatch axis, if it is data.
    data_dims: Vec<Option<usize>>,
    mesh: String,
    model: Mesh,
    microbatches: usize,
}

/// How `function`'s data arguments are split over the microbatch `axis`.
fn microbatch_axis<'c>(function: FunctionOpRef<'c, '_>, axis: &str) -> Result<DataSplit, Located<'c>> {
    let operation = function.operation();
    let arguments: Vec<Option<Sharding>> = (0..function.num_arguments())
        .map(|i| function.argument_attribute(i, attr::LOCAL).and_then(sharding_of))
        .collect();
    let data_dims: Vec<Option<usize>> = arguments
        .iter()
        .map(|s| {
            s.as_ref()
                .and_then(|s| s.dims.iter().position(|d| d.iter().any(|a| a == axis)))
        })
        .collect();
    let mesh = arguments
        .iter()
        .flatten()
        .zip(&data_dims)
        .find(|(_, d)| d.is_some())
        .map(|(s, _)| s.mesh.clone())
        .ok_or_else(|| {
            Located::at(
                &operation,
                format!(
                    "no argument is split over the microbatch axis \"{axis}\": run dist-lower-to-local after \
                     dist-split-microbatches first"
                ),
            )
        })?;
    let model = MeshOpRef::lookup(&operation, &mesh)
        .and_then(|m| m.to_model().ok())
        .ok_or_else(|| Located::at(&operation, format!("no dist.mesh @{mesh} is visible here")))?;
    let microbatches = model
        .axis_size(axis)
        .map_err(|e| Located::at(&operation, e.to_string()))? as usize;
    if model.axes().last().map(|a| a.name.as_str()) != Some(axis) {
        return Err(Located::at(
            &operation,
            format!("the microbatch axis \"{axis}\" is not the mesh's last (dist-split-microbatches adds it last)"),
        ));
    }
    Ok(DataSplit {
        data_dims,
        mesh,
        model,
        microbatches,
    })
}

/// What the microbatch split needs to know of each op of the step: its
/// inputs, whether it reads data, its role over the microbatch `axis`.
fn microbatch_ops(
    function: FunctionOpRef<'_, '_>,
    body: &Body<'_, '_>,
    data_dims: &[Option<usize>],
    axis: &str,
) -> Vec<microbatches::Op> {
    let operation = function.operation();
    let entry = operation
        .region_at(0)
        .and_then(|r| r.first_block())
        .expect("a function with a body");
    let is_data = |v: Value<'_, '_>| {
        block_argument_of(v).is_some_and(|a| a.owner() == entry && data_dims[a.argument_number()].is_some())
    };
    body.ops
        .iter()
        .zip(&body.nodes)
        .map(|(op, node)| {
            let mut reads_data = false;
            let mut role = if is_linear(op) { Role::Linear } else { Role::Compute };
            walk_preorder(op, |nested| {
                reads_data |= nested.operands().any(is_data);
                if axis_names(&nested).iter().any(|a| a == axis) {
                    role = role_over_axis(&nested, nested == *op);
                }
                WalkResult::Advance
            });
            microbatches::Op {
                inputs: node.inputs.clone(),
                reads_data,
                role,
            }
        })
        .collect()
}

/// The class of each op over the microbatches (see `microbatches::classify`).
fn classify<'c>(body: &Body<'c, '_>, ops: &[microbatches::Op]) -> Result<Vec<Class>, Located<'c>> {
    microbatches::classify(ops).map_err(|e| {
        let op = &body.ops[e.op()];
        match e {
            microbatches::MicrobatchError::Mixed { sum, .. } => {
                let sum = &body.ops[sum];
                let line =
                    file_line_col(sum.location()).map_or(String::new(), |(_, line, _)| format!(" on line {line}"));
                Located::at(op, format!("{e}: the sum is the {}{line}", op_name(sum)))
            }
            _ => Located::at(op, e.to_string()),
        }
    })
}

/// The positions in the body of the ops whose results the step returns.
fn step_results(function: FunctionOpRef<'_, '_>, body: &Body<'_, '_>) -> Vec<usize> {
    let operation = function.operation();
    let terminator = operation
        .region_at(0)
        .and_then(|r| r.first_block())
        .and_then(|b| b.terminator());
    let operands: Vec<_> = terminator.map(|t| t.operands().collect()).unwrap_or_default();
    operands
        .into_iter()
        .filter_map(|v| dist_dialect::ir::op_result(v).and_then(|r| body.position(&r.owner())))
        .collect()
}

impl<'c, 'a> Step<'c, 'a> {
    fn read(function: FunctionOpRef<'c, 'a>, axis: &str, options: &StageOptions) -> Result<Self, Located<'c>> {
        let operation = function.operation();
        let DataSplit {
            data_dims,
            mesh,
            model,
            microbatches,
        } = microbatch_axis(function, axis)?;
        let body = Body::read(function)?;
        // Without boundaries every device runs the whole step, whatever
        // the stage axis.
        let stages = model.axis_size(&options.axis.0).map_or(1, |s| s as usize);
        let assignment = if body.has_boundaries() && stages > 1 {
            Some(stages::assign(&body.nodes, body.loss, stages).map_err(|e| Located::at(&operation, e.to_string()))?)
        } else {
            None
        };
        let ops = microbatch_ops(function, &body, &data_dims, axis);
        let mut classes = classify(&body, &ops)?;
        let results = step_results(function, &body);
        let pushed = microbatches::push_down(&ops, &mut classes, &results);
        let summed = body
            .ops
            .iter()
            .zip(&pushed)
            .filter(|(_, p)| **p)
            .flat_map(|(op, _)| op.results().map(|r| key(r.into())))
            .collect();
        let (phases, backward, plan_stages) = match &assignment {
            Some(a) => (a.phase.clone(), a.training, a.stages),
            None => {
                let phases = microbatches::phases(&ops, &classes, body.loss);
                let backward = classes
                    .iter()
                    .zip(&phases)
                    .any(|(&c, &p)| c == Class::Each && p == Phase::W);
                (phases, backward, 1)
            }
        };
        if options.schedule == Schedule::Interleaved {
            return Err(Located::at(
                &operation,
                "schedule interleaved-1f1b (model chunks on each device) is modelled by dist-pipeline-report \
                 (virtual-stages=), not written by dist-schedule-pipeline: use gpipe, 1f1b or zb-h1",
            ));
        }
        let plan = if backward {
            Plan::new(options.schedule, plan_stages, 1, microbatches)
        } else {
            Plan::forward(options.schedule, plan_stages, 1, microbatches)
        }
        .map_err(|e| Located::at(&operation, e.to_string()))?;
        plan.check().map_err(|e| Located::at(&operation, e.to_string()))?;
        let mut step = Self {
            function,
            body,
            classes,
            phases,
            plan,
            axis: axis.to_owned(),
            microbatches,
            mesh,
            data_dims,
            pushed,
            summed,
            placement: None,
            sinks: FxHashMap::default(),
        };
        step.find_sinks()?;
        if let Some(assignment) = assignment {
            step.placement = Some(Placement::new(&step, assignment, &options.axis.0)?);
        }
        Ok(step)
    }

    /// Whether `value` is an argument split over the microbatches.
    fn is_data_argument(&self, value: Value<'c, 'a>) -> bool {
        let entry = self.function.operation().region_at(0).and_then(|r| r.first_block());
        block_argument_of(value)
            .is_some_and(|a| Some(a.owner()) == entry && self.data_dims[a.argument_number()].is_some())
    }

    /// Whether `value` differs between microbatches.
    fn per_microbatch(&self, value: Value<'c, 'a>) -> bool {
        self.is_data_argument(value)
            || dist_dialect::ir::op_result(value)
                .and_then(|r| self.body.position(&r.owner()))
                .is_some_and(|i| self.classes[i] == Class::Each)
    }

    /// The reductions over the axis and the results each microbatch's
    /// values flow into.
    fn find_sinks(&mut self) -> Result<(), Located<'c>> {
        let mut sinks: FxHashMap<*const c_void, Vec<(Sink, ReductionKind)>> = FxHashMap::default();
        for (i, op) in self.body.ops.iter().enumerate() {
            let kind = if self.pushed[i] {
                ReductionKind::Sum
            } else if self.classes[i] == Class::After && axis_names(op).contains(&self.axis) {
                kind_of(op).ok_or_else(|| Located::at(op, "an all-reduce without a reduction kind"))?
            } else {
                continue;
            };
            for (operand, value) in op.operands().enumerate() {
                if self.is_data_argument(value) {
                    return Err(Located::at(
                        op,
                        format!("sums data argument operand #{operand} over the microbatches as it is: no op reads it"),
                    ));
                }
                sinks
                    .entry(key(value))
                    .or_default()
                    .push((Sink::Reduce { op: i, operand }, kind));
            }
        }
        let terminator = self.terminator();
        for (index, value) in terminator.operands().enumerate() {
            if !self.per_microbatch(value) {
                continue;
            }
            let layout = self.function.result_attribute(index, attr::LOCAL).and_then(sharding_of);
            let partial = layout
                .as_ref()
                .and_then(|s| s.partial.as_ref())
                .filter(|p| p.axes.contains(&self.axis));
            let split = layout
                .as_ref()
                .and_then(|s| s.dims.iter().position(|d| d.contains(&self.axis)));
            let sink = match (partial, split) {
                (Some(_), _) if self.is_data_argument(value) => {
                    return Err(Located::at(
                        &terminator,
                        format!("result #{index} sums a data argument over the microbatches as it is"),
                    ));
                }
                (Some(p), _) => (Sink::SumResult { index }, p.kind),
                (None, Some(dim)) => (Sink::ConcatResult { index, dim }, ReductionKind::Sum),
                (None, None) => {
                    return Err(Located::at(
                        &terminator,
                        format!(
                            "result #{index} is one microbatch's value, but its layout neither splits it nor sums it \
                             over \"{}\"",
                            self.axis
                        ),
                    ));
                }
            };
            sinks.entry(key(value)).or_default().push(sink);
        }
        self.sinks = sinks;
        Ok(())
    }

    fn terminator(&self) -> OperationRef<'c, 'a> {
        let entry = self.function.operation().region_at(0).and_then(|r| r.first_block());
        entry
            .and_then(|b| b.terminator())
            .expect("a function body ends in its return")
    }

    /// Rewrites the function into the step of all microbatches on stage
    /// `stage` (of a step with stages; the whole step without); the mesh
    /// whose axis it no longer uses.
    fn unroll(self, stage: Option<usize>, trace_jobs: bool) -> Result<String, Located<'c>> {
        let on_stage = |i: usize| match (&self.placement, stage) {
            (Some(p), Some(s)) => p.stage[i] == s,
            _ => true,
        };
        // Each part of a microbatch's work as a function of its own.
        let mut jobs = Vec::new();
        // Each function goes right after the step: the last first.
        for phase in [Phase::W, Phase::B, Phase::F] {
            let ops: Vec<usize> = (0..self.body.ops.len())
                .filter(|&i| self.classes[i] == Class::Each && self.phases[i] == phase && on_stage(i))
                .collect();
            let outlined = if ops.is_empty() {
                None
            } else {
                Some(job::Job::outline(&self, &ops, &format!("{phase:?}").to_lowercase()))
            };
            jobs.push((phase, outlined));
        }
        let mut writer = Writer::new(&self, stage, trace_jobs)?;
        debug_assert_eq!(self.plan.virtual_stages, 1, "interleaved plans are refused before");
        for job in &self.plan.stages[stage.unwrap_or(0)] {
            if let Some((_, Some(outlined))) = jobs.iter().find(|(phase, _)| *phase == job.phase) {
                writer.emit(&self, outlined, job.phase as i64, job.microbatch)?;
            }
        }
        writer.finish(&self)?;
        Ok(self.mesh)
    }
}

/// What an op that names the microbatch axis does with it; `top` for an
/// op of the body itself (a nested op is never a reduction the pass can
/// rewrite).
fn role_over_axis(op: &OperationRef<'_, '_>, top: bool) -> Role {
    match DistOp::of(op) {
        Some(DistOp::AllReduce | DistOp::AllReduceCoalesced | DistOp::AllReduceStart) if top => Role::Reduce {
            sum: kind_of(op) == Some(ReductionKind::Sum),
        },
        Some(DistOp::AxisIndex) => Role::Mixes("reads the device's index along the microbatch axis"),
        _ => Role::Mixes(
            "a collective over the microbatch axis other than an all-reduce moves data between microbatches",
        ),
    }
}

fn kind_of(op: &OperationRef<'_, '_>) -> Option<ReductionKind> {
    attribute(op, attr::KIND).and_then(reduction_kind)
}

/// Whether `op` is linear in its operands, so that the sum of its results
/// over the microbatches is its result of the sums: what its description
/// says (`OpSpec::commutes_with_sums`), or a synchronous sum over mesh
/// axes. An async one is not: its handle is no tensor to sum.
fn is_linear(op: &OperationRef<'_, '_>) -> bool {
    let Some(kind) = DistOp::of(op) else {
        return false;
    };
    if matches!(
        CollectiveKind::of(kind),
        Some(CollectiveKind::AllReduce | CollectiveKind::ReduceScatter)
    ) {
        // A start's handle is no tensor to sum.
        return !kind.is_async_start() && kind_of(op) == Some(ReductionKind::Sum);
    }
    ops::spec(kind).is_some_and(|s| s.commutes_with_sums())
}

fn layout_attribute<'c>(location: Location<'c>, layout: &Sharding) -> Result<Attribute<'c>, Located<'c>> {
    ShardingAttribute::new(location, layout)
        .map(|a| a.attribute())
        .map_err(|e| Located::new(location, e.to_string()))
}

/// Removes the microbatch axis `axis`, the last, from the mesh `name`.
fn remove_axis<'c>(
    module: &OperationRef<'c, '_>,
    from: &OperationRef<'c, '_>,
    name: &str,
    axis: &str,
) -> Result<(), Located<'c>> {
    let mesh = MeshOpRef::lookup(from, name).expect("the function's mesh was found");
    let model = mesh
        .to_model()
        .map_err(|e| Located::at(&mesh.operation(), e.to_string()))?;
    let axes = model.axes();
    debug_assert_eq!(axes.last().map(|a| a.name.as_str()), Some(axis), "checked when read");
    let size = axes.last().map_or(1, |a| a.size);
    let kept: Vec<(String, i64)> = axes[..axes.len() - 1]
        .iter()
        .map(|a| (a.name.clone(), a.size))
        .collect();
    let devices = model
        .explicit_devices()
        .map(|ids| ids.iter().step_by(size as usize).map(|d| d / size).collect::<Vec<_>>());
    set_mesh_axes(module, &mesh, &kept, devices.as_deref());
    Ok(())
}
