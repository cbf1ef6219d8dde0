//! `dist-run --trace`: each rank's measured spans, for a Chrome trace.
//!
//! With `DIST_RUN_TRACE=DIR` set, every step call is a span; inside it each
//! blocking collective and each wait for an async one is a span of its
//! own, and the time between them (the compiled code running) a
//! `compute` span, so the spans of a step tile it. An async collective is
//! also an async event from its start to the end of its wait (in flight
//! while compute runs). At the end each rank writes `DIR/rank<R>.events`
//! (Chrome trace events, one per line) and `DIR/rank<R>.summary` (its
//! totals), which `dist-run` merges into one trace.
//!
//! A pipelined step marks each part of a microbatch's work
//! (`dist_rt_trace_job`): its compute spans are named after it (`F3`, the
//! forward of microbatch 3), and the point-to-point transfers between
//! stages are communication spans whose time is counted apart too (the
//! waits for the neighbouring stages).

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

/// Where the spans go: set only when tracing.
const DIR: &str = "DIST_RUN_TRACE";

#[derive(Default)]
struct Trace {
    /// Chrome trace events, without the rank (added when written).
    events: Vec<String>,
    /// The start of the step running, if one is.
    step: Option<f64>,
    /// The end of the last span inside the step: where compute resumed.
    resumed: f64,
    steps: usize,
    compute_us: f64,
    comm_us: f64,
    /// Of `comm_us`, the sends and receives between pipeline stages.
    transfer_us: f64,
    /// The part of a microbatch's work running, which names the compute
    /// spans (`None`: `compute`).
    job: Option<String>,
    /// Async collectives in flight: their names.
    in_flight: HashMap<i64, String>,
}

static TRACE: Mutex<Option<Trace>> = Mutex::new(None);

/// Whether this run traces (read once).
pub fn enabled() -> bool {
    static ENABLED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ENABLED.get_or_init(|| std::env::var_os(DIR).is_some())
}

/// Microseconds since the epoch: one clock for every rank of the machine.
pub fn now() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64() * 1e6)
}

fn with(f: impl FnOnce(&mut Trace)) {
    if !enabled() {
        return;
    }
    let mut guard = TRACE.lock().unwrap_or_else(|e| e.into_inner());
    if guard.is_none() {
        *guard = Some(Trace::default());
    }
    if let Some(trace) = guard.as_mut() {
        f(trace);
    }
}

impl Trace {
    fn span(&mut self, name: &str, category: &str, start: f64, end: f64) {
        self.events.push(format!(
            r#"{{"name":"{name}","cat":"{category}","ph":"X","ts":{start:.3},"dur":{:.3},"tid":0"#,
            (end - start).max(0.0)
        ));
    }

    /// The compute since the last span, up to `until`, inside a step.
    fn compute_until(&mut self, until: f64) {
        if self.step.is_some() && until > self.resumed {
            let resumed = self.resumed;
            let name = self.job.clone().unwrap_or_else(|| "compute".to_owned());
            self.span(&name, "compute", resumed, until);
            self.compute_us += until - resumed;
        }
    }

    /// A span of communication (a blocking collective or a wait).
    fn communication(&mut self, name: &str, start: f64, end: f64) {
        self.compute_until(start);
        self.span(name, "comm", start, end);
        if self.step.is_some() {
            self.comm_us += end - start;
            self.resumed = end;
        }
    }
}

pub fn step_begin() {
    let t = now();
    with(|trace| {
        trace.step = Some(t);
        trace.resumed = t;
    });
}

pub fn step_end() {
    let t = now();
    with(|trace| {
        trace.compute_until(t);
        if let Some(start) = trace.step.take() {
            let name = format!("step {}", trace.steps);
            trace.span(&name, "step", start, t);
            trace.steps += 1;
        }
    });
}

/// A blocking collective that ran from `start` to `end`.
pub fn collective(name: &str, start: f64, end: f64) {
    with(|trace| trace.communication(name, start, end));
}

/// The id of rank `rank`'s async collective `request`: plain ids are
/// global to the trace, and every rank numbers its requests from 0.
fn async_id(rank: i32, request: i64) -> String {
    format!("\"{rank}.{request}\"")
}

