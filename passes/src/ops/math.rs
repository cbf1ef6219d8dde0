//! The elementwise math functions (`dist.exp`, `dist.log`, `dist.sqrt`,
//! `dist.rsqrt`, `dist.sigmoid`, `dist.silu`, `dist.tanh`, `dist.neg`,
//! `dist.reciprocal`, `dist.abs`, `dist.square`, `dist.sin`, `dist.cos`,
//! `dist.erf`, `dist.erfc`, `dist.log1p`, `dist.expm1`, `dist.atan`, and the piecewise
//! constant `dist.sign`,
//! `dist.floor`, `dist.ceil`, `dist.round`) and the gradient ops of those
//! whose gradient is not an op of the dialect already.

use super::activation::elementwise_rule;
use super::{GradRule, Grads, OpSpec, Read};
use crate::vocabulary::linalg::build::{Body, Builder, Lowered};
use crate::vocabulary::linalg::common::{map1, map2, operand};
use crate::vocabulary::rules::{Linearity, OpDesc, Rule, RuleError};
use dist_dialect::DistOp;
use melior::ir::{OperationRef, Value};

/// A function of one value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Function {
    Exp,
    Log,
    Sqrt,
    Rsqrt,
    Sigmoid,
    Silu,
    Tanh,
    Neg,
    Reciprocal,
    Abs,
    Square,
    Sin,
    Cos,
    Erf,
    Erfc,
    Log1p,
    Expm1,
    Atan,
    Sign,
    Floor,
    Ceil,
    Round,
}

/// The forward op of a [`Function`].
pub struct Unary(Function);

/// The gradient op of a [`Function`]: `dx` from `x` and `dout`.
pub struct UnaryGrad(Function);

pub static EXP: Unary = Unary(Function::Exp);
pub static LOG: Unary = Unary(Function::Log);
pub static SQRT: Unary = Unary(Function::Sqrt);
pub static RSQRT: Unary = Unary(Function::Rsqrt);
pub static SIGMOID: Unary = Unary(Function::Sigmoid);
pub static SILU: Unary = Unary(Function::Silu);
pub static TANH: Unary = Unary(Function::Tanh);
pub static NEG: Unary = Unary(Function::Neg);
pub static RECIPROCAL: Unary = Unary(Function::Reciprocal);
pub static ABS: Unary = Unary(Function::Abs);
pub static SQUARE: Unary = Unary(Function::Square);
pub static SIN: Unary = Unary(Function::Sin);
pub static COS: Unary = Unary(Function::Cos);
pub static ERF: Unary = Unary(Function::Erf);
pub static ERFC: Unary = Unary(Function::Erfc);
pub static LOG1P: Unary = Unary(Function::Log1p);
pub static EXPM1: Unary = Unary(Function::Expm1);
pub static ATAN: Unary = Unary(Function::Atan);
pub static SIGN: Unary = Unary(Function::Sign);
pub static FLOOR: Unary = Unary(Function::Floor);
pub static CEIL: Unary = Unary(Function::Ceil);
pub static ROUND: Unary = Unary(Function::Round);
pub static SQRT_GRAD: UnaryGrad = UnaryGrad(Function::Sqrt);
pub static RSQRT_GRAD: UnaryGrad = UnaryGrad(Function::Rsqrt);
pub static SIGMOID_GRAD: UnaryGrad = UnaryGrad(Function::Sigmoid);
pub static SILU_GRAD: UnaryGrad = UnaryGrad(Function::Silu);
pub static TANH_GRAD: UnaryGrad = UnaryGrad(Function::Tanh);
pub static RECIPROCAL_GRAD: UnaryGrad = UnaryGrad(Function::Reciprocal);
pub static ABS_GRAD: UnaryGrad = UnaryGrad(Function::Abs);
pub static SQUARE_GRAD: UnaryGrad = UnaryGrad(Function::Square);
pub static SIN_GRAD: UnaryGrad = UnaryGrad(Function::Sin);
pub static COS_GRAD: UnaryGrad = UnaryGrad(Function::Cos);
pub static ERF_GRAD: UnaryGrad = UnaryGrad(Function::Erf);
pub static ERFC_GRAD: UnaryGrad = UnaryGrad(Function::Erfc);
pub static LOG1P_GRAD: UnaryGrad = UnaryGrad(Function::Log1p);
pub static EXPM1_GRAD: UnaryGrad = UnaryGrad(Function::Expm1);
pub static ATAN_GRAD: UnaryGrad = UnaryGrad(Function::Atan);

