//! Trials on copies of the module: the derivation of the tensor-parallel
//! layout from propagation, and the evaluation of a plan by the passes
//! `dist-run` runs and the reports' cost model, in-process. A trial's
//! diagnostics are held back: a plan the passes refuse is rejected, with
//! their first error as the reason.

use super::layers;
use super::program::{FirstUse, Product, Split, Step, annotate, dependents, split_over_tp};
use super::space::{Plan, Zero};
use crate::analysis::cluster::Machine;
use crate::analysis::memory_report::{Sizing, usage};
use crate::analysis::overlap_report::function_cost;
use crate::ops;
use crate::pass::PassInfo;
use crate::pass::options::parse_text;
use crate::transforms::outline_layers::repeats::Repeat;
use crate::transforms::{
    append_backward, decompose, overlap_collectives, partition, propagate_sharding, resolve_partial, split_matmul_grad,
};
use dist_dialect::DistOp;
use dist_dialect::ir::pass::capture_errors;
use dist_dialect::ir::{
    FunctionOpRef, OperationExt, block_argument, body_ops, clone_op, context_of, element_type, file_line_col,
    static_tensor_shape, value_sharding,
};
use melior::ir::operation::OperationLike;
use melior::ir::{BlockLike, Module, OperationRef, RegionLike, Value, ValueLike};

/// A copy of `module`, which the trial may change.
fn copy<'c>(module: OperationRef<'c, '_>) -> Module<'c> {
    Module::from_operation(clone_op(module)).expect("a copy of a module is one")
}

/// Runs `passes` (each with its option text) on `function`, as a pass
/// manager would; the first error any of them reports, naming the pass.
fn run(function: FunctionOpRef<'_, '_>, passes: &[(PassInfo, &str)]) -> Result<(), String> {
    let context = context_of(&function.operation());
    for (info, options) in passes {
        let mut pass = (info.create)();
        if !options.is_empty() {
            let declared = pass.options().expect("a pass given options declares them");
            parse_text(declared, options).map_err(|e| format!("{}: {e}", info.argument))?;
        }
        // A pass that panics on one plan rejects that plan; the search goes on.
        let (result, errors) = capture_errors(context, || {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| pass.run(function.operation())))
        });
        match result {
            Err(_) => return Err(format!("{}: internal error: the pass panicked", info.argument)),
            Ok(result) if result.is_err() || !errors.is_empty() => {
                let error = errors.into_iter().next().unwrap_or_else(|| "failed".into());
                return Err(format!("{}: {error}", info.argument));
            }
            Ok(_) => {}
        }
    }
    let (verified, errors) = capture_errors(context, || function.operation().verify());
    if !verified {
        let error = errors.into_iter().next().unwrap_or_else(|| "failed".into());
        return Err(format!("the compiled step does not verify: {error}"));
    }
    Ok(())
}

/// The tensor-parallel split of each parameter (indexed by argument),
/// derived from the step's dataflow as Megatron lays it out by hand:
///
/// - an embedding table splits its vocabulary;
/// - a weight whose first product reads a left operand with its
///   contraction dim split over tp is row-parallel (its contraction dim
///   splits, the product is a pending sum), any other column-parallel (its
///   output dim splits, and so does the product).
///
/// The left operand's layout is what propagation gives it once every
/// weight it depends on is decided, on a probe mesh of tp = 2: the weights
/// are decided in rounds, each propagation deciding every weight whose
/// left operand no undecided weight reaches. The parameters no product
/// reads (norm scales, biases) take what the last propagation gives them.
pub fn derive_layout(module: OperationRef<'_, '_>, step: &Step) -> Result<Vec<Split>, String> {
    let mut layout = vec![Split::Open; step.shapes.len()];
    for first in &step.first_uses {
        if let Product::Table { vocab } = first.product {
            layout[first.param] = Split::Dim(vocab);
        }
    }
    let probe = Plan {
        dp: 1,
        tp: 2,
        zero: Zero::Off,
        recompute: false,
    };
    loop {
        let open: Vec<&FirstUse> = step
            .first_uses
            .iter()
            .filter(|f| layout[f.param] == Split::Open)
            .collect();
        let trial = copy(module);
        annotate(trial.as_operation(), step, &layout, &probe)?;
        let function = step.function(trial.as_operation());
        run(function, &[(propagate_sharding::INFO, "remarks=none")])?;
        let block = function
            .operation()
            .region_at(0)
            .and_then(|r| r.first_block())
            .expect("a step has a body");
        if open.is_empty() {
            for &param in &step.params {
                if layout[param] == Split::Open {
                    let value: Value = block_argument(&block, param).expect("an argument").into();
                    let rank = step.shapes[param].len();
                    layout[param] = (0..rank)
                        .find(|&d| split_over_tp(value, function, d))
                        .map_or(Split::Whole, Split::Dim);
                }
            }
            return Ok(layout);
        }
        let waiting = dependents(function, &open.iter().map(|f| f.param).collect::<Vec<_>>());
        let ops = body_ops(function.operation());
        let mut decided = false;
        for first in &open {
            let Product::Weight { lhs_k, k, n } = first.product else {
                continue;
            };
            let lhs = ops[first.op].operand_at(0).expect("a matmul has a left operand");
            if waiting.contains(&lhs.to_raw().ptr) {
                continue;
            }
            layout[first.param] = Split::Dim(if split_over_tp(lhs, function, lhs_k) { k } else { n });
            decided = true;
        }
        if !decided {
            // Every open weight waits on another (a weight read before its
            // first product): the first one is column-parallel.
            if let Product::Weight { n, .. } = open[0].product {
                layout[open[0].param] = Split::Dim(n);
            }
        }
    }
}

