//! The `dist-overlap-report` pass. Its documentation (what it does, preconditions, before
//! and after) is [`INFO`]'s description: `dist-opt --help-passes` prints it
//! and docs/passes.md holds it.

pub mod cost;

use super::cluster::{Machine, Preset};
use super::collectives::{CommReader, first_reader};
use super::table::table;
use crate::error::PassError;
use crate::ops;
use crate::pass::options::{PassOptions, Positive, PositiveNumber};
use crate::pass::{DistPass, PassInfo};
use crate::vocabulary::comm::CollectiveKind;
use cost::Event;
use dist_dialect::DistOp;
use dist_dialect::ir::{FunctionOpRef, OperationExt, ValueNames, body_ops, element_type, symbol_name};
use melior::ir::operation::OperationLike;
use melior::ir::{OperationRef, Value, ValueLike};
use rustc_hash::FxHashMap;
use std::fmt::Write;

#[derive(Debug, Default)]
pub struct OverlapReport {
    options: MachineOptions,
}

pub const INFO: PassInfo = PassInfo {
    argument: "dist-overlap-report",
    summary: "Print each function's compute, communication and exposed communication by a cost model (to stderr)",
    description: r#"`dist-overlap-report`: prints, per function, what the [`cost`] model
says compute and communication take and how much of the communication
stays exposed, before (every collective synchronous) and after
`dist-overlap-collectives` (the program as scheduled).

Anchored on the module so that functions print in order; the text goes
to stderr. The model times straight-line code: the entry block of each
function, an op with regions at the cost of its own operands and results. Per collective (sync or async start, in program order): its
kind and axes, the ring bytes per device, its time, the part of that
time compute waits for, the value it reads and the op that reads its
result. Sizes are per device, as in `dist-comm-report`. Where the work
of an op depends on the shard a device holds (`dist.attention` over a
split query dim skips the keys after its queries), a last line gives the
GEMM work of each shard and the ratio of the largest to the smallest; the
op is priced at its slowest shard.

Example (`dist-opt f.mlir --dist-overlap-collectives --dist-overlap-report -o /dev/null`):
```text
// dist-overlap-report @step on @mesh ["tp"=4]: gemm 495 TFLOP/s (bf16 990, f64 67), memory 3350 GB/s; 8 devices a node, link 360 GB/s 10 us in a node, 45 GB/s 20 us across
//   #  collective        axes  bytes      us  exposed_us  value  for
//   1  all_reduce_start  "tp"  12288  10.034       9.871  %1     dist.gelu
// compute 0.180 us, communication 10.034 us; exposed 10.034 us before (synchronous), 9.871 us after; overlap 1.6%; step 10.051 us
```
"#,
    anchor: "builtin.module",
    options: MachineOptions::info,
    dialects: &[],
    create: || Box::new(OverlapReport::default()),
};

crate::pass::options::pass_options! {
    /// The cost model's cluster (analysis/cluster.rs), which the pipeline
    /// report takes too: a preset (docs/overlap.md gives its figures and
    /// their sources), each figure overridable.
    pub struct MachineOptions {
        cluster: Preset = "cluster", "h100-sxm", "The cluster: h100-sxm, h200 or a100-80g (8 devices a node each)";
        gemm_tflops: Option<PositiveNumber> = "gemm-tflops", "", "Dense GEMM throughput of f32 tensors per device, TFLOP/s (the cluster's: 495 on an H100's TF32 tensor cores; bf16, f16 and f64 have options of their own)";
        gemm_16_tflops: Option<PositiveNumber> = "gemm-bf16-tflops", "", "Dense GEMM throughput of bf16 and f16 tensors per device, TFLOP/s (the cluster's: 990 on an H100)";
        gemm_64_tflops: Option<PositiveNumber> = "gemm-f64-tflops", "", "Dense GEMM throughput of f64 tensors per device, TFLOP/s (the cluster's: 67 on an H100's FP64 tensor cores)";
        memory_gbps: Option<PositiveNumber> = "memory-gbps", "", "Memory bandwidth per device, GB/s (the cluster's: 3350 on an H100)";
        devices_per_node: Option<Positive> = "devices-per-node", "", "Devices that share a node: consecutive device ids, the mesh's row-major positions unless it lists its devices (the cluster's: 8)";
        link_gbps: Option<PositiveNumber> = "link-gbps", "", "Collective bus bandwidth inside a node, GB/s (the cluster's: 360, NCCL's all-reduce over NVLink 4)";
        link_latency_us: Option<PositiveNumber> = "link-latency-us", "", "Fixed cost of one collective inside a node, microseconds (the cluster's: 10)";
        inter_gbps: Option<PositiveNumber> = "inter-node-gbps", "", "Collective bus bandwidth across nodes, GB/s (the cluster's: 45 on an H100's 400 Gb/s NIC per GPU)";
        inter_latency_us: Option<PositiveNumber> = "inter-node-latency-us", "", "Fixed cost of one collective across nodes, microseconds (the cluster's: 20)";
    }
}

