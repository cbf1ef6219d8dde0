//! The ops that move data: `dist.reshape` (row-major), `dist.transpose`,
//! `dist.slice`, `dist.concat` and the gradients of the last two. Each is
//! linear in its operands whatever their partial kind.

use super::{Attr, GradRule, Grads, Localize, OpSpec, Read};
use crate::vocabulary::linalg::build::{Builder, Ix, Lowered};
use crate::vocabulary::linalg::common::{all, normalize, operand, shape};
use crate::vocabulary::rules::{
    Dims, Linearity, OpDesc, Rule, RuleBuilder, RuleError, dim_index, expect_arity, indexed, malformed, sum_each,
};
use dist_dialect::DistOp;
use dist_dialect::ir::{OperationExt, element_type, i64_array_attribute, integer_attribute, set_attribute};
use dist_dialect::ops::attr;
use melior::ir::attribute::DenseI64ArrayAttribute;
use melior::ir::operation::OperationLike;
use melior::ir::{OperationRef, Value, ValueLike};

pub struct Reshape;
pub struct Transpose;
pub struct Slice;
pub struct SliceGrad;
pub struct Concat;
pub struct ConcatGrad;

pub static RESHAPE: Reshape = Reshape;
pub static TRANSPOSE: Transpose = Transpose;
pub static SLICE: Slice = Slice;
pub static SLICE_GRAD: SliceGrad = SliceGrad;
pub static CONCAT: Concat = Concat;
pub static CONCAT_GRAD: ConcatGrad = ConcatGrad;

/// Moves data only: a partial operand of any kind passes through.
pub(super) fn moves_data() -> Linearity {
    Linearity::Each {
        operands: vec![0],
        any_kind: true,
    }
}

impl OpSpec for Reshape {
    fn commutes_with_sums(&self) -> bool {
        true
    }

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
            grads: Grads::Of(&[0]),
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
    fn commutes_with_sums(&self) -> bool {
        true
    }

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
            grads: Grads::Of(&[0]),
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

/// The factors of a tensor of shape `whole` and of its slice `part`, dim by
/// dim: shared, and shardable only where the slice keeps the whole dim (a
/// dim it cuts is gathered before, which makes any layout correct).
fn slice_factors(b: &mut RuleBuilder, whole: &[i64], part: &[i64]) -> Dims {
    whole
        .iter()
        .zip(part)
        .enumerate()
        .map(|(d, (&n, &k))| Some(b.factor(indexed('d', d), n == k)))
        .collect()
}

impl OpSpec for Slice {
    fn rule(&self, desc: &OpDesc) -> Result<Rule, RuleError> {
        expect_arity(desc, 1, 1)?;
        let mut b = RuleBuilder::default();
        let x = slice_factors(&mut b, &desc.operands[0], &desc.results[0]);
        Ok(b.finish(vec![x.clone()], vec![x], sum_each(1), moves_data()))
    }

    fn gradient(&self) -> Option<GradRule> {
        Some(GradRule {
            op: DistOp::SliceGrad,
            reads: &[Read::Dout],
            grads: Grads::Of(&[0]),
            attributes: &[Attr::Copy(attr::OFFSETS)],
        })
    }

    fn lower<'c, 'a>(&self, b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        let offsets = i64_array_attribute(&op, attr::OFFSETS).unwrap_or_default();
        let sizes = i64_array_attribute(&op, attr::SIZES).unwrap_or_default();
        Ok(vec![b.extract_slice(operand(op, 0), &offsets, &sizes)?])
    }

    /// A dim the slice keeps whole may be split: its size is the local
    /// result's (its offset stays 0).
    fn localize<'c, 'a>(&self, op: OperationRef<'c, 'a>, local: &mut dyn Localize<'c, 'a>) -> Lowered<'c, ()> {
        let sizes = op.result_at(0).map(|r| shape(r.into())).unwrap_or_default();
        set_attribute(
            op,
            attr::SIZES,
            DenseI64ArrayAttribute::new(local.context(), &sizes).into(),
        );
        Ok(())
    }
}

impl OpSpec for SliceGrad {
    fn rule(&self, desc: &OpDesc) -> Result<Rule, RuleError> {
        expect_arity(desc, 1, 1)?;
        let mut b = RuleBuilder::default();
        let dx = slice_factors(&mut b, &desc.results[0], &desc.operands[0]);
        Ok(b.finish(vec![dx.clone()], vec![dx], sum_each(1), moves_data()))
    }

