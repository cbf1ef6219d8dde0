//! `dist.reshape` (row-major) and `dist.transpose`: data movement, linear
//! in their operand whatever its partial kind.

use super::{Attr, GradRule, OpSpec, Read};
use crate::conversion::to_linalg::build::{Builder, Ix, Lowered};
use crate::conversion::to_linalg::common::{all, operand, shape};
use crate::sharding::rules::{
    Dims, Linearity, OpDesc, Rule, RuleBuilder, RuleError, dim_index, expect_arity, indexed, malformed, sum_each,
};
use dist_dialect::DistOp;
use dist_dialect::ir::{OperationExt, element_type, i64_array_attribute};
use dist_dialect::ops::attr;
use melior::ir::{OperationRef, Value, ValueLike};

pub struct Reshape;
pub struct Transpose;

pub static RESHAPE: Reshape = Reshape;
pub static TRANSPOSE: Transpose = Transpose;

/// Moves data only: a partial operand of any kind passes through.
fn moves_data() -> Linearity {
    Linearity::Each {
        operands: vec![0],
        any_kind: true,
    }
}

impl OpSpec for Reshape {
    fn rule(&self, desc: &OpDesc) -> Result<Rule, RuleError> {
        expect_arity(desc, 1, 1)?;
        let mut b = RuleBuilder::default();
        let (x, out) = reshape_dims(&mut b, &desc.operands[0], &desc.results[0])
            .ok_or_else(|| malformed(desc, "element counts differ".into()))?;
        Ok(b.finish(vec![x], vec![out], sum_each(1), moves_data()))
    }

    /// Its gradient reshapes back (to the operand's type).
    fn gradient(&self) -> Option<GradRule> {
        Some(GradRule {
            op: DistOp::Reshape,
            reads: &[Read::Dout],
            grads: &[0],
            attributes: &[],
        })
    }

    fn lower<'c, 'a>(&self, b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        let out = op.result_at(0).map(|r| shape(r.into())).unwrap_or_default();
        Ok(vec![b.reshape(operand(op, 0), &out)?])
    }

    fn is_view(&self) -> bool {
        true
    }
}

impl OpSpec for Transpose {
    fn rule(&self, desc: &OpDesc) -> Result<Rule, RuleError> {
        expect_arity(desc, 1, 1)?;
        let rank = desc.operands[0].len();
        let mut b = RuleBuilder::default();
        let x = b.dims(rank);
        let mut seen = vec![false; rank];
        let out = desc
            .attrs
            .perm
            .iter()
            .map(|&p| {
                let p = dim_index(desc, p, rank, "perm entry")?;
                if std::mem::replace(&mut seen[p], true) {
                    return Err(malformed(desc, format!("perm repeats {p}")));
                }
                Ok(x[p])
            })
            .collect::<Result<Vec<_>, _>>()?;
        if out.len() != rank {
            return Err(malformed(desc, "perm length differs from the rank".into()));
        }
        Ok(b.finish(vec![x], vec![out], sum_each(1), moves_data()))
    }

    /// Its gradient is the inverse transpose.
    fn gradient(&self) -> Option<GradRule> {
        Some(GradRule {
            op: DistOp::Transpose,
            reads: &[Read::Dout],
            grads: &[0],
            attributes: &[Attr::InversePerm],
        })
    }

    fn lower<'c, 'a>(&self, b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        let x = operand(op, 0);
        let perm = i64_array_attribute(&op, attr::PERM).unwrap_or_default();
        let rank = perm.len();
        // out[i] = x[perm[i]]: x's dim perm[i] is loop i.
        let mut x_map = vec![Ix::Zero; rank];
        for (i, &p) in perm.iter().enumerate() {
            x_map[p as usize] = Ix::D(i);
        }
        let out = op.result_at(0).map(|r| shape(r.into())).unwrap_or_default();
        let init = b.empty(&out, element_type(x.r#type()))?;
        Ok(vec![b.generic(
            rank,
            &[],
            &[(x, x_map)],
            (init, all(rank)),
            |_, a| Ok(a[0]),
        )?])
    }
}

/// Factors of a row-major reshape. Dims are grouped into the shortest runs
/// with equal element counts on both sides; a one-to-one run shares its
/// factor, and a merged or split run shares only its leading factor (a split
/// of the leading dim selects the same contiguous block on both sides). The
/// other dims of such a run get unshardable factors of their own; size-1
/// dims get none.
fn reshape_dims(b: &mut RuleBuilder, from: &[i64], to: &[i64]) -> Option<DimsPair> {
    let count = from.iter().product::<i64>();
    if count != to.iter().product::<i64>() {
        return None;
    }
    if count == 0 {
        // Nothing to split in an empty tensor.
        return Some((vec![None; from.len()], vec![None; to.len()]));
    }
    let (mut x, mut out) = (Vec::with_capacity(from.len()), Vec::with_capacity(to.len()));
    let (mut i, mut j) = (0, 0);
    while i < from.len() || j < to.len() {
        // Size-1 dims carry nothing.
        if i < from.len() && from[i] == 1 {
            x.push(None);
            i += 1;
            continue;
        }
        if j < to.len() && to[j] == 1 {
            out.push(None);
            j += 1;
            continue;
        }
        let lead = b.factor(indexed('g', b.factors.len()), true);
        let (mut a, mut c) = (from[i], to[j]);
        x.push(Some(lead));
        out.push(Some(lead));
        i += 1;
        j += 1;
        while a != c {
            if a < c {
                a *= from[i];
                x.push(Some(b.factor(indexed('g', b.factors.len()), false)));
                i += 1;
            } else {
                c *= to[j];
                out.push(Some(b.factor(indexed('g', b.factors.len()), false)));
                j += 1;
            }
        }
    }
    Some((x, out))
}

/// The factors of the reshape's operand and result.
type DimsPair = (Dims, Dims);

#[cfg(test)]
mod tests {
    use super::super::testing::{desc, factor_rule};
    use crate::sharding::rules::OpAttrs;
    use dist_dialect::DistOp;

    #[test]
    fn reshape_shares_the_leading_factor_of_each_group() {
        let rule = factor_rule(&desc(
            DistOp::Reshape.name(),
            &[&[4, 8, 32]],
            &[&[32, 32]],
            OpAttrs::default(),
        ));
        assert_eq!(rule.einsum(), "g0,g1,g2 -> g0,g2");
        assert!(rule.factors[0].shardable && !rule.factors[1].shardable);
        let split = factor_rule(&desc(
            DistOp::Reshape.name(),
            &[&[32, 1, 32]],
            &[&[4, 8, 32]],
            OpAttrs::default(),
        ));
        assert_eq!(split.einsum(), "g0,1,g2 -> g0,g1,g2");
        assert!(
            super::super::rule_for(&desc(DistOp::Reshape.name(), &[&[4, 8]], &[&[30]], OpAttrs::default())).is_err()
        );
    }

    #[test]
    fn transpose_permutes_factors() {
        let rule = factor_rule(&desc(
            DistOp::Transpose.name(),
            &[&[4, 8, 16]],
            &[&[4, 16, 8]],
            OpAttrs {
                perm: vec![0, 2, 1],
                ..OpAttrs::default()
            },
        ));
        assert_eq!(rule.einsum(), "d0,d1,d2 -> d0,d2,d1");
    }
}
