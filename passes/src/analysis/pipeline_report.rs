//! The `dist-pipeline-report` pass. Its documentation (what it does, preconditions, before
//! and after) is [`INFO`]'s description: `dist-opt --help-passes` prints it
//! and docs/passes.md holds it.

use super::collectives::{CommReader, DeviceGroups};
use super::overlap_report::{MachineOptions, compute_seconds, micros};
use super::table::table;
use crate::error::PassError;
use crate::pass::options::{PassOptions, Positive};
use crate::pass::{DistPass, PassInfo};
use crate::pipeline::schedule::{Costs, Job, Phase, Plan, Timeline, peak_held, peak_live};
use crate::pipeline::stages::{self, Assignment};
use crate::pipeline::{Body, Options};
use crate::vocabulary::comm::CollectiveKind;
use dist_dialect::ir::{FunctionOpRef, Located, OperationExt, block_argument, body_ops, op_result, symbol_name, users};
use melior::ir::operation::OperationLike;
use melior::ir::{OperationRef, Value, ValueLike};
use rustc_hash::{FxHashMap, FxHashSet};
use std::fmt::Write;
use std::rc::Rc;

crate::pass::options::pass_options! {
    /// How the step is pipelined, on which machine.
    pub struct PipelineReportOptions {
        virtual_stages: Positive = "virtual-stages", "1", "Model chunks each device holds under interleaved-1f1b: the boundaries make stages x virtual-stages logical stages, logical stage c p + d chunk c of device d";
        @group pipeline: Options;
        @group machine: MachineOptions;
    }
}

#[derive(Debug, Default)]
pub struct PipelineReport {
    options: PipelineReportOptions,
}

pub const INFO: PassInfo = PassInfo {
    argument: "dist-pipeline-report",
    summary: "Print each function's pipeline schedule: per stage the order of its F, B and W work per microbatch, the \
              microbatches it holds and the modelled bubble (to stderr)",
    description: r#"`dist-pipeline-report`: for each function with
`dist.stage_boundary` ops, the pipeline that `microbatches=`, `schedule=`
and `axis=` describe, as the cost model of `dist-overlap-report` times it.

Work: the forward (F) is what the loss, the first result, depends on; a
boundary outside it is one of the backward, and a function with one is
a training step. Of the backward, the input-gradient work (B) is what a
boundary of the backward depends on, the previous stage waiting for it,
and the weight-gradient work (W) everything else (parameter gradients and
updates).

Stages: after k boundaries on its longest path from the arguments an op
of the forward is on stage k; a training step's backward crosses the
boundaries again (the gradient of a boundary is a boundary), so after
`p - 1 + k` of them an op is on stage `p - 1 - k`. An op that reads
only arguments and constants runs where its first user does: a
parameter's transpose that only a later stage reads belongs to that
stage. The stage count `p` is the size of the mesh axis `axis` (default
`pp`) on the mesh of the function's arguments, times `virtual-stages`
(the logical stages of interleaved 1F1B); boundaries that lie
another depth than `p - 1` (a forward program) or `2(p - 1)` (a training
step) deep, a first result no op computes and a body of several blocks
are errors. An op with regions is placed by everything it reads, its
nested ops' reads included, and timed at the cost of its own operands
and results.

Time: a microbatch's F, B and W on a stage take 1/`microbatches` of the
model's time of their ops (the overlap report's cost model on its
cluster: compute by roofline, collectives by ring bytes over the link
level their groups span); the values crossing the boundaries between two
stages take `latency + bytes / link` each way, across nodes where some
device of the stage and its peer on the next stage are on two nodes. A value read on another stage without
a boundary (a skip connection, the two halves of a tied embedding's
gradient) is not charged; a line counts them. GPipe and 1F1B run B and W of a microbatch as
one backward and send the gradient when both have run; ZB-H1 sends after
B and defers W into the bubbles. Interleaved 1F1B (`virtual-stages=v`
model chunks a device) reads the boundaries as `p v` logical stages,
logical stage `c p + d` chunk `c` on device `d`, and each row is a
device: its chunks' times summed, `F3.1` microbatch 3 on chunk 1. A
forward program runs each stage's F in microbatch order, whatever the
schedule.

Per stage: its op count, the F, B and W time of one microbatch, the
transfer to the next stage, the most microbatches whose activations it
holds at once (F run, W not yet), its bytes per device, and its order of
work. The bytes: `state_B` the arguments the stage reads first
(parameters, optimizer states, its data; a parameter two stages read
counts on the first) and the backward values it returns (gradients,
accumulated over the microbatches, or with an optimizer the updated
parameters and states), `stash_B` the forward values of one microbatch
its backward reads (held by the stage that reads them), and `peak_B` the
state and the stash of the live microbatches together. Left out: the
working set of the op running, and what B leaves for a deferred W.
Then the step time and the bubble: the time the stages wait over the
time they compute (Qi et al.'s bubble rate: `(p - 1) / m` for 1F1B and
`(p - 1) / 3m` for ZB-H1 when F, B and W take equal times; `n/a` when
nothing computes).

