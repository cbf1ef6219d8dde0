//! The losses over a vocabulary and the indexing they need:
//! `dist.take_along` (one entry of the last dim per position) and its
//! gradient, `dist.cross_entropy` and its gradient.
//!
//! The cross-entropy lowers fused on one device. Split over the
//! vocabulary, no device may hold a whole row: [`OpSpec::decompose`]
//! expands it into the row maximum, the sum of exponentials and the picked
//! logit, reductions that the split leaves partial (max, then sum), so that
//! resolution places Megatron's vocab-parallel cross-entropy.

use super::embedding::{offset_along, shard_entry};
use super::{Attr, Compose, GradRule, Grads, Localize, OpSpec, Read, scale_after};
use crate::vocabulary::linalg::build::{Body, Builder, Ix, Lowered};
use crate::vocabulary::linalg::common::{all, operand, shape};
use crate::vocabulary::rules::{
    Dims, Linearity, OpDesc, Rule, RuleBuilder, RuleError, expect_arity, indexed, malformed, sum_each,
};
use dist_dialect::DistOp;
use dist_dialect::ir::build::tensor_type;
use dist_dialect::ir::{Located, OperationExt, element_type, integer_attribute};
use dist_dialect::ops::attr;
use dist_dialect::{CompareDirection, ReductionKind};
use melior::ir::attribute::{DenseI64ArrayAttribute, FloatAttribute, StringAttribute};
use melior::ir::operation::OperationLike;
use melior::ir::r#type::IntegerType;
use melior::ir::{Attribute, OperationRef, Type, Value, ValueLike};

pub struct TakeAlong;
pub struct TakeAlongGrad;
pub struct CrossEntropy;
pub struct CrossEntropyGrad;

pub static TAKE_ALONG: TakeAlong = TakeAlong;
pub static TAKE_ALONG_GRAD: TakeAlongGrad = TakeAlongGrad;
pub static CROSS_ENTROPY: CrossEntropy = CrossEntropy;
pub static CROSS_ENTROPY_GRAD: CrossEntropyGrad = CrossEntropyGrad;

/// The factors of a tensor of positions (`positions` dims) and of the one
/// with a vocabulary after them (shardable where `vocab_shards`).
fn position_factors(b: &mut RuleBuilder, positions: usize, vocab_shards: bool) -> (Dims, Dims) {
    counted_position_factors(b, positions, vocab_shards, true)
}

/// As [`position_factors`], the positions shardable where `counted` (a
/// mean over the positions a device holds is a share of the global one
/// only where every position counts: not with `ignore_index`).
fn counted_position_factors(b: &mut RuleBuilder, positions: usize, vocab_shards: bool, counted: bool) -> (Dims, Dims) {
    let at: Dims = (0..positions)
        .map(|d| Some(b.factor(indexed('d', d), counted)))
        .collect();
    let mut rows = at.clone();
    rows.push(Some(b.factor("vocab", vocab_shards)));
    (at, rows)
}

/// The rank of the positions of a tensor indexed along its last dim (a
/// vocabulary, a router's experts): all its dims but the last.
pub(super) fn positions(desc: &OpDesc, operand: usize) -> Result<usize, RuleError> {
    desc.operands[operand]
        .len()
        .checked_sub(1)
        .ok_or_else(|| malformed(desc, "a tensor indexed along its last dim needs rank >= 1".into()))
}

impl OpSpec for TakeAlong {
    /// x, idx -> out: a split vocabulary leaves the picked entries partial
    /// (a sum: only one device holds each). Picking is linear in x, so a
    /// partial x passes through.
    fn rule(&self, desc: &OpDesc) -> Result<Rule, RuleError> {
        expect_arity(desc, 2, 1)?;
        let mut b = RuleBuilder::default();
        let (at, rows) = position_factors(&mut b, positions(desc, 0)?, true);
        Ok(b.finish(
            vec![rows, at.clone()],
            vec![at],
            sum_each(1),
            Linearity::linear_in(&[0]),
        ))
    }

    fn gradient(&self) -> Option<GradRule> {
        Some(GradRule {
            op: DistOp::TakeAlongGrad,
            reads: &[Read::Operand(1), Read::Dout, Read::Operand(2)],
            grads: Grads::Of(&[0]),
            attributes: &[],
        })
    }

