//! The `dist-memory-report` pass. Its documentation (what it does,
//! preconditions, before and after) is [`INFO`]'s description:
//! `dist-opt --help-passes` prints it and docs/passes.md holds it.

use super::cluster::Preset;
use super::collectives::CommReader;
use super::table::table;
use crate::error::PassError;
use crate::ops;
use crate::pass::options::{OptionValue, PassOptions, PositiveNumber};
use crate::pass::{DistPass, PassInfo};
use crate::vocabulary::comm::CollectiveKind;
use dist_dialect::DistOp;
use dist_dialect::ir::{
    FunctionOpRef, OperationExt, block_argument, block_argument_of, body_ops, element_bytes, file_line_col, op_name,
    op_result, symbol_name,
};
use dist_dialect::ops::attr::{GRADIENT_OF, REQUIRES_GRAD};
use melior::ir::attribute::IntegerAttribute;
use melior::ir::operation::OperationLike;
use melior::ir::{BlockLike, BlockRef, OperationRef, RegionLike, Value, ValueLike};
use rustc_hash::{FxHashMap, FxHashSet};
use std::fmt::Write;

#[derive(Debug, Default)]
pub struct MemoryReport {
    options: MemoryReportOptions,
}

crate::pass::options::pass_options! {
    /// The device whose memory the step must fit.
    pub struct MemoryReportOptions {
        cluster: Preset = "cluster", "h100-sxm", "The device: h100-sxm (80 GiB), h200 (141 GiB) or a100-80g (80 GiB)";
        memory_gib: Option<PositiveNumber> = "memory-gib", "", "The device's memory, GiB (the cluster's unless given)";
    }
}

impl MemoryReportOptions {
    /// The device memory, bytes.
    fn capacity(&self) -> f64 {
        match self.memory_gib {
            Some(gib) => gib.0 * (1u64 << 30) as f64,
            None => self.cluster.machine().memory_capacity,
        }
    }
}

pub const INFO: PassInfo = PassInfo {
    argument: "dist-memory-report",
    summary: "Print each function's bytes per device: parameters, gradients, optimizer state, peak activations (to stderr)",
    description: r#"`dist-memory-report`: prints, per function, the bytes one device holds.

Preconditions: the function has shardings (`dist-propagate-sharding`,
usually after `dist-resolve-partial`), or is partitioned; sizes are
per device, as `dist-comm-report` computes them (a value's type divided
by the splits of its sharding). Anchored on the module so that functions
print in order; the report goes to stderr.

The model states come from the optimizer steps (`dist.adamw`,
`dist.sgd`): *parameters* are the function arguments their operand 0
reads (through the collectives that reshard it), *optimizer state* the
arguments their moment or momentum operands read, *gradients* the
values their gradient operand reads, as they arrive (after a
reduce-scatter, the shard). Without an optimizer step the differentiated
step says which arguments are parameters: those its results are the
gradients of (`dist.gradient_of`, which `dist-append-backward` writes),
or those a forward program asks gradients of (`dist.requires_grad`); the
gradients are those results. *Activations* are every other tensor value,
the function's other arguments included; each lives from its definition
(or the function's entry) to its last use in program order (the
scheduled order, after `dist-overlap-collectives`), a step's results to
its end, and the report gives the peak of their sum and the op where it
is reached. The total adds the four. Each count is in bytes, then in
binary units (KiB, MiB, GiB). A last line says whether the total fits
the device's memory (`cluster=`'s: 80 GiB on `h100-sxm` and `a100-80g`,
141 GiB on `h200`; `memory-gib=` overrides it), and what share of it
the total takes.

Example (`dist-gen gpt --layers 1 --dp 4 --tp 1 --optimizer adamw --zero 1 | dist-opt - --dist-propagate-sharding=remarks=none --dist-resolve-partial --dist-memory-report -o /dev/null`):
```text
// dist-memory-report @gpt_step on @mesh, bytes per device
//                       bytes
//  parameters          231936   226 KiB
//  gradients            57984  56.6 KiB
//  optimizer state     115968   113 KiB
//  activations (peak)  390536   381 KiB  at dist.matmul_grad (<stdin>:131:20)
//  total               796424   778 KiB
// fits a device's 80.0 GiB (h100-sxm): 0.0%
```
"#,
    anchor: "builtin.module",
    options: MemoryReportOptions::info,
    dialects: &[],
    create: || Box::new(MemoryReport::default()),
};

