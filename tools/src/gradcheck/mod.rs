//! Gradient checks of the whole compiler: programs differentiated by
//! `dist-append-backward`, compiled and run by `dist-run --grad` in a
//! lowering mode (one device or a 2 x 2 mesh, `-O2`/`-O3`, layers outlined
//! or inline, activations recomputed or not), their loss and gradients
//! against a float64 reference written apart from the compiler (each op by
//! its definition, gradients by central finite differences) on the same
//! inputs.
//!
//! - [`sweep`]: every differentiable op, each operand, each broadcast and
//!   attribute variant, alone and fed by and feeding reductions, in every
//!   mode (`dist-fuzz --grad-sweep`);
//! - [`campaign`]: random well-typed programs from the op table, half of
//!   them with random shardings on a mesh (`dist-fuzz --grad`); a program
//!   that fails is shrunk to a minimal one and written out;
//! - [`check_file`]: one program of the user's (`dist-fuzz --grad-check`).
//!
//! Programs run in batches (one `dist-run` of their sum, each program's
//! gradients its own); a batch that fails is split into its programs.

pub mod check;
pub mod generate;
pub mod program;
pub mod read;
pub mod reference;
pub mod shrink;
pub mod sweep;

use crate::fuzz::mutate::Rng;
use check::{Mode, Verdict};
use program::Program;
use reference::Tensor;
use std::path::{Path, PathBuf};

/// A program ready to check: its inputs and the reference's results.
pub struct Item {
    pub name: String,
    pub program: Program,
    /// The MLIR `dist-run` compiles (the program's own, or a file's), and
    /// the function it runs.
    pub text: String,
    pub entry: String,
    pub inputs: Vec<Tensor>,
    pub expected: (f64, Vec<Tensor>),
    /// The seed of its inputs.
    pub seed: u64,
}

impl Item {
    /// `program` on inputs drawn from `seed`; `None` if none is smooth.
    pub fn new(name: String, program: Program, seed: u64) -> Option<Item> {
        let inputs = check::inputs(&program, seed)?;
        Some(Item::with_inputs(name, program, inputs, seed))
    }

    pub fn with_inputs(name: String, program: Program, inputs: Vec<Tensor>, seed: u64) -> Item {
        let expected = check::reference(&program, &inputs);
        let text = program.to_mlir();
        Item {
            name,
            program,
            text,
            entry: program::ENTRY.to_owned(),
            inputs,
            expected,
            seed,
        }
    }

    /// Its loss and gradients from `dist-run` in `mode` (working in `dir`)
    /// against the reference's.
    fn check(&self, dir: &Path, mode: Mode) -> Verdict {
        if let Err(e) = check::write(&self.text, &self.program, &self.inputs, dir) {
            return Verdict::Failed(format!("cannot write {}: {e}", dir.display()));
        }
        let names: Vec<String> = self
            .program
            .grad_args()
            .iter()
            .map(|&a| self.program.args[a].name.clone())
            .collect();
        match check::run(dir, &self.entry, mode, names.len() + 1) {
            Ok(got) => check::compare(&got, &self.expected, &names),
            Err(verdict) => verdict,
        }
    }
}

/// The items as one: their programs merged, inputs and gradients side by
/// side, the loss the sum of theirs.
fn merged(items: &[&Item]) -> Item {
    let programs: Vec<Program> = items.iter().map(|i| i.program.clone()).collect();
    let program = Program::merge(&programs);
    let inputs = items.iter().flat_map(|i| i.inputs.iter().cloned()).collect();
    let loss = items.iter().map(|i| i.expected.0).sum();
    let gradients = items.iter().flat_map(|i| i.expected.1.iter().cloned()).collect();
    let text = program.to_mlir();
    Item {
        name: format!("{} programs", items.len()),
        program,
        text,
        entry: program::ENTRY.to_owned(),
        inputs,
        expected: (loss, gradients),
        seed: 0,
    }
}

