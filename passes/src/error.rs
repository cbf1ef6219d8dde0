//! The error every pass returns.

use dist_dialect::ir::Located;
use melior::ir::Location;
use thiserror::Error;

/// Errors of the passes crate.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum PassError {
    /// The pass failed after emitting its diagnostics on the IR.
    #[error("the pass failed; its diagnostics were emitted on the IR")]
    Failed,
}

/// Reporting a located error fails the pass, as MLIR's
/// `return op->emitError(...)` does: `?` on a `Result<_, Located>` reports.
impl From<Located<'_>> for PassError {
    fn from(error: Located<'_>) -> Self {
        error.emit();
        PassError::Failed
    }
}

/// Reports `message` at `location` as an error; the pass then fails.
pub fn fail(location: Location<'_>, message: &str) -> PassError {
    Located::new(location, message).into()
}
