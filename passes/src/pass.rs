//! What a Rust pass is to the registry: its description ([`PassInfo`],
//! with its options, [`OptionInfo`]), the instance MLIR runs
//! ([`DistPass`]), and a named pipeline ([`PipelineInfo`]). Every pass
//! implements these; the registry ([`crate::registry`]) registers them.
//!
//! MLIR owns option parsing: every option is declared here as a string with
//! a default, MLIR parses `pass{name=value}` and `--help` lists it, and the
//! pass instance receives each value through [`DistPass::set_option`].

use melior::ir::OperationRef;

/// One option of a pass.
#[derive(Debug, Clone, Copy)]
pub struct OptionInfo {
    pub name: &'static str,
    pub description: &'static str,
    pub default: &'static str,
    /// The values it takes, when it takes one of a few words; the registry
    /// refuses any other before the pass sees it. Empty: the pass parses
    /// the value.
    pub choices: &'static [&'static str],
}

impl OptionInfo {
    /// Why `value` is not one of the choices, if it is not.
    pub fn check_choice(&self, value: &str) -> Result<(), String> {
        if self.choices.is_empty() || self.choices.contains(&value) {
            return Ok(());
        }
        let list = match self.choices.split_last() {
            Some((last, [])) => (*last).to_owned(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
            None => String::new(),
        };
        Err(format!("{} must be {list}, not '{value}'", self.name))
    }
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
    pub options: &'static [OptionInfo],
    /// The dialects whose ops the pass creates (beyond `dist`), loaded
    /// before it runs: MLIR cannot load a dialect while passes run.
    pub dialects: &'static [&'static str],
    pub create: fn() -> Box<dyn DistPass>,
}

/// A pass instance. MLIR may clone instances to run them in parallel, so an
/// instance is only ever used from one thread at a time.
pub trait DistPass: Send {
    /// Sets one declared option; `Err` carries the message MLIR reports.
    /// The default serves passes without options.
    fn set_option(&mut self, name: &str, _value: &str) -> Result<(), String> {
        Err(format!("unknown option '{name}'"))
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
    /// The passes, as `--pass-pipeline` spells them inside `builtin.module(...)`.
    pub pipeline: fn() -> String,
}

impl PipelineInfo {
    /// The `--help` line of an alias.
    pub fn alias_summary(&self) -> String {
        format!("Alias of --{}", self.argument)
    }
}

#[cfg(test)]
mod tests {
    use super::OptionInfo;

    #[test]
    fn a_declared_choice_is_checked_and_named_in_the_error() {
        let option = OptionInfo {
            name: "direction",
            description: "",
            default: "both",
            choices: &["both", "forward", "backward"],
        };
        assert!(option.check_choice("forward").is_ok());
        assert_eq!(
            option.check_choice("sideways").unwrap_err(),
            "direction must be both, forward or backward, not 'sideways'"
        );
        let two = OptionInfo {
            choices: &["comm", "all"],
            ..option
        };
        assert_eq!(
            two.check_choice("some").unwrap_err(),
            "direction must be comm or all, not 'some'"
        );
        let free = OptionInfo { choices: &[], ..option };
        assert!(free.check_choice("anything").is_ok());
    }
}
