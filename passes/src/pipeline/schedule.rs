//! Pipeline schedules: the order in which each stage runs the forward (F),
//! input-gradient (B) and weight-gradient (W) work of every microbatch, the
//! check that such an order can run, and its modelled timeline. Pure Rust.
//!
//! A stage sends what crosses its boundary without waiting (async sends)
//! and waits for what it receives, so an order deadlocks exactly when a
//! stage's next job waits for a job that can never run: [`simulate`] finds
//! that, and [`check`] also rejects orders that miss a job or run a
//! microbatch's B before its F or its W before its B.

use std::fmt;
use thiserror::Error;

/// The schedules `dist-pipeline` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Schedule {
    /// Every forward, then every backward (Huang et al., 2019).
    GPipe,
    /// One forward, one backward: after `p - s - 1` warm-up forwards, stage
    /// `s` alternates, so it holds at most `p - s` microbatches (PipeDream
    /// flush, Narayanan et al., 2021).
    OneFOneB,
    /// 1F1B with B and W apart: stage `s` sends the input gradient when B
    /// has run and leaves the W of its first `s` microbatches to the end,
    /// where it would otherwise wait for the last B (Qi et al., ICLR 2024,
    /// handcrafted schedule 1).
    ZbH1,
    /// Megatron's interleaved 1F1B (Narayanan et al., SC 2021): each device
    /// holds `v` model chunks (virtual stages), logical stage `c p + d` on
    /// device `d`; the devices run the chunks of `p` microbatches at a time
    /// in turn, which cuts 1F1B's bubble by `v`. With `v = 1` it is 1F1B.
    Interleaved,
}

impl Schedule {
    /// Every schedule, as `schedule=` spells it.
    pub const NAMES: &'static [&'static str] = &["gpipe", "1f1b", "zb-h1", "interleaved-1f1b"];

    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "gpipe" => Some(Self::GPipe),
            "1f1b" => Some(Self::OneFOneB),
            "zb-h1" => Some(Self::ZbH1),
            "interleaved-1f1b" => Some(Self::Interleaved),
            _ => None,
        }
    }

    /// Whether the schedule runs a microbatch's W apart from its B. Those
    /// that do not compute a stage's backward as one piece and send the
    /// input gradient when the whole of it has run.
    pub fn splits_backward(self) -> bool {
        self == Self::ZbH1
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::GPipe => "gpipe",
            Self::OneFOneB => "1f1b",
            Self::ZbH1 => "zb-h1",
            Self::Interleaved => "interleaved-1f1b",
        }
    }
}

/// A part of one microbatch's work on one stage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Phase {
    /// The forward.
    F,
    /// The gradients of the stage's inputs (what the previous stage waits for).
    B,
    /// The gradients of the stage's parameters (what nobody waits for).
    W,
}

impl Phase {
    const ALL: [Phase; 3] = [Phase::F, Phase::B, Phase::W];

    fn index(self) -> usize {
        self as usize
    }
}

/// One phase of one microbatch on one of a device's model chunks (0
/// unless the schedule interleaves virtual stages).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Job {
    pub phase: Phase,
    pub microbatch: usize,
    pub chunk: usize,
}

/// `F3`, and `F3.1` on chunk 1.
impl fmt::Display for Job {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}{}", self.phase, self.microbatch)?;
        if self.chunk > 0 {
            write!(f, ".{}", self.chunk)?;
        }
        Ok(())
    }
}

fn job(phase: Phase, microbatch: usize) -> Job {
    chunk_job(phase, microbatch, 0)
}

fn chunk_job(phase: Phase, microbatch: usize, chunk: usize) -> Job {
    Job {
        phase,
        microbatch,
        chunk,
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ScheduleError {
    #[error("{schedule} needs at least as many microbatches as stages ({stages}), not {microbatches}")]
    TooFewMicrobatches {
        schedule: &'static str,
        stages: usize,
        microbatches: usize,
    },
    #[error(
        "interleaved-1f1b runs the microbatches {stages} at a time: {microbatches} is not a multiple of the {stages} stages"
    )]
    MicrobatchesNotMultiple { stages: usize, microbatches: usize },
    #[error("{schedule} runs one model chunk a device: {virtual_stages} virtual stages need interleaved-1f1b")]
    NotInterleaved {
        schedule: &'static str,
        virtual_stages: usize,
    },
    #[error("stage {stage} runs {job} {count} times (a schedule runs each job once)")]
    Count { stage: usize, job: Job, count: usize },
    #[error("stage {stage} runs {job}, but there are {microbatches} microbatches")]
    NoSuchMicrobatch {
        stage: usize,
        job: Job,
        microbatches: usize,
    },
    #[error("stage {stage} runs {job} before {before}")]
    OutOfOrder { stage: usize, job: Job, before: Job },
    #[error("stage {stage} deadlocks: its next job {job} waits for {waits_for} on stage {on}, which never runs")]
    Deadlock {
        stage: usize,
        job: Job,
        waits_for: Job,
        on: usize,
    },
}

