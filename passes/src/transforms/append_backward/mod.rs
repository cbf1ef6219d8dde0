//! The `dist-append-backward` pass. Its documentation (what it does,
//! preconditions, before and after) is [`INFO`]'s description:
//! `dist-opt --help-passes` prints it and docs/passes.md holds it.

mod plan;

use crate::error::PassError;
use crate::ops::{Attr, GradRule, Read};
use crate::pass::options::PassOptions;
use crate::pass::{DistPass, PassInfo};
use dist_dialect::DistOp;
use dist_dialect::ir::{
    FunctionOpRef, Located, OperationExt, Severity, attribute, block_argument, build_op, clone_op, element_type,
    emit_diagnostic, i64_array_attribute, insert_before, is_float_tensor, is_memory_effect_free, op_name, set_operand,
    set_operands, static_tensor_shape, symbol_name,
};
use dist_dialect::ops::attr::{GRADIENT_OF, PERM, REQUIRES_GRAD, SHARDING};
use melior::Context;
use melior::ir::attribute::{DenseElementsAttribute, DenseI64ArrayAttribute, FloatAttribute, IntegerAttribute};
use melior::ir::operation::{OperationLike, WalkOrder, WalkResult};
use melior::ir::r#type::IntegerType;
use melior::ir::{
    Attribute, BlockLike, BlockRef, Identifier, Location, OperationRef, RegionLike, Type, TypeLike, Value, ValueLike,
};
use plan::{Activity, Emitter, PlanError, Segments, Tape, TapeOp, ValueKind};
use rustc_hash::{FxHashMap, FxHashSet};

crate::pass::options::pass_options! {
    /// The options of `dist-append-backward`.
    pub struct AppendBackwardOptions {
        recompute: bool = "recompute", "false",
            "Keep only each segment's input (each residual block's) for the backward and recompute the rest";
    }
}

#[derive(Debug, Default)]
pub struct AppendBackward {
    options: AppendBackwardOptions,
}

pub const INFO: PassInfo = PassInfo {
    argument: "dist-append-backward",
    summary: "Append the backward pass: the gradient of the loss (result 0) with respect to each dist.requires_grad argument",
    description: r#"`dist-append-backward`: reverse-mode automatic differentiation of a
forward program, written with the dialect's own gradient ops, so that
propagation infers their partial status as it does for hand-written ones.

Preconditions: the function's first result is the loss, a rank-0
floating-point tensor, and its body is one block of ops that have
gradient rules wherever they lie between an argument marked
`dist.requires_grad` and the loss (every compute op of the dialect;
not collectives, gradient ops or ops of other dialects, nor
`layer_norm`'s `mean` and `rstd` results); run it before
`dist-propagate-sharding`. Functions without a `dist.requires_grad`
argument are left as they are. The function's signature grows; calls of
it are not rewritten (differentiate the step a driver calls, as
`dist-run --grad` does).

Option `recompute` (default false): activation recomputation, as
Megatron's full recompute. The forward program is cut into segments at
the values that alone carry it on (the input of each residual block: two
per transformer layer, found without marks); the backward keeps those and
recomputes each segment's other values from them, right before that
segment's gradient ops, which read the copies. The forward values then die
in the forward pass: the activation peak (`dist-memory-report`) falls to
the checkpoints and one segment's values. The gradients come from the
same ops on the same values (the lowering may fuse the copies otherwise:
equal to float rounding). Nothing in the pipelines merges the copies back:
no CSE runs on tensors (the GPU pipeline's runs after bufferization, where
each copy writes a buffer of its own).

The forward ops stay; after them, before the return, comes the backward,
seeded with d loss = 1 (an `arith.constant`): for each op in reverse
order whose result the loss depends on and that depends on a requested
argument, its gradient op (`matmul_grad`, `add_grad`, `sub_grad`,
`mul_grad`, `gelu_grad`, `relu_grad`, `layer_norm_grad`,
`embedding_grad`, `softmax_grad`, `reduce_sum_grad`,
`reduce_mean_grad`; `scale` by the same factor, `reshape` back,
`transpose` by the inverse permutation). The contributions to a value
read more than once are summed by `dist.add` in that order. No gradient
op is emitted whose results reach no requested gradient. One result per
requested argument is appended, in argument order: the gradient, of the
argument's type, declaring the argument's `dist.sharding` when it has
one (zeros when the loss does not depend on it). The
`dist.requires_grad` attributes are removed.

Before:
```mlir
func.func @f(%x: tensor<8x16xf32>, %w: tensor<16x4xf32> {dist.requires_grad}) -> tensor<f32> {
  %h = dist.matmul %x, %w : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  %l = dist.reduce_mean %h {dims = array<i64: 0, 1>} : (tensor<8x4xf32>) -> tensor<f32>
  return %l : tensor<f32>
}
```
After:
```mlir
func.func @f(%x: tensor<8x16xf32>, %w: tensor<16x4xf32>) -> (tensor<f32>, tensor<16x4xf32>) {
  %h = dist.matmul %x, %w : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  %l = dist.reduce_mean %h {dims = array<i64: 0, 1>} : (tensor<8x4xf32>) -> tensor<f32>
  %one = arith.constant dense<1.000000e+00> : tensor<f32>
  %dh = dist.reduce_mean_grad %h, %one {dims = array<i64: 0, 1>} : (tensor<8x4xf32>, tensor<f32>) -> tensor<8x4xf32>
  %dx, %dw = dist.matmul_grad %x, %w, %dh : (tensor<8x16xf32>, tensor<16x4xf32>, tensor<8x4xf32>) -> (tensor<8x16xf32>, tensor<16x4xf32>)
  return %l, %dw : tensor<f32>, tensor<16x4xf32>
}
```
"#,
    anchor: "func.func",
    options: AppendBackwardOptions::info,
    dialects: &["arith"],
    create: || Box::new(AppendBackward::default()),
};

impl DistPass for AppendBackward {
    fn options(&mut self) -> Option<&mut dyn PassOptions> {
        Some(&mut self.options)
    }

    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), PassError> {
        let function = FunctionOpRef::try_from(op).map_err(|e| Located::new(op.location(), e.to_string()))?;
        let requested = function.arguments_with(REQUIRES_GRAD);
        if requested.is_empty() {
            return Ok(());
        }
        Ok(append_backward(function, &requested, self.options.recompute)?)
    }
}