    /// `dout` inserted into zeros at `offsets`.
    fn lower<'c, 'a>(&self, b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        let dout = operand(op, 0);
        let out = op.result_at(0).map(|r| shape(r.into())).unwrap_or_default();
        let zeros = b.splat(&out, element_type(dout.r#type()), 0.0)?;
        let offsets = i64_array_attribute(&op, attr::OFFSETS).unwrap_or_default();
        Ok(vec![b.insert_slice(dout, zeros, &offsets)?])
    }
}

/// The factors of the concatenated tensors (`parts`, then the whole, of
/// `rank` dims): shared, the dim along `dim` not shardable (each operand
/// fills a part of it).
fn concat_factors(b: &mut RuleBuilder, desc: &OpDesc, rank: usize) -> Result<Dims, RuleError> {
    let dim = dim_index(desc, desc.attrs.dim, rank, "dim")?;
    Ok((0..rank).map(|d| Some(b.factor(indexed('d', d), d != dim))).collect())
}

/// The offset along `dim` of each of the concatenated `parts`.
fn concat_offsets(parts: &[Vec<i64>], dim: usize) -> Vec<i64> {
    parts
        .iter()
        .scan(0, |at, shape| {
            let offset = *at;
            *at += shape[dim];
            Some(offset)
        })
        .collect()
}

impl OpSpec for Concat {
    /// A concatenation of partial sums is the partial sum of the
    /// concatenations: every operand partial alike passes through.
    fn rule(&self, desc: &OpDesc) -> Result<Rule, RuleError> {
        let n = desc.operands.len();
        expect_arity(desc, n, 1)?;
        let mut b = RuleBuilder::default();
        let x = concat_factors(&mut b, desc, desc.results[0].len())?;
        Ok(b.finish(
            vec![x.clone(); n],
            vec![x],
            sum_each(1),
            Linearity::Sum((0..n).collect()),
        ))
    }

    fn gradient(&self) -> Option<GradRule> {
        Some(GradRule {
            op: DistOp::ConcatGrad,
            reads: &[Read::Dout],
            grads: Grads::Every,
            attributes: &[Attr::Copy(attr::DIM)],
        })
    }

    /// Each operand inserted at its offset into an empty result.
    fn lower<'c, 'a>(&self, b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        let out = op.result_at(0).map(|r| shape(r.into())).unwrap_or_default();
        let dim = normalize(integer_attribute(&op, attr::DIM).unwrap_or(0), out.len());
        let parts: Vec<Value<'c, 'a>> = op.operands().collect();
        let offsets = concat_offsets(&parts.iter().map(|&v| shape(v)).collect::<Vec<_>>(), dim);
        let mut whole = b.empty(&out, element_type(parts[0].r#type()))?;
        for (&part, offset) in parts.iter().zip(offsets) {
            let mut at = vec![0; out.len()];
            at[dim] = offset;
            whole = b.insert_slice(part, whole, &at)?;
        }
        Ok(vec![whole])
    }
}

impl OpSpec for ConcatGrad {
    fn rule(&self, desc: &OpDesc) -> Result<Rule, RuleError> {
        let n = desc.results.len();
        expect_arity(desc, 1, n)?;
        let mut b = RuleBuilder::default();
        let x = concat_factors(&mut b, desc, desc.operands[0].len())?;
        Ok(b.finish(vec![x.clone()], vec![x; n], sum_each(n), moves_data()))
    }

    /// Each result the slice of `dout` its operand filled.
    fn lower<'c, 'a>(&self, b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        let dout = operand(op, 0);
        let parts: Vec<Vec<i64>> = op.results().map(|r| shape(r.into())).collect();
        let dim = normalize(integer_attribute(&op, attr::DIM).unwrap_or(0), shape(dout).len());
        let offsets = concat_offsets(&parts, dim);
        parts
            .iter()
            .zip(offsets)
            .map(|(sizes, offset)| {
                let mut at = vec![0; sizes.len()];
                at[dim] = offset;
                b.extract_slice(dout, &at, sizes)
            })
            .collect()
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
    use crate::vocabulary::rules::OpAttrs;
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
