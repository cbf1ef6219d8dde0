//! `dist.embedding` (rows of a table by integer ids) and its gradient,
//! on a table that may be split over its vocabulary.

use super::{GradRule, Grads, Localize, OpSpec, Read, shifted_offset};
use crate::vocabulary::linalg::build::{Body, Builder, Ix, Lowered};
use crate::vocabulary::linalg::common::{all, operand, shape};
use crate::vocabulary::rules::{
    Linearity, OpDesc, Rule, RuleBuilder, RuleError, expect_arity, indexed, malformed, sum_each,
};
use dist_dialect::DistOp;
use dist_dialect::ir::{OperationExt, element_type, set_operands};
use melior::ir::operation::OperationLike;
use melior::ir::r#type::TypeLike;
use melior::ir::{OperationRef, Value, ValueLike};

pub struct Embedding;
pub struct EmbeddingGrad;

pub static EMBEDDING: Embedding = Embedding;
pub static EMBEDDING_GRAD: EmbeddingGrad = EmbeddingGrad;

/// ids, table (and the output's gradient) -> the output (or the table's
/// gradient). A vocab-sharded table gives masked lookups that sum to the
/// output; the gradient sums dout over the id dims.
fn embedding_rule(desc: &OpDesc, grad: bool) -> Result<Rule, RuleError> {
    expect_arity(desc, if grad { 3 } else { 2 }, 1)?;
    if desc.operands[1].len() != 2 {
        return Err(malformed(desc, "the table needs rank 2".into()));
    }
    let mut b = RuleBuilder::default();
    let ids: Vec<_> = (0..desc.operands[0].len())
        .map(|d| Some(b.factor(indexed('i', d), true)))
        .collect();
    let table = vec![Some(b.factor("vocab", true)), Some(b.factor("hidden", true))];
    let mut out = ids.clone();
    out.push(table[1]);
    Ok(if grad {
        let Rule::Factor(mut rule) = b.finish(vec![ids, table.clone(), out], vec![table], sum_each(1), Linearity::None)
        else {
            unreachable!("a factor rule")
        };
        // The table operand gives the gradient's shape alone.
        rule.shape_only = vec![1];
        Rule::Factor(rule)
    } else {
        b.finish(vec![ids, table], vec![out], sum_each(1), Linearity::None)
    })
}

/// Gives `op` the first global index of its shard along dim `dim` of
/// `value`, where that dim is split, as its trailing offset operand: added
/// to the offset the program gave it, if any (the op's one `index`
/// operand, last).
pub(super) fn offset_along<'c, 'a>(
    op: OperationRef<'c, 'a>,
    value: Value<'c, 'a>,
    dim: usize,
    local: &mut dyn Localize<'c, 'a>,
) -> Lowered<'c, ()> {
    let Some(axes) = local.split(value).map(|dims| dims[dim].clone()) else {
        return Ok(());
    };
    if axes.is_empty() {
        return Ok(());
    }
    let shard = local.offset(&axes, shape(value)[dim], op.location())?;
    let mut operands: Vec<_> = op.operands().collect();
    let given = operands.pop_if(|v| v.r#type().is_index());
    operands.extend(shifted_offset(op, given, Some(shard)));
    set_operands(op, &operands);
    Ok(())
}

impl OpSpec for Embedding {
    fn rule(&self, desc: &OpDesc) -> Result<Rule, RuleError> {
        embedding_rule(desc, false)
    }

    /// The ids are integers; a shard's offset carries over.
    fn gradient(&self) -> Option<GradRule> {
        Some(GradRule {
            op: DistOp::EmbeddingGrad,
            reads: &[Read::Operand(0), Read::Operand(1), Read::Dout, Read::Operand(2)],
            grads: Grads::Of(&[1]),
            attributes: &[],
        })
    }

    fn lower<'c, 'a>(&self, b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        Ok(vec![embedding(b, op)?])
    }

