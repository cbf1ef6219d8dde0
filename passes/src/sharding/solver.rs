//! Fixed-point sharding propagation over an abstract def-use graph: pure
//! Rust, no MLIR (the pass builds a [`Problem`] from a function).
//!
//! Every value has a [`Layout`]: for each dim the mesh axes splitting it, and
//! an optional partial set. Fixed layouts (user annotations) never change;
//! open ones are only ever *refined* (axes appended to a dim, axes added to
//! the partial set), which bounds the number of updates and so guarantees
//! termination. Each op assigns axes to its rule's factors from the layouts
//! around it ([`Solver::assign`]), then projects that assignment forward onto
//! its results (partial status derived from the reduced factors) and
//! backward onto its operands. Priorities, in order: a fixed result, a fixed
//! operand, then a propagated layout with more shards, then the earlier
//! operand (operands before results). One exception: where a fixed
//! operand's split takes an axis another factor wants, the plan that moves
//! fewer elements wins (a fixed operand says where a tensor is stored).

use crate::vocabulary::comm::{CollectiveKind, local_numel};
use crate::vocabulary::rules::{Axes, Axis, FactorRule, Linearity, Rule, Transfer};
use dist_dialect::ReductionKind;
use smallvec::{SmallVec, smallvec};
use std::collections::VecDeque;
use std::fmt::Write;
use std::rc::Rc;

/// A pending reduction: sorted mesh axes and a kind.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PartialLayout {
    pub axes: Axes,
    pub kind: ReductionKind,
}

/// The sharding of one value, with axes as mesh axis indices.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Layout {
    pub dims: Vec<Axes>,
    pub partial: Option<PartialLayout>,
}

impl Layout {
    pub fn replicated(rank: usize) -> Self {
        Self {
            dims: vec![Axes::new(); rank],
            partial: None,
        }
    }

    fn partial_axes(&self) -> &[Axis] {
        self.partial.as_ref().map_or(&[], |p| &p.axes)
    }

    fn uses(&self, axis: Axis) -> bool {
        self.dims.iter().any(|d| d.contains(&axis)) || self.partial_axes().contains(&axis)
    }

    /// Whether it is `other` on a mesh of axes `sizes` once axes of size 1
    /// are set aside: they split nothing, and a value partial over them
    /// alone is whole (the sum of one value).
    pub fn same_on(&self, other: &Layout, sizes: &[i64]) -> bool {
        let trim = |l: &Layout| {
            let keep = |axes: &Axes| -> Axes { axes.iter().copied().filter(|&a| sizes[a as usize] > 1).collect() };
            let partial = l
                .partial
                .as_ref()
                .map(|p| (keep(&p.axes), p.kind))
                .filter(|(axes, _)| !axes.is_empty());
            (l.dims.iter().map(keep).collect::<Vec<Axes>>(), partial)
        };
        self == other || trim(self) == trim(other)
    }
}

/// `{"dp", "tp"}`: axis indices as the sharding attribute names them.
pub fn axes_text(axis_names: &[String], axes: &[Axis]) -> String {
    let mut s = String::from("{");
    for (i, &a) in axes.iter().enumerate() {
        let sep = if i == 0 { "" } else { ", " };
        let _ = write!(s, "{sep}\"{}\"", axis_names[a as usize]);
    }
    s.push('}');
    s
}

/// `[{}, {"tp"}], partial = sum{"dp"}`: a layout as the sharding attribute
/// spells it, without the mesh.
pub fn layout_text(axis_names: &[String], layout: &Layout) -> String {
    let dims: Vec<String> = layout.dims.iter().map(|d| axes_text(axis_names, d)).collect();
    let mut s = format!("[{}]", dims.join(", "));
    if let Some(p) = &layout.partial {
        let _ = write!(s, ", partial = {}{}", p.kind, axes_text(axis_names, &p.axes));
    }
    s
}

#[derive(Debug, Clone)]
pub struct Value {
    pub shape: Vec<i64>,
    /// A user annotation: never changed, and it wins conflicts.
    pub fixed: Option<Layout>,
}

#[derive(Debug, Clone)]
pub struct Op {
    /// Shared: ops of the same kind and shapes have the same rule.
    pub rule: Rc<Rule>,
    pub operands: Vec<usize>,
    pub results: Vec<usize>,
}

/// A layout a use wants (a function result's declared sharding).
#[derive(Debug, Clone)]
pub struct Requirement {
    /// The function result index.
    pub result: usize,
    pub value: usize,
    pub layout: Layout,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Direction {
    #[default]
    Both,
    Forward,
    Backward,
}

#[derive(Debug, Clone)]
pub struct Problem {
    pub axis_names: Vec<String>,
    pub axis_sizes: Vec<i64>,
    pub values: Vec<Value>,
    pub ops: Vec<Op>,
    pub requirements: Vec<Requirement>,
}

/// An operand or result of an op.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Side {
    Operand(usize),
    Result(usize),
}

impl std::fmt::Display for Side {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Operand(i) => write!(f, "operand #{i}"),
            Self::Result(i) => write!(f, "result #{i}"),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Priority {
    Propagated,
    FixedOperand,
    FixedResult,
}

impl Priority {
    fn describe(self) -> &'static str {
        match self {
            Self::Propagated => "propagated",
            Self::FixedOperand => "fixed operand",
            Self::FixedResult => "fixed result",
        }
    }
}

/// What one op makes of the layouts around it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assignment {
    /// Axes of each factor (empty for a collective).
    pub factors: Vec<Axes>,
    /// The layout each operand should have for the op to compute this way.
    pub operands: Vec<Layout>,
    /// The layouts the op produces.
    pub results: Vec<Layout>,
    /// Partial operands the op cannot take: they must be reduced first.
    pub unresolved: Vec<usize>,
    /// Human-readable conflicts (a tensor whose layout lost) and errors.
    pub conflicts: Vec<String>,
    pub errors: Vec<String>,
}

/// The outcome of propagation.
#[derive(Debug, Clone)]
pub struct Solution {
    pub layouts: Vec<Layout>,
    pub assignments: Vec<Assignment>,
    /// Number of op visits until the fixed point (for benchmarks).
    pub visits: usize,
}

struct Candidate {
    axes: Axes,
    priority: Priority,
    side: Side,
}

/// Each factor's candidates (inline: ops have a handful of factors).
type Candidates = SmallVec<[SmallVec<[Candidate; 4]>; 8]>;

/// The op a factor is chosen for.
struct FactorContext<'o> {
    op: &'o Op,
    rule: &'o FactorRule,
    facts: &'o OpFacts,
    carried_axes: &'o [Axis],
}

/// The factor axes chosen so far, and what choosing them reported.
struct Choice {
    /// The factor each mesh axis went to.
    claimed: SmallVec<[Option<usize>; 8]>,
    /// The priority of the candidate each factor took.
    won_with: SmallVec<[Option<Priority>; 8]>,
    factors: Vec<Axes>,
    /// Factors that lost an axis to a factor that took it from a fixed
    /// operand.
    lost_to_fixed_operand: SmallVec<[usize; 2]>,
    conflicts: Vec<String>,
    errors: Vec<String>,
}

/// What assigning an op needs that never changes, computed once per op.
#[derive(Default)]
struct OpFacts {
    /// Per factor, the gcd of the sizes of its dims: a split divides them
    /// all exactly when it divides this.
    size_gcd: Vec<i64>,
    /// Per factor, its size when a split may leave the last shards padded
    /// (GSPMD's uneven split): every dim of the factor has that size (a
    /// reshape's merged dims do not), and no result averages over it (a
    /// padded mean would count the padding). Partition masks the padding
    /// of the factors a result sums or takes the max or min over.
    paddable: Vec<Option<i64>>,
    /// Per factor, whether all its dims have one size.
    uniform: Vec<bool>,
    /// `reduced[r * size_gcd.len() + f]`: factor `f` is reduced away for
    /// result `r`.
    reduced: Vec<bool>,
}

