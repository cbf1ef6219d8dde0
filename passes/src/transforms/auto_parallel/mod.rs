//! The `dist-auto-parallel` pass. Its documentation (what it does,
//! preconditions, before and after) is [`INFO`]'s description:
//! `dist-opt --help-passes` prints it and docs/passes.md holds it.

pub mod layers;
pub mod program;
pub mod space;
pub mod trial;

use crate::analysis::memory_report::binary_size;
use crate::analysis::overlap_report::{MachineOptions, micros};
use crate::analysis::table::table;
use crate::error::{PassError, fail};
use crate::pass::options::{PassOptions, Positive, PositiveNumber};
use crate::pass::{DistPass, PassInfo};
use dist_dialect::ir::build::dictionary_attribute;
use dist_dialect::ir::{
    FunctionOpRef, Located, body_ops, context_of, element_bytes, set_attribute, string_attribute, symbol_name,
};
use dist_dialect::ops::attr::{self, PLAN};
use melior::ir::attribute::BoolAttribute;
use melior::ir::operation::OperationLike;
use melior::ir::{OperationRef, TypeLike};
use program::{Product, Split, Step};
use space::{Plan, Pruned, Space, Zero};
use std::fmt::Write;
use trial::{Prediction, Subjects};

#[derive(Debug, Default)]
pub struct AutoParallel {
    options: AutoParallelOptions,
}

crate::pass::options::pass_options! {
    /// The devices, what the search may not change, and the cluster.
    pub struct AutoParallelOptions {
        devices: Option<Positive> = "devices", "", "The devices to lay the step out on (required)";
        dp: Option<Positive> = "dp", "", "Fix the data-parallel axis at this size";
        tp: Option<Positive> = "tp", "", "Fix the tensor-parallel axis at this size (its groups may then span nodes)";
        memory_gib: Option<PositiveNumber> = "memory-gib", "", "The device's memory, GiB (the cluster's unless given): a plan over it is rejected";
        plans: Positive = "plans", "10", "How many of the ranked plans to print";
        extrapolate: bool = "extrapolate", "true", "Price a forward program's run of more than 5 identical layers from copies of the step with 2 and 3 of them (false: compile every plan at full depth)";
        @group machine: MachineOptions;
    }
}

pub const INFO: PassInfo = PassInfo {
    argument: "dist-auto-parallel",
    summary: "Search the layouts of a step over N devices by the cost model; write the fastest plan that fits the \
              device's memory (mesh, Megatron-style shardings, dist.plan)",
    description: r#"`dist-auto-parallel`: lays a step out on `devices=N`
devices without being told how: it tries every plan of the space below,
compiles each as `dist-run --grad --overlap` would (in-process, on a copy
of the module), prices it by the cost model of `dist-overlap-report` and
`dist-memory-report` on the cluster (`cluster=` and the figures that
override it), prints the ranked plans to stderr, and writes the fastest
one that fits the device's memory on the module.

Preconditions: one function with a body, the step: a forward program
whose loss is its first result and whose parameters carry
`dist.requires_grad` (the search differentiates it), or a training step
whose optimizer steps (`dist.adamw`, `dist.sgd`) update its parameters.
Its data arguments carry `dist.batch_dim`, and its shapes are global.
The module has no `dist.mesh` and no shardings: the search writes them.

The space: the mesh `["dp"=d, "tp"=t]` for each factorisation `d t = N`
(row-major, so a tp group is `t` consecutive devices), times the ZeRO
stage where the step has an optimizer (0; 1-2, the states split over
dp; 3, the parameters too), times recomputation where it changes the step
(a forward program with residual blocks, `dist-append-backward`'s
`recompute`). `dp=` and `tp=` fix an axis.

The tensor-parallel layout is derived from the program, not from names:
an embedding table splits its vocabulary; a weight whose first product
reads a left operand already split along the contraction dim is
row-parallel, any other column-parallel (Megatron's MLP and attention
pairs). The left operand's split is what `dist-propagate-sharding` gives
it once the weights before it are decided; parameters no product reads
(norm scales, biases) take what propagation gives them.

Pruned before any pass runs, in this order (the report names the rule):
an axis an option fixes otherwise; a tp group that would span nodes (tp
not dividing a node's devices when they fill more than one; unless `tp=`
says so); dp
that does not divide a data argument's batch; tp that does not divide a
dim the layout splits; ZeRO without dp; and model states (parameters,
gradients, optimizer states per device, at the plan's splits) that alone
exceed the device's memory. Rejected after compiling: a pass's error (a
panic included), a step that does not verify or partition, a value split
unevenly (its padded shards compute padding), and a peak of memory per
device over the device's (`memory-gib=`, or the cluster's).

A forward program's run of more than 5 identical layers is priced once:
each plan is compiled on two copies of the step keeping 2 and 3 of the
layers, and each figure extrapolated linearly to the run's depth
(`extrapolate=false` compiles every plan at full depth), so the search
takes about as long at 126 layers as at 8.

Ranked by the predicted step time (then memory): tokens/s are the
elements of the first integer data argument (samples where there is
none) per step time, MFU the GEMM FLOPs of one training step at global
shapes without recomputation over step time x devices x the chip's GEMM
rate for the step's element type.

The module then holds the chosen plan: the mesh `@mesh`, the data split
over dp along its batch dim, each parameter's (and optimizer state's)
layout, and `dist.plan = {overlap = true, recompute = ...}` on the
module, which `dist-run` takes as its defaults. No plan fitting is an
error.

