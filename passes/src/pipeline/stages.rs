//! Which stage, and which part of a microbatch's work (F, B or W), each op
//! of a function belongs to, from the `dist.stage_boundary` ops on its
//! paths. Pure Rust over the function's data flow.
//!
//! The forward (F) is what the loss (the function's first result) depends
//! on; a boundary outside it belongs to the backward, and a function with
//! one is a training step.
//!
//! The *level* of an op is the number of boundaries on the longest path to
//! it from the arguments. A forward program of `p` stages has boundaries at
//! levels `0 .. p-1`; a training step's backward crosses each of them again
//! (the gradient of a boundary is a boundary), at levels `p-1 .. 2(p-1)`, so
//! level `l` is stage `l` in the forward and stage `2(p-1) - l` in the
//! backward. An op that reads only arguments and constants runs where its
//! first user does (a parameter's transpose that only the backward of
//! stage 3 reads runs on stage 3, not on stage 0 because it reads no
//! boundary); every other op runs as early as its inputs allow, so a
//! gradient that a later stage's op reads is computed where its inputs are
//! and sent.
//!
//! Of the backward, the input-gradient work (B) is what a boundary of the
//! backward depends on, the previous stage waiting for it, and the
//! weight-gradient work (W) everything else: the parameter gradients, and
//! their updates, that nothing downstream waits for.

use super::schedule::Phase;
use thiserror::Error;

/// One op of a function's body, in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Node {
    /// The ops (by index) whose results it reads; arguments and values from
    /// outside the body are left out.
    pub inputs: Vec<usize>,
    /// Whether it is a `dist.stage_boundary`.
    pub boundary: bool,
}

/// Where each op runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assignment {
    pub stages: usize,
    /// Whether the function has a backward (boundaries crossed both ways).
    pub training: bool,
    /// Per op, its stage.
    pub stage: Vec<usize>,
    /// Per op, its part of a microbatch's work.
    pub phase: Vec<Phase>,
    /// Per op, its level (boundaries before it on the longest path; for an
    /// op of arguments and constants only, its first user's).
    pub level: Vec<usize>,
}

