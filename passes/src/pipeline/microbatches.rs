//! Which ops of a per-device step run once per microbatch, and which once
//! per step. Pure Rust over the step's data flow.
//!
//! `dist-split-microbatches` splits each data argument over a mesh axis of
//! its own (`mb`), so that after `dist-partition` the per-device step is the
//! program of one microbatch: it reads the microbatch's slice of the data,
//! and every value it computes from the data is that microbatch's, until an
//! all-reduce over `mb` sums it over the microbatches (a parameter
//! gradient, the loss). Running the microbatches one after another on one
//! device computes the same step if each such all-reduce becomes a running
//! sum over the microbatches:
//!
//! - the ops that read nothing of the data run once, before the
//!   microbatches ([`Class::Before`]);
//! - the ops that read the data, or a value computed from it, run once per
//!   microbatch ([`Class::Each`]);
//! - the all-reduces over `mb` ([`Role::Reduce`]) and everything that reads
//!   their results run once, after the microbatches ([`Class::After`]).
//!
//! A sum over the microbatches of a linear function of each one's values
//! is that function of their sums: an op that is linear in its operands (a
//! sum, a difference, a scale, a reshape or transpose, a sum over the
//! other mesh axes) and whose results only the sums over the microbatches
//! read runs once, after them, on the sums of its operands ([`push_down`]):
//! a gradient's reduce-scatter over `dp` (ZeRO) runs once a step instead of
//! once a microbatch, and the two halves of a tied embedding's gradient
//! are summed once.
//!
//! An op that reads both a microbatch's value and a sum over all of them
//! (a batch norm's statistics) makes the microbatches depend on each other:
//! it is refused, as is any other collective over `mb` (a gather or a
//! scatter over it moves data between microbatches).

use super::schedule::Phase;
use thiserror::Error;

/// What an op does with the microbatch axis.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Nothing.
    Compute,
    /// A reduction over the microbatch axis (and maybe others): the sum
    /// (`sum`), or the average, maximum or minimum of its operands over the
    /// microbatches.
    Reduce { sum: bool },
    /// Linear in its operands: `f(a + b) = f(a) + f(b)`.
    Linear,
    /// Moves data between microbatches (a gather, scatter or permutation
    /// over the axis, or a device index along it): why, for the error.
    Mixes(&'static str),
}

/// One op of the step's body, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Op {
    /// The ops (by index) whose results it reads.
    pub inputs: Vec<usize>,
    /// Whether it reads a data argument.
    pub reads_data: bool,
    pub role: Role,
}

