//! The `dist-propagate-sharding` pass. Its documentation (what it does, preconditions, before
//! and after) is [`INFO`]'s description: `dist-opt --help-passes` prints it
//! and docs/passes.md holds it.

use crate::error::PassError;
use crate::pass::options::PassOptions;
use crate::pass::{DistPass, PassInfo};
use crate::sharding::solver::{Direction, Solution, Solver};
use crate::vocabulary::rules::Rule;
use dist_dialect::ir::{Severity, emit_diagnostic};
use melior::ir::OperationRef;
use melior::ir::operation::OperationLike;

crate::pass::options::option_enum! {
    /// What the pass reports as remarks.
    pub enum Remarks {
        None = "none",
        /// Each resolved conflict, naming both sides.
        Conflicts = "conflicts",
        /// Also each op's factor assignment and the partial operands it
        /// cannot take (the ones `dist-resolve-partial` must reduce).
        All = "all",
    }
}

crate::pass::options::option_words! { Direction { Both = "both", Forward = "forward", Backward = "backward" } }

crate::pass::options::pass_options! {
    /// The options of `dist-propagate-sharding`.
    pub struct PropagateOptions {
        direction: Direction = "direction", "both",
            "Along def-use edges: both, forward (producer to users) or backward (users to producer)";
        remarks: Remarks = "remarks", "conflicts",
            "Remarks to emit: none, conflicts (each resolved conflict) or all (also every op's factor assignment and the partial operands it needs resolved)";
    }
}

#[derive(Debug, Default)]
pub struct PropagateSharding {
    options: PropagateOptions,
}

pub const INFO: PassInfo = PassInfo {
    argument: "dist-propagate-sharding",
    summary: "Propagate shardings and partial status through forward and gradient ops",
    description: r#"`dist-propagate-sharding`: gives every tensor value of a function a
sharding, with partial status derived from the rule table.

Preconditions: anchored on `func.func`; a single-block body whose ops all
have sharding rules (every `dist` op; any other op touching tensors is an
error), one mesh per function (of at most 15 axes), each async start
waited in the function.
A function that names no mesh is left alone. Shardings already present
(argument attributes, `dist.sharding` on ops) are fixed and never
rewritten; the pass writes the others: argument attributes, and the
`dist.sharding` array on ops (one entry per result; for an async pair,
on its `dist.wait`). Semantics and priorities: `docs/sharding-rules.md`.

Before:
```mlir
func.func @f(%x: tensor<8x64xf32>,
             %w: tensor<64x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>}) {
  %y = dist.matmul %x, %w : (tensor<8x64xf32>, tensor<64x16xf32>) -> tensor<8x16xf32>
```
After (`k` is split over `tp`, so `x` takes the split and `y` is a
pending sum):
```mlir
func.func @f(%x: tensor<8x64xf32> {dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
             %w: tensor<64x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>}) {
  %y = dist.matmul %x, %w {dist.sharding = [#dist.sharding<@mesh, [{}, {}], partial = sum{"tp"}>]}
      : (tensor<8x64xf32>, tensor<64x16xf32>) -> tensor<8x16xf32>
```

The pass reads the function into an abstract graph ([`graph`]), solves
it in pure Rust ([`solver`]) and writes the layouts back.
"#,
    anchor: "func.func",
    options: PropagateOptions::info,
    dialects: &[],
    create: || Box::new(PropagateSharding::default()),
};

impl DistPass for PropagateSharding {
    fn options(&mut self) -> Option<&mut dyn PassOptions> {
        Some(&mut self.options)
    }

    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), PassError> {
        let Some(graph) = crate::sharding::graph::for_pass(op, INFO.argument)? else {
            return Ok(());
        };
        let solver = Solver::new(&graph.problem);
        let solution = solver.solve(self.options.direction);

        let failed = self.report(&graph, &solver, &solution);
        if failed {
            return Err(PassError::Failed);
        }
        Ok(graph.write(&solution)?)
    }
}

impl PropagateSharding {
    /// Emits errors and the requested remarks; true if there was an error.
    fn report(&self, graph: &crate::sharding::graph::Graph<'_, '_>, solver: &Solver<'_>, solution: &Solution) -> bool {
        let mut failed = false;
        for ((site, op), a) in graph.sites.iter().zip(&graph.problem.ops).zip(&solution.assignments) {
            let location = site.op.location();
            for e in &a.errors {
                emit_diagnostic(location, Severity::Error, e);
                failed = true;
            }
            if self.options.remarks == Remarks::None {
                continue;
            }
            for c in &a.conflicts {
                emit_diagnostic(location, Severity::Remark, c);
            }
            if self.options.remarks != Remarks::All {
                continue;
            }
            if let Rule::Factor(rule) = &*op.rule {
                let split: Vec<String> = rule
                    .factors
                    .iter()
                    .zip(&a.factors)
                    .filter(|(_, axes)| !axes.is_empty())
                    .map(|(f, axes)| format!("{} = {}", f.name, solver.axes_text(axes)))
                    .collect();
                let split = if split.is_empty() {
                    "nothing split".to_owned()
                } else {
                    split.join(", ")
                };
                emit_diagnostic(location, Severity::Remark, &format!("{}: {split}", rule.einsum()));
            }
            for &i in &a.unresolved {
                let partial = solution.layouts[op.operands[i]]
                    .partial
                    .as_ref()
                    .expect("unresolved operands are partial");
                emit_diagnostic(
                    location,
                    Severity::Remark,
                    &format!(
                        "operand #{i} is partial {} over {} and must be resolved first",
                        partial.kind,
                        solver.axes_text(&partial.axes)
                    ),
                );
            }
        }
        failed
    }
}