/// What a run of checks found.
#[derive(Debug, Default, Clone)]
pub struct Tally {
    pub programs: usize,
    /// Programs without smooth inputs (not checked).
    pub skipped: usize,
    /// Checks: a program in a mode.
    pub checks: usize,
    pub matched: usize,
    pub mismatched: usize,
    pub refused: usize,
    pub failed: usize,
    /// The largest error of a match, relative to its scale.
    pub worst: f64,
    /// The distinct refusals, with a count each.
    pub refusals: Vec<(String, usize)>,
}

impl Tally {
    fn count(&mut self, verdict: &Verdict) {
        self.checks += 1;
        match verdict {
            Verdict::Match(error) => {
                self.matched += 1;
                self.worst = self.worst.max(*error);
            }
            Verdict::Mismatch(_) => self.mismatched += 1,
            Verdict::Failed(_) => self.failed += 1,
            Verdict::Refused(why) => {
                self.refused += 1;
                // The message without its location: one line per kind.
                let kind = why.rsplit("error: ").next().unwrap_or(why).to_owned();
                match self.refusals.iter_mut().find(|(k, _)| *k == kind) {
                    Some((_, n)) => *n += 1,
                    None => self.refusals.push((kind, 1)),
                }
            }
        }
    }

    pub fn failures(&self) -> usize {
        self.mismatched + self.failed
    }
}

impl std::fmt::Display for Tally {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} programs ({} without smooth inputs), {} checks: {} match (largest error {:.1e} of tolerance {:.0e}), \
             {} wrong, {} failed, {} refused",
            self.programs,
            self.skipped,
            self.checks,
            self.matched,
            self.worst,
            check::TOLERANCE,
            self.mismatched,
            self.failed,
            self.refused
        )?;
        for (why, n) in &self.refusals {
            write!(f, "\n  refused {n}x: {why}")?;
        }
        Ok(())
    }
}

/// Where the checks run, and what they do with a failure.
#[derive(Debug, Clone)]
pub struct Settings {
    pub out: PathBuf,
    /// Checks running at once.
    pub jobs: usize,
    /// Programs per `dist-run`.
    pub batch: usize,
    /// Shrink a failing program before writing it out.
    pub shrink: bool,
}

/// A failure found: the program (shrunk), where it was written.
pub struct Failure {
    pub name: String,
    pub mode: Mode,
    pub verdict: Verdict,
    pub path: PathBuf,
}

/// Checks each group's items in its mode, in batches of `settings.batch`,
/// `settings.jobs` batches at once; a verdict for each item, by group.
fn check_all(groups: &[(Mode, Vec<&Item>)], settings: &Settings) -> Vec<Vec<Verdict>> {
    let batches: Vec<(usize, Mode, &[&Item])> = groups
        .iter()
        .enumerate()
        .flat_map(|(g, (mode, items))| items.chunks(settings.batch.max(1)).map(move |b| (g, *mode, b)))
        .collect();
    let verdicts: Vec<std::sync::OnceLock<Vec<Verdict>>> = batches.iter().map(|_| Default::default()).collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for job in 0..settings.jobs.max(1) {
            let (batches, next, verdicts) = (&batches, &next, &verdicts);
            scope.spawn(move || {
                let dir = settings.out.join("work").join(format!("job{job}"));
                loop {
                    let b = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(&(_, mode, batch)) = batches.get(b) else { break };
                    let verdict = merged(batch).check(&dir, mode);
                    let each = if batch.len() > 1 && !matches!(verdict, Verdict::Match(_)) {
                        batch.iter().map(|item| item.check(&dir, mode)).collect()
                    } else {
                        vec![verdict; batch.len()]
                    };
                    let _ = verdicts[b].set(each);
                }
            });
        }
    });
    let mut by_group: Vec<Vec<Verdict>> = vec![Vec::new(); groups.len()];
    for ((g, _, _), verdict) in batches.iter().zip(verdicts) {
        by_group[*g].extend(verdict.into_inner().expect("every batch ran"));
    }
    by_group
}

