//! What a Rust pass is to the registry: its description ([`PassInfo`],
//! with its options, [`OptionInfo`]), the instance MLIR runs
//! ([`DistPass`]), and a named pipeline ([`PipelineInfo`]). Every pass
//! implements these; the registry ([`crate::registry`]) registers them.
//!
//! A pass's options are declared once, typed ([`options`]): MLIR parses
//! `pass{name=value}` and `--help` lists them from that declaration, and
//! the instance's options struct parses each value by its type.

pub mod options;

use melior::ir::OperationRef;
use options::PassOptions;

/// One option of a pass, as MLIR declares it (from a pass's
/// [`pass_options!`](crate::pass_options) struct).
#[derive(Debug, Clone, Copy)]
pub struct OptionInfo {
    pub name: &'static str,
    pub description: &'static str,
    pub default: &'static str,
    /// The values it takes, when it takes one of a few words.
    pub choices: &'static [&'static str],
}

/// What MLIR needs to know of a pass, and how to make an instance.
#[derive(Debug, Clone, Copy)]
pub struct PassInfo {
    /// The pipeline name, e.g. `dist-propagate-sharding`.
    pub argument: &'static str,
    /// One line for `--help`.
    pub summary: &'static str,
    /// What the pass does, its preconditions and a before/after example, in
    /// Markdown (`dist-opt --help-passes`, docs/passes.md).
    pub description: &'static str,
    /// Anchor op name, e.g. `builtin.module` or `func.func`; empty for any.
    pub anchor: &'static str,
    /// Its options (its `pass_options!` struct's `info`).
    pub options: fn() -> Vec<OptionInfo>,
    /// The dialects whose ops the pass creates (beyond `dist`), loaded
    /// before it runs: MLIR cannot load a dialect while passes run.
    pub dialects: &'static [&'static str],
    pub create: fn() -> Box<dyn DistPass>,
}

/// A pass instance. MLIR may clone instances to run them in parallel, so an
/// instance is only ever used from one thread at a time.
pub trait DistPass: Send {
    /// Its options, which the registry sets by name; none by default.
    fn options(&mut self) -> Option<&mut dyn PassOptions> {
        None
    }
    /// Runs on the anchor op. On failure the pass has already emitted its
    /// diagnostics on the IR.
    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), crate::error::PassError>;
}

/// A named pipeline of registered passes.
#[derive(Debug, Clone, Copy)]
pub struct PipelineInfo {
    pub argument: &'static str,
    /// Earlier names, still accepted (tests outside this repository use
    /// them).
    pub aliases: &'static [&'static str],
    pub summary: &'static str,
    /// The options it takes (`argument{name=value ...}`), in `--help` order.
    pub options: fn() -> Vec<OptionInfo>,
    /// The passes for an option text, as `--pass-pipeline` spells them
    /// inside `builtin.module(...)`, or what is wrong with the options.
    pub pipeline: fn(&str) -> Result<String, String>,
}

impl PipelineInfo {
    /// The passes with every option at its default.
    pub fn default_passes(&self) -> String {
        (self.pipeline)("").unwrap_or_else(|e| panic!("{}'s defaults: {e}", self.argument))
    }

    /// The `--help` line of an alias.
    pub fn alias_summary(&self) -> String {
        format!("Alias of --{}", self.argument)
    }
}