Example (`dist-opt mlp.mlir --dist-auto-parallel="devices=4"`), before:
```mlir
func.func @step(%x: tensor<8x16xf32> {dist.batch_dim = 0 : i64}, %t: tensor<8x16xf32> {dist.batch_dim = 0 : i64},
                %w1: tensor<16x64xf32> {dist.requires_grad}, %w2: tensor<64x16xf32> {dist.requires_grad}) -> tensor<f32> {
  %h = dist.matmul %x, %w1 : (tensor<8x16xf32>, tensor<16x64xf32>) -> tensor<8x64xf32>
  %a = dist.gelu %h : (tensor<8x64xf32>) -> tensor<8x64xf32>
  %y = dist.matmul %a, %w2 : (tensor<8x64xf32>, tensor<64x16xf32>) -> tensor<8x16xf32>
  ...
```
After (the plan chosen: w1 column-parallel, w2 row-parallel):
```mlir
module attributes {dist.plan = {overlap = true, recompute = false}} {
  dist.mesh @mesh = <["dp"=2, "tp"=2]>
  func.func @step(%x: tensor<8x16xf32> {dist.batch_dim = 0 : i64, dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>}, ...
                  %w1: tensor<16x64xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>},
                  %w2: tensor<64x16xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{"tp"}, {}]>}) ...
```
"#,
    anchor: "builtin.module",
    options: AutoParallelOptions::info,
    // What the trial passes create (dist-append-backward's and
    // dist-partition's): MLIR loads them before the pipeline runs.
    dialects: &["arith", "tensor"],
    create: || Box::new(AutoParallel::default()),
};