impl MachineOptions {
    /// The cluster the options describe, in SI units: the preset, with
    /// each figure given overriding the preset's.
    pub fn machine(&self) -> Machine {
        let mut m = self.cluster.machine();
        let set = |field: &mut f64, option: Option<PositiveNumber>, unit: f64| {
            if let Some(value) = option {
                *field = value.0 * unit;
            }
        };
        set(&mut m.gemm_flops, self.gemm_tflops, 1e12);
        set(&mut m.gemm_flops_16, self.gemm_16_tflops, 1e12);
        set(&mut m.gemm_flops_64, self.gemm_64_tflops, 1e12);
        set(&mut m.memory_bandwidth, self.memory_gbps, 1e9);
        set(&mut m.intra.bandwidth, self.link_gbps, 1e9);
        set(&mut m.intra.latency, self.link_latency_us, 1e-6);
        set(&mut m.inter.bandwidth, self.inter_gbps, 1e9);
        set(&mut m.inter.latency, self.inter_latency_us, 1e-6);
        if let Some(devices) = self.devices_per_node {
            m.devices_per_node = devices.0 as u64;
        }
        m
    }
}

/// Seconds `op` computes on one device by `machine`'s roofline: a view
/// moves nothing (a row-major reshape), nor does a terminator, which hands
/// values over.
pub fn compute_seconds(
    machine: &Machine,
    op: OperationRef<'_, '_>,
    function: FunctionOpRef<'_, '_>,
    reader: &mut CommReader,
) -> f64 {
    let spec = DistOp::of(&op).and_then(ops::spec);
    if spec.is_some_and(|s| s.is_view()) || op.next_in_block().is_none() {
        return 0.0;
    }
    let mut bytes = 0.0;
    let tensors = op.operands().chain(op.results().map(Value::from));
    for v in tensors {
        if let Some(b) = reader.local_bytes(v, function, &op) {
            bytes += b as f64;
        }
    }
    let flops = spec.map_or(0.0, |s| s.gemm_flops(op, &mut |v| reader.local_shape(v, function, &op)));
    // The ops that count GEMM flops verify that their floats are of one type.
    let element = op.operand_at(0).map(|x| element_type(x.r#type()).to_string());
    machine.compute(flops, element.as_deref().unwrap_or("f32"), bytes)
}

impl DistPass for OverlapReport {
    fn options(&mut self) -> Option<&mut dyn PassOptions> {
        Some(&mut self.options)
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        super::print_function_reports(module, |function, text| self.report(function, text));
        Ok(())
    }
}

struct Row {
    name: &'static str,
    axes: String,
    bytes: u64,
    value: String,
    reader: String,
}

/// Seconds as microseconds with three decimals, as the reports print them.
pub fn micros(seconds: f64) -> String {
    format!("{:.3}", seconds * 1e6)
}

/// What the model makes of one function: its timeline, a row per
/// collective, the mesh they run on, and the work of each shard where it
/// differs.
pub struct FunctionCost {
    pub timeline: cost::Timeline,
    rows: Vec<Row>,
    mesh: String,
    uneven: UnevenWork,
}

/// The model of `function` (a declaration: `None`) on `machine`.
pub fn function_cost(function: FunctionOpRef<'_, '_>, machine: &Machine) -> Option<FunctionCost> {
    let operation = function.operation();
    let ops = body_ops(operation);
    if ops.is_empty() {
        return None;
    }
    let names = ValueNames::new(&operation);
    let mut reader = CommReader::default();
    let mut events = Vec::new();
    let mut rows = Vec::new();
    let mut mesh = String::new();
    // Collective index of each start, by its handle.
    let mut started: FxHashMap<*const std::ffi::c_void, usize> = FxHashMap::default();
    let mut uneven = UnevenWork::default();
    for op in ops {
        let kind = DistOp::of(&op);
        if kind == Some(DistOp::Wait) {
            if let Some(&c) = op.operand_at(0).and_then(|h| started.get(&h.to_raw().ptr)) {
                events.push(Event::Wait(c));
            }
            continue;
        }
        match reader.collective(op, function) {
            Some(c) if c.kind != CollectiveKind::AllSlice => {
                let crosses = reader.crosses_nodes(&c.device_groups, machine);
                let seconds = machine.collective(c.bytes, crosses);
                let handle = kind
                    .is_some_and(DistOp::is_async_start)
                    .then(|| op.result_at(0))
                    .flatten();
                let reads_result = match handle {
                    Some(h) => {
                        started.insert(h.to_raw().ptr, rows.len());
                        events.push(Event::Start(seconds));
                        h
                    }
                    None => {
                        events.push(Event::Collective(seconds));
                        let Some(r) = op.result_at(0) else { continue };
                        r
                    }
                };
                mesh = c.mesh.clone();
                rows.push(Row {
                    name: if handle.is_some() { start_name(c.name) } else { c.name },
                    axes: c.axes,
                    bytes: c.bytes,
                    value: c.inputs.iter().map(|&v| names.name(v)).collect::<Vec<_>>().join(","),
                    reader: first_reader(reads_result.into(), op.block().expect("in the body")),
                });
            }
            _ => {
                events.push(Event::Compute(compute_seconds(machine, op, function, &mut reader)));
                uneven.add(op, function, &mut reader);
            }
        }
    }
    Some(FunctionCost {
        timeline: cost::simulate(&events),
        rows,
        mesh,
        uneven,
    })
}

impl OverlapReport {
    fn report(&self, function: FunctionOpRef<'_, '_>, out: &mut String) {
        let machine = self.options.machine();
        let Some(FunctionCost {
            timeline: t,
            rows,
            mesh,
            uneven,
        }) = function_cost(function, &machine)
        else {
            return; // a declaration
        };
        let symbol = symbol_name(&function.operation());
        if rows.is_empty() {
            let _ = writeln!(
                out,
                "// dist-overlap-report @{symbol}: no collectives; compute {} us",
                micros(t.compute)
            );
            uneven.print(out);
            return;
        }
        let _ = writeln!(out, "// dist-overlap-report @{symbol} on {mesh}: {machine}");
        let header = ["#", "collective", "axes", "bytes", "us", "exposed_us", "value", "for"];
        let cells: Vec<Vec<String>> = rows
            .into_iter()
            .zip(&t.collectives)
            .enumerate()
            .map(|(i, (r, c))| {
                vec![
                    (i + 1).to_string(),
                    r.name.to_owned(),
                    r.axes,
                    r.bytes.to_string(),
                    micros(c.seconds),
                    micros(c.exposed),
                    r.value,
                    r.reader,
                ]
            })
            .collect();
        out.push_str(&table(&header, &cells, &[0, 3, 4, 5]));
        let _ = writeln!(
            out,
            "// compute {} us, communication {} us; exposed {} us before (synchronous), {} us after; overlap {:.1}%; step {} us",
            micros(t.compute),
            micros(t.communication),
            micros(t.exposed_synchronous),
            micros(t.exposed),
            t.overlap() * 100.0,
            micros(t.step)
        );
        uneven.print(out);
    }
}

/// The GEMM work of the ops whose work depends on the shard a device
/// holds (causal attention over a split query dim), summed per shard for
/// each count of shards. The step's compute takes each op's slowest shard.
#[derive(Default)]
struct UnevenWork {
    by_count: std::collections::BTreeMap<usize, Vec<f64>>,
}

impl UnevenWork {
    fn add(&mut self, op: OperationRef<'_, '_>, function: FunctionOpRef<'_, '_>, reader: &mut CommReader) {
        let Some(spec) = DistOp::of(&op).and_then(ops::spec) else {
            return;
        };
        let shards = spec.gemm_flops_by_shard(op, &mut |v| reader.local_shape(v, function, &op));
        if shards.len() < 2 {
            return;
        }
        let sums = self
            .by_count
            .entry(shards.len())
            .or_insert_with(|| vec![0.0; shards.len()]);
        for (sum, flops) in sums.iter_mut().zip(shards) {
            *sum += flops;
        }
    }

    fn print(&self, out: &mut String) {
        for (count, sums) in &self.by_count {
            let max = sums.iter().copied().fold(0.0, f64::max);
            let min = sums.iter().copied().fold(f64::INFINITY, f64::min);
            let each: Vec<String> = sums.iter().map(|f| format!("{:.6}", f / 1e9)).collect();
            let ratio = if min > 0.0 {
                format!("{:.2}", max / min)
            } else {
                "inf".into()
            };
            let _ = writeln!(
                out,
                "// work by query shard ({count} shards; causal attention skips the keys after its queries): GFLOP {}; max/min {ratio}",
                each.join(", ")
            );
        }
    }
}

/// The async op name of a collective kind name.
fn start_name(kind: &str) -> &'static str {
    match kind {
        "reduce_scatter" => "reduce_scatter_start",
        "all_gather" => "all_gather_start",
        "all_to_all" => "all_to_all_start",
        _ => "all_reduce_start",
    }
}