impl OpFacts {
    fn new(problem: &Problem, op: &Op) -> Self {
        let Rule::Factor(rule) = &*op.rule else {
            return Self::default();
        };
        let n = rule.factors.len();
        let mut size_gcd = vec![0; n];
        let mut sizes: Vec<Option<i64>> = vec![None; n];
        let mut uniform = vec![true; n];
        let tensors = rule
            .operands
            .iter()
            .zip(&op.operands)
            .chain(rule.results.iter().zip(&op.results));
        for (dims, &v) in tensors {
            for (&f, &size) in dims.iter().zip(&problem.values[v].shape) {
                if let Some(f) = f {
                    size_gcd[f] = gcd(size_gcd[f], size);
                    uniform[f] &= sizes[f].is_none_or(|s| s == size);
                    sizes[f] = Some(size);
                }
            }
        }
        let reduced: Vec<bool> = (0..rule.results.len())
            .flat_map(|r| (0..n).map(move |f| rule.is_reduced(f, r)))
            .collect();
        let paddable = (0..n)
            .map(|f| {
                let averaged =
                    (0..rule.results.len()).any(|r| reduced[r * n + f] && rule.reduction[r] == ReductionKind::Avg);
                sizes[f].filter(|_| uniform[f] && !averaged)
            })
            .collect();
        Self {
            size_gcd,
            paddable,
            uniform,
            reduced,
        }
    }

    fn is_reduced(&self, factor: usize, result: usize) -> bool {
        self.reduced[result * self.size_gcd.len() + factor]
    }
}

fn gcd(mut a: i64, mut b: i64) -> i64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.abs()
}

pub struct Solver<'p> {
    problem: &'p Problem,
    facts: Vec<OpFacts>,
}

fn union_sorted(a: &[Axis], b: &[Axis]) -> Axes {
    let mut out = Axes::from_slice(a);
    for &axis in b {
        if !out.contains(&axis) {
            out.push(axis);
        }
    }
    out.sort_unstable();
    out
}

impl<'p> Solver<'p> {
    pub fn new(problem: &'p Problem) -> Self {
        let facts = problem.ops.iter().map(|op| OpFacts::new(problem, op)).collect();
        Self { problem, facts }
    }

    fn numel(&self, value: usize) -> i64 {
        self.problem.values[value].shape.iter().product()
    }

    fn shards(&self, axes: &[Axis]) -> i64 {
        axes.iter().map(|&a| self.problem.axis_sizes[a as usize]).product()
    }

    /// `{"dp", "tp"}`, as in the sharding attribute.
    pub fn axes_text(&self, axes: &[Axis]) -> String {
        axes_text(&self.problem.axis_names, axes)
    }

    /// Runs to the fixed point.
    pub fn solve(&self, direction: Direction) -> Solution {
        let p = self.problem;
        let mut layouts: Vec<Layout> = p
            .values
            .iter()
            .map(|v| v.fixed.clone().unwrap_or_else(|| Layout::replicated(v.shape.len())))
            .collect();
        let mut users: Vec<Vec<usize>> = vec![Vec::new(); p.values.len()];
        let mut def: Vec<Option<usize>> = vec![None; p.values.len()];
        for (i, op) in p.ops.iter().enumerate() {
            for &v in &op.operands {
                if users[v].last() != Some(&i) {
                    users[v].push(i);
                }
            }
            for &v in &op.results {
                def[v] = Some(i);
            }
        }
        // Declared function results refine open values once: nothing else
        // can change what they ask for.
        if direction != Direction::Forward {
            for req in &p.requirements {
                if p.values[req.value].fixed.is_none()
                    && let Some(refined) = self.refine(&layouts[req.value], &req.layout.dims, None, req.value)
                {
                    layouts[req.value] = refined;
                }
            }
        }
        let mut queue: VecDeque<usize> = (0..p.ops.len()).collect();
        let mut queued = vec![true; p.ops.len()];
        let mut visits = 0;
        while let Some(i) = queue.pop_front() {
            queued[i] = false;
            visits += 1;
            let op = &p.ops[i];
            let a = self.assign(i, &layouts);
            let mut changed = Vec::new();
            if direction != Direction::Backward {
                for (r, &v) in op.results.iter().enumerate() {
                    let proposed = &a.results[r];
                    if p.values[v].fixed.is_none()
                        && let Some(refined) = self.refine(&layouts[v], &proposed.dims, proposed.partial.as_ref(), v)
                    {
                        layouts[v] = refined;
                        changed.push(v);
                    }
                }
            }
            if direction != Direction::Forward {
                for (o, &v) in op.operands.iter().enumerate() {
                    if p.values[v].fixed.is_none()
                        && let Some(refined) = self.refine(&layouts[v], &a.operands[o].dims, None, v)
                    {
                        layouts[v] = refined;
                        changed.push(v);
                    }
                }
            }
            for v in changed {
                for &j in def[v].iter().chain(&users[v]) {
                    if j != i && !queued[j] {
                        queued[j] = true;
                        queue.push_back(j);
                    }
                }
            }
        }
        // Settle in program order (operands before users): an open result
        // takes what its op computes under the final assignment, so
        // a value is partial exactly when its op leaves it partial, sibling
        // results never disagree, and re-running on the output (where every
        // layout is fixed) reproduces every assignment.
        let mut assignments = Vec::with_capacity(p.ops.len());
        for (i, op) in p.ops.iter().enumerate() {
            let a = self.assign(i, &layouts);
            for (r, &v) in op.results.iter().enumerate() {
                if p.values[v].fixed.is_some() {
                    continue;
                }
                // Backward propagation leaves result splits to the users;
                // partial status is derived in every direction.
                if direction == Direction::Backward {
                    layouts[v].partial = a.results[r].partial.clone();
                } else {
                    layouts[v] = a.results[r].clone();
                }
            }
            assignments.push(a);
        }
        Solution {
            layouts,
            assignments,
            visits,
        }
    }

    /// `current` refined towards `dims` (and `partial`), or `None` if that
    /// adds nothing. A dim is refined only if its current axes are a prefix
    /// of the proposed ones and the result stays a valid sharding.
    fn refine(&self, current: &Layout, dims: &[Axes], partial: Option<&PartialLayout>, value: usize) -> Option<Layout> {
        // Most proposals add nothing: answer those without cloning.
        let grows = dims
            .iter()
            .zip(&current.dims)
            .any(|(p, h)| p.len() > h.len() && p.starts_with(h));
        if !grows && partial.is_none_or(|p| current.partial.as_ref() == Some(p)) {
            return None;
        }
        let shape = &self.problem.values[value].shape;
        let mut next = current.clone();
        let mut changed = false;
        for (d, proposed) in dims.iter().enumerate() {
            let have = &next.dims[d];
            if proposed.len() <= have.len() || !proposed.starts_with(have) {
                continue;
            }
            let extra = &proposed[have.len()..];
            if extra.iter().any(|&a| next.uses(a)) || shape[d] % self.shards(proposed) != 0 {
                continue;
            }
            next.dims[d] = *proposed;
            changed = true;
        }
        if let Some(partial) = partial {
            let grows = match &next.partial {
                None => true,
                Some(have) => {
                    have.kind == partial.kind
                        && have.axes.len() < partial.axes.len()
                        && have.axes.iter().all(|a| partial.axes.contains(a))
                }
            };
            let extra: Vec<Axis> = partial
                .axes
                .iter()
                .copied()
                .filter(|a| !next.partial_axes().contains(a))
                .collect();
            if grows && !partial.axes.is_empty() && extra.iter().all(|&a| !next.uses(a)) {
                next.partial = Some(partial.clone());
                changed = true;
            }
        }
        changed.then_some(next)
    }

