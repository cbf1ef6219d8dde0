//! The cluster the cost models price a step on: the chip (dense GEMM
//! throughput per element type, memory bandwidth), how many devices share a
//! node, and the two link levels (NVLink inside a node, the network across
//! nodes), each a bus bandwidth and a latency per collective. Named presets
//! (docs/overlap.md gives their figures and sources); every figure can be
//! overridden by the reports' options. Pure Rust.

/// One link level: a collective over it takes `latency + wire bytes /
/// bandwidth`, the wire bytes being the ring bytes of
/// [`crate::vocabulary::comm::CollectiveKind::wire_bytes`] (so the bandwidth
/// is a bus bandwidth, as NCCL's tests report it).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Link {
    /// Bytes/s.
    pub bandwidth: f64,
    /// Seconds.
    pub latency: f64,
}

/// Throughputs of one device and its links.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Machine {
    /// Dense GEMM throughput of f32 tensors (on TF32 tensor cores), FLOP/s.
    pub gemm_flops: f64,
    /// Dense GEMM throughput of bf16 and f16 tensors, FLOP/s.
    pub gemm_flops_16: f64,
    /// Dense GEMM throughput of f64 tensors (on FP64 tensor cores), FLOP/s.
    pub gemm_flops_64: f64,
    /// Memory bandwidth, bytes/s.
    pub memory_bandwidth: f64,
    /// Device memory, bytes.
    pub memory_capacity: f64,
    /// Devices that share a node: consecutive device ids (the mesh's
    /// row-major positions unless the mesh lists its devices).
    pub devices_per_node: u64,
    /// Inside a node.
    pub intra: Link,
    /// Across nodes.
    pub inter: Link,
}

/// The named clusters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Preset {
    /// DGX/HGX H100 SXM5: 8 GPUs on NVLink 4, one 400 Gb/s NIC each.
    H100Sxm,
    /// HGX H200: an H100's compute and links, HBM3e.
    H200,
    /// DGX A100 80 GB: 8 GPUs on NVLink 3, one 200 Gb/s NIC each.
    A100,
}

crate::option_words! { Preset { H100Sxm = "h100-sxm", H200 = "h200", A100 = "a100-80g" } }

impl Preset {
    pub fn machine(self) -> Machine {
        // An H100 node's links; the H200's are the same.
        let hopper_links = (
            Link {
                bandwidth: 360e9,
                latency: 10e-6,
            },
            Link {
                bandwidth: 45e9,
                latency: 20e-6,
            },
        );
        const GIB: f64 = (1u64 << 30) as f64;
        let ((gemm_flops, gemm_flops_16, gemm_flops_64), (memory_bandwidth, memory_gib), (intra, inter)) = match self {
            Self::H100Sxm => ((495e12, 990e12, 67e12), (3350e9, 80.0), hopper_links),
            Self::H200 => ((495e12, 990e12, 67e12), (4800e9, 141.0), hopper_links),
            Self::A100 => (
                (156e12, 312e12, 19.5e12),
                (2039e9, 80.0),
                (
                    Link {
                        bandwidth: 230e9,
                        latency: 10e-6,
                    },
                    Link {
                        bandwidth: 22.5e9,
                        latency: 20e-6,
                    },
                ),
            ),
        };
        Machine {
            gemm_flops,
            gemm_flops_16,
            gemm_flops_64,
            memory_bandwidth,
            memory_capacity: memory_gib * GIB,
            devices_per_node: 8,
            intra,
            inter,
        }
    }
}

/// How the report headers state the model: `gemm 495 TFLOP/s (bf16 990,
/// f64 67), memory 3350 GB/s; 8 devices a node, link 360 GB/s 10 us in a
/// node, 45 GB/s 20 us across`.
impl std::fmt::Display for Machine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "gemm {} TFLOP/s (bf16 {}, f64 {}), memory {} GB/s; {} devices a node, link {} GB/s {} us in a node, {} GB/s {} us across",
            figure(self.gemm_flops / 1e12),
            figure(self.gemm_flops_16 / 1e12),
            figure(self.gemm_flops_64 / 1e12),
            figure(self.memory_bandwidth / 1e9),
            self.devices_per_node,
            figure(self.intra.bandwidth / 1e9),
            figure(self.intra.latency * 1e6),
            figure(self.inter.bandwidth / 1e9),
            figure(self.inter.latency * 1e6)
        )
    }
}