impl DistPass for AutoParallel {
    fn options(&mut self) -> Option<&mut dyn PassOptions> {
        Some(&mut self.options)
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let function = step_function(module)?;
        let Some(devices) = self.options.devices else {
            return Err(fail(
                function.operation().location(),
                "dist-auto-parallel needs devices=N, the devices to lay the step out on",
            ));
        };
        let fixed = |axis: &str, size: Option<Positive>| match size {
            Some(size) if !(devices.0 as u64).is_multiple_of(size.0 as u64) => Err(fail(
                function.operation().location(),
                &format!(
                    "dist-auto-parallel: {axis}={} does not divide devices={}",
                    size.0, devices.0
                ),
            )),
            _ => Ok(()),
        };
        fixed("dp", self.options.dp)?;
        fixed("tp", self.options.tp)?;
        if let (Some(dp), Some(tp)) = (self.options.dp, self.options.tp)
            && dp.0 * tp.0 != devices.0
        {
            return Err(fail(
                function.operation().location(),
                &format!(
                    "dist-auto-parallel: dp={} x tp={} is not devices={}",
                    dp.0, tp.0, devices.0
                ),
            ));
        }
        let step = Step::read(function)?;
        let search_failed = |message: String| Located::at(&function.operation(), message);
        let subjects = Subjects::new(module, &step, self.options.extrapolate)
            .map_err(|e| search_failed(format!("dist-auto-parallel: the tensor-parallel probe fails: {e}")))?;
        let layout = subjects.layout();
        let not_differentiable =
            |e: String| search_failed(format!("dist-auto-parallel: the step does not differentiate: {e}"));
        let (flops, element) = subjects.model_flops().map_err(not_differentiable)?;
        let recomputes = subjects.recomputes().map_err(not_differentiable)?;
        let machine = self.options.machine.machine();
        let capacity = match self.options.memory_gib {
            Some(gib) => gib.0 * (1u64 << 30) as f64,
            None => machine.memory_capacity,
        };
        let bytes: Vec<u64> = function
            .argument_types()
            .into_iter()
            .zip(&step.shapes)
            .map(|(t, shape)| shape.iter().product::<i64>().max(0) as u64 * element_bytes(t))
            .collect();
        let space = Space {
            devices: devices.0 as u64,
            devices_per_node: machine.devices_per_node,
            batch: step.data.iter().map(|&(_, _, size)| size as u64).collect(),
            tp_split: step
                .params
                .iter()
                .filter_map(|&p| match layout[p] {
                    Split::Dim(d) => Some(step.shapes[p][d] as u64),
                    _ => None,
                })
                .collect(),
            optimizer: !step.states.is_empty(),
            recompute: recomputes,
            fixed_dp: self.options.dp.map(|p| p.0 as u64),
            fixed_tp: self.options.tp.map(|p| p.0 as u64),
        };
        let floor = |plan: &Plan| model_state_floor(&step, layout, &bytes, plan);
        let mut ranked: Vec<(Plan, Prediction)> = Vec::new();
        let mut rejected: Vec<(Plan, String)> = Vec::new();
        let mut pruned: Vec<(Plan, Pruned)> = Vec::new();
        for (plan, prune) in space.plans(capacity, floor) {
            if let Some(rule) = prune {
                pruned.push((plan, rule));
                continue;
            }
            match subjects.predict(&plan, &machine) {
                Ok(p) if p.memory as f64 > capacity => rejected.push((
                    plan,
                    format!(
                        "{} a device, over the device's {}",
                        binary_size(p.memory),
                        binary_size(capacity as u64)
                    ),
                )),
                Ok(p) => ranked.push((plan, p)),
                Err(reason) => rejected.push((plan, reason)),
            }
        }
        // Stable: equal predictions keep the space's order.
        ranked.sort_by(|a, b| a.1.step.total_cmp(&b.1.step).then(a.1.memory.cmp(&b.1.memory)));
        let work = Work {
            flops,
            peak: machine.gemm_rate(&element) * space.devices as f64,
            tokens: tokens(&step, function),
        };
        let mut out = String::new();
        let _ = writeln!(
            out,
            "// dist-auto-parallel @{} on {} devices: {machine}; device memory {}",
            step.name,
            space.devices,
            binary_size(capacity as u64)
        );
        let _ = writeln!(
            out,
            "// a step: {} of GEMMs (forward and backward, global), {} {}; {}",
            flop_text(flops),
            work.tokens.0,
            work.tokens.1,
            describe_layout(&step, layout)
        );
        if let Some(run) = subjects.run() {
            let _ = writeln!(
                out,
                "// {} identical layers of {} ops: each plan compiled with {} and {} of them, extrapolated",
                run.count,
                run.period,
                layers::DEPTHS[0],
                layers::DEPTHS[1]
            );
        }
        print_ranked(&mut out, &ranked, &work, self.options.plans.0);
        for (plan, reason) in &rejected {
            let _ = writeln!(out, "// rejected {plan}: {reason}");
        }
        for (plan, rule) in &pruned {
            let _ = writeln!(out, "// pruned {plan}: {}", rule.reason());
        }
        let Some((best, _)) = ranked.first().copied() else {
            eprint!("{out}");
            return Err(search_failed(format!(
                "dist-auto-parallel: no plan for {} devices compiles and fits the device's {} (the report gives each \
                 plan's reason)",
                space.devices,
                binary_size(capacity as u64)
            ))
            .into());
        };
        let _ = writeln!(out, "// chosen: {best}");
        eprint!("{out}");
        program::annotate(module, &step, layout, &best).map_err(search_failed)?;
        let context = context_of(&module);
        let plan = dictionary_attribute(
            context,
            &[
                ("overlap", BoolAttribute::new(context, true).into()),
                ("recompute", BoolAttribute::new(context, best.recompute).into()),
            ],
        );
        set_attribute(module, PLAN, plan);
        Ok(())
    }
}