    /// Assigns axes to the factors of op `i` from `layouts`.
    pub fn assign(&self, i: usize, layouts: &[Layout]) -> Assignment {
        let op = &self.problem.ops[i];
        match &*op.rule {
            Rule::Factor(rule) => self.assign_factors(op, rule, &self.facts[i], layouts),
            Rule::Collective(c) => self.assign_collective(op, &c.transfer, layouts),
        }
    }

    fn is_fixed(&self, value: usize) -> bool {
        self.problem.values[value].fixed.is_some()
    }

    /// Which partial operand passes through to the results, if any.
    fn carried(&self, op: &Op, rule: &FactorRule, layouts: &[Layout]) -> Option<(Vec<usize>, PartialLayout)> {
        let partial: Vec<(usize, &PartialLayout)> = op
            .operands
            .iter()
            .enumerate()
            .filter_map(|(i, &v)| layouts[v].partial.as_ref().map(|p| (i, p)))
            .collect();
        let linear_kind = |k: ReductionKind| matches!(k, ReductionKind::Sum | ReductionKind::Avg);
        match &rule.linearity {
            Linearity::None => None,
            Linearity::Sum(listed) => {
                let (_, first) = *partial.first()?;
                let all_listed = partial.len() == listed.len() && partial.iter().all(|(i, _)| listed.contains(i));
                (all_listed && linear_kind(first.kind) && partial.iter().all(|(_, p)| *p == first))
                    .then(|| (listed.clone(), first.clone()))
            }
            // Carrying defers the reduction to the result: worth it only
            // if the result is no larger than the operand (a matmul whose
            // output is wider than its contracted dim, or a broadcast,
            // would reduce more elements later).
            Linearity::Each { operands, any_kind } => match partial.as_slice() {
                [(i, p)]
                    if operands.contains(i)
                        && (*any_kind || linear_kind(p.kind))
                        && op.results.iter().all(|&r| self.numel(r) <= self.numel(op.operands[*i])) =>
                {
                    Some((vec![*i], (*p).clone()))
                }
                _ => None,
            },
        }
    }

    fn assign_factors(&self, op: &Op, rule: &FactorRule, facts: &OpFacts, layouts: &[Layout]) -> Assignment {
        let mut carried = self.carried(op, rule, layouts);
        loop {
            let a = self.assign_with(op, rule, facts, layouts, carried.as_ref());
            // A carried partial whose kind differs from what the op itself
            // reduces cannot combine: resolve it first instead.
            let clash = carried.as_ref().is_some_and(|(_, c)| {
                (0..rule.results.len()).any(|r| {
                    rule.reduction[r] != c.kind
                        && (0..rule.factors.len()).any(|f| facts.is_reduced(f, r) && !a.factors[f].is_empty())
                })
            });
            if !clash {
                return a;
            }
            carried = None;
        }
    }

    fn assign_with(
        &self,
        op: &Op,
        rule: &FactorRule,
        facts: &OpFacts,
        layouts: &[Layout],
        carried: Option<&(Vec<usize>, PartialLayout)>,
    ) -> Assignment {
        let carried_axes: &[Axis] = carried.map_or(&[], |(_, c)| &c.axes);
        let mut candidates = self.candidates(op, rule, layouts);
        self.ask_for_declared_partials(op, rule, facts, carried_axes, &mut candidates);
        // Factors with the strongest claims choose first.
        let n = rule.factors.len();
        let mut order: SmallVec<[usize; 8]> = (0..n).collect();
        let best_priority = |f: usize| candidates[f].iter().map(|c| c.priority).max();
        order.sort_by_key(|&f| std::cmp::Reverse(best_priority(f)));
        let at = FactorContext {
            op,
            rule,
            facts,
            carried_axes,
        };
        let mut choice = self.choose_in_order(&at, &candidates, &order);
        let (mut operands, mut results) = self.project(rule, facts, carried, &choice.factors);
        // A fixed operand's split is where the tensor is stored, not
        // necessarily where to compute: when it took an axis another factor
        // wanted, also let that factor choose first (after any fixed
        // result's factors, which still win) and keep the plan that moves
        // fewer elements (with a large enough batch, FSDP's all_gather of a
        // dp-split weight rather than a contraction over dp that leaves the
        // product partial). A tie goes to the plan whose earliest differing
        // factor (batch dims come first in the rules) has more axes: a
        // function of the layouts alone, so a re-run on the output, where
        // every layout is fixed, chooses the same.
        if !choice.lost_to_fixed_operand.is_empty() {
            let lost = &choice.lost_to_fixed_operand;
            let fixed_result = |f: &usize| best_priority(*f) == Some(Priority::FixedResult);
            let mut promoted: SmallVec<[usize; 8]> = order
                .iter()
                .copied()
                .filter(|f| fixed_result(f) && !lost.contains(f))
                .collect();
            promoted.extend(lost.iter().copied());
            promoted.extend(order.iter().copied().filter(|f| !fixed_result(f) && !lost.contains(f)));
            let other = self.choose_in_order(&at, &candidates, &promoted);
            let (other_operands, other_results) = self.project(rule, facts, carried, &other.factors);
            let rank = |factors: &[Axes], operands: &[Layout], results: &[Layout]| {
                let earlier_factors_first: Vec<std::cmp::Reverse<usize>> =
                    factors.iter().map(|axes| std::cmp::Reverse(axes.len())).collect();
                (
                    self.elements_moved(op, rule, layouts, operands, results),
                    earlier_factors_first,
                )
            };
            if rank(&other.factors, &other_operands, &other_results) < rank(&choice.factors, &operands, &results) {
                (choice, operands, results) = (other, other_operands, other_results);
            }
        }
        let unresolved = op
            .operands
            .iter()
            .enumerate()
            .filter(|&(i, &v)| {
                layouts[v].partial.is_some() && operands[i].partial.is_none() && !rule.shape_only.contains(&i)
            })
            .map(|(i, _)| i)
            .collect();
        self.check_declared_partials(op, rule, facts, &results, &mut choice.errors);
        Assignment {
            factors: choice.factors,
            operands,
            results,
            unresolved,
            conflicts: choice.conflicts,
            errors: choice.errors,
        }
    }

    /// Chooses the factors' axes in `order`.
    fn choose_in_order(&self, at: &FactorContext<'_>, candidates: &Candidates, order: &[usize]) -> Choice {
        let mut choice = Choice {
            claimed: smallvec![None; self.problem.axis_sizes.len()],
            won_with: smallvec![None; at.rule.factors.len()],
            factors: vec![Axes::new(); at.rule.factors.len()],
            lost_to_fixed_operand: SmallVec::new(),
            conflicts: Vec::new(),
            errors: Vec::new(),
        };
        for &f in order {
            self.choose(at, f, &candidates[f], &mut choice);
        }
        choice
    }

