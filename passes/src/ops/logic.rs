//! The ops of booleans and integers: `dist.compare`, `dist.select` and its
//! gradient, `dist.and`/`or`/`xor`/`not`, `dist.is_finite` and `dist.iota`. They broadcast
//! as the binary elementwise ops do and shard any way their operands do.
//! Their boolean and integer results carry no gradient (the sharding graph
//! keeps such values whole sums: a partial value is a float); `select`'s
//! gradient routes `dout` by the predicate.

use super::elementwise::{broadcast_dims, broadcast_factors, broadcast_map};
use super::{GradRule, Grads, Localize, OpSpec, Read, shifted_offset};
use crate::vocabulary::linalg::build::{Body, Builder, Lowered};
use crate::vocabulary::linalg::common::{all, operand, shape};
use crate::vocabulary::rules::{Linearity, OpDesc, Rule, RuleBuilder, RuleError, expect_arity, sum_each};
use dist_dialect::ir::Located;
use dist_dialect::ir::{OperationExt, element_type, integer_attribute, set_operands, string_attribute};
use dist_dialect::ops::attr;
use dist_dialect::{CompareDirection, DistOp};
use melior::ir::operation::OperationLike;
use melior::ir::r#type::IntegerType;
use melior::ir::{OperationRef, Type, TypeLike, Value, ValueLike};

