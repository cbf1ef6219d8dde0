//! Benchmark of `dist-propagate-sharding` and `dist-resolve-partial` on
//! generated GPT training steps (`cargo bench -p dist-tools --bench
//! propagate`). Prints a table: layers, ops, parse time, propagation time
//! (the pass alone, as `--mlir-timing` reports it; best of several runs, each
//! on a fresh parse), time per op of the input, resolution time on the propagated
//! program, both together, and the time of MLIR's verifier over the result
//! (which `dist-opt` runs after every pass). A second table times
//! `dist-split-matmul-grad` and `dist-overlap-collectives` on the resolved
//! program, as the pipeline runs them; a third `dist-append-backward` on the
//! forward pass of the same programs (`dist-gen gpt --forward-only`).

use dist_dialect::ir::{context_with_all_dialects, parse_module};
use dist_tools::programs::Step;
use dist_tools::programs::gpt::{GptConfig, Sizes, gpt};
use melior::Context;
use melior::ir::Module;
use melior::ir::operation::OperationLike;
use melior::pass::PassManager;
use std::time::{Duration, Instant};

/// The passes allocate many small vectors per op; mimalloc frees them far
/// faster than glibc (measured in docs/perf.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The fastest run: this shared 2-core machine's clock varies by up to 2x
/// between runs, and the minimum is the least noisy estimate.
fn best(samples: Vec<Duration>) -> Duration {
    samples.into_iter().min().expect("at least one run")
}

/// Runs `pipeline` on `module` (without the verifier) and times the run.
fn run(context: &Context, module: &mut Module<'_>, pipeline: &str) -> Duration {
    let pm = PassManager::new(context);
    pm.enable_verifier(false);
    dist_dialect::ir::pass::add_pipeline(&pm, pipeline).expect("the pipeline parses");
    let start = Instant::now();
    pm.run(module).expect("the passes succeed");
    start.elapsed()
}

/// The GPT program of `layers` layers on dp 2 x tp 4 (its forward pass
/// alone with `forward_only`).
fn program(layers: usize, forward_only: bool) -> String {
    let step = Step {
        layers,
        dp: 2,
        tp: 4,
        ep: None,
        sp: None,
        pp: None,
        forward_only,
        optimizer: None,
        zero: 0,
        dtype: Default::default(),
        unsharded: false,
    };
    gpt(GptConfig {
        step,
        sizes: Sizes::default(),
    })
    .expect("no ZeRO stage to check")
}

/// Runs per program: fewer of the large ones.
fn runs(layers: usize) -> usize {
    if layers >= 128 { 5 } else { 9 }
}

/// The number of `dist` ops in `module`.
fn dist_ops(module: &Module<'_>) -> usize {
    let mut ops = 0;
    module
        .as_operation()
        .walk(melior::ir::operation::WalkOrder::PreOrder, |op| {
            if op
                .name()
                .as_string_ref()
                .as_str()
                .is_ok_and(|name| name.starts_with("dist."))
            {
                ops += 1;
            }
            melior::ir::operation::WalkResult::Advance
        });
    ops
}

/// The `dist-append-backward` table: the pass on the forward pass of each
/// GPT program.
fn append_backward_table(context: &Context, layers: &[usize]) {
    println!("| layers | forward ops | ops after | append-backward (ms) |");
    println!("|-------:|------------:|----------:|---------------------:|");
    for &n in layers {
        let text = program(n, true);
        let (mut times, mut before, mut after) = (Vec::new(), 0, 0);
        for _ in 0..runs(n) {
            let mut module = parse_module(context, &text, "gpt.mlir").expect("the generated program parses");
            before = dist_ops(&module);
            times.push(run(
                context,
                &mut module,
                "builtin.module(func.func(dist-append-backward))",
            ));
            after = dist_ops(&module);
        }
        println!("| {n} | {before} | {after} | {:.1} |", best(times).as_secs_f64() * 1e3);
    }
}

fn main() {
    // `cargo bench` passes `--bench`; other arguments select layer counts.
    let layers: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let layers = if layers.is_empty() {
        vec![1, 8, 32, 128, 1000]
    } else {
        layers
    };
    dist_passes::register_all();
    let context = context_with_all_dialects();
    context.load_all_available_dialects();
    println!("| layers | ops | parse (ms) | propagate (ms) | per op (us) | resolve (ms) | both (ms) | verify (ms) |");
    println!("|-------:|----:|-----------:|---------------:|------------:|-------------:|----------:|------------:|");
    let mut overlap_rows = Vec::new();
    for &n in &layers {
        let text = program(n, false);
        let (mut parse, mut propagate, mut resolve, mut verify, mut ops) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new(), 0);
        let (mut split, mut overlap) = (Vec::new(), Vec::new());
        for _ in 0..runs(n) {
            let start = Instant::now();
            let mut module = parse_module(&context, &text, "gpt.mlir").expect("the generated program parses");
            parse.push(start.elapsed());
            // The program's ops, before resolution adds its collectives.
            ops = dist_ops(&module);
            let pipeline = "builtin.module(func.func(dist-propagate-sharding{remarks=none}))";
            propagate.push(run(&context, &mut module, pipeline));
            resolve.push(run(
                &context,
                &mut module,
                "builtin.module(func.func(dist-resolve-partial))",
            ));
            let start = Instant::now();
            assert!(module.as_operation().verify(), "the result verifies");
            verify.push(start.elapsed());
            split.push(run(
                &context,
                &mut module,
                "builtin.module(func.func(dist-split-matmul-grad))",
            ));
            overlap.push(run(
                &context,
                &mut module,
                "builtin.module(func.func(dist-overlap-collectives))",
            ));
        }
        let split_and_overlap = best(split.iter().zip(&overlap).map(|(s, o)| *s + *o).collect());
        overlap_rows.push((n, best(split), best(overlap), split_and_overlap));
        let both = best(propagate.iter().zip(&resolve).map(|(p, r)| *p + *r).collect());
        let (parse, propagate, resolve, verify) = (best(parse), best(propagate), best(resolve), best(verify));
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        println!(
            "| {n} | {ops} | {:.1} | {:.1} | {:.2} | {:.1} | {:.1} | {:.1} |",
            ms(parse),
            ms(propagate),
            propagate.as_secs_f64() * 1e6 / ops as f64,
            ms(resolve),
            ms(both),
            ms(verify)
        );
    }
    println!();
    println!("| layers | split (ms) | overlap (ms) | both (ms) |");
    println!("|-------:|-----------:|-------------:|----------:|");
    for (n, split, overlap, both) in overlap_rows {
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        println!("| {n} | {:.1} | {:.1} | {:.1} |", ms(split), ms(overlap), ms(both));
    }
    println!();
    append_backward_table(&context, &layers);
}
