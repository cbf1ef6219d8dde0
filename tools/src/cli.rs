//! Command line, spelled like mlir-opt's: flags take one or two dashes,
//! values follow `=` or come as the next argument, and every registered pass
//! is also a flag (`--canonicalize`, `--dist-foo="opt=1"`).

use crate::Error;

#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Options {
    pub input: String,
    pub output: String,
    pub pass_pipeline: Option<String>,
    /// Pass flags in command-line order, as pipeline elements (`name{opts}`).
    pub pass_flags: Vec<String>,
    pub split_input_file: bool,
    pub verify_diagnostics: bool,
    pub print_ir_after_all: bool,
    pub print_ir_before_all: bool,
    /// Print the top-level module, not the pass's op, in those dumps.
    pub print_ir_module_scope: bool,
    pub print_op_generic: bool,
    /// SSA names from name locations (`--mlir-use-nameloc-as-prefix`).
    pub name_loc_as_prefix: bool,
    /// Attach the op to each diagnostic about it (mlir-opt's flag, on by
    /// default there; off here, where a verifier error on a function would
    /// print the whole function).
    pub print_op_on_diagnostic: bool,
    pub timing: bool,
    /// Print the pass pipeline before running it (to stderr).
    pub dump_pass_pipeline: bool,
    pub allow_unregistered_dialect: bool,
    /// Run every pass on one thread, as mlir-opt's flag of that name.
    pub disable_threading: bool,
    pub show_dialects: bool,
    pub help: bool,
    /// Print the reference of the project's passes and pipelines.
    pub help_passes: bool,
    pub version: bool,
    /// What to write: MLIR, LLVM IR or an object (after the passes).
    pub emit: crate::codegen::Emit,
    /// LLVM optimization level for `--emit=llvm|obj`: 2 or 3.
    pub opt_level: u8,
    /// The CPU for `--emit=llvm|obj` (`x86-64`: the same object on every
    /// build machine; `native`: this one's, with its vector units).
    pub mcpu: String,
}

/// Flags without a value: name, description, setter.
type Switch = (&'static str, &'static str, fn(&mut Options));

pub const SWITCHES: &[Switch] = &[
    (
        "split-input-file",
        "Split the input on '// -----' lines and process each chunk independently",
        |o| o.split_input_file = true,
    ),
    (
        "verify-diagnostics",
        "Check that emitted diagnostics match expected-* comments in the input",
        |o| o.verify_diagnostics = true,
    ),
    (
        "mlir-print-ir-after-all",
        "Print the IR after each pass (to stderr)",
        |o| o.print_ir_after_all = true,
    ),
    (
        "mlir-print-ir-before-all",
        "Print the IR before each pass (to stderr)",
        |o| o.print_ir_before_all = true,
    ),
    (
        "mlir-print-ir-module-scope",
        "Print the whole module in --mlir-print-ir-* dumps (needs --mlir-disable-threading)",
        |o| o.print_ir_module_scope = true,
    ),
    ("mlir-print-op-generic", "Print every op in the generic form", |o| {
        o.print_op_generic = true
    }),
    (
        "mlir-use-nameloc-as-prefix",
        "Print SSA IDs using NameLocs as prefixes",
        |o| o.name_loc_as_prefix = true,
    ),
    ("mlir-timing", "Report the time each pass takes (to stderr)", |o| {
        o.timing = true
    }),
    (
        "dump-pass-pipeline",
        "Print the pipeline that will be run, as one textual pipeline (to stderr)",
        |o| o.dump_pass_pipeline = true,
    ),
    (
        "allow-unregistered-dialect",
        "Accept ops of dialects that are not registered",
        |o| o.allow_unregistered_dialect = true,
    ),
    (
        "mlir-disable-threading",
        "Disable multi-threading within MLIR: nested pass managers run on one op at a time",
        |o| o.disable_threading = true,
    ),
    ("show-dialects", "Print the registered dialects and exit", |o| {
        o.show_dialects = true
    }),
    ("help", "Print this help and exit", |o| o.help = true),
    (
        "help-passes",
        "Print the reference of the dist passes and pipelines (Markdown: summary, options, preconditions, \
         before and after) and exit",
        |o| o.help_passes = true,
    ),
    ("version", "Print the version and exit", |o| o.version = true),
];

/// The value of a boolean flag: `--flag` alone is true, `--flag=false` or
/// `=0` false, as LLVM's command line reads it.
pub fn boolean(name: &str, value: Option<&str>) -> Result<bool, Error> {
    match value {
        None | Some("true" | "1" | "TRUE" | "True") => Ok(true),
        Some("false" | "0" | "FALSE" | "False") => Ok(false),
        Some(other) => Err(Error::Usage(format!(
            "option '-{name}' takes true or false, not '{other}'"
        ))),
    }
}

