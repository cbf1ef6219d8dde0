//! Where each op of a step of several pipeline stages runs, and the
//! transfers between the stages, each with the tag that pairs its send and
//! its receive.
//!
//! A microbatch's value crosses stages only at a `dist.stage_boundary`,
//! to the neighbouring stage: the schedule's check knows those waits and
//! no others. The sums over the microbatches, and what is computed from
//! them, are sent once, after the microbatches. What reads no data (a
//! weight's transpose) is computed on every stage that reads it.

use super::{Sink, Step};
use crate::pipeline::microbatches::Class;
use crate::pipeline::stages::Assignment;
use dist_dialect::ir::{Located, file_line_col, op_name, op_result};
use melior::ir::operation::OperationLike;
use rustc_hash::FxHashMap;

/// The largest tag `dist.send` takes (its verifier's bound).
const MAX_TAG: i64 = 32767;

/// A stream of transfers between two stages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Channel {
    /// Result `1` of op `0`, once per microbatch (tag: the base plus the
    /// microbatch).
    Microbatch(usize, usize),
    /// The sum over the microbatches that a sink of another stage reads.
    Total(Sink),
    /// Result `1` of op `0`, which runs once, after the microbatches.
    Once(usize, usize),
}

/// The stages of a step.
pub(super) struct Placement {
    /// The mesh axis whose coordinates are the stages, and their count.
    pub(super) axis: String,
    pub(super) count: usize,
    /// Per op, its stage.
    pub(super) stage: Vec<usize>,
    /// Each transfer's first tag and the stages that receive it.
    pub(super) channels: FxHashMap<Channel, (i64, Vec<usize>)>,
    /// Per result, the stage that computes it (`None`: every stage, as for
    /// an argument or what reads no data).
    pub(super) results: Vec<Option<usize>>,
}

impl Placement {
    pub(super) fn new<'c>(step: &Step<'c, '_>, assignment: Assignment, axis: &str) -> Result<Self, Located<'c>> {
        let body = &step.body;
        let stage = assignment.stage;
        let mut channels: FxHashMap<Channel, (i64, Vec<usize>)> = FxHashMap::default();
        let mut order: Vec<Channel> = Vec::new();
        for (j, op) in body.ops.iter().enumerate() {
            let mut reads = Vec::new();
            dist_dialect::ir::walk_preorder(op, |nested| {
                reads.push((nested == *op, nested.operands().collect::<Vec<_>>()));
                melior::ir::operation::WalkResult::Advance
            });
            for (top, operands) in reads {
                for (k, value) in operands.into_iter().enumerate() {
                    let Some(result) = op_result(value) else { continue };
                    let Some(i) = body.position(&result.owner()) else {
                        continue;
                    };
                    if stage[i] == stage[j] || step.classes[i] == Class::Before {
                        continue;
                    }
                    let r = result.result_number();
                    if !top {
                        return Err(Located::at(
                            op,
                            format!(
                                "runs on stage {} and reads a value of stage {} inside its regions: a value crosses \
                                 stages as an operand of an op of the step's body",
                                stage[j], stage[i]
                            ),
                        ));
                    }
                    let channel = match (step.classes[i], step.classes[j]) {
                        (Class::Each, Class::Each) => {
                            if !body.nodes[i].boundary || stage[i].abs_diff(stage[j]) != 1 {
                                let at = file_line_col(body.ops[i].location())
                                    .map_or(String::new(), |(_, line, _)| format!(" on line {line}"));
                                return Err(Located::at(
                                    op,
                                    format!(
                                        "runs on stage {} and reads a microbatch's value of stage {} (the {}{at}) \
                                         without a dist.stage_boundary between neighbouring stages",
                                        stage[j],
                                        stage[i],
                                        op_name(&body.ops[i])
                                    ),
                                ));
                            }
                            Channel::Microbatch(i, r)
                        }
                        (Class::Each, Class::After) => Channel::Total(Sink::Reduce { op: j, operand: k }),
                        (Class::After, Class::After) => Channel::Once(i, r),
                        _ => {
                            return Err(Located::at(
                                op,
                                format!(
                                    "reads a value of stage {} that no transfer can bring to stage {}",
                                    stage[i], stage[j]
                                ),
                            ));
                        }
                    };
                    let receivers = &mut channels.entry(channel).or_insert_with(|| {
                        order.push(channel);
                        (0, Vec::new())
                    });
                    if !receivers.1.contains(&stage[j]) {
                        receivers.1.push(stage[j]);
                    }
                }
            }
        }
        // Tags in the order the transfers were found: the same on every
        // stage.
        let mut next = 0;
        for channel in order {
            let entry = channels.get_mut(&channel).expect("found");
            entry.0 = next;
            next += match channel {
                Channel::Microbatch(..) => step.microbatches as i64,
                _ => 1,
            };
        }
        if next > MAX_TAG + 1 {
            return Err(Located::at(
                &step.function.operation(),
                format!(
                    "its stages exchange {next} messages a step, more than MPI's {} tags",
                    MAX_TAG + 1
                ),
            ));
        }
        let terminator = step.terminator();
        let results = terminator
            .operands()
            .map(|v| {
                op_result(v)
                    .and_then(|r| body.position(&r.owner()))
                    .filter(|&i| step.classes[i] != Class::Before)
                    .map(|i| stage[i])
            })
            .collect();
        Ok(Self {
            axis: axis.to_owned(),
            count: assignment.stages,
            stage,
            channels,
            results,
        })
    }

    /// The tag and receiving stages of `channel`, if it crosses stages.
    pub(super) fn channel(&self, channel: Channel) -> Option<&(i64, Vec<usize>)> {
        self.channels.get(&channel)
    }
}
