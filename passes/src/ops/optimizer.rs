//! The optimizer steps `dist.adamw` and `dist.sgd` (with or without
//! momentum): elementwise over a parameter, its gradient and its states,
//! lowered as one `linalg.generic` per result, each reading what it needs
//! (AdamW's update reads the new moments).

use super::OpSpec;
use crate::vocabulary::linalg::build::{Body, Builder, Lowered};
use crate::vocabulary::linalg::common::{all, map2, operand, shape};
use crate::vocabulary::rules::{Linearity, OpDesc, Rule, RuleBuilder, RuleError, expect_arity, sum_each};
use dist_dialect::ir::{OperationExt, element_bytes, element_type, float_attribute};
use dist_dialect::ops::attr;
use melior::ir::{OperationRef, Value, ValueLike};

pub struct AdamW;
pub struct Sgd;

pub static ADAMW: AdamW = AdamW;
pub static SGD: Sgd = Sgd;

/// Elementwise over `operands` tensors of the parameter's shape, making
/// `results`; the operand at `scalar` (AdamW's step count) is a replicated
/// scalar.
fn step_rule(desc: &OpDesc, operands: usize, results: usize, scalar: Option<usize>) -> Result<Rule, RuleError> {
    expect_arity(desc, operands, results)?;
    let mut b = RuleBuilder::default();
    let x = b.dims(desc.operands[0].len());
    let tensors = (0..operands)
        .map(|i| if Some(i) == scalar { Vec::new() } else { x.clone() })
        .collect();
    Ok(b.finish(tensors, vec![x; results], sum_each(results), Linearity::None))
}

impl OpSpec for AdamW {
    /// param, grad, m, v, step -> param', m', v'.
    fn rule(&self, desc: &OpDesc) -> Result<Rule, RuleError> {
        step_rule(desc, 5, 3, Some(4))
    }

    fn lower<'c, 'a>(&self, b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        adamw(b, op)
    }

    fn optimizer_states(&self) -> Option<&'static [usize]> {
        Some(&[2, 3])
    }
}

impl OpSpec for Sgd {
    /// param, grad[, momentum buffer] -> param'[, buffer'].
    fn rule(&self, desc: &OpDesc) -> Result<Rule, RuleError> {
        if desc.operands.len() == 3 {
            step_rule(desc, 3, 2, None)
        } else {
            step_rule(desc, 2, 1, None)
        }
    }

    fn lower<'c, 'a>(&self, b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        sgd(b, op)
    }

    fn optimizer_states(&self) -> Option<&'static [usize]> {
        Some(&[2])
    }
}

/// A float attribute the verifier requires.
fn required(op: &OperationRef<'_, '_>, name: &str) -> f64 {
    float_attribute(op, name).expect("the verifier checked the attribute")
}

/// `a * x + b * y`.
fn blend<'c>(s: &mut Body<'c, '_>, a: f64, x: Value<'c, '_>, b: f64, y: Value<'c, '_>) -> Lowered<'c, Value<'c, 'c>> {
    let ax = s.times(x, a)?;
    let by = s.times(y, b)?;
    s.add(ax, by)
}

/// `p - lr x`.
fn descend<'c>(s: &mut Body<'c, '_>, p: Value<'c, '_>, lr: f64, x: Value<'c, '_>) -> Lowered<'c, Value<'c, 'c>> {
    let scaled = s.times(x, lr)?;
    s.sub(p, scaled)
}

/// `1 - beta^t` with `t` the f32 step count, in the body's element type
/// (f32 or f64, as the verifier requires).
fn bias_correction<'c>(
    s: &mut Body<'c, '_>,
    beta: f64,
    t: Value<'c, '_>,
    step_bytes: u64,
) -> Lowered<'c, Value<'c, 'c>> {
    let t = if element_bytes(s.element) > step_bytes {
        s.convert("arith.extf", t)?
    } else {
        t
    };
    let base = s.float(beta)?;
    let power = s.binary("math.powf", base, t)?;
    let one = s.float(1.0)?;
    s.sub(one, power)
}

