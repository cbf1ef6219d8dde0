//! `dist-run --trace FILE.json`: the ranks' measured spans (the runtime
//! writes `rank<R>.events` and `rank<R>.summary` into a directory) merged
//! into one Chrome trace, one process per rank, which Perfetto and
//! `chrome://tracing` open; and a line of what the ranks spent their steps
//! on.

use serde::Serialize;
use serde_json::ser::Formatter;
use serde_json::value::RawValue;
use std::fmt::Write as _;
use std::path::Path;

/// What one rank spent its steps on, from its summary.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Totals {
    pub steps: u64,
    pub compute_us: f64,
    pub comm_us: f64,
    /// Of `comm_us`, the sends and receives between pipeline stages.
    pub transfer_us: f64,
}

impl Totals {
    /// `steps 2\ncompute_us 10.5\ncomm_us 3\ntransfer_us 1\n`; `None` if a
    /// line is missing (`transfer_us` may be: none were made).
    pub fn parse(text: &str) -> Option<Self> {
        let value = |key: &str| {
            text.lines()
                .find_map(|line| line.strip_prefix(key)?.strip_prefix(' ')?.trim().parse::<f64>().ok())
        };
        Some(Self {
            steps: value("steps")? as u64,
            compute_us: value("compute_us")?,
            comm_us: value("comm_us")?,
            transfer_us: value("transfer_us").unwrap_or(0.0),
        })
    }
}

/// A Chrome trace in the JSON object format.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ChromeTrace<'a> {
    display_time_unit: &'static str,
    trace_events: Vec<Event<'a>>,
}

#[derive(Serialize)]
#[serde(untagged)]
enum Event<'a> {
    Metadata(Metadata),
    /// An event as the runtime wrote it (its microseconds keep their
    /// three decimals).
    Measured(&'a RawValue),
}

/// A metadata event (`"ph":"M"`) about the process of a rank.
#[derive(Serialize)]
struct Metadata {
    name: &'static str,
    ph: &'static str,
    pid: usize,
    args: MetadataArgs,
}

#[derive(Serialize)]
#[serde(untagged)]
enum MetadataArgs {
    Name { name: String },
    SortIndex { sort_index: usize },
}

/// Compact JSON but for the event list, one event a line (the list is the
/// only array outside the runtime's events, which are written verbatim).
struct EventPerLine;

impl Formatter for EventPerLine {
    fn begin_array<W: ?Sized + std::io::Write>(&mut self, writer: &mut W) -> std::io::Result<()> {
        writer.write_all(b"[\n")
    }

    fn begin_array_value<W: ?Sized + std::io::Write>(&mut self, writer: &mut W, first: bool) -> std::io::Result<()> {
        if first { Ok(()) } else { writer.write_all(b",\n") }
    }

    fn end_array<W: ?Sized + std::io::Write>(&mut self, writer: &mut W) -> std::io::Result<()> {
        writer.write_all(b"\n]")
    }
}

/// The events of one rank's `rank<R>.events`, a JSON object a line.
pub fn rank_events(text: &str) -> serde_json::Result<Vec<&RawValue>> {
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .map(serde_json::from_str)
        .collect()
}

/// The Chrome trace of the ranks' events (in rank order), with each
/// process named after its rank.
pub fn chrome_trace(ranks: &[Vec<&RawValue>]) -> serde_json::Result<Vec<u8>> {
    let mut trace_events = Vec::new();
    for (rank, events) in ranks.iter().enumerate() {
        let metadata = |name, args| {
            Event::Metadata(Metadata {
                name,
                ph: "M",
                pid: rank,
                args,
            })
        };
        trace_events.push(metadata(
            "process_name",
            MetadataArgs::Name {
                name: format!("rank {rank}"),
            },
        ));
        trace_events.push(metadata(
            "process_sort_index",
            MetadataArgs::SortIndex { sort_index: rank },
        ));
        trace_events.extend(events.iter().map(|&event| Event::Measured(event)));
    }
    let trace = ChromeTrace {
        display_time_unit: "ms",
        trace_events,
    };
    let mut out = Vec::new();
    trace.serialize(&mut serde_json::Serializer::with_formatter(&mut out, EventPerLine))?;
    out.push(b'\n');
    Ok(out)
}

