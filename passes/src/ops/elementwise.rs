//! The binary elementwise ops with NumPy broadcasting (`dist.add`,
//! `dist.sub`, `dist.mul`, `dist.div`, `dist.maximum`, `dist.minimum`,
//! `dist.pow`, `dist.rem`) and
//! their gradients: the shapes align at their trailing dims, a missing or
//! size-1 dim stretches. An operand's gradient sums over the dims it was
//! broadcast along, so a broadcast dim split over a mesh axis leaves that
//! gradient partial (a sum) over the axis.

use super::{GradRule, Grads, OpSpec, Read};
use crate::vocabulary::linalg::build::{Body, Builder, Ix, Lowered};
use crate::vocabulary::linalg::common::{operand, shape};
use crate::vocabulary::rules::{Dims, Linearity, OpDesc, Rule, RuleBuilder, RuleError, expect_arity, sum_each};
use dist_dialect::DistOp;
use dist_dialect::ir::{OperationExt, element_type};
use melior::ir::r#type::IntegerType;
use melior::ir::{OperationRef, TypeLike, Value, ValueLike};

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Binary {
    Add,
    Sub,
    Mul,
    Div,
    Maximum,
    Minimum,
    Pow,
    Rem,
}

/// The gradient of a [`Binary`]: `dx` and `dy`.
pub struct BinaryGrad(Binary);

pub static ADD: Binary = Binary::Add;
pub static SUB: Binary = Binary::Sub;
pub static MUL: Binary = Binary::Mul;
pub static DIV: Binary = Binary::Div;
pub static MAXIMUM: Binary = Binary::Maximum;
pub static MINIMUM: Binary = Binary::Minimum;
pub static POW: Binary = Binary::Pow;
pub static REM: Binary = Binary::Rem;
pub static ADD_GRAD: BinaryGrad = BinaryGrad(Binary::Add);
pub static SUB_GRAD: BinaryGrad = BinaryGrad(Binary::Sub);
pub static MUL_GRAD: BinaryGrad = BinaryGrad(Binary::Mul);
pub static DIV_GRAD: BinaryGrad = BinaryGrad(Binary::Div);
pub static MAXIMUM_GRAD: BinaryGrad = BinaryGrad(Binary::Maximum);
pub static MINIMUM_GRAD: BinaryGrad = BinaryGrad(Binary::Minimum);
pub static POW_GRAD: BinaryGrad = BinaryGrad(Binary::Pow);
pub static REM_GRAD: BinaryGrad = BinaryGrad(Binary::Rem);

/// The dims of an operand of shape `operand` broadcast to `out`: for each,
/// the result dim it reads, or `None` where a size-1 dim stretches.
fn aligned(operand: &[i64], out: &[i64]) -> Vec<Option<usize>> {
    let lead = out.len() - operand.len();
    operand
        .iter()
        .enumerate()
        .map(|(i, &size)| (size == out[lead + i]).then_some(lead + i))
        .collect()
}

/// The result's factors, one per dim, and the operands' (`None` on a
/// stretched size-1 dim).
fn factors(b: &mut RuleBuilder, x: &[i64], y: &[i64], out: &[i64]) -> (Dims, Dims, Dims) {
    let (mut operands, result) = broadcast_factors(b, &[x, y], out);
    let y = operands.pop().expect("two operands");
    let x = operands.pop().expect("two operands");
    (x, y, result)
}

/// The factors of `operands` broadcast to `out` (`None` on a stretched
/// size-1 dim), and the result's, one per dim.
pub(super) fn broadcast_factors(b: &mut RuleBuilder, operands: &[&[i64]], out: &[i64]) -> (Vec<Dims>, Dims) {
    let result = b.dims(out.len());
    let read = |shape: &[i64]| aligned(shape, out).iter().map(|d| d.and_then(|d| result[d])).collect();
    (operands.iter().map(|shape| read(shape)).collect(), result)
}

