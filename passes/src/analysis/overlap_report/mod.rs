//! The `dist-overlap-report` pass. Its documentation (what it does, preconditions, before
//! and after) is [`INFO`]'s description: `dist-opt --help-passes` prints it
//! and docs/passes.md holds it.

pub mod cost;

use super::collectives::{CommReader, first_reader};
use super::table::table;
use crate::error::PassError;
use crate::ops;
use crate::pass::options::{PassOptions, PositiveNumber};
use crate::pass::{DistPass, PassInfo};
use crate::vocabulary::comm::CollectiveKind;
use cost::{Event, Machine};
use dist_dialect::DistOp;
use dist_dialect::ir::{FunctionOpRef, OperationExt, ValueNames, body_ops, symbol_name};
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
result. Sizes are per device, as in `dist-comm-report`.

Example (`dist-opt f.mlir --dist-overlap-collectives --dist-overlap-report -o /dev/null`):
```text
// dist-overlap-report @step on @mesh ["tp"=4]: gemm 495 TFLOP/s, memory 3350 GB/s, link 360 GB/s, latency 10 us
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
    /// The cost model's machine, which the pipeline report takes too. The
    /// defaults are an H100/H200 SXM node: dense TF32 GEMM (f32 tensors run
    /// on TF32 tensor cores), HBM3 of an H100 (an H200 has 4.8 TB/s), NVLink
    /// 4 with a measured NCCL all-reduce bus bandwidth of about 360 GB/s
    /// within a node (450 GB/s per direction peak) and about 10 us of
    /// latency per collective.
    pub struct MachineOptions {
        gemm_tflops: PositiveNumber = "gemm-tflops", "495", "Dense GEMM throughput per device, TFLOP/s (H100/H200 TF32)";
        memory_gbps: PositiveNumber = "memory-gbps", "3350", "Memory bandwidth per device, GB/s (H100 HBM3)";
        link_gbps: PositiveNumber = "link-gbps", "360", "Collective bus bandwidth, GB/s (NCCL all-reduce over NVLink 4)";
        link_latency_us: PositiveNumber = "link-latency-us", "10", "Fixed cost of one collective, microseconds";
    }
}

impl MachineOptions {
    /// The machine the options describe, in SI units.
    pub fn machine(&self) -> Machine {
        Machine {
            gemm_flops: self.gemm_tflops.0 * 1e12,
            memory_bandwidth: self.memory_gbps.0 * 1e9,
            link_bandwidth: self.link_gbps.0 * 1e9,
            link_latency: self.link_latency_us.0 * 1e-6,
        }
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
    machine.compute(flops, bytes)
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

impl OverlapReport {
    fn report(&self, function: FunctionOpRef<'_, '_>, out: &mut String) {
        let operation = function.operation();
        let ops = body_ops(operation);
        if ops.is_empty() {
            return; // a declaration
        }
        let names = ValueNames::new(&operation);
        let mut reader = CommReader::default();
        let mut events = Vec::new();
        let mut rows = Vec::new();
        let mut mesh = String::new();
        // Collective index of each start, by its handle.
        let mut started: FxHashMap<*const std::ffi::c_void, usize> = FxHashMap::default();
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
                    let seconds = self.options.machine().collective(c.bytes);
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
                _ => events.push(Event::Compute(compute_seconds(
                    &self.options.machine(),
                    op,
                    function,
                    &mut reader,
                ))),
            }
        }
        let t = cost::simulate(&events);
        let symbol = symbol_name(&operation);
        if rows.is_empty() {
            let _ = writeln!(
                out,
                "// dist-overlap-report @{symbol}: no collectives; compute {} us",
                micros(t.compute)
            );
            return;
        }
        let _ = writeln!(
            out,
            "// dist-overlap-report @{symbol} on {mesh}: {}",
            self.options.machine()
        );
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