    fn localize<'c, 'a>(&self, op: OperationRef<'c, 'a>, local: &mut dyn Localize<'c, 'a>) -> Lowered<'c, ()> {
        offset_along(op, operand(op, 1), 0, local)
    }
}

impl OpSpec for EmbeddingGrad {
    fn rule(&self, desc: &OpDesc) -> Result<Rule, RuleError> {
        embedding_rule(desc, true)
    }

    fn lower<'c, 'a>(&self, b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        Ok(vec![embedding_grad(b, op)?])
    }

    /// The gradient's rows are those of its result: its table operand only
    /// gives the shape and may be laid out otherwise.
    fn localize<'c, 'a>(&self, op: OperationRef<'c, 'a>, local: &mut dyn Localize<'c, 'a>) -> Lowered<'c, ()> {
        let rows_of = op.result_at(0).expect("an embedding gradient has a result").into();
        offset_along(op, rows_of, 0, local)
    }
}

/// The local entry of a dim of `n` entries that index `idx` picks, and
/// whether this shard holds it: `idx - offset` in `[0, n)` (an index
/// outside picks nothing; the entry is then 0).
pub(super) fn shard_entry<'c>(
    s: &mut Body<'c, '_>,
    idx: Value<'c, '_>,
    offset: Option<Value<'c, '_>>,
    n: i64,
) -> Lowered<'c, (Value<'c, 'c>, Value<'c, 'c>)> {
    let mut at = s.index_cast(idx)?;
    if let Some(offset) = offset {
        at = s.index_op("arith.subi", at, offset)?;
    }
    let zero = s.index_constant(0)?;
    let count = s.index_constant(n)?;
    let lower = s.cmpi(5, at, zero)?; // sge
    let upper = s.cmpi(2, at, count)?; // slt
    let held = s.and(lower, upper)?;
    let clamped = s.select(held, at, zero)?;
    Ok((clamped, held))
}

/// The row of the table an id reads, and whether this shard holds it (of
/// a split table only: a whole one is read at the id as it is).
fn embedding_row<'c>(
    s: &mut Body<'c, '_>,
    id: Value<'c, '_>,
    offset: Option<Value<'c, '_>>,
    rows: i64,
) -> Lowered<'c, (Value<'c, 'c>, Option<Value<'c, 'c>>)> {
    if offset.is_none() {
        return Ok((s.index_cast(id)?, None));
    }
    let (row, held) = shard_entry(s, id, offset, rows)?;
    Ok((row, Some(held)))
}