    /// Elements each device moves to run `op` with these operand and result
    /// layouts, by the ring model of [`CollectiveKind::wire_bytes`]: operands
    /// resharded from their current layouts (not those read for their shape
    /// only), fixed results resharded to their declarations, and results
    /// left partial where not declared so (a reduce_scatter where the
    /// result's layout splits a dim over the axes, else an all_reduce).
    /// Elements, not bytes, and no partial operand's reduction: both plans
    /// of one op read the same operands, so these weigh the same in each.
    fn elements_moved(
        &self,
        op: &Op,
        rule: &FactorRule,
        layouts: &[Layout],
        operands: &[Layout],
        results: &[Layout],
    ) -> u64 {
        let values = &self.problem.values;
        let into_operands: u64 = op
            .operands
            .iter()
            .zip(operands)
            .enumerate()
            .filter(|(i, _)| !rule.shape_only.contains(i))
            .map(|(_, (&v, want))| self.reshard_elements(&values[v].shape, &layouts[v].dims, &want.dims))
            .sum();
        let out_of_results: u64 = op
            .results
            .iter()
            .zip(results)
            .map(|(&v, got)| {
                let shape = &values[v].shape;
                let declared_partial = values[v].fixed.as_ref().and_then(|l| l.partial.as_ref());
                let pending: Axes = got
                    .partial_axes()
                    .iter()
                    .copied()
                    .filter(|a| !declared_partial.is_some_and(|p| p.axes.contains(a)))
                    .collect();
                let kind = if pending.iter().all(|a| layouts[v].dims.iter().any(|d| d.contains(a))) {
                    CollectiveKind::ReduceScatter
                } else {
                    CollectiveKind::AllReduce
                };
                let local = local_numel(shape, &got.dims, &self.problem.axis_sizes) as u64;
                let reduce = kind.wire_bytes(self.shards(&pending) as u64, local, local);
                let reshard = values[v]
                    .fixed
                    .as_ref()
                    .map_or(0, |l| self.reshard_elements(shape, &got.dims, &l.dims));
                reduce + reshard
            })
            .sum();
        into_operands + out_of_results
    }

    /// Elements each device moves to take a value of `shape` from dims
    /// `from` to dims `to`: axes that leave a dim for another move by
    /// all_to_all, axes that leave altogether are gathered, new axes slice
    /// for free.
    fn reshard_elements(&self, shape: &[i64], from: &[Axes], to: &[Axes]) -> u64 {
        let sizes = &self.problem.axis_sizes;
        let in_to = |a: &Axis| to.iter().any(|d| d.contains(a));
        let mut moved = 1;
        let mut gathered = 1;
        let mut kept: Vec<Axes> = Vec::with_capacity(from.len());
        for (have, want) in from.iter().zip(to) {
            kept.push(have.iter().copied().filter(|a| want.contains(a) || in_to(a)).collect());
            for a in have.iter().filter(|a| !want.contains(a)) {
                if in_to(a) {
                    moved *= sizes[*a as usize];
                } else {
                    gathered *= sizes[*a as usize];
                }
            }
        }
        let local = |dims: &[Axes]| local_numel(shape, dims, sizes) as u64;
        CollectiveKind::AllToAll.wire_bytes(moved as u64, local(from), 0)
            + CollectiveKind::AllGather.wire_bytes(gathered as u64, 0, local(&kept))
    }

    /// Each factor's candidate axes: what each operand and result dim
    /// mapped to it is split over (fixed tensors even when not split).
    fn candidates(&self, op: &Op, rule: &FactorRule, layouts: &[Layout]) -> Candidates {
        // Inline buffers: ops have a handful of factors and candidates.
        let mut candidates: Candidates = (0..rule.factors.len()).map(|_| SmallVec::new()).collect();
        let tensors = rule
            .operands
            .iter()
            .zip(&op.operands)
            .enumerate()
            .map(|(i, (dims, &v))| (Side::Operand(i), dims, v))
            .chain(
                rule.results
                    .iter()
                    .zip(&op.results)
                    .enumerate()
                    .map(|(i, (dims, &v))| (Side::Result(i), dims, v)),
            );
        for (side, dims, v) in tensors {
            let fixed = self.is_fixed(v);
            let priority = match (fixed, side) {
                (false, _) => Priority::Propagated,
                (true, Side::Operand(_)) => Priority::FixedOperand,
                (true, Side::Result(_)) => Priority::FixedResult,
            };
            for (d, f) in dims.iter().enumerate() {
                let Some(f) = *f else { continue };
                let axes = &layouts[v].dims[d];
                if fixed || !axes.is_empty() {
                    candidates[f].push(Candidate {
                        axes: *axes,
                        priority,
                        side,
                    });
                }
            }
        }
        candidates
    }

    /// A fixed partial result claims its axes at its own priority: for the
    /// reduced factors operands already split over them (one factor over
    /// all of them, or, where only this result declares a partial, several
    /// over disjoint parts), and those no operand offers for the first
    /// reduced factor no operand splits.
    fn ask_for_declared_partials(
        &self,
        op: &Op,
        rule: &FactorRule,
        facts: &OpFacts,
        carried_axes: &[Axis],
        candidates: &mut Candidates,
    ) {
        let n = rule.factors.len();
        for (r, &v) in op.results.iter().enumerate() {
            let Some(want) = self.problem.values[v].fixed.as_ref().and_then(|l| l.partial.as_ref()) else {
                continue;
            };
            let reduced: Vec<usize> = (0..n).filter(|&f| facts.is_reduced(f, r)).collect();
            // An operand's split of a reduced factor over declared axes
            // speaks for the result too: where two operands split the
            // factor differently (x's contraction over one axis, y's over
            // another), the declared one wins, as it did when the
            // declaration was propagated.
            let declared: Axes = want
                .axes
                .iter()
                .copied()
                .filter(|a| !carried_axes.contains(a))
                .collect();
            // One factor split over all the declared axes, or (for an op
            // whose only declared partial this is) several whose splits
            // together make them up (an embedding gradient's two position
            // dims, one over each axis).
            let declaring = op
                .results
                .iter()
                .filter(|&&v| {
                    self.problem.values[v]
                        .fixed
                        .as_ref()
                        .is_some_and(|l| l.partial.is_some())
                })
                .count();
            let mut offers: SmallVec<[(usize, Axes); 4]> = SmallVec::new();
            for &f in &reduced {
                let claimed = candidates[f].iter().any(|c| c.priority == Priority::FixedResult);
                let offer = candidates[f]
                    .iter()
                    .filter(|c| !c.axes.is_empty() && c.axes.iter().all(|a| declared.contains(a)))
                    .filter(|c| declaring == 1 || c.axes == declared)
                    .max_by_key(|c| c.axes.len());
                if let (false, Some(c)) = (claimed, offer) {
                    offers.push((f, c.axes));
                }
            }
            let offered: Axes = offers.iter().flat_map(|(_, axes)| axes.iter().copied()).collect();
            let disjoint = offered.len() == offers.iter().map(|(_, axes)| axes.len()).sum::<usize>();
            if !declared.is_empty() && disjoint && declared.iter().all(|a| offered.contains(a)) {
                for (f, axes) in offers {
                    candidates[f].push(Candidate {
                        axes,
                        priority: Priority::FixedResult,
                        side: Side::Result(r),
                    });
                }
            }
            let given: Vec<Axis> = reduced
                .iter()
                .flat_map(|&f| candidates[f].iter().flat_map(|c| c.axes.iter().copied()))
                .chain(carried_axes.iter().copied())
                .collect();
            let missing: Axes = want.axes.iter().copied().filter(|a| !given.contains(a)).collect();
            let open = reduced
                .iter()
                .copied()
                .find(|&f| rule.factors[f].shardable && candidates[f].iter().all(|c| c.axes.is_empty()));
            if let (false, Some(f)) = (missing.is_empty(), open) {
                candidates[f].push(Candidate {
                    axes: missing,
                    priority: Priority::FixedResult,
                    side: Side::Result(r),
                });
            }
        }
    }

