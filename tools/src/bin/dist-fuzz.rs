//! `dist-fuzz`: mutation fuzzing of parse, verify, the sharding passes,
//! partition and the LLVM lowering, in process (see `dist_tools::fuzz`);
//! and the gradient checks: random programs, the sweep of every op, or one
//! file, through `dist-run --grad` against a float64 reference (see
//! `dist_tools::gradcheck`).

use dist_tools::fuzz::{self, Campaign};
use dist_tools::gradcheck::{self, Settings, check::Mode};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

const USAGE: &str = "usage: dist-fuzz [--runs N] [--seed S] [--jobs J] [--timeout SECONDS] [--out DIR] [--corpus DIR ...]\n\
    \x20      dist-fuzz --replay FILE ...\n\
    \x20      dist-fuzz --show K [--seed S] [--corpus DIR ...]\n\
    \x20      dist-fuzz --grad [--runs N] [--seed S] [--jobs J] [--batch B] [--no-shrink] [--out DIR]\n\
    \x20      dist-fuzz --grad-sweep [--filter TEXT] [--all-modes] [--jobs J] [--batch B] [--no-shrink] [--out DIR]\n\
    \x20      dist-fuzz --grad-check FILE [--entry NAME] [--input-dir DIR] [-n N] [-O2|-O3] [--no-outline-layers] [--recompute]\n\n\
    Runs N mutated inputs (default 10000) drawn from seed S (default 1) from the\n\
    .mlir files under each --corpus DIR (default: test/ and examples/ of this\n\
    repository) through parse and verify, the sharding passes, dist-partition\n\
    and dist-lower-to-cpu, on J worker processes (default: the cores), each\n\
    input in a fresh MLIR context. An input that crashes a worker, makes a\n\
    pass panic, or runs past the timeout (default 20 s) is written to\n\
    DIR/crashes or DIR/hangs (default DIR: fuzz-out); the exit code is 1 if\n\
    there is any. --replay runs files through the same stages and prints\n\
    where each stopped; --show prints input K of the seed (of --grad: program K).\n\n\
    --grad checks gradients instead: N random well-typed programs (default\n\
    200) of seed S from the table of differentiable ops, the odd ones with\n\
    random shardings on a 2 x 2 mesh, each differentiated and run by the\n\
    dist-run beside this binary (--grad) in a random mode (-n 1 or 4, -O2 or\n\
    -O3, layers outlined or not, --recompute or not), B programs (default 8)\n\
    a run, J runs at once, its loss and gradients against a float64\n\
    reference (each op by its definition, gradients by central finite\n\
    differences). A program that differs, or that dist-run fails on without\n\
    a diagnostic, is shrunk to a minimal one (unless --no-shrink) and written\n\
    with its inputs to DIR/failures; the exit code is 1 if there is any.\n\
    --grad-sweep checks every differentiable op, each operand, broadcast and\n\
    attribute variant, alone and fed by and feeding reductions (the cases\n\
    whose name contains TEXT), on one device and sharded on the mesh, in six\n\
    modes that take each setting both ways (with --all-modes: all ten).\n\
    --grad-check checks the forward function NAME (default f) of FILE, on the\n\
    inputs in DIR (<arg>.npy) or on random ones, in the mode given, or in\n\
    every mode its mesh allows.\n";

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
    GradSweep(String, bool),
    /// One file's gradients, in the modes given (all: none given).
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

