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

use serde::ser::Error as _;
use serde::{Serialize, Serializer};
use serde_json::value::RawValue;
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

/// Where the spans go: set only when tracing.
const DIR: &str = "DIST_RUN_TRACE";

/// A Chrome trace event, its fields in the order the trace has always had.
#[derive(Serialize)]
struct Event {
    name: String,
    cat: Category,
    ph: Phase,
    /// An async event's id, global to the trace: `<rank>.<request>`.
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<String>,
    ts: Micros,
    #[serde(skip_serializing_if = "Option::is_none")]
    dur: Option<Micros>,
    tid: u32,
    /// The rank, set when the events are written.
    pid: i32,
}

#[derive(Serialize)]
#[serde(rename_all = "lowercase")]
enum Category {
    Step,
    Compute,
    Comm,
}

#[derive(Serialize)]
enum Phase {
    /// A complete span.
    #[serde(rename = "X")]
    Complete,
    #[serde(rename = "b")]
    AsyncBegin,
    #[serde(rename = "e")]
    AsyncEnd,
}

/// Microseconds, written with three decimals (to the nanosecond) rather
/// than as the shortest text that reads back as the same `f64`.
struct Micros(f64);

impl Serialize for Micros {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        RawValue::from_string(format!("{:.3}", self.0))
            .map_err(S::Error::custom)?
            .serialize(serializer)
    }
}

#[derive(Default)]
struct Trace {
    events: Vec<Event>,
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
    fn span(&mut self, name: &str, category: Category, start: f64, end: f64) {
        self.events.push(Event {
            name: name.to_owned(),
            cat: category,
            ph: Phase::Complete,
            id: None,
            ts: Micros(start),
            dur: Some(Micros((end - start).max(0.0))),
            tid: 0,
            pid: 0,
        });
    }

    /// The start or end of rank `rank`'s async collective `request`.
    fn async_event(&mut self, phase: Phase, rank: i32, request: i64, name: &str, at: f64) {
        self.events.push(Event {
            name: name.to_owned(),
            cat: Category::Comm,
            ph: phase,
            // Plain ids are global to the trace, and every rank numbers its
            // requests from 0.
            id: Some(format!("{rank}.{request}")),
            ts: Micros(at),
            dur: None,
            tid: 0,
            pid: 0,
        });
    }

    /// The compute since the last span, up to `until`, inside a step.
    fn compute_until(&mut self, until: f64) {
        if self.step.is_some() && until > self.resumed {
            let resumed = self.resumed;
            let name = self.job.clone().unwrap_or_else(|| "compute".to_owned());
            self.span(&name, Category::Compute, resumed, until);
            self.compute_us += until - resumed;
        }
    }

    /// A span of communication (a blocking collective or a wait).
    fn communication(&mut self, name: &str, start: f64, end: f64) {
        self.compute_until(start);
        self.span(name, Category::Comm, start, end);
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
            trace.span(&name, Category::Step, start, t);
            trace.steps += 1;
        }
    });
}

/// A blocking collective that ran from `start` to `end`.
pub fn collective(name: &str, start: f64, end: f64) {
    with(|trace| trace.communication(name, start, end));
}

/// An async collective issued from `start` to `end` (the call that starts
/// it) as `request` of rank `rank`.
pub fn started(rank: i32, request: i64, name: &str, start: f64, end: f64) {
    with(|trace| {
        trace.communication(&format!("start {name}"), start, end);
        trace.async_event(Phase::AsyncBegin, rank, request, name, start);
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
        trace.async_event(Phase::AsyncEnd, rank, request, &name, end);
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
    let mut events = Vec::new();
    for mut event in trace.events {
        event.pid = rank;
        serde_json::to_writer(&mut events, &event)?;
        events.push(b'\n');
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
        let names: Vec<&str> = trace.events.iter().map(|e| e.name.as_str()).collect();
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
        assert_eq!(
            serde_json::to_string(&trace.events[1]).unwrap(),
            r#"{"name":"all_reduce f32 64 B","cat":"comm","ph":"X","ts":10.000,"dur":5.000,"tid":0,"pid":0}"#
        );
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
        let names: Vec<&str> = trace.events.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["F0", "recv from 0", "F0"]);
        assert_eq!((trace.compute_us, trace.comm_us, trace.transfer_us), (6.0, 3.0, 3.0));
    }
    #[test]
    fn async_collectives_are_begun_and_ended_under_one_id() {
        let mut trace = Trace::default();
        trace.async_event(Phase::AsyncBegin, 2, 7, "all_gather f32", 1.25);
        trace.async_event(Phase::AsyncEnd, 2, 7, "all_gather f32", 1234567890123456.5);
        let lines: Vec<String> = trace.events.iter().map(|e| serde_json::to_string(e).unwrap()).collect();
        assert_eq!(
            lines,
            [
                r#"{"name":"all_gather f32","cat":"comm","ph":"b","id":"2.7","ts":1.250,"tid":0,"pid":0}"#,
                r#"{"name":"all_gather f32","cat":"comm","ph":"e","id":"2.7","ts":1234567890123456.500,"tid":0,"pid":0}"#,
            ]
        );
    }
}