type Built<'c, T> = Result<T, Located<'c>>;

/// Differentiates `function`'s loss with respect to its arguments
/// `requested` and appends the gradients to its results; with `recompute`,
/// the gradient ops read recomputed forward values.
fn append_backward<'c>(function: FunctionOpRef<'c, '_>, requested: &[usize], recompute: bool) -> Built<'c, ()> {
    let (block, ops, terminator) = check_function(function, requested)?;
    let operation = function.operation();
    let location = operation.location();
    let (tape, ids) = read_tape(&block, &ops);
    let loss = terminator.operand_at(0).expect("func.return returns the loss");
    let loss = ids[&loss.to_raw().ptr];
    let activity = Activity::of(&tape, requested, loss).map_err(|e| plan_error(&ops, &e))?;
    let argument_types = function.argument_types();
    let result_types = function.result_types();
    let segments = recompute.then(|| Segments::of(&tape, block.argument_count()));
    let recomputes = |s: &Segments| s.members.iter().any(|m| !m.is_empty());
    if segments.as_ref().is_some_and(|s| !recomputes(s)) {
        emit_diagnostic(
            location,
            Severity::Remark,
            "recompute: no segment of the forward has values to recompute (no residual blocks found), so the \
             backward reads the forward's values",
        );
    }
    let mut emitter = IrEmitter {
        context: dist_dialect::ir::context_of(&operation),
        ops: &ops,
        terminator,
        loss_type: result_types[0],
        recompute: segments.filter(recomputes).map(|segments| Recompute {
            segments,
            copied: FxHashMap::default(),
            done: FxHashSet::default(),
        }),
    };
    let grads = plan::backward(&tape, &activity, requested, loss, &mut emitter)?;

    let mut returned: Vec<Value<'c, '_>> = terminator.operands().collect();
    for (&arg, grad) in requested.iter().zip(grads) {
        returned.push(match grad {
            Some(grad) => grad,
            None => emitter.splat(argument_types[arg], 0.0, location)?,
        });
    }
    set_operands(terminator, &returned);
    let mut all_results = result_types.clone();
    all_results.extend(requested.iter().map(|&arg| argument_types[arg]));
    function.set_type(&argument_types, &all_results);
    let mut shardings = vec![None; result_types.len()];
    shardings.extend(requested.iter().map(|&arg| function.argument_attribute(arg, SHARDING)));
    function.set_result_attributes(SHARDING, &shardings);
    // Which argument each gradient is of: what the reports and dist-run
    // read to tell parameters and gradients apart without an optimizer.
    let index_type = IntegerType::new(emitter.context, 64).into();
    let mut gradient_of = vec![None; result_types.len()];
    gradient_of.extend(
        requested
            .iter()
            .map(|&arg| Some(IntegerAttribute::new(index_type, arg as i64).into())),
    );
    function.set_result_attributes(GRADIENT_OF, &gradient_of);
    function.remove_argument_and_result_attributes(REQUIRES_GRAD);
    Ok(())
}