impl DistPass for MemoryReport {
    fn options(&mut self) -> Option<&mut dyn PassOptions> {
        Some(&mut self.options)
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let options = &self.options;
        super::print_function_reports(module, |function, out| report(function, options, out));
        Ok(())
    }
}

/// One op of the program for the liveness sweep: the ids of the
/// activations it defines, with their bytes, and of those it reads.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Step {
    pub defines: Vec<(usize, u64)>,
    pub reads: Vec<usize>,
}

/// The peak of the live bytes over `steps` and the step where it is
/// reached (`None`: before the first, the entry's live values alone).
/// `entry` are the values live at the function's entry; `kept` those live
/// to the end (the results). A value lives from its definition through its
/// last read; its inputs and outputs are live together at each step.
pub fn peak_live(entry: &[(usize, u64)], steps: &[Step], kept: &FxHashSet<usize>) -> (u64, Option<usize>) {
    let mut last_read: FxHashMap<usize, usize> = FxHashMap::default();
    for (i, step) in steps.iter().enumerate() {
        for &v in &step.reads {
            last_read.insert(v, i);
        }
    }
    let mut bytes: FxHashMap<usize, u64> = FxHashMap::default();
    let mut live: u64 = 0;
    for &(v, b) in entry {
        bytes.insert(v, b);
        live = live.saturating_add(b);
    }
    let mut peak = (live, None);
    for (i, step) in steps.iter().enumerate() {
        for &(v, b) in &step.defines {
            bytes.insert(v, b);
            live = live.saturating_add(b);
        }
        if live > peak.0 {
            peak = (live, Some(i));
        }
        // Values dead after this step: read for the last time here, or
        // defined here and never read.
        let mut dead: Vec<usize> = step
            .reads
            .iter()
            .copied()
            .filter(|v| last_read.get(v) == Some(&i))
            .collect();
        dead.extend(
            step.defines
                .iter()
                .map(|&(v, _)| v)
                .filter(|v| !last_read.contains_key(v)),
        );
        dead.sort_unstable();
        dead.dedup();
        for v in dead {
            if !kept.contains(&v) {
                live = live.saturating_sub(bytes.remove(&v).unwrap_or(0));
            }
        }
    }
    peak
}

/// The bytes one device holds of each category, as the report prints them.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Usage {
    pub parameters: u64,
    pub gradients: u64,
    pub states: u64,
    /// The peak of the live activations.
    pub activations: u64,
    /// Where the activations peak: `at dist.matmul (f.mlir:3:8)`, or `at
    /// entry`.
    pub peak_at: String,
}

impl Usage {
    /// The four together (saturating: a sum past 2^64 bytes is more than
    /// any machine has, which is all its readers need to know).
    pub fn total(&self) -> u64 {
        self.parameters
            .saturating_add(self.gradients)
            .saturating_add(self.states)
            .saturating_add(self.activations)
    }
}

/// Value handles, to tell values apart across lifetimes.
type Handle = *const std::ffi::c_void;

/// `then` of what a collective result (or a `dist.wait` result) reshards:
/// the collective's operand of the same position, or the start's operand
/// the wait delivers.
fn with_resharded<R>(value: Value<'_, '_>, then: impl FnOnce(Value<'_, '_>) -> Option<R>) -> Option<R> {
    let result = op_result(value)?;
    let op = result.owner();
    let kind = DistOp::of(&op)?;
    if kind == DistOp::Wait {
        let start = op_result(op.operand_at(0)?)?.owner();
        then(start.operand_at(result.result_number())?)
    } else if CollectiveKind::of(kind).is_some() && !kind.is_async_start() {
        then(op.operand_at(result.result_number())?)
    } else {
        None
    }
}

