//! Elementwise functions of one tensor and their gradients: `dist.scale`,
//! `dist.relu`, `dist.gelu` (erf or tanh form), and `dist.cast` between
//! float types.

use super::{Attr, GradRule, Grads, OpSpec, Read};
use crate::vocabulary::linalg::build::{Body, Builder, Lowered};
use crate::vocabulary::linalg::common::{all, map1, map2, operand, shape};
use crate::vocabulary::rules::{Linearity, OpDesc, Rule, RuleBuilder, RuleError, expect_arity, sum_each};
use dist_dialect::DistOp;
use dist_dialect::ir::OperationExt;
use dist_dialect::ir::{element_type, float_attribute, string_attribute};
use dist_dialect::ops::attr;
use melior::ir::r#type::IntegerType;
use melior::ir::{OperationRef, Type, TypeLike, Value, ValueLike};

/// `x * factor`.
pub struct Scale;
pub struct Relu;
pub struct ReluGrad;
pub struct Gelu;
pub struct GeluGrad;

pub static SCALE: Scale = Scale;
pub static RELU: Relu = Relu;
pub static RELU_GRAD: ReluGrad = ReluGrad;
pub static GELU: Gelu = Gelu;
pub static GELU_GRAD: GeluGrad = GeluGrad;

/// Conversion between element types: floats, integers and booleans.
pub struct Cast;

pub static CAST: Cast = Cast;

impl OpSpec for Cast {
    /// Elementwise, and linear up to rounding: a partial operand passes
    /// through and is reduced after the cast, in the type
    /// `dist-resolve-partial`'s `reduce-dtype` says (f32 for bf16 values by
    /// default).
    fn rule(&self, desc: &OpDesc) -> Result<Rule, RuleError> {
        elementwise_rule(desc, 1, Linearity::linear_in(&[0]))
    }

    /// `dx = cast(dout)` back to the operand's type.
    fn gradient(&self) -> Option<GradRule> {
        Some(GradRule {
            op: DistOp::Cast,
            reads: &[Read::Dout],
            grads: Grads::Of(&[0]),
            attributes: &[],
        })
    }

    fn lower<'c, 'a>(&self, b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        let x = operand(op, 0);
        let from = element_type(x.r#type());
        let to = element_type(op.result_at(0).expect("cast has a result").r#type());
        if from == to {
            return Ok(vec![x]);
        }
        let sizes = shape(x);
        let rank = sizes.len();
        let init = b.empty(&sizes, to)?;
        Ok(vec![b.generic(
            rank,
            &[],
            &[(x, all(rank))],
            (init, all(rank)),
            |s, a| match (from.is_float(), to.is_float()) {
                (true, true) => convert(s, a[0], from, to),
                (true, false) => float_to_integer(s, a[0], to),
                (false, true) => integer_to_float(s, a[0], to),
                (false, false) => integer_to_integer(s, a[0], to),
            },
        )?])
    }
}

/// The width in bits of a float type.
fn float_bits(t: Type<'_>) -> u32 {
    if t.is_f64() {
        64
    } else if t.is_f32() {
        32
    } else {
        16
    }
}

/// `a` (of type `from`) as a `to` (another type): widened, rounded to
/// nearest even (from f64 to 16 bits through f32), or between the two
/// 16-bit types through f32.
fn convert<'c>(s: &mut Body<'c, '_>, a: Value<'c, '_>, from: Type<'c>, to: Type<'c>) -> Lowered<'c, Value<'c, 'c>> {
    let (wide, narrow) = (float_bits(from), float_bits(to));
    if wide < narrow {
        s.convert("arith.extf", a)
    } else if wide == 64 && narrow == 16 {
        // Through f32: rounding f64 to a 16-bit type directly needs a
        // libgcc routine (`__truncdfbf2`) Debian 12's lacks. Rounding twice
        // differs from once only for values within 2^-24 of a halfway point.
        let f32 = Type::float32(dist_dialect::ir::context_of_type(from));
        let narrowed = s.op("arith.truncf", &[a], f32)?;
        s.convert("arith.truncf", narrowed)
    } else if wide > narrow {
        s.convert("arith.truncf", a)
    } else {
        let f32 = Type::float32(dist_dialect::ir::context_of_type(from));
        let widened = s.op("arith.extf", &[a], f32)?;
        s.convert("arith.truncf", widened)
    }
}

/// The width in bits of an integer type (1 for a boolean).
fn integer_bits(t: Type<'_>) -> u32 {
    IntegerType::try_from(t).expect("a signless integer").width()
}

/// A float as an integer, rounded toward zero; as a boolean, `a != 0`.
fn float_to_integer<'c>(s: &mut Body<'c, '_>, a: Value<'c, '_>, to: Type<'c>) -> Lowered<'c, Value<'c, 'c>> {
    let a = s.at_least_f32(a)?;
    if integer_bits(to) == 1 {
        let zero = s.float_of(a.r#type(), 0.0)?;
        // arith::CmpFPredicate::UNE: NaN is true, as C's `(bool) NAN`.
        return s.cmpf(13, a, zero);
    }
    s.op("arith.fptosi", &[a], to)
}

/// A signed integer (a boolean as 0 or 1) as the nearest float.
fn integer_to_float<'c>(s: &mut Body<'c, '_>, a: Value<'c, '_>, to: Type<'c>) -> Lowered<'c, Value<'c, 'c>> {
    let name = if integer_bits(a.r#type()) == 1 {
        "arith.uitofp"
    } else {
        "arith.sitofp"
    };
    if float_bits(to) != 16 {
        return s.op(name, &[a], to);
    }
    // Through f32, rounded once more as every narrowing to 16 bits is.
    let wide = s.op(name, &[a], Type::float32(dist_dialect::ir::context_of_type(to)))?;
    s.convert("arith.truncf", wide)
}

