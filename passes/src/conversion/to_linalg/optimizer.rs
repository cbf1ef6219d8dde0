//! The optimizer steps as elementwise `linalg.generic`s: one per result,
//! each reading what it needs (AdamW's update reads the new moments).

use super::build::{Body, Builder, Lowered};
use super::{all, map2, operand, shape};
use dist_dialect::ir::{OperationExt, element_bytes, element_type, float_attribute};
use dist_dialect::ops::attr;
use melior::ir::{OperationRef, Value, ValueLike};

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
pub(super) fn adamw<'c, 'a>(b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
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
pub(super) fn sgd<'c, 'a>(b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
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