/// The flags `parse` matches by name, besides the switches and the passes
/// (most take a value), for suggestions.
const NAMED_FLAGS: &[&str] = &[
    "o",
    "emit",
    "O2",
    "O3",
    "mcpu",
    "pass-pipeline",
    "mlir-print-op-on-diagnostic",
];

/// Edit distance (insertions, deletions, substitutions) between `a` and `b`.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let substituted = diagonal + usize::from(ca != cb);
            diagonal = row[j + 1];
            row[j + 1] = substituted.min(row[j] + 1).min(diagonal + 1);
        }
    }
    row[b.len()]
}

/// The candidate closest to `name`, if one is close enough to be a typo
/// of it (as LLVM's option parser suggests): at most a third of its
/// letters differ. Ties go to the first in `candidates`' order.
pub fn nearest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (name.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .map(|c| (edit_distance(name, c), c))
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

/// A second line, `dist-opt: did you mean '--<nearest>'?`, for an unknown
/// flag `name` (as mlir-opt's option parser adds), or nothing.
fn did_you_mean(name: &str, pass_names: &[String]) -> String {
    let flags = SWITCHES.iter().map(|(n, _, _)| *n).chain(NAMED_FLAGS.iter().copied());
    nearest(name, flags.chain(pass_names.iter().map(String::as_str)))
        .map(|c| format!("\ndist-opt: did you mean '--{c}'?"))
        .unwrap_or_default()
}

/// Parses `args` (without the program name). `is_pass` says whether a name
/// is a registered pass or pass pipeline; `pass_names` lists them all, for
/// a suggestion when a flag is unknown.
pub fn parse(
    args: &[String],
    is_pass: impl Fn(&str) -> bool,
    pass_names: impl Fn() -> Vec<String>,
) -> Result<Options, Error> {
    let mut options = Options {
        input: "-".into(),
        output: "-".into(),
        opt_level: 2,
        mcpu: "x86-64".into(),
        ..Options::default()
    };
    let mut positional = Vec::new();
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        let Some(flag) = arg
            .strip_prefix("--")
            .or_else(|| arg.strip_prefix('-'))
            .filter(|f| !f.is_empty())
        else {
            positional.push(arg.clone());
            continue;
        };
        let (name, inline) = match flag.split_once('=') {
            Some((n, v)) => (n, Some(v.to_owned())),
            None => (flag, None),
        };
        let mut value = |what: &str| {
            inline
                .clone()
                .or_else(|| iter.next().cloned())
                .ok_or_else(|| Error::Usage(format!("option '-{name}' requires {what}")))
        };
        match name {
            "o" => options.output = value("a file name")?,
            "emit" => options.emit = crate::codegen::Emit::parse(&value("mlir, llvm, obj or ptx")?)?,
            "O2" => options.opt_level = 2,
            "O3" => options.opt_level = 3,
            "mcpu" => options.mcpu = value("a CPU name or native")?,
            "pass-pipeline" => options.pass_pipeline = Some(value("a pipeline")?),
            "mlir-print-op-on-diagnostic" => options.print_op_on_diagnostic = boolean(name, inline.as_deref())?,
            "h" => options.help = true,
            _ => {
                if let Some((_, _, set)) = SWITCHES.iter().find(|(n, _, _)| *n == name) {
                    if inline.is_some() {
                        return Err(Error::Usage(format!("option '-{name}' takes no value")));
                    }
                    set(&mut options);
                } else if is_pass(name) {
                    options.pass_flags.push(match inline {
                        Some(opts) if !opts.is_empty() => format!("{name}{{{opts}}}"),
                        _ => name.to_owned(),
                    });
                } else {
                    return Err(Error::Usage(format!(
                        "unknown command line argument '{arg}'; try 'dist-opt --help'{}",
                        did_you_mean(name, &pass_names())
                    )));
                }
            }
        }
    }
    match positional.as_slice() {
        [] => {}
        [input] => options.input = input.clone(),
        [_, extra, ..] => {
            return Err(Error::Usage(format!(
                "unexpected extra input '{extra}'; dist-opt takes one input"
            )));
        }
    }
    if options.print_ir_module_scope && !options.disable_threading {
        // mlir-opt aborts here: module-scope dumps would read functions
        // other threads are rewriting.
        return Err(Error::Usage(
            "--mlir-print-ir-module-scope needs --mlir-disable-threading".into(),
        ));
    }
    if options.pass_pipeline.is_some() && !options.pass_flags.is_empty() {
        return Err(Error::Usage(
            "'--pass-pipeline' cannot be combined with individual pass flags".into(),
        ));
    }
    Ok(options)
}

