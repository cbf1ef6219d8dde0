//! The reductions over some dims (kept as size 1 with `keepdim`):
//! `dist.reduce_sum`, `dist.reduce_mean`, `dist.reduce_max`,
//! `dist.reduce_min`, and their gradients. A reduced dim split over a mesh
//! axis leaves the result partial there, of the reduction's kind. And the
//! running sum along a dim, `dist.cumsum`, its own gradient run the other
//! way.

use super::{Attr, GradRule, Grads, Localize, OpSpec, Read, scale_after};
use crate::vocabulary::linalg::build::{Body, Builder, Ix, Lowered};
use crate::vocabulary::linalg::common::{all, operand, reduce, reduced_dims, shape};
use crate::vocabulary::rules::{
    Dims, Linearity, OpDesc, Rule, RuleBuilder, RuleError, dim_index, expect_arity, indexed, sum_each,
};
use dist_dialect::ir::{OperationExt, element_type, i64_array_attribute, integer_attribute};
use dist_dialect::ops::attr;
use dist_dialect::{DistOp, ReductionKind};
use melior::ir::operation::OperationLike;
use melior::ir::r#type::IntegerType;
use melior::ir::{OperationRef, Value, ValueLike};

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Reduce {
    Sum,
    Mean,
    Max,
    Min,
}

/// The gradient of a sum or a mean: `dout` broadcast back over the reduced
/// dims (divided by their count for the mean).
pub struct ReduceGrad(Reduce);

/// The gradient op of a maximum or a minimum, either: `dout` where `x`
/// equals the reduced value. Their gradient rule reads
/// [`Read::DoutPerTie`], so that tied elements share `dout`.
pub struct ReduceChoiceGrad;

pub static REDUCE_SUM: Reduce = Reduce::Sum;
pub static REDUCE_MEAN: Reduce = Reduce::Mean;
pub static REDUCE_MAX: Reduce = Reduce::Max;
pub static REDUCE_MIN: Reduce = Reduce::Min;
pub static REDUCE_SUM_GRAD: ReduceGrad = ReduceGrad(Reduce::Sum);
pub static REDUCE_MEAN_GRAD: ReduceGrad = ReduceGrad(Reduce::Mean);
pub static REDUCE_CHOICE_GRAD: ReduceChoiceGrad = ReduceChoiceGrad;
pub static CUMSUM: Cumsum = Cumsum;

/// The running sum along a dim (`dist.cumsum`).
pub struct Cumsum;

/// The map of the reduced value in the loops of `x` (rank `rank`): the
/// reduced dims dropped, or read at 0 with `keep`.
fn reduced_map(rank: usize, dims: &[usize], keep: bool) -> Vec<Ix> {
    (0..rank)
        .filter_map(|d| match (dims.contains(&d), keep) {
            (false, _) => Some(Ix::D(d)),
            (true, true) => Some(Ix::Zero),
            (true, false) => None,
        })
        .collect()
}

/// The factors of `x` and of the reduced value: the reduced dims dropped,
/// or kept as size-1 dims of no factor.
fn reduce_factors(b: &mut RuleBuilder, desc: &OpDesc) -> Result<(Dims, Dims), RuleError> {
    let rank = desc.operands[0].len();
    let x = b.dims(rank);
    let mut reduced = vec![false; rank];
    for &d in &desc.attrs.dims {
        reduced[dim_index(desc, d, rank, "reduced dim")?] = true;
    }
    let out = x
        .iter()
        .zip(&reduced)
        .filter_map(|(&f, &r)| match (r, desc.attrs.keepdim) {
            (false, _) => Some(f),
            (true, true) => Some(None),
            (true, false) => None,
        })
        .collect();
    Ok((x, out))
}

impl OpSpec for Reduce {
    fn rule(&self, desc: &OpDesc) -> Result<Rule, RuleError> {
        expect_arity(desc, 1, 1)?;
        let mut b = RuleBuilder::default();
        let (x, out) = reduce_factors(&mut b, desc)?;
        let (kind, linearity) = match self {
            Reduce::Sum | Reduce::Mean => {
                let linear = Linearity::linear_in(&[0]);
                let kind = if *self == Reduce::Sum {
                    ReductionKind::Sum
                } else {
                    ReductionKind::Avg
                };
                (kind, linear)
            }
            Reduce::Max => (ReductionKind::Max, Linearity::None),
            Reduce::Min => (ReductionKind::Min, Linearity::None),
        };
        Ok(b.finish(vec![x], vec![out], vec![kind], linearity))
    }

    fn gradient(&self) -> Option<GradRule> {
        const X_DOUT: &[Read] = &[Read::Operand(0), Read::Dout];
        const X_OUT_DOUT: &[Read] = &[Read::Operand(0), Read::Result(0), Read::DoutPerTie];
        let (op, reads) = match self {
            Reduce::Sum => (DistOp::ReduceSumGrad, X_DOUT),
            Reduce::Mean => (DistOp::ReduceMeanGrad, X_DOUT),
            Reduce::Max => (DistOp::ReduceMaxGrad, X_OUT_DOUT),
            Reduce::Min => (DistOp::ReduceMinGrad, X_OUT_DOUT),
        };
        Some(GradRule {
            op,
            reads,
            grads: Grads::Of(&[0]),
            attributes: &[Attr::Copy(attr::DIMS), Attr::Copy(attr::KEEPDIM)],
        })
    }