/// Each stage's jobs in the order of a schedule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    pub schedule: Schedule,
    pub microbatches: usize,
    /// Model chunks a device holds: logical stage `c p + d` is chunk `c` on
    /// device `d` of `p`.
    pub virtual_stages: usize,
    /// Whether there is a backward: a forward program has F jobs only.
    pub backward: bool,
    /// Per device (stage, without virtual stages), its jobs in order.
    pub stages: Vec<Vec<Job>>,
}

impl Plan {
    /// The jobs of `stages` devices of `virtual_stages` model chunks each
    /// and `microbatches` microbatches in the order `schedule` runs them.
    pub fn new(
        schedule: Schedule,
        stages: usize,
        virtual_stages: usize,
        microbatches: usize,
    ) -> Result<Self, ScheduleError> {
        Self::check_shape(schedule, stages, virtual_stages, microbatches)?;
        if schedule == Schedule::ZbH1 && microbatches < stages {
            return Err(ScheduleError::TooFewMicrobatches {
                schedule: schedule.name(),
                stages,
                microbatches,
            });
        }
        let orders = (0..stages)
            .map(|s| match schedule {
                Schedule::GPipe => gpipe(microbatches),
                Schedule::OneFOneB => one_f_one_b(stages, s, microbatches),
                Schedule::ZbH1 => zb_h1(stages, s, microbatches),
                Schedule::Interleaved => interleaved(stages, s, virtual_stages, microbatches),
            })
            .collect();
        Ok(Self {
            schedule,
            microbatches,
            virtual_stages,
            backward: true,
            stages: orders,
        })
    }

    /// A forward program's plan: each device runs the microbatches' F in
    /// order (its chunks in the interleaved order), whatever the schedule.
    pub fn forward(
        schedule: Schedule,
        stages: usize,
        virtual_stages: usize,
        microbatches: usize,
    ) -> Result<Self, ScheduleError> {
        Self::check_shape(schedule, stages, virtual_stages, microbatches)?;
        let order: Vec<Job> = (0..microbatches * virtual_stages)
            .map(|k| interleaved_job(Phase::F, k, stages, virtual_stages))
            .collect();
        Ok(Self {
            schedule,
            microbatches,
            virtual_stages,
            backward: false,
            stages: vec![order; stages],
        })
    }

    /// What every plan of `virtual_stages` chunks a device needs.
    fn check_shape(
        schedule: Schedule,
        stages: usize,
        virtual_stages: usize,
        microbatches: usize,
    ) -> Result<(), ScheduleError> {
        if virtual_stages > 1 && schedule != Schedule::Interleaved {
            return Err(ScheduleError::NotInterleaved {
                schedule: schedule.name(),
                virtual_stages,
            });
        }
        if schedule == Schedule::Interleaved && virtual_stages > 1 && !microbatches.is_multiple_of(stages) {
            return Err(ScheduleError::MicrobatchesNotMultiple { stages, microbatches });
        }
        Ok(())
    }

    /// Logical stages: devices times model chunks.
    pub fn logical_stages(&self) -> usize {
        self.stages.len() * self.virtual_stages
    }

    /// The logical stage of `job` on `device`.
    pub fn logical(&self, device: usize, job: Job) -> usize {
        job.chunk * self.stages.len() + device
    }
}

/// A backward: the B job `b` with its W right after it.
fn backward(jobs: &mut Vec<Job>, b: Job) {
    jobs.extend([b, Job { phase: Phase::W, ..b }]);
}

fn gpipe(m: usize) -> Vec<Job> {
    let mut jobs: Vec<Job> = (0..m).map(|i| job(Phase::F, i)).collect();
    (0..m).for_each(|i| backward(&mut jobs, job(Phase::B, i)));
    jobs
}

