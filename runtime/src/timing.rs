//! The step's wall time for `dist-run --repeat` and `--timing`, and the
//! trace's step marks.

use crate::{RuntimeError, fail, graph, p2p, rank_and_size, trace};
use std::sync::Mutex;

/// Durations of the step calls of `dist-run --repeat`, in nanoseconds.
static STEP_TIMES: Mutex<(Option<std::time::Instant>, Vec<u128>)> = Mutex::new((None, Vec::new()));

/// Marks the start of one step.
#[unsafe(no_mangle)]
pub extern "C" fn dist_rt_step_begin() {
    trace::step_begin();
    STEP_TIMES.lock().unwrap_or_else(|e| e.into_inner()).0 = Some(std::time::Instant::now());
}

/// Marks the end of the step begun last.
#[unsafe(no_mangle)]
pub extern "C" fn dist_rt_step_end() {
    // A captured or replayed step's work runs here (the graph's launch).
    if let Err(e) = graph::step_end() {
        fail(e);
    }
    let mut times = STEP_TIMES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(start) = times.0.take() {
        times.1.push(start.elapsed().as_nanos());
    }
    drop(times);
    trace::step_end();
    if let Err(e) = p2p::check_arrivals() {
        fail(e);
    }
}

/// The median of `times` (the upper one of an even count), in ms.
fn median_ms(times: &mut [u128]) -> Option<f64> {
    times.sort_unstable();
    times.get(times.len() / 2).map(|&ns| ns as f64 / 1e6)
}

/// After the step calls: with `DIST_RUN_TRACE` set each rank writes its
/// spans; with `DIST_RUN_TIMING` set rank 0 prints `step <ms> ms (median
/// of K)` to stderr (and how many of the K the step's CUDA graph ran).
#[unsafe(no_mangle)]
pub extern "C" fn dist_rt_step_report() {
    // One process runs without MPI: rank 0.
    let rank = rank_and_size().map_or(0, |(r, _)| r);
    if let Err(e) = trace::write(rank) {
        fail(RuntimeError::Trace(e.to_string()));
    }
    if std::env::var_os("DIST_RUN_TIMING").is_none() || rank != 0 {
        return;
    }
    let mut times = std::mem::take(&mut STEP_TIMES.lock().unwrap_or_else(|e| e.into_inner()).1);
    if let Some(ms) = median_ms(&mut times) {
        let graph = match graph::graph_calls() {
            0 => String::new(),
            calls => format!("; {calls} run as a CUDA graph"),
        };
        eprintln!("step {ms:.2} ms (median of {}{graph})", times.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn step_times_report_their_median() {
        assert_eq!(median_ms(&mut [3_000_000, 1_000_000, 2_000_000]), Some(2.0));
        assert_eq!(median_ms(&mut [4_000_000, 1_000_000]), Some(4.0));
        assert_eq!(median_ms(&mut []), None);
    }
}