/// `dist.adamw`: m', v', then the parameter from them.
fn adamw<'c, 'a>(b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
    let [param, grad, m, v, step] = [0, 1, 2, 3, 4].map(|i| operand(op, i));
    let [lr, beta1, beta2, epsilon, decay] =
        [attr::LR, attr::BETA1, attr::BETA2, attr::EPSILON, attr::WEIGHT_DECAY].map(|name| required(&op, name));
    let new_m = map2(b, m, grad, |s, m, g| blend(s, beta1, m, 1.0 - beta1, g))?;
    let new_v = map2(b, v, grad, |s, v, g| {
        let g2 = s.mul(g, g)?;
        blend(s, beta2, v, 1.0 - beta2, g2)
    })?;
    let dims = shape(param);
    let r = dims.len();
    let step_bytes = element_bytes(step.r#type());
    let init = b.empty(&dims, element_type(param.r#type()))?;
    let inputs = [(param, all(r)), (new_m, all(r)), (new_v, all(r)), (step, Vec::new())];
    let new_param = b.generic(r, &[], &inputs, (init, all(r)), |s, a| {
        let (p, m, v, t) = (a[0], a[1], a[2], a[3]);
        let m_hat = {
            let c = bias_correction(s, beta1, t, step_bytes)?;
            s.div(m, c)?
        };
        let v_hat = {
            let c = bias_correction(s, beta2, t, step_bytes)?;
            s.div(v, c)?
        };
        let root = s.unary("math.sqrt", v_hat)?;
        let eps = s.float(epsilon)?;
        let denominator = s.add(root, eps)?;
        let adam = s.div(m_hat, denominator)?;
        let update = {
            let decayed = s.times(p, decay)?;
            s.add(adam, decayed)?
        };
        descend(s, p, lr, update)
    })?;
    Ok(vec![new_param, new_m, new_v])
}

/// `dist.sgd`: `p - lr g`, or with momentum the new buffer first and
/// `p - lr buf'`.
fn sgd<'c, 'a>(b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
    let (param, grad) = (operand(op, 0), operand(op, 1));
    let lr = required(&op, attr::LR);
    let Some(buffer) = op.operand_at(2) else {
        return Ok(vec![map2(b, param, grad, |s, p, g| descend(s, p, lr, g))?]);
    };
    let momentum = required(&op, attr::MOMENTUM);
    let new_buffer = map2(b, buffer, grad, |s, buf, g| blend(s, momentum, buf, 1.0, g))?;
    let new_param = map2(b, param, new_buffer, |s, p, buf| descend(s, p, lr, buf))?;
    Ok(vec![new_param, new_buffer])
}

#[cfg(test)]
mod tests {
    use super::super::testing::{desc, factor_rule};
    use crate::vocabulary::rules::{Linearity, OpAttrs, RuleError};
    use dist_dialect::DistOp;

    #[test]
    fn optimizer_steps_are_elementwise_with_a_scalar_step() {
        let adamw = factor_rule(&desc(
            DistOp::AdamW.name(),
            &[&[4, 8], &[4, 8], &[4, 8], &[4, 8], &[]],
            &[&[4, 8], &[4, 8], &[4, 8]],
            OpAttrs::default(),
        ));
        assert_eq!(
            adamw.einsum(),
            "d0,d1 ; d0,d1 ; d0,d1 ; d0,d1 ; () -> d0,d1 ; d0,d1 ; d0,d1"
        );
        assert_eq!(adamw.linearity, Linearity::None);
        let sgd = factor_rule(&desc(
            DistOp::Sgd.name(),
            &[&[8], &[8], &[8]],
            &[&[8], &[8]],
            OpAttrs::default(),
        ));
        assert_eq!(sgd.einsum(), "d0 ; d0 ; d0 -> d0 ; d0");
        let err = super::super::rule_for(&desc(
            DistOp::Sgd.name(),
            &[&[8], &[8]],
            &[&[8], &[8]],
            OpAttrs::default(),
        ))
        .unwrap_err();
        assert!(matches!(err, RuleError::Malformed { .. }));
    }
}
