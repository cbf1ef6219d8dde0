//! `dist-fuzz`: mutation fuzzing of parse, verify, the sharding passes,
//! partition and the LLVM lowering, in process (see `dist_tools::fuzz`);
//! and the gradient checks: random programs, the sweep of every op, or one
//! file, through `dist-run --grad` against a float64 reference (see
//! `dist_tools::gradcheck`).

use clap::Parser;
use dist_tools::fuzz::{self, Campaign};
use dist_tools::gradcheck::{self, Settings, SweepModes, check::Mode};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

/// The command line: mutation fuzzing by default; --replay, --show, or a
/// gradient mode (--grad, --grad-sweep, --grad-check) instead.
#[derive(Parser)]
#[command(
    name = "dist-fuzz",
    version,
    about = "Fuzzes the whole compiler with mutated inputs, or checks gradients against a float64 reference",
    long_about = "Runs N mutated inputs drawn from seed S from the .mlir files under each --corpus DIR \
    (default: test/ and examples/ of this repository) through parse and verify, the sharding passes, \
    dist-partition and dist-lower-to-cpu, on J worker processes, each input in a fresh MLIR context. An \
    input that crashes a worker, makes a pass panic, or runs past the timeout is written to \
    DIR/crashes or DIR/hangs; the exit code is 1 if there is any. --replay runs files through the same \
    stages and prints where each stopped; --show prints input K of the seed (of --grad: program K).\n\n\
    --grad checks gradients instead: N random well-typed programs (default 200) of seed S from the table \
    of differentiable ops, the odd ones with random shardings on a 2 x 2 mesh, each differentiated and \
    run by the dist-run beside this binary (--grad) in a random mode (-n 1 or 4, -O2 or -O3, layers \
    outlined or not, --recompute or not), B programs a run, J runs at once, its loss and gradients \
    against a float64 reference (each op by its definition, gradients by central finite differences). A \
    program that differs, or that dist-run fails on without a diagnostic, is shrunk to a minimal one \
    (unless --no-shrink) and written with its inputs to DIR/failures; the exit code is 1 if there is \
    any. --grad-sweep checks every differentiable op, each operand, broadcast and attribute variant, \
    alone and fed by and feeding reductions (the cases whose name contains TEXT), on one device and \
    sharded on the mesh, in the six modes that take each setting both ways (--modes covering), in one \
    of them on one device and one on the mesh by turns (--modes rotated: each op variant still meets \
    all six), or in all ten (--modes all). \
    --grad-check checks the forward function NAME of FILE, on the inputs in DIR (<arg>.npy) or on \
    random ones, in the mode given, or in every mode its mesh allows."
)]
struct Cli {
    /// Inputs (programs, with --grad) to run [default: 10000; 200 with --grad]
    #[arg(long)]
    runs: Option<u64>,
    /// The campaign's seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker processes (gradient checks at once) [default: the cores]
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    jobs: Option<u64>,
    /// Seconds an input may run before it counts as a hang.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..))]
    timeout: u64,
    /// Where crashes, hangs and failing programs are written.
    #[arg(long, default_value = "fuzz-out")]
    out: PathBuf,
    /// A folder of .mlir files (or a corpus snapshot) to mutate; repeatable.
    #[arg(long = "corpus", value_name = "DIR")]
    corpus: Vec<PathBuf>,
    /// Run these files through the stages and print where each stopped.
    #[arg(long, num_args = 1.., value_name = "FILE")]
    replay: Vec<PathBuf>,
    /// Print input K of the seed (with --grad: program K).
    #[arg(long, value_name = "K")]
    show: Option<u64>,
    /// A worker of a campaign: run inputs first, first + step, ...
    #[arg(long, hide = true)]
    worker: bool,
    #[arg(long, hide = true, default_value_t = 0)]
    first: u64,
    #[arg(long, hide = true, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    step: u64,
    /// Check the gradients of random programs.
    #[arg(long)]
    grad: bool,
    /// Check the gradients of the sweep's cases.
    #[arg(long)]
    grad_sweep: bool,
    /// The sweep's cases whose name contains TEXT (implies --grad-sweep).
    #[arg(long, value_name = "TEXT")]
    filter: Option<String>,
    /// The modes the sweep runs each case in.
    #[arg(long, value_enum, default_value = "covering")]
    modes: SweepModes,
    /// The same as --modes all.
    #[arg(long, conflicts_with = "modes")]
    all_modes: bool,
    /// Check the gradients of the forward function of FILE.
    #[arg(long, value_name = "FILE")]
    grad_check: Option<PathBuf>,
    /// --grad-check's function.
    #[arg(long, default_value = "f", value_name = "NAME")]
    entry: String,
    /// --grad-check's inputs (<arg>.npy), instead of random ones.
    #[arg(long, value_name = "DIR")]
    input_dir: Option<PathBuf>,
    /// Programs a dist-run.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..))]
    batch: u64,
    /// Write failing programs as they are, not shrunk.
    #[arg(long)]
    no_shrink: bool,
    /// --grad-check's devices (dist-run -n).
    #[arg(short = 'n', value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    devices: Option<u64>,
    /// --grad-check's optimization level (-O2 or -O3).
    #[arg(short = 'O', value_name = "LEVEL", value_parser = clap::value_parser!(u8).range(2..=3))]
    opt: Option<u8>,
    /// --grad-check with every layer inline.
    #[arg(long)]
    no_outline_layers: bool,
    /// --grad-check with the activations recomputed in the backward.
    #[arg(long)]
    recompute: bool,
}