    fn lower<'c, 'a>(&self, b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        let (x, idx) = (operand(op, 0), operand(op, 1));
        let offset = op.operand_at(2);
        let xs = shape(x);
        let (r, n) = (xs.len() - 1, xs[xs.len() - 1]);
        let init = b.empty(&xs[..r], element_type(x.r#type()))?;
        Ok(vec![b.generic(r, &[], &[(idx, all(r))], (init, all(r)), |s, a| {
            let (at, held) = shard_entry(s, a[0], offset, n)?;
            let mut indices: Vec<Value> = (0..r).map(|d| s.index(d)).collect::<Lowered<_>>()?;
            indices.push(at);
            let v = s.extract(x, &indices)?;
            let zero = s.float(0.0)?;
            s.select(held, v, zero)
        })?])
    }

    fn localize<'c, 'a>(&self, op: OperationRef<'c, 'a>, local: &mut dyn Localize<'c, 'a>) -> Lowered<'c, ()> {
        let x = operand(op, 0);
        offset_along(op, x, shape(x).len() - 1, local)
    }
}

impl OpSpec for TakeAlongGrad {
    /// idx, dout -> dx: each device writes the entries of its part of the
    /// vocabulary; linear in dout.
    fn rule(&self, desc: &OpDesc) -> Result<Rule, RuleError> {
        expect_arity(desc, 2, 1)?;
        let mut b = RuleBuilder::default();
        let (at, rows) = position_factors(&mut b, desc.operands[0].len(), true);
        // dout broadcasts against idx: aligned at the trailing dims, a
        // stretched size-1 dim of no factor.
        let (idx, dout) = (&desc.operands[0], &desc.operands[1]);
        let lead = idx
            .len()
            .checked_sub(dout.len())
            .ok_or_else(|| malformed(desc, "dout of a higher rank than idx".into()))?;
        let dout_dims = dout
            .iter()
            .enumerate()
            .map(|(d, &size)| if size == idx[lead + d] { at[lead + d] } else { None })
            .collect();
        let linearity = Linearity::linear_in(&[1]);
        Ok(b.finish(vec![at, dout_dims], vec![rows], sum_each(1), linearity))
    }

    fn lower<'c, 'a>(&self, b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        let (idx, dout) = (operand(op, 0), operand(op, 1));
        let offset = op.operand_at(2);
        let out = op.result_at(0).map(|r| shape(r.into())).unwrap_or_default();
        let (r, n) = (out.len() - 1, out[out.len() - 1]);
        let (is, ds) = (shape(idx), shape(dout));
        let lead = is.len() - ds.len();
        let dout_map = ds
            .iter()
            .enumerate()
            .map(|(d, &size)| {
                if size == is[lead + d] {
                    Ix::D(lead + d)
                } else {
                    Ix::Zero
                }
            })
            .collect();
        let init = b.empty(&out, element_type(dout.r#type()))?;
        let inputs = [(idx, all(r)), (dout, dout_map)];
        Ok(vec![b.generic(r + 1, &[], &inputs, (init, all(r + 1)), |s, a| {
            let (at, held) = shard_entry(s, a[0], offset, n)?;
            let v = s.index(r)?;
            let hit = s.cmpi(0, at, v)?; // eq
            let hit = s.and(hit, held)?;
            let zero = s.float(0.0)?;
            s.select(hit, a[1], zero)
        })?])
    }

    fn localize<'c, 'a>(&self, op: OperationRef<'c, 'a>, local: &mut dyn Localize<'c, 'a>) -> Lowered<'c, ()> {
        let dx = op.result_at(0).expect("take_along_grad has dx").into();
        offset_along(op, dx, shape(dx).len() - 1, local)
    }
}

/// `max`, `sum(exp(x - max))` and `log(sum) + max` over the last dim, each
/// per position (rank `r` positions), in a linalg body's terms: the max,
/// then the sum accumulated in f64.
fn log_sum_exp<'c, 'a>(b: &mut Builder<'c, 'a>, x: Value<'c, 'a>) -> Lowered<'c, Value<'c, 'a>> {
    let xs = shape(x);
    let r = xs.len() - 1;
    let element = element_type(x.r#type());
    let at: Vec<Ix> = (0..r).map(Ix::D).collect();
    let init = b.splat(&xs[..r], element, f64::NEG_INFINITY)?;
    let max = b.generic(r + 1, &[r], &[(x, all(r + 1))], (init, at.clone()), |s, a| {
        s.binary("arith.maximumf", a[0], a[1])
    })?;
    let inputs = [(x, all(r + 1)), (max, at.clone())];
    let sum = b.sum(r + 1, &[r], &inputs, (&xs[..r], at.clone()), element, 1.0, |s, a| {
        let d = s.sub(a[0], a[1])?;
        s.unary("math.exp", d)
    })?;
    let init = b.empty(&xs[..r], element)?;
    b.generic(r, &[], &[(sum, all(r)), (max, all(r))], (init, all(r)), |s, a| {
        let l = s.unary("math.log", a[0])?;
        s.add(l, a[1])
    })
}

impl OpSpec for CrossEntropy {
    /// logits, labels -> loss: the mean over positions leaves a split
    /// position dim partial (avg); the vocabulary is whole (split, the op
    /// is first expanded by `dist-decompose`).
    /// With `ignore_index` the positions are whole too: `dist-decompose`
    /// expands the op into sums that a split leaves partial.
    fn rule(&self, desc: &OpDesc) -> Result<Rule, RuleError> {
        expect_arity(desc, 2, 1)?;
        let mut b = RuleBuilder::default();
        let (at, rows) = counted_position_factors(&mut b, positions(desc, 0)?, false, !desc.attrs.ignore_index);
        Ok(b.finish(
            vec![rows, at],
            vec![Vec::new()],
            vec![ReductionKind::Avg],
            Linearity::None,
        ))
    }

