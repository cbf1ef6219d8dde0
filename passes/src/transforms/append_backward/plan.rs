//! The pure core of `dist-append-backward`: which values carry a gradient,
//! the gradient rule of each forward op, and the reverse sweep that writes
//! the backward through an [`Emitter`].
//!
//! A value is *active* when it depends on an argument that asks for its
//! gradient (varied) and the loss depends on it (useful): only active
//! values get gradients, so every gradient op emitted reaches a requested
//! gradient, and only ops with an active result need a rule.

use crate::ops;
use crate::ops::GradRule;
use dist_dialect::DistOp;

/// Index of a value of the forward program: the arguments first, then each
/// op's results in program order.
pub type ValueId = usize;

/// One op of the forward program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TapeOp {
    /// `None` for an op of another dialect.
    pub kind: Option<DistOp>,
    /// The values it reads: its operands, then the values its regions use
    /// from outside them.
    pub operands: Vec<ValueId>,
    pub results: Vec<ValueId>,
}

/// What a value of the forward program is to differentiation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueKind {
    /// A floating-point tensor: the only values with a gradient.
    FloatTensor,
    /// A boolean or integer (tensor or scalar): no gradient, and no
    /// dependence through it, since a function into a discrete set is
    /// piecewise constant (`jax.grad` gives such values float0 tangents).
    Discrete,
    /// Anything else (a float scalar taken out of a tensor): it carries a
    /// dependence, which the op that made it must answer for.
    Other,
}

/// The forward program, in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tape {
    /// What each value is to differentiation.
    pub values: Vec<ValueKind>,
    pub ops: Vec<TapeOp>,
}

/// The gradient rule of `op` (its description's); `None` for an op
/// without one (collectives, gradient ops, ops of other dialects).
pub fn grad_rule(op: DistOp) -> Option<GradRule> {
    ops::spec(op).and_then(|spec| spec.gradient())
}

/// Why a forward program cannot be differentiated; the pass words the
/// diagnostic at the op.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlanError {
    /// An op with an active result has no gradient rule.
    Undifferentiable { op: usize },
    /// A result other than #0 is active (layer_norm's statistics).
    ResultNotDifferentiated { op: usize, result: usize },
    /// An active operand the rule gives no gradient (an integer operand
    /// made active by an op that the table lacks a rule for).
    OperandNotDifferentiated { op: usize, operand: usize },
}

impl PlanError {
    /// The forward op at fault.
    pub fn op(&self) -> usize {
        match *self {
            Self::Undifferentiable { op }
            | Self::ResultNotDifferentiated { op, .. }
            | Self::OperandNotDifferentiated { op, .. } => op,
        }
    }
}

/// Which values get a gradient, checked against the rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Activity {
    pub active: Vec<bool>,
}

impl Activity {
    /// The active values of `tape` for the gradients of `loss` with respect
    /// to `requested`; fails on an active op the rules cannot differentiate.
    pub fn of(tape: &Tape, requested: &[ValueId], loss: ValueId) -> Result<Self, PlanError> {
        let mut varied = vec![false; tape.values.len()];
        for &arg in requested {
            varied[arg] = tape.values[arg] == ValueKind::FloatTensor;
        }
        // Through values of every type: a scalar extracted from a tensor
        // carries the dependence on, and the op that made it must answer
        // for it (its lack of a rule is an error, not a zero gradient).
        // Neither way through a function whose gradient is zero (`floor`),
        // nor through one whose results are all discrete (a comparison):
        // no gradient flows back through it, so what feeds it alone is not
        // on the path.
        let passes_gradient = |op: &TapeOp| {
            !op.kind.and_then(ops::spec).is_some_and(|s| s.has_zero_gradient())
                && op.results.iter().any(|&r| tape.values[r] != ValueKind::Discrete)
        };
        for op in &tape.ops {
            if passes_gradient(op) && op.operands.iter().any(|&v| varied[v]) {
                for &r in &op.results {
                    varied[r] = tape.values[r] != ValueKind::Discrete;
                }
            }
        }
        let mut useful = vec![false; tape.values.len()];
        useful[loss] = true;
        for op in tape.ops.iter().rev() {
            if passes_gradient(op) && op.results.iter().any(|&r| useful[r]) {
                for &v in &op.operands {
                    useful[v] = true;
                }
            }
        }
        let active: Vec<bool> = varied.iter().zip(&useful).map(|(&v, &u)| v && u).collect();
        for (index, op) in tape.ops.iter().enumerate() {
            if !op.results.iter().any(|&r| active[r]) {
                continue;
            }
            let rule = op
                .kind
                .and_then(grad_rule)
                .ok_or(PlanError::Undifferentiable { op: index })?;
            if let Some(result) = (1..op.results.len()).find(|&i| active[op.results[i]]) {
                return Err(PlanError::ResultNotDifferentiated { op: index, result });
            }
            let differentiated = rule.grad_operands(op.operands.len());
            if let Some(operand) =
                (0..op.operands.len()).find(|i| active[op.operands[*i]] && !differentiated.contains(i))
            {
                return Err(PlanError::OperandNotDifferentiated { op: index, operand });
            }
        }
        Ok(Self { active })
    }
}

