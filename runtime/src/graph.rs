//! `dist-run --repeat` on the GPU: the step captured once as a CUDA graph
//! and replayed, as XLA's command buffers and PyTorch's CUDA graphs do, so
//! that a repeated step costs one launch of the host instead of one per
//! kernel, product, fill and collective.
//!
//! The generated main asks [`dist_rt_step_replay`] before each call of its
//! repeat loop (never before the last call, whose results it writes: that
//! one always runs as it is). The first call runs as it is: it loads the
//! kernel modules, fills the allocator's pool and cuBLASLt's algorithm
//! cache, so the second, captured on the compute stream, allocates
//! nothing new and its buffers keep their addresses. NCCL's collectives
//! join the capture through their events. Each later call launches the
//! graph instead of running the step's host code. The ranks of a job
//! decide together (a graph holds the step's NCCL calls, which every rank
//! must run, or none).
//!
//! The first call is watched, and the step is not captured (it runs as it
//! is from there on) when its host code did what a graph cannot replay:
//! waited for the stream before its return (host code that reads device
//! results between kernels), copied between host and device, allocated
//! managed memory (which host code touches) or made point-to-point
//! transfers (a pipelined step: their tags are checked on the host after
//! each step); a capture that sees any of it is discarded too. Graphs are
//! not used under `DIST_RT_GPU_PROFILE` (events time each launch) or with `dist-run
//! --trace` (spans time each collective on the host).

use crate::cuda::{Handle, gpu};
use crate::world::on_every_rank;
use crate::{RuntimeError, fail, trace};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// `CU_STREAM_CAPTURE_MODE_RELAXED`: the pool may still ask the driver for
/// memory while a capture is under way.
const CAPTURE_RELAXED: u32 = 2;

enum Phase {
    /// No step has run yet.
    Cold,
    /// The first step runs as it is, watched for what a graph cannot
    /// replay: the waits for the stream it makes, and whether it touches
    /// device-visible memory from the host.
    Warming { waits: u32, foreign: bool },
    /// The first step could be replayed: the next is captured.
    Warm,
    /// The step's host code is being captured: the waits for the stream it
    /// asked for (skipped), and whether it did what a graph cannot replay.
    Capturing { waits: u32, foreign: bool },
    /// The graph (`cuGraphExec`) and whether it was launched for the
    /// current call.
    Ready { exec: usize, launched: bool },
    /// The step runs as it is.
    Off,
}

static PHASE: Mutex<Phase> = Mutex::new(Phase::Cold);

/// The calls the graph ran (the captured one and the replays).
static GRAPH_CALLS: AtomicUsize = AtomicUsize::new(0);

/// How many step calls the graph ran, for `--timing`'s report.
pub fn graph_calls() -> usize {
    GRAPH_CALLS.load(Ordering::Acquire)
}

fn phase() -> std::sync::MutexGuard<'static, Phase> {
    PHASE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Before a call of the repeat loop: 1 when the step's graph was launched
/// in place of the call, 0 when the step is to be called (the first call,
/// and the captured one).
#[unsafe(no_mangle)]
pub extern "C" fn dist_rt_step_replay() -> i32 {
    replay().map_or_else(|e| fail(e), i32::from)
}

fn replay() -> Result<bool, RuntimeError> {
    let mut phase = phase();
    match &mut *phase {
        Phase::Cold => {
            let allowed = std::env::var_os("DIST_RT_GPU_PROFILE").is_none() && !trace::enabled();
            *phase = if allowed {
                Phase::Warming {
                    waits: 0,
                    foreign: false,
                }
            } else {
                Phase::Off
            };
        }
        Phase::Warm => {
            let gpu = gpu()?;
            // SAFETY: the compute stream is live.
            let code = unsafe { (gpu.driver.cuStreamBeginCapture_v2)(gpu.compute, CAPTURE_RELAXED) };
            *phase = if code == 0 {
                Phase::Capturing {
                    waits: 0,
                    foreign: false,
                }
            } else {
                Phase::Off
            };
        }
        Phase::Ready { exec, launched } => {
            let gpu = gpu()?;
            // SAFETY: `exec` is a live graph of this context.
            gpu.check("cuGraphLaunch", unsafe {
                (gpu.driver.cuGraphLaunch)(*exec as Handle, gpu.compute)
            })?;
            *launched = true;
            return Ok(true);
        }
        Phase::Warming { .. } | Phase::Capturing { .. } | Phase::Off => {}
    }
    Ok(false)
}

