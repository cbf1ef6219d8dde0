//! The new body of one function (or of one stage's function): each
//! microbatch's work in the order of the schedule, the sums over the
//! microbatches, the work after them and the results.

use super::job::Job;
use super::placement::Channel;
use super::{Sink, Step, key, kind_of, layout_attribute, without};
use crate::conversion::runtime_abi;
use crate::pipeline::microbatches::Class;
use dist_dialect::DistOp;
use dist_dialect::ir::build::{splat_attribute, tensor_type};
use dist_dialect::ir::{
    Located, OperationExt, axis_names, block_argument, block_argument_of, build_op, context_of, element_type, erase,
    has_uses, insert_before, is_memory_effect_free, move_before, op_name, op_result, replace_all_uses, set_attribute,
    set_operand, set_type, sharding_of, static_tensor_shape, users,
};
use dist_dialect::model::{Partial, ReductionKind};
use dist_dialect::ops::attr;
use melior::dialect::func;
use melior::ir::attribute::{
    ArrayAttribute, DenseI64ArrayAttribute, FlatSymbolRefAttribute, FloatAttribute, IntegerAttribute, StringAttribute,
};
use melior::ir::operation::OperationLike;
use melior::ir::r#type::IntegerType;
use melior::ir::{Attribute, BlockLike, Identifier, Location, OperationRef, RegionLike, Type, Value, ValueLike};
use rustc_hash::{FxHashMap, FxHashSet};
use std::ffi::c_void;
/// The new body, written before the function's return.
pub(super) struct Writer<'c, 'a> {
    terminator: OperationRef<'c, 'a>,
    /// The whole data arguments, by index.
    arguments: Vec<Value<'c, 'a>>,
    slices: FxHashMap<(usize, usize), Value<'c, 'a>>,
    /// Each per-microbatch value's copies, by microbatch.
    copies: FxHashMap<*const c_void, Vec<Option<Value<'c, 'a>>>>,
    sums: FxHashMap<Sink, Value<'c, 'a>>,
    microbatches: usize,
    pieces: FxHashMap<Sink, Vec<Option<Value<'c, 'a>>>>,
    /// The stage this body is of (a step with stages).
    stage: Option<usize>,
    /// Values received from another stage that are sums over the
    /// microbatches already.
    received_sums: FxHashSet<*const c_void>,
    /// Mark each job for `dist-run --trace` (`dist_rt_trace_job`).
    trace_jobs: bool,
}