impl Assignment {
    /// The link a boundary at `level` sends over, `s` for the one between
    /// stages `s` and `s + 1`, and whether it sends forward.
    pub fn link(&self, level: usize) -> (usize, bool) {
        let last = self.stages - 1;
        if level < last {
            (level, true)
        } else {
            ((2 * last - level).saturating_sub(1), false)
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum StageError {
    #[error(
        "the stage boundaries lie {depth} deep on the longest path; {} of {stages} pipeline stages needs {}",
        if *.training { "a training step" } else { "a forward program" },
        if *.training { 2 * (.stages - 1) } else { .stages - 1 }
    )]
    Depth {
        depth: usize,
        stages: usize,
        training: bool,
    },
    #[error("the function's first result (the loss) is no op's result: the forward is what the loss depends on")]
    NoLoss,
}

/// Assigns each op of `nodes` (in body order, inputs before their users)
/// to one of `stages` (at least 1) stages and a phase. `loss` is the op
/// defining the function's first result.
pub fn assign(nodes: &[Node], loss: Option<usize>, stages: usize) -> Result<Assignment, StageError> {
    let loss = loss.ok_or(StageError::NoLoss)?;
    let forward = ancestors(nodes, std::iter::once(loss));
    let training = nodes.iter().zip(&forward).any(|(n, &f)| n.boundary && !f);
    let earliest = earliest_levels(nodes);
    // A boundary of level l lies on a path through boundaries of every
    // level below: the deepest one tells how many times values cross.
    let depth = nodes
        .iter()
        .zip(&earliest)
        .filter(|(n, _)| n.boundary)
        .map(|(_, &l)| l + 1)
        .max()
        .unwrap_or(0);
    let needed = if training { 2 * (stages - 1) } else { stages - 1 };
    if depth != needed {
        return Err(StageError::Depth {
            depth,
            stages,
            training,
        });
    }
    let level = placed_levels(nodes, &earliest);
    let stage = level.iter().map(|&l| stage_of_level(l, stages)).collect();
    let phase = phases(nodes, &forward, training);
    Ok(Assignment {
        stages,
        training,
        stage,
        phase,
        level,
    })
}

fn stage_of_level(level: usize, stages: usize) -> usize {
    if level < stages {
        level
    } else {
        2 * (stages - 1) - level
    }
}

/// The most boundaries on a path from the arguments to each op (a boundary
/// counts for its users).
fn earliest_levels(nodes: &[Node]) -> Vec<usize> {
    let mut level = vec![0; nodes.len()];
    for (i, n) in nodes.iter().enumerate() {
        level[i] = n
            .inputs
            .iter()
            .map(|&j| level[j] + usize::from(nodes[j].boundary))
            .max()
            .unwrap_or(0);
    }
    level
}

/// Each op's level: the earliest, but for an op that reads only arguments
/// and constants (through such ops), which runs where its first user does.
fn placed_levels(nodes: &[Node], earliest: &[usize]) -> Vec<usize> {
    // Free: reads no op but free ones (arguments and constants only).
    let mut free = vec![false; nodes.len()];
    for (i, n) in nodes.iter().enumerate() {
        free[i] = !n.boundary && n.inputs.iter().all(|&j| free[j]);
    }
    let mut users: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
    for (i, n) in nodes.iter().enumerate() {
        for &j in &n.inputs {
            users[j].push(i);
        }
    }
    let mut level = earliest.to_vec();
    for i in (0..nodes.len()).rev().filter(|&i| free[i]) {
        if let Some(first) = users[i].iter().map(|&u| level[u]).min() {
            level[i] = first;
        }
    }
    level
}

fn phases(nodes: &[Node], forward: &[bool], training: bool) -> Vec<Phase> {
    if !training {
        return vec![Phase::F; nodes.len()];
    }
    let backward_boundaries = (0..nodes.len()).filter(|&i| nodes[i].boundary && !forward[i]);
    let input_gradient = ancestors(nodes, backward_boundaries);
    (0..nodes.len())
        .map(|i| {
            if forward[i] {
                Phase::F
            } else if input_gradient[i] {
                Phase::B
            } else {
                Phase::W
            }
        })
        .collect()
}

/// The ops `roots` depend on, the roots included.
fn ancestors(nodes: &[Node], roots: impl Iterator<Item = usize>) -> Vec<bool> {
    let mut seen = vec![false; nodes.len()];
    let mut stack: Vec<usize> = roots.collect();
    while let Some(i) = stack.pop() {
        if !std::mem::replace(&mut seen[i], true) {
            stack.extend(&nodes[i].inputs);
        }
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::*;

    fn op(inputs: &[usize]) -> Node {
        Node {
            inputs: inputs.to_vec(),
            boundary: false,
        }
    }

    fn boundary(input: usize) -> Node {
        Node {
            inputs: vec![input],
            boundary: true,
        }
    }

    /// Two stages: x0 = f(arg); b = boundary(x0); loss = g(b); the backward
    /// of g, its boundary, the backward of f; a weight transpose only the
    /// backward of stage 1 reads; a weight gradient on each stage.
    fn two_stage_step() -> Vec<Node> {
        vec![
            op(&[]),     // 0 F stage 0: f(x, w0)
            boundary(0), // 1 F stage 0
            op(&[1]),    // 2 F stage 1: g(b, w1) = loss
            op(&[]),     // 3 transpose(w1), read by the backward of stage 1
            op(&[2, 3]), // 4 B stage 1: dL/db
            op(&[1, 2]), // 5 W stage 1: dL/dw1
            boundary(4), // 6 B stage 1: the gradient crosses back
            op(&[6, 0]), // 7 W stage 0: dL/dw0
        ]
    }

    #[test]
    fn a_training_step_of_two_stages() {
        let a = assign(&two_stage_step(), Some(2), 2).unwrap();
        assert!(a.training);
        assert_eq!(a.stage, [0, 0, 1, 1, 1, 1, 1, 0]);
        assert_eq!(a.level, [0, 0, 1, 1, 1, 1, 1, 2]);
        assert_eq!((a.link(0), a.link(1)), ((0, true), (0, false)));
        use Phase::*;
        assert_eq!(a.phase, [F, F, F, B, B, W, B, W]);
        // A gradient of stage 1 that stage 0 sums with its own (a tied
        // parameter) is computed on stage 1 and sent, not recomputed from
        // stage 1's activations on stage 0.
        let mut step = two_stage_step();
        step.extend([op(&[1, 2]), op(&[8, 7])]);
        let a = assign(&step, Some(2), 2).unwrap();
        assert_eq!(a.stage[8..], [1, 0]);
    }

    #[test]
    fn a_forward_program_is_all_forward() {
        let nodes = vec![op(&[]), boundary(0), op(&[1]), boundary(2), op(&[3])];
        let a = assign(&nodes, Some(4), 3).unwrap();
        assert!(!a.training);
        assert_eq!(a.stage, [0, 0, 1, 1, 2]);
        assert!(a.phase.iter().all(|&p| p == Phase::F));
    }

    #[test]
    fn boundaries_that_do_not_fit_the_stages_are_refused() {
        let nodes = vec![op(&[]), boundary(0), op(&[1])];
        let error = StageError::Depth {
            depth: 1,
            stages: 3,
            training: false,
        };
        assert_eq!(assign(&nodes, Some(2), 3), Err(error.clone()));
        assert_eq!(
            error.to_string(),
            "the stage boundaries lie 1 deep on the longest path; a forward program of 3 pipeline stages needs 2"
        );
        // Two boundaries the loss depends on are a forward program of three
        // stages, not a training step of two.
        let nodes = vec![op(&[]), boundary(0), op(&[1]), boundary(2), op(&[3])];
        let error = StageError::Depth {
            depth: 2,
            stages: 2,
            training: false,
        };
        assert_eq!(assign(&nodes, Some(4), 2), Err(error));
        // A training step of three stages crosses four boundaries.
        let step = two_stage_step();
        let error = StageError::Depth {
            depth: 2,
            stages: 3,
            training: true,
        };
        assert_eq!(assign(&step, Some(2), 3), Err(error));
        assert_eq!(assign(&step, None, 2), Err(StageError::NoLoss));
        // Two boundaries in a row make an empty stage, which is no error.
        let nodes = vec![op(&[]), boundary(0), boundary(1), op(&[2])];
        assert_eq!(assign(&nodes, Some(3), 3).unwrap().stage, [0, 0, 1, 2]);
    }
}