/// Where recomputation cuts the forward program (`recompute=true`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Segments {
    /// The ops each segment recomputes, in program order: those that read
    /// values and make one a later op reads, but the segment's last.
    pub members: Vec<Vec<usize>>,
    /// The segment of each op.
    pub of_op: Vec<usize>,
}

impl Segments {
    /// The segments of `tape`, whose first `arguments` values are the
    /// function's arguments. A segment ends at an op after which one of its
    /// results is the only value that later ops still read, the values at
    /// hand aside (arguments, and results of ops that read nothing:
    /// constants). That value is the segment's checkpoint: the input of
    /// the next residual block (a transformer layer has two, attention's
    /// and the MLP's), whose skip and branch both start from it. What only
    /// the return reads (the loss) does not count.
    pub fn of(tape: &Tape, arguments: usize) -> Self {
        let n = tape.values.len();
        let mut at_hand = vec![false; n];
        at_hand[..arguments].fill(true);
        let mut last_use: Vec<Option<usize>> = vec![None; n];
        for (index, op) in tape.ops.iter().enumerate() {
            for &v in &op.operands {
                last_use[v] = Some(index);
            }
            if op.operands.is_empty() {
                for &r in &op.results {
                    at_hand[r] = true;
                }
            }
        }
        let (mut members, mut of_op) = (vec![Vec::new()], Vec::with_capacity(tape.ops.len()));
        let mut live = 0usize;
        for (index, op) in tape.ops.iter().enumerate() {
            of_op.push(members.len() - 1);
            let mut read: Vec<ValueId> = op.operands.iter().copied().filter(|&v| !at_hand[v]).collect();
            read.sort_unstable();
            read.dedup();
            live -= read.iter().filter(|&&v| last_use[v] == Some(index)).count();
            let later = |r: &&ValueId| last_use[**r].is_some_and(|u| u > index);
            let kept = op.results.iter().filter(|r| !at_hand[**r] && later(r)).count();
            live += kept;
            if live == 1 && kept == 1 {
                members.push(Vec::new());
            } else if !op.operands.is_empty() && op.results.iter().any(|r| later(&r)) {
                members.last_mut().expect("a segment").push(index);
            }
        }
        Self { members, of_op }
    }
}

/// Writes the backward ops for [`backward`].
pub trait Emitter {
    type Value: Clone;
    type Error;
    /// The gradient of the loss with respect to itself: one.
    fn seed(&mut self) -> Result<Self::Value, Self::Error>;
    /// The gradient op of forward op `op` by `rule`, given the gradient of
    /// its result 0; returns one gradient per entry of the rule's `grads`.
    fn gradient(&mut self, op: usize, rule: &GradRule, dout: Self::Value) -> Result<Vec<Self::Value>, Self::Error>;
    /// The sum of two contributions to one gradient, at forward op `op`.
    fn add(&mut self, op: usize, a: Self::Value, b: Self::Value) -> Result<Self::Value, Self::Error>;
}