/// Shrinks `item`'s program (if asked) while it still fails in `mode`, and
/// writes it with its inputs under `out/failures`.
fn record(item: &Item, mode: Mode, verdict: Verdict, settings: &Settings) -> Failure {
    let dir = settings.out.join("work").join("shrink");
    let program = if settings.shrink {
        shrink::shrink(&item.program, |candidate| {
            Item::new(item.name.clone(), candidate.clone(), item.seed).is_some_and(|c| c.check(&dir, mode).is_failure())
        })
    } else {
        item.program.clone()
    };
    let small = Item::new(item.name.clone(), program.clone(), item.seed)
        .unwrap_or_else(|| Item::with_inputs(item.name.clone(), item.program.clone(), item.inputs.clone(), item.seed));
    let verdict = match small.check(&dir, mode) {
        v if v.is_failure() => v,
        _ => verdict,
    };
    let failures = settings.out.join("failures");
    let slug: String = item
        .name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let base = failures.join(format!("{slug}-{}", mode.to_string().replace([' ', '-'], "")));
    let inputs = base.with_extension("in");
    let path = base.with_extension("mlir");
    let written = check::write(&small.text, &small.program, &small.inputs, &inputs).and_then(|_| {
        let header = format!(
            "// dist-fuzz: {} in mode {mode}\n// {}\n// Reproduce: dist-fuzz --grad-check {} --input-dir {} {}\n",
            item.name,
            describe(&verdict).replace('\n', "\n// "),
            path.display(),
            inputs.join("in").display(),
            mode
        );
        std::fs::write(&path, header + &small.text)
    });
    if let Err(e) = written {
        eprintln!("dist-fuzz: cannot write {}: {e}", path.display());
    }
    Failure {
        name: item.name.clone(),
        mode,
        verdict,
        path,
    }
}

pub fn describe(verdict: &Verdict) -> String {
    match verdict {
        Verdict::Match(e) => format!("match (largest error {e:.1e})"),
        Verdict::Mismatch(what) => format!("wrong: {what}"),
        Verdict::Refused(why) => format!("refused: {why}"),
        Verdict::Failed(why) => format!("failed: {why}"),
    }
}

/// Checks each group of items in its mode; counts every verdict and
/// records every failure.
fn run_groups(groups: Vec<(Mode, Vec<&Item>)>, settings: &Settings, tally: &mut Tally) -> Vec<Failure> {
    let mut failures = Vec::new();
    let verdicts = check_all(&groups, settings);
    for ((mode, items), verdicts) in groups.into_iter().zip(verdicts) {
        for (item, verdict) in items.iter().zip(verdicts) {
            tally.count(&verdict);
            if let Verdict::Refused(why) = &verdict {
                eprintln!("dist-fuzz: {} in mode {mode}: refused: {why}", item.name);
            }
            if verdict.is_failure() {
                eprintln!("dist-fuzz: {} in mode {mode}: {}", item.name, describe(&verdict));
                failures.push(record(item, mode, verdict, settings));
            }
        }
    }
    failures
}

/// Which lowering modes the sweep runs its cases in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SweepModes {
    /// Each case in one of the covering modes on one device and one on the
    /// mesh, taken in turn: the four contexts of an op variant are
    /// consecutive cases, so each variant meets all six modes (the suite's).
    Rotated,
    /// Each case in all six modes that take each setting both ways
    /// ([`Mode::covering`]).
    Covering,
    /// Each case in all ten modes ([`Mode::all`]).
    All,
}

