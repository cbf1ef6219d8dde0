//! `dist.causal_mask` and its gradient: the entries of attention scores
//! whose key position exceeds the query position (the last two dims) are
//! masked, to -inf forward and to 0 in the gradient. Every dim shards; on a
//! split query or key dim the op compares global positions, from the
//! offsets `dist-partition` gives it.
//!
//! `dist.mask_padding`: the padding of an unevenly split dim replaced by a
//! fill value, which `dist-partition` puts before the ops that reduce over
//! such a dim.

use super::activation::elementwise_rule;
use super::{GradRule, Grads, Localize, OpSpec, Read, shifted_offset};
use crate::vocabulary::linalg::build::{Body, Builder, Lowered};
use crate::vocabulary::linalg::common::{map1, operand, shape};
use crate::vocabulary::rules::{Linearity, OpDesc, Rule, RuleError};
use dist_dialect::DistOp;
use dist_dialect::ir::{OperationExt, float_attribute, integer_attribute, set_operands};
use dist_dialect::ops::attr;
use melior::ir::operation::OperationLike;
use melior::ir::{OperationRef, Value};

/// The mask of the forward scores (`fill` -inf) or of their gradient (0).
pub struct CausalMask {
    fill: f64,
}

pub static CAUSAL_MASK: CausalMask = CausalMask {
    fill: f64::NEG_INFINITY,
};
pub static CAUSAL_MASK_GRAD: CausalMask = CausalMask { fill: 0.0 };

/// `fill` where the key position (loop `rank - 1`, plus the key offset)
/// exceeds the query position (loop `rank - 2`, plus the query offset),
/// else `value`.
fn masked<'c>(
    s: &mut Body<'c, '_>,
    value: Value<'c, '_>,
    rank: usize,
    offsets: Option<(Value<'c, '_>, Value<'c, '_>)>,
    fill: f64,
) -> Lowered<'c, Value<'c, 'c>> {
    let mut query = s.index(rank - 2)?;
    let mut key = s.index(rank - 1)?;
    if let Some((q, k)) = offsets {
        query = s.index_op("arith.addi", query, q)?;
        key = s.index_op("arith.addi", key, k)?;
    }
    // arith::CmpIPredicate::sgt
    let future = s.cmpi(4, key, query)?;
    let fill = s.float(fill)?;
    s.select(future, fill, value)
}

impl OpSpec for CausalMask {
    /// Elementwise: every dim shards (the offsets keep the positions
    /// global). The gradient is linear in dout.
    fn rule(&self, desc: &OpDesc) -> Result<Rule, RuleError> {
        let linearity = if self.fill == 0.0 {
            Linearity::linear_in(&[0])
        } else {
            Linearity::None
        };
        elementwise_rule(desc, 1, linearity)
    }

    fn gradient(&self) -> Option<GradRule> {
        (self.fill != 0.0).then_some(GradRule {
            op: DistOp::CausalMaskGrad,
            reads: &[Read::Dout, Read::Operand(1), Read::Operand(2)],
            grads: Grads::Of(&[0]),
            attributes: &[],
        })
    }

    fn lower<'c, 'a>(&self, b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        let x = operand(op, 0);
        let rank = shape(x).len();
        let offsets = op.operand_at(1).zip(op.operand_at(2));
        let fill = self.fill;
        Ok(vec![map1(b, x, |s, a| masked(s, a, rank, offsets, fill))?])
    }

    /// Under a split query or key dim, both positions' first global index
    /// on this device (plus the offsets the program gave, if any).
    fn localize<'c, 'a>(&self, op: OperationRef<'c, 'a>, local: &mut dyn Localize<'c, 'a>) -> Lowered<'c, ()> {
        let x = operand(op, 0);
        let Some(split) = local.split(x) else {
            return Ok(());
        };
        let rank = split.len();
        if split[rank - 2].is_empty() && split[rank - 1].is_empty() {
            return Ok(());
        }
        let sizes = shape(x);
        let mut operands: Vec<Value<'c, 'a>> = vec![x];
        for (i, d) in [rank - 2, rank - 1].into_iter().enumerate() {
            let shard = match split[d].is_empty() {
                true => None,
                false => Some(local.offset(&split[d], sizes[d], op.location())?),
            };
            let given = op.operand_at(1 + i);
            operands.push(match shifted_offset(op, given, shard) {
                Some(offset) => offset,
                None => local.index(0, op.location())?,
            });
        }
        set_operands(op, &operands);
        Ok(())
    }
}

/// `fill` past the padded dim's global size.
pub struct MaskPadding;

pub static MASK_PADDING: MaskPadding = MaskPadding;

impl OpSpec for MaskPadding {
    /// Elementwise; partition places it, after differentiation, so it has
    /// no gradient.
    fn rule(&self, desc: &OpDesc) -> Result<Rule, RuleError> {
        elementwise_rule(desc, 1, Linearity::None)
    }

    fn lower<'c, 'a>(&self, b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        let x = operand(op, 0);
        let offset = operand(op, 1);
        let dim = integer_attribute(&op, attr::DIM).unwrap_or(0) as usize;
        let size = integer_attribute(&op, attr::SIZE).unwrap_or(0);
        let fill = float_attribute(&op, attr::FILL).unwrap_or(0.0);
        Ok(vec![map1(b, x, |s, a| {
            let at = s.index(dim)?;
            let at = s.index_op("arith.addi", at, offset)?;
            let size = s.index_constant(size)?;
            // arith::CmpIPredicate::slt
            let inside = s.cmpi(2, at, size)?;
            let fill = s.float(fill)?;
            s.select(inside, a, fill)
        })?])
    }
}

#[cfg(test)]
mod tests {
    use super::super::spec;
    use super::super::testing::{desc, factor_rule};
    use crate::vocabulary::rules::OpAttrs;
    use dist_dialect::DistOp;

    #[test]
    fn every_dim_shards_and_the_gradient_masks_dout() {
        let rule = factor_rule(&desc(
            DistOp::CausalMask.name(),
            &[&[2, 4, 8, 8]],
            &[&[2, 4, 8, 8]],
            OpAttrs::default(),
        ));
        assert!(rule.factors.iter().all(|f| f.shardable));
        let grad = spec(DistOp::CausalMask).and_then(|s| s.gradient()).unwrap();
        assert_eq!(grad.op, DistOp::CausalMaskGrad);
        assert!(spec(DistOp::CausalMaskGrad).and_then(|s| s.gradient()).is_none());
    }
}