    /// Chooses the axes of factor `f` among its candidates, recording the
    /// losers as conflicts (or errors, when two fixed results disagree) and
    /// trimming the winner to what the op admits.
    fn choose(&self, at: &FactorContext<'_>, f: usize, cands: &[Candidate], choice: &mut Choice) {
        let (op, rule, facts, carried_axes) = (at.op, at.rule, at.facts, at.carried_axes);
        // Fixed results reducing `f` admit only their partial axes.
        let declared: SmallVec<[(usize, &[Axis]); 2]> = op
            .results
            .iter()
            .enumerate()
            .filter(|&(r, _)| facts.is_reduced(f, r))
            .filter_map(|(r, &v)| self.problem.values[v].fixed.as_ref().map(|l| (r, l.partial_axes())))
            .collect();
        // What a candidate can keep: the prefix of its axes that is
        // admissible, free and splits every dim of the factor, evenly or
        // with the last shards padded. Ranking by it makes the choice depend
        // on layouts only, so re-running on the output reproduces it.
        // An uneven split takes one axis: over two, the outer axis's padded
        // blocks would not nest in the flat layout the shards follow.
        let even = |axes: &[Axis]| facts.size_gcd[f] % self.shards(axes) == 0;
        let divides = |axes: &[Axis]| {
            let shards = self.shards(axes);
            even(axes) || (axes.len() == 1 && facts.paddable[f].is_some_and(|size| size >= shards))
        };
        let claimed = &choice.claimed;
        let usable = |a: &Axis| {
            declared.iter().all(|(_, ok)| ok.contains(a)) && claimed[*a as usize].is_none() && !carried_axes.contains(a)
        };
        let fit = |c: &Candidate| {
            let free = if rule.factors[f].shardable {
                c.axes.iter().take_while(|a| usable(a)).count()
            } else {
                0
            };
            let n = (0..=free).rev().find(|&k| divides(&c.axes[..k])).unwrap_or(0);
            // An even split wins over an uneven one, however many shards.
            (even(&c.axes[..n]), self.shards(&c.axes[..n]), n)
        };
        let Some(best) = cands
            .iter()
            .enumerate()
            .max_by_key(|(i, c)| (c.priority, fit(c), std::cmp::Reverse(*i)))
            .map(|(_, c)| c)
        else {
            return;
        };
        let name = &rule.factors[f].name;
        self.report_losers(name, best, cands, &fit, (&mut choice.conflicts, &mut choice.errors));
        let mut axes = best.axes;
        let mut drop = |axes: &mut Axes, keep: usize, reason: String| {
            if keep < axes.len() {
                choice.conflicts.push(format!(
                    "factor '{name}' cannot be split over {}: {reason}; {} is resharded",
                    self.axes_text(&axes[keep..]),
                    best.side
                ));
                axes.truncate(keep);
            }
        };
        if !rule.factors[f].shardable {
            drop(&mut axes, 0, "the op needs it whole".into());
        }
        for (r, allowed) in &declared {
            if let Some(k) = axes.iter().position(|a| !allowed.contains(a)) {
                let reason = if allowed.is_empty() {
                    format!("result #{r} is declared not partial")
                } else {
                    format!("result #{r} is declared partial over {} only", self.axes_text(allowed))
                };
                drop(&mut axes, k, reason);
            }
        }
        let taken = axes
            .iter()
            .position(|&a| choice.claimed[a as usize].is_some() || carried_axes.contains(&a));
        if let Some(k) = taken {
            let owner_factor = choice.claimed[axes[k] as usize];
            if let Some(g) = owner_factor
                && choice.won_with[g] == Some(Priority::FixedOperand)
                && best.priority <= Priority::FixedOperand
            {
                choice.lost_to_fixed_operand.push(f);
            }
            let owner = owner_factor.map_or("the partial operand".to_owned(), |g| {
                format!("factor '{}'", rule.factors[g].name)
            });
            let reason = format!("{} is taken by {owner}", self.axes_text(&axes[k..=k]));
            drop(&mut axes, k, reason);
        }
        let kept = (0..=axes.len()).rev().find(|&k| divides(&axes[..k])).unwrap_or(0);
        if kept < axes.len() {
            let shards = self.shards(&axes[..=kept]);
            let bad = self.factor_sizes(op, rule, f).find(|s| s % shards != 0).unwrap_or(0);
            let why = match facts.paddable[f] {
                Some(_) if kept >= 1 => "and an uneven split takes one axis",
                Some(size) if size < shards => "and has fewer entries than shards",
                Some(_) => unreachable!("a paddable factor of enough entries fits"),
                None if !facts.uniform[f] => "and its dims differ in size (a reshape), so padding cannot line up",
                None => "and a result averages over it, which padding would skew",
            };
            let reason = format!("size {bad} is not divisible by {shards}, {why}");
            drop(&mut axes, kept, reason);
        }
        for &a in &axes {
            choice.claimed[a as usize] = Some(f);
        }
        choice.won_with[f] = Some(best.priority);
        choice.factors[f] = axes;
    }

    /// The candidates of factor `name` that lost to `best`: an error when
    /// two fixed results disagree, else a conflict saying why `best` won.
    fn report_losers(
        &self,
        name: &str,
        best: &Candidate,
        cands: &[Candidate],
        fit: &dyn Fn(&Candidate) -> (bool, i64, usize),
        (conflicts, errors): (&mut Vec<String>, &mut Vec<String>),
    ) {
        // A propagated layout that `best` only refines is no conflict.
        let loses = |c: &&Candidate| {
            c.axes != best.axes && (c.priority != Priority::Propagated || !best.axes.starts_with(&c.axes))
        };
        for loser in cands.iter().filter(loses) {
            if loser.priority == Priority::FixedResult && best.priority == Priority::FixedResult {
                errors.push(format!(
                    "fixed shardings contradict on factor '{name}': {} splits it over {}, {} over {}",
                    best.side,
                    self.axes_text(&best.axes),
                    loser.side,
                    self.axes_text(&loser.axes)
                ));
            } else {
                let why = if loser.priority != best.priority {
                    format!("{} wins over {}", best.priority.describe(), loser.priority.describe())
                } else if fit(loser).0 != fit(best).0 {
                    "an even split wins over an uneven one".to_owned()
                } else if fit(loser) != fit(best) {
                    "more usable shards win".to_owned()
                } else {
                    format!("{} comes first", best.side)
                };
                conflicts.push(format!(
                    "sharding conflict on factor '{name}': {} splits it over {}, {} over {}; keeping {} ({why})",
                    best.side,
                    self.axes_text(&best.axes),
                    loser.side,
                    self.axes_text(&loser.axes),
                    self.axes_text(&best.axes),
                ));
            }
        }
    }