/// What this process does.
enum RunMode {
    Supervise,
    /// Run inputs `first, first + step, ...` (a worker of a supervisor).
    Work {
        first: u64,
        step: u64,
    },
    Replay(Vec<PathBuf>),
    /// Print input `k` of the seed (to inspect or keep one a worker ran).
    Show(u64),
    /// Random programs' gradients.
    Grad,
    /// Print program `k` of the gradient campaign's seed.
    GradShow(u64),
    /// The sweep's cases whose names contain the text, in every mode or not.
    GradSweep(String, SweepModes),
    /// One file's gradients, in the mode given (all: none given).
    GradCheck {
        file: PathBuf,
        entry: String,
        input_dir: Option<PathBuf>,
        mode: Option<Mode>,
    },
}

/// The gradient checks' options.
struct GradOptions {
    settings: Settings,
    runs: Option<u64>,
}

fn parse(cli: Cli) -> (Campaign, GradOptions, RunMode) {
    let repository = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let jobs = cli
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()) as u64);
    let campaign = Campaign {
        roots: if cli.corpus.is_empty() {
            fuzz::default_roots(&repository)
        } else {
            cli.corpus
        },
        seed: cli.seed,
        runs: cli.runs.unwrap_or(10_000),
        jobs,
        timeout: Duration::from_secs(cli.timeout),
        out: cli.out.clone(),
    };
    let grad = GradOptions {
        settings: Settings {
            out: cli.out,
            jobs: jobs as usize,
            batch: cli.batch as usize,
            shrink: !cli.no_shrink,
        },
        runs: cli.runs,
    };
    let given = cli.devices.is_some() || cli.opt.is_some() || cli.no_outline_layers || cli.recompute;
    let mode = given.then(|| Mode {
        devices: cli.devices.map_or(Mode::DEFAULT.devices, |n| n as usize),
        opt: cli.opt.unwrap_or(Mode::DEFAULT.opt),
        outline: !cli.no_outline_layers,
        recompute: cli.recompute,
    });
    let run_mode = if let Some(file) = cli.grad_check {
        RunMode::GradCheck {
            file,
            entry: cli.entry,
            input_dir: cli.input_dir,
            mode,
        }
    } else if cli.grad_sweep || cli.filter.is_some() {
        let modes = if cli.all_modes { SweepModes::All } else { cli.modes };
        RunMode::GradSweep(cli.filter.unwrap_or_default(), modes)
    } else if let (true, Some(k)) = (cli.grad, cli.show) {
        RunMode::GradShow(k)
    } else if cli.grad {
        RunMode::Grad
    } else if let Some(k) = cli.show {
        RunMode::Show(k)
    } else if cli.worker {
        RunMode::Work {
            first: cli.first,
            step: cli.step,
        }
    } else if !cli.replay.is_empty() {
        RunMode::Replay(cli.replay)
    } else {
        RunMode::Supervise
    };
    (campaign, grad, run_mode)
}