impl<'c, 'a> Writer<'c, 'a> {
    /// Widens each data argument to all the microbatches.
    pub(super) fn new(step: &Step<'c, 'a>, stage: Option<usize>, trace_jobs: bool) -> Result<Self, Located<'c>> {
        let operation = step.function.operation();
        let entry = operation
            .region_at(0)
            .and_then(|r| r.first_block())
            .expect("a function with a body");
        let mut types = step.function.argument_types();
        let mut layouts: Vec<Option<Attribute<'c>>> = vec![None; types.len()];
        let mut arguments = Vec::new();
        for (i, ty) in types.iter_mut().enumerate() {
            let argument: Value<'c, 'a> = block_argument(&entry, i).expect("an argument per type").into();
            arguments.push(argument);
            let Some(dim) = step.data_dims[i] else { continue };
            *ty = widened(*ty, dim, step.microbatches)
                .ok_or_else(|| Located::at(&operation, format!("argument #{i}: a data argument is a static tensor")))?;
            set_type(argument, *ty);
            let mut layout = step
                .function
                .argument_attribute(i, attr::LOCAL)
                .and_then(sharding_of)
                .expect("a data argument has a layout");
            layout.dims[dim] = without(&layout.dims[dim], &step.axis);
            layouts[i] = Some(layout_attribute(step.function.argument_location(i), &layout)?);
        }
        step.function.set_type(&types, &step.function.result_types());
        step.function.set_argument_attributes(attr::LOCAL, &layouts);
        Ok(Self {
            terminator: step.terminator(),
            arguments,
            slices: FxHashMap::default(),
            copies: FxHashMap::default(),
            sums: FxHashMap::default(),
            microbatches: step.microbatches,
            pieces: FxHashMap::default(),
            stage,
            received_sums: FxHashSet::default(),
            trace_jobs,
        })
    }

    /// With `trace_jobs`, a call telling the runtime that part `phase`
    /// (F, B, W: 0, 1, 2; -1: the rest) of `microbatch`'s work starts.
    fn mark(&self, phase: i64, microbatch: usize, location: Location<'c>) -> Result<(), Located<'c>> {
        if !self.trace_jobs {
            return Ok(());
        }
        let context = context_of(&self.terminator);
        let function = runtime_abi::trace_job();
        let function_op = self.terminator.parent_operation().expect("a return in a function");
        let module = function_op.block().expect("a function of a module");
        let declared = dist_dialect::ir::block_ops(module)
            .iter()
            .any(|op| dist_dialect::ir::symbol_name(op) == function.name);
        let i64_type: Type<'c> = IntegerType::new(context, 64).into();
        if !declared {
            module.insert_operation_before(function_op, function.declaration(context, location));
        }
        let mut operands = Vec::new();
        for value in [phase, microbatch as i64] {
            let constant = build_op(
                "arith.constant",
                location,
                &[],
                &[i64_type],
                &[(
                    Identifier::new(context, "value"),
                    IntegerAttribute::new(i64_type, value).into(),
                )],
            )?;
            operands.push(self.insert_value(constant));
        }
        self.insert(function.call(context, &operands, location));
        Ok(())
    }

    /// Sends `value` over `channel`'s tag plus `offset` to each stage that
    /// receives it, if it crosses stages.
    fn send(
        &self,
        step: &Step<'c, 'a>,
        channel: Channel,
        offset: usize,
        value: Value<'c, 'a>,
        location: Location<'c>,
    ) -> Result<(), Located<'c>> {
        let Some((tag, receivers)) = step.placement.as_ref().and_then(|p| p.channel(channel)) else {
            return Ok(());
        };
        for &to in receivers {
            let op = self.transfer(
                DistOp::Send.name(),
                step,
                to,
                tag + offset as i64,
                &[value],
                &[],
                location,
            )?;
            self.insert(op);
        }
        Ok(())
    }

    /// The value `channel`'s tag plus `offset` brings from stage `from`.
    fn receive(
        &self,
        step: &Step<'c, 'a>,
        channel: Channel,
        offset: usize,
        from: usize,
        ty: Type<'c>,
        location: Location<'c>,
    ) -> Result<Value<'c, 'a>, Located<'c>> {
        let (tag, _) = step
            .placement
            .as_ref()
            .and_then(|p| p.channel(channel))
            .ok_or_else(|| Located::new(location, "internal error: a transfer without its channel"))?;
        let op = self.transfer(
            DistOp::Recv.name(),
            step,
            from,
            *tag + offset as i64,
            &[],
            &[ty],
            location,
        )?;
        Ok(self.insert_value(op))
    }

    /// A `dist.send` or `dist.recv` (`name`) with stage `peer` over the
    /// stage axis.
    #[allow(clippy::too_many_arguments)]
    fn transfer(
        &self,
        name: &str,
        step: &Step<'c, 'a>,
        peer: usize,
        tag: i64,
        operands: &[Value<'c, 'a>],
        results: &[Type<'c>],
        location: Location<'c>,
    ) -> Result<melior::ir::Operation<'c>, Located<'c>> {
        let context = context_of(&self.terminator);
        let placement = step.placement.as_ref().expect("transfers are between stages");
        let i64_type = IntegerType::new(context, 64).into();
        let axes: Vec<Attribute<'c>> = vec![StringAttribute::new(context, &placement.axis).into()];
        build_op(
            name,
            location,
            operands,
            results,
            &[
                (
                    Identifier::new(context, attr::MESH),
                    FlatSymbolRefAttribute::new(context, &step.mesh).into(),
                ),
                (
                    Identifier::new(context, attr::AXES),
                    ArrayAttribute::new(context, &axes).into(),
                ),
                (
                    Identifier::new(context, attr::PEER),
                    IntegerAttribute::new(i64_type, peer as i64).into(),
                ),
                (
                    Identifier::new(context, attr::TAG),
                    IntegerAttribute::new(i64_type, tag).into(),
                ),
            ],
        )
    }

    fn insert(&self, op: melior::ir::Operation<'c>) -> OperationRef<'c, 'a> {
        insert_before(self.terminator, op)
    }

    /// Inserts `op`, of one result, and returns that result.
    fn insert_value(&self, op: melior::ir::Operation<'c>) -> Value<'c, 'a> {
        self.insert(op).result(0).expect("one result").into()
    }

    /// Data argument `index`'s slice of `microbatch`.
    fn slice(&mut self, step: &Step<'c, 'a>, index: usize, microbatch: usize) -> Result<Value<'c, 'a>, Located<'c>> {
        if let Some(&slice) = self.slices.get(&(index, microbatch)) {
            return Ok(slice);
        }
        let whole = self.arguments[index];
        let dim = step.data_dims[index].expect("a data argument");
        let mut sizes = static_tensor_shape(whole.r#type()).expect("a static tensor");
        sizes[dim] /= step.microbatches as i64;
        let mut offsets = vec![0; sizes.len()];
        offsets[dim] = sizes[dim] * microbatch as i64;
        let context = context_of(&self.terminator);
        let location = step.function.argument_location(index);
        let op = build_op(
            DistOp::Slice.name(),
            location,
            &[whole],
            &[tensor_type(&sizes, element_type(whole.r#type()))],
            &[
                (
                    Identifier::new(context, attr::OFFSETS),
                    DenseI64ArrayAttribute::new(context, &offsets).into(),
                ),
                (
                    Identifier::new(context, attr::SIZES),
                    DenseI64ArrayAttribute::new(context, &sizes).into(),
                ),
            ],
        )?;
        let slice = self.insert_value(op);
        self.slices.insert((index, microbatch), slice);
        Ok(slice)
    }

    /// What `value`, read by an op of `microbatch`, is in that microbatch.
    fn resolve(
        &mut self,
        step: &Step<'c, 'a>,
        value: Value<'c, 'a>,
        microbatch: usize,
    ) -> Result<Value<'c, 'a>, Located<'c>> {
        if let Some(argument) = block_argument_of(value) {
            let index = argument.argument_number();
            if self.arguments.get(index) == Some(&value) && step.data_dims[index].is_some() {
                return self.slice(step, index, microbatch);
            }
        }
        if let Some(&copy) = self
            .copies
            .get(&key(value))
            .and_then(|copies| copies[microbatch].as_ref())
        {
            return Ok(copy);
        }
        // A microbatch's value of another stage: received over its boundary.
        if let (Some(stage), Some(placement)) = (self.stage, &step.placement)
            && let Some(result) = op_result(value)
            && let Some(i) = step.body.position(&result.owner())
            && step.classes[i] == Class::Each
            && placement.stage[i] != stage
        {
            let channel = Channel::Microbatch(i, result.result_number());
            let location = step.body.ops[i].location();
            let received = self.receive(step, channel, microbatch, placement.stage[i], value.r#type(), location)?;
            self.copies
                .entry(key(value))
                .or_insert_with(|| vec![None; step.microbatches])[microbatch] = Some(received);
            return Ok(received);
        }
        if let Some(result) = op_result(value)
            && let Some(i) = step.body.position(&result.owner())
            && step.classes[i] == Class::Each
        {
            return Err(Located::new(
                step.body.ops[i].location(),
                "internal error: a microbatch's value is read before its part of the work has run",
            ));
        }
        Ok(value)
    }

    /// `job`'s work for `microbatch`: a call of its function on the
    /// microbatch's values, then its results' transfers and part in the
    /// sums.
    pub(super) fn emit(
        &mut self,
        step: &Step<'c, 'a>,
        job: &Job<'c, 'a>,
        phase: i64,
        microbatch: usize,
    ) -> Result<(), Located<'c>> {
        self.mark(phase, microbatch, job.location)?;
        let mut arguments = Vec::with_capacity(job.inputs.len());
        for &value in &job.inputs {
            arguments.push(self.resolve(step, value, microbatch)?);
        }
        let context = context_of(&self.terminator);
        let types: Vec<Type<'c>> = job.outputs.iter().map(|(_, _, v)| v.r#type()).collect();
        let callee = FlatSymbolRefAttribute::new(context, &job.callee);
        let call = self.insert(func::call(context, callee, &arguments, &types, job.location));
        // One function for every microbatch: inlined, it would be M.
        set_attribute(call, "no_inline", Attribute::unit(context));
        for (&(index, r, old), new) in job.outputs.iter().zip(call.results()) {
            let new: Value<'c, 'a> = new.into();
            self.send(step, Channel::Microbatch(index, r), microbatch, new, job.location)?;
            self.copies
                .entry(key(old))
                .or_insert_with(|| vec![None; step.microbatches])[microbatch] = Some(new);
            for &(sink, kind) in step.sinks.get(&key(old)).into_iter().flatten() {
                self.add(sink, kind, new, microbatch, job.location)?;
            }
        }
        Ok(())
    }

    /// Adds `microbatch`'s `value` to `sink`.
    fn add(
        &mut self,
        sink: Sink,
        kind: ReductionKind,
        value: Value<'c, 'a>,
        microbatch: usize,
        location: Location<'c>,
    ) -> Result<(), Located<'c>> {
        if let Sink::ConcatResult { .. } = sink {
            let pieces = self.pieces.entry(sink).or_insert_with(|| vec![None; self.microbatches]);
            pieces[microbatch] = Some(value);
            return Ok(());
        }
        let sum = match self.sums.remove(&sink) {
            None => value,
            Some(sum) => self.combine(kind, sum, value, location)?,
        };
        self.sums.insert(sink, sum);
        Ok(())
    }

    /// `a` and `b` combined as `kind` combines them.
    fn combine(
        &self,
        kind: ReductionKind,
        a: Value<'c, 'a>,
        b: Value<'c, 'a>,
        location: Location<'c>,
    ) -> Result<Value<'c, 'a>, Located<'c>> {
        let name = match kind {
            ReductionKind::Sum | ReductionKind::Avg => DistOp::Add.name(),
            ReductionKind::Max => DistOp::Maximum.name(),
            ReductionKind::Min => DistOp::Minimum.name(),
        };
        let op = build_op(name, location, &[a, b], &[a.r#type()], &[])?;
        Ok(self.insert_value(op))
    }

    /// The sum of `sink` over the microbatches: of its per-microbatch
    /// copies, or, for a value every microbatch holds alike, of that value
    /// `microbatches` times; an average divided by their count.
    fn total(
        &mut self,
        step: &Step<'c, 'a>,
        sink: Sink,
        kind: ReductionKind,
        value: Value<'c, 'a>,
        location: Location<'c>,
    ) -> Result<Value<'c, 'a>, Located<'c>> {
        let sum = match self.sums.remove(&sink) {
            Some(sum) => sum,
            None if step.summed.contains(&key(value)) || self.received_sums.contains(&key(value)) => value,
            None if matches!(kind, ReductionKind::Sum | ReductionKind::Avg) => {
                let mut sum = value;
                for _ in 1..step.microbatches {
                    sum = self.combine(kind, sum, value, location)?;
                }
                sum
            }
            None => value,
        };
        if kind != ReductionKind::Avg || step.microbatches == 1 {
            return Ok(sum);
        }
        let context = context_of(&self.terminator);
        let factor = FloatAttribute::new(context, Type::float64(context), 1.0 / step.microbatches as f64);
        let op = build_op(
            DistOp::Scale.name(),
            location,
            &[sum],
            &[sum.r#type()],
            &[(Identifier::new(context, attr::FACTOR), factor.into())],
        )?;
        Ok(self.insert_value(op))
    }

    /// The ops that run once after the microbatches, the reductions over
    /// the axis now over their other axes; the results; the microbatches'
    /// original ops erased.
    pub(super) fn finish(mut self, step: &Step<'c, 'a>) -> Result<(), Located<'c>> {
        self.mark(-1, 0, self.terminator.location())?;
        self.send_sums(step)?;
        let mut erased: FxHashSet<usize> = FxHashSet::default();
        for (i, op) in step.body.ops.iter().enumerate() {
            if step.classes[i] != Class::After || erased.contains(&i) || !self.runs_here(step, i) {
                continue;
            }
            self.receive_operands(step, i)?;
            let results: Vec<Value<'c, 'a>> = if step.pushed[i] {
                self.sum_operands(step, i, ReductionKind::Sum)?;
                op.results().map(Into::into).collect()
            } else if axis_names(op).contains(&step.axis) {
                self.finish_reduction(step, i, &mut erased)?
            } else {
                op.results().map(Into::into).collect()
            };
            if !erased.contains(&i) {
                move_before(*op, self.terminator);
            }
            for (r, value) in results.into_iter().enumerate() {
                self.send(step, Channel::Once(i, r), 0, value, op.location())?;
            }
        }
        self.finish_results(step)?;
        // Another stage's work after the microbatches goes first: it may
        // read this stage's microbatches' values.
        for i in (0..step.body.ops.len()).rev() {
            if step.classes[i] == Class::After && !erased.contains(&i) && !self.runs_here(step, i) {
                // SAFETY: what reads it is another stage's work after the
                // microbatches (erased first, in reverse order) or a
                // result (replaced by zeros); no handle to it is used
                // afterwards.
                #[allow(unsafe_code)]
                unsafe {
                    erase(step.body.ops[i])
                };
            }
        }
        for i in (0..step.body.ops.len()).rev() {
            if step.classes[i] == Class::Each {
                // SAFETY: every use of a microbatch's original op is another
                // such op (erased first, in reverse order), a reduction's
                // operand or a result (both replaced); no handle to it is
                // used afterwards.
                #[allow(unsafe_code)]
                unsafe {
                    erase(step.body.ops[i])
                };
            }
        }
        if self.stage.is_some() {
            // What reads no data and no op of this stage reads.
            for i in (0..step.body.ops.len()).rev() {
                let op = step.body.ops[i];
                if step.classes[i] == Class::Before && is_memory_effect_free(&op) && op.results().all(|r| !has_uses(r))
                {
                    // SAFETY: it has no uses, and no handle to it is used
                    // afterwards.
                    #[allow(unsafe_code)]
                    unsafe {
                        erase(op)
                    };
                }
            }
        }
        Ok(())
    }

    /// Whether op `index`, which runs once, runs on this body's stage.
    fn runs_here(&self, step: &Step<'c, 'a>, index: usize) -> bool {
        match (self.stage, &step.placement) {
            (Some(stage), Some(placement)) => placement.stage[index] == stage,
            _ => true,
        }
    }

    /// Sends the sums over the microbatches that another stage's work
    /// reads, before this stage waits for anything after the microbatches.
    fn send_sums(&mut self, step: &Step<'c, 'a>) -> Result<(), Located<'c>> {
        let (Some(stage), Some(placement)) = (self.stage, &step.placement) else {
            return Ok(());
        };
        let mut totals: Vec<(i64, Sink)> = placement
            .channels
            .iter()
            .filter_map(|(channel, (tag, _))| match channel {
                Channel::Total(sink) => Some((*tag, *sink)),
                _ => None,
            })
            .collect();
        totals.sort_unstable_by_key(|(tag, _)| *tag);
        for (_, sink) in totals {
            let Sink::Reduce { op, operand } = sink else { continue };
            let value = step.body.ops[op].operand_at(operand).expect("the sink's operand");
            let producer = op_result(value).and_then(|r| step.body.position(&r.owner()));
            if producer.map(|p| placement.stage[p]) != Some(stage) {
                continue;
            }
            let location = step.body.ops[op].location();
            let sum = self
                .sums
                .remove(&sink)
                .ok_or_else(|| Located::new(location, "internal error: a sum over the microbatches is missing"))?;
            self.send(step, Channel::Total(sink), 0, sum, location)?;
        }
        Ok(())
    }

    /// The operands of op `index` that another stage computes: the sums
    /// over the microbatches its sinks read, and the values computed after
    /// them.
    fn receive_operands(&mut self, step: &Step<'c, 'a>, index: usize) -> Result<(), Located<'c>> {
        let (Some(stage), Some(placement)) = (self.stage, &step.placement) else {
            return Ok(());
        };
        let op = step.body.ops[index];
        let operands: Vec<Value<'c, 'a>> = op.operands().collect();
        for (operand, value) in operands.into_iter().enumerate() {
            let Some(result) = op_result(value) else { continue };
            let Some(p) = step.body.position(&result.owner()) else {
                continue;
            };
            if placement.stage[p] == stage || step.classes[p] == Class::Before {
                continue;
            }
            let from = placement.stage[p];
            if step.classes[p] == Class::Each {
                let sink = Sink::Reduce { op: index, operand };
                let sum = self.receive(step, Channel::Total(sink), 0, from, value.r#type(), op.location())?;
                self.sums.insert(sink, sum);
            } else {
                let channel = Channel::Once(p, result.result_number());
                let received = self.receive(step, channel, 0, from, value.r#type(), op.location())?;
                if step.pushed[p] || step.summed.contains(&key(value)) {
                    self.received_sums.insert(key(received));
                }
                set_operand(op, operand, received);
            }
        }
        Ok(())
    }

    /// The all-reduce `index` over the axis: its operands their totals over
    /// the microbatches, its axes the others; gone with no other axis. What
    /// its results are now.
    fn finish_reduction(
        &mut self,
        step: &Step<'c, 'a>,
        index: usize,
        erased: &mut FxHashSet<usize>,
    ) -> Result<Vec<Value<'c, 'a>>, Located<'c>> {
        let op = step.body.ops[index];
        let kind = kind_of(&op).ok_or_else(|| Located::at(&op, "an all-reduce without a reduction kind"))?;
        let totals = self.sum_operands(step, index, kind)?;
        let axes = without(&axis_names(&op), &step.axis);
        if !axes.is_empty() {
            let context = context_of(&op);
            let list: Vec<Attribute<'c>> = axes.iter().map(|a| StringAttribute::new(context, a).into()).collect();
            set_attribute(op, attr::AXES, ArrayAttribute::new(context, &list).into());
            return Ok(op.results().map(Into::into).collect());
        }
        // Over the microbatch axis alone: the totals are the results (of a
        // start, its waits' results).
        if op_name(&op) == DistOp::AllReduceStart.name() {
            for wait in op.result(0).map(users).unwrap_or_default() {
                for (result, &total) in wait.results().zip(&totals) {
                    replace_all_uses(result, total);
                }
                if let Some(w) = step.body.position(&wait) {
                    erased.insert(w);
                    for (r, &total) in totals.iter().enumerate() {
                        self.send(step, Channel::Once(w, r), 0, total, wait.location())?;
                    }
                }
                // SAFETY: its results' uses were replaced; the pass skips
                // erased ops and holds no other handle to it.
                #[allow(unsafe_code)]
                unsafe {
                    erase(wait)
                };
            }
        } else {
            for (result, &total) in op.results().zip(&totals) {
                replace_all_uses(result, total);
            }
        }
        erased.insert(index);
        // SAFETY: its results' uses were replaced (a start's only users are
        // its waits, erased above).
        #[allow(unsafe_code)]
        unsafe {
            erase(op)
        };
        Ok(totals)
    }

    /// Op `index` reads its operands' totals over the microbatches
    /// (`kind`), which it returns.
    fn sum_operands(
        &mut self,
        step: &Step<'c, 'a>,
        index: usize,
        kind: ReductionKind,
    ) -> Result<Vec<Value<'c, 'a>>, Located<'c>> {
        let op = step.body.ops[index];
        let operands: Vec<Value<'c, 'a>> = op.operands().collect();
        let mut totals = Vec::new();
        for (operand, value) in operands.into_iter().enumerate() {
            let total = self.total(step, Sink::Reduce { op: index, operand }, kind, value, op.location())?;
            set_operand(op, operand, total);
            totals.push(total);
        }
        Ok(totals)
    }

    /// Each result computed per microbatch: their sum or concatenation;
    /// the function's result types and layouts without the axis.
    fn finish_results(&mut self, step: &Step<'c, 'a>) -> Result<(), Located<'c>> {
        let terminator = self.terminator;
        let location = terminator.location();
        let mut types = step.function.result_types();
        let mut layouts: Vec<Option<Attribute<'c>>> = vec![None; types.len()];
        let operands: Vec<Value<'c, 'a>> = terminator.operands().collect();
        for (index, value) in operands.into_iter().enumerate() {
            let sink = step.sinks.get(&key(value)).and_then(|sinks| {
                sinks.iter().copied().find(
                    |(s, _)| matches!(s, Sink::SumResult { index: i } | Sink::ConcatResult { index: i, .. } if *i == index),
                )
            });
            // The stage that computes the result, on a step with stages.
            let home = step.placement.as_ref().and_then(|p| p.results[index]);
            if sink.is_none() && home.is_none() {
                continue;
            }
            let new = match (sink, home) {
                (_, Some(home)) if Some(home) != self.stage => {
                    let ty = match sink {
                        Some((Sink::ConcatResult { dim, .. }, _)) => widened(value.r#type(), dim, step.microbatches)
                            .ok_or_else(|| {
                                Located::new(location, "a result split over microbatches is a static tensor")
                            })?,
                        _ => value.r#type(),
                    };
                    self.zeros(ty, location)?
                }
                // A data argument returned as it is: all of it.
                (Some((Sink::ConcatResult { .. }, _)), _) if self.arguments.contains(&value) => value,
                (Some((sink @ Sink::ConcatResult { dim, .. }, _)), _) => self.concat(step, sink, dim, location)?,
                (Some((sink, kind)), _) => self.total(step, sink, kind, value, location)?,
                (None, _) => value,
            };
            set_operand(terminator, index, new);
            types[index] = new.r#type();
            let mut layout = step
                .function
                .result_attribute(index, attr::LOCAL)
                .and_then(sharding_of)
                .ok_or_else(|| Located::new(location, format!("result #{index} has no layout (dist.local)")))?;
            for dim in &mut layout.dims {
                *dim = without(dim, &step.axis);
            }
            if let Some(partial) = &mut layout.partial {
                partial.axes = without(&partial.axes, &step.axis);
            }
            if layout.partial.as_ref().is_some_and(|p| p.axes.is_empty()) {
                layout.partial = None;
            }
            // One stage computes it, the others return zeros: its sum over
            // the stage axis.
            if let (Some(_), Some(placement)) = (home, &step.placement) {
                let partial = layout.partial.get_or_insert(Partial {
                    axes: Vec::new(),
                    kind: ReductionKind::Sum,
                });
                if partial.kind != ReductionKind::Sum {
                    return Err(Located::new(
                        location,
                        format!(
                            "result #{index} is partial ({}) and computed on one stage",
                            partial.kind.as_str()
                        ),
                    ));
                }
                partial.axes.push(placement.axis.clone());
            }
            layouts[index] = Some(layout_attribute(location, &layout)?);
        }
        step.function.set_type(&step.function.argument_types(), &types);
        step.function.set_result_attributes(attr::LOCAL, &layouts);
        Ok(())
    }

    /// A tensor of type `ty` full of zeros.
    fn zeros(&self, ty: Type<'c>, location: Location<'c>) -> Result<Value<'c, 'a>, Located<'c>> {
        let context = context_of(&self.terminator);
        let value = splat_attribute(context, ty, 0.0);
        let op = build_op(
            "arith.constant",
            location,
            &[],
            &[ty],
            &[(Identifier::new(context, "value"), value)],
        )?;
        Ok(self.insert_value(op))
    }

    /// The microbatches' pieces of a result, concatenated along `dim`.
    fn concat(
        &mut self,
        step: &Step<'c, 'a>,
        sink: Sink,
        dim: usize,
        location: Location<'c>,
    ) -> Result<Value<'c, 'a>, Located<'c>> {
        let pieces: Vec<Value<'c, 'a>> = self
            .pieces
            .remove(&sink)
            .unwrap_or_default()
            .into_iter()
            .take(step.microbatches)
            .collect::<Option<_>>()
            .filter(|p: &Vec<_>| p.len() == step.microbatches)
            .ok_or_else(|| Located::new(location, "internal error: a microbatch's piece of a result is missing"))?;
        let whole = widened(pieces[0].r#type(), dim, step.microbatches)
            .ok_or_else(|| Located::new(location, "a result split over microbatches is a static tensor"))?;
        let context = context_of(&self.terminator);
        let op = build_op(
            DistOp::Concat.name(),
            location,
            &pieces,
            &[whole],
            &[(
                Identifier::new(context, attr::DIM),
                IntegerAttribute::new(IntegerType::new(context, 64).into(), dim as i64).into(),
            )],
        )?;
        Ok(self.insert_value(op))
    }
}

/// `ty` with dim `dim` `times` as long; `None` unless a static tensor.
fn widened(ty: Type<'_>, dim: usize, times: usize) -> Option<Type<'_>> {
    let mut shape = static_tensor_shape(ty)?;
    shape[dim] *= times as i64;
    Some(tensor_type(&shape, element_type(ty)))
}
