//! `dist.top_k` (a mixture-of-experts router's choice of experts: the k
//! largest entries of the last dim and their indices) and its gradient.
//!
//! The lowering ranks every entry of a row against the others (how many
//! come before it: larger in the floats' total order, as JAX's `top_k`
//! sorts, or the same at a lower index), then the `j`-th pick is the entry
//! of rank `j`: two linalg
//! reductions and a gather, no sort, one kernel each on the GPU. It costs
//! `n^2` comparisons a row, nothing next to a router's products for the
//! expert counts routers have (8 to 256); a top-k over a vocabulary would
//! want a selection instead.

use super::loss::positions;
use super::{GradRule, Grads, OpSpec, Read};
use crate::vocabulary::linalg::build::{Body, Builder, Ix, Lowered};
use crate::vocabulary::linalg::common::{all, operand, shape};
use crate::vocabulary::rules::{
    Dims, Linearity, OpDesc, Rule, RuleBuilder, RuleError, expect_arity, indexed, sum_each,
};
use dist_dialect::DistOp;
use dist_dialect::ir::{OperationExt, context_of, context_of_type, element_bytes, element_type};
use melior::ir::r#type::IntegerType;
use melior::ir::{OperationRef, Type, Value, ValueLike};

pub struct TopK;
pub struct TopKGrad;

pub static TOP_K: TopK = TopK;
pub static TOP_K_GRAD: TopKGrad = TopKGrad;

/// `arith::CmpIPredicate`s by number.
const EQ: i64 = 0;
const SLT: i64 = 2;
const SGT: i64 = 4;

/// The factors of `[positions..., n]` and `[positions..., k]`: the
/// positions shardable, the picked-from dim and the picks whole on each
/// device (a split one is gathered first).
fn rows_and_picks(b: &mut RuleBuilder, positions: usize) -> (Dims, Dims) {
    let at: Dims = (0..positions).map(|d| Some(b.factor(indexed('d', d), true))).collect();
    let mut rows = at.clone();
    rows.push(Some(b.factor(indexed('n', positions), false)));
    let mut picks = at;
    picks.push(Some(b.factor(indexed('k', positions), false)));
    (rows, picks)
}

impl OpSpec for TopK {
    /// x -> values, indices: rows split over the positions, whole along
    /// the dim picked from. Picking is not linear: a partial x is summed
    /// first.
    fn rule(&self, desc: &OpDesc) -> Result<Rule, RuleError> {
        expect_arity(desc, 1, 2)?;
        let mut b = RuleBuilder::default();
        let (rows, picks) = rows_and_picks(&mut b, positions(desc, 0)?);
        Ok(b.finish(vec![rows], vec![picks.clone(), picks], sum_each(2), Linearity::None))
    }

    fn gradient(&self) -> Option<GradRule> {
        Some(GradRule {
            op: DistOp::TopKGrad,
            reads: &[Read::Result(1), Read::Dout],
            grads: Grads::Of(&[0]),
            attributes: &[],
        })
    }

