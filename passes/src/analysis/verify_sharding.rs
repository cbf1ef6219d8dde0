//! The `dist-verify-sharding` pass. Its documentation (what it does, preconditions, before
//! and after) is [`INFO`]'s description: `dist-opt --help-passes` prints it
//! and docs/passes.md holds it.

use crate::error::PassError;
use crate::pass::{DistPass, PassInfo};
use crate::sharding::graph::{self};
use crate::sharding::needs::{layouts_and_needs, report_needs};
use melior::ir::OperationRef;

#[derive(Debug, Default)]
pub struct VerifySharding;

pub const INFO: PassInfo = PassInfo {
    argument: "dist-verify-sharding",
    summary: "Check that every use sees its value in the layout it needs (no unresolved partial values)",
    description: r#"`dist-verify-sharding`: checks that a function's shardings are
consistent, as `dist-resolve-partial` leaves them: every value has a
sharding, every op's operands are in the layouts its rule needs under the
assignment the shardings imply (so no partial value reaches a use that
cannot take it), and every returned value has its declared sharding (not
partial, unless declared partial). Each violation is an error at the
use. Changes nothing.

Put it after `dist-resolve-partial` (or anywhere later) in a pipeline:
```text
dist-opt f.mlir --dist-propagate-sharding --dist-resolve-partial --dist-verify-sharding
```
"#,
    anchor: "func.func",
    options: Vec::new,
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