fn parse(args: &[String]) -> Result<(Campaign, GradOptions, RunMode), String> {
    let repository = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut campaign = Campaign {
        roots: Vec::new(),
        seed: 1,
        runs: 10_000,
        jobs: std::thread::available_parallelism().map_or(1, |n| n.get()) as u64,
        timeout: Duration::from_secs(20),
        out: PathBuf::from("fuzz-out"),
    };
    let (mut worker, mut first, mut step) = (false, 0, 1);
    let mut replay = Vec::new();
    let mut show = None;
    let mut grad = GradOptions {
        settings: Settings {
            out: PathBuf::from("fuzz-out"),
            jobs: campaign.jobs as usize,
            batch: 8,
            shrink: true,
        },
        runs: None,
    };
    let (mut grad_mode, mut filter, mut check_file, mut all_modes) = (false, None, None, false);
    let (mut entry, mut input_dir) = ("f".to_owned(), None);
    let mut mode: Option<Mode> = None;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = || {
            it.next()
                .cloned()
                .ok_or_else(|| format!("option '{arg}' needs a value"))
        };
        let mut number = |what: &str| {
            let v = value()?;
            v.parse::<u64>().map_err(|_| format!("{what} takes a count, not '{v}'"))
        };
        match arg.as_str() {
            "--runs" => {
                campaign.runs = number("--runs")?;
                grad.runs = Some(campaign.runs);
            }
            "--seed" => campaign.seed = number("--seed")?,
            "--jobs" => campaign.jobs = number("--jobs")?.max(1),
            "--timeout" => campaign.timeout = Duration::from_secs(number("--timeout")?.max(1)),
            "--out" => campaign.out = PathBuf::from(value()?),
            "--corpus" => campaign.roots.push(PathBuf::from(value()?)),
            "--replay" => replay.extend(it.by_ref().map(PathBuf::from)),
            "--show" => show = Some(number("--show")?),
            "--worker" => worker = true,
            "--first" => first = number("--first")?,
            "--step" => step = number("--step")?.max(1),
            "--grad" => grad_mode = true,
            "--grad-sweep" => filter = Some(String::new()),
            "--filter" => filter = Some(value()?),
            "--grad-check" => check_file = Some(PathBuf::from(value()?)),
            "--entry" => entry = value()?,
            "--input-dir" => input_dir = Some(PathBuf::from(value()?)),
            "--batch" => grad.settings.batch = number("--batch")?.max(1) as usize,
            "--no-shrink" => grad.settings.shrink = false,
            "--all-modes" => all_modes = true,
            "-n" => mode.get_or_insert(Mode::DEFAULT).devices = number("-n")?.max(1) as usize,
            "-O2" | "-O3" => mode.get_or_insert(Mode::DEFAULT).opt = if arg == "-O2" { 2 } else { 3 },
            "--no-outline-layers" => mode.get_or_insert(Mode::DEFAULT).outline = false,
            "--recompute" => mode.get_or_insert(Mode::DEFAULT).recompute = true,
            other => return Err(format!("unknown argument '{other}'")),
        }
    }
    grad.settings.jobs = campaign.jobs as usize;
    grad.settings.out = campaign.out.clone();
    if campaign.roots.is_empty() {
        campaign.roots = fuzz::default_roots(&repository);
    }
    let mode = if let Some(file) = check_file {
        RunMode::GradCheck {
            file,
            entry,
            input_dir,
            mode,
        }
    } else if let Some(filter) = filter {
        RunMode::GradSweep(filter, all_modes)
    } else if let (true, Some(k)) = (grad_mode, show) {
        RunMode::GradShow(k)
    } else if grad_mode {
        RunMode::Grad
    } else if let Some(k) = show {
        RunMode::Show(k)
    } else if worker {
        RunMode::Work { first, step }
    } else if !replay.is_empty() {
        RunMode::Replay(replay)
    } else {
        RunMode::Supervise
    };
    Ok((campaign, grad, mode))
}

fn main() -> ExitCode {
    START.get_or_init(std::time::Instant::now);
    dist_tools::exit_on_closed_pipe();
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--help" || a == "-h") {
        print!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    let (campaign, grad, mode) = match parse(&args) {
        Ok(parsed) => parsed,
        Err(message) => {
            eprintln!("dist-fuzz: {message}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match mode {
        RunMode::Grad => grad_campaign(&campaign, &grad),
        RunMode::GradShow(k) => {
            print!("{}", gradcheck::campaign_program(campaign.seed, k).to_mlir());
            ExitCode::SUCCESS
        }
        RunMode::GradSweep(filter, all_modes) => {
            report(gradcheck::sweep(&filter, all_modes, &grad.settings), "the sweep")
        }
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