/// The indexing map of an operand of shape `operand` in the loops of `out`.
pub(super) fn broadcast_map(operand: &[i64], out: &[i64]) -> Vec<Ix> {
    aligned(operand, out)
        .iter()
        .map(|d| d.map_or(Ix::Zero, Ix::D))
        .collect()
}

/// The loops of `out` an operand of shape `operand` is broadcast along.
pub(super) fn broadcast_dims(operand: &[i64], out: &[i64]) -> Vec<usize> {
    let read = aligned(operand, out);
    (0..out.len()).filter(|d| !read.contains(&Some(*d))).collect()
}

impl Binary {
    /// `x op y` in a linalg body.
    fn apply<'c>(self, s: &mut Body<'c, '_>, x: Value<'c, '_>, y: Value<'c, '_>) -> Lowered<'c, Value<'c, 'c>> {
        if !x.r#type().is_float() {
            return self.apply_integer(s, x, y);
        }
        match self {
            Self::Add => s.binary("arith.addf", x, y),
            Self::Sub => s.binary("arith.subf", x, y),
            Self::Mul => s.binary("arith.mulf", x, y),
            Self::Div => s.div(x, y),
            Self::Maximum => s.binary("arith.maximumf", x, y),
            Self::Minimum => s.binary("arith.minimumf", x, y),
            Self::Pow => s.binary("math.powf", x, y),
            Self::Rem => s.binary("arith.remf", x, y),
        }
    }

    /// `x op y` of integers, as StableHLO defines it: signed, wrapping on
    /// overflow, division rounding toward zero; `x / 0` is -1 and `MIN / -1`
    /// is `MIN` (where the machine's division would trap).
    fn apply_integer<'c>(self, s: &mut Body<'c, '_>, x: Value<'c, '_>, y: Value<'c, '_>) -> Lowered<'c, Value<'c, 'c>> {
        let name = match self {
            Self::Add => "arith.addi",
            Self::Sub => "arith.subi",
            Self::Mul => "arith.muli",
            Self::Maximum => "arith.maxsi",
            Self::Minimum => "arith.minsi",
            Self::Div => return integer_division(s, x, y, false),
            Self::Rem => return integer_division(s, x, y, true),
            Self::Pow => unreachable!("the verifier keeps dist.pow to floats"),
        };
        s.binary(name, x, y)
    }

    /// The share of `dout` that goes to `a` of `max(a, b)` (`min` with
    /// `smaller`): all of it where `a` wins, half on a tie (as JAX).
    fn chosen<'c>(
        s: &mut Body<'c, '_>,
        a: Value<'c, '_>,
        b: Value<'c, '_>,
        dout: Value<'c, '_>,
        smaller: bool,
    ) -> Lowered<'c, Value<'c, 'c>> {
        // arith::CmpFPredicate: OEQ 1, OGT 2, OLT 4.
        let wins = s.cmpf(if smaller { 4 } else { 2 }, a, b)?;
        let tie = s.cmpf(1, a, b)?;
        let half = s.times(dout, 0.5)?;
        let zero = s.float(0.0)?;
        let on_tie = s.select(tie, half, zero)?;
        s.select(wins, dout, on_tie)
    }

    /// `d loss / d x` (`y` with `of_y`) before the sum over the broadcast
    /// dims, from `dout`, `x` and `y`.
    fn gradient<'c>(
        self,
        s: &mut Body<'c, '_>,
        [dout, x, y]: [Value<'c, 'c>; 3],
        of_y: bool,
    ) -> Lowered<'c, Value<'c, 'c>> {
        match (self, of_y) {
            (Self::Add, _) | (Self::Sub, false) => Ok(dout),
            (Self::Sub, true) => s.times(dout, -1.0),
            (Self::Mul, false) => s.mul(dout, y),
            (Self::Mul, true) => s.mul(dout, x),
            (Self::Div, false) => s.div(dout, y),
            (Self::Div, true) => {
                let q = s.div(x, y)?;
                let p = s.mul(dout, q)?;
                let p = s.div(p, y)?;
                s.unary("arith.negf", p)
            }
            (Self::Maximum | Self::Minimum, _) => {
                let (a, b) = if of_y { (y, x) } else { (x, y) };
                Self::chosen(s, a, b, dout, self == Self::Minimum)
            }
            // JAX's: y x^(y - 1), 0 where y is 0 (0^-1 would make it NaN).
            (Self::Pow, false) => {
                let one = s.float(1.0)?;
                let less = s.sub(y, one)?;
                let p = s.binary("math.powf", x, less)?;
                let d = s.mul(y, p)?;
                let d = s.mul(dout, d)?;
                let zero = s.float(0.0)?;
                // arith::CmpFPredicate::OEQ
                let constant = s.cmpf(1, y, zero)?;
                s.select(constant, zero, d)
            }
            (Self::Rem, false) => Ok(dout),
            // JAX's: -trunc(x / y), trunc as floor or ceil by the sign
            // (math.trunc has no NVVM lowering).
            (Self::Rem, true) => {
                let q = s.div(x, y)?;
                let down = s.unary("math.floor", q)?;
                let up = s.unary("math.ceil", q)?;
                let zero = s.float(0.0)?;
                // arith::CmpFPredicate::OGE
                let nonnegative = s.cmpf(3, q, zero)?;
                let q = s.select(nonnegative, down, up)?;
                let d = s.mul(dout, q)?;
                s.unary("arith.negf", d)
            }
            // JAX's: ln(x) x^y, with ln(1) where x is 0 (0 * -inf is NaN).
            (Self::Pow, true) => {
                let zero = s.float(0.0)?;
                let one = s.float(1.0)?;
                let at_zero = s.cmpf(1, x, zero)?;
                let base = s.select(at_zero, one, x)?;
                let ln = s.unary("math.log", base)?;
                let p = s.binary("math.powf", x, y)?;
                let d = s.mul(ln, p)?;
                s.mul(dout, d)
            }
        }
    }
}