/// Checks the preconditions on `function`'s signature and body; its one
/// block, the ops of the block before the `func.return` that ends it, and
/// that return.
fn check_function<'c, 'a>(
    function: FunctionOpRef<'c, 'a>,
    requested: &[usize],
) -> Built<'c, (BlockRef<'c, 'a>, Vec<OperationRef<'c, 'a>>, OperationRef<'c, 'a>)> {
    let operation = function.operation();
    let location = operation.location();
    let name = format!("@{}", symbol_name(&operation));
    let error = |message: String| Err(Located::new(location, message));
    let Some(block) = operation.region_at(0).and_then(|r| r.first_block()) else {
        return error(format!(
            "dist-append-backward needs a function body: {name} is a declaration"
        ));
    };
    if block.next_in_region().is_some() {
        return error(format!(
            "dist-append-backward needs a single-block body, and {name} has several blocks"
        ));
    }
    // The verifier refuses these; a module built without it must not reach
    // a constant of an integer or dynamic type.
    let argument_types = function.argument_types();
    if let Some(&arg) = requested
        .iter()
        .find(|&&arg| !is_static_float_tensor(argument_types[arg]))
    {
        return error(format!(
            "dist.requires_grad on argument #{arg} of {name}, which is not a statically shaped floating-point tensor"
        ));
    }
    match function.result_types().first() {
        Some(&ty) if is_float_tensor(ty) && static_tensor_shape(ty).is_some_and(|s| s.is_empty()) => {}
        Some(ty) => {
            return error(format!(
                "the first result of {name} is the loss, which must be a rank-0 floating-point tensor, not '{ty}'"
            ));
        }
        None => {
            return error(format!(
                "{name} has no result: its first result is the loss to differentiate"
            ));
        }
    }
    let mut ops = dist_dialect::ir::block_ops(block);
    match ops.pop() {
        Some(terminator) if op_name(&terminator) == "func.return" => Ok((block, ops, terminator)),
        other => error(format!(
            "dist-append-backward needs {name}'s body to end in func.return, not '{}'",
            other.as_ref().map_or("nothing", |op| op_name(op))
        )),
    }
}

fn is_static_float_tensor(ty: Type<'_>) -> bool {
    is_float_tensor(ty) && static_tensor_shape(ty).is_some()
}

/// What a value of type `ty` is to differentiation.
fn value_kind(ty: Type<'_>) -> ValueKind {
    let element = if ty.is_ranked_tensor() { element_type(ty) } else { ty };
    if is_float_tensor(ty) {
        ValueKind::FloatTensor
    } else if element.is_integer() || element.is_index() {
        ValueKind::Discrete
    } else {
        ValueKind::Other
    }
}

