//! `dist-fuzz`: mutation fuzzing of parse, verify, the sharding passes,
//! partition and the LLVM lowering, in process (see `dist_tools::fuzz`).

use dist_tools::fuzz::{self, Campaign};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

const USAGE: &str = "usage: dist-fuzz [--runs N] [--seed S] [--jobs J] [--timeout SECONDS] [--out DIR] [--corpus DIR ...]\n\
    \x20      dist-fuzz --replay FILE ...\n\
    \x20      dist-fuzz --show K [--seed S] [--corpus DIR ...]\n\n\
    Runs N mutated inputs (default 10000) drawn from seed S (default 1) from the\n\
    .mlir files under each --corpus DIR (default: test/ and examples/ of this\n\
    repository) through parse and verify, the sharding passes, dist-partition\n\
    and dist-lower-to-cpu, on J worker processes (default: the cores), each\n\
    input in a fresh MLIR context. An input that crashes a worker, makes a\n\
    pass panic, or runs past the timeout (default 20 s) is written to\n\
    DIR/crashes or DIR/hangs (default DIR: fuzz-out); the exit code is 1 if\n\
    there is any. --replay runs files through the same stages and prints\n\
    where each stopped; --show prints input K of the seed.\n";

/// What this process does.
enum Mode {
    Supervise,
    /// Run inputs `first, first + step, ...` (a worker of a supervisor).
    Work {
        first: u64,
        step: u64,
    },
    Replay(Vec<PathBuf>),
    /// Print input `k` of the seed (to inspect or keep one a worker ran).
    Show(u64),
}

fn parse(args: &[String]) -> Result<(Campaign, Mode), String> {
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
            "--runs" => campaign.runs = number("--runs")?,
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
            other => return Err(format!("unknown argument '{other}'")),
        }
    }
    if campaign.roots.is_empty() {
        campaign.roots = fuzz::default_roots(&repository);
    }
    let mode = if let Some(k) = show {
        Mode::Show(k)
    } else if worker {
        Mode::Work { first, step }
    } else if !replay.is_empty() {
        Mode::Replay(replay)
    } else {
        Mode::Supervise
    };
    Ok((campaign, mode))
}

fn main() -> ExitCode {
    dist_tools::exit_on_closed_pipe();
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--help" || a == "-h") {
        print!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    let (campaign, mode) = match parse(&args) {
        Ok(parsed) => parsed,
        Err(message) => {
            eprintln!("dist-fuzz: {message}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match mode {
        Mode::Work { first, step } => {
            fuzz::work(&campaign, first, step, campaign.runs);
            ExitCode::SUCCESS
        }
        Mode::Replay(paths) => {
            let mut failed = false;
            for (path, outcome) in fuzz::replay(&paths) {
                failed |= outcome == fuzz::Outcome::Panic;
                println!("{}: {}", path.display(), outcome.describe());
            }
            if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS }
        }
        Mode::Show(k) => {
            print!("{}", fuzz::show(&campaign, k));
            ExitCode::SUCCESS
        }
        Mode::Supervise => supervise(&campaign),
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