/// What the model predicts of one plan.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Prediction {
    /// Seconds a step takes.
    pub step: f64,
    /// Seconds compute waits for communication.
    pub exposed: f64,
    /// Bytes per device at the peak.
    pub memory: u64,
}

/// The last pass of a trial, after the pricing.
const PARTITION: (PassInfo, &str) = (partition::INFO, "");

/// The passes `dist-run --grad --overlap` runs up to partitioning (its
/// `dist-append-backward`, then `dist-lower-to-local`'s), with the plan's
/// recomputation.
fn pipeline(step: &Step, plan: &Plan) -> Vec<(PassInfo, &'static str)> {
    let mut passes = Vec::new();
    if step.forward {
        passes.push((
            append_backward::INFO,
            if plan.recompute { "recompute=true" } else { "" },
        ));
    }
    passes.extend([
        (decompose::INFO, ""),
        (propagate_sharding::INFO, "remarks=none"),
        (resolve_partial::INFO, ""),
        (split_matmul_grad::INFO, ""),
        (overlap_collectives::INFO, ""),
    ]);
    passes
}

/// `plan` written on a copy of `module` and compiled as `dist-run` would,
/// then priced by the cost model on `machine`: its step time, exposed
/// communication and peak memory per device, or why it cannot run as laid
/// out.
pub fn evaluate(
    module: OperationRef<'_, '_>,
    step: &Step,
    layout: &[Split],
    plan: &Plan,
    machine: &Machine,
) -> Result<Prediction, String> {
    let trial = copy(module);
    annotate(trial.as_operation(), step, layout, plan)?;
    let function = step.function(trial.as_operation());
    run(function, &pipeline(step, plan))?;
    check_even(function, plan)?;
    let cost = function_cost(function, machine).expect("a step has a body");
    let (memory, _) = usage(function, Sizing::PerDevice).ok_or("the memory model cannot read the step")?;
    // Priced in the global view; partitioned as well, so that a plan the
    // per-device program cannot be made of is rejected, not written.
    run(function, &[PARTITION])?;
    Ok(Prediction {
        step: cost.timeline.step,
        exposed: cost.timeline.exposed,
        memory: memory.total(),
    })
}

