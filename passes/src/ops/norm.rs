//! The normalizations over the dims from `begin_norm_axis` on,
//! `dist.layer_norm` and `dist.rms_norm`, and their gradients. The
//! normalized dims are not shardable (their statistics need them whole);
//! the statistic dims are, and the scale's (and bias') gradients sum over
//! them.

use super::{Attr, GradRule, Grads, OpSpec, Read};
use crate::vocabulary::linalg::build::{Body, Builder, Ix, Lowered};
use crate::vocabulary::linalg::common::{all, map1, normalize, operand, reduce, shape};
use crate::vocabulary::rules::{
    Dims, Linearity, OpDesc, Rule, RuleBuilder, RuleError, expect_arity, indexed, malformed, sum_each,
};
use dist_dialect::DistOp;
use dist_dialect::ir::{element_type, float_attribute, integer_attribute};
use dist_dialect::ops::attr;
use melior::ir::{OperationRef, Value, ValueLike};

pub struct LayerNorm;
pub struct LayerNormGrad;
pub struct RmsNorm;
pub struct RmsNormGrad;

pub static LAYER_NORM: LayerNorm = LayerNorm;
pub static LAYER_NORM_GRAD: LayerNormGrad = LayerNormGrad;
pub static RMS_NORM: RmsNorm = RmsNorm;
pub static RMS_NORM_GRAD: RmsNormGrad = RmsNormGrad;

/// The factors of the leading (statistic) dims, shardable, and of the
/// normalized ones, not; then those of x, both in order.
fn norm_factors(b: &mut RuleBuilder, desc: &OpDesc) -> Result<(Dims, Dims, Dims), RuleError> {
    let rank = desc.operands[0].len();
    let split = desc.attrs.begin_norm_axis;
    if split < 0 || split > rank as i64 {
        return Err(malformed(desc, format!("begin_norm_axis {split} is out of range")));
    }
    let split = split as usize;
    let batch: Dims = (0..split).map(|d| Some(b.factor(indexed('d', d), true))).collect();
    let norm: Dims = (split..rank).map(|d| Some(b.factor(indexed('d', d), false))).collect();
    let x = batch.iter().chain(&norm).copied().collect();
    Ok((batch, norm, x))
}

impl OpSpec for LayerNorm {
    /// x, scale, bias -> y, mean, rstd.
    fn rule(&self, desc: &OpDesc) -> Result<Rule, RuleError> {
        expect_arity(desc, 3, 3)?;
        let mut b = RuleBuilder::default();
        let (batch, norm, x) = norm_factors(&mut b, desc)?;
        Ok(b.finish(
            vec![x.clone(), norm.clone(), norm],
            vec![x, batch.clone(), batch],
            sum_each(3),
            Linearity::None,
        ))
    }

    fn gradient(&self) -> Option<GradRule> {
        Some(GradRule {
            op: DistOp::LayerNormGrad,
            reads: &[
                Read::Operand(0),
                Read::Operand(1),
                Read::Result(1),
                Read::Result(2),
                Read::Dout,
            ],
            grads: Grads::Of(&[0, 1, 2]),
            attributes: &[Attr::Copy(attr::BEGIN_NORM_AXIS)],
        })
    }

    fn lower<'c, 'a>(&self, b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        layer_norm(b, op)
    }
}

impl OpSpec for LayerNormGrad {
    /// x, scale, mean, rstd, dy -> dx, dscale, dbias.
    fn rule(&self, desc: &OpDesc) -> Result<Rule, RuleError> {
        expect_arity(desc, 5, 3)?;
        let mut b = RuleBuilder::default();
        let (batch, norm, x) = norm_factors(&mut b, desc)?;
        Ok(b.finish(
            vec![x.clone(), norm.clone(), batch.clone(), batch, x.clone()],
            vec![x, norm.clone(), norm],
            sum_each(3),
            Linearity::None,
        ))
    }

    fn lower<'c, 'a>(&self, b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        layer_norm_grad(b, op)
    }
}

impl OpSpec for RmsNorm {
    /// x, scale -> y, rstd.
    fn rule(&self, desc: &OpDesc) -> Result<Rule, RuleError> {
        expect_arity(desc, 2, 2)?;
        let mut b = RuleBuilder::default();
        let (batch, norm, x) = norm_factors(&mut b, desc)?;
        Ok(b.finish(vec![x.clone(), norm], vec![x, batch], sum_each(2), Linearity::None))
    }