    /// The operand and result layouts the chosen factor axes imply; results
    /// are partial over the axes of their reduced factors (and any carried
    /// partial).
    fn project(
        &self,
        rule: &FactorRule,
        facts: &OpFacts,
        carried: Option<&(Vec<usize>, PartialLayout)>,
        factors: &[Axes],
    ) -> (Vec<Layout>, Vec<Layout>) {
        let carried_axes: &[Axis] = carried.map_or(&[], |(_, c)| &c.axes);
        let n = rule.factors.len();
        let project = |dims: &[Option<usize>]| -> Vec<Axes> {
            dims.iter().map(|f| f.map_or_else(Axes::new, |f| factors[f])).collect()
        };
        let results: Vec<Layout> = (0..rule.results.len())
            .map(|r| {
                let reduced: Axes = (0..n)
                    .filter(|&f| facts.is_reduced(f, r))
                    .flat_map(|f| factors[f].iter().copied())
                    .collect();
                let axes = union_sorted(&reduced, carried_axes);
                let kind = match carried {
                    Some((_, c)) => c.kind,
                    None => rule.reduction[r],
                };
                Layout {
                    dims: project(&rule.results[r]),
                    partial: (!axes.is_empty()).then_some(PartialLayout { axes, kind }),
                }
            })
            .collect();
        let operands: Vec<Layout> = rule
            .operands
            .iter()
            .enumerate()
            .map(|(i, dims)| Layout {
                dims: project(dims),
                partial: carried.filter(|(ops, _)| ops.contains(&i)).map(|(_, c)| c.clone()),
            })
            .collect();
        (operands, results)
    }

    /// A result declared partial must be produced partial over those axes,
    /// with that kind.
    fn check_declared_partials(
        &self,
        op: &Op,
        rule: &FactorRule,
        facts: &OpFacts,
        results: &[Layout],
        errors: &mut Vec<String>,
    ) {
        let n = rule.factors.len();
        for (r, &v) in op.results.iter().enumerate() {
            let Some(want) = self.problem.values[v].fixed.as_ref().and_then(|l| l.partial.as_ref()) else {
                continue;
            };
            let got = results[r].partial.as_ref();
            let missing: Vec<Axis> = want
                .axes
                .iter()
                .copied()
                .filter(|a| !got.is_some_and(|g| g.axes.contains(a)))
                .collect();
            if !missing.is_empty() {
                let reduced: Vec<&str> = (0..n)
                    .filter(|&f| facts.is_reduced(f, r))
                    .map(|f| &*rule.factors[f].name)
                    .collect();
                let why = if reduced.is_empty() {
                    "it reduces no factor".to_owned()
                } else {
                    format!(
                        "its reduced factors ({}) are not split over them",
                        reduced.iter().map(|f| format!("'{f}'")).collect::<Vec<_>>().join(", ")
                    )
                };
                errors.push(format!(
                    "result #{r} is declared partial over {}, which the op cannot produce: {why}",
                    self.axes_text(&missing)
                ));
            } else if let Some(g) = got.filter(|g| g.kind != want.kind) {
                errors.push(format!(
                    "result #{r} is declared partial {}, but the op produces partial {}",
                    want.kind, g.kind
                ));
            }
        }
    }

    /// Sizes of every dim mapped to factor `f` in `op`.
    fn factor_sizes<'a>(&'a self, op: &'a Op, rule: &'a FactorRule, f: usize) -> impl Iterator<Item = i64> + 'a {
        let values = &self.problem.values;
        rule.operands
            .iter()
            .zip(&op.operands)
            .chain(rule.results.iter().zip(&op.results))
            .flat_map(move |(dims, &v)| {
                dims.iter()
                    .enumerate()
                    .filter(move |(_, g)| **g == Some(f))
                    .map(move |(d, _)| values[v].shape[d])
            })
    }

    fn assign_collective(&self, op: &Op, transfer: &Transfer, layouts: &[Layout]) -> Assignment {
        let operands: Vec<Layout> = op
            .results
            .iter()
            .map(|&v| backward_transfer(transfer, &layouts[v]))
            .collect();
        let results = op
            .operands
            .iter()
            .map(|&v| forward_transfer(transfer, &layouts[v]))
            .collect();
        Assignment {
            factors: Vec::new(),
            operands,
            results,
            unresolved: Vec::new(),
            conflicts: Vec::new(),
            errors: Vec::new(),
        }
    }
}

fn without(axes: &[Axis], remove: &[Axis]) -> Axes {
    axes.iter().copied().filter(|a| !remove.contains(a)).collect()
}

fn with_appended(axes: &[Axis], add: &[Axis]) -> Axes {
    let mut out = without(axes, add);
    out.extend_from_slice(add);
    out
}

/// The result layout of a collective on an operand of layout `l`.
pub fn forward_transfer(transfer: &Transfer, l: &Layout) -> Layout {
    let mut out = l.clone();
    match transfer {
        Transfer::Reduce { axes, scatter_dim, .. } => {
            out.partial = l.partial.as_ref().and_then(|p| {
                let rest = without(&p.axes, axes);
                (!rest.is_empty()).then_some(PartialLayout {
                    axes: rest,
                    kind: p.kind,
                })
            });
            if let Some(d) = scatter_dim {
                out.dims[*d] = with_appended(&out.dims[*d], axes);
            }
        }
        Transfer::Gather { dim, axes } => out.dims[*dim] = without(&l.dims[*dim], axes),
        Transfer::Slice { dim, axes } => out.dims[*dim] = with_appended(&l.dims[*dim], axes),
        Transfer::AllToAll {
            split_dim,
            concat_dim,
            axes,
        } => {
            out.dims[*concat_dim] = without(&l.dims[*concat_dim], axes);
            out.dims[*split_dim] = with_appended(&out.dims[*split_dim], axes);
        }
    }
    out
}