    fn lower<'c, 'a>(&self, b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        let x = operand(op, 0);
        let xs = shape(x);
        let p = xs.len() - 1;
        let k = shape(op.result_at(0).expect("values").into())[p];
        let index_element = element_type(op.result_at(1).expect("indices").r#type());
        let i64_type: Type<'c> = IntegerType::new(context_of(&op), 64).into();
        let rows: Vec<Ix> = (0..p).map(Ix::D).collect();
        let along = |dim: usize| [rows.clone(), vec![Ix::D(dim)]].concat();
        // rank[.., e] = how many entries e2 come before entry e.
        let zeros = b.splat(&xs, i64_type, 0.0)?;
        let rank = b.generic(
            p + 2,
            &[p + 1],
            &[(x, along(p + 1)), (x, along(p))],
            (zeros, all(p + 1)),
            |s, a| {
                let before = comes_before(s, (a[0], p + 1), (a[1], p))?;
                let one = s.op("arith.extui", &[before], i64_type)?;
                s.binary("arith.addi", a[2], one)
            },
        )?;
        // indices[.., j] = the entry of rank j.
        let picks = [&xs[..p], &[k]].concat();
        let start = b.splat(&picks, index_element, 0.0)?;
        let indices = b.generic(p + 2, &[p + 1], &[(rank, along(p + 1))], (start, all(p + 1)), |s, a| {
            let j = s.index(p)?;
            let j = s.op("arith.index_cast", &[j], i64_type)?;
            let picked = s.cmpi(EQ, a[0], j)?;
            let e = s.index(p + 1)?;
            let e = s.op("arith.index_cast", &[e], index_element)?;
            s.select(picked, e, a[1])
        })?;
        // values[.., j] = x[.., indices[.., j]].
        let out = b.empty(&picks, element_type(x.r#type()))?;
        let values = b.generic(p + 1, &[], &[(indices, all(p + 1))], (out, all(p + 1)), |s, a| {
            let mut at: Vec<Value> = (0..p).map(|d| s.index(d)).collect::<Lowered<_>>()?;
            at.push(s.index_cast(a[0])?);
            s.extract(x, &at)
        })?;
        Ok(vec![values, indices])
    }
}

/// Whether the entry `a` (at the loop index `a_dim`) comes before the entry
/// `b` (at `b_dim`) in a top-k's order: larger in the floats' total order
/// (as XLA's sort compares, `-NaN < -inf < ... < -0.0 < +0.0 < ... < +inf
/// < +NaN`), or of the same bits at a lower index.
fn comes_before<'c>(
    s: &mut Body<'c, '_>,
    (a, a_dim): (Value<'c, 'c>, usize),
    (b, b_dim): (Value<'c, 'c>, usize),
) -> Lowered<'c, Value<'c, 'c>> {
    let (a_key, b_key) = (total_order_key(s, a)?, total_order_key(s, b)?);
    let larger = s.cmpi(SGT, a_key, b_key)?;
    let same = s.cmpi(EQ, a_key, b_key)?;
    let (a_at, b_at) = (s.index(a_dim)?, s.index(b_dim)?);
    let lower_index = s.cmpi(SLT, a_at, b_at)?;
    let tie_first = s.and(same, lower_index)?;
    let i1 = larger.r#type();
    s.op("arith.ori", &[larger, tie_first], i1)
}

/// A signed integer that orders floats as their total order does: the
/// float's bits, with a negative float's magnitude bits flipped (a larger
/// magnitude is a smaller negative).
fn total_order_key<'c>(s: &mut Body<'c, '_>, x: Value<'c, 'c>) -> Lowered<'c, Value<'c, 'c>> {
    let bits = element_bytes(x.r#type()) as u32 * 8;
    let int: Type<'c> = IntegerType::new(context_of_type(x.r#type()), bits).into();
    let raw = s.op("arith.bitcast", &[x], int)?;
    let sign_shift = s.integer(int, i64::from(bits) - 1)?;
    let sign = s.op("arith.shrsi", &[raw, sign_shift], int)?;
    let magnitude = s.integer(int, ((1u64 << (bits - 1)) - 1) as i64)?;
    let flip = s.and(sign, magnitude)?;
    s.op("arith.xori", &[raw, flip], int)
}

impl OpSpec for TopKGrad {
    /// indices, dvalues -> dx: rows split over the positions; linear in
    /// dvalues.
    fn rule(&self, desc: &OpDesc) -> Result<Rule, RuleError> {
        expect_arity(desc, 2, 1)?;
        let mut b = RuleBuilder::default();
        let (rows, picks) = rows_and_picks(&mut b, positions(desc, 0)?);
        Ok(b.finish(
            vec![picks.clone(), picks],
            vec![rows],
            sum_each(1),
            Linearity::linear_in(&[1]),
        ))
    }

    /// `dx[.., v]` sums `dvalues[.., j]` over the picks `j` of entry `v`
    /// (one at most after a top-k, whose indices in a row differ; the
    /// imported scatter of k updates a row may repeat an index, and its
    /// updates add up, as the scatter's do).
    fn lower<'c, 'a>(&self, b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        let (indices, dvalues) = (operand(op, 0), operand(op, 1));
        let dx_shape = shape(op.result_at(0).expect("dx").into());
        let p = dx_shape.len() - 1;
        let element = element_type(dvalues.r#type());
        let rows: Vec<Ix> = (0..p).map(Ix::D).collect();
        let picks = [rows, vec![Ix::D(p + 1)]].concat();
        let zeros = b.splat(&dx_shape, element, 0.0)?;
        let index_element = element_type(indices.r#type());
        Ok(vec![b.generic(
            p + 2,
            &[p + 1],
            &[(indices, picks.clone()), (dvalues, picks)],
            (zeros, all(p + 1)),
            |s, a| {
                let v = s.index(p)?;
                let v = s.op("arith.index_cast", &[v], index_element)?;
                let picked = s.cmpi(EQ, a[0], v)?;
                let zero = s.float_of(element, 0.0)?;
                let term = s.select(picked, a[1], zero)?;
                s.binary("arith.addf", a[2], term)
            },
        )?])
    }
}