    fn gradient(&self) -> Option<GradRule> {
        Some(GradRule {
            op: DistOp::RmsNormGrad,
            reads: &[Read::Operand(0), Read::Operand(1), Read::Result(1), Read::Dout],
            grads: Grads::Of(&[0, 1]),
            attributes: &[Attr::Copy(attr::BEGIN_NORM_AXIS)],
        })
    }

    fn lower<'c, 'a>(&self, b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        rms_norm(b, op)
    }
}

impl OpSpec for RmsNormGrad {
    /// x, scale, rstd, dy -> dx, dscale.
    fn rule(&self, desc: &OpDesc) -> Result<Rule, RuleError> {
        expect_arity(desc, 4, 2)?;
        let mut b = RuleBuilder::default();
        let (batch, norm, x) = norm_factors(&mut b, desc)?;
        Ok(b.finish(
            vec![x.clone(), norm.clone(), batch, x.clone()],
            vec![x, norm],
            sum_each(2),
            Linearity::None,
        ))
    }

    fn lower<'c, 'a>(&self, b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        rms_norm_grad(b, op)
    }
}

/// The leading (statistic) and normalized dims of a layer norm.
/// A normalization op's x, in the lowering's terms: its leading
/// (statistic) dims and its normalized ones, the maps and shapes of both,
/// and how many elements each statistic covers.
struct NormLayout {
    lead: Vec<usize>,
    norm: Vec<usize>,
    lead_map: Vec<Ix>,
    norm_map: Vec<Ix>,
    stat_shape: Vec<i64>,
    norm_shape: Vec<i64>,
    count: f64,
}

impl NormLayout {
    /// Of `op`'s `begin_norm_axis` over the shape `xs` of its x.
    fn of(op: OperationRef<'_, '_>, xs: &[i64]) -> Self {
        let rank = xs.len();
        let begin = integer_attribute(&op, attr::BEGIN_NORM_AXIS).unwrap_or(0);
        let begin = normalize(begin, rank + 1).min(rank);
        let (lead, norm): (Vec<usize>, Vec<usize>) = ((0..begin).collect(), (begin..rank).collect());
        NormLayout {
            lead_map: lead.iter().map(|&d| Ix::D(d)).collect(),
            norm_map: norm.iter().map(|&d| Ix::D(d)).collect(),
            stat_shape: lead.iter().map(|&d| xs[d]).collect(),
            norm_shape: norm.iter().map(|&d| xs[d]).collect(),
            count: norm.iter().map(|&d| xs[d]).product::<i64>() as f64,
            lead,
            norm,
        }
    }
}

/// `1 / sqrt(moment + epsilon)`, elementwise (sqrt and a division: libm
/// has no rsqrt).
fn rstd_of<'c, 'a>(b: &mut Builder<'c, 'a>, moment: Value<'c, 'a>, epsilon: f64) -> Lowered<'c, Value<'c, 'a>> {
    map1(b, moment, |s, m| {
        let eps = s.float(epsilon)?;
        let v = s.add(m, eps)?;
        let root = s.unary("math.sqrt", v)?;
        let one = s.float(1.0)?;
        s.div(one, root)
    })
}