/// After a step call: a capture ends and its graph runs the step; a
/// launched graph is waited for, so that the step's time is its work's.
pub fn step_end() -> Result<(), RuntimeError> {
    let mut phase = phase();
    match &mut *phase {
        // The step waits for the stream once, at its return.
        &mut Phase::Warming { waits, foreign } => {
            *phase = if on_every_rank(waits <= 1 && !foreign)? {
                Phase::Warm
            } else {
                Phase::Off
            };
        }
        &mut Phase::Capturing { waits, foreign } => {
            let gpu = gpu()?;
            let mut graph: Handle = std::ptr::null_mut();
            // SAFETY: the compute stream is capturing; an out-pointer.
            let ended = unsafe { (gpu.driver.cuStreamEndCapture)(gpu.compute, &mut graph) };
            // A graph holds the step's NCCL calls: every rank runs its
            // graph, or none does (the captured calls then never run).
            let replayable = on_every_rank(ended == 0 && !graph.is_null() && waits <= 1 && !foreign)?;
            let mut exec: Handle = std::ptr::null_mut();
            // SAFETY: `graph` is the captured graph; an out-pointer.
            let instantiated =
                replayable && unsafe { (gpu.driver.cuGraphInstantiateWithFlags)(&mut exec, graph, 0) } == 0;
            if !graph.is_null() {
                // SAFETY: the executable graph keeps what it needs of it.
                gpu.check("cuGraphDestroy", unsafe { (gpu.driver.cuGraphDestroy)(graph) })?;
            }
            *phase = if instantiated {
                Phase::Ready {
                    exec: exec as usize,
                    launched: false,
                }
            } else {
                Phase::Off
            };
            if instantiated {
                drop(phase);
                // The captured call queued nothing: its graph runs it.
                replay()?;
                return step_end();
            }
        }
        Phase::Ready { launched, .. } if *launched => {
            *launched = false;
            GRAPH_CALLS.fetch_add(1, Ordering::AcqRel);
            let gpu = gpu()?;
            // SAFETY: the compute stream is live.
            gpu.check("cuStreamSynchronize", unsafe {
                (gpu.driver.cuStreamSynchronize)(gpu.compute)
            })?;
        }
        _ => {}
    }
    Ok(())
}

/// Counts a wait for the stream the step asks for; whether the step is
/// being captured, and the wait is to be skipped (nothing has run).
pub fn skip_wait() -> bool {
    match &mut *phase() {
        Phase::Warming { waits, .. } => {
            *waits += 1;
            false
        }
        Phase::Capturing { waits, .. } => {
            *waits += 1;
            true
        }
        _ => false,
    }
}

/// The step copies a constant to the device, once for the program: the
/// first step may still be captured after it, but a capture under way is
/// discarded (the copy is not on the captured stream).
pub fn uploads_once() {
    if let Phase::Capturing { foreign, .. } = &mut *phase() {
        *foreign = true;
    }
}

/// The step's host code does what a replay of its graph would not: it
/// copies between host and device, allocates managed memory (which host
/// code reads or writes), or keeps host state of its point-to-point
/// transfers (their staging buffers' events and the tags checked after
/// the step). A capture under way is discarded.
pub fn needs_host() {
    if let Phase::Warming { foreign, .. } | Phase::Capturing { foreign, .. } = &mut *phase() {
        *foreign = true;
    }
}