/// The reverse sweep: the gradient of `loss` with respect to each of
/// `requested`, `None` where it does not depend on it (zero). Contributions
/// to a value read more than once are summed in the order the sweep meets
/// them.
pub fn backward<E: Emitter>(
    tape: &Tape,
    activity: &Activity,
    requested: &[ValueId],
    loss: ValueId,
    emitter: &mut E,
) -> Result<Vec<Option<E::Value>>, E::Error> {
    let active = &activity.active;
    let mut grads: Vec<Option<E::Value>> = vec![None; active.len()];
    if active[loss] {
        grads[loss] = Some(emitter.seed()?);
    }
    for (index, op) in tape.ops.iter().enumerate().rev() {
        let Some(&out) = op.results.first().filter(|&&r| active[r]) else {
            continue;
        };
        let rule = op.kind.and_then(grad_rule).expect("Activity::of checked the rule");
        let dout = grads[out].take().expect("an active value has a gradient");
        let computed = emitter.gradient(index, &rule, dout)?;
        for (operand, grad) in rule.grad_operands(op.operands.len()).into_iter().zip(computed) {
            let Some(&value) = op.operands.get(operand).filter(|&&v| active[v]) else {
                continue;
            };
            grads[value] = Some(match grads[value].take() {
                Some(sum) => emitter.add(index, sum, grad)?,
                None => grad,
            });
        }
    }
    Ok(requested.iter().map(|&arg| grads[arg].clone()).collect())
}

#[cfg(test)]
mod tests {
    use super::ValueKind::*;
    use super::*;

    /// Records the backward as text: `gN` is the Nth value it made.
    #[derive(Default)]
    struct Recorder {
        lines: Vec<String>,
    }

    impl Recorder {
        fn fresh(&mut self, text: String) -> String {
            let name = format!("g{}", self.lines.len());
            self.lines.push(format!("{name} = {text}"));
            name
        }
    }

    impl Emitter for Recorder {
        type Value = String;
        type Error = std::convert::Infallible;
        fn seed(&mut self) -> Result<String, Self::Error> {
            Ok(self.fresh("one".into()))
        }
        fn gradient(&mut self, op: usize, rule: &GradRule, dout: String) -> Result<Vec<String>, Self::Error> {
            let made = self.fresh(format!("{}(op{op}, {dout})", rule.op.name()));
            Ok((0..rule.grad_operands(2).len())
                .map(|i| format!("{made}#{i}"))
                .collect())
        }
        fn add(&mut self, _: usize, a: String, b: String) -> Result<String, Self::Error> {
            Ok(self.fresh(format!("add({a}, {b})")))
        }
    }

    fn op(kind: DistOp, operands: &[ValueId], results: &[ValueId]) -> TapeOp {
        TapeOp {
            kind: Some(kind),
            operands: operands.to_vec(),
            results: results.to_vec(),
        }
    }

    /// x(0), w(1), t(2): h = x.w (3); d = h - t (4); s = d * d (5); l = mean(s) (6).
    fn regression() -> Tape {
        Tape {
            values: vec![FloatTensor; 7],
            ops: vec![
                op(DistOp::Matmul, &[0, 1], &[3]),
                op(DistOp::Sub, &[3, 2], &[4]),
                op(DistOp::Mul, &[4, 4], &[5]),
                op(DistOp::ReduceMean, &[5], &[6]),
            ],
        }
    }

    fn run(tape: Tape, requested: &[ValueId], loss: ValueId) -> (Vec<Option<String>>, Vec<String>) {
        let activity = Activity::of(&tape, requested, loss).unwrap();
        let mut recorder = Recorder::default();
        let grads = backward(&tape, &activity, requested, loss, &mut recorder).unwrap();
        (grads, recorder.lines)
    }

    #[test]
    fn a_value_read_twice_sums_its_contributions_and_inputs_get_none() {
        let (grads, lines) = run(regression(), &[1], 6);
        assert_eq!(
            lines,
            [
                "g0 = one",
                "g1 = dist.reduce_mean_grad(op3, g0)",
                "g2 = dist.mul_grad(op2, g1#0)",
                "g3 = add(g2#0, g2#1)",
                "g4 = dist.sub_grad(op1, g3)",
                "g5 = dist.matmul_grad(op0, g4#0)",
            ]
        );
        assert_eq!(grads, [Some("g5#1".to_owned())]);
    }