fn one_f_one_b(p: usize, s: usize, m: usize) -> Vec<Job> {
    let warm_up = (p - s - 1).min(m);
    let mut jobs: Vec<Job> = (0..warm_up).map(|i| job(Phase::F, i)).collect();
    for i in 0..m - warm_up {
        jobs.push(job(Phase::F, warm_up + i));
        backward(&mut jobs, job(Phase::B, i));
    }
    (m - warm_up..m).for_each(|i| backward(&mut jobs, job(Phase::B, i)));
    jobs
}

/// The `k`-th F (or B) of a device in the interleaved order, of `p`
/// devices with `v` chunks: `p` microbatches go through chunk 0, then the
/// same `p` through chunk 1, ..., then the next `p` microbatches; the
/// backwards take the chunks from the last.
fn interleaved_job(phase: Phase, k: usize, p: usize, v: usize) -> Job {
    let group = k / (p * v);
    let chunk = (k % (p * v)) / p;
    let chunk = if phase == Phase::F { chunk } else { v - 1 - chunk };
    chunk_job(phase, group * p + k % p, chunk)
}

/// Megatron's interleaved 1F1B on device `d` of `p` with `v` chunks and `m`
/// microbatches (a multiple of `p` where `v > 1`): `2 (p - d - 1) + (v - 1)
/// p` warm-up forwards, then one forward and one backward (B with its W)
/// in turn, then the remaining backwards. With `v = 1` it is 1F1B.
fn interleaved(p: usize, d: usize, v: usize, m: usize) -> Vec<Job> {
    let total = m * v;
    let warm_up = if v == 1 {
        (p - d - 1).min(total)
    } else {
        (2 * (p - d - 1) + (v - 1) * p).min(total)
    };
    let f = |k| interleaved_job(Phase::F, k, p, v);
    let b = |k| interleaved_job(Phase::B, k, p, v);
    let mut jobs: Vec<Job> = (0..warm_up).map(f).collect();
    for i in 0..total - warm_up {
        jobs.push(f(warm_up + i));
        backward(&mut jobs, b(i));
    }
    for i in total - warm_up..total {
        backward(&mut jobs, b(i));
    }
    jobs
}

/// Needs `m >= p`.
fn zb_h1(p: usize, s: usize, m: usize) -> Vec<Job> {
    let warm_up = p - s;
    let mut jobs: Vec<Job> = (0..warm_up).map(|i| job(Phase::F, i)).collect();
    let (mut f, mut b) = (warm_up, 0);
    // The first `s` backwards leave their W for the end.
    for _ in 0..s {
        jobs.extend([job(Phase::B, b), job(Phase::F, f)]);
        (b, f) = (b + 1, f + 1);
    }
    for _ in 0..m - p {
        backward(&mut jobs, job(Phase::B, b));
        jobs.push(job(Phase::F, f));
        (b, f) = (b + 1, f + 1);
    }
    (b..m).for_each(|i| backward(&mut jobs, job(Phase::B, i)));
    jobs.extend((0..s).map(|i| job(Phase::W, i)));
    jobs
}

impl Plan {
    /// Checks that every stage runs each job once, each microbatch's F
    /// before its B before its W, and that the stages together cannot
    /// deadlock.
    pub fn check(&self) -> Result<(), ScheduleError> {
        let microbatches = self.microbatches;
        let phases = if self.backward {
            &Phase::ALL[..]
        } else {
            &Phase::ALL[..1]
        };
        let v = self.virtual_stages;
        for (stage, jobs) in self.stages.iter().enumerate() {
            // Per microbatch and chunk, where each phase runs.
            let mut position = vec![[None::<usize>; 3]; microbatches * v];
            for (at, j) in jobs.iter().enumerate() {
                let slot = (j.chunk < v)
                    .then(|| position.get_mut(j.microbatch * v + j.chunk))
                    .flatten()
                    .map(|p| &mut p[j.phase.index()])
                    .ok_or(ScheduleError::NoSuchMicrobatch {
                        stage,
                        job: *j,
                        microbatches,
                    })?;
                if slot.is_some() {
                    let count = jobs.iter().filter(|k| *k == j).count();
                    return Err(ScheduleError::Count { stage, job: *j, count });
                }
                *slot = Some(at);
            }
            for (slot, at) in position.iter().enumerate() {
                let (mb, chunk) = (slot / v, slot % v);
                for &phase in phases {
                    if at[phase.index()].is_none() {
                        return Err(ScheduleError::Count {
                            stage,
                            job: chunk_job(phase, mb, chunk),
                            count: 0,
                        });
                    }
                }
                for pair in phases.windows(2) {
                    if at[pair[1].index()] < at[pair[0].index()] {
                        let (later, earlier) = (chunk_job(pair[1], mb, chunk), chunk_job(pair[0], mb, chunk));
                        return Err(ScheduleError::OutOfOrder {
                            stage,
                            job: later,
                            before: earlier,
                        });
                    }
                }
            }
        }
        let unit = Costs::uniform(self.logical_stages(), 1.0, 1.0, 1.0, 0.0);
        self.simulate(&unit).map(drop)
    }
}