fn layer_norm<'c, 'a>(b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
    let (x, scale, bias) = (operand(op, 0), operand(op, 1), operand(op, 2));
    let epsilon = float_attribute(&op, attr::EPSILON).unwrap_or(1e-5);
    let xs = shape(x);
    let r = xs.len();
    let NormLayout {
        norm,
        lead_map,
        norm_map,
        stat_shape,
        count,
        ..
    } = NormLayout::of(op, &xs);
    let element = element_type(x.r#type());
    let mean = reduce(b, x, &norm, false, true)?;
    let inputs = [(x, all(r)), (mean, lead_map.clone())];
    let var = b.sum(
        r,
        &norm,
        &inputs,
        (&stat_shape, lead_map.clone()),
        element,
        1.0 / count,
        |s, a| {
            let d = s.sub(a[0], a[1])?;
            s.mul(d, d)
        },
    )?;
    let rstd = rstd_of(b, var, epsilon)?;
    let init = b.empty(&xs, element)?;
    let y = b.generic(
        r,
        &[],
        &[
            (x, all(r)),
            (mean, lead_map.clone()),
            (rstd, lead_map),
            (scale, norm_map.clone()),
            (bias, norm_map),
        ],
        (init, all(r)),
        |s, a| {
            let d = s.sub(a[0], a[1])?;
            let n = s.mul(d, a[2])?;
            let g = s.mul(n, a[3])?;
            s.add(g, a[4])
        },
    )?;
    Ok(vec![y, mean, rstd])
}

/// With `xhat = (x - mean) rstd` and `g = dy scale`: `dbias = sum_lead dy`,
/// `dscale = sum_lead dy xhat`, `dx = rstd (g - mean_norm(g) - xhat
/// mean_norm(g xhat))`.
fn layer_norm_grad<'c, 'a>(b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
    let [x, scale, mean, rstd, dy] = [0, 1, 2, 3, 4].map(|i| operand(op, i));
    let xs = shape(x);
    let r = xs.len();
    let NormLayout {
        lead,
        norm,
        lead_map,
        norm_map,
        stat_shape,
        norm_shape,
        count,
    } = NormLayout::of(op, &xs);
    let element = element_type(x.r#type());
    let stats = [(mean, lead_map.clone()), (rstd, lead_map.clone())];
    // xhat, computed in each body that needs it.
    fn xhat<'c>(
        s: &mut Body<'c, '_>,
        x: Value<'c, '_>,
        mean: Value<'c, '_>,
        rstd: Value<'c, '_>,
    ) -> Lowered<'c, Value<'c, 'c>> {
        let d = s.sub(x, mean)?;
        s.mul(d, rstd)
    }
    let per_feature = (&norm_shape[..], norm_map.clone());
    let dbias = b.sum(r, &lead, &[(dy, all(r))], per_feature.clone(), element, 1.0, |_, a| {
        Ok(a[0])
    })?;
    let inputs = [(dy, all(r)), (x, all(r)), stats[0].clone(), stats[1].clone()];
    let dscale = b.sum(r, &lead, &inputs, per_feature, element, 1.0, |s, a| {
        let h = xhat(s, a[1], a[2], a[3])?;
        s.mul(a[0], h)
    })?;
    // Per row: sum of g and of g xhat over the normalized dims.
    let row_sum = |b: &mut Builder<'c, 'a>, with_xhat: bool| {
        let inputs = [
            (dy, all(r)),
            (scale, norm_map.clone()),
            (x, all(r)),
            stats[0].clone(),
            stats[1].clone(),
        ];
        b.sum(
            r,
            &norm,
            &inputs,
            (&stat_shape, lead_map.clone()),
            element,
            1.0,
            |s, a| {
                let g = s.mul(a[0], a[1])?;
                if with_xhat {
                    let h = xhat(s, a[2], a[3], a[4])?;
                    s.mul(g, h)
                } else {
                    Ok(g)
                }
            },
        )
    };
    let sum_g = row_sum(b, false)?;
    let sum_gh = row_sum(b, true)?;
    let init = b.empty(&xs, element)?;
    let inputs = [
        (dy, all(r)),
        (scale, norm_map),
        (x, all(r)),
        stats[0].clone(),
        stats[1].clone(),
        (sum_g, lead_map.clone()),
        (sum_gh, lead_map),
    ];
    let dx = b.generic(r, &[], &inputs, (init, all(r)), |s, a| {
        let g = s.mul(a[0], a[1])?;
        let h = xhat(s, a[2], a[3], a[4])?;
        let mg = s.times(a[5], 1.0 / count)?;
        let mgh = s.times(a[6], 1.0 / count)?;
        let hm = s.mul(h, mgh)?;
        let t = s.sub(g, mg)?;
        let t = s.sub(t, hm)?;
        s.mul(a[4], t)
    })?;
    Ok(vec![dx, dscale, dbias])
}

