//! `dist-fuzz`: mutation fuzzing of the whole compiler, in process.
//!
//! The corpus is every `.mlir` under `test/` and `examples/`, split at
//! `// -----`. Input `k` of a campaign is a corpus entry with one to four
//! token- or line-level mutations ([`mutate`]), drawn from the seed and `k`
//! alone. Each input gets a fresh MLIR context (threading on, as users run)
//! and goes through parse and verify, the StableHLO import
//! (`convert-stablehlo-to-dist`: the checked-in JAX and Flax exports, read
//! with unregistered dialects allowed, as `dist-opt
//! --allow-unregistered-dialect` reads them), automatic differentiation
//! (`dist-append-backward`), the sharding passes
//! (`dist-propagate-sharding`, `dist-resolve-partial`,
//! `dist-split-matmul-grad`, `dist-overlap-collectives`), `dist-partition`
//! and `dist-lower-to-cpu`, stopping at the first stage that rejects it.
//!
//! Workers are processes of this binary that run inputs in a loop and
//! report each index before running it; the supervisor restarts a worker
//! that dies (a crash) or falls silent past the timeout (a hang) and writes
//! that input to `crashes/` or `hangs/`. A pass that panics is caught at the
//! FFI boundary and reported as an internal error: that is a crash too.

pub mod mutate;

use crate::diagnostics::Diag;
use dist_dialect::ir::{context_with_all_dialects, parse_module};
use mutate::Dictionary;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The stages after parsing, in order, as pass pipelines.
pub const STAGES: &[(&str, &str)] = &[
    ("import", "convert-stablehlo-to-dist"),
    ("backward", "func.func(dist-append-backward)"),
    (
        "sharding",
        "func.func(dist-propagate-sharding{remarks=none},dist-resolve-partial,dist-split-matmul-grad,\
         dist-overlap-collectives)",
    ),
    ("partition", "func.func(dist-partition)"),
    ("lowering", "dist-lower-to-cpu"),
];

/// Where an input stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Rejected by the parser or the verifier.
    Parse,
    /// Rejected (with a diagnostic) by stage `STAGES[i]`.
    Stage(usize),
    /// Through every stage.
    Accepted,
    /// A pass panicked (an internal error).
    Panic,
}

impl Outcome {
    pub fn describe(self) -> String {
        match self {
            Self::Parse => "rejected by the parser or verifier".into(),
            Self::Stage(i) => format!("rejected by the {} stage", STAGES[i].0),
            Self::Accepted => "accepted by every stage".into(),
            Self::Panic => "a pass panicked".into(),
        }
    }
}

/// Runs one input through every stage, in a fresh context.
pub fn run_one(text: &str) -> Outcome {
    let context = context_with_all_dialects();
    let panicked = std::rc::Rc::new(std::cell::Cell::new(false));
    let seen = panicked.clone();
    context.attach_diagnostic_handler(move |d| {
        if Diag::from_mlir(&d).message.starts_with("internal error") {
            seen.set(true);
        }
        true
    });
    // An export of JAX's: its stablehlo, chlo and sdy ops are not
    // registered here.
    if ["\"stablehlo.", "\"chlo.", "\"sdy."]
        .iter()
        .any(|dialect| text.contains(dialect))
    {
        context.set_allow_unregistered_dialects(true);
    }
    let outcome = (|| {
        let Some(mut module) = parse_module(&context, text, "fuzz.mlir") else {
            return Outcome::Parse;
        };
        for (i, (_, pipeline)) in STAGES.iter().enumerate() {
            if crate::run::run_pipeline(&context, &mut module, pipeline).is_err() {
                return Outcome::Stage(i);
            }
        }
        Outcome::Accepted
    })();
    if panicked.get() { Outcome::Panic } else { outcome }
}

/// The extension of a corpus snapshot: what a supervisor hands its workers,
/// so that a campaign's inputs do not change with the files under `test/`.
pub const SNAPSHOT: &str = "corpus";

/// Writes `corpus` as a snapshot: each entry as its length in bytes on a
/// line, then the entry.
pub fn write_snapshot(path: &Path, corpus: &[String]) -> std::io::Result<()> {
    let mut out = String::new();
    for entry in corpus {
        out.push_str(&format!("{}\n{entry}", entry.len()));
    }
    std::fs::write(path, out)
}