    fn gradient(&self) -> Option<GradRule> {
        Some(GradRule {
            op: DistOp::CrossEntropyGrad,
            reads: &[Read::Operand(0), Read::Operand(1), Read::Dout],
            grads: Grads::Of(&[0]),
            attributes: &[Attr::Copy(attr::IGNORE_INDEX)],
        })
    }

    /// Per position `lse - logits[label]`, then their mean.
    fn lower<'c, 'a>(&self, b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        let (x, labels) = (operand(op, 0), operand(op, 1));
        let xs = shape(x);
        let (r, n) = (xs.len() - 1, xs[xs.len() - 1]);
        let element = element_type(x.r#type());
        let lse = log_sum_exp(b, x)?;
        let ignore = integer_attribute(&op, attr::IGNORE_INDEX);
        let count: i64 = xs[..r].iter().product();
        let inputs = [(lse, all(r)), (labels, all(r))];
        let positions: Vec<usize> = (0..r).collect();
        let scale = if ignore.is_some() { 1.0 } else { 1.0 / count as f64 };
        let total = b.sum(r, &positions, &inputs, (&[], Vec::new()), element, scale, |s, a| {
            // A label outside the vocabulary picks 0, as take_along
            // does in the expanded form.
            let (at, held) = shard_entry(s, a[1], None, n)?;
            let mut indices: Vec<Value> = (0..r).map(|d| s.index(d)).collect::<Lowered<_>>()?;
            indices.push(at);
            let logit = s.extract(x, &indices)?;
            let zero = s.float(0.0)?;
            let logit = s.select(held, logit, zero)?;
            let term = s.sub(a[0], logit)?;
            match ignore {
                Some(ignored) => {
                    let counted = counts(s, a[1], ignored)?;
                    s.select(counted, term, zero)
                }
                None => Ok(term),
            }
        })?;
        let Some(ignored) = ignore else {
            return Ok(vec![total]);
        };
        let counted = counted_positions(b, labels, ignored, element)?;
        let init = b.empty(&[], element)?;
        let inputs = [(total, Vec::new()), (counted, Vec::new())];
        Ok(vec![b.generic(0, &[], &inputs, (init, Vec::new()), |s, a| {
            s.div(a[0], a[1])
        })?])
    }

    /// `reduce_mean(log_sum_exp(logits) - take_along(logits, labels))`,
    /// the log-sum-exp kept for the gradient.
    fn decompose<'c, 'a>(
        &self,
        op: OperationRef<'c, 'a>,
        c: &mut dyn Compose<'c, 'a>,
    ) -> Lowered<'c, Option<Vec<Value<'c, 'a>>>> {
        let (x, labels) = (operand(op, 0), operand(op, 1));
        let xs = shape(x);
        let r = xs.len() - 1;
        let element = element_type(x.r#type());
        let lse = composed_log_sum_exp(c, x)?;
        let at_type = tensor_type(&xs[..r], element);
        let lse = one(c.build(DistOp::Reshape, &[lse], &[at_type], &[])?);
        let picked = one(c.build(DistOp::TakeAlong, &[x, labels], &[at_type], &[])?);
        let terms = one(c.build(DistOp::Sub, &[lse, picked], &[at_type], &[])?);
        let dims: Vec<i64> = (0..r as i64).collect();
        let dims: Attribute = DenseI64ArrayAttribute::new(c.context(), &dims).into();
        let scalar = tensor_type(&[], element);
        let Some(ignored) = integer_attribute(&op, attr::IGNORE_INDEX) else {
            return Ok(Some(c.build(
                DistOp::ReduceMean,
                &[terms],
                &[scalar],
                &[(attr::DIMS, dims)],
            )?));
        };
        // Sums over the positions that count and the count of them: a
        // split over positions leaves both partial, reduced before the
        // division.
        let (weights, counted) = composed_counts(c, labels, ignored, element)?;
        let kept = one(c.build(DistOp::Mul, &[terms, weights], &[at_type], &[])?);
        let total = one(c.build(DistOp::ReduceSum, &[kept], &[scalar], &[(attr::DIMS, dims)])?);
        Ok(Some(c.build(DistOp::Div, &[total, counted], &[scalar], &[])?))
    }
}

impl OpSpec for CrossEntropyGrad {
    /// logits, labels, dloss -> dlogits: nothing reduced; the vocabulary
    /// whole, as the forward op's.
    fn rule(&self, desc: &OpDesc) -> Result<Rule, RuleError> {
        expect_arity(desc, 3, 1)?;
        let mut b = RuleBuilder::default();
        let (at, rows) = counted_position_factors(&mut b, positions(desc, 0)?, false, !desc.attrs.ignore_index);
        Ok(b.finish(
            vec![rows.clone(), at, Vec::new()],
            vec![rows],
            sum_each(1),
            Linearity::None,
        ))
    }