/// Seconds of each phase of one microbatch on each logical stage, and of
/// one transfer between neighbouring logical stages.
#[derive(Debug, Clone, PartialEq)]
pub struct Costs {
    pub f: Vec<f64>,
    pub b: Vec<f64>,
    pub w: Vec<f64>,
    /// From stage `s` to `s + 1` (the forward's values).
    pub forward: Vec<f64>,
    /// From stage `s + 1` to `s` (the input gradients).
    pub backward: Vec<f64>,
}

impl Costs {
    /// The same times on every stage.
    pub fn uniform(stages: usize, f: f64, b: f64, w: f64, transfer: f64) -> Self {
        Self {
            f: vec![f; stages],
            b: vec![b; stages],
            w: vec![w; stages],
            forward: vec![transfer; stages.saturating_sub(1)],
            backward: vec![transfer; stages.saturating_sub(1)],
        }
    }

    /// The seconds of `phase` on `stage`.
    pub fn of_mut(&mut self, stage: usize, phase: Phase) -> &mut f64 {
        match phase {
            Phase::F => &mut self.f[stage],
            Phase::B => &mut self.b[stage],
            Phase::W => &mut self.w[stage],
        }
    }

    fn of(&self, stage: usize, phase: Phase) -> f64 {
        match phase {
            Phase::F => self.f[stage],
            Phase::B => self.b[stage],
            Phase::W => self.w[stage],
        }
    }
}

/// A job placed in time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Span {
    pub job: Job,
    pub start: f64,
    pub end: f64,
}

/// Each stage's jobs in time.
#[derive(Debug, Clone, PartialEq)]
pub struct Timeline {
    pub stages: Vec<Vec<Span>>,
    /// When the last job ends.
    pub makespan: f64,
}

impl Timeline {
    /// Seconds `stage` computes.
    pub fn busy(&self, stage: usize) -> f64 {
        self.stages[stage].iter().map(|s| s.end - s.start).sum()
    }

    /// The time stages wait over the time they compute, all stages
    /// together: the bubble rate of Qi et al. (`(p - 1) / m` for 1F1B with
    /// equal F, B and W times, `(p - 1) / 3m` for ZB-H1). `None` when
    /// they compute nothing.
    pub fn bubble(&self) -> Option<f64> {
        let busy: f64 = (0..self.stages.len()).map(|s| self.busy(s)).sum();
        let total = self.makespan * self.stages.len() as f64;
        (busy > 0.0).then(|| (total - busy) / busy)
    }
}

impl Plan {
    /// The job `j` on device `stage` waits for on another logical stage:
    /// the forward's input from the one before, the input gradient from
    /// the one after (sent when its B has run, or its whole backward where
    /// the schedule does not split it). That stage's device and job, and
    /// the transfer's cost.
    fn remote_dependency(&self, stage: usize, j: Job, costs: &Costs) -> Option<(usize, Job, f64)> {
        let p = self.stages.len();
        let logical = self.logical(stage, j);
        let at = |l: usize, phase: Phase| (l % p, chunk_job(phase, j.microbatch, l / p));
        match j.phase {
            Phase::F if logical > 0 => {
                let (device, k) = at(logical - 1, Phase::F);
                Some((device, k, costs.forward[logical - 1]))
            }
            Phase::B if logical + 1 < self.logical_stages() => {
                let sent_after = if self.schedule.splits_backward() {
                    Phase::B
                } else {
                    Phase::W
                };
                let (device, k) = at(logical + 1, sent_after);
                Some((device, k, costs.backward[logical]))
            }
            _ => None,
        }
    }