/// An async collective issued from `start` to `end` (the call that starts
/// it) as `request` of rank `rank`.
pub fn started(rank: i32, request: i64, name: &str, start: f64, end: f64) {
    with(|trace| {
        trace.communication(&format!("start {name}"), start, end);
        let id = async_id(rank, request);
        trace.events.push(format!(
            r#"{{"name":"{name}","cat":"comm","ph":"b","id":{id},"ts":{start:.3},"tid":0"#
        ));
        trace.in_flight.insert(request, name.to_owned());
    });
}

/// A send or receive between pipeline stages, from `start` to `end`.
pub fn transfer(name: &str, start: f64, end: f64) {
    with(|trace| {
        trace.communication(name, start, end);
        if trace.step.is_some() {
            trace.transfer_us += end - start;
        }
    });
}

/// The compiled code starts the part `job` of a microbatch's work (`None`:
/// the rest of the step).
pub fn job(job: Option<String>) {
    let t = now();
    with(|trace| {
        trace.compute_until(t);
        if trace.step.is_some() {
            trace.resumed = t;
        }
        trace.job = job;
    });
}

/// The wait for rank `rank`'s `request`, from `start` to `end`.
pub fn waited(rank: i32, request: i64, start: f64, end: f64) {
    with(|trace| {
        let name = trace
            .in_flight
            .remove(&request)
            .unwrap_or_else(|| "collective".to_owned());
        trace.communication(&format!("wait {name}"), start, end);
        let id = async_id(rank, request);
        trace.events.push(format!(
            r#"{{"name":"{name}","cat":"comm","ph":"e","id":{id},"ts":{end:.3},"tid":0"#
        ));
    });
}

/// Writes this rank's events and totals, if tracing.
pub fn write(rank: i32) -> std::io::Result<()> {
    let Some(dir) = std::env::var_os(DIR) else {
        return Ok(());
    };
    let trace = TRACE
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take()
        .unwrap_or_default();
    let dir = std::path::Path::new(&dir);
    let mut events = String::new();
    for event in &trace.events {
        let _ = writeln!(events, r#"{event},"pid":{rank}}}"#);
    }
    std::fs::write(dir.join(format!("rank{rank}.events")), events)?;
    let summary = format!(
        "steps {}\ncompute_us {:.3}\ncomm_us {:.3}\ntransfer_us {:.3}\n",
        trace.steps, trace.compute_us, trace.comm_us, trace.transfer_us
    );
    std::fs::write(dir.join(format!("rank{rank}.summary")), summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_spans_of_a_step_tile_it() {
        let mut trace = Trace {
            step: Some(0.0),
            ..Trace::default()
        };
        trace.communication("all_reduce f32 64 B", 10.0, 15.0);
        trace.communication("wait all_gather f32", 20.0, 21.0);
        trace.compute_until(30.0);
        assert_eq!((trace.compute_us, trace.comm_us), (24.0, 6.0));
        let names: Vec<&str> = trace.events.iter().map(|e| e.split('"').nth(3).unwrap_or("")).collect();
        assert_eq!(
            names,
            [
                "compute",
                "all_reduce f32 64 B",
                "compute",
                "wait all_gather f32",
                "compute"
            ]
        );
        assert!(trace.events[1].contains(r#""ts":10.000,"dur":5.000"#));
    }

    #[test]
    fn a_job_names_its_compute_and_transfers_count_apart() {
        let mut trace = Trace {
            step: Some(0.0),
            job: Some("F0".to_owned()),
            ..Trace::default()
        };
        trace.communication("recv from 0", 2.0, 5.0);
        trace.transfer_us += 3.0;
        trace.compute_until(9.0);
        let names: Vec<&str> = trace.events.iter().map(|e| e.split('"').nth(3).unwrap_or("")).collect();
        assert_eq!(names, ["F0", "recv from 0", "F0"]);
        assert_eq!((trace.compute_us, trace.comm_us, trace.transfer_us), (6.0, 3.0, 3.0));
    }
}