    /// x(0), w1(1), w2(2), c = constant (3): x0 = x * 2 (4);
    /// a = gelu(x0 . w1) (5, 6); x1 = x0 + a (7); b = x1 . w2 (8);
    /// y = x1 + b + c (9, 10); l = mean(y) (11): two residual blocks.
    #[test]
    fn segments_end_where_one_value_alone_carries_on() {
        let tape = Tape {
            values: vec![FloatTensor; 12],
            ops: vec![
                op(DistOp::Scale, &[0], &[4]),
                op(DistOp::Matmul, &[4, 1], &[5]),
                op(DistOp::Gelu, &[5], &[6]),
                op(DistOp::Add, &[4, 6], &[7]),
                op(DistOp::Matmul, &[7, 2], &[8]),
                // An op that reads nothing: its value is at hand.
                TapeOp {
                    kind: None,
                    operands: Vec::new(),
                    results: vec![3],
                },
                op(DistOp::Add, &[7, 8], &[9]),
                op(DistOp::Add, &[9, 3], &[10]),
                op(DistOp::ReduceMean, &[10], &[11]),
            ],
        };
        let segments = Segments::of(&tape, 3);
        // x0, x1, y and y + c each end a segment though the constant lives
        // across them (the constant is not recomputed); the loss, read by
        // the return alone, is in no segment's recomputation.
        assert_eq!(segments.members, [vec![], vec![1, 2], vec![4], vec![], vec![]]);
        assert_eq!(segments.of_op, [0, 1, 1, 1, 2, 2, 2, 3, 4]);
    }

    #[test]
    fn only_values_between_the_requests_and_the_loss_are_active() {
        let activity = Activity::of(&regression(), &[1], 6).unwrap();
        // x and the targets are not asked for; everything after w is.
        assert_eq!(activity.active, [false, true, false, true, true, true, true]);
    }

    #[test]
    fn a_request_the_loss_does_not_read_has_no_gradient() {
        let mut tape = regression();
        tape.values.push(ValueKind::FloatTensor);
        let (grads, lines) = run(tape, &[7], 6);
        assert_eq!(grads, [None]);
        assert!(lines.is_empty(), "no dead gradient ops: {lines:?}");
    }

    #[test]
    fn a_branch_that_misses_the_loss_gets_no_gradient_op() {
        // e = gelu(w) (7) is computed but not read by the loss.
        let mut tape = regression();
        tape.values.push(ValueKind::FloatTensor);
        tape.ops.push(op(DistOp::Gelu, &[1], &[7]));
        let (_, lines) = run(tape, &[1], 6);
        assert!(lines.iter().all(|l| !l.contains("gelu")), "{lines:?}");
    }

    #[test]
    fn an_active_op_without_a_rule_is_refused() {
        let mut tape = regression();
        tape.ops[1].kind = Some(DistOp::AllReduce);
        assert_eq!(Activity::of(&tape, &[1], 6), Err(PlanError::Undifferentiable { op: 1 }));
        tape.ops[1].kind = None;
        assert_eq!(Activity::of(&tape, &[1], 6), Err(PlanError::Undifferentiable { op: 1 }));
        // Not on the path: no rule needed.
        assert!(Activity::of(&tape, &[0], 2).is_ok());
    }

    /// w(0), x(1): s = 2 w (2); f = floor(s) (3); y = f * x (4);
    /// loss = sum(y + w) (5, 6). No gradient flows back through the floor:
    /// w's is the sum's alone, and s, which only the floor reads, is not on
    /// the path.
    #[test]
    fn no_gradient_flows_through_a_piecewise_constant_function() {
        let tape = Tape {
            values: vec![FloatTensor; 7],
            ops: vec![
                op(DistOp::Scale, &[0], &[2]),
                op(DistOp::Floor, &[2], &[3]),
                op(DistOp::Mul, &[3, 1], &[4]),
                op(DistOp::Add, &[4, 0], &[5]),
                op(DistOp::ReduceSum, &[5], &[6]),
            ],
        };
        let activity = Activity::of(&tape, &[0], 6).unwrap();
        assert_eq!(activity.active, [true, false, false, false, false, true, true]);
        let (grads, lines) = run(tape.clone(), &[0], 6);
        assert!(
            lines.iter().all(|l| !l.contains("floor") && !l.contains("scale")),
            "{lines:?}"
        );
        assert!(grads[0].is_some());
        // Through the floor alone: no gradient (zeros), not an error.
        let mut through_floor = tape;
        through_floor.ops[3] = op(DistOp::Add, &[4, 4], &[5]);
        assert_eq!(run(through_floor, &[0], 6), (vec![None], vec![]));
    }