/// `2/sqrt(pi) e^(-a^2)`, erf's derivative.
fn erf_derivative<'c>(s: &mut Body<'c, '_>, a: Value<'c, '_>) -> Lowered<'c, Value<'c, 'c>> {
    let a2 = s.mul(a, a)?;
    let minus = s.unary("arith.negf", a2)?;
    let e = s.unary("math.exp", minus)?;
    s.times(e, std::f64::consts::FRAC_2_SQRT_PI)
}

/// `1 / (1 + e^-a)`: 0 and 1 at the extremes (e^-a overflows to inf or
/// vanishes), never NaN.
fn sigmoid<'c>(s: &mut Body<'c, '_>, a: Value<'c, '_>) -> Lowered<'c, Value<'c, 'c>> {
    let minus = s.unary("arith.negf", a)?;
    let e = s.unary("math.exp", minus)?;
    let one = s.float(1.0)?;
    let d = s.add(one, e)?;
    let one = s.float(1.0)?;
    s.div(one, d)
}

/// `ln(1 + a)` to a few ulps from `log` alone (Goldberg's): `u = 1 + a`
/// rounds, and `ln(u) * a / (u - 1)` corrects for it; `a` where `u` is 1.
/// Not math.log1p, which the CPU pipeline's math-to-llvm writes as
/// `log(1 + a)`, every digit of a small `a` lost.
fn log1p<'c>(s: &mut Body<'c, '_>, a: Value<'c, '_>) -> Lowered<'c, Value<'c, 'c>> {
    let one = s.float(1.0)?;
    let u = s.add(one, a)?;
    let ln = s.unary("math.log", u)?;
    let d = s.sub(u, one)?;
    let scaled = s.mul(ln, a)?;
    let corrected = s.div(scaled, d)?;
    // arith::CmpFPredicate::OEQ
    let exact = s.cmpf(1, u, one)?;
    s.select(exact, a, corrected)
}

/// `e^a - 1` to a few ulps from `exp` and `log` (Kahan's): `u = e^a`, then
/// `(u - 1) * a / ln(u)`; `a` where `u` is 1, -1 where `u - 1` is.
fn expm1<'c>(s: &mut Body<'c, '_>, a: Value<'c, '_>) -> Lowered<'c, Value<'c, 'c>> {
    let one = s.float(1.0)?;
    let u = s.unary("math.exp", a)?;
    let d = s.sub(u, one)?;
    let ln = s.unary("math.log", u)?;
    let scaled = s.mul(d, a)?;
    let corrected = s.div(scaled, ln)?;
    let minus_one = s.float(-1.0)?;
    // OEQ; u = inf gives d * a / inf = NaN: e^a - 1 is inf there.
    let exact = s.cmpf(1, u, one)?;
    let vanished = s.cmpf(1, d, minus_one)?;
    let inf = s.float(f64::INFINITY)?;
    let infinite = s.cmpf(1, u, inf)?;
    let value = s.select(exact, a, corrected)?;
    let value = s.select(vanished, minus_one, value)?;
    s.select(infinite, u, value)
}

impl Function {
    /// `f(a)` in a linalg body.
    fn apply<'c>(self, s: &mut Body<'c, '_>, a: Value<'c, '_>) -> Lowered<'c, Value<'c, 'c>> {
        match self {
            Self::Exp => s.unary("math.exp", a),
            Self::Log => s.unary("math.log", a),
            Self::Sqrt => s.unary("math.sqrt", a),
            // A division, as layer_norm's: libm has no rsqrt.
            Self::Rsqrt => {
                let root = s.unary("math.sqrt", a)?;
                let one = s.float(1.0)?;
                s.div(one, root)
            }
            Self::Sigmoid => sigmoid(s, a),
            Self::Silu => {
                let g = sigmoid(s, a)?;
                s.mul(a, g)
            }
            Self::Tanh => s.unary("math.tanh", a),
            Self::Neg => s.unary("arith.negf", a),
            Self::Reciprocal => {
                let one = s.float(1.0)?;
                s.div(one, a)
            }
            Self::Abs => s.unary("math.absf", a),
            Self::Square => s.mul(a, a),
            Self::Sin => s.unary("math.sin", a),
            Self::Cos => s.unary("math.cos", a),
            Self::Erf => s.unary("math.erf", a),
            Self::Erfc => s.unary("math.erfc", a),
            Self::Log1p => log1p(s, a),
            Self::Expm1 => expm1(s, a),
            Self::Atan => s.unary("math.atan", a),
            Self::Sign => s.sign(a),
            Self::Floor => s.unary("math.floor", a),
            Self::Ceil => s.unary("math.ceil", a),
            Self::Round => s.unary("math.roundeven", a),
        }
    }