    fn lower<'c, 'a>(&self, b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        let x = operand(op, 0);
        let rank = shape(x).len();
        let dims = reduced_dims(op, rank);
        let keep = op.has_attribute(attr::KEEPDIM);
        let element = element_type(x.r#type());
        let (start, combine) = match IntegerType::try_from(element).map(|t| t.width()) {
            // Booleans compare unsigned (max is or, min is and), other
            // integers signed; sums wrap.
            Ok(width) => {
                let (low, high) = if width == 1 {
                    (0.0, 1.0)
                } else {
                    (-(2f64.powi(width as i32 - 1)), 2f64.powi(width as i32 - 1) - 1.0)
                };
                match (self, width) {
                    (Reduce::Sum, _) => (0.0, "arith.addi"),
                    (Reduce::Max, 1) => (low, "arith.maxui"),
                    (Reduce::Min, 1) => (high, "arith.minui"),
                    (Reduce::Max, _) => (low, "arith.maxsi"),
                    (Reduce::Min, _) => (high, "arith.minsi"),
                    (Reduce::Mean, _) => unreachable!("the verifier keeps dist.reduce_mean to floats"),
                }
            }
            Err(_) => match self {
                Reduce::Sum | Reduce::Mean => return Ok(vec![reduce(b, x, &dims, keep, *self == Reduce::Mean)?]),
                Reduce::Max => (f64::NEG_INFINITY, "arith.maximumf"),
                Reduce::Min => (f64::INFINITY, "arith.minimumf"),
            },
        };
        let out = op.result_at(0).map(|r| shape(r.into())).unwrap_or_default();
        let init = b.splat(&out, element, start)?;
        let map = reduced_map(rank, &dims, keep);
        Ok(vec![b.generic(
            rank,
            &dims,
            &[(x, all(rank))],
            (init, map),
            |s, a| s.binary(combine, a[0], a[1]),
        )?])
    }
}

impl OpSpec for ReduceGrad {
    fn rule(&self, desc: &OpDesc) -> Result<Rule, RuleError> {
        expect_arity(desc, 2, 1)?;
        let mut b = RuleBuilder::default();
        let (x, out) = reduce_factors(&mut b, desc)?;
        let Rule::Factor(mut rule) = b.finish(vec![x.clone(), out], vec![x], sum_each(1), Linearity::None) else {
            unreachable!("a factor rule")
        };
        // x gives dx its shape alone.
        rule.shape_only = vec![0];
        Ok(Rule::Factor(rule))
    }

    fn lower<'c, 'a>(&self, b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        let x = operand(op, 0);
        let xs = shape(x);
        let rank = xs.len();
        let dims = reduced_dims(op, rank);
        let count: i64 = dims.iter().map(|&d| xs[d]).product();
        let factor = match self.0 {
            Reduce::Mean => 1.0 / count as f64,
            _ => 1.0,
        };
        let dout_map = reduced_map(rank, &dims, op.has_attribute(attr::KEEPDIM));
        let init = b.empty(&xs, element_type(x.r#type()))?;
        Ok(vec![b.generic(
            rank,
            &[],
            &[(operand(op, 1), dout_map)],
            (init, all(rank)),
            |s, a| s.times(a[0], factor),
        )?])
    }

    /// The local gradient of a mean divides by the local count (padding
    /// included, over an uneven split): a `dist.scale` by the local count
    /// over the global one makes it the global mean's.
    fn localize<'c, 'a>(&self, op: OperationRef<'c, 'a>, local: &mut dyn Localize<'c, 'a>) -> Lowered<'c, ()> {
        if self.0 != Reduce::Mean {
            return Ok(());
        }
        // dx has the layout x is read in (x only gives the shape).
        let dx: Value<'c, 'a> = op.result_at(0).expect("reduce_mean_grad has dx").into();
        let rank = shape(dx).len() as i64;
        let dims: Vec<usize> = i64_array_attribute(&op, attr::DIMS)
            .unwrap_or_default()
            .iter()
            .map(|&d| d.rem_euclid(rank) as usize)
            .collect();
        let share = local.share(dx, &dims);
        if share != 1.0 {
            scale_after(op, dx, share, local.context());
        }
        Ok(())
    }
}

impl OpSpec for ReduceChoiceGrad {
    /// x, out, dout -> dx: an elementwise comparison with the (global)
    /// reduced value, so nothing is reduced.
    fn rule(&self, desc: &OpDesc) -> Result<Rule, RuleError> {
        expect_arity(desc, 3, 1)?;
        let mut b = RuleBuilder::default();
        let (x, out) = reduce_factors(&mut b, desc)?;
        Ok(b.finish(vec![x.clone(), out.clone(), out], vec![x], sum_each(1), Linearity::None))
    }