Run `dist-split-matmul-grad{split=all}` first: a `dist.matmul_grad`
computes both gradients at once, all of it B.

Example (`dist-gen gpt --layers 4 --pp 2 --dp 1 --tp 1 --batch 8 --seq 512
--heads 16 --head-dim 64 --vocab 2048 --forward-only | dist-opt -
--dist-append-backward --dist-propagate-sharding --dist-split-matmul-grad=split=all
--dist-pipeline-report="microbatches=4 schedule=zb-h1" -o /dev/null`):
```text
// dist-pipeline-report @gpt_step: 2 stages on "pp", 4 microbatches, zb-h1; gemm 495 TFLOP/s (bf16 990, f64 67), memory 3350 GB/s; 8 devices a node, link 360 GB/s 10 us in a node, 45 GB/s 20 us across
//  stage  ops     F_us     B_us     W_us  send_us  live    state_B    stash_B     peak_B  order
//  0      160  321.365    0.000  563.212   21.651     2  218267648  251691008  721649664  F0 F1 B0 W0 F2 B1 W1 F3 B2 W2 B3 W3
//  1      173  348.197  504.705  112.797              2  235028480  285253632  805535744  F0 B0 F1 B1 W1 F2 B2 W2 F3 B3 W3 W0
// values read on another stage without a boundary: 1 (2097152 bytes a microbatch), not charged
// step 4565.078 us, compute 3700.551 us a stage; bubble 0.2336 (idle / compute)
```
"#,
    anchor: "builtin.module",
    options: PipelineReportOptions::info,
    dialects: &[],
    create: || Box::new(PipelineReport::default()),
};

impl DistPass for PipelineReport {
    fn options(&mut self) -> Option<&mut dyn PassOptions> {
        Some(&mut self.options)
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let mut text = String::new();
        for op in body_ops(module) {
            if let Ok(function) = FunctionOpRef::try_from(op) {
                self.report(function, &mut text)?;
            }
        }
        eprint!("{text}");
        Ok(())
    }
}

impl PipelineReport {
    fn report<'c>(&self, function: FunctionOpRef<'c, '_>, out: &mut String) -> Result<(), Located<'c>> {
        let operation = function.operation();
        let body = Body::read(function)?;
        let symbol = symbol_name(&operation);
        if !body.has_boundaries() {
            if !body.ops.is_empty() {
                let _ = writeln!(out, "// dist-pipeline-report @{symbol}: no stage boundaries");
            }
            return Ok(());
        }
        let at_function = |message: String| Located::at(&operation, message);
        let stages = Body::stages(function, &self.options.pipeline.stages.axis.0)?;
        let chunks = self.options.virtual_stages.0;
        let assignment =
            stages::assign(&body.nodes, body.loss, stages * chunks).map_err(|e| at_function(e.to_string()))?;
        let pipeline = &self.options.pipeline;
        let (schedule, microbatches) = (pipeline.stages.schedule, pipeline.microbatches.0);
        let plan = if assignment.training {
            Plan::new(schedule, stages, chunks, microbatches)
        } else {
            Plan::forward(schedule, stages, chunks, microbatches)
        }
        .map_err(|e| at_function(e.to_string()))?;
        plan.check().map_err(|e| at_function(e.to_string()))?;
        // One reader for the three passes over the body: it keeps the meshes.
        let mut reader = CommReader::default();
        let costs = self.costs(function, &body, &assignment, &mut reader);
        let memory = memory(function, &body, &assignment, &mut reader);
        let timeline = plan.simulate(&costs).map_err(|e| at_function(e.to_string()))?;
        let virtual_stages = if chunks > 1 {
            format!(" ({chunks} model chunks each: {} logical stages)", stages * chunks)
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "// dist-pipeline-report @{symbol}: {stages} stages on \"{}\"{virtual_stages}, {microbatches} microbatches, {}; {}",
            pipeline.stages.axis.0,
            if assignment.training {
                schedule.name()
            } else {
                "a forward program"
            },
            self.options.machine.machine()
        );
        let header = [
            "stage", "ops", "F_us", "B_us", "W_us", "send_us", "live", "state_B", "stash_B", "peak_B", "order",
        ];
        let share = microbatches as u64;
        // A device's logical stages: its chunks.
        let logical = |d: usize| (0..chunks).map(move |c| c * stages + d);
        let rows: Vec<Vec<String>> = (0..stages)
            .map(|d| {
                let order = &plan.stages[d];
                let stash: Vec<u64> = logical(d).map(|l| memory[l].stash.div_ceil(share)).collect();
                let state: u64 = logical(d).map(|l| memory[l].state).sum();
                let sum = |times: &[f64]| micros(logical(d).map(|l| times[l]).sum());
                let sends: Vec<f64> = logical(d).filter_map(|l| costs.forward.get(l).copied()).collect();
                vec![
                    d.to_string(),
                    assignment
                        .stage
                        .iter()
                        .filter(|&&t| t % stages == d)
                        .count()
                        .to_string(),
                    sum(&costs.f),
                    sum(&costs.b),
                    sum(&costs.w),
                    if sends.is_empty() {
                        String::new()
                    } else {
                        micros(sends.iter().sum())
                    },
                    live(order, assignment.training).to_string(),
                    state.to_string(),
                    stash.iter().sum::<u64>().to_string(),
                    (state + peak_stash(order, &stash, assignment.training)).to_string(),
                    order.iter().map(ToString::to_string).collect::<Vec<_>>().join(" "),
                ]
            })
            .collect();
        out.push_str(&table(&header, &rows, &[1, 2, 3, 4, 5, 6, 7, 8, 9]));
        let (count, bytes) = unmarked_crossings(function, &body, &assignment, &mut reader);
        if count > 0 {
            let _ = writeln!(
                out,
                "// values read on another stage without a boundary: {count} ({} bytes a microbatch), not charged",
                bytes.div_ceil(share)
            );
        }
        let _ = writeln!(out, "{}", summary(&timeline));
        Ok(())
    }