    /// Whether it is piecewise constant: its gradient is zero wherever it
    /// is defined (JAX's, PyTorch's), so none flows through it.
    fn is_piecewise_constant(self) -> bool {
        matches!(self, Self::Sign | Self::Floor | Self::Ceil | Self::Round)
    }

    /// `dout * f'(a)` in a linalg body, for the functions with a gradient
    /// op.
    fn gradient<'c>(self, s: &mut Body<'c, '_>, a: Value<'c, '_>, dout: Value<'c, '_>) -> Lowered<'c, Value<'c, 'c>> {
        match self {
            Self::Sqrt => {
                let root = s.unary("math.sqrt", a)?;
                let twice = s.times(root, 2.0)?;
                s.div(dout, twice)
            }
            Self::Rsqrt => {
                let root = s.unary("math.sqrt", a)?;
                let cube = s.mul(a, root)?;
                let twice = s.times(cube, -2.0)?;
                s.div(dout, twice)
            }
            Self::Sigmoid => {
                let g = sigmoid(s, a)?;
                let one = s.float(1.0)?;
                let rest = s.sub(one, g)?;
                let d = s.mul(g, rest)?;
                s.mul(dout, d)
            }
            Self::Silu => {
                let g = sigmoid(s, a)?;
                let one = s.float(1.0)?;
                let rest = s.sub(one, g)?;
                let t = s.mul(a, rest)?;
                let one = s.float(1.0)?;
                let t = s.add(one, t)?;
                let d = s.mul(g, t)?;
                s.mul(dout, d)
            }
            Self::Tanh => {
                let t = s.unary("math.tanh", a)?;
                let t2 = s.mul(t, t)?;
                let one = s.float(1.0)?;
                let d = s.sub(one, t2)?;
                s.mul(dout, d)
            }
            Self::Reciprocal => {
                let a2 = s.mul(a, a)?;
                let q = s.div(dout, a2)?;
                s.unary("arith.negf", q)
            }
            // 0 at 0, as JAX's.
            Self::Abs => {
                let sign = s.sign(a)?;
                s.mul(dout, sign)
            }
            Self::Square => {
                let twice = s.times(a, 2.0)?;
                s.mul(dout, twice)
            }
            Self::Sin => {
                let c = s.unary("math.cos", a)?;
                s.mul(dout, c)
            }
            Self::Cos => {
                let sine = s.unary("math.sin", a)?;
                let p = s.mul(dout, sine)?;
                s.unary("arith.negf", p)
            }
            Self::Erf => {
                let d = erf_derivative(s, a)?;
                s.mul(dout, d)
            }
            Self::Erfc => {
                let d = erf_derivative(s, a)?;
                let p = s.mul(dout, d)?;
                s.unary("arith.negf", p)
            }
            Self::Log1p => {
                let one = s.float(1.0)?;
                let d = s.add(one, a)?;
                s.div(dout, d)
            }
            Self::Expm1 => {
                let e = s.unary("math.exp", a)?;
                s.mul(dout, e)
            }
            Self::Atan => {
                let one = s.float(1.0)?;
                let squared = s.mul(a, a)?;
                let d = s.add(one, squared)?;
                s.div(dout, d)
            }
            Self::Exp | Self::Log | Self::Neg | Self::Sign | Self::Floor | Self::Ceil | Self::Round => {
                unreachable!("{self:?} has no gradient op of its own")
            }
        }
    }
}

impl OpSpec for Unary {
    fn commutes_with_sums(&self) -> bool {
        self.0 == Function::Neg
    }

