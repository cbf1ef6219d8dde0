//! The cost model of the overlap report: a two-stream timeline of op
//! times on one device. Pure Rust.
//!
//! A device runs compute on one stream and collectives on another, each in
//! program order. The times are the [`crate::analysis::cluster::Machine`]'s:
//! a compute op takes `max(flops / gemm, bytes / memory)` (a roofline:
//! matmuls count `2 m n k` flops, at the rate of their element type, every
//! op the bytes of its local operands and results; a reshape is a view and
//! costs nothing), a collective `latency + ring bytes / link` of the level
//! its groups span (inside a node or across nodes). A synchronous collective starts
//! when both streams are free and blocks compute until it ends; a start
//! queues the collective on the communication stream and its wait blocks
//! compute until it ends. Exposed communication is the time compute spends
//! blocked; before overlap every collective is synchronous, so all of it is
//! exposed.

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
    fn the_default_machine_is_an_h100_node_and_options_override_it() {
        use crate::pass::options::PassOptions;
        let mut options = super::super::MachineOptions::default();
        let m = options.machine();
        // 495 GFLOP of f32 GEMM take 1 ms, as do 990 of bf16 and 3.35 GB of
        // memory traffic.
        assert!((m.compute(495e9, "f32", 1e6) - 1e-3).abs() < 1e-12);
        assert!((m.compute(990e9, "bf16", 1e6) - 1e-3).abs() < 1e-12);
        assert!((m.compute(0.0, "f32", 3350e6) - 1e-3).abs() < 1e-12);
        assert!((m.collective(360_000_000, false) - (1e-3 + 10e-6)).abs() < 1e-12);
        options.set("cluster", "a100-80g").unwrap();
        options.set("link-gbps", "100").unwrap();
        options.set("devices-per-node", "4").unwrap();
        let m = options.machine();
        let a100 = super::super::Preset::A100.machine();
        assert_eq!(m.intra.bandwidth, 100e9);
        assert_eq!(m.devices_per_node, 4);
        // The figures not given stay the preset's.
        assert_eq!(
            (m.gemm_flops, m.memory_bandwidth, m.inter),
            (a100.gemm_flops, a100.memory_bandwidth, a100.inter)
        );
    }
}