    fn lower<'c, 'a>(&self, b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        let x = operand(op, 0);
        let xs = shape(x);
        let rank = xs.len();
        let map = reduced_map(rank, &reduced_dims(op, rank), op.has_attribute(attr::KEEPDIM));
        let init = b.empty(&xs, element_type(x.r#type()))?;
        let inputs = [(x, all(rank)), (operand(op, 1), map.clone()), (operand(op, 2), map)];
        Ok(vec![b.generic(rank, &[], &inputs, (init, all(rank)), |s, a| {
            // arith::CmpFPredicate::OEQ
            let chosen = s.cmpf(1, a[0], a[1])?;
            let zero = s.float(0.0)?;
            s.select(chosen, a[2], zero)
        })?])
    }
}

impl OpSpec for Cumsum {
    /// Elementwise but along `dim`, which is whole on each device; linear,
    /// so a partial operand passes through.
    fn rule(&self, desc: &OpDesc) -> Result<Rule, RuleError> {
        expect_arity(desc, 1, 1)?;
        let rank = desc.operands[0].len();
        let dim = dim_index(desc, desc.attrs.dim, rank, "summed dim")?;
        let mut b = RuleBuilder::default();
        let x: Dims = (0..rank).map(|d| Some(b.factor(indexed('d', d), d != dim))).collect();
        Ok(b.finish(vec![x.clone()], vec![x], sum_each(1), Linearity::linear_in(&[0])))
    }

    fn gradient(&self) -> Option<GradRule> {
        Some(GradRule {
            op: DistOp::Cumsum,
            reads: &[Read::Dout],
            grads: Grads::Of(&[0]),
            attributes: &[Attr::Copy(attr::DIM), Attr::Toggled(attr::REVERSE)],
        })
    }

    /// `out[i] = sum over k of (k <= i ? x[k] : 0)` along the dim (`k >= i`
    /// reversed): a reduction over a second index of the dim.
    fn lower<'c, 'a>(&self, b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        let x = operand(op, 0);
        let xs = shape(x);
        let r = xs.len();
        let dim = integer_attribute(&op, attr::DIM).unwrap_or(0) as usize;
        // sle, sge of indices
        let predicate = if op.has_attribute(attr::REVERSE) { 5 } else { 3 };
        let element = element_type(x.r#type());
        let mut read: Vec<Ix> = all(r);
        read[dim] = Ix::D(r);
        let inputs = [(x, read)];
        let counted = |s: &mut Body<'c, '_>| {
            let (k, i) = (s.index(r)?, s.index(dim)?);
            s.cmpi(predicate, k, i)
        };
        if IntegerType::try_from(element).is_ok() {
            let init = b.splat(&xs, element, 0.0)?;
            return Ok(vec![b.generic(r + 1, &[r], &inputs, (init, all(r)), |s, a| {
                let zero = s.integer(element, 0)?;
                let held = counted(s)?;
                let term = s.select(held, a[0], zero)?;
                s.binary("arith.addi", term, a[1])
            })?]);
        }
        Ok(vec![b.sum(
            r + 1,
            &[r],
            &inputs,
            (&xs, all(r)),
            element,
            1.0,
            |s, a| {
                let zero = s.float(0.0)?;
                let held = counted(s)?;
                s.select(held, a[0], zero)
            },
        )?])
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{desc, factor_rule};
    use crate::vocabulary::rules::OpAttrs;
    use dist_dialect::{DistOp, ReductionKind};

    #[test]
    fn reductions_use_their_kind_and_keepdim() {
        let attrs = |keepdim| OpAttrs {
            dims: vec![1],
            keepdim,
            ..OpAttrs::default()
        };
        let mean = factor_rule(&desc(DistOp::ReduceMean.name(), &[&[8, 32]], &[&[8]], attrs(false)));
        assert_eq!(mean.einsum(), "d0,d1 -> d0");
        assert_eq!(mean.reduction, [ReductionKind::Avg]);
        let sum = factor_rule(&desc(DistOp::ReduceSum.name(), &[&[8, 32]], &[&[8, 1]], attrs(true)));
        assert_eq!(sum.einsum(), "d0,d1 -> d0,1");
        assert_eq!(sum.reduction, [ReductionKind::Sum]);
        let max = factor_rule(&desc(DistOp::ReduceMax.name(), &[&[8, 32]], &[&[8]], attrs(false)));
        assert_eq!((max.reduction[0], max.is_reduced(1, 0)), (ReductionKind::Max, true));
        let grad = factor_rule(&desc(
            DistOp::ReduceMaxGrad.name(),
            &[&[8, 32], &[8], &[8]],
            &[&[8, 32]],
            attrs(false),
        ));
        assert_eq!(grad.einsum(), "d0,d1 ; d0 ; d0 -> d0,d1");
    }
}