/// The operand layout a collective needs to produce a result of layout `l`.
fn backward_transfer(transfer: &Transfer, l: &Layout) -> Layout {
    let mut out = l.clone();
    match transfer {
        Transfer::Reduce {
            axes,
            kind,
            scatter_dim,
        } => {
            if let Some(d) = scatter_dim {
                out.dims[*d] = without(&l.dims[*d], axes);
            }
            out.partial = Some(PartialLayout {
                axes: union_sorted(l.partial_axes(), axes),
                kind: *kind,
            });
        }
        Transfer::Gather { dim, axes } => out.dims[*dim] = with_appended(&l.dims[*dim], axes),
        Transfer::Slice { dim, axes } => out.dims[*dim] = without(&l.dims[*dim], axes),
        Transfer::AllToAll {
            split_dim,
            concat_dim,
            axes,
        } => {
            out.dims[*split_dim] = without(&l.dims[*split_dim], axes);
            out.dims[*concat_dim] = with_appended(&out.dims[*concat_dim], axes);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::rule_for;
    use crate::vocabulary::rules::{OpAttrs, OpDesc};
    use dist_dialect::DistOp;
    use proptest::prelude::*;

    /// Builds problems op by op.
    struct Program {
        problem: Problem,
    }

    impl Program {
        fn new(axes: &[(&str, i64)]) -> Self {
            Self {
                problem: Problem {
                    axis_names: axes.iter().map(|a| a.0.to_owned()).collect(),
                    axis_sizes: axes.iter().map(|a| a.1).collect(),
                    values: Vec::new(),
                    ops: Vec::new(),
                    requirements: Vec::new(),
                },
            }
        }

        fn value(&mut self, shape: &[i64], fixed: Option<Layout>) -> usize {
            self.problem.values.push(Value {
                shape: shape.to_vec(),
                fixed,
            });
            self.problem.values.len() - 1
        }

        fn op(&mut self, name: &str, attrs: OpAttrs, operands: &[usize], results: &[&[i64]]) -> Vec<usize> {
            let desc = OpDesc {
                name: name.into(),
                operands: operands.iter().map(|&v| self.problem.values[v].shape.clone()).collect(),
                results: results.iter().map(|s| s.to_vec()).collect(),
                attrs,
            };
            let rule = rule_for(&desc).unwrap();
            let results: Vec<usize> = results.iter().map(|s| self.value(s, None)).collect();
            self.problem.ops.push(Op {
                rule: Rc::new(rule),
                operands: operands.to_vec(),
                results: results.clone(),
            });
            results
        }
    }

    fn split(dims: &[&[Axis]]) -> Layout {
        Layout {
            dims: dims.iter().map(|d| Axes::from_slice(d)).collect(),
            partial: None,
        }
    }

    fn partial(mut layout: Layout, axes: &[Axis]) -> Layout {
        layout.partial = Some(PartialLayout {
            axes: Axes::from_slice(axes),
            kind: ReductionKind::Sum,
        });
        layout
    }

    #[test]
    fn data_parallel_weight_gradient_is_partial() {
        let mut p = Program::new(&[("dp", 2)]);
        let x = p.value(&[8, 16], Some(split(&[&[0], &[]])));
        let w = p.value(&[16, 32], None);
        let dout = p.value(&[8, 32], None);
        let grads = p.op(
            DistOp::MatmulGrad.name(),
            OpAttrs::default(),
            &[x, w, dout],
            &[&[8, 16], &[16, 32]],
        );
        let s = Solver::new(&p.problem).solve(Direction::Both);
        assert_eq!(s.layouts[dout], split(&[&[0], &[]]));
        assert_eq!(s.layouts[grads[0]], split(&[&[0], &[]]));
        assert_eq!(s.layouts[grads[1]], partial(split(&[&[], &[]]), &[0]));
    }

    /// `x @ w` (x: tokens x k, w: k x n) with x's rows split over dp by
    /// propagation and w stored split over dp on its contracted rows
    /// (ZeRO-3): the matmul's factor axes and conflicts. Asserts that a
    /// re-run with every layout fixed (the output) chooses the same.
    fn dp_stored_weight_sized(tokens: i64, k: i64, n: i64) -> (Vec<Axes>, Vec<String>) {
        let mut p = Program::new(&[("dp", 2)]);
        let ids = p.value(&[tokens, k], Some(split(&[&[0], &[]])));
        let x = p.op(DistOp::Relu.name(), OpAttrs::default(), &[ids], &[&[tokens, k]])[0];
        let w = p.value(&[k, n], Some(split(&[&[0], &[]])));
        p.op(DistOp::Matmul.name(), OpAttrs::default(), &[x, w], &[&[tokens, n]]);
        let s = Solver::new(&p.problem).solve(Direction::Both);
        let mut fixed = p.problem.clone();
        for (value, layout) in fixed.values.iter_mut().zip(&s.layouts) {
            value.fixed = Some(layout.clone());
        }
        let again = Solver::new(&fixed).solve(Direction::Both);
        assert_eq!(
            again.assignments[1].factors, s.assignments[1].factors,
            "re-run on the output"
        );
        let a = &s.assignments[1];
        (a.factors.clone(), a.conflicts.clone())
    }

    fn dp_stored_weight(tokens: i64) -> (Vec<Axes>, Vec<String>) {
        dp_stored_weight_sized(tokens, 64, 256)
    }

    #[test]
    fn a_dp_stored_weight_is_gathered_when_that_moves_less() {
        // 512 tokens: gathering w (64 x 256) moves 8192 elements; moving
        // x's split to the contracted dim and reducing the 512 x 256
        // product would move 8192 + 131072.
        let (factors, conflicts) = dp_stored_weight(512);
        let axes: Vec<&[Axis]> = factors.iter().map(|f| &f[..]).collect();
        assert_eq!(axes, [&[0][..], &[], &[]], "m, n, k");
        assert_eq!(
            conflicts,
            ["factor 'k' cannot be split over {\"dp\"}: {\"dp\"} is taken by factor 'm'; operand #1 is resharded"]
        );
    }

    #[test]
    fn a_dp_stored_weight_keeps_its_split_when_that_moves_less() {
        // 4 tokens: the all_to_all of x and the reduction of a 4 x 256
        // product move less than gathering the weight.
        let (factors, _) = dp_stored_weight(4);
        let axes: Vec<&[Axis]> = factors.iter().map(|f| &f[..]).collect();
        assert_eq!(axes, [&[][..], &[], &[0]], "m, n, k");
    }

    #[test]
    fn a_tie_settles_the_same_on_a_rerun() {
        // 4 x 16 @ 16 x 4. First visit: gathering w moves 32 elements,
        // contracting over dp 16 (x's all_to_all) + 16 (an all_reduce of
        // the product): a tie, which goes to the batch (m, the earlier
        // factor). The product's rows are then split, which a
        // reduce_scatter (8) delivers: contracting (24) wins, and the re-run
        // with every layout fixed agrees.
        let (factors, _) = dp_stored_weight_sized(4, 16, 4);
        let axes: Vec<&[Axis]> = factors.iter().map(|f| &f[..]).collect();
        assert_eq!(axes, [&[][..], &[], &[0]], "m, n, k");
    }

    #[test]
    fn partial_flows_through_linear_ops_only() {
        let mut p = Program::new(&[("tp", 2)]);
        let x = p.value(&[8, 64], Some(split(&[&[], &[0]])));
        let w = p.value(&[64, 16], None);
        let y = p.op(DistOp::Matmul.name(), OpAttrs::default(), &[x, w], &[&[8, 16]])[0];
        let scaled = p.op(DistOp::Scale.name(), OpAttrs::default(), &[y], &[&[8, 16]])[0];
        let sum = p.op(DistOp::Add.name(), OpAttrs::default(), &[scaled, y], &[&[8, 16]])[0];
        let other = p.value(&[8, 16], None);
        let mixed = p.op(DistOp::Add.name(), OpAttrs::default(), &[y, other], &[&[8, 16]])[0];
        let s = Solver::new(&p.problem).solve(Direction::Both);
        let tp = partial(split(&[&[], &[]]), &[0]);
        assert_eq!(s.layouts[y], tp);
        assert_eq!(s.layouts[scaled], tp);
        assert_eq!(s.layouts[sum], tp);
        assert_eq!(s.layouts[mixed], split(&[&[], &[]]));
        assert_eq!(s.assignments[3].unresolved, [0]);
    }

    #[test]
    fn partials_are_not_carried_into_larger_results() {
        // y = a @ b is partial over tp (8x16); y @ w widens it to 8x64, so
        // the matmul reduces y first rather than carry the partial; y @ v
        // keeps the width and carries it.
        let mut p = Program::new(&[("tp", 4)]);
        let a = p.value(&[8, 16], Some(split(&[&[], &[0]])));
        let b = p.value(&[16, 16], Some(split(&[&[0], &[]])));
        let y = p.op(DistOp::Matmul.name(), OpAttrs::default(), &[a, b], &[&[8, 16]])[0];
        let w = p.value(&[16, 64], Some(split(&[&[], &[]])));
        let wide = p.op(DistOp::Matmul.name(), OpAttrs::default(), &[y, w], &[&[8, 64]])[0];
        let v = p.value(&[16, 16], Some(split(&[&[], &[]])));
        let same = p.op(DistOp::Matmul.name(), OpAttrs::default(), &[y, v], &[&[8, 16]])[0];
        let s = Solver::new(&p.problem).solve(Direction::Both);
        let tp = partial(split(&[&[], &[]]), &[0]);
        assert_eq!(s.layouts[y], tp);
        assert_eq!(s.layouts[wide], split(&[&[], &[]]));
        assert_eq!(s.assignments[1].unresolved, [0]);
        assert_eq!(s.layouts[same], tp);
        assert!(s.assignments[2].unresolved.is_empty());
    }

    #[test]
    fn conflicting_users_terminate() {
        // A value pulled two ways by fixed users settles on the first
        // claim and stops: refinements only ever add axes.
        let mut p = Program::new(&[("a", 2), ("b", 2)]);
        let x = p.value(&[8, 8], None);
        let mut last = x;
        for i in 0..50 {
            let fixed = if i % 2 == 0 {
                split(&[&[0], &[1]])
            } else {
                split(&[&[1], &[0]])
            };
            let other = p.value(&[8, 8], Some(fixed));
            last = p.op(DistOp::Add.name(), OpAttrs::default(), &[last, other], &[&[8, 8]])[0];
        }
        let s = Solver::new(&p.problem).solve(Direction::Both);
        assert_eq!(s.layouts[x], split(&[&[0], &[1]]));
        assert!(s.visits < 10 * p.problem.ops.len(), "{} visits", s.visits);
    }

    /// A random valid layout of `shape` chosen by `seed`.
    fn random_layout(sizes: &[i64], shape: &[i64], seed: u64, with_partial: bool) -> Layout {
        let mut layout = Layout::replicated(shape.len());
        let mut spare = Axes::new();
        for (a, &size) in sizes.iter().enumerate() {
            let choice = (seed >> (3 * a)) as usize % (shape.len() + 2);
            let ok = |d: usize, layout: &Layout| {
                let shards: i64 = layout.dims[d].iter().map(|&b| sizes[b as usize]).product();
                shape[d] % (shards * size) == 0
            };
            if choice < shape.len() && ok(choice, &layout) {
                layout.dims[choice].push(a as Axis);
            } else if choice == shape.len() {
                spare.push(a as Axis);
            }
        }
        if with_partial && !spare.is_empty() {
            layout.partial = Some(PartialLayout {
                axes: spare,
                kind: ReductionKind::Sum,
            });
        }
        layout
    }

    fn check_valid(problem: &Problem, layouts: &[Layout]) -> Result<(), TestCaseError> {
        for (v, (value, l)) in problem.values.iter().zip(layouts).enumerate() {
            if l.dims.len() != value.shape.len() {
                return Err(TestCaseError::fail(format!(
                    "value {v}: rank {} for shape {:?}",
                    l.dims.len(),
                    value.shape
                )));
            }
            let mut used = vec![false; problem.axis_sizes.len()];
            let partial = l.partial.as_ref().map_or(&[][..], |p| &p.axes);
            if l.partial
                .as_ref()
                .is_some_and(|p| p.axes.is_empty() || !p.axes.is_sorted())
            {
                return Err(TestCaseError::fail(format!(
                    "value {v}: malformed partial {:?}",
                    l.partial
                )));
            }
            for &a in l.dims.iter().flatten().chain(partial) {
                if std::mem::replace(&mut used[a as usize], true) {
                    return Err(TestCaseError::fail(format!("value {v}: axis {a} used twice in {l:?}")));
                }
            }
            for (d, axes) in l.dims.iter().enumerate() {
                let shards: i64 = axes.iter().map(|&a| problem.axis_sizes[a as usize]).product();
                if value.shape[d] % shards != 0 {
                    return Err(TestCaseError::fail(format!(
                        "value {v}: dim {d} of {:?} split {shards} ways",
                        value.shape
                    )));
                }
            }
            if let Some(fixed) = &value.fixed
                && fixed != l
            {
                return Err(TestCaseError::fail(format!("value {v}: fixed {fixed:?} became {l:?}")));
            }
        }
        Ok(())
    }

    /// Interprets random instructions as a program of 2-D and 1-D tensors
    /// on a 2-axis mesh, annotating some arguments and op results.
    fn random_program(sizes: &[i64], steps: &[(u8, u64, u64)]) -> Problem {
        const DIMS: [i64; 5] = [2, 4, 6, 8, 12];
        let mut p = Program::new(&[("a", sizes[0]), ("b", sizes[1])]);
        let arg = |p: &mut Program, shape: &[i64], seed: u64| {
            let fixed =
                (!seed.is_multiple_of(3)).then(|| random_layout(sizes, shape, seed / 3, seed.is_multiple_of(5)));
            p.value(shape, fixed)
        };
        arg(&mut p, &[8, 12], 1);
        for &(kind, a, b) in steps {
            let n = p.problem.values.len();
            let x = (a as usize) % n;
            let shape = p.problem.values[x].shape.clone();
            let pick = DIMS[(b % 5) as usize];
            match (kind % 8, shape.as_slice()) {
                (0, _) => {
                    arg(&mut p, &[DIMS[(a % 5) as usize], pick], b);
                }
                (1, _) => {
                    p.op(DistOp::Relu.name(), OpAttrs::default(), &[x], &[&shape]);
                }
                (2, _) => {
                    let y = (0..n)
                        .map(|i| (i + b as usize) % n)
                        .find(|&i| p.problem.values[i].shape == shape);
                    p.op(DistOp::Add.name(), OpAttrs::default(), &[x, y.unwrap_or(x)], &[&shape]);
                }
                (3, &[m, k]) => {
                    let y = arg(&mut p, &[k, pick], a ^ b);
                    p.op(DistOp::Matmul.name(), OpAttrs::default(), &[x, y], &[&[m, pick]]);
                }
                (4, &[m, k]) => {
                    let dims = vec![(b % 2) as i64];
                    let out = if b % 2 == 0 { k } else { m };
                    let attrs = OpAttrs {
                        dims,
                        ..OpAttrs::default()
                    };
                    p.op(DistOp::ReduceSum.name(), attrs, &[x], &[&[out]]);
                }
                (5, &[m, k]) => {
                    let y = arg(&mut p, &[k, pick], b);
                    let dout = arg(&mut p, &[m, pick], a);
                    p.op(
                        DistOp::MatmulGrad.name(),
                        OpAttrs::default(),
                        &[x, y, dout],
                        &[&[m, k], &[k, pick]],
                    );
                }
                (6, &[m, k]) => {
                    let attrs = OpAttrs {
                        perm: vec![1, 0],
                        ..OpAttrs::default()
                    };
                    p.op(DistOp::Transpose.name(), attrs, &[x], &[&[k, m]]);
                }
                (7, _) => {
                    let r = p.op(DistOp::Gelu.name(), OpAttrs::default(), &[x], &[&shape])[0];
                    p.problem.values[r].fixed = Some(random_layout(sizes, &shape, b, false));
                }
                _ => {}
            }
        }
        p.problem
    }

    fn errors(solution: &Solution) -> Vec<&String> {
        solution.assignments.iter().flat_map(|a| &a.errors).collect()
    }

    proptest! {
        #[test]
        fn random_annotations_give_valid_idempotent_shardings(
            sizes in prop::collection::vec(1i64..=4, 2),
            steps in prop::collection::vec((0u8..8, any::<u64>(), any::<u64>()), 1..40),
            forward in any::<bool>(),
        ) {
            let direction = if forward { Direction::Forward } else { Direction::Both };
            let problem = random_program(&sizes, &steps);
            let once = Solver::new(&problem).solve(direction);
            prop_assert!(errors(&once).is_empty(), "{:?}", errors(&once));
            check_valid(&problem, &once.layouts)?;
            // The output, read back, has every layout fixed.
            let mut fixed = problem.clone();
            for (value, layout) in fixed.values.iter_mut().zip(&once.layouts) {
                value.fixed = Some(layout.clone());
            }
            let twice = Solver::new(&fixed).solve(direction);
            prop_assert!(errors(&twice).is_empty(), "{:?}", errors(&twice));
            prop_assert_eq!(&twice.layouts, &once.layouts);
            for (a, b) in once.assignments.iter().zip(&twice.assignments) {
                prop_assert_eq!(&a.factors, &b.factors);
                prop_assert_eq!(&a.results, &b.results);
            }
        }
    }
}