    /// One microbatch's F, B and W time on each stage, and the time of the
    /// values that cross the boundaries between two stages, each way.
    fn costs(
        &self,
        function: FunctionOpRef<'_, '_>,
        body: &Body<'_, '_>,
        assignment: &Assignment,
        reader: &mut CommReader,
    ) -> Costs {
        let stages = assignment.stages;
        let share = 1.0 / self.options.pipeline.microbatches.0 as f64;
        let machine = self.options.machine.machine();
        let mut costs = Costs::uniform(stages, 0.0, 0.0, 0.0, 0.0);
        // The groups over the stage axis: member s of each is on stage s.
        let axis = &self.options.pipeline.stages.axis.0;
        let stage_groups = Body::stage_mesh(function, axis)
            .ok()
            .and_then(|mesh| Some(reader.groups(&mesh, &[mesh.axis_index(axis)?])))
            .unwrap_or_default();
        let stage_of: FxHashMap<i64, usize> = stage_groups
            .iter()
            .flat_map(|g| g.iter().enumerate().map(|(s, &d)| (d, s)))
            .collect();
        // Logical stage l runs on device l % devices.
        let devices = stages / self.options.virtual_stages.0;
        // Whether a collective's groups on a device cross nodes (those of
        // other devices may where these do not), by groups and device.
        let mut crosses_on: FxHashMap<(usize, usize), (DeviceGroups, bool)> = FxHashMap::default();
        // Bytes crossing between stage s and s + 1, forward and back.
        let mut crossing = vec![[0_u64; 2]; stages.saturating_sub(1)];
        for (i, &op) in body.ops.iter().enumerate() {
            let stage = assignment.stage[i];
            let device = stage % devices;
            let seconds = match reader.collective(op, function) {
                Some(c) if c.kind != CollectiveKind::AllSlice => {
                    let groups = c.device_groups;
                    let (_, crosses) = crosses_on
                        .entry((Rc::as_ptr(&groups) as usize, device))
                        .or_insert_with(|| {
                            let crosses = groups
                                .iter()
                                .filter(|g| g.first().is_some_and(|d| stage_of.get(d).is_none_or(|&s| s == device)))
                                .any(|g| machine.spans_nodes(g));
                            (Rc::clone(&groups), crosses)
                        });
                    machine.collective(c.bytes, *crosses)
                }
                _ => compute_seconds(&machine, op, function, reader),
            };
            *costs.of_mut(stage, assignment.phase[i]) += seconds * share;
            if body.nodes[i].boundary {
                let Some(x) = op.operand_at(0) else { continue };
                let bytes = reader.local_bytes(x, function, &op).unwrap_or(0);
                let (link, forward) = assignment.link(assignment.level[i]);
                crossing[link][usize::from(!forward)] += bytes;
            }
        }
        // Whether the link from each logical stage to the next crosses
        // nodes: where some device of the one and its peer on the next (its
        // group's member over the stage axis) are on two nodes.
        let crosses = |link: usize| {
            let (from, to) = (link % devices, (link + 1) % devices);
            stage_groups
                .iter()
                .any(|g| g.len() > from.max(to) && machine.node(g[from]) != machine.node(g[to]))
        };
        // Chunks of one device (a single device's) hand their values over
        // in its memory.
        let seconds = |bytes: u64, link: usize| {
            if link % devices == (link + 1) % devices {
                0.0
            } else {
                machine.collective((bytes as f64 * share).ceil() as u64, crosses(link))
            }
        };
        costs.forward = crossing.iter().enumerate().map(|(l, c)| seconds(c[0], l)).collect();
        costs.backward = crossing.iter().enumerate().map(|(l, c)| seconds(c[1], l)).collect();
        costs
    }
}