    fn rule(&self, desc: &OpDesc) -> Result<Rule, RuleError> {
        // -x of a partial sum is the partial sum of the -x's.
        let linearity = if self.0 == Function::Neg {
            Linearity::linear_in(&[0])
        } else {
            Linearity::None
        };
        elementwise_rule(desc, 1, linearity)
    }

    fn has_zero_gradient(&self) -> bool {
        self.0.is_piecewise_constant()
    }

    fn gradient(&self) -> Option<GradRule> {
        let x_dout: &[Read] = &[Read::Operand(0), Read::Dout];
        let (op, reads) = match self.0 {
            // e^x' = e^x: the result times dout.
            Function::Exp => (DistOp::Mul, &[Read::Result(0), Read::Dout][..]),
            Function::Log => (DistOp::Div, &[Read::Dout, Read::Operand(0)][..]),
            Function::Neg => (DistOp::Neg, &[Read::Dout][..]),
            Function::Sqrt => (DistOp::SqrtGrad, x_dout),
            Function::Rsqrt => (DistOp::RsqrtGrad, x_dout),
            Function::Sigmoid => (DistOp::SigmoidGrad, x_dout),
            Function::Silu => (DistOp::SiluGrad, x_dout),
            Function::Tanh => (DistOp::TanhGrad, x_dout),
            Function::Reciprocal => (DistOp::ReciprocalGrad, x_dout),
            Function::Abs => (DistOp::AbsGrad, x_dout),
            Function::Square => (DistOp::SquareGrad, x_dout),
            Function::Sin => (DistOp::SinGrad, x_dout),
            Function::Cos => (DistOp::CosGrad, x_dout),
            Function::Erf => (DistOp::ErfGrad, x_dout),
            Function::Erfc => (DistOp::ErfcGrad, x_dout),
            Function::Log1p => (DistOp::Log1pGrad, x_dout),
            Function::Expm1 => (DistOp::Expm1Grad, x_dout),
            Function::Atan => (DistOp::AtanGrad, x_dout),
            Function::Sign | Function::Floor | Function::Ceil | Function::Round => return None,
        };
        Some(GradRule {
            op,
            reads,
            grads: Grads::Of(&[0]),
            attributes: &[],
        })
    }

    fn lower<'c, 'a>(&self, b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        let f = self.0;
        Ok(vec![map1(b, operand(op, 0), |s, a| f.apply(s, a))?])
    }
}

impl OpSpec for UnaryGrad {
    fn rule(&self, desc: &OpDesc) -> Result<Rule, RuleError> {
        elementwise_rule(desc, 2, Linearity::None)
    }

    fn lower<'c, 'a>(&self, b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        let f = self.0;
        Ok(vec![map2(b, operand(op, 0), operand(op, 1), |s, a, d| {
            f.gradient(s, a, d)
        })?])
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{desc, factor_rule};
    use super::super::{Read, spec};
    use crate::vocabulary::rules::{Linearity, OpAttrs};
    use dist_dialect::DistOp;

    #[test]
    fn functions_shard_as_their_operand_and_neg_passes_a_sum_through() {
        for op in [DistOp::Exp, DistOp::Silu, DistOp::Neg, DistOp::SiluGrad] {
            let operands: Vec<&[i64]> = if op == DistOp::SiluGrad {
                vec![&[4, 8], &[4, 8]]
            } else {
                vec![&[4, 8]]
            };
            let rule = factor_rule(&desc(op.name(), &operands, &[&[4, 8]], OpAttrs::default()));
            assert!(rule.factors.iter().all(|f| f.shardable), "{op}");
            let linear = matches!(rule.linearity, Linearity::Each { .. });
            assert_eq!(linear, op == DistOp::Neg, "{op}");
        }
    }

    #[test]
    fn gradients_reuse_the_dialects_ops_where_they_can() {
        let exp = spec(DistOp::Exp).and_then(|s| s.gradient()).unwrap();
        assert_eq!((exp.op, exp.reads), (DistOp::Mul, &[Read::Result(0), Read::Dout][..]));
        let log = spec(DistOp::Log).and_then(|s| s.gradient()).unwrap();
        assert_eq!((log.op, log.reads), (DistOp::Div, &[Read::Dout, Read::Operand(0)][..]));
        let silu = spec(DistOp::Silu).and_then(|s| s.gradient()).unwrap();
        assert_eq!(silu.op, DistOp::SiluGrad);
    }
}
