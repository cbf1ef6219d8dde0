//! Diagnostics collected from MLIR and printed as `file:line:col: error: ...`.

use dist_dialect::ir::file_line_col;
use melior::diagnostic::{Diagnostic, DiagnosticSeverity};
use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
    Remark,
    Note,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Error => "error",
            Self::Warning => "warning",
            Self::Remark => "remark",
            Self::Note => "note",
        }
    }
}

/// A diagnostic with its notes, detached from MLIR.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diag {
    pub severity: Severity,
    /// File, line and column; `None` for an unknown location.
    pub location: Option<(String, u32, u32)>,
    pub message: String,
    pub notes: Vec<Diag>,
}

impl Diag {
    pub fn from_mlir(diagnostic: &Diagnostic) -> Self {
        let severity = match diagnostic.severity() {
            DiagnosticSeverity::Error => Severity::Error,
            DiagnosticSeverity::Warning => Severity::Warning,
            DiagnosticSeverity::Remark => Severity::Remark,
            DiagnosticSeverity::Note => Severity::Note,
        };
        let notes = (0..diagnostic.note_count())
            .filter_map(|i| diagnostic.note(i).ok())
            .map(|note| Diag::from_mlir(&note))
            .collect();
        Self {
            severity,
            location: file_line_col(diagnostic.location()),
            message: diagnostic.to_string(),
            notes,
        }
    }

    /// An error of the tool itself about `file` (no line in it).
    pub fn tool_error(file: &str, message: &str) -> Self {
        Self {
            severity: Severity::Error,
            location: Some((file.to_owned(), 1, 1)),
            message: message.to_owned(),
            notes: Vec::new(),
        }
    }
}

impl fmt::Display for Diag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.location {
            Some((file, line, col)) => write!(f, "{file}:{line}:{col}: ")?,
            None => f.write_str("<unknown>: ")?,
        }
        write!(f, "{}: {}", self.severity.as_str(), self.message)?;
        self.notes.iter().try_for_each(|note| write!(f, "\n{note}"))
    }
}