    #[test]
    fn layer_norm_statistics_on_the_path_are_refused() {
        // y(4), mean(5), rstd(6) = layer_norm(x(0), g(1), b(2)); loss = sum(mean) (7).
        let tape = Tape {
            values: vec![FloatTensor; 8],
            ops: vec![
                op(DistOp::LayerNorm, &[0, 1, 2], &[4, 5, 6]),
                op(DistOp::ReduceSum, &[5], &[7]),
            ],
        };
        assert_eq!(
            Activity::of(&tape, &[0], 7),
            Err(PlanError::ResultNotDifferentiated { op: 0, result: 1 })
        );
    }

    #[test]
    fn integer_values_carry_no_gradient() {
        // out(2) = embedding(ids(0), table(1)); loss = sum(out) (3).
        let tape = Tape {
            values: vec![Discrete, FloatTensor, FloatTensor, FloatTensor],
            ops: vec![op(DistOp::Embedding, &[0, 1], &[2]), op(DistOp::ReduceSum, &[2], &[3])],
        };
        let (grads, lines) = run(tape, &[1], 3);
        assert_eq!(lines[2], "g2 = dist.embedding_grad(op0, g1#0)");
        assert_eq!(grads, [Some("g2#0".to_owned())]);
    }

    #[test]
    fn no_dependence_passes_through_a_boolean() {
        // p(2) = compare(x(0), y(1)); s(3) = select(p, x, y); loss = sum(s) (4).
        let tape = Tape {
            values: vec![FloatTensor, FloatTensor, Discrete, FloatTensor, FloatTensor],
            ops: vec![
                op(DistOp::Compare, &[0, 1], &[2]),
                op(DistOp::Select, &[2, 0, 1], &[3]),
                op(DistOp::ReduceSum, &[3], &[4]),
            ],
        };
        let activity = Activity::of(&tape, &[0, 1], 4).expect("differentiable");
        assert_eq!(activity.active, [true, true, false, true, true]);
    }

    #[test]
    fn what_only_a_comparison_reads_is_off_the_path() {
        // m(2) = relu(x(0)); p(3) = compare(m, y(1)); s(4) = select(p, y, y);
        // loss = sum(s) (5): x reaches the loss only through p.
        let tape = Tape {
            values: vec![
                FloatTensor,
                FloatTensor,
                FloatTensor,
                Discrete,
                FloatTensor,
                FloatTensor,
            ],
            ops: vec![
                op(DistOp::Relu, &[0], &[2]),
                op(DistOp::Compare, &[2, 1], &[3]),
                op(DistOp::Select, &[3, 1, 1], &[4]),
                op(DistOp::ReduceSum, &[4], &[5]),
            ],
        };
        let activity = Activity::of(&tape, &[0, 1], 5).expect("differentiable");
        assert_eq!(activity.active, [false, true, false, false, true, true]);
    }

    #[test]
    fn a_dependence_through_a_non_float_value_needs_a_rule() {
        // h = relu(x) (1); s = extract(h) (2, a scalar); l = from_elements(s) (3).
        let tape = Tape {
            values: vec![FloatTensor, FloatTensor, Other, FloatTensor],
            ops: vec![
                op(DistOp::Relu, &[0], &[1]),
                TapeOp {
                    kind: None,
                    operands: vec![1],
                    results: vec![2],
                },
                TapeOp {
                    kind: None,
                    operands: vec![2],
                    results: vec![3],
                },
            ],
        };
        assert_eq!(Activity::of(&tape, &[0], 3), Err(PlanError::Undifferentiable { op: 1 }));
    }

    #[test]
    fn an_active_operand_outside_the_rule_is_refused() {
        // Embedding ids made active (as an op without a rule would make
        // them): the rule differentiates the table only.
        let tape = Tape {
            values: vec![FloatTensor, FloatTensor, FloatTensor, FloatTensor],
            ops: vec![op(DistOp::Embedding, &[0, 1], &[2]), op(DistOp::ReduceSum, &[2], &[3])],
        };
        assert_eq!(
            Activity::of(&tape, &[0], 3),
            Err(PlanError::OperandNotDifferentiated { op: 0, operand: 0 })
        );
    }

    #[test]
    fn the_loss_itself_requested_gets_the_seed() {
        // x (0) is returned as the loss; relu(x) (1) is computed beside it.
        let tape = Tape {
            values: vec![FloatTensor, FloatTensor],
            ops: vec![op(DistOp::Relu, &[0], &[1])],
        };
        let (grads, lines) = run(tape, &[0], 0);
        assert_eq!(lines, ["g0 = one"]);
        assert_eq!(grads, [Some("g0".to_owned())]);
    }
}