pub fn usage() -> String {
    let mut text = String::from(
        "OVERVIEW: dist-opt: parse, verify, transform and print dist MLIR\n\n\
         USAGE: dist-opt [options] <input file or - for stdin>\n\n\
         OPTIONS:\n  -o <file>                       Output file (default: stdout)\n  \
         --pass-pipeline=<pipeline>      A textual pipeline, e.g. 'builtin.module(canonicalize)'\n  \
         --emit=<mlir|llvm|obj|ptx>      Write MLIR (default), LLVM IR, an x86-64 object or the PTX of the\n  \
         \x20                               GPU kernels; llvm and obj need the LLVM dialect (--dist-lower-to-cpu),\n  \
         \x20                               ptx compiled kernels (--dist-lower-to-gpu)\n  \
         -O2, -O3                        LLVM optimization level for --emit=llvm|obj (default -O2)\n  \
         --mcpu=<cpu>                    CPU for --emit=llvm|obj: native (this machine's, e.g. AVX-512) or\n  \
         \x20                               x86-64[-v2|-v3|-v4] (default x86-64: the same object anywhere)\n  \
         --mlir-print-op-on-diagnostic[=<bool>]\n  \
         \x20                               Print the op a diagnostic is about after it (default false)\n",
    );
    for (name, description, _) in SWITCHES {
        text.push_str(&format!("  --{name:<30}{description}\n"));
    }
    text.push_str("\nEvery pass below is also a flag: --<pass> or --<pass>=\"opt=value ...\".\n\n");
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &[&str]) -> Vec<String> {
        s.iter().map(|a| a.to_string()).collect()
    }

    fn is_pass(name: &str) -> bool {
        matches!(name, "cse" | "dist-x")
    }

    fn names() -> Vec<String> {
        vec![
            "cse".into(),
            "dist-propagate-sharding".into(),
            "dist-resolve-partial".into(),
        ]
    }

    fn parse(args: &[String], is_pass: impl Fn(&str) -> bool) -> Result<Options, Error> {
        super::parse(args, is_pass, names)
    }

    #[test]
    fn a_typo_gets_the_nearest_flag() {
        let message = |flag: &str| parse(&args(&[flag]), is_pass).unwrap_err().to_string();
        assert_eq!(
            message("--dist-propogate-sharding"),
            "unknown command line argument '--dist-propogate-sharding'; try 'dist-opt --help'\n\
             dist-opt: did you mean '--dist-propagate-sharding'?"
        );
        assert!(message("--split-input-files").contains("did you mean '--split-input-file'?"));
        assert!(message("--emitt=obj").contains("did you mean '--emit'?"));
        // Nothing close: no suggestion.
        assert!(!message("--frobnicate").contains("did you mean"));
    }

    #[test]
    fn edit_distances() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("cse", "cse"), 0);
        assert_eq!(nearest("csee", ["cse", "dce"]), Some("cse"));
        assert_eq!(nearest("x", ["cse"]), None);
    }

    #[test]
    fn flags_like_mlir_opt() {
        let o = parse(
            &args(&["in.mlir", "-o", "out.mlir", "-split-input-file", "--verify-diagnostics"]),
            is_pass,
        )
        .unwrap();
        assert_eq!((o.input.as_str(), o.output.as_str()), ("in.mlir", "out.mlir"));
        assert!(o.split_input_file && o.verify_diagnostics);
        let o = parse(&args(&["--pass-pipeline=builtin.module(cse)", "-o=x"]), is_pass).unwrap();
        assert_eq!(o.pass_pipeline.as_deref(), Some("builtin.module(cse)"));
        assert_eq!((o.input.as_str(), o.output.as_str()), ("-", "x"));
    }

    #[test]
    fn passes_are_flags() {
        let o = parse(&args(&["--cse", "--dist-x=a=1 b=2", "-"]), is_pass).unwrap();
        assert_eq!(o.pass_flags, vec!["cse".to_string(), "dist-x{a=1 b=2}".to_string()]);
    }

    #[test]
    fn bad_command_lines() {
        assert!(parse(&args(&["--nope"]), is_pass).is_err());
        assert!(parse(&args(&["-o"]), is_pass).is_err());
        assert!(parse(&args(&["a", "b"]), is_pass).is_err());
        assert!(parse(&args(&["--cse", "--pass-pipeline=builtin.module(cse)"]), is_pass).is_err());
        assert!(parse(&args(&["--help=1"]), is_pass).is_err());
    }
}
