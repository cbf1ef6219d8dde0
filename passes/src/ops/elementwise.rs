//! `dist.add`, `dist.sub`, `dist.mul` and their gradients: elementwise on
//! `x`, with `y` broadcast along the leading dims of `x`.

use super::{GradRule, OpSpec, Read};
use crate::conversion::to_linalg::build::{Builder, Lowered};
use crate::conversion::to_linalg::common::{all, broadcast_binary, operand, shape, trailing};
use crate::sharding::rules::{Dims, Linearity, OpDesc, Rule, RuleBuilder, RuleError, expect_arity, sum_each};
use dist_dialect::DistOp;
use dist_dialect::ir::element_type;
use melior::ir::{OperationRef, Value, ValueLike};

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Binary {
    Add,
    Sub,
    Mul,
}

/// The gradient of a [`Binary`]: `dx` and `dy`.
pub struct BinaryGrad(Binary);

pub static ADD: Binary = Binary::Add;
pub static SUB: Binary = Binary::Sub;
pub static MUL: Binary = Binary::Mul;
pub static ADD_GRAD: BinaryGrad = BinaryGrad(Binary::Add);
pub static SUB_GRAD: BinaryGrad = BinaryGrad(Binary::Sub);
pub static MUL_GRAD: BinaryGrad = BinaryGrad(Binary::Mul);

/// The factors of `x`, one per dim, and those of `y`: the trailing ones
/// (right-aligned, same sizes).
fn factors(b: &mut RuleBuilder, desc: &OpDesc) -> (Dims, Dims) {
    let x = b.dims(desc.operands[0].len());
    let y = x[x.len() - desc.operands[1].len()..].to_vec();
    (x, y)
}

impl OpSpec for Binary {
    fn rule(&self, desc: &OpDesc) -> Result<Rule, RuleError> {
        expect_arity(desc, 2, 1)?;
        let mut b = RuleBuilder::default();
        let (x, y) = factors(&mut b, desc);
        let linearity = match self {
            Binary::Mul => Linearity::Each {
                operands: vec![0, 1],
                any_kind: false,
            },
            _ => Linearity::Sum(vec![0, 1]),
        };
        Ok(b.finish(vec![x.clone(), y], vec![x], sum_each(1), linearity))
    }

    fn gradient(&self) -> Option<GradRule> {
        let op = match self {
            Binary::Add => DistOp::AddGrad,
            Binary::Sub => DistOp::SubGrad,
            Binary::Mul => DistOp::MulGrad,
        };
        Some(GradRule {
            op,
            reads: &[Read::Operand(0), Read::Operand(1), Read::Dout],
            grads: &[0, 1],
            attributes: &[],
        })
    }

    fn lower<'c, 'a>(&self, b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        let arith = match self {
            Binary::Add => "arith.addf",
            Binary::Sub => "arith.subf",
            Binary::Mul => "arith.mulf",
        };
        Ok(vec![broadcast_binary(b, operand(op, 0), operand(op, 1), arith)?])
    }
}

impl OpSpec for BinaryGrad {
    fn rule(&self, desc: &OpDesc) -> Result<Rule, RuleError> {
        expect_arity(desc, 3, 2)?;
        let mut b = RuleBuilder::default();
        let (x, y) = factors(&mut b, desc);
        let Rule::Factor(mut rule) = b.finish(
            vec![x.clone(), y.clone(), x.clone()],
            vec![x, y],
            sum_each(2),
            Linearity::None,
        ) else {
            unreachable!("a factor rule")
        };
        // The sum's gradient reads x and y for their shapes alone.
        if self.0 != Binary::Mul {
            rule.shape_only = vec![0, 1];
        }
        Ok(Rule::Factor(rule))
    }

    /// `dx` has x's shape; `dy` sums over the leading dims `y` was
    /// broadcast along.
    fn lower<'c, 'a>(&self, b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        let (x, y, dout) = (operand(op, 0), operand(op, 1), operand(op, 2));
        let (r, ry) = (shape(x).len(), shape(y).len());
        let leading: Vec<usize> = (0..r - ry).collect();
        let element = element_type(x.r#type());
        let ys = shape(y);
        let dx = match self.0 {
            Binary::Mul => broadcast_binary(b, dout, y, "arith.mulf")?,
            _ => dout,
        };
        // dy[j] = sum over the leading dims of g(dout, x)[i, j].
        let inputs = [(dout, all(r)), (x, all(r))];
        let kind = self.0;
        let dy = b.sum(
            r,
            &leading,
            &inputs,
            (&ys, trailing(r, ry)),
            element,
            1.0,
            |s, a| match kind {
                Binary::Add => Ok(a[0]),
                Binary::Sub => s.times(a[0], -1.0),
                Binary::Mul => s.mul(a[0], a[1]),
            },
        )?;
        Ok(vec![dx, dy])
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{desc, factor_rule};
    use crate::sharding::rules::OpAttrs;
    use dist_dialect::DistOp;

    #[test]
    fn the_broadcast_operands_gradient_reduces_the_leading_dims() {
        let add = factor_rule(&desc(
            DistOp::AddGrad.name(),
            &[&[4, 8, 32], &[32], &[4, 8, 32]],
            &[&[4, 8, 32], &[32]],
            OpAttrs::default(),
        ));
        assert_eq!(add.einsum(), "d0,d1,d2 ; d2 ; d0,d1,d2 -> d0,d1,d2 ; d2");
        assert!(add.is_reduced(0, 1) && add.is_reduced(1, 1) && !add.is_reduced(2, 1));
        assert_eq!(add.shape_only, [0, 1]);
    }
}