/// A plan whose layout splits some value's dim unevenly is refused: its
/// padded shards compute and send padding.
fn check_even(function: FunctionOpRef<'_, '_>, plan: &Plan) -> Result<(), String> {
    let operation = function.operation();
    let block = operation
        .region_at(0)
        .and_then(|r| r.first_block())
        .expect("a step has a body");
    let shards = |axes: &[String]| -> i64 {
        axes.iter()
            .map(|a| match a.as_str() {
                "dp" => plan.dp as i64,
                "tp" => plan.tp as i64,
                _ => 1,
            })
            .product()
    };
    let uneven = |value: Value| -> Option<(usize, i64, i64)> {
        let sharding = value_sharding(value, function)?;
        let shape = static_tensor_shape(value.r#type())?;
        sharding
            .dims
            .iter()
            .enumerate()
            .map(|(d, axes)| (d, shape.get(d).copied().unwrap_or(1), shards(axes)))
            .find(|&(_, size, n)| size % n != 0)
    };
    for i in 0..block.argument_count() {
        let value: Value = block_argument(&block, i).expect("an argument").into();
        if let Some((d, size, n)) = uneven(value) {
            return Err(format!(
                "argument #{i} splits dim {d} of size {size} over {n} devices unevenly"
            ));
        }
    }
    for op in body_ops(operation) {
        for result in op.results() {
            if let Some((d, size, n)) = uneven(result.into()) {
                let at = file_line_col(op.location()).map_or(String::new(), |(f, l, c)| format!(" ({f}:{l}:{c})"));
                return Err(format!(
                    "{}{at} splits dim {d} of size {size} over {n} devices unevenly",
                    op.name().as_string_ref().as_str().unwrap_or("an op")
                ));
            }
        }
    }
    Ok(())
}

/// A copy of `module` whose step is differentiated (a training step as
/// it is), recomputing activations or not.
fn differentiated<'c>(module: OperationRef<'c, '_>, step: &Step, recompute: bool) -> Result<Module<'c>, String> {
    let trial = copy(module);
    if step.forward {
        let options = if recompute { "recompute=true" } else { "" };
        run(step.function(trial.as_operation()), &[(append_backward::INFO, options)])?;
    }
    Ok(trial)
}

/// Whether recomputation changes the forward program's backward (it finds
/// residual blocks whose values it recomputes): otherwise the search does
/// not try it.
pub fn recomputes(module: OperationRef<'_, '_>, step: &Step) -> Result<bool, String> {
    if !step.forward {
        return Ok(false);
    }
    let ops = |recompute| -> Result<usize, String> {
        let trial = differentiated(module, step, recompute)?;
        Ok(body_ops(step.function(trial.as_operation()).operation()).len())
    };
    Ok(ops(true)? != ops(false)?)
}

/// The GEMM FLOPs of one training step at global shapes, without
/// recomputation (the model FLOPs utilisation's numerator), and the
/// element type of its first product.
pub fn model_flops(module: OperationRef<'_, '_>, step: &Step) -> Result<(f64, String), String> {
    let trial = differentiated(module, step, false)?;
    let function = step.function(trial.as_operation());
    let mut flops = 0.0;
    let mut element = None;
    for op in body_ops(function.operation()) {
        let Some(spec) = DistOp::of(&op).and_then(ops::spec) else {
            continue;
        };
        flops += spec.gemm_flops(op, &mut |v| static_tensor_shape(v.r#type()));
        if element.is_none() && DistOp::of(&op) == Some(DistOp::Matmul) {
            element = op.operand_at(0).map(|x| element_type(x.r#type()).to_string());
        }
    }
    Ok((flops, element.unwrap_or_else(|| "f32".into())))
}

/// One program the search compiles for each plan: the step, or a copy of
/// it keeping fewer of its identical layers, with its layout.
struct Subject<'c> {
    module: Module<'c>,
    step: Step,
    layout: Vec<Split>,
}

/// What the search compiles: the whole step, or (a forward program with a
/// run of identical layers, [`layers`]) its copies keeping 2 and 3 of
/// them, whose figures extrapolate to the run's depth.
pub struct Subjects<'c> {
    run: Option<Repeat>,
    /// The layout of the whole step.
    layout: Vec<Split>,
    subjects: Vec<Subject<'c>>,
}

impl<'c> Subjects<'c> {
    /// The subjects of `step` in `module`: with `extrapolate`, the layer
    /// copies where the step has a run to extrapolate over and they can be
    /// made, the whole step otherwise. The error says why the layout cannot
    /// be derived.
    pub fn new(module: OperationRef<'c, '_>, step: &Step, extrapolate: bool) -> Result<Self, String> {
        if extrapolate
            && step.forward
            && let Some(run) = layers::layer_run(step.function(module))
            && let Some(layered) = Self::layered(module, step, run)
        {
            return Ok(layered);
        }
        let layout = derive_layout(module, step)?;
        Ok(Self {
            run: None,
            layout: layout.clone(),
            subjects: vec![Subject {
                module: copy(module),
                step: step.clone(),
                layout,
            }],
        })
    }

    /// The copies keeping 2 and 3 layers of `run`, the layout derived once
    /// on the deeper; `None` where a copy cannot be made or read, or the
    /// layout does not reach every parameter of the dropped layers (the
    /// whole step is compiled then).
    fn layered(module: OperationRef<'c, '_>, step: &Step, run: Repeat) -> Option<Self> {
        let copy_of = |keep: usize| -> Option<(Module<'c>, Step, Vec<usize>)> {
            let reduced = layers::reduce(module, &step.name, run, keep).ok()?;
            let copy = Step::read(step.function(reduced.module.as_operation())).ok()?;
            Some((reduced.module, copy, reduced.kept))
        };
        let (deep, deep_step, deep_kept) = copy_of(layers::DEPTHS[1])?;
        let deep_layout = derive_layout(deep.as_operation(), &deep_step).ok()?;
        let whole = layers::spread_layout(
            step.function(module),
            run,
            layers::DEPTHS[1],
            &deep_kept,
            &deep_layout,
            &step.params,
        )?;
        let (shallow, shallow_step, shallow_kept) = copy_of(layers::DEPTHS[0])?;
        let shallow_layout = shallow_kept.iter().map(|&a| whole[a]).collect();
        Some(Self {
            run: Some(run),
            layout: whole,
            subjects: vec![
                Subject {
                    module: shallow,
                    step: shallow_step,
                    layout: shallow_layout,
                },
                Subject {
                    module: deep,
                    step: deep_step,
                    layout: deep_layout,
                },
            ],
        })
    }

    /// The run of identical layers extrapolated over, if any.
    pub fn run(&self) -> Option<Repeat> {
        self.run
    }

    /// The tensor-parallel layout of the whole step.
    pub fn layout(&self) -> &[Split] {
        &self.layout
    }

    /// A figure at the whole step's depth from its value on each subject.
    fn at_depth(&self, figures: &[f64]) -> f64 {
        match (self.run, figures) {
            (Some(run), [at_2, at_3]) => layers::extrapolate(*at_2, *at_3, run.count - layers::DEPTHS[1]),
            _ => figures[0],
        }
    }

    /// What the model predicts of `plan` on `machine` for the whole step.
    pub fn predict(&self, plan: &Plan, machine: &Machine) -> Result<Prediction, String> {
        let predictions = self
            .subjects
            .iter()
            .map(|s| evaluate(s.module.as_operation(), &s.step, &s.layout, plan, machine))
            .collect::<Result<Vec<_>, _>>()?;
        let figure = |f: fn(&Prediction) -> f64| self.at_depth(&predictions.iter().map(f).collect::<Vec<_>>());
        let step = figure(|p| p.step);
        Ok(Prediction {
            step,
            exposed: figure(|p| p.exposed).min(step),
            memory: figure(|p| p.memory as f64).max(0.0).round() as u64,
        })
    }

    /// The GEMM FLOPs of one training step of the whole step, and its
    /// element type ([`model_flops`]).
    pub fn model_flops(&self) -> Result<(f64, String), String> {
        let counted = self
            .subjects
            .iter()
            .map(|s| model_flops(s.module.as_operation(), &s.step))
            .collect::<Result<Vec<_>, _>>()?;
        let flops: Vec<f64> = counted.iter().map(|(f, _)| *f).collect();
        let element = counted.into_iter().next().map(|(_, e)| e).expect("a subject at least");
        Ok((self.at_depth(&flops), element))
    }

    /// Whether recomputation changes the step ([`recomputes`]).
    pub fn recomputes(&self) -> Result<bool, String> {
        let first = &self.subjects[0];
        recomputes(first.module.as_operation(), &first.step)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_search_loads_every_dialect_its_trials_create() {
        let step = Step {
            name: String::new(),
            forward: true,
            data: Vec::new(),
            params: Vec::new(),
            states: Vec::new(),
            first_uses: Vec::new(),
            shapes: Vec::new(),
        };
        let plan = Plan {
            dp: 1,
            tp: 1,
            zero: Zero::Off,
            recompute: true,
        };
        for (info, _) in pipeline(&step, &plan).into_iter().chain([PARTITION]) {
            for dialect in info.dialects {
                assert!(
                    super::super::INFO.dialects.contains(dialect),
                    "{}: {dialect}",
                    info.argument
                );
            }
        }
    }
}