/// The entries of a snapshot `write_snapshot` wrote.
fn read_snapshot(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut entries = Vec::new();
    let mut rest = text.as_str();
    while let Some((length, tail)) = rest.split_once('\n') {
        let Some(entry) = length.parse::<usize>().ok().and_then(|n| tail.get(..n)) else {
            break;
        };
        entries.push(entry.to_owned());
        rest = &tail[entry.len()..];
    }
    entries
}

/// Every `.mlir` under `roots`, in path order, split at `// -----` lines;
/// a root that is a snapshot file (`.corpus`) gives its entries.
pub fn corpus(roots: &[PathBuf]) -> Vec<String> {
    let snapshots = roots.iter().filter(|r| r.extension().is_some_and(|e| e == SNAPSHOT));
    let mut entries: Vec<String> = snapshots.flat_map(|s| read_snapshot(s)).collect();
    entries.extend(scan(roots));
    entries
}

fn scan(roots: &[PathBuf]) -> Vec<String> {
    let mut files = Vec::new();
    let mut pending: Vec<PathBuf> = roots.to_vec();
    while let Some(path) = pending.pop() {
        if path.is_dir() {
            let Ok(entries) = std::fs::read_dir(&path) else {
                continue;
            };
            pending.extend(entries.filter_map(|e| e.ok().map(|e| e.path())));
        } else if path.extension().is_some_and(|e| e == "mlir") && !path.components().any(|c| c.as_os_str() == "Output")
        {
            files.push(path);
        }
    }
    files.sort();
    files
        .iter()
        .filter_map(|f| std::fs::read_to_string(f).ok())
        .flat_map(|text| {
            crate::split::split(&text, true)
                .into_iter()
                .map(|c| c.text.to_owned())
                .collect::<Vec<_>>()
        })
        .filter(|chunk| !chunk.trim().is_empty())
        .collect()
}

/// A campaign's settings.
#[derive(Debug, Clone)]
pub struct Campaign {
    pub roots: Vec<PathBuf>,
    pub seed: u64,
    pub runs: u64,
    pub jobs: u64,
    pub timeout: Duration,
    pub out: PathBuf,
}

/// Counts of a campaign.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Tally {
    pub parse: u64,
    pub stages: Vec<u64>,
    pub accepted: u64,
    pub panics: u64,
    pub crashes: u64,
    pub hangs: u64,
}

impl Tally {
    fn count(&mut self, outcome: Outcome) {
        match outcome {
            Outcome::Parse => self.parse += 1,
            Outcome::Stage(i) => self.stages[i] += 1,
            Outcome::Accepted => self.accepted += 1,
            Outcome::Panic => self.panics += 1,
        }
    }

    pub fn total(&self) -> u64 {
        self.parse + self.stages.iter().sum::<u64>() + self.accepted + self.panics + self.crashes + self.hangs
    }

    pub fn failures(&self) -> u64 {
        self.panics + self.crashes + self.hangs
    }
}

impl std::fmt::Display for Tally {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} inputs: {} rejected at parse/verify", self.total(), self.parse)?;
        for ((name, _), n) in STAGES.iter().zip(&self.stages) {
            write!(f, ", {n} by {name}")?;
        }
        write!(
            f,
            ", {} accepted; {} crashes, {} hangs, {} panics",
            self.accepted, self.crashes, self.hangs, self.panics
        )
    }
}

/// A worker: runs inputs `first, first + step, ...` below `end`, printing
/// `start <k>` before and `<outcome> <k>` after each.
pub fn work(campaign: &Campaign, first: u64, step: u64, end: u64) {
    dist_passes::register_all();
    let corpus = corpus(&campaign.roots);
    let dictionary = Dictionary::of(&corpus);
    let mut out = std::io::stdout().lock();
    let mut k = first;
    while k < end {
        // Reported before the input is even made: a crash or hang in the
        // mutator is the input's too.
        let _ = writeln!(out, "start {k}").and_then(|_| out.flush());
        let text = mutate::input(&corpus, &dictionary, campaign.seed, k);
        let code = match run_one(&text) {
            Outcome::Parse => "parse".to_owned(),
            Outcome::Stage(i) => format!("stage{i}"),
            Outcome::Accepted => "accepted".to_owned(),
            Outcome::Panic => "panic".to_owned(),
        };
        let _ = writeln!(out, "{code} {k}").and_then(|_| out.flush());
        k += step;
    }
}