/// The values an op reads from an op of another stage, not a boundary (a
/// skip connection, a tied parameter's gradient halves): how many, and
/// their bytes for the whole batch, each counted once per reading stage.
fn unmarked_crossings(
    function: FunctionOpRef<'_, '_>,
    body: &Body<'_, '_>,
    assignment: &Assignment,
    reader: &mut CommReader,
) -> (usize, u64) {
    let mut seen = FxHashSet::default();
    let mut bytes = 0;
    for (i, op) in body.ops.iter().enumerate() {
        for value in op.operands() {
            let Some(def) = op_result(value).and_then(|r| body.position(&r.owner())) else {
                continue;
            };
            let stage = assignment.stage[i];
            if body.nodes[def].boundary || assignment.stage[def] == stage || !seen.insert((value.to_raw().ptr, stage)) {
                continue;
            }
            bytes += reader.local_bytes(value, function, op).unwrap_or(0);
        }
    }
    (seen.len(), bytes)
}

/// Bytes one device of a stage holds.
#[derive(Debug, Clone, Copy, Default)]
struct StageMemory {
    /// Its arguments (parameters, optimizer states, its data) and the
    /// gradients it returns, accumulated over the microbatches.
    state: u64,
    /// The forward values its backward reads, for the whole batch.
    stash: u64,
}

/// Each stage's [`StageMemory`]: an argument belongs to the stage of its
/// first reader, a forward value is stashed by each stage whose backward
/// reads it, a gradient the step returns belongs to the stage computing it.
fn memory(
    function: FunctionOpRef<'_, '_>,
    body: &Body<'_, '_>,
    assignment: &Assignment,
    reader: &mut CommReader,
) -> Vec<StageMemory> {
    let mut memory = vec![StageMemory::default(); assignment.stages];
    let Some(entry) = body.ops.first().and_then(|op| op.block()) else {
        return memory;
    };
    let mut bytes = |v: Value<'_, '_>, at: &OperationRef<'_, '_>| reader.local_bytes(v, function, at).unwrap_or(0);
    for i in 0..function.num_arguments() {
        let Some(argument) = block_argument(&entry, i) else {
            continue;
        };
        let first_reader = users(argument).iter().filter_map(|u| body.position(u)).min();
        if let Some(at) = first_reader {
            memory[assignment.stage[at]].state += bytes(argument.into(), &body.ops[at]);
        }
    }
    for (i, op) in body.ops.iter().enumerate() {
        let stage = assignment.stage[i];
        for result in op.results() {
            let readers = users(result);
            let size = bytes(result.into(), op);
            if assignment.phase[i] == Phase::F {
                // Kept by each stage whose backward reads it (received
                // from another stage, it is held where it arrived).
                let mut keepers: Vec<usize> = readers
                    .iter()
                    .filter_map(|u| body.position(u))
                    .filter(|&u| assignment.phase[u] != Phase::F)
                    .map(|u| assignment.stage[u])
                    .collect();
                keepers.sort_unstable();
                keepers.dedup();
                for keeper in keepers {
                    memory[keeper].stash += size;
                }
            } else if readers.iter().any(|u| body.position(u).is_none()) {
                memory[stage].state += size;
            }
        }
    }
    memory
}

/// The most microbatches whose activations a stage holds; a forward program
/// keeps none for a backward, one microbatch at a time.
fn live(order: &[Job], training: bool) -> usize {
    if training { peak_live(order) } else { 1 }
}

/// The most stashed bytes a device holds at once: each microbatch's
/// chunk `c` holds `stash[c]` from its F to its W (a forward program one
/// microbatch's at a time).
fn peak_stash(order: &[Job], stash: &[u64], training: bool) -> u64 {
    if !training {
        return stash.iter().copied().max().unwrap_or(0);
    }
    peak_held(order, |j| stash[j.chunk])
}

/// The last line: the step, the mean compute of a stage, the bubble (the
/// stages' idle time over their compute time, as `dist-run --trace`
/// measures it).
fn summary(timeline: &Timeline) -> String {
    let stages = timeline.stages.len();
    let compute = (0..stages).map(|s| timeline.busy(s)).sum::<f64>() / stages as f64;
    let bubble = timeline.bubble().map_or_else(
        || "n/a (nothing computes)".to_owned(),
        |b| format!("{b:.4} (idle / compute)"),
    );
    format!(
        "// step {} us, compute {} us a stage; bubble {bubble}",
        micros(timeline.makespan),
        micros(compute)
    )
}