/// One line on the ranks' mean shares of step time.
pub fn summary(path: &str, totals: &[Totals]) -> String {
    let ranks = totals.len();
    let steps = totals.first().map_or(0, |t| t.steps);
    let share = |f: fn(&Totals) -> f64| {
        let shares: Vec<f64> = totals
            .iter()
            .map(|t| {
                let all = t.compute_us + t.comm_us;
                if all > 0.0 { f(t) / all } else { 0.0 }
            })
            .collect();
        100.0 * shares.iter().sum::<f64>() / ranks.max(1) as f64
    };
    let mut line = format!("trace {path}: {ranks} ranks, {steps} steps each; ");
    let _ = write!(
        line,
        "compute {:.1}% and communication {:.1}% of the step time (mean over ranks)",
        share(|t| t.compute_us),
        share(|t| t.comm_us)
    );
    let transfer: f64 = totals.iter().map(|t| t.transfer_us).sum();
    if transfer > 0.0 {
        // The bubble as the pipeline report models it, in its unit: what
        // the stages wait for their neighbours over what they compute.
        let compute: f64 = totals.iter().map(|t| t.compute_us).sum();
        let _ = write!(
            line,
            "; pipeline: measured bubble {:.4} (idle / compute: sends and receives between stages over compute, \
             all ranks)",
            transfer / compute.max(f64::MIN_POSITIVE)
        );
    }
    line
}

/// Merges the ranks' files in `dir` into the Chrome trace at `path`; the
/// summary line.
pub fn merge(dir: &Path, ranks: usize, path: &str) -> Result<String, String> {
    let read = |name: String| {
        std::fs::read_to_string(dir.join(&name)).map_err(|e| format!("the runtime wrote no {name}: {e}"))
    };
    let mut texts = Vec::with_capacity(ranks);
    let mut totals = Vec::with_capacity(ranks);
    for rank in 0..ranks {
        texts.push(read(format!("rank{rank}.events"))?);
        let summary = read(format!("rank{rank}.summary"))?;
        totals.push(Totals::parse(&summary).ok_or_else(|| format!("rank{rank}.summary is not a summary"))?);
    }
    let events = texts
        .iter()
        .enumerate()
        .map(|(rank, text)| rank_events(text).map_err(|e| format!("rank{rank}.events is not trace events: {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    let trace = chrome_trace(&events).map_err(|e| format!("cannot write {path}: {e}"))?;
    std::fs::write(path, trace).map_err(|e| format!("cannot write {path}: {e}"))?;
    Ok(summary(path, &totals))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_become_named_processes() {
        let texts = [
            "{\"name\":\"step 0\",\"ph\":\"X\",\"ts\":1.000,\"dur\":2.000,\"tid\":0,\"pid\":0}\n",
            "\n{\"name\":\"step 0\",\"ph\":\"X\",\"ts\":1.500,\"dur\":2.000,\"tid\":0,\"pid\":1}\n",
        ];
        let events: Vec<_> = texts.iter().map(|text| rank_events(text).unwrap()).collect();
        let trace = String::from_utf8(chrome_trace(&events).unwrap()).unwrap();
        assert_eq!(
            trace,
            r#"{"displayTimeUnit":"ms","traceEvents":[
{"name":"process_name","ph":"M","pid":0,"args":{"name":"rank 0"}},
{"name":"process_sort_index","ph":"M","pid":0,"args":{"sort_index":0}},
{"name":"step 0","ph":"X","ts":1.000,"dur":2.000,"tid":0,"pid":0},
{"name":"process_name","ph":"M","pid":1,"args":{"name":"rank 1"}},
{"name":"process_sort_index","ph":"M","pid":1,"args":{"sort_index":1}},
{"name":"step 0","ph":"X","ts":1.500,"dur":2.000,"tid":0,"pid":1}
]}
"#
        );
        assert!(rank_events("{\"name\":\"step 0\",\n").is_err());
    }

    #[test]
    fn shares_are_means_over_ranks() {
        let totals = [
            Totals::parse("steps 1\ncompute_us 75\ncomm_us 25\n").unwrap(),
            Totals::parse("steps 1\ncompute_us 50\ncomm_us 50\ntransfer_us 0\n").unwrap(),
        ];
        assert_eq!(
            summary("t.json", &totals),
            "trace t.json: 2 ranks, 1 steps each; compute 62.5% and communication 37.5% of the step time (mean over ranks)"
        );
        assert_eq!(Totals::parse("steps 1\n"), None);
        let pipelined = [
            Totals::parse("steps 1\ncompute_us 80\ncomm_us 20\ntransfer_us 20\n").unwrap(),
            Totals::parse("steps 1\ncompute_us 60\ncomm_us 40\ntransfer_us 40\n").unwrap(),
        ];
        assert!(summary("p.json", &pipelined).ends_with(
            "; pipeline: measured bubble 0.4286 (idle / compute: sends and receives between stages over compute, \
                 all ranks)"
        ));
    }
}