fn parse_report(line: &str) -> Option<(Option<Outcome>, u64)> {
    let (word, k) = line.split_once(' ')?;
    let k = k.trim().parse().ok()?;
    let outcome = match word {
        "start" => None,
        "parse" => Some(Outcome::Parse),
        "accepted" => Some(Outcome::Accepted),
        "panic" => Some(Outcome::Panic),
        stage => Some(Outcome::Stage(stage.strip_prefix("stage")?.parse().ok()?)),
    };
    Some((outcome, k))
}

struct Worker {
    child: Child,
    /// Tags this worker's lines: a killed worker's last lines arrive after
    /// its replacement started.
    serial: usize,
    /// The input it is running, and since when.
    current: Option<(u64, Instant)>,
}

type Lines = mpsc::Sender<(usize, Option<String>)>;

fn spawn(campaign: &Campaign, first: u64, step: u64, lines: Lines, serial: usize) -> Worker {
    let exe = std::env::current_exe().expect("the running binary");
    let mut child = Command::new(exe)
        .arg("--worker")
        .args(["--seed", &campaign.seed.to_string()])
        .args(["--first", &first.to_string(), "--step", &step.to_string()])
        .args(["--runs", &campaign.runs.to_string()])
        .args(
            campaign
                .roots
                .iter()
                .flat_map(|r| ["--corpus".into(), r.display().to_string()]),
        )
        .stdout(Stdio::piped())
        .stderr(worker_log(campaign, serial).map_or_else(|_| Stdio::null(), Stdio::from))
        .spawn()
        .expect("a worker starts");
    let stdout: ChildStdout = child.stdout.take().expect("piped");
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if lines.send((serial, Some(line))).is_err() {
                return;
            }
        }
        let _ = lines.send((serial, None));
    });
    Worker {
        child,
        serial,
        current: None,
    }
}

/// Input `k` of `campaign`'s seed over its corpus.
pub fn show(campaign: &Campaign, k: u64) -> String {
    let corpus = corpus(&campaign.roots);
    mutate::input(&corpus, &Dictionary::of(&corpus), campaign.seed, k)
}

/// Writes input `k` to `dir` with a header saying what happened.
fn save(campaign: &Campaign, corpus: &[String], dictionary: &Dictionary, dir: &str, k: u64, what: &str) -> PathBuf {
    let dir = campaign.out.join(dir);
    let _ = std::fs::create_dir_all(&dir);
    let path = dir.join(format!("input-{}-{k}.mlir", campaign.seed));
    let text = mutate::input(corpus, dictionary, campaign.seed, k);
    let what: Vec<&str> = what.lines().collect();
    let header = format!(
        "// dist-fuzz --seed {} input {k} (the corpus: {}): {}\n",
        campaign.seed,
        campaign
            .roots
            .iter()
            .map(|r| r.display().to_string())
            .collect::<Vec<_>>()
            .join(" "),
        what.join("\n// ")
    );
    let _ = std::fs::write(&path, header + &text);
    path
}

/// Where worker `serial` writes its stderr: the last lines a crash left go
/// into the saved input's header.
fn worker_log_path(campaign: &Campaign, serial: usize) -> PathBuf {
    campaign.out.join(format!("worker-{serial}.log"))
}

fn worker_log(campaign: &Campaign, serial: usize) -> std::io::Result<std::fs::File> {
    std::fs::create_dir_all(&campaign.out)?;
    std::fs::File::create(worker_log_path(campaign, serial))
}

/// The last `count` lines worker `serial` wrote to stderr.
fn log_tail(campaign: &Campaign, serial: usize, count: usize) -> String {
    let log = std::fs::read_to_string(worker_log_path(campaign, serial)).unwrap_or_default();
    let lines: Vec<&str> = log.lines().collect();
    lines[lines.len().saturating_sub(count)..].join("\n")
}

