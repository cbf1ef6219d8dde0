//! The cost model of the overlap report: op times on one device and a
//! two-stream timeline. Pure Rust.
//!
//! A device runs compute on one stream and collectives on another, each in
//! program order. A compute op takes `max(flops / gemm, bytes / memory)`
//! (a roofline: matmuls count `2 m n k` flops, every op the bytes of its
//! local operands and results; a reshape is a view and costs nothing). A collective takes
//! `latency + ring bytes / link`, the ring bytes being those of
//! [`crate::vocabulary::comm::CollectiveKind::wire_bytes`] (so `link` is a bus
//! bandwidth, as NCCL's tests report it). A synchronous collective starts
//! when both streams are free and blocks compute until it ends; a start
//! queues the collective on the communication stream and its wait blocks
//! compute until it ends. Exposed communication is the time compute spends
//! blocked; before overlap every collective is synchronous, so all of it is
//! exposed.

/// Throughputs of one device and its links.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Machine {
    /// Dense GEMM throughput, FLOP/s.
    pub gemm_flops: f64,
    /// Memory bandwidth, bytes/s.
    pub memory_bandwidth: f64,
    /// Collective bus bandwidth, bytes/s.
    pub link_bandwidth: f64,
    /// Fixed cost of one collective, s.
    pub link_latency: f64,
}

/// How the report headers state the model: `gemm 495 TFLOP/s, memory 3350
/// GB/s, link 360 GB/s, latency 10 us`.
impl std::fmt::Display for Machine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "gemm {} TFLOP/s, memory {} GB/s, link {} GB/s, latency {} us",
            self.gemm_flops / 1e12,
            self.memory_bandwidth / 1e9,
            self.link_bandwidth / 1e9,
            self.link_latency * 1e6
        )
    }
}

impl Machine {
    /// Seconds of a compute op.
    pub fn compute(&self, flops: f64, bytes: f64) -> f64 {
        (flops / self.gemm_flops).max(bytes / self.memory_bandwidth)
    }

    /// Seconds of a collective that sends `wire_bytes` per device (none:
    /// no communication, no latency either).
    pub fn collective(&self, wire_bytes: u64) -> f64 {
        if wire_bytes == 0 {
            0.0
        } else {
            self.link_latency + wire_bytes as f64 / self.link_bandwidth
        }
    }
}

/// One op of a function, in program order.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Event {
    Compute(f64),
    /// A synchronous collective of this duration.
    Collective(f64),
    /// An async start of this duration.
    Start(f64),
    /// The wait of the start with this index among the collectives.
    Wait(usize),
}

/// What one collective (sync or started) costs.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct CollectiveTime {
    pub seconds: f64,
    /// How long compute waits for it: at its wait, or all of it if it is
    /// synchronous. Time queued behind earlier collectives counts, so this
    /// can exceed `seconds`.
    pub exposed: f64,
}

/// The timeline of a function.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Timeline {
    pub compute: f64,
    pub communication: f64,
    /// Exposed communication with every collective synchronous (before
    /// `dist-overlap-collectives`): all of it.
    pub exposed_synchronous: f64,
    /// Exposed communication as scheduled.
    pub exposed: f64,
    /// The time of the whole function on the compute stream.
    pub step: f64,
    /// Per collective, in program order.
    pub collectives: Vec<CollectiveTime>,
}

impl Timeline {
    /// The share of communication hidden behind compute (0 without any).
    pub fn overlap(&self) -> f64 {
        if self.communication > 0.0 {
            ((self.communication - self.exposed) / self.communication).max(0.0)
        } else {
            0.0
        }
    }
}

/// Runs `events` on the two streams.
pub fn simulate(events: &[Event]) -> Timeline {
    let mut t = Timeline::default();
    // When each stream is free, and when each started collective ends.
    let (mut compute, mut comm) = (0.0f64, 0.0f64);
    let mut ends: Vec<f64> = Vec::new();
    for event in events {
        match *event {
            Event::Compute(s) => {
                compute += s;
                t.compute += s;
            }
            Event::Collective(s) => {
                let end = compute.max(comm) + s;
                t.collectives.push(CollectiveTime {
                    seconds: s,
                    exposed: end - compute,
                });
                t.exposed += end - compute;
                (compute, comm) = (end, end);
                ends.push(end);
            }
            Event::Start(s) => {
                comm = compute.max(comm) + s;
                t.collectives.push(CollectiveTime {
                    seconds: s,
                    exposed: 0.0,
                });
                ends.push(comm);
            }
            Event::Wait(c) => {
                let blocked = (ends[c] - compute).max(0.0);
                t.collectives[c].exposed += blocked;
                t.exposed += blocked;
                compute += blocked;
            }
        }
    }
    t.communication = t.collectives.iter().map(|c| c.seconds).sum();
    t.exposed_synchronous = t.communication;
    t.step = compute;
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn synchronous_collectives_are_fully_exposed() {
        let t = simulate(&[Event::Compute(2.0), Event::Collective(3.0), Event::Compute(1.0)]);
        assert_eq!((t.compute, t.communication, t.exposed, t.step), (3.0, 3.0, 3.0, 6.0));
        assert_eq!(t.overlap(), 0.0);
    }

    #[test]
    fn compute_between_start_and_wait_hides_communication() {
        // dx, start, dW (2 of the 3 hidden), wait, use.
        let t = simulate(&[
            Event::Compute(1.0),
            Event::Start(3.0),
            Event::Compute(2.0),
            Event::Wait(0),
            Event::Compute(1.0),
        ]);
        assert_eq!((t.exposed, t.step), (1.0, 5.0));
        assert_eq!(t.collectives[0].exposed, 1.0);
        assert!((t.overlap() - 2.0 / 3.0).abs() < 1e-12);
        assert_eq!(t.exposed_synchronous, 3.0);
    }

    #[test]
    fn collectives_queue_on_one_stream() {
        // The second start waits for the first to finish on the link.
        let t = simulate(&[
            Event::Start(2.0),
            Event::Start(2.0),
            Event::Compute(3.0),
            Event::Wait(0),
            Event::Wait(1),
        ]);
        assert_eq!(t.collectives[0].exposed, 0.0);
        assert_eq!(t.collectives[1].exposed, 1.0);
        assert_eq!(t.step, 4.0);
    }

    #[test]
    fn the_default_machine_is_an_h100_node() {
        let m = super::super::MachineOptions::default().machine();
        // 495 GFLOP of GEMM take 1 ms, as do 3.35 GB of memory traffic.
        assert!((m.compute(495e9, 1e6) - 1e-3).abs() < 1e-12);
        assert!((m.compute(0.0, 3350e6) - 1e-3).abs() < 1e-12);
        assert!((m.collective(360_000_000) - (1e-3 + 10e-6)).abs() < 1e-12);
        assert_eq!(m.collective(0), 0.0);
    }
}