/// The sweep's cases whose name contains `filter`: each at `-n 1`, and
/// with random shardings on the 2 x 2 mesh at `-n 4`, in `modes`.
pub fn sweep(filter: &str, modes: SweepModes, settings: &Settings) -> (Tally, Vec<Failure>) {
    let mut tally = Tally::default();
    let mut single = Vec::new();
    let mut sharded = Vec::new();
    for (k, case) in sweep::cases().into_iter().enumerate() {
        if !case.name.contains(filter) {
            continue;
        }
        tally.programs += 1;
        let seed = k as u64;
        let mut on_mesh = case.program.clone();
        generate::shard(&mut on_mesh, 2026, seed);
        match (
            Item::new(case.name.clone(), case.program, seed),
            Item::new(format!("{} (sharded)", case.name), on_mesh, seed),
        ) {
            (Some(a), Some(b)) => {
                single.push(a);
                sharded.push(b);
            }
            _ => tally.skipped += 1,
        }
    }
    let devices = generate::MESH.iter().map(|(_, n)| n).product();
    let all = match modes {
        SweepModes::All => Mode::all(devices),
        SweepModes::Covering | SweepModes::Rotated => Mode::covering(devices),
    };
    let groups = all
        .iter()
        .map(|&mode| {
            let items = if mode.devices == 1 { &single } else { &sharded };
            let items = if modes == SweepModes::Rotated {
                // Case k goes to the (k mod n)-th of the n modes of its kind.
                let alike: Vec<&Mode> = all.iter().filter(|m| (m.devices == 1) == (mode.devices == 1)).collect();
                let turn = alike.iter().position(|&&m| m == mode).expect("the mode is one of them");
                items.iter().skip(turn).step_by(alike.len()).collect()
            } else {
                items.iter().collect()
            };
            (mode, items)
        })
        .collect();
    let failures = run_groups(groups, settings, &mut tally);
    (tally, failures)
}

/// Program `k` of a campaign seeded `seed`: the odd ones sharded on the mesh.
pub fn campaign_program(seed: u64, k: u64) -> Program {
    let mut program = generate::program(seed, k);
    if k % 2 == 1 {
        generate::shard(&mut program, seed, k);
    }
    program
}

/// `runs` random programs of `seed` ([`campaign_program`]), the sharded
/// ones run on the mesh's devices, each in a random mode.
pub fn campaign(seed: u64, runs: u64, settings: &Settings) -> (Tally, Vec<Failure>) {
    let mut tally = Tally::default();
    let devices = generate::MESH.iter().map(|(_, n)| n).product();
    let mut items: Vec<(Mode, Item)> = Vec::new();
    for k in 0..runs {
        tally.programs += 1;
        let program = campaign_program(seed, k);
        let mut rng = Rng::for_input(seed ^ 0x6d6f_6465, k);
        let mode = Mode {
            devices: if program.mesh.is_empty() { 1 } else { devices },
            opt: if rng.below(2) == 0 { 2 } else { 3 },
            outline: rng.below(2) == 0,
            recompute: rng.below(5) == 0,
        };
        match Item::new(format!("seed {seed} program {k}"), program, seed ^ k) {
            Some(item) => items.push((mode, item)),
            None => tally.skipped += 1,
        }
    }
    let mut groups: Vec<(Mode, Vec<&Item>)> = Vec::new();
    for (mode, item) in &items {
        match groups.iter_mut().find(|(m, _)| m == mode) {
            Some((_, list)) => list.push(item),
            None => groups.push((*mode, vec![item])),
        }
    }
    let failures = run_groups(groups, settings, &mut tally);
    (tally, failures)
}

/// The function `entry` of the file at `path` in `mode`, or in every mode
/// its mesh allows, on the inputs in `input_dir` (`<name>.npy`) or on
/// random ones.
pub fn check_file(
    path: &Path,
    entry: &str,
    input_dir: Option<&Path>,
    mode: Option<Mode>,
    settings: &Settings,
) -> Result<Vec<(Mode, Verdict)>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let program = read::read(&text, &path.display().to_string(), entry)?;
    let item = match input_dir {
        Some(dir) => {
            let inputs = program
                .args
                .iter()
                .map(|a| {
                    let file = dir.join(format!("{}.npy", a.name));
                    let array = dist_npy::read(&file.to_string_lossy())?;
                    Ok(Tensor::new(a.shape.clone(), array.to_f64()))
                })
                .collect::<Result<Vec<Tensor>, String>>()?;
            Item::with_inputs(path.display().to_string(), program, inputs, 0)
        }
        None => Item::new(path.display().to_string(), program, 1)
            .ok_or_else(|| "no smooth inputs found: give --input-dir".to_owned())?,
    };
    let item = Item {
        text,
        entry: entry.to_owned(),
        ..item
    };
    let modes = mode.map_or_else(|| Mode::all(item.program.devices()), |m| vec![m]);
    let dir = settings.out.join("work").join("file");
    Ok(modes.into_iter().map(|mode| (mode, item.check(&dir, mode))).collect())
}