/// The forward program as the plan sees it, and the id of each IR value.
fn read_tape<'c, 'a>(
    block: &impl BlockLike<'c, 'a>,
    ops: &[OperationRef<'c, 'a>],
) -> (Tape, FxHashMap<*const std::ffi::c_void, usize>) {
    let mut tape = Tape::default();
    let mut ids = FxHashMap::default();
    let add = |tape: &mut Tape, ids: &mut FxHashMap<_, _>, value: Value<'c, 'a>| {
        ids.insert(value.to_raw().ptr, tape.values.len());
        tape.values.push(value_kind(value.r#type()));
        tape.values.len() - 1
    };
    for i in 0..block.argument_count() {
        add(&mut tape, &mut ids, block_argument(block, i).expect("in range").into());
    }
    for op in ops {
        let mut operands: Vec<usize> = op
            .operands()
            .filter_map(|v| ids.get(&v.to_raw().ptr).copied())
            .collect();
        // A region reads values from above without operands: they count.
        if op.region_count() > 0 {
            let itself = op.to_raw().ptr;
            op.walk(WalkOrder::PreOrder, |nested| {
                if nested.to_raw().ptr != itself {
                    operands.extend(nested.operands().filter_map(|v| ids.get(&v.to_raw().ptr).copied()));
                }
                WalkResult::Advance
            });
        }
        let results = op.results().map(|r| add(&mut tape, &mut ids, r.into())).collect();
        tape.ops.push(TapeOp {
            kind: DistOp::of(op),
            operands,
            results,
        });
    }
    (tape, ids)
}

/// The located diagnostic of a plan error, at the forward op at fault.
fn plan_error<'c>(ops: &[OperationRef<'c, '_>], error: &PlanError) -> Located<'c> {
    let op = &ops[error.op()];
    let name = op_name(op);
    let message = match *error {
        PlanError::Undifferentiable { .. } => {
            format!("'{name}' is on the path from a dist.requires_grad argument to the loss and has no gradient rule")
        }
        PlanError::ResultNotDifferentiated { result, .. } => format!(
            "result #{result} of '{name}' is on the path to the loss, but the gradient of '{name}' takes only that of result #0"
        ),
        PlanError::OperandNotDifferentiated { operand, .. } => format!(
            "operand #{operand} of '{name}' is on the path from a dist.requires_grad argument, but '{name}' gives it no gradient"
        ),
    };
    Located::new(op.location(), message)
}

/// Builds the backward ops before the function's return.
struct IrEmitter<'o, 'c, 'a> {
    context: &'c Context,
    ops: &'o [OperationRef<'c, 'a>],
    terminator: OperationRef<'c, 'a>,
    loss_type: Type<'c>,
    recompute: Option<Recompute<'c, 'a>>,
}

/// The recomputed forward values (`recompute=true`).
struct Recompute<'c, 'a> {
    segments: Segments,
    /// Each recomputed forward value's copy, by the forward value.
    copied: FxHashMap<*const std::ffi::c_void, Value<'c, 'a>>,
    /// The segments recomputed so far.
    done: FxHashSet<usize>,
}

impl<'c, 'a> IrEmitter<'_, 'c, 'a> {
    /// The value the backward reads for forward value `v`: its copy where
    /// its segment was recomputed.
    fn read(&self, v: Value<'c, 'a>) -> Value<'c, 'a> {
        self.recompute
            .as_ref()
            .and_then(|r| r.copied.get(&v.to_raw().ptr).copied())
            .unwrap_or(v)
    }

    /// Copies the ops of forward op `index`'s segment that it recomputes
    /// before the return, once, reading copies where they exist. An op
    /// with effects or regions is not copied: the backward reads its values.
    fn recompute_segment_of(&mut self, index: usize) {
        let Some(recompute) = &self.recompute else {
            return;
        };
        let segment = recompute.segments.of_op[index];
        if recompute.done.contains(&segment) {
            return;
        }
        let members = recompute.segments.members[segment].clone();
        for j in members {
            let forward = self.ops[j];
            if forward.region_count() > 0 || !is_memory_effect_free(&forward) {
                continue;
            }
            let copy = insert_before(self.terminator, clone_op(forward));
            for (k, operand) in forward.operands().enumerate() {
                let read = self.read(operand);
                if read != operand {
                    set_operand(copy, k, read);
                }
            }
            let recompute = self.recompute.as_mut().expect("recomputing");
            for (result, copied) in forward.results().zip(copy.results()) {
                recompute.copied.insert(result.to_raw().ptr, copied.into());
            }
        }
        self.recompute.as_mut().expect("recomputing").done.insert(segment);
    }

    fn build(
        &self,
        name: &str,
        operands: &[Value<'c, 'a>],
        results: &[Type<'c>],
        attributes: &[(Identifier<'c>, Attribute<'c>)],
        location: Location<'c>,
    ) -> Built<'c, OperationRef<'c, 'a>> {
        let op = build_op(name, location, operands, results, attributes)?;
        Ok(insert_before(self.terminator, op))
    }

    /// An `arith.constant` of type `ty` with every element `value`.
    fn splat(&self, ty: Type<'c>, value: f64, location: Location<'c>) -> Built<'c, Value<'c, 'a>> {
        let element = dist_dialect::ir::element_type(ty);
        let literal = DenseElementsAttribute::new(ty, &[FloatAttribute::new(self.context, element, value).into()])
            .map_err(|e| Located::new(location, e.to_string()))?;
        let op = self.build(
            "arith.constant",
            &[],
            &[ty],
            &[(Identifier::new(self.context, "value"), literal.into())],
            location,
        )?;
        Ok(op.result_at(0).expect("one result").into())
    }

    fn attributes(
        &self,
        forward: &OperationRef<'c, 'a>,
        wanted: &[Attr],
    ) -> Built<'c, Vec<(Identifier<'c>, Attribute<'c>)>> {
        let mut attributes = Vec::new();
        for &wanted in wanted {
            match wanted {
                Attr::Copy(name) => {
                    if let Some(value) = attribute(forward, name) {
                        attributes.push((Identifier::new(self.context, name), value));
                    }
                }
                Attr::Toggled(name) => {
                    if attribute(forward, name).is_none() {
                        attributes.push((Identifier::new(self.context, name), Attribute::unit(self.context)));
                    }
                }
                Attr::InversePerm => {
                    let perm = i64_array_attribute(forward, PERM)
                        .ok_or_else(|| Located::at(forward, "a transpose has a perm"))?;
                    let mut inverse = vec![0; perm.len()];
                    for (i, &p) in perm.iter().enumerate() {
                        inverse[p as usize] = i as i64;
                    }
                    attributes.push((
                        Identifier::new(self.context, PERM),
                        DenseI64ArrayAttribute::new(self.context, &inverse).into(),
                    ));
                }
            }
        }
        Ok(attributes)
    }
}