/// Runs a campaign on `jobs` workers; prints progress and the tally. The
/// corpus is read once and handed to the workers as a snapshot in the
/// output directory, which reproduces any input later (`--show K --corpus
/// DIR/inputs.corpus`) whatever happens to the files meanwhile.
pub fn supervise(campaign: &Campaign) -> Tally {
    let corpus = corpus(&campaign.roots);
    assert!(!corpus.is_empty(), "no .mlir files under the corpus roots");
    let snapshot = campaign.out.join(format!("inputs.{SNAPSHOT}"));
    let _ = std::fs::create_dir_all(&campaign.out);
    write_snapshot(&snapshot, &corpus).expect("the output directory is writable");
    let campaign = &Campaign {
        roots: vec![snapshot],
        ..campaign.clone()
    };
    let dictionary = Dictionary::of(&corpus);
    let mut tally = Tally {
        stages: vec![0; STAGES.len()],
        ..Tally::default()
    };
    let (sender, lines) = mpsc::channel();
    let jobs = campaign.jobs.max(1);
    let mut serials = 0..;
    let mut workers: Vec<Option<Worker>> = (0..jobs)
        .map(|j| {
            Some(spawn(
                campaign,
                j,
                jobs,
                sender.clone(),
                serials.next().expect("endless"),
            ))
        })
        .collect();
    let slot_of = |workers: &[Option<Worker>], serial: usize| {
        workers
            .iter()
            .position(|w| w.as_ref().is_some_and(|w| w.serial == serial))
    };
    let started = Instant::now();
    let mut last_report = Instant::now();
    while workers.iter().any(Option::is_some) {
        let message = lines.recv_timeout(Duration::from_millis(200));
        let now = Instant::now();
        match message {
            Ok((serial, Some(line))) => {
                let Some(id) = slot_of(&workers, serial) else { continue };
                let Some((outcome, k)) = parse_report(&line) else {
                    continue;
                };
                let worker = workers[id].as_mut().expect("a live worker reports");
                match outcome {
                    None => worker.current = Some((k, now)),
                    Some(outcome) => {
                        worker.current = None;
                        tally.count(outcome);
                        if outcome == Outcome::Panic {
                            let path = save(campaign, &corpus, &dictionary, "crashes", k, "a pass panicked");
                            eprintln!("dist-fuzz: a pass panicked on {}", path.display());
                        }
                    }
                }
            }
            Ok((serial, None)) => {
                // The worker's output ended: it finished, or it died.
                let Some(id) = slot_of(&workers, serial) else { continue };
                let Some(mut worker) = workers[id].take() else { continue };
                let status = worker.child.wait().ok();
                let tail = log_tail(campaign, worker.serial, 8);
                let _ = std::fs::remove_file(worker_log_path(campaign, worker.serial));
                if let Some((k, _)) = worker.current {
                    tally.crashes += 1;
                    let status = status.map_or("no status".into(), |s| s.to_string());
                    let what = format!("crashed ({status})\n{tail}");
                    let path = save(campaign, &corpus, &dictionary, "crashes", k, &what);
                    eprintln!("dist-fuzz: crashed ({status}) on {}", path.display());
                    let serial = serials.next().expect("endless");
                    workers[id] = Some(spawn(campaign, k + jobs, jobs, sender.clone(), serial));
                }
            }
            Err(_) => {}
        }
        for slot in workers.iter_mut() {
            if let Some(worker) = slot
                && let Some((k, since)) = worker.current
                && now.duration_since(since) > campaign.timeout
            {
                let _ = worker.child.kill();
                let _ = worker.child.wait();
                let _ = std::fs::remove_file(worker_log_path(campaign, worker.serial));
                tally.hangs += 1;
                let what = format!("still running after {} s", campaign.timeout.as_secs());
                let path = save(campaign, &corpus, &dictionary, "hangs", k, &what);
                eprintln!("dist-fuzz: {what} on {}", path.display());
                let serial = serials.next().expect("endless");
                *slot = Some(spawn(campaign, k + jobs, jobs, sender.clone(), serial));
            }
        }
        if now.duration_since(last_report) > Duration::from_secs(60) {
            last_report = now;
            let rate = tally.total() as f64 / started.elapsed().as_secs_f64();
            eprintln!("dist-fuzz: {tally} ({rate:.0}/s)");
        }
    }
    tally
}

/// `--replay`: each file's outcome, in process. A crash ends the process,
/// as it would end `dist-opt`.
pub fn replay(paths: &[PathBuf]) -> Vec<(PathBuf, Outcome)> {
    dist_passes::register_all();
    paths
        .iter()
        .map(|p| {
            let text = std::fs::read_to_string(p).unwrap_or_default();
            (p.clone(), run_one(&text))
        })
        .collect()
}

/// The repository's corpus roots, from the directory holding `test/`.
pub fn default_roots(repository: &Path) -> Vec<PathBuf> {
    vec![repository.join("test"), repository.join("examples")]
}