/// A figure as given, to six decimals at most (a latency of 100 us read
/// back from seconds is 100, not 99.99999999999999).
fn figure(value: f64) -> String {
    let text = format!("{value:.6}");
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

impl Machine {
    /// Seconds of a compute op of `flops` GEMM flops on floats of
    /// `element` (`bf16`, `f32`, ...) at [`Machine::gemm_rate`], moving
    /// `bytes`: a roofline.
    pub fn compute(&self, flops: f64, element: &str, bytes: f64) -> f64 {
        (flops / self.gemm_rate(element)).max(bytes / self.memory_bandwidth)
    }

    /// The dense GEMM FLOP/s on floats of `element`: 16-bit floats at the
    /// 16-bit rate, f64 at its own, the rest at f32's (TF32).
    pub fn gemm_rate(&self, element: &str) -> f64 {
        match element {
            "bf16" | "f16" => self.gemm_flops_16,
            "f64" => self.gemm_flops_64,
            _ => self.gemm_flops,
        }
    }

    /// Seconds of a collective that sends `wire_bytes` per device over
    /// groups that cross nodes or not (none: no communication, no latency
    /// either). A group that crosses nodes runs at the slower level.
    pub fn collective(&self, wire_bytes: u64, crosses_nodes: bool) -> f64 {
        let link = if crosses_nodes { self.inter } else { self.intra };
        if wire_bytes == 0 {
            0.0
        } else {
            link.latency + wire_bytes as f64 / link.bandwidth
        }
    }

    /// The node of device `id`.
    pub fn node(&self, id: i64) -> u64 {
        id as u64 / self.devices_per_node
    }

    /// Whether `group` (device ids) holds devices of two nodes.
    pub fn spans_nodes(&self, group: &[i64]) -> bool {
        group
            .first()
            .is_some_and(|&first| group.iter().any(|&d| self.node(d) != self.node(first)))
    }

    /// Whether any of `groups` holds devices of two nodes.
    pub fn crosses_nodes(&self, groups: &[Vec<i64>]) -> bool {
        groups.iter().any(|g| self.spans_nodes(g))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_group_crosses_nodes_where_its_devices_are_on_two() {
        let m = Preset::H100Sxm.machine();
        // A mesh ["dp"=4, "tp"=8]: tp groups are nodes, dp groups span four.
        let tp: Vec<Vec<i64>> = (0..4).map(|n| (n * 8..n * 8 + 8).collect()).collect();
        let dp: Vec<Vec<i64>> = (0..8).map(|t| (0..4).map(|n| n * 8 + t).collect()).collect();
        assert!(!m.crosses_nodes(&tp));
        assert!(m.crosses_nodes(&dp));
        // ["tp"=16]: one group over two nodes.
        assert!(m.crosses_nodes(&[(0..16).collect()]));
    }

    #[test]
    fn the_level_a_collective_crosses_prices_it() {
        let m = Preset::H100Sxm.machine();
        assert!((m.collective(360_000_000, false) - (1e-3 + 10e-6)).abs() < 1e-12);
        assert!((m.collective(45_000_000, true) - (1e-3 + 20e-6)).abs() < 1e-12);
        assert_eq!(m.collective(0, true), 0.0);
    }

    #[test]
    fn each_float_type_runs_at_its_rate() {
        let m = Preset::A100.machine();
        assert!((m.compute(156e9, "f32", 0.0) - 1e-3).abs() < 1e-12);
        assert!((m.compute(312e9, "bf16", 0.0) - 1e-3).abs() < 1e-12);
        assert!((m.compute(312e9, "f16", 0.0) - 1e-3).abs() < 1e-12);
        assert!((m.compute(19.5e9, "f64", 0.0) - 1e-3).abs() < 1e-12);
        // A memory-bound op: 2.039 GB take 1 ms.
        assert!((m.compute(0.0, "bf16", 2039e6) - 1e-3).abs() < 1e-12);
        assert_eq!(Preset::H200.machine().memory_bandwidth, 4800e9);
    }
}