/// The one function with a body; an error where there is none, or more,
/// where the module has a mesh (and so may have shardings), or a symbol
/// named as the plan's mesh.
fn step_function<'c, 'a>(module: OperationRef<'c, 'a>) -> Result<FunctionOpRef<'c, 'a>, Located<'c>> {
    let mut steps = Vec::new();
    for op in body_ops(module) {
        if op.name().as_string_ref().as_str() == Ok("dist.mesh") {
            return Err(Located::at(
                &op,
                "dist-auto-parallel lays out a program without a mesh: it writes the mesh and the shardings itself",
            ));
        }
        // The plan's mesh is @mesh: a symbol of that name would clash with it.
        if string_attribute(&op, attr::SYM_NAME).as_deref() == Some(program::MESH) {
            return Err(Located::at(
                &op,
                format!(
                    "dist-auto-parallel writes its mesh as @{}, which this symbol already names",
                    program::MESH
                ),
            ));
        }
        if let Ok(function) = FunctionOpRef::try_from(op)
            && !body_ops(op).is_empty()
        {
            steps.push(function);
        }
    }
    match steps.as_slice() {
        // A sharding names a mesh the verifier has found: without one there
        // is none.
        [step] => Ok(*step),
        [] => Err(Located::at(
            &module,
            "dist-auto-parallel: the module has no function with a body",
        )),
        [_, second, ..] => Err(Located::at(
            &second.operation(),
            format!(
                "dist-auto-parallel lays out one step function; @{} is a second",
                symbol_name(&second.operation())
            ),
        )),
    }
}

/// The bytes per device the model states take at `plan`'s splits, at
/// least: each parameter and its gradient, each optimizer state, divided
/// by tp where the layout splits it and by dp where ZeRO does.
fn model_state_floor(step: &Step, layout: &[Split], bytes: &[u64], plan: &Plan) -> u64 {
    let tp = |param: usize| {
        if matches!(layout[param], Split::Dim(_)) {
            plan.tp
        } else {
            1
        }
    };
    let dp = |split: bool| if split { plan.dp } else { 1 };
    let params: u64 = step
        .params
        .iter()
        .map(|&p| bytes[p] / tp(p) / dp(plan.zero == Zero::Parameters) + bytes[p] / tp(p) / dp(plan.zero != Zero::Off))
        .sum();
    let states: u64 = step
        .states
        .iter()
        .map(|&(s, p)| bytes[s] / tp(p) / dp(plan.zero != Zero::Off))
        .sum();
    params + states
}

