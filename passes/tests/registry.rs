//! The registry end to end: a test-only pass registered by name runs from a
//! textual pipeline, receives its options, and reports failures.

use dist_dialect::ir::{context_with_all_dialects, parse_module};
use dist_passes::pass::options::PassOptions;
use dist_passes::{DistPass, PassInfo, register, register_all};
use melior::ir::OperationRef;
use melior::ir::operation::OperationLike;
use melior::pass::PassManager;
use melior::utility::parse_pass_pipeline;
use std::sync::atomic::{AtomicUsize, Ordering};

dist_passes::pass_options! {
    /// How many dist ops the module must have.
    struct CountOptions {
        expect: usize = "expect", "0", "expected number of dist ops";
    }
}

/// Counts `dist.*` ops and fails unless the count is `options.expect`.
#[derive(Default)]
struct CountDistOps {
    options: CountOptions,
}

static RUNS: AtomicUsize = AtomicUsize::new(0);

impl DistPass for CountDistOps {
    fn options(&mut self) -> Option<&mut dyn PassOptions> {
        Some(&mut self.options)
    }

    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), dist_passes::PassError> {
        RUNS.fetch_add(1, Ordering::SeqCst);
        let mut count = 0;
        let mut walk = |op: OperationRef| {
            if op.name().as_string_ref().as_str().unwrap().starts_with("dist.") {
                count += 1;
            }
        };
        visit(op, &mut walk);
        if count == self.options.expect {
            Ok(())
        } else {
            dist_passes::registry::emit_error(op, &format!("found {count} dist ops, expected {}", self.options.expect));
            Err(dist_passes::PassError::Failed)
        }
    }
}

fn visit<'c, 'a>(op: OperationRef<'c, 'a>, f: &mut impl FnMut(OperationRef<'c, 'a>)) {
    use melior::ir::BlockLike;
    use melior::ir::RegionLike;
    f(op);
    for region in op.regions() {
        let mut block = region.first_block();
        while let Some(b) = block {
            let mut next = b.first_operation();
            while let Some(o) = next {
                visit(o, f);
                next = o.next_in_block();
            }
            block = b.next_in_region();
        }
    }
}

static COUNT: PassInfo = PassInfo {
    argument: "test-dist-count-ops",
    summary: "Test pass: checks the number of dist ops",
    description: "`test-dist-count-ops`: fails unless the module has `expect` dist ops.",
    anchor: "builtin.module",
    options: CountOptions::info,
    dialects: &[],
    create: || Box::<CountDistOps>::default(),
};

const PROGRAM: &str = r#"
dist.mesh @mesh = <["x"=2]>
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %b = dist.relu %a : (tensor<4xf32>) -> tensor<4xf32>
  return %b : tensor<4xf32>
}
"#;

/// Why a pipeline did not run: the diagnostics, one a line.
#[derive(Debug, PartialEq)]
struct Rejected(String);

fn run_pipeline(pipeline: &str) -> Result<(), Rejected> {
    let context = context_with_all_dialects();
    let errors = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let sink = errors.clone();
    context.attach_diagnostic_handler(move |d| {
        sink.borrow_mut().push(d.to_string());
        true
    });
    let mut module = parse_module(&context, PROGRAM, "t.mlir").expect("parses");
    let pm = PassManager::new(&context);
    parse_pass_pipeline(pm.as_operation_pass_manager(), pipeline).map_err(|e| Rejected(e.to_string()))?;
    pm.run(&mut module).map_err(|_| Rejected(errors.borrow().join("\n")))
}

#[test]
fn rust_pass_runs_by_name_with_options() {
    register_all();
    register(&COUNT);
    let before = RUNS.load(Ordering::SeqCst);
    assert_eq!(run_pipeline("builtin.module(test-dist-count-ops{expect=2})"), Ok(()));
    assert!(RUNS.load(Ordering::SeqCst) > before);
    // Upstream passes mix freely with Rust ones.
    assert_eq!(
        run_pipeline("builtin.module(canonicalize,test-dist-count-ops{expect=2},cse)"),
        Ok(())
    );
    let Rejected(failure) = run_pipeline("builtin.module(test-dist-count-ops{expect=5})").unwrap_err();
    assert!(failure.contains("found 2 dist ops, expected 5"), "{failure}");
    let Rejected(bad) = run_pipeline("builtin.module(test-dist-count-ops{expect=many})").unwrap_err();
    assert!(
        bad.contains("expect must be a non-negative integer, not 'many'"),
        "{bad}"
    );
    assert!(run_pipeline("builtin.module(test-dist-count-ops{nope=1})").is_err());
    // SAFETY: the argument is a valid string.
    assert!(unsafe { dist_dialect::ffi::distIsRegisteredPass(melior::StringRef::new("test-dist-count-ops").to_raw()) });
}