/// `out[i..., h] = table[ids[i...] - offset, h]`, zero for rows of other
/// shards.
fn embedding<'c, 'a>(b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Value<'c, 'a>> {
    let (ids, table) = (operand(op, 0), operand(op, 1));
    let offset = op.operand_at(2);
    let out = op.result_at(0).map(|r| shape(r.into())).unwrap_or_default();
    let r = out.len();
    let rows = shape(table)[0];
    let init = b.empty(&out, element_type(table.r#type()))?;
    b.generic(r, &[], &[(ids, all(r - 1))], (init, all(r)), |s, a| {
        let (row, held) = embedding_row(s, a[0], offset, rows)?;
        let h = s.index(r - 1)?;
        let v = s.extract(table, &[row, h])?;
        match held {
            Some(held) => {
                let zero = s.float(0.0)?;
                s.select(held, v, zero)
            }
            None => Ok(v),
        }
    })
}

/// `dtable[v, h] = sum over ids[i...] - offset == v of dout[i..., h]`: a
/// scatter over the tokens, or with `scatter=dense` a parallel reduction.
fn embedding_grad<'c, 'a>(b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Value<'c, 'a>> {
    if b.dense_scatter() {
        dense_embedding_grad(b, op)
    } else {
        scattered_embedding_grad(b, op)
    }
}

/// A scatter: each token adds its dout row into its id's row (none off
/// this shard), in tokens x hidden sequential steps. The sums run in f64,
/// as `sum`'s.
fn scattered_embedding_grad<'c, 'a>(b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Value<'c, 'a>> {
    let (ids, table, dout) = (operand(op, 0), operand(op, 1), operand(op, 2));
    let offset = op.operand_at(3);
    let ts = shape(table);
    let (rows, width) = (ts[0], ts[1]);
    let tokens: i64 = shape(ids).iter().product();
    let ids = b.reshape(ids, &[tokens])?;
    let dout = b.reshape(dout, &[tokens, width])?;
    let element = element_type(table.r#type());
    let wide = crate::vocabulary::linalg::build::accumulator(element);
    let init = b.splat(&ts, wide, 0.0)?;
    let sums = b.fold_indices(tokens * width, init, |s, i, acc| {
        let w = s.index_constant(width)?;
        let (t, h) = (s.index_op("arith.divui", i, w)?, s.index_op("arith.remui", i, w)?);
        let id = s.extract(ids, &[t])?;
        let (row, held) = shard_entry(s, id, offset, rows)?;
        let d = s.extract(dout, &[t, h])?;
        let d = if element == wide {
            d
        } else {
            s.convert("arith.extf", d)?
        };
        let zero = s.float(0.0)?;
        let d = s.select(held, d, zero)?;
        let old = s.extract(acc, &[row, h])?;
        let new = s.add(old, d)?;
        s.insert(new, acc, &[row, h])
    })?;
    if element == wide {
        return Ok(sums);
    }
    let init = b.empty(&ts, element)?;
    b.generic(2, &[], &[(sums, all(2))], (init, all(2)), |s, a| {
        s.convert("arith.truncf", a[0])
    })
}

/// Every row's sum over the tokens whose id picks it: parallel over
/// vocabulary x hidden, each comparing every id with its row.
fn dense_embedding_grad<'c, 'a>(b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Value<'c, 'a>> {
    let (ids, table, dout) = (operand(op, 0), operand(op, 1), operand(op, 2));
    let offset = op.operand_at(3);
    let ts = shape(table);
    let id_rank = shape(ids).len();
    // Loops: v, the id dims, h.
    let loops = id_rank + 2;
    let id_map: Vec<Ix> = (1..=id_rank).map(Ix::D).collect();
    let mut dout_map = id_map.clone();
    dout_map.push(Ix::D(loops - 1));
    let reductions: Vec<usize> = (1..=id_rank).collect();
    b.sum(
        loops,
        &reductions,
        &[(ids, id_map), (dout, dout_map)],
        (&ts, vec![Ix::D(0), Ix::D(loops - 1)]),
        element_type(table.r#type()),
        1.0,
        |s, a| {
            let (row, held) = embedding_row(s, a[0], offset, ts[0])?;
            let v = s.index(0)?;
            let mut hit = s.cmpi(0, row, v)?; // eq
            if let Some(held) = held {
                hit = s.and(hit, held)?;
            }
            let zero = s.float(0.0)?;
            s.select(hit, a[1], zero)
        },
    )
}

#[cfg(test)]
mod tests {
    use super::super::testing::{desc, factor_rule};
    use crate::vocabulary::rules::OpAttrs;
    use dist_dialect::DistOp;

    #[test]
    fn a_vocab_sharded_table_gives_a_partial_lookup() {
        let emb = factor_rule(&desc(
            DistOp::EmbeddingGrad.name(),
            &[&[4, 16], &[1000, 64], &[4, 16, 64]],
            &[&[1000, 64]],
            OpAttrs::default(),
        ));
        assert_eq!(emb.einsum(), "i0,i1 ; vocab,hidden ; i0,i1,hidden -> vocab,hidden");
        let fwd = factor_rule(&desc(
            DistOp::Embedding.name(),
            &[&[4, 16], &[1000, 64]],
            &[&[4, 16, 64]],
            OpAttrs::default(),
        ));
        assert!(fwd.is_reduced(2, 0));
    }
}