/// FLOPs in the unit that keeps them under a thousand: `72.876 MFLOP`,
/// `42.644 EFLOP`.
fn flop_text(flops: f64) -> String {
    const UNITS: [&str; 7] = ["FLOP", "kFLOP", "MFLOP", "GFLOP", "TFLOP", "PFLOP", "EFLOP"];
    let mut value = flops;
    let mut unit = 0;
    while value >= 1000.0 && unit + 1 < UNITS.len() {
        value /= 1000.0;
        unit += 1;
    }
    format!("{value:.3} {}", UNITS[unit])
}

/// What the throughput columns divide by.
struct Work {
    /// GEMM FLOPs of one training step.
    flops: f64,
    /// The devices' GEMM FLOP/s together.
    peak: f64,
    /// Tokens (or samples) a step, and which.
    tokens: (u64, &'static str),
}

/// The elements of the first integer data argument (token ids), or else
/// the first data argument's batch.
fn tokens(step: &Step, function: FunctionOpRef<'_, '_>) -> (u64, &'static str) {
    let types = function.argument_types();
    let ids = step
        .data
        .iter()
        .find(|&&(arg, _, _)| dist_dialect::ir::element_type(types[arg]).is_integer());
    match ids {
        Some(&(arg, _, _)) => (step.shapes[arg].iter().product::<i64>() as u64, "tokens"),
        None => (step.data[0].2 as u64, "samples"),
    }
}

fn print_ranked(out: &mut String, ranked: &[(Plan, Prediction)], work: &Work, shown: usize) {
    let rate = format!("{}/s", work.tokens.1);
    let header = [
        "rank",
        "dp",
        "tp",
        "zero",
        "recompute",
        "step_us",
        &rate,
        "mfu",
        "memory",
        "exposed_us",
    ];
    let rows: Vec<Vec<String>> = ranked
        .iter()
        .take(shown)
        .enumerate()
        .map(|(i, (plan, p))| {
            vec![
                (i + 1).to_string(),
                plan.dp.to_string(),
                plan.tp.to_string(),
                plan.zero.stage().to_owned(),
                plan.recompute.to_string(),
                micros(p.step),
                format!("{:.0}", work.tokens.0 as f64 / p.step),
                format!("{:.2}%", 100.0 * work.flops / (p.step * work.peak)),
                binary_size(p.memory),
                micros(p.exposed),
            ]
        })
        .collect();
    out.push_str(&table(&header, &rows, &[0, 1, 2, 5, 6, 7, 8, 9]));
    if ranked.len() > shown {
        let more = ranked.len() - shown;
        let _ = writeln!(
            out,
            "// ... {more} more {} (plans= prints them)",
            if more == 1 { "plan fits" } else { "plans fit" }
        );
    }
}

/// `tensor-parallel arguments: vocabulary #0; column #2 #4; row #3; as
/// propagated #5`, by argument number (parameters left whole are not
/// listed).
fn describe_layout(step: &Step, layout: &[Split]) -> String {
    let mut groups: [(&str, Vec<String>); 4] = [
        ("vocabulary", Vec::new()),
        ("column", Vec::new()),
        ("row", Vec::new()),
        ("as propagated", Vec::new()),
    ];
    for &param in &step.params {
        let first = step.first_uses.iter().find(|f| f.param == param).map(|f| f.product);
        let group = match (layout[param], first) {
            (Split::Dim(_), Some(Product::Table { .. })) => 0,
            (Split::Dim(d), Some(Product::Weight { n, .. })) if d == n => 1,
            (Split::Dim(d), Some(Product::Weight { k, .. })) if d == k => 2,
            (Split::Dim(_), _) => 3,
            _ => continue,
        };
        groups[group].1.push(format!("#{param}"));
    }
    let parts: Vec<String> = groups
        .iter()
        .filter(|(_, args)| !args.is_empty())
        .map(|(name, args)| format!("{name} {}", args.join(" ")))
        .collect();
    format!(
        "tensor-parallel arguments: {}",
        if parts.is_empty() {
            "none".into()
        } else {
            parts.join("; ")
        }
    )
}
