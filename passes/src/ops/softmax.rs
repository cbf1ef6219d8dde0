//! `dist.softmax` along one axis, and its gradient.

use super::{Attr, GradRule, Grads, OpSpec, Read};
use crate::vocabulary::linalg::build::{Builder, Lowered};
use crate::vocabulary::linalg::common::{all, normalize, operand, reduce, shape, without};
use crate::vocabulary::rules::{
    Linearity, OpDesc, Rule, RuleBuilder, RuleError, dim_index, expect_arity, indexed, sum_each,
};
use dist_dialect::DistOp;
use dist_dialect::ir::{element_type, integer_attribute};
use dist_dialect::ops::attr;
use melior::ir::{OperationRef, Value, ValueLike};

pub struct Softmax;
pub struct SoftmaxGrad;

pub static SOFTMAX: Softmax = Softmax;
pub static SOFTMAX_GRAD: SoftmaxGrad = SoftmaxGrad;

/// `operands` tensors of one shape whose `axis` is normalized over: not
/// shardable.
fn softmax_rule(desc: &OpDesc, operands: usize) -> Result<Rule, RuleError> {
    expect_arity(desc, operands, 1)?;
    let rank = desc.operands[0].len();
    let axis = dim_index(desc, desc.attrs.axis, rank, "axis")?;
    let mut b = RuleBuilder::default();
    let x: Vec<_> = (0..rank)
        .map(|d| Some(b.factor(if d == axis { "axis".into() } else { indexed('d', d) }, d != axis)))
        .collect();
    Ok(b.finish(vec![x.clone(); operands], vec![x], sum_each(1), Linearity::None))
}

/// The op's `axis`, in `0..rank`.
fn axis(op: OperationRef<'_, '_>, rank: usize) -> usize {
    normalize(integer_attribute(&op, attr::AXIS).unwrap_or(0), rank)
}

impl OpSpec for Softmax {
    fn rule(&self, desc: &OpDesc) -> Result<Rule, RuleError> {
        softmax_rule(desc, 1)
    }

    fn gradient(&self) -> Option<GradRule> {
        Some(GradRule {
            op: DistOp::SoftmaxGrad,
            reads: &[Read::Result(0), Read::Dout],
            grads: Grads::Of(&[0]),
            attributes: &[Attr::Copy(attr::AXIS)],
        })
    }

    fn lower<'c, 'a>(&self, b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        let x = operand(op, 0);
        Ok(vec![softmax(b, x, axis(op, shape(x).len()))?])
    }
}

impl OpSpec for SoftmaxGrad {
    fn rule(&self, desc: &OpDesc) -> Result<Rule, RuleError> {
        softmax_rule(desc, 2)
    }

    fn lower<'c, 'a>(&self, b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        let y = operand(op, 0);
        Ok(vec![softmax_grad(b, y, operand(op, 1), axis(op, shape(y).len()))?])
    }
}

/// `exp(x - max) / sum(exp(x - max))` along `axis`.
pub fn softmax<'c, 'a>(b: &mut Builder<'c, 'a>, x: Value<'c, 'a>, axis: usize) -> Lowered<'c, Value<'c, 'a>> {
    let xs = shape(x);
    let r = xs.len();
    let element = element_type(x.r#type());
    let reduced: Vec<i64> = (0..r).filter(|&d| d != axis).map(|d| xs[d]).collect();
    let init = b.splat(&reduced, element, f64::NEG_INFINITY)?;
    let max = b.generic(r, &[axis], &[(x, all(r))], (init, without(r, &[axis])), |s, a| {
        s.binary("arith.maximumf", a[0], a[1])
    })?;
    let init = b.empty(&xs, element)?;
    let e = b.generic(
        r,
        &[],
        &[(x, all(r)), (max, without(r, &[axis]))],
        (init, all(r)),
        |s, a| {
            let d = s.sub(a[0], a[1])?;
            s.unary("math.exp", d)
        },
    )?;
    let sum = reduce(b, e, &[axis], false, false)?;
    let init = b.empty(&xs, element)?;
    b.generic(
        r,
        &[],
        &[(e, all(r)), (sum, without(r, &[axis]))],
        (init, all(r)),
        |s, a| s.div(a[0], a[1]),
    )
}

/// `y (dy - sum(dy y))` along `axis`.
fn softmax_grad<'c, 'a>(
    b: &mut Builder<'c, 'a>,
    y: Value<'c, 'a>,
    dy: Value<'c, 'a>,
    axis: usize,
) -> Lowered<'c, Value<'c, 'a>> {
    let ys = shape(y);
    let r = ys.len();
    let element = element_type(y.r#type());
    let reduced: Vec<i64> = (0..r).filter(|&d| d != axis).map(|d| ys[d]).collect();
    let inputs = [(y, all(r)), (dy, all(r))];
    let dot = b.sum(
        r,
        &[axis],
        &inputs,
        (&reduced, without(r, &[axis])),
        element,
        1.0,
        |s, a| s.mul(a[0], a[1]),
    )?;
    let init = b.empty(&ys, element)?;
    b.generic(
        r,
        &[],
        &[(y, all(r)), (dy, all(r)), (dot, without(r, &[axis]))],
        (init, all(r)),
        |s, a| {
            let d = s.sub(a[1], a[2])?;
            s.mul(a[0], d)
        },
    )
}

#[cfg(test)]
mod tests {
    use super::super::testing::{desc, factor_rule};
    use crate::vocabulary::rules::OpAttrs;
    use dist_dialect::DistOp;

    #[test]
    fn softmax_axis_and_normalized_dims_are_not_shardable() {
        let softmax = factor_rule(&desc(
            DistOp::Softmax.name(),
            &[&[4, 8, 8]],
            &[&[4, 8, 8]],
            OpAttrs {
                axis: -1,
                ..OpAttrs::default()
            },
        ));
        assert_eq!(softmax.einsum(), "d0,d1,axis -> d0,d1,axis");
        assert!(!softmax.factors[2].shardable && softmax.factors[1].shardable);
    }
}