/// `x / y` of signed integers (with `remainder`, `x % y`) without the
/// machine's traps: `x / 0` is -1 and `x % 0` is `x`, `MIN / -1` wraps to
/// `MIN` and `MIN % -1` is 0, as XLA defines them.
fn integer_division<'c>(
    s: &mut Body<'c, '_>,
    x: Value<'c, '_>,
    y: Value<'c, '_>,
    remainder: bool,
) -> Lowered<'c, Value<'c, 'c>> {
    let ty = x.r#type();
    let bits = IntegerType::try_from(ty).expect("an integer operand").width();
    let zero = s.integer(ty, 0)?;
    let one = s.integer(ty, 1)?;
    let minus_one = s.integer(ty, -1)?;
    let min = s.integer(ty, i64::MIN >> (64 - bits))?;
    // arith::CmpIPredicate::eq
    let by_zero = s.cmpi(0, y, zero)?;
    let x_min = s.cmpi(0, x, min)?;
    let y_minus_one = s.cmpi(0, y, minus_one)?;
    let overflow = s.and(x_min, y_minus_one)?;
    let trapping = s.op("arith.ori", &[by_zero, overflow], by_zero.r#type())?;
    let divisor = s.select(trapping, one, y)?;
    if remainder {
        // x % 1 is 0, MIN % -1's value.
        let rest = s.binary("arith.remsi", x, divisor)?;
        return s.select(by_zero, x, rest);
    }
    let quotient = s.binary("arith.divsi", x, divisor)?;
    let wrapped = s.select(overflow, min, quotient)?;
    s.select(by_zero, minus_one, wrapped)
}

impl OpSpec for Binary {
    fn commutes_with_sums(&self) -> bool {
        matches!(self, Binary::Add | Binary::Sub)
    }