/// When an op runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// Once, before the microbatches.
    Before,
    /// Once per microbatch.
    Each,
    /// Once, after the microbatches.
    After,
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MicrobatchError {
    #[error("{why}: the microbatches cannot run one after another")]
    Mixes { op: usize, why: &'static str },
    #[error("reads a value of one microbatch and a sum over all of them: the microbatches depend on each other")]
    Mixed { op: usize, sum: usize },
}

impl MicrobatchError {
    /// The op at fault.
    pub fn op(&self) -> usize {
        match self {
            Self::Mixes { op, .. } | Self::Mixed { op, .. } => *op,
        }
    }
}

/// Each op's class (inputs before their users).
pub fn classify(ops: &[Op]) -> Result<Vec<Class>, MicrobatchError> {
    let mut classes: Vec<Class> = Vec::with_capacity(ops.len());
    for (i, op) in ops.iter().enumerate() {
        if let Role::Mixes(why) = op.role {
            return Err(MicrobatchError::Mixes { op: i, why });
        }
        let each = op.reads_data || op.inputs.iter().any(|&j| classes[j] == Class::Each);
        let after = op.inputs.iter().find(|&&j| classes[j] == Class::After).copied();
        let class = match (op.role, each, after) {
            (Role::Reduce { .. }, ..) => Class::After,
            (_, true, Some(sum)) => return Err(MicrobatchError::Mixed { op: i, sum }),
            (_, true, None) => Class::Each,
            (_, false, Some(_)) => Class::After,
            (_, false, None) => Class::Before,
        };
        classes.push(class);
    }
    Ok(classes)
}

/// The ops (by [`Role::Linear`]) that run once on the sums of their
/// operands rather than once per microbatch: each one a microbatch's work
/// that reads no data argument itself, whose results are none of the
/// function's (`results`: the ops defining them) and are read only by
/// sums over the microbatches or by other such ops. Their class becomes
/// [`Class::After`].
pub fn push_down(ops: &[Op], classes: &mut [Class], results: &[usize]) -> Vec<bool> {
    let mut users: Vec<Vec<usize>> = vec![Vec::new(); ops.len()];
    for (j, op) in ops.iter().enumerate() {
        for &i in &op.inputs {
            users[i].push(j);
        }
    }
    let mut pushed = vec![false; ops.len()];
    for i in (0..ops.len()).rev() {
        let op = &ops[i];
        pushed[i] = op.role == Role::Linear
            && classes[i] == Class::Each
            && !op.reads_data
            && !results.contains(&i)
            && !users[i].is_empty()
            && users[i]
                .iter()
                .all(|&j| pushed[j] || ops[j].role == Role::Reduce { sum: true });
        if pushed[i] {
            classes[i] = Class::After;
        }
    }
    pushed
}

/// The part of a microbatch's work each op of one stage is: the forward
/// (F) is what `loss` depends on, the rest of a microbatch's work its
/// backward (W: one stage has no previous stage waiting for an input
/// gradient). Ops that do not run per microbatch are F.
pub fn phases(ops: &[Op], classes: &[Class], loss: Option<usize>) -> Vec<Phase> {
    let mut forward = vec![false; ops.len()];
    let mut stack: Vec<usize> = loss.into_iter().collect();
    while let Some(i) = stack.pop() {
        if !std::mem::replace(&mut forward[i], true) {
            stack.extend(&ops[i].inputs);
        }
    }
    classes
        .iter()
        .zip(forward)
        .map(|(&class, forward)| {
            if class != Class::Each || forward {
                Phase::F
            } else {
                Phase::W
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn op(inputs: &[usize]) -> Op {
        Op {
            inputs: inputs.to_vec(),
            reads_data: false,
            role: Role::Compute,
        }
    }

    fn data(inputs: &[usize]) -> Op {
        Op {
            reads_data: true,
            ..op(inputs)
        }
    }

    fn reduce(input: usize) -> Op {
        Op {
            role: Role::Reduce { sum: true },
            ..op(&[input])
        }
    }

    fn linear(inputs: &[usize]) -> Op {
        Op {
            role: Role::Linear,
            ..op(inputs)
        }
    }

    /// y = x w; loss = allreduce(mean(y)); dw = x^T dy; dw_sum =
    /// allreduce(dw); w' = w - lr dw_sum; a weight transpose read by the
    /// backward only.
    fn step() -> Vec<Op> {
        vec![
            data(&[]),   // 0 y = matmul(x, w)
            op(&[0]),    // 1 mean(y)
            reduce(1),   // 2 loss
            op(&[]),     // 3 transpose(w)
            data(&[0]),  // 4 dw = matmul_grad(x, y)
            op(&[4, 3]), // 5 a backward op of dw and the transpose
            reduce(5),   // 6 dw summed over the microbatches
            op(&[6]),    // 7 the update
        ]
    }

    #[test]
    fn the_data_work_runs_per_microbatch_and_the_sums_after() {
        use Class::*;
        let classes = classify(&step()).unwrap();
        assert_eq!(classes, [Each, Each, After, Before, Each, Each, After, After]);
        use Phase::*;
        assert_eq!(phases(&step(), &classes, Some(2)), [F, F, F, F, W, W, F, F]);
    }

    #[test]
    fn reading_a_microbatch_and_the_sum_is_refused() {
        let mut ops = step();
        // A batch norm: the microbatch's y against the mean of all.
        ops.push(op(&[0, 2]));
        assert_eq!(classify(&ops), Err(MicrobatchError::Mixed { op: 8, sum: 2 }));
    }

    #[test]
    fn a_gather_over_the_microbatches_is_refused() {
        let mut ops = step();
        ops[1].role = Role::Mixes("an all_gather over the microbatch axis");
        let error = classify(&ops).unwrap_err();
        assert_eq!(error.op(), 1);
        assert!(error.to_string().starts_with("an all_gather over the microbatch axis"));
    }

    /// ZeRO: dw reduce-scattered over dp, then summed over the microbatches;
    /// a tied weight's two gradients added, then summed.
    #[test]
    fn linear_ops_that_only_sums_read_run_once_on_the_sums() {
        let mut ops = step();
        ops.truncate(6);
        ops.extend([
            linear(&[5]),    // 6 reduce-scatter(dw)
            reduce(6),       // 7 summed over the microbatches
            linear(&[1, 5]), // 8 a tied gradient: one microbatch's two parts
            reduce(8),       // 9
            linear(&[5]),    // 10 also a result
            op(&[7]),        // 11 the update
        ]);
        let mut classes = classify(&ops).unwrap();
        use Class::*;
        assert_eq!(classes[6], Each);
        let pushed = push_down(&ops, &mut classes, &[10]);
        assert_eq!(
            pushed,
            [
                false, false, false, false, false, false, true, false, true, false, false, false
            ]
        );
        assert_eq!(classes[6..], [After, After, After, After, Each, After]);
        // Not below an average, which is no sum.
        let mut averaged = ops.clone();
        averaged[7].role = Role::Reduce { sum: false };
        let mut classes = classify(&averaged).unwrap();
        assert!(!push_down(&averaged, &mut classes, &[])[6]);
    }

    #[test]
    fn a_sum_of_a_value_without_data_runs_after() {
        // A constant partial over the microbatches: each holds it, the sum
        // is after them all.
        let ops = vec![op(&[]), reduce(0)];
        assert_eq!(classify(&ops).unwrap(), [Class::Before, Class::After]);
    }
}