    /// `(softmax - onehot) * dloss / N`.
    fn lower<'c, 'a>(&self, b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        let (x, labels, dloss) = (operand(op, 0), operand(op, 1), operand(op, 2));
        let xs = shape(x);
        let r = xs.len() - 1;
        let count: i64 = xs[..r].iter().product();
        let n = xs[r];
        let element = element_type(x.r#type());
        let ignore = integer_attribute(&op, attr::IGNORE_INDEX);
        let lse = log_sum_exp(b, x)?;
        let at: Vec<Ix> = (0..r).map(Ix::D).collect();
        let init = b.empty(&xs, element)?;
        let mut inputs = vec![(x, all(r + 1)), (lse, at.clone()), (labels, at), (dloss, Vec::new())];
        if let Some(ignored) = ignore {
            inputs.push((counted_positions(b, labels, ignored, element)?, Vec::new()));
        }
        Ok(vec![b.generic(r + 1, &[], &inputs, (init, all(r + 1)), |s, a| {
            let d = s.sub(a[0], a[1])?;
            let p = s.unary("math.exp", d)?;
            let (label, held) = shard_entry(s, a[2], None, n)?;
            let v = s.index(r)?;
            let hit = s.cmpi(0, label, v)?; // eq
            let hit = s.and(hit, held)?;
            let one = s.float(1.0)?;
            let zero = s.float(0.0)?;
            let onehot = s.select(hit, one, zero)?;
            let g = s.sub(p, onehot)?;
            let g = s.mul(g, a[3])?;
            match ignore {
                Some(ignored) => {
                    let g = s.div(g, a[4])?;
                    let counted = counts(s, a[2], ignored)?;
                    s.select(counted, g, zero)
                }
                None => s.times(g, 1.0 / count as f64),
            }
        })?])
    }

    /// The local gradient divides by the local count of positions: scale
    /// by it over the global count.
    fn localize<'c, 'a>(&self, op: OperationRef<'c, 'a>, local: &mut dyn Localize<'c, 'a>) -> Lowered<'c, ()> {
        let dx: Value<'c, 'a> = op.result_at(0).expect("cross_entropy_grad has dlogits").into();
        let positions: Vec<usize> = (0..shape(dx).len() - 1).collect();
        let share = local.share(dx, &positions);
        if share != 1.0 && op.has_attribute(attr::IGNORE_INDEX) {
            return Err(Located::new(
                op.location(),
                "a cross_entropy_grad with ignore_index counts its positions: split over them, run \
                 dist-decompose before partitioning",
            ));
        }
        if share != 1.0 {
            scale_after(op, dx, share, local.context());
        }
        Ok(())
    }