impl<'c, 'a> Emitter for IrEmitter<'_, 'c, 'a> {
    type Value = Value<'c, 'a>;
    type Error = Located<'c>;

    fn seed(&mut self) -> Built<'c, Value<'c, 'a>> {
        self.splat(self.loss_type, 1.0, self.terminator.location())
    }

    fn gradient(&mut self, index: usize, rule: &GradRule, dout: Value<'c, 'a>) -> Built<'c, Vec<Value<'c, 'a>>> {
        self.recompute_segment_of(index);
        let forward = self.ops[index];
        let location = forward.location();
        let types: Vec<Type<'c>> = rule
            .grad_operands(forward.operand_count())
            .into_iter()
            .map(|i| {
                forward
                    .operand_at(i)
                    .expect("the rule differentiates an operand")
                    .r#type()
            })
            .collect();
        let attributes = self.attributes(&forward, rule.attributes)?;
        // The rule's op of `dout`: its results.
        let apply = |emitter: &Self, dout: Value<'c, 'a>| -> Built<'c, Vec<Value<'c, 'a>>> {
            let mut operands = Vec::with_capacity(rule.reads.len());
            for &read in rule.reads {
                match read {
                    Read::Operand(i) => operands.extend(forward.operand_at(i).map(|v| emitter.read(v))),
                    Read::Result(i) => {
                        operands.push(emitter.read(forward.result_at(i).expect("the rule reads a result").into()))
                    }
                    Read::Dout | Read::DoutPerTie => operands.push(dout),
                }
            }
            let op = emitter.build(rule.op.name(), &operands, &types, &attributes, location)?;
            Ok(op.results().map(Into::into).collect())
        };
        let dout = if rule.reads.contains(&Read::DoutPerTie) {
            // The chosen elements (the op of ones), counted per reduced
            // position with the forward reduction's dims.
            let ones = self.splat(dout.r#type(), 1.0, location)?;
            let chosen = apply(self, ones)?[0];
            let count = self.build(
                DistOp::ReduceSum.name(),
                &[chosen],
                &[dout.r#type()],
                &attributes,
                location,
            )?;
            let count = count.result_at(0).expect("one result").into();
            let share = self.build(DistOp::Div.name(), &[dout, count], &[dout.r#type()], &[], location)?;
            share.result_at(0).expect("one result").into()
        } else {
            dout
        };
        apply(self, dout)
    }

    fn add(&mut self, index: usize, a: Value<'c, 'a>, b: Value<'c, 'a>) -> Built<'c, Value<'c, 'a>> {
        let op = self.build(
            DistOp::Add.name(),
            &[a, b],
            &[a.r#type()],
            &[],
            self.ops[index].location(),
        )?;
        Ok(op.result_at(0).expect("one result").into())
    }
}