pub struct Compare;
pub struct Select;
pub struct SelectGrad;
/// `and`, `or` and `xor`: the `arith` op of each.
pub struct Logic(&'static str);
pub struct Not;
pub struct IsFinite;
pub struct Iota;

pub static COMPARE: Compare = Compare;
pub static SELECT: Select = Select;
pub static SELECT_GRAD: SelectGrad = SelectGrad;
pub static AND: Logic = Logic("arith.andi");
pub static OR: Logic = Logic("arith.ori");
pub static XOR: Logic = Logic("arith.xori");
pub static NOT: Not = Not;
pub static IS_FINITE: IsFinite = IsFinite;
pub static IOTA: Iota = Iota;

/// The rule of an op whose operands broadcast to its one result.
fn broadcast_rule(desc: &OpDesc, operands: usize, linearity: Linearity) -> Result<Rule, RuleError> {
    expect_arity(desc, operands, 1)?;
    let mut b = RuleBuilder::default();
    let shapes: Vec<&[i64]> = desc.operands.iter().map(Vec::as_slice).collect();
    let (operands, result) = broadcast_factors(&mut b, &shapes, &desc.results[0]);
    Ok(b.finish(operands, vec![result], sum_each(1), linearity))
}

/// An elementwise op of `inputs` broadcast to `op`'s result, whose body
/// computes an element from theirs.
fn lower_broadcast<'c, 'a>(
    b: &mut Builder<'c, 'a>,
    op: OperationRef<'c, 'a>,
    inputs: &[Value<'c, 'a>],
    body: impl FnOnce(&mut Body<'c, '_>, &[Value<'c, 'c>]) -> Lowered<'c, Value<'c, 'c>>,
) -> Lowered<'c, Vec<Value<'c, 'a>>> {
    let result = op.result_at(0).expect("one result");
    let out = shape(result.into());
    let init = b.empty(&out, element_type(result.r#type()))?;
    let inputs: Vec<_> = inputs.iter().map(|&v| (v, broadcast_map(&shape(v), &out))).collect();
    Ok(vec![b.generic(
        out.len(),
        &[],
        &inputs,
        (init, all(out.len())),
        body,
    )?])
}

/// The `arith.cmpf` predicate of a direction (IEEE-754: ordered, but `ne`
/// true on NaN), or `arith.cmpi`'s, signed or (booleans) unsigned.
fn predicate(direction: CompareDirection, float: bool, unsigned: bool) -> i64 {
    use CompareDirection::*;
    // arith::CmpFPredicate: oeq 1, ogt 2, oge 3, olt 4, ole 5, une 13.
    // arith::CmpIPredicate: eq 0, ne 1, slt 2, sle 3, sgt 4, sge 5,
    // ult 6, ule 7, ugt 8, uge 9.
    let unsigned = if unsigned { 4 } else { 0 };
    match (direction, float) {
        (Eq, true) => 1,
        (Ne, true) => 13,
        (Lt, true) => 4,
        (Le, true) => 5,
        (Gt, true) => 2,
        (Ge, true) => 3,
        (Eq, false) => 0,
        (Ne, false) => 1,
        (Lt, false) => 2 + unsigned,
        (Le, false) => 3 + unsigned,
        (Gt, false) => 4 + unsigned,
        (Ge, false) => 5 + unsigned,
    }
}

impl OpSpec for Compare {
    fn rule(&self, desc: &OpDesc) -> Result<Rule, RuleError> {
        broadcast_rule(desc, 2, Linearity::None)
    }

    fn lower<'c, 'a>(&self, b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        let (x, y) = (operand(op, 0), operand(op, 1));
        let direction = string_attribute(&op, attr::DIRECTION)
            .as_deref()
            .and_then(CompareDirection::from_word)
            .ok_or_else(|| Located::at(&op, "a dist.compare has a direction"))?;
        let element = element_type(x.r#type());
        let float = element.is_float();
        let unsigned = IntegerType::try_from(element).is_ok_and(|i| i.width() == 1);
        let predicate = predicate(direction, float, unsigned);
        lower_broadcast(b, op, &[x, y], |s, a| {
            if float {
                let (x, y) = (s.at_least_f32(a[0])?, s.at_least_f32(a[1])?);
                s.cmpf(predicate, x, y)
            } else {
                s.cmpi(predicate, a[0], a[1])
            }
        })
    }
}

impl OpSpec for Select {
    /// A sum passes through when both choices are partial alike:
    /// `select(p, a1 + a2, b1 + b2) = select(p, a1, b1) + select(p, a2, b2)`.
    fn rule(&self, desc: &OpDesc) -> Result<Rule, RuleError> {
        broadcast_rule(desc, 3, Linearity::Sum(vec![1, 2]))
    }

    fn gradient(&self) -> Option<GradRule> {
        Some(GradRule {
            op: DistOp::SelectGrad,
            reads: &[Read::Operand(0), Read::Operand(1), Read::Operand(2), Read::Dout],
            grads: Grads::Of(&[1, 2]),
            attributes: &[],
        })
    }

    fn lower<'c, 'a>(&self, b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        let operands = [operand(op, 0), operand(op, 1), operand(op, 2)];
        lower_broadcast(b, op, &operands, |s, a| s.select(a[0], a[1], a[2]))
    }
}

impl SelectGrad {
    /// The gradient of `on_true` (`on_false` with `of_false`): `dout` where
    /// the predicate chooses it, summed over the operand's broadcast dims.
    fn operand_gradient<'c, 'a>(
        b: &mut Builder<'c, 'a>,
        [pred, on_true, on_false, dout]: [Value<'c, 'a>; 4],
        of_false: bool,
    ) -> Lowered<'c, Value<'c, 'a>> {
        let out = shape(dout);
        let target = shape(if of_false { on_false } else { on_true });
        let inputs = [(pred, broadcast_map(&shape(pred), &out)), (dout, all(out.len()))];
        let element = element_type(dout.r#type());
        let reduced = broadcast_dims(&target, &out);
        let target_map = broadcast_map(&target, &out);
        b.sum(
            out.len(),
            &reduced,
            &inputs,
            (&target, target_map),
            element,
            1.0,
            |s, a| {
                let zero = s.float(0.0)?;
                match of_false {
                    false => s.select(a[0], a[1], zero),
                    true => s.select(a[0], zero, a[1]),
                }
            },
        )
    }
}

impl OpSpec for SelectGrad {
    /// Linear in `dout`; the choices are read for their shapes alone.
    fn rule(&self, desc: &OpDesc) -> Result<Rule, RuleError> {
        expect_arity(desc, 4, 2)?;
        let mut b = RuleBuilder::default();
        let shapes: Vec<&[i64]> = desc.operands.iter().map(Vec::as_slice).collect();
        let (operands, _) = broadcast_factors(&mut b, &shapes, &desc.operands[3]);
        let results = vec![operands[1].clone(), operands[2].clone()];
        let Rule::Factor(mut rule) = b.finish(operands, results, sum_each(2), Linearity::linear_in(&[3])) else {
            unreachable!("a factor rule")
        };
        rule.shape_only = vec![1, 2];
        Ok(Rule::Factor(rule))
    }

    fn lower<'c, 'a>(&self, b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        let operands = [operand(op, 0), operand(op, 1), operand(op, 2), operand(op, 3)];
        let on_true = Self::operand_gradient(b, operands, false)?;
        let on_false = Self::operand_gradient(b, operands, true)?;
        Ok(vec![on_true, on_false])
    }
}

impl OpSpec for Logic {
    fn rule(&self, desc: &OpDesc) -> Result<Rule, RuleError> {
        broadcast_rule(desc, 2, Linearity::None)
    }

    fn lower<'c, 'a>(&self, b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        let name = self.0;
        lower_broadcast(b, op, &[operand(op, 0), operand(op, 1)], |s, a| {
            s.op(name, &[a[0], a[1]], a[0].r#type())
        })
    }
}

impl OpSpec for Not {
    fn rule(&self, desc: &OpDesc) -> Result<Rule, RuleError> {
        broadcast_rule(desc, 1, Linearity::None)
    }

    /// `x ^ all ones`.
    fn lower<'c, 'a>(&self, b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        lower_broadcast(b, op, &[operand(op, 0)], |s, a| {
            let ty = a[0].r#type();
            let ones = s.integer(ty, -1)?;
            s.op("arith.xori", &[a[0], ones], ty)
        })
    }
}

impl OpSpec for IsFinite {
    fn rule(&self, desc: &OpDesc) -> Result<Rule, RuleError> {
        broadcast_rule(desc, 1, Linearity::None)
    }

    /// `|x| < inf`: false for infinities and (unordered) NaN.
    fn lower<'c, 'a>(&self, b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        lower_broadcast(b, op, &[operand(op, 0)], |s, a| {
            let x = s.at_least_f32(a[0])?;
            let magnitude = s.op("math.absf", &[x], x.r#type())?;
            let infinity = s.float_of(x.r#type(), f64::INFINITY)?;
            // arith::CmpFPredicate::OLT
            s.cmpf(4, magnitude, infinity)
        })
    }
}

impl OpSpec for Iota {
    /// Every dim shards: the offset keeps the positions global.
    fn rule(&self, desc: &OpDesc) -> Result<Rule, RuleError> {
        expect_arity(desc, 0, 1)?;
        let mut b = RuleBuilder::default();
        let out = b.dims(desc.results[0].len());
        Ok(b.finish(vec![], vec![out], sum_each(1), Linearity::None))
    }

    fn lower<'c, 'a>(&self, b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        let dim = integer_attribute(&op, attr::DIM).unwrap_or_default() as usize;
        let offset = op.operand_at(0);
        let context = dist_dialect::ir::context_of_type(op.result_at(0).expect("one result").r#type());
        lower_broadcast(b, op, &[], |s, _| {
            let mut position = s.index(dim)?;
            if let Some(offset) = offset {
                position = s.index_op("arith.addi", position, offset)?;
            }
            let element = s.element;
            if !element.is_float() {
                return s.op("arith.index_cast", &[position], element);
            }
            let wide = s.op("arith.index_cast", &[position], IntegerType::new(context, 64).into())?;
            if element.is_bf16() || element.is_f16() {
                let exact = s.op("arith.sitofp", &[wide], Type::float32(context))?;
                return s.convert("arith.truncf", exact);
            }
            s.op("arith.sitofp", &[wide], element)
        })
    }

    /// Under a split `dim`, this device's first global position along it
    /// (plus the offset the program gave, if any).
    fn localize<'c, 'a>(&self, op: OperationRef<'c, 'a>, local: &mut dyn Localize<'c, 'a>) -> Lowered<'c, ()> {
        let result = op.result_at(0).expect("one result").into();
        let dim = integer_attribute(&op, attr::DIM).unwrap_or_default() as usize;
        let Some(split) = local.split(result) else {
            return Ok(());
        };
        if split[dim].is_empty() {
            return Ok(());
        }
        let shard = local.offset(&split[dim], shape(result)[dim], op.location())?;
        let offset = shifted_offset(op, op.operand_at(0), Some(shard)).expect("a shard offset");
        set_operands(op, &[offset]);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{desc, factor_rule};
    use super::*;
    use crate::vocabulary::rules::OpAttrs;

    #[test]
    fn select_broadcasts_its_three_operands_and_its_gradient_sums_over_the_stretched_dims() {
        let select = factor_rule(&desc(
            DistOp::Select.name(),
            &[&[8, 1], &[4, 8, 32], &[]],
            &[&[4, 8, 32]],
            OpAttrs::default(),
        ));
        assert_eq!(select.einsum(), "d1,1 ; d0,d1,d2 ; () -> d0,d1,d2");
        let grad = factor_rule(&desc(
            DistOp::SelectGrad.name(),
            &[&[8, 1], &[4, 8, 32], &[32], &[4, 8, 32]],
            &[&[4, 8, 32], &[32]],
            OpAttrs::default(),
        ));
        // d_on_false sums over d0 and d1: partial where they are split.
        assert!(grad.is_reduced(0, 1) && grad.is_reduced(1, 1) && !grad.is_reduced(0, 0));
        assert_eq!(grad.shape_only, [1, 2]);
    }

    #[test]
    fn comparisons_of_floats_are_ordered_but_ne() {
        assert_eq!(predicate(CompareDirection::Lt, true, false), 4);
        assert_eq!(predicate(CompareDirection::Ne, true, false), 13);
        assert_eq!(predicate(CompareDirection::Ge, false, false), 5);
        assert_eq!(predicate(CompareDirection::Lt, false, true), 6);
    }
}