    fn rule(&self, desc: &OpDesc) -> Result<Rule, RuleError> {
        expect_arity(desc, 2, 1)?;
        let mut b = RuleBuilder::default();
        let (x, y, out) = factors(&mut b, &desc.operands[0], &desc.operands[1], &desc.results[0]);
        let linearity = match self {
            Binary::Add | Binary::Sub => Linearity::Sum(vec![0, 1]),
            Binary::Mul => Linearity::linear_in(&[0, 1]),
            // Linear in the dividend only.
            Binary::Div => Linearity::linear_in(&[0]),
            Binary::Maximum | Binary::Minimum | Binary::Pow | Binary::Rem => Linearity::None,
        };
        Ok(b.finish(vec![x, y], vec![out], sum_each(1), linearity))
    }

    fn gradient(&self) -> Option<GradRule> {
        let op = match self {
            Binary::Add => DistOp::AddGrad,
            Binary::Sub => DistOp::SubGrad,
            Binary::Mul => DistOp::MulGrad,
            Binary::Div => DistOp::DivGrad,
            Binary::Maximum => DistOp::MaximumGrad,
            Binary::Minimum => DistOp::MinimumGrad,
            Binary::Pow => DistOp::PowGrad,
            Binary::Rem => DistOp::RemGrad,
        };
        Some(GradRule {
            op,
            reads: &[Read::Operand(0), Read::Operand(1), Read::Dout],
            grads: Grads::Of(&[0, 1]),
            attributes: &[],
        })
    }