    /// Places every job as early as its stage and its inputs allow: a job
    /// starts when its stage's previous job has ended and, for an F or a B,
    /// the neighbour's job it receives from has ended and its transfer
    /// arrived. Local order (F before B before W) is the order's own.
    pub fn simulate(&self, costs: &Costs) -> Result<Timeline, ScheduleError> {
        let orders = &self.stages;
        let stages = orders.len();
        let mut ends: Vec<rustc_hash::FxHashMap<Job, f64>> = vec![Default::default(); stages];
        let mut spans: Vec<Vec<Span>> = orders.iter().map(|o| Vec::with_capacity(o.len())).collect();
        let mut free = vec![0.0_f64; stages];
        let mut next = vec![0_usize; stages];
        loop {
            let mut progressed = false;
            for s in 0..stages {
                while let Some(&j) = orders[s].get(next[s]) {
                    let ready = match self.remote_dependency(s, j, costs) {
                        Some((other, k, transfer)) => match ends[other].get(&k) {
                            Some(end) => end + transfer,
                            None => break,
                        },
                        None => 0.0,
                    };
                    let start = free[s].max(ready);
                    let end = start + costs.of(self.logical(s, j), j.phase);
                    ends[s].insert(j, end);
                    spans[s].push(Span { job: j, start, end });
                    free[s] = end;
                    next[s] += 1;
                    progressed = true;
                }
            }
            if next.iter().zip(orders).all(|(n, o)| *n == o.len()) {
                let makespan = free.iter().copied().fold(0.0, f64::max);
                return Ok(Timeline {
                    stages: spans,
                    makespan,
                });
            }
            if !progressed {
                let stage = (0..stages)
                    .find(|&s| next[s] < orders[s].len())
                    .expect("a stage is not done");
                let j = orders[stage][next[stage]];
                let (on, waits_for, _) = self
                    .remote_dependency(stage, j, costs)
                    .expect("only a remote job blocks");
                return Err(ScheduleError::Deadlock {
                    stage,
                    job: j,
                    waits_for,
                    on,
                });
            }
        }
    }
}

/// The most microbatches whose activations a stage holds at once: those
/// whose F has run and whose W has not.
pub fn peak_live(order: &[Job]) -> usize {
    peak_held(order, |_| 1) as usize
}