/// `y = x rstd scale`, `rstd = 1 / sqrt(mean(x^2) + epsilon)`.
fn rms_norm<'c, 'a>(b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
    let (x, scale) = (operand(op, 0), operand(op, 1));
    let epsilon = float_attribute(&op, attr::EPSILON).unwrap_or(1e-5);
    let xs = shape(x);
    let r = xs.len();
    let NormLayout {
        norm,
        lead_map,
        norm_map,
        stat_shape,
        count,
        ..
    } = NormLayout::of(op, &xs);
    let element = element_type(x.r#type());
    let square_mean = b.sum(
        r,
        &norm,
        &[(x, all(r))],
        (&stat_shape, lead_map.clone()),
        element,
        1.0 / count,
        |s, a| s.mul(a[0], a[0]),
    )?;
    let rstd = rstd_of(b, square_mean, epsilon)?;
    let init = b.empty(&xs, element)?;
    let inputs = [(x, all(r)), (rstd, lead_map), (scale, norm_map)];
    let y = b.generic(r, &[], &inputs, (init, all(r)), |s, a| {
        let n = s.mul(a[0], a[1])?;
        s.mul(n, a[2])
    })?;
    Ok(vec![y, rstd])
}

/// With `xhat = x rstd` and `g = dy scale`: `dscale = sum_lead dy xhat`,
/// `dx = rstd (g - xhat mean_norm(g xhat))`.
fn rms_norm_grad<'c, 'a>(b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
    let [x, scale, rstd, dy] = [0, 1, 2, 3].map(|i| operand(op, i));
    let xs = shape(x);
    let r = xs.len();
    let NormLayout {
        lead,
        norm,
        lead_map,
        norm_map,
        stat_shape,
        norm_shape,
        count,
    } = NormLayout::of(op, &xs);
    let element = element_type(x.r#type());
    let inputs = [(dy, all(r)), (x, all(r)), (rstd, lead_map.clone())];
    let dscale = b.sum(
        r,
        &lead,
        &inputs,
        (&norm_shape, norm_map.clone()),
        element,
        1.0,
        |s, a| {
            let h = s.mul(a[1], a[2])?;
            s.mul(a[0], h)
        },
    )?;
    let inputs = [
        (dy, all(r)),
        (scale, norm_map.clone()),
        (x, all(r)),
        (rstd, lead_map.clone()),
    ];
    let sum_gh = b.sum(
        r,
        &norm,
        &inputs,
        (&stat_shape, lead_map.clone()),
        element,
        1.0,
        |s, a| {
            let g = s.mul(a[0], a[1])?;
            let h = s.mul(a[2], a[3])?;
            s.mul(g, h)
        },
    )?;
    let init = b.empty(&xs, element)?;
    let inputs = [
        (dy, all(r)),
        (scale, norm_map),
        (x, all(r)),
        (rstd, lead_map.clone()),
        (sum_gh, lead_map),
    ];
    let dx = b.generic(r, &[], &inputs, (init, all(r)), |s, a| {
        let g = s.mul(a[0], a[1])?;
        let h = s.mul(a[2], a[3])?;
        let m = s.times(a[4], 1.0 / count)?;
        let hm = s.mul(h, m)?;
        let t = s.sub(g, hm)?;
        s.mul(a[3], t)
    })?;
    Ok(vec![dx, dscale])
}

#[cfg(test)]
mod tests {
    use super::super::testing::{desc, factor_rule};
    use crate::vocabulary::rules::OpAttrs;
    use dist_dialect::DistOp;

    #[test]
    fn the_gradient_reduces_the_statistic_dims_for_scale_and_bias() {
        let ln = factor_rule(&desc(
            DistOp::LayerNormGrad.name(),
            &[&[4, 8, 32], &[32], &[4, 8], &[4, 8], &[4, 8, 32]],
            &[&[4, 8, 32], &[32], &[32]],
            OpAttrs {
                begin_norm_axis: 2,
                ..OpAttrs::default()
            },
        ));
        assert!(ln.is_reduced(0, 1) && ln.is_reduced(1, 2) && !ln.factors[2].shardable);
        let rms = factor_rule(&desc(
            DistOp::RmsNormGrad.name(),
            &[&[4, 8, 32], &[32], &[4, 8], &[4, 8, 32]],
            &[&[4, 8, 32], &[32]],
            OpAttrs {
                begin_norm_axis: 2,
                ..OpAttrs::default()
            },
        ));
        assert_eq!(rms.einsum(), "d0,d1,d2 ; d2 ; d0,d1 ; d0,d1,d2 -> d0,d1,d2 ; d2");
        assert!(rms.is_reduced(0, 1) && rms.is_reduced(1, 1) && !rms.is_reduced(0, 0));
    }
}
