//! `dist-verify-sharding`: checks that a function's shardings are
//! consistent, as `dist-resolve-partial` leaves them: every value has a
//! sharding, every op's operands are in the layouts its rule needs under the
//! assignment the shardings imply (so no partial value reaches a use that
//! cannot take it), and every returned value has its declared sharding (not
//! partial, unless declared partial). Each violation is an error at the
//! use. Changes nothing.
//!
//! Put it after `dist-resolve-partial` (or anywhere later) in a pipeline:
//! ```text
//! dist-opt f.mlir --dist-propagate-sharding --dist-resolve-partial --dist-verify-sharding
//! ```

use crate::PassError;
use crate::propagate_sharding::graph::{self, Graph};
use crate::propagate_sharding::solver::{Layout, layout_text};
use crate::registry::{DistPass, PassInfo};
use crate::resolve_partial::plan::{Need, Use};
use crate::resolve_partial::{layouts_and_needs, use_location};
use dist_dialect::ir::{Severity, emit_diagnostic};
use melior::ir::OperationRef;

#[derive(Debug, Default)]
pub struct VerifySharding;

pub const INFO: PassInfo = PassInfo {
    argument: "dist-verify-sharding",
    summary: "Check that every use sees its value in the layout it needs (no unresolved partial values)",
    anchor: "func.func",
    options: &[],
    dialects: &[],
    create: || Box::new(VerifySharding),
};

impl DistPass for VerifySharding {
    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), PassError> {
        let Some(graph) = graph::for_pass(op, INFO.argument)? else {
            return Ok(());
        };
        let (layouts, pending) = layouts_and_needs(&graph)?;
        if pending.is_empty() {
            Ok(())
        } else {
            Err(report_needs(&graph, &layouts, &pending, ""))
        }
    }
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
        emit_diagnostic(use_location(graph, need.at), Severity::Error, &message);
    }
    PassError::Failed
}