/// The most a stage holds at once when each job's F to its W holds
/// `held(job)` (the same for its F and its W).
pub fn peak_held(order: &[Job], held: impl Fn(&Job) -> u64) -> u64 {
    let (mut now, mut peak) = (0_u64, 0);
    for j in order {
        match j.phase {
            Phase::F => {
                now += held(j);
                peak = peak.max(now);
            }
            Phase::W => now = now.saturating_sub(held(j)),
            Phase::B => {}
        }
    }
    peak
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spelled(jobs: &[Job]) -> String {
        jobs.iter().map(Job::to_string).collect::<Vec<_>>().join(" ")
    }

    fn order(schedule: Schedule, p: usize, m: usize) -> Vec<Vec<Job>> {
        Plan::new(schedule, p, 1, m).unwrap().stages
    }

    fn bubble(schedule: Schedule, p: usize, m: usize) -> f64 {
        let plan = Plan::new(schedule, p, 1, m).unwrap();
        plan.check().unwrap();
        plan.simulate(&Costs::uniform(p, 1.0, 1.0, 1.0, 0.0))
            .unwrap()
            .bubble()
            .unwrap()
    }

    fn plan(schedule: Schedule, stages: Vec<Vec<Job>>) -> Plan {
        Plan {
            schedule,
            microbatches: 2,
            virtual_stages: 1,
            backward: true,
            stages,
        }
    }

    #[test]
    fn a_forward_program_runs_its_microbatches_in_order() {
        let plan = Plan::forward(Schedule::ZbH1, 3, 1, 2).unwrap();
        plan.check().unwrap();
        let mut costs = Costs::uniform(3, 1.0, 5.0, 5.0, 0.5);
        costs.backward = vec![9.0; 2]; // no gradient crosses back
        let t = plan.simulate(&costs).unwrap();
        // F0 on stage 2 starts at 3 (two F and two transfers), F1 ends 1 later.
        assert_eq!(t.makespan, 5.0);
        let idle = Plan::forward(Schedule::GPipe, 2, 1, 1)
            .unwrap()
            .simulate(&Costs::uniform(2, 0.0, 0.0, 0.0, 1.0));
        assert_eq!(idle.unwrap().bubble(), None);
    }

    #[test]
    fn orders_of_four_stages() {
        let o = order(Schedule::OneFOneB, 4, 6);
        assert_eq!(spelled(&o[0]), "F0 F1 F2 F3 B0 W0 F4 B1 W1 F5 B2 W2 B3 W3 B4 W4 B5 W5");
        assert_eq!(spelled(&o[3]), "F0 B0 W0 F1 B1 W1 F2 B2 W2 F3 B3 W3 F4 B4 W4 F5 B5 W5");
        let z = order(Schedule::ZbH1, 4, 6);
        assert_eq!(spelled(&z[0]), "F0 F1 F2 F3 B0 W0 F4 B1 W1 F5 B2 W2 B3 W3 B4 W4 B5 W5");
        assert_eq!(spelled(&z[3]), "F0 B0 F1 B1 F2 B2 F3 B3 W3 F4 B4 W4 F5 B5 W5 W0 W1 W2");
        let g = order(Schedule::GPipe, 2, 3);
        assert_eq!(spelled(&g[1]), "F0 F1 F2 B0 W0 B1 W1 B2 W2");
    }

    #[test]
    fn bubbles_with_equal_times_are_the_papers() {
        for (p, m) in [(2, 2), (4, 8), (4, 16), (8, 8), (8, 32)] {
            let (pf, mf) = (p as f64, m as f64);
            assert!(
                (bubble(Schedule::OneFOneB, p, m) - (pf - 1.0) / mf).abs() < 1e-12,
                "1f1b p={p} m={m}"
            );
            assert!(
                (bubble(Schedule::GPipe, p, m) - (pf - 1.0) / mf).abs() < 1e-12,
                "gpipe p={p} m={m}"
            );
            let zb = bubble(Schedule::ZbH1, p, m);
            assert!((zb - (pf - 1.0) / (3.0 * mf)).abs() < 1e-12, "zb-h1 p={p} m={m}: {zb}");
        }
    }

    #[test]
    fn zb_h1_is_never_worse_than_1f1b() {
        let costs = Costs {
            f: vec![1.0, 1.2, 0.9, 1.1],
            b: vec![1.1, 1.3, 1.0, 1.2],
            w: vec![0.7, 0.9, 0.6, 0.8],
            forward: vec![0.05; 3],
            backward: vec![0.04; 3],
        };
        for m in [4, 8, 12] {
            let t = |s| Plan::new(s, 4, 1, m).unwrap().simulate(&costs).unwrap();
            assert!(t(Schedule::ZbH1).makespan < t(Schedule::OneFOneB).makespan, "m={m}");
        }
    }

    #[test]
    fn live_microbatches() {
        let peak = |s, stage: usize| peak_live(&order(s, 4, 8)[stage]);
        assert_eq!(peak(Schedule::GPipe, 0), 8);
        assert_eq!(peak(Schedule::OneFOneB, 0), 4);
        assert_eq!(peak(Schedule::OneFOneB, 3), 1);
        // ZB-H1 holds no more than 1F1B's first stage anywhere.
        assert!((0..4).all(|s| peak(Schedule::ZbH1, s) <= 4));
    }

    #[test]
    fn bad_orders_are_refused() {
        let mut o = order(Schedule::OneFOneB, 2, 2);
        o[1].swap(0, 1); // B0 before F0 on the last stage
        let (f0, b0) = (job(Phase::F, 0), job(Phase::B, 0));
        let refusal = |o| plan(Schedule::OneFOneB, o).check().unwrap_err();
        assert_eq!(
            refusal(o),
            ScheduleError::OutOfOrder {
                stage: 1,
                job: b0,
                before: f0
            }
        );
        let mut o = order(Schedule::OneFOneB, 2, 2);
        o[0].pop();
        assert!(matches!(refusal(o), ScheduleError::Count { stage: 0, count: 0, .. }));
        // Stage 0 needs B0 before it sends F1; stage 1 computes B0 only
        // after F1: a cycle.
        let plain = |first: usize, second: usize| {
            let mut jobs = Vec::new();
            for i in [first, second] {
                jobs.extend([job(Phase::F, i), job(Phase::B, i), job(Phase::W, i)]);
            }
            jobs
        };
        let o = vec![plain(0, 1), plain(1, 0)];
        let waits_for = job(Phase::W, 0); // 1F1B sends after the whole backward
        assert_eq!(
            refusal(o),
            ScheduleError::Deadlock {
                stage: 0,
                job: b0,
                waits_for,
                on: 1
            }
        );
        assert_eq!(
            Plan::new(Schedule::ZbH1, 4, 1, 3),
            Err(ScheduleError::TooFewMicrobatches {
                schedule: "zb-h1",
                stages: 4,
                microbatches: 3
            })
        );
    }

    #[test]
    fn interleaving_runs_each_device_s_chunks_in_turn() {
        let plan = Plan::new(Schedule::Interleaved, 2, 2, 4).unwrap();
        plan.check().unwrap();
        // Device 0: 2 (p - 1) + (v - 1) p = 4 warm-up forwards, microbatches
        // 0 and 1 through chunk 0, then through chunk 1; the backwards take
        // chunk 1 first.
        assert_eq!(
            spelled(&plan.stages[0]),
            "F0 F1 F0.1 F1.1 F2 B0.1 W0.1 F3 B1.1 W1.1 F2.1 B0 W0 F3.1 B1 W1 B2.1 W2.1 B3.1 W3.1 B2 W2 B3 W3"
        );
        // One chunk a device is 1F1B.
        assert_eq!(
            Plan::new(Schedule::Interleaved, 4, 1, 6).unwrap().stages,
            order(Schedule::OneFOneB, 4, 6)
        );
    }

    #[test]
    fn interleaving_divides_the_bubble_by_the_chunks() {
        // Equal F, B and W on every logical stage: 1F1B's bubble (p - 1) / m
        // over v (Narayanan et al.), each chunk 1/v of a device's work.
        for (p, v, m) in [(2, 2, 4), (4, 2, 8), (4, 4, 8), (8, 2, 16)] {
            let plan = Plan::new(Schedule::Interleaved, p, v, m).unwrap();
            plan.check().unwrap();
            let unit = 1.0 / v as f64;
            let t = plan.simulate(&Costs::uniform(p * v, unit, unit, unit, 0.0)).unwrap();
            let expected = (p as f64 - 1.0) / (m * v) as f64;
            assert!(
                (t.bubble().unwrap() - expected).abs() < 1e-9,
                "p={p} v={v} m={m}: {:?}",
                t.bubble()
            );
        }
    }

    #[test]
    fn every_interleaved_shape_runs() {
        for p in 1..=8 {
            for v in 1..=4 {
                for m in [p, 2 * p, 3 * p] {
                    let plan = Plan::new(Schedule::Interleaved, p, v, m).unwrap();
                    plan.check().unwrap_or_else(|e| panic!("p={p} v={v} m={m}: {e}"));
                    let forward = Plan::forward(Schedule::Interleaved, p, v, m).unwrap();
                    forward
                        .check()
                        .unwrap_or_else(|e| panic!("forward p={p} v={v} m={m}: {e}"));
                }
            }
        }
        let forward = Plan::forward(Schedule::Interleaved, 2, 2, 4).unwrap();
        assert_eq!(spelled(&forward.stages[1]), "F0 F1 F0.1 F1.1 F2 F3 F2.1 F3.1");
    }

    #[test]
    fn the_link_back_to_the_first_device_carries_its_transfer() {
        // Two devices, two chunks: logical stages 0 1 2 3 on devices 0 1 0
        // 1; the link from logical 1 to 2 goes from device 1 back to
        // device 0. Only it costs: chunk 1 of microbatch 0 starts 5 after
        // its chunk 0 on device 1 ends.
        let plan = Plan::forward(Schedule::Interleaved, 2, 2, 2).unwrap();
        let mut costs = Costs::uniform(4, 1.0, 0.0, 0.0, 0.0);
        costs.forward[1] = 5.0;
        let t = plan.simulate(&costs).unwrap();
        let span = |device: usize, j: Job| *t.stages[device].iter().find(|s| s.job == j).unwrap();
        let f0_on_1 = span(1, job(Phase::F, 0));
        assert_eq!(span(0, chunk_job(Phase::F, 0, 1)).start, f0_on_1.end + 5.0);
    }

    #[test]
    fn interleaving_needs_whole_rounds_of_microbatches() {
        assert_eq!(
            Plan::new(Schedule::Interleaved, 4, 2, 6),
            Err(ScheduleError::MicrobatchesNotMultiple {
                stages: 4,
                microbatches: 6
            })
        );
        assert_eq!(
            Plan::new(Schedule::OneFOneB, 4, 2, 8),
            Err(ScheduleError::NotInterleaved {
                schedule: "1f1b",
                virtual_stages: 2
            })
        );
    }
}