    /// `exp(logits - lse) * c - take_along_grad(labels, c)` with
    /// `c = dloss / N`: local to each device's part of the vocabulary, the
    /// log-sum-exp the forward expansion made (or made again).
    fn decompose<'c, 'a>(
        &self,
        op: OperationRef<'c, 'a>,
        c: &mut dyn Compose<'c, 'a>,
    ) -> Lowered<'c, Option<Vec<Value<'c, 'a>>>> {
        let (x, labels, dloss) = (operand(op, 0), operand(op, 1), operand(op, 2));
        let xs = shape(x);
        let r = xs.len() - 1;
        let element = element_type(x.r#type());
        let count: i64 = xs[..r].iter().product();
        let rows = x.r#type();
        let lse = composed_log_sum_exp(c, x)?;
        let shifted = one(c.build(DistOp::Sub, &[x, lse], &[rows], &[])?);
        let probabilities = one(c.build(DistOp::Exp, &[shifted], &[rows], &[])?);
        let scalar = tensor_type(&[], element);
        let each = match integer_attribute(&op, attr::IGNORE_INDEX) {
            // `dloss / count` at the positions that count, 0 elsewhere.
            Some(ignored) => {
                let (weights, counted) = composed_counts(c, labels, ignored, element)?;
                let per = one(c.build(DistOp::Div, &[dloss, counted], &[scalar], &[])?);
                let at = tensor_type(&xs[..r], element);
                let each = one(c.build(DistOp::Mul, &[weights, per], &[at], &[])?);
                let mut column = xs.clone();
                column[r] = 1;
                let column = one(c.build(DistOp::Reshape, &[each], &[tensor_type(&column, element)], &[])?);
                let weighted = one(c.build(DistOp::Mul, &[probabilities, column], &[rows], &[])?);
                let onehot = one(c.build(DistOp::TakeAlongGrad, &[labels, each], &[rows], &[])?);
                return Ok(Some(c.build(DistOp::Sub, &[weighted, onehot], &[rows], &[])?));
            }
            None => {
                let factor = FloatAttribute::new(c.context(), Type::float64(c.context()), 1.0 / count as f64).into();
                one(c.build(DistOp::Scale, &[dloss], &[scalar], &[(attr::FACTOR, factor)])?)
            }
        };
        let weighted = one(c.build(DistOp::Mul, &[probabilities, each], &[rows], &[])?);
        let onehot = one(c.build(DistOp::TakeAlongGrad, &[labels, each], &[rows], &[])?);
        Ok(Some(c.build(DistOp::Sub, &[weighted, onehot], &[rows], &[])?))
    }
}

/// The log-sum-exp of `x` over its last dim as dist ops (`[positions, 1]`),
/// built once per `x` and shared by the cross-entropy and its gradient.
fn composed_log_sum_exp<'c, 'a>(c: &mut dyn Compose<'c, 'a>, x: Value<'c, 'a>) -> Lowered<'c, Value<'c, 'a>> {
    if let Some(lse) = c.shared(x) {
        return Ok(lse);
    }
    let xs = shape(x);
    let r = xs.len() - 1;
    let element = element_type(x.r#type());
    let mut kept = xs.clone();
    kept[r] = 1;
    let kept = tensor_type(&kept, element);
    let context = c.context();
    let last = DenseI64ArrayAttribute::new(context, &[r as i64]).into();
    let keepdim = Attribute::unit(context);
    let reduced = [(attr::DIMS, last), (attr::KEEPDIM, keepdim)];
    let max = one(c.build(DistOp::ReduceMax, &[x], &[kept], &reduced)?);
    let shifted = one(c.build(DistOp::Sub, &[x, max], &[x.r#type()], &[])?);
    let e = one(c.build(DistOp::Exp, &[shifted], &[x.r#type()], &[])?);
    let sum = one(c.build(DistOp::ReduceSum, &[e], &[kept], &reduced)?);
    let log = one(c.build(DistOp::Log, &[sum], &[kept], &[])?);
    let lse = one(c.build(DistOp::Add, &[log, max], &[kept], &[])?);
    c.share(x, lse);
    Ok(lse)
}

/// Whether a position of label `label` counts: `label != ignored` (in a
/// body).
fn counts<'c>(s: &mut Body<'c, '_>, label: Value<'c, '_>, ignored: i64) -> Lowered<'c, Value<'c, 'c>> {
    let ignored = s.integer(label.r#type(), ignored)?;
    s.cmpi(1, label, ignored) // ne
}

/// The number of positions whose label is not `ignored`, as a scalar of
/// `element`.
fn counted_positions<'c, 'a>(
    b: &mut Builder<'c, 'a>,
    labels: Value<'c, 'a>,
    ignored: i64,
    element: Type<'c>,
) -> Lowered<'c, Value<'c, 'a>> {
    let r = shape(labels).len();
    let positions: Vec<usize> = (0..r).collect();
    b.sum(
        r,
        &positions,
        &[(labels, all(r))],
        (&[], Vec::new()),
        element,
        1.0,
        |s, a| {
            let counted = counts(s, a[0], ignored)?;
            let (one, zero) = (s.float(1.0)?, s.float(0.0)?);
            s.select(counted, one, zero)
        },
    )
}

/// As dist ops: 1 at each position whose label is not `ignored` and 0 at
/// the others (`[positions]` of `element`), and their sum; built once per
/// `labels` and shared by the cross-entropy and its gradient.
fn composed_counts<'c, 'a>(
    c: &mut dyn Compose<'c, 'a>,
    labels: Value<'c, 'a>,
    ignored: i64,
    element: Type<'c>,
) -> Lowered<'c, (Value<'c, 'a>, Value<'c, 'a>)> {
    if let Some(weights) = c.shared(labels)
        && let Some(counted) = c.shared(weights)
    {
        return Ok((weights, counted));
    }
    let at = shape(labels);
    let ignored = c.splat(tensor_type(&[], element_type(labels.r#type())), ignored as f64)?;
    let direction = StringAttribute::new(c.context(), CompareDirection::Ne.as_str()).into();
    let bools = tensor_type(&at, IntegerType::new(c.context(), 1).into());
    let counted = one(c.build(
        DistOp::Compare,
        &[labels, ignored],
        &[bools],
        &[(attr::DIRECTION, direction)],
    )?);
    let weights = one(c.build(DistOp::Cast, &[counted], &[tensor_type(&at, element)], &[])?);
    let dims: Vec<i64> = (0..at.len() as i64).collect();
    let dims = DenseI64ArrayAttribute::new(c.context(), &dims).into();
    let total = one(c.build(
        DistOp::ReduceSum,
        &[weights],
        &[tensor_type(&[], element)],
        &[(attr::DIMS, dims)],
    )?);
    c.share(labels, weights);
    c.share(weights, total);
    Ok((weights, total))
}

fn one<'c, 'a>(mut values: Vec<Value<'c, 'a>>) -> Value<'c, 'a> {
    values.pop().expect("one result")
}

#[cfg(test)]
mod tests {
    use super::super::testing::{desc, factor_rule};
    use crate::vocabulary::rules::OpAttrs;
    use dist_dialect::{DistOp, ReductionKind};

    #[test]
    fn a_split_vocabulary_leaves_the_picked_entries_partial() {
        let take = factor_rule(&desc(
            DistOp::TakeAlong.name(),
            &[&[4, 8, 64], &[4, 8]],
            &[&[4, 8]],
            OpAttrs::default(),
        ));
        assert_eq!(take.einsum(), "d0,d1,vocab ; d0,d1 -> d0,d1");
        assert!(take.is_reduced(2, 0) && take.factors[2].shardable);
        let grad = factor_rule(&desc(
            DistOp::TakeAlongGrad.name(),
            &[&[4, 8], &[]],
            &[&[4, 8, 64]],
            OpAttrs::default(),
        ));
        assert_eq!(grad.einsum(), "d0,d1 ; () -> d0,d1,vocab");
    }

    #[test]
    fn the_fused_loss_averages_positions_and_keeps_the_vocabulary_whole() {
        let loss = factor_rule(&desc(
            DistOp::CrossEntropy.name(),
            &[&[4, 8, 64], &[4, 8]],
            &[&[]],
            OpAttrs::default(),
        ));
        assert_eq!(loss.reduction, [ReductionKind::Avg]);
        assert!(loss.is_reduced(0, 0) && !loss.factors[2].shardable);
    }
}
