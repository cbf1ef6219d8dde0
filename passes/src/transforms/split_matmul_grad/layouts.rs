//! The layouts of a matmul gradient's split steps, each derived by its
//! op's rule from the layouts of what it reads, as propagation would.

use crate::ops::matmul_grad::{Input, Operands, Split, Step, step_name};
use crate::ops::rule_for;
use crate::sharding::solver::{Layout, Op, Problem, Solver, Value, layout_text};
use crate::vocabulary::rules::{OpAttrs, OpDesc, RuleError};
use dist_dialect::DistOp;
use std::rc::Rc;
use thiserror::Error;

/// Why a matmul_grad is left whole: the remark says `not split: <why>`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum NotSplit {
    #[error("its 'dist.sharding' does not hold two shardings")]
    NotTwoShardings,
    #[error("no dist.mesh @{0} is visible here")]
    NoMesh(String),
    #[error("{what} has no sharding on @{mesh}")]
    Unsharded { what: String, mesh: String },
    /// A sharding that has no layout on its mesh, as the importer of
    /// shardings says.
    #[error("{0}")]
    Layout(String),
    #[error(transparent)]
    Rule(#[from] RuleError),
    /// What the solver found wrong with a step.
    #[error("{0}")]
    Solver(String),
    #[error("the {step} would need operand #{operand} as {want} instead of {have}")]
    Reshard {
        step: &'static str,
        operand: usize,
        want: String,
        have: String,
    },
    #[error("{gradient} would be {got} where dist.matmul_grad gives {want}")]
    Changed {
        gradient: &'static str,
        got: String,
        want: String,
    },
}

/// The layouts of the steps' results, each derived by its op's rule from
/// the layouts of what it reads (`inputs`: those of x, y and dout), as
/// propagation would; an error if a step would need an input resharded.
pub fn layouts(
    split: &Split,
    operands: &Operands<'_>,
    inputs: [&Layout; 3],
    axis_names: &[String],
    axis_sizes: &[i64],
) -> Result<Vec<Layout>, NotSplit> {
    let value = |input: Input| match input {
        Input::X => 0,
        Input::Y => 1,
        Input::Dout => 2,
        Input::Step(i) => 3 + i,
    };
    let mut values: Vec<Value> = [operands.x, operands.y, operands.dout]
        .iter()
        .zip(inputs)
        .map(|(shape, layout)| Value {
            shape: shape.to_vec(),
            fixed: Some(layout.clone()),
        })
        .collect();
    let mut ops = Vec::new();
    for (i, planned) in split.steps.iter().enumerate() {
        let (name, reads, attrs) = match &planned.step {
            Step::Matmul {
                x,
                y,
                transpose_x,
                transpose_y,
            } => (
                DistOp::Matmul.name(),
                vec![*x, *y],
                OpAttrs {
                    transpose_x: *transpose_x,
                    transpose_y: *transpose_y,
                    ..OpAttrs::default()
                },
            ),
            Step::Reshape(input) => (DistOp::Reshape.name(), vec![*input], OpAttrs::default()),
            Step::ReduceSum { input, dims } => (
                DistOp::ReduceSum.name(),
                vec![*input],
                OpAttrs {
                    dims: dims.clone(),
                    ..OpAttrs::default()
                },
            ),
        };
        let desc = OpDesc {
            name: name.to_owned(),
            operands: reads.iter().map(|&r| operands.shape(r, &split.steps)).collect(),
            results: vec![planned.shape.clone()],
            attrs,
        };
        let rule = rule_for(&desc)?;
        ops.push(Op {
            rule: Rc::new(rule),
            operands: reads.into_iter().map(value).collect(),
            results: vec![3 + i],
        });
        values.push(Value {
            shape: planned.shape.clone(),
            fixed: None,
        });
    }
    let problem = Problem {
        axis_names: axis_names.to_vec(),
        axis_sizes: axis_sizes.to_vec(),
        values,
        ops,
        requirements: Vec::new(),
    };
    let solver = Solver::new(&problem);
    let mut layouts: Vec<Layout> = inputs.iter().map(|&l| l.clone()).collect();
    layouts.extend(split.steps.iter().map(|p| Layout::replicated(p.shape.len())));
    for (i, op) in problem.ops.iter().enumerate() {
        let a = solver.assign(i, &layouts);
        if let Some(e) = a.errors.first() {
            return Err(NotSplit::Solver(e.clone()));
        }
        let what = step_name(&split.steps[i].step);
        for (index, (&v, want)) in op.operands.iter().zip(&a.operands).enumerate() {
            if layouts[v] != *want || a.unresolved.contains(&index) {
                return Err(NotSplit::Reshard {
                    step: what,
                    operand: index,
                    want: layout_text(axis_names, want),
                    have: layout_text(axis_names, &layouts[v]),
                });
            }
        }
        layouts[3 + i] = a.results[0].clone();
    }
    Ok(layouts.split_off(3))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::matmul_grad::split;
    use crate::sharding::solver::PartialLayout;
    use crate::vocabulary::rules::Axes;
    use dist_dialect::ReductionKind;

    /// Column-parallel backward on a dp x tp mesh: the split's dx is partial
    /// over tp and its dW partial over dp, as matmul_grad's rule says.
    #[test]
    fn layouts_follow_the_rules() {
        let operands = Operands::plain(&[4, 8, 16], &[16, 64], &[4, 8, 64]);
        let (dp, tp) = (Axes::from_slice(&[0]), Axes::from_slice(&[1]));
        let none = Axes::new();
        let layout = |dims: &[&Axes], partial: Option<&Axes>| Layout {
            dims: dims.iter().map(|&d| *d).collect(),
            partial: partial.map(|a| PartialLayout {
                axes: *a,
                kind: ReductionKind::Sum,
            }),
        };
        let x = layout(&[&dp, &none, &none], None);
        let w = layout(&[&none, &tp], None);
        let dout = layout(&[&dp, &none, &tp], None);
        let names = ["dp".to_owned(), "tp".to_owned()];
        let s = split(&operands, true, true, true);
        let l = layouts(&s, &operands, [&x, &w, &dout], &names, &[2, 4]).unwrap();
        assert_eq!(l[s.dx.unwrap()], layout(&[&dp, &none, &none], Some(&tp)));
        assert_eq!(l[s.dy.unwrap()], layout(&[&none, &tp], Some(&dp)));
        // A sequence-sharded x cannot be folded with its batch.
        let x = layout(&[&none, &dp, &none], None);
        let dout = layout(&[&none, &dp, &tp], None);
        let err = layouts(&s, &operands, [&x, &w, &dout], &names, &[2, 4]).unwrap_err();
        assert!(
            matches!(
                err,
                NotSplit::Reshard {
                    step: "dist.reshape",
                    operand: 0,
                    ..
                }
            ),
            "{err}"
        );
        let s = split(&operands, true, true, false);
        assert!(layouts(&s, &operands, [&x, &w, &dout], &names, &[2, 4]).is_ok());
    }
}