fn main() -> ExitCode {
    START.get_or_init(std::time::Instant::now);
    dist_tools::exit_on_closed_pipe();
    let (campaign, grad, mode) = parse(Cli::parse());
    match mode {
        RunMode::Grad => grad_campaign(&campaign, &grad),
        RunMode::GradShow(k) => {
            print!("{}", gradcheck::campaign_program(campaign.seed, k).to_mlir());
            ExitCode::SUCCESS
        }
        RunMode::GradSweep(filter, modes) => report(gradcheck::sweep(&filter, modes, &grad.settings), "the sweep"),
        RunMode::GradCheck {
            file,
            entry,
            input_dir,
            mode,
        } => grad_check(&file, &entry, input_dir.as_deref(), mode, &grad.settings),
        RunMode::Work { first, step } => {
            fuzz::work(&campaign, first, step, campaign.runs);
            ExitCode::SUCCESS
        }
        RunMode::Replay(paths) => {
            let mut failed = false;
            for (path, outcome) in fuzz::replay(&paths) {
                failed |= outcome == fuzz::Outcome::Panic;
                println!("{}: {}", path.display(), outcome.describe());
            }
            if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS }
        }
        RunMode::Show(k) => {
            print!("{}", fuzz::show(&campaign, k));
            ExitCode::SUCCESS
        }
        RunMode::Supervise => supervise(&campaign),
    }
}

fn supervise(campaign: &Campaign) -> ExitCode {
    let started = std::time::Instant::now();
    let tally = fuzz::supervise(campaign);
    println!(
        "dist-fuzz: seed {}: {tally}; {:.0} s",
        campaign.seed,
        started.elapsed().as_secs_f64()
    );
    if tally.failures() > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn grad_campaign(campaign: &Campaign, grad: &GradOptions) -> ExitCode {
    let runs = grad.runs.unwrap_or(200);
    report(
        gradcheck::campaign(campaign.seed, runs, &grad.settings),
        &format!("seed {}", campaign.seed),
    )
}

/// Prints the tally and each failure's file; fails if there is any.
fn report((tally, failures): (gradcheck::Tally, Vec<gradcheck::Failure>), what: &str) -> ExitCode {
    let started = START.get_or_init(std::time::Instant::now);
    println!(
        "dist-fuzz --grad: {what}: {tally}; {:.0} s",
        started.elapsed().as_secs_f64()
    );
    for failure in &failures {
        println!(
            "  {} in mode {}: {}\n    written to {}",
            failure.name,
            failure.mode,
            gradcheck::describe(&failure.verdict),
            failure.path.display()
        );
    }
    if tally.failures() > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();

fn grad_check(file: &Path, entry: &str, input_dir: Option<&Path>, mode: Option<Mode>, settings: &Settings) -> ExitCode {
    match gradcheck::check_file(file, entry, input_dir, mode, settings) {
        Ok(verdicts) => {
            let mut failed = false;
            for (mode, verdict) in verdicts {
                failed |= verdict.is_failure();
                println!("{mode}: {}", gradcheck::describe(&verdict));
            }
            if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS }
        }
        Err(message) => {
            eprintln!("dist-fuzz: {message}");
            ExitCode::FAILURE
        }
    }
}