/// An integer sign-extended or truncated (a boolean extended as 0 or 1); as
/// a boolean, `a != 0`.
fn integer_to_integer<'c>(s: &mut Body<'c, '_>, a: Value<'c, '_>, to: Type<'c>) -> Lowered<'c, Value<'c, 'c>> {
    let (from_bits, to_bits) = (integer_bits(a.r#type()), integer_bits(to));
    if to_bits == 1 {
        let zero = s.integer(a.r#type(), 0)?;
        // arith::CmpIPredicate::ne
        return s.cmpi(1, a, zero);
    }
    let name = match from_bits.cmp(&to_bits) {
        std::cmp::Ordering::Less if from_bits == 1 => "arith.extui",
        std::cmp::Ordering::Less => "arith.extsi",
        std::cmp::Ordering::Greater => "arith.trunci",
        std::cmp::Ordering::Equal => unreachable!("a cast to its own type is its operand"),
    };
    s.op(name, &[a], to)
}

/// The rule of an elementwise op of `operands` tensors of one shape.
pub fn elementwise_rule(desc: &OpDesc, operands: usize, linearity: Linearity) -> Result<Rule, RuleError> {
    expect_arity(desc, operands, 1)?;
    let mut b = RuleBuilder::default();
    let x = b.dims(desc.operands[0].len());
    Ok(b.finish(vec![x.clone(); operands], vec![x], sum_each(1), linearity))
}

impl OpSpec for Scale {
    fn commutes_with_sums(&self) -> bool {
        true
    }

    fn rule(&self, desc: &OpDesc) -> Result<Rule, RuleError> {
        let linearity = Linearity::linear_in(&[0]);
        elementwise_rule(desc, 1, linearity)
    }

    /// Linear: its own gradient.
    fn gradient(&self) -> Option<GradRule> {
        Some(GradRule {
            op: DistOp::Scale,
            reads: &[Read::Dout],
            grads: Grads::Of(&[0]),
            attributes: &[Attr::Copy(attr::FACTOR)],
        })
    }

    fn lower<'c, 'a>(&self, b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        let factor = float_attribute(&op, attr::FACTOR).unwrap_or(1.0);
        Ok(vec![map1(b, operand(op, 0), |s, a| s.times(a, factor))?])
    }
}

impl OpSpec for Relu {
    fn rule(&self, desc: &OpDesc) -> Result<Rule, RuleError> {
        elementwise_rule(desc, 1, Linearity::None)
    }

    fn gradient(&self) -> Option<GradRule> {
        Some(GradRule {
            op: DistOp::ReluGrad,
            reads: &[Read::Operand(0), Read::Dout],
            grads: Grads::Of(&[0]),
            attributes: &[],
        })
    }

    fn lower<'c, 'a>(&self, b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        Ok(vec![map1(b, operand(op, 0), |s, a| s.where_positive(a, a))?])
    }
}

impl OpSpec for ReluGrad {
    fn rule(&self, desc: &OpDesc) -> Result<Rule, RuleError> {
        elementwise_rule(desc, 2, Linearity::None)
    }

    fn lower<'c, 'a>(&self, b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        Ok(vec![map2(b, operand(op, 0), operand(op, 1), |s, a, d| {
            s.where_positive(a, d)
        })?])
    }
}

/// Whether a gelu takes the tanh form.
fn tanh_form(op: &OperationRef<'_, '_>) -> bool {
    string_attribute(op, attr::APPROXIMATE).is_some_and(|s| s == "tanh")
}

impl OpSpec for Gelu {
    fn rule(&self, desc: &OpDesc) -> Result<Rule, RuleError> {
        elementwise_rule(desc, 1, Linearity::None)
    }

    fn gradient(&self) -> Option<GradRule> {
        Some(GradRule {
            op: DistOp::GeluGrad,
            reads: &[Read::Operand(0), Read::Dout],
            grads: Grads::Of(&[0]),
            attributes: &[Attr::Copy(attr::APPROXIMATE)],
        })
    }

    fn lower<'c, 'a>(&self, b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        let tanh = tanh_form(&op);
        Ok(vec![map1(b, operand(op, 0), |s, a| gelu(s, a, tanh))?])
    }
}

impl OpSpec for GeluGrad {
    fn rule(&self, desc: &OpDesc) -> Result<Rule, RuleError> {
        elementwise_rule(desc, 2, Linearity::None)
    }

    fn lower<'c, 'a>(&self, b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        let tanh = tanh_form(&op);
        Ok(vec![map2(b, operand(op, 0), operand(op, 1), |s, a, d| {
            let g = gelu_derivative(s, a, tanh)?;
            s.mul(g, d)
        })?])
    }
}

const SQRT_2_OVER_PI: f64 = 0.797_884_560_802_865_4;
const GELU_CUBIC: f64 = 0.044_715;

/// `gelu(a)`: `0.5 a (1 + erf(a / sqrt 2))`, or with `tanh`
/// `0.5 a (1 + tanh(sqrt(2/pi) (a + 0.044715 a^3)))`.
fn gelu<'c>(s: &mut Body<'c, '_>, a: Value<'c, '_>, tanh: bool) -> Lowered<'c, Value<'c, 'c>> {
    let phi = gelu_cdf(s, a, tanh)?;
    s.mul(a, phi)
}

/// `0.5 (1 + erf(a / sqrt 2))` or its tanh approximation.
fn gelu_cdf<'c>(s: &mut Body<'c, '_>, a: Value<'c, '_>, tanh: bool) -> Lowered<'c, Value<'c, 'c>> {
    let inner = if tanh {
        let u = tanh_argument(s, a)?;
        s.unary("math.tanh", u)?
    } else {
        let u = s.times(a, std::f64::consts::FRAC_1_SQRT_2)?;
        s.unary("math.erf", u)?
    };
    let one = s.float(1.0)?;
    let sum = s.add(one, inner)?;
    s.times(sum, 0.5)
}

/// `sqrt(2/pi) (a + 0.044715 a^3)`.
fn tanh_argument<'c>(s: &mut Body<'c, '_>, a: Value<'c, '_>) -> Lowered<'c, Value<'c, 'c>> {
    let a2 = s.mul(a, a)?;
    let a3 = s.mul(a2, a)?;
    let c = s.times(a3, GELU_CUBIC)?;
    let sum = s.add(a, c)?;
    s.times(sum, SQRT_2_OVER_PI)
}

/// `d gelu(a) / da`.
fn gelu_derivative<'c>(s: &mut Body<'c, '_>, a: Value<'c, '_>, tanh: bool) -> Lowered<'c, Value<'c, 'c>> {
    let cdf = gelu_cdf(s, a, tanh)?;
    let pdf_term = if tanh {
        // 0.5 a (1 - t^2) sqrt(2/pi) (1 + 3 * 0.044715 a^2)
        let u = tanh_argument(s, a)?;
        let t = s.unary("math.tanh", u)?;
        let t2 = s.mul(t, t)?;
        let one = s.float(1.0)?;
        let sech2 = s.sub(one, t2)?;
        let a2 = s.mul(a, a)?;
        let c = s.times(a2, 3.0 * GELU_CUBIC)?;
        let one = s.float(1.0)?;
        let du = s.add(one, c)?;
        let du = s.times(du, SQRT_2_OVER_PI)?;
        let half_a = s.times(a, 0.5)?;
        let p = s.mul(half_a, sech2)?;
        s.mul(p, du)?
    } else {
        // a exp(-a^2 / 2) / sqrt(2 pi)
        let a2 = s.mul(a, a)?;
        let e = s.times(a2, -0.5)?;
        let e = s.unary("math.exp", e)?;
        let p = s.mul(a, e)?;
        s.times(p, 1.0 / (2.0 * std::f64::consts::PI).sqrt())?
    };
    s.add(cdf, pdf_term)
}
