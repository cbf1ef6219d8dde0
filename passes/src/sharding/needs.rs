//! Which uses of a sharded function see their value in another layout than
//! the one they need: what `dist-resolve-partial` resolves, and what
//! `dist-verify-sharding` and `dist-partition` refuse.

use super::graph::Graph;
use super::solver::{Layout, Solver, layout_text};
use crate::error::PassError;
use crate::vocabulary::rules::{Rule, Transfer};
use dist_dialect::ReductionKind;
use dist_dialect::ir::{Located, op_result};
use melior::ir::Location;
use melior::ir::operation::OperationLike;

/// Where a value is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Use {
    /// Operand `index` of solver op `op`.
    Operand { op: usize, index: usize },
    /// Function result `index`.
    Result(usize),
}

impl Use {
    /// The solver op that reads the value (`None`: the return does).
    pub fn op(self) -> Option<usize> {
        match self {
            Use::Operand { op, .. } => Some(op),
            Use::Result(_) => None,
        }
    }
}

/// A use that needs its value in `layout`.
#[derive(Debug, Clone)]
pub struct Need {
    pub value: usize,
    pub layout: Layout,
    pub at: Use,
}

/// Every value's layout and the uses that need another, errors reported.
pub(crate) fn layouts_and_needs(graph: &Graph<'_, '_>) -> Result<(Vec<Layout>, Vec<Need>), PassError> {
    let layouts = fixed_layouts(graph)?;
    let pending = needs(graph, &layouts)?;
    Ok((layouts, pending))
}

/// Every value's layout; all must be annotated.
fn fixed_layouts<'c>(graph: &Graph<'c, '_>) -> Result<Vec<Layout>, Located<'c>> {
    graph
        .problem
        .values
        .iter()
        .zip(&graph.values)
        .map(|(v, ir)| {
            v.fixed.clone().ok_or_else(|| {
                let location = owner_location(ir).unwrap_or_else(|| graph.function.operation().location());
                Located::new(
                    location,
                    "this value has no sharding: run dist-propagate-sharding first",
                )
            })
        })
        .collect()
}

fn owner_location<'c>(value: &melior::ir::Value<'c, '_>) -> Option<Location<'c>> {
    op_result(*value).map(|r| r.owner().location())
}

pub(crate) fn use_location<'c>(graph: &Graph<'c, '_>, at: Use) -> Location<'c> {
    match at {
        Use::Operand { op, .. } => graph.sites[op].op.location(),
        Use::Result(_) => graph
            .terminator
            .map_or_else(|| graph.function.operation().location(), |t| t.location()),
    }
}

/// The uses whose value is not in the layout they need.
fn needs<'c>(graph: &Graph<'c, '_>, layouts: &[Layout]) -> Result<Vec<Need>, Located<'c>> {
    let solver = Solver::new(&graph.problem);
    let mut needs = Vec::new();
    for (i, op) in graph.problem.ops.iter().enumerate() {
        let a = solver.assign(i, layouts);
        if let Some(e) = a.errors.first() {
            return Err(Located::at(&graph.sites[i].op, e.clone()));
        }
        let shape_only: &[usize] = match &*op.rule {
            Rule::Factor(rule) => &rule.shape_only,
            Rule::Collective(_) => &[],
        };
        for (index, (&value, want)) in op.operands.iter().zip(&a.operands).enumerate() {
            let have = &layouts[value];
            let sizes = &graph.problem.axis_sizes;
            if shape_only.contains(&index) || have.same_on(want, sizes) || sum_of_avg(&op.rule, have, want) {
                continue;
            }
            needs.push(Need {
                value,
                layout: want.clone(),
                at: Use::Operand { op: i, index },
            });
        }
    }
    let mut declared: Vec<Option<&Layout>> = vec![None; graph.returned.len()];
    for r in &graph.problem.requirements {
        declared[r.result] = Some(&r.layout);
    }
    for (result, value) in graph.returned.iter().enumerate() {
        let Some(value) = *value else { continue };
        let have = &layouts[value];
        let want = declared[result].map_or_else(
            || Layout {
                dims: have.dims.clone(),
                partial: None,
            },
            Layout::clone,
        );
        if !have.same_on(&want, &graph.problem.axis_sizes) {
            needs.push(Need {
                value,
                layout: want,
                at: Use::Result(result),
            });
        }
    }
    Ok(needs)
}

/// A `sum` collective on an `avg` partial: the `avg=scale` lowering, which
/// the following `dist.scale` completes.
fn sum_of_avg(rule: &Rule, have: &Layout, want: &Layout) -> bool {
    let Rule::Collective(c) = rule else { return false };
    let is_sum = matches!(
        c.transfer,
        Transfer::Reduce {
            kind: ReductionKind::Sum,
            ..
        }
    );
    let (Some(h), Some(w)) = (&have.partial, &want.partial) else {
        return false;
    };
    is_sum && h.kind == ReductionKind::Avg && h.axes == w.axes && have.dims == want.dims
}

/// Reports each use that does not see its value in the layout it needs,
/// with `hint` after each message.
pub(crate) fn report_needs(graph: &Graph<'_, '_>, layouts: &[Layout], pending: &[Need], hint: &str) -> PassError {
    let names = &graph.problem.axis_names;
    for need in pending {
        let what = match need.at {
            Use::Operand { index, .. } => format!("operand #{index}"),
            Use::Result(index) => format!("result #{index}"),
        };
        let message = format!(
            "{what} is sharded {} but needs {}{hint}",
            layout_text(names, &layouts[need.value]),
            layout_text(names, &need.layout)
        );
        Located::new(use_location(graph, need.at), message).emit();
    }
    PassError::Failed
}
