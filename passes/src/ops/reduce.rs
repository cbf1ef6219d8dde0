//! `dist.reduce_sum` and `dist.reduce_mean` over some dims (kept as size 1
//! with `keepdim`), and their gradients.

use super::{Attr, GradRule, Localize, OpSpec, Read};
use crate::conversion::to_linalg::build::{Builder, Ix, Lowered};
use crate::conversion::to_linalg::common::{all, operand, reduce, reduced_dims, shape};
use crate::sharding::rules::{
    Dims, Linearity, OpDesc, Rule, RuleBuilder, RuleError, dim_index, expect_arity, sum_each,
};
use dist_dialect::ir::{OperationExt, element_type, i64_array_attribute, replace_all_uses_except};
use dist_dialect::ops::attr;
use dist_dialect::{DistOp, ReductionKind};
use melior::ir::attribute::FloatAttribute;
use melior::ir::operation::{OperationBuilder, OperationLike};
use melior::ir::{BlockLike, Identifier, OperationRef, Type, Value, ValueLike};

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Reduce {
    Sum,
    Mean,
}

/// The gradient of a [`Reduce`]: `dout` broadcast back over the reduced
/// dims (divided by their count for the mean).
pub struct ReduceGrad(Reduce);

pub static REDUCE_SUM: Reduce = Reduce::Sum;
pub static REDUCE_MEAN: Reduce = Reduce::Mean;
pub static REDUCE_SUM_GRAD: ReduceGrad = ReduceGrad(Reduce::Sum);
pub static REDUCE_MEAN_GRAD: ReduceGrad = ReduceGrad(Reduce::Mean);

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
        let kind = match self {
            Reduce::Sum => ReductionKind::Sum,
            Reduce::Mean => ReductionKind::Avg,
        };
        let linearity = Linearity::Each {
            operands: vec![0],
            any_kind: false,
        };
        Ok(b.finish(vec![x], vec![out], vec![kind], linearity))
    }

    fn gradient(&self) -> Option<GradRule> {
        let op = match self {
            Reduce::Sum => DistOp::ReduceSumGrad,
            Reduce::Mean => DistOp::ReduceMeanGrad,
        };
        Some(GradRule {
            op,
            reads: &[Read::Operand(0), Read::Dout],
            grads: &[0],
            attributes: &[Attr::Copy(attr::DIMS), Attr::Copy(attr::KEEPDIM)],
        })
    }

    fn lower<'c, 'a>(&self, b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        let x = operand(op, 0);
        let dims = reduced_dims(op, shape(x).len());
        let mean = *self == Reduce::Mean;
        Ok(vec![reduce(b, x, &dims, op.has_attribute(attr::KEEPDIM), mean)?])
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
            Reduce::Sum => 1.0,
        };
        let keep = op.has_attribute(attr::KEEPDIM);
        let dout_map: Vec<Ix> = (0..rank)
            .filter_map(|d| match (dims.contains(&d), keep) {
                (false, _) => Some(Ix::D(d)),
                (true, true) => Some(Ix::Zero),
                (true, false) => None,
            })
            .collect();
        let init = b.empty(&xs, element_type(x.r#type()))?;
        Ok(vec![b.generic(
            rank,
            &[],
            &[(operand(op, 1), dout_map)],
            (init, all(rank)),
            |s, a| s.times(a[0], factor),
        )?])
    }

    /// The local gradient of a mean divides by the local count: a
    /// `dist.scale` by `1/shards` of the reduced dims makes it the global.
    fn localize<'c, 'a>(&self, op: OperationRef<'c, 'a>, local: &mut dyn Localize<'c, 'a>) -> Lowered<'c, ()> {
        if self.0 != Reduce::Mean {
            return Ok(());
        }
        // dx has the layout x is read in (x only gives the shape).
        let dx: Value<'c, 'a> = op.result_at(0).expect("reduce_mean_grad has dx").into();
        let Some(split) = local.split(dx) else {
            return Ok(());
        };
        let rank = split.len() as i64;
        let dims = i64_array_attribute(&op, attr::DIMS).unwrap_or_default();
        let shards: i64 = dims
            .iter()
            .map(|&d| local.shards(&split[d.rem_euclid(rank) as usize]))
            .product();
        if shards == 1 {
            return Ok(());
        }
        let context = local.context();
        let factor = FloatAttribute::new(context, Type::float64(context), 1.0 / shards as f64);
        let scale = OperationBuilder::new(DistOp::Scale.name(), op.location())
            .add_operands(&[dx])
            .add_results(&[dx.r#type()])
            .add_attributes(&[(Identifier::new(context, attr::FACTOR), factor.into())])
            .build()
            .map_err(|e| dist_dialect::ir::Located::new(op.location(), format!("cannot build dist.scale: {e}")))?;
        let block = op.block().expect("in the body");
        let scale = block.insert_operation_after(op, scale);
        let scaled = scale.result_at(0).expect("one result");
        // The scale itself keeps reading the unscaled result.
        replace_all_uses_except(dx, scaled, scale);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{desc, factor_rule};
    use crate::sharding::rules::OpAttrs;
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
    }
}