    fn lower<'c, 'a>(&self, b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        let (x, y) = (operand(op, 0), operand(op, 1));
        let out = op.result_at(0).map(|r| shape(r.into())).unwrap_or_default();
        let r = out.len();
        let init = b.empty(&out, element_type(x.r#type()))?;
        let inputs = [(x, broadcast_map(&shape(x), &out)), (y, broadcast_map(&shape(y), &out))];
        let kind = *self;
        Ok(vec![b.generic(
            r,
            &[],
            &inputs,
            (init, broadcast_map(&out, &out)),
            |s, a| kind.apply(s, a[0], a[1]),
        )?])
    }
}

impl BinaryGrad {
    /// The gradient of operand `x` (`y` with `of_y`): each result element's
    /// share, summed over the operand's broadcast dims. An unbroadcast
    /// operand of a sum (or x of a difference) takes `dout` itself.
    fn operand_gradient<'c, 'a>(
        &self,
        b: &mut Builder<'c, 'a>,
        [x, y, dout]: [Value<'c, 'a>; 3],
        of_y: bool,
    ) -> Lowered<'c, Value<'c, 'a>> {
        let kind = self.0;
        let out = shape(dout);
        let target = shape(if of_y { y } else { x });
        let reduced = broadcast_dims(&target, &out);
        let sum_of = matches!(kind, Binary::Add | Binary::Sub);
        if !of_y && sum_of && reduced.is_empty() {
            return Ok(dout);
        }
        // The inputs: dout, then x where the gradient reads it (dy always
        // lists x, which gives the sum's its loop shape), then y.
        let both = matches!(kind, Binary::Maximum | Binary::Minimum | Binary::Pow);
        let reads_x = of_y || both;
        let reads_y = both || kind == Binary::Div || (kind == Binary::Mul && !of_y) || (kind == Binary::Rem && of_y);
        let all = broadcast_map(&out, &out);
        let mut inputs = vec![(dout, all)];
        if reads_x {
            inputs.push((x, broadcast_map(&shape(x), &out)));
        }
        if reads_y {
            inputs.push((y, broadcast_map(&shape(y), &out)));
        }
        let body = move |s: &mut Body<'c, '_>, a: &[Value<'c, 'c>]| {
            let x = if reads_x { a[1] } else { a[0] };
            let y = if reads_y { a[1 + usize::from(reads_x)] } else { a[0] };
            kind.gradient(s, [a[0], x, y], of_y)
        };
        let element = element_type(dout.r#type());
        let target_map = broadcast_map(&target, &out);
        b.sum(out.len(), &reduced, &inputs, (&target, target_map), element, 1.0, body)
    }
}

impl OpSpec for BinaryGrad {
    /// A divisor's padding is 1: `dout`'s is 0, so each padded term is
    /// `0 / 1`, where a 0 would make it `0 / 0`. So is a base's: `1^y` and
    /// `ln 1` are finite, where `0^(y - 1)` may not be.
    fn padding_fill(&self, operand: usize, identity: f64) -> f64 {
        match (self.0, operand) {
            (Binary::Div | Binary::Rem, 1) | (Binary::Pow, 0) => 1.0,
            _ => identity,
        }
    }

    fn rule(&self, desc: &OpDesc) -> Result<Rule, RuleError> {
        expect_arity(desc, 3, 2)?;
        let mut b = RuleBuilder::default();
        let (x, y, out) = factors(&mut b, &desc.operands[0], &desc.operands[1], &desc.operands[2]);
        let Rule::Factor(mut rule) = b.finish(
            vec![x.clone(), y.clone(), out],
            vec![x, y],
            sum_each(2),
            Linearity::None,
        ) else {
            unreachable!("a factor rule")
        };
        // The sum's gradient reads x and y for their shapes alone.
        if matches!(self.0, Binary::Add | Binary::Sub) {
            rule.shape_only = vec![0, 1];
        }
        Ok(Rule::Factor(rule))
    }

    fn lower<'c, 'a>(&self, b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        let operands = [operand(op, 0), operand(op, 1), operand(op, 2)];
        let dx = self.operand_gradient(b, operands, false)?;
        let dy = self.operand_gradient(b, operands, true)?;
        Ok(vec![dx, dy])
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{desc, factor_rule};
    use super::*;
    use crate::vocabulary::rules::OpAttrs;

    #[test]
    fn operands_align_at_their_trailing_dims() {
        assert_eq!(aligned(&[32], &[4, 8, 32]), [Some(2)]);
        assert_eq!(aligned(&[4, 8, 1], &[4, 8, 32]), [Some(0), Some(1), None]);
        assert_eq!(broadcast_dims(&[8, 1], &[4, 8, 32]), [0, 2]);
        assert_eq!(broadcast_map(&[8, 1], &[4, 8, 32]), [Ix::D(1), Ix::Zero]);
    }

    #[test]
    fn a_stretched_dim_has_no_factor_and_its_gradient_is_reduced() {
        let div = factor_rule(&desc(
            DistOp::Div.name(),
            &[&[4, 8, 32], &[4, 8, 1]],
            &[&[4, 8, 32]],
            OpAttrs::default(),
        ));
        assert_eq!(div.einsum(), "d0,d1,d2 ; d0,d1,1 -> d0,d1,d2");
        let grad = factor_rule(&desc(
            DistOp::DivGrad.name(),
            &[&[4, 8, 32], &[4, 8, 1], &[4, 8, 32]],
            &[&[4, 8, 32], &[4, 8, 1]],
            OpAttrs::default(),
        ));
        // dy (the per-row statistic) sums over d2: partial where d2 is split.
        assert!(grad.is_reduced(2, 1) && !grad.is_reduced(2, 0));
        // x broadcast too: [4, 1, 32] + [8, 32] -> [4, 8, 32].
        let add = factor_rule(&desc(
            DistOp::AddGrad.name(),
            &[&[4, 1, 32], &[8, 32], &[4, 8, 32]],
            &[&[4, 1, 32], &[8, 32]],
            OpAttrs::default(),
        ));
        assert_eq!(add.einsum(), "d0,1,d2 ; d1,d2 ; d0,d1,d2 -> d0,1,d2 ; d1,d2");
        assert!(add.is_reduced(1, 0) && add.is_reduced(0, 1));
        assert_eq!(add.shape_only, [0, 1]);
    }
}