/// The function argument `value` reshards (through collectives and their
/// async start and wait), if it is one; the reshards on the way are added
/// to `chain` (copies of the same state, not activations).
fn root_argument(value: Value<'_, '_>, chain: &mut FxHashSet<Handle>) -> Option<usize> {
    if let Some(arg) = block_argument_of(value) {
        return Some(arg.argument_number());
    }
    let root = with_resharded(value, |source| root_argument(source, chain))?;
    chain.insert(value.to_raw().ptr);
    Some(root)
}

/// How a value's bytes are counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sizing {
    /// One device's share: the type divided by the splits of the value's
    /// sharding (global view), or the type (a partitioned function).
    PerDevice,
    /// The whole type, shardings aside: the function runs on one device
    /// (`dist-run -n 1`).
    OneDevice,
}

/// Sizes of one function's values, and the mesh they name.
struct Sizes<'c, 'a> {
    sizing: Sizing,
    reader: CommReader,
    function: FunctionOpRef<'c, 'a>,
    /// An op of the function, for the mesh lookup.
    anchor: OperationRef<'c, 'a>,
    mesh: String,
}

impl Sizes<'_, '_> {
    fn bytes(&mut self, value: Value<'_, '_>) -> u64 {
        if let Some(s) = dist_dialect::ir::value_sharding(value, self.function) {
            self.mesh = s.mesh;
        }
        let numel = match self.sizing {
            Sizing::PerDevice => self.reader.local_numel(value, self.function, &self.anchor),
            Sizing::OneDevice => dist_dialect::ir::static_tensor_shape(value.r#type())
                .map(|s| s.iter().fold(1i64, |n, &d| n.saturating_mul(d))),
        };
        numel.map_or(0, |n| (n as u64).saturating_mul(element_bytes(value.r#type())))
    }
}

/// The model states the optimizer steps read.
#[derive(Default)]
struct ModelStates {
    parameters: u64,
    gradients: u64,
    states: u64,
    /// The arguments that hold parameters and optimizer states.
    arguments: FxHashSet<usize>,
    /// Their reshards, the gradients, the updates and the updates' reshards.
    values: FxHashSet<Handle>,
}

fn model_states(ops: &[OperationRef<'_, '_>], block: BlockRef<'_, '_>, sizes: &mut Sizes) -> Option<ModelStates> {
    let mut model = ModelStates::default();
    for op in ops {
        let Some(states) = DistOp::of(op).and_then(ops::spec).and_then(|s| s.optimizer_states()) else {
            continue;
        };
        let mut argument_bytes = |model: &mut ModelStates, operand: usize| -> Option<u64> {
            let arg = op
                .operand_at(operand)
                .and_then(|v| root_argument(v, &mut model.values))
                .filter(|&a| model.arguments.insert(a))?;
            Some(sizes.bytes(block_argument(&block, arg)?.into()))
        };
        model.parameters = model
            .parameters
            .saturating_add(argument_bytes(&mut model, 0).unwrap_or(0));
        for &i in states {
            model.states = model.states.saturating_add(argument_bytes(&mut model, i).unwrap_or(0));
        }
        let grad = op.operand_at(1)?;
        if model.values.insert(grad.to_raw().ptr) {
            model.gradients = model.gradients.saturating_add(sizes.bytes(grad));
        }
        model.values.extend(op.results().map(|r| r.to_raw().ptr));
    }
    // Without an optimizer step, a differentiated step says itself which
    // results are gradients of which arguments (`dist.gradient_of`, from
    // dist-append-backward), and a forward one which arguments it asks
    // gradients of (`dist.requires_grad`).
    if model.arguments.is_empty() {
        let function = sizes.function;
        let returned = ops.last().filter(|op| op.next_in_block().is_none());
        for r in 0..function.num_results() {
            let Some(arg) = function
                .result_attribute(r, GRADIENT_OF)
                .and_then(|a| IntegerAttribute::try_from(a).ok())
                .and_then(|a| usize::try_from(a.value()).ok())
            else {
                continue;
            };
            if model.arguments.insert(arg)
                && let Some(value) = block_argument(&block, arg)
            {
                model.parameters = model.parameters.saturating_add(sizes.bytes(value.into()));
            }
            if let Some(grad) = returned.and_then(|op| op.operand_at(r))
                && model.values.insert(grad.to_raw().ptr)
            {
                model.gradients = model.gradients.saturating_add(sizes.bytes(grad));
            }
        }
        for arg in function.arguments_with(REQUIRES_GRAD) {
            if model.arguments.insert(arg)
                && let Some(value) = block_argument(&block, arg)
            {
                model.parameters = model.parameters.saturating_add(sizes.bytes(value.into()));
            }
        }
    }
    // The updated states resharded (a gathered parameter) are still state.
    for op in ops {
        for result in op.results() {
            let value: Value = result.into();
            if with_resharded(value, |source| Some(model.values.contains(&source.to_raw().ptr))) == Some(true) {
                model.values.insert(value.to_raw().ptr);
            }
        }
    }
    Some(model)
}

/// The peak of the live activations (every tensor value that is not model
/// state) and where it is reached.
fn activation_peak(
    ops: &[OperationRef<'_, '_>],
    block: BlockRef<'_, '_>,
    sizes: &mut Sizes,
    model: &ModelStates,
) -> Option<(u64, String)> {
    let mut ids: FxHashMap<Handle, usize> = FxHashMap::default();
    let mut id = |v: Value<'_, '_>| {
        let n = ids.len();
        *ids.entry(v.to_raw().ptr).or_insert(n)
    };
    let is_activation = |v: Value<'_, '_>| static_tensorish(v) && !model.values.contains(&v.to_raw().ptr);
    let mut entry = Vec::new();
    for i in 0..block.argument_count() {
        let arg: Value = block_argument(&block, i)?.into();
        if is_activation(arg) && !model.arguments.contains(&i) {
            entry.push((id(arg), sizes.bytes(arg)));
        }
    }
    let mut steps = Vec::with_capacity(ops.len());
    let mut kept = FxHashSet::default();
    for op in ops {
        let mut reads: Vec<usize> = op.operands().filter(|&v| is_activation(v)).map(&mut id).collect();
        // An async collective reads its operands until its wait.
        if DistOp::of(op) == Some(DistOp::Wait)
            && let Some(start) = op.operand_at(0).and_then(op_result).map(|r| r.owner())
        {
            reads.extend(start.operands().filter(|&v| is_activation(v)).map(&mut id));
        }
        let defines = op
            .results()
            .map(Value::from)
            .filter(|&v| is_activation(v))
            .map(|v| (id(v), sizes.bytes(v)))
            .collect();
        if op.next_in_block().is_none() {
            kept.extend(op.operands().filter(|&v| is_activation(v)).map(&mut id));
        }
        steps.push(Step { defines, reads });
    }
    let (peak, at) = peak_live(&entry, &steps, &kept);
    let at = match at {
        Some(i) => {
            let place = file_line_col(ops[i].location())
                .map_or_else(|| ops[i].location().to_string(), |(f, l, c)| format!("{f}:{l}:{c}"));
            format!("at {} ({place})", op_name(&ops[i]))
        }
        None => "at entry".to_owned(),
    };
    Some((peak, at))
}

/// The bytes one device holds when it runs `function`, sized as `sizing`
/// says, and the mesh its shardings name (empty if none); `None` for a
/// declaration or an empty body.
pub fn usage(function: FunctionOpRef<'_, '_>, sizing: Sizing) -> Option<(Usage, String)> {
    let operation = function.operation();
    let block = operation.region_at(0)?.first_block()?;
    let ops = body_ops(operation);
    let mut sizes = Sizes {
        sizing,
        reader: CommReader::default(),
        function,
        anchor: *ops.first()?,
        mesh: String::new(),
    };
    let model = model_states(&ops, block, &mut sizes)?;
    let (activations, peak_at) = activation_peak(&ops, block, &mut sizes, &model)?;
    let usage = Usage {
        parameters: model.parameters,
        gradients: model.gradients,
        states: model.states,
        activations,
        peak_at,
    };
    Some((usage, sizes.mesh))
}

/// A ranked tensor value (handles and indices hold no tensor memory).
fn static_tensorish(value: Value<'_, '_>) -> bool {
    dist_dialect::ir::static_tensor_shape(value.r#type()).is_some()
}

fn report(function: FunctionOpRef<'_, '_>, options: &MemoryReportOptions, out: &mut String) {
    let operation = function.operation();
    let symbol = symbol_name(&operation);
    let Some((usage, mesh)) = usage(function, Sizing::PerDevice) else {
        return; // a declaration or an empty body
    };
    let on = if mesh.is_empty() {
        String::new()
    } else {
        format!(" on @{mesh}")
    };
    let _ = writeln!(out, "// dist-memory-report @{symbol}{on}, bytes per device");
    let total = usage.total();
    let rows = [
        ("parameters", usage.parameters, String::new()),
        ("gradients", usage.gradients, String::new()),
        ("optimizer state", usage.states, String::new()),
        ("activations (peak)", usage.activations, usage.peak_at.clone()),
        ("total", total, String::new()),
    ];
    let cells: Vec<Vec<String>> = rows
        .into_iter()
        .map(|(what, bytes, note)| vec![what.to_owned(), bytes.to_string(), binary_size(bytes), note])
        .collect();
    out.push_str(&table(&["", "bytes", "", ""], &cells, &[1, 2]));
    let capacity = options.capacity();
    let verdict = if total as f64 <= capacity {
        "fits"
    } else {
        "does not fit"
    };
    let device = match options.memory_gib {
        Some(_) => "given".to_owned(),
        None => options.cluster.text(),
    };
    let _ = writeln!(
        out,
        "// {verdict} a device's {} ({device}): {:.1}%",
        binary_size(capacity as u64),
        total as f64 / capacity * 100.0
    );
}

/// `bytes` in the largest binary unit that keeps it at 1 or more, to three
/// significant figures: `512 B`, `1.50 KiB`, `36.0 GiB`.
pub fn binary_size(bytes: u64) -> String {
    const UNITS: [&str; 6] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    match unit {
        0 => format!("{bytes} B"),
        _ if value < 10.0 => format!("{value:.2} {}", UNITS[unit]),
        _ if value < 100.0 => format!("{value:.1} {}", UNITS[unit]),
        _ => format!("{value:.0} {}", UNITS[unit]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(defines: &[(usize, u64)], reads: &[usize]) -> Step {
        Step {
            defines: defines.to_vec(),
            reads: reads.to_vec(),
        }
    }

    #[test]
    fn a_value_lives_from_its_definition_to_its_last_read() {
        // x (10) at entry; a = f(x) (20); b = g(a) (30); c = h(b, x) (5).
        let steps = [step(&[(1, 20)], &[0]), step(&[(2, 30)], &[1]), step(&[(3, 5)], &[2, 0])];
        let kept = FxHashSet::from_iter([3]);
        // At step 1: x, a and b are live (10 + 20 + 30); a dies after it.
        assert_eq!(peak_live(&[(0, 10)], &steps, &kept), (60, Some(1)));
    }

    #[test]
    fn an_unread_value_dies_where_it_is_made_and_results_stay() {
        let steps = [step(&[(1, 100)], &[0]), step(&[(2, 1)], &[0])];
        // Without 1 kept it is freed after step 0; kept, it stays.
        assert_eq!(peak_live(&[(0, 1)], &steps, &FxHashSet::default()), (101, Some(0)));
        let kept = FxHashSet::from_iter([1]);
        assert_eq!(peak_live(&[(0, 1)], &steps, &kept), (102, Some(1)));
    }

    #[test]
    fn sizes_read_in_binary_units() {
        assert_eq!(binary_size(512), "512 B");
        assert_eq!(binary_size(1536), "1.50 KiB");
        assert_eq!(binary_size(38_654_705_668), "36.0 GiB");
        assert_eq!(binary_size(u64::MAX), "16384 PiB");
    }

    #[test]
    fn the_entry_alone_can_be_the_peak() {
        // A step that only reads (a return, a store) adds nothing.
        let steps = [step(&[], &[0])];
        assert_eq!(peak_live(&[(0, 50)], &steps, &FxHashSet::default()), (50, None));
    }
}
