//! `dist.attention` and its gradient: scaled dot-product attention in
//! blocks of queries and keys, FlashAttention's way (a running maximum and
//! sum; no scores tensor), a causal mask by position, and the blocks whose
//! keys all come after their queries skipped. The query and batch dims
//! shard (a split query dim gives each shard its offset); keys and
//! features are whole on each device (context parallelism gathers the keys
//! first), and the keys' gradients are partial over a split query dim.
//!
//! The work a device does depends on which queries it holds: with
//! positions in order, the shards of later queries see more keys; in the
//! balanced order (`balance`) every shard sees as many. The reports read
//! each shard's work from [`OpSpec::gemm_flops_by_shard`].

use super::matmul::matmul;
use super::{Attr, GradRule, Grads, Localize, OpSpec, Read, shifted_offset};
use crate::vocabulary::linalg::build::{Body, Builder, Ix, Lowered, accumulator};
use crate::vocabulary::linalg::common::{all, operand, reduce, shape, without};
use crate::vocabulary::rules::{
    Dims, Linearity, OpDesc, Rule, RuleBuilder, RuleError, expect_arity, indexed, malformed, sum_each,
};
use dist_dialect::DistOp;
use dist_dialect::ir::{OperationExt, element_type, float_attribute, integer_attribute, set_operands};
use dist_dialect::ops::attr;
use melior::ir::operation::OperationLike;
use melior::ir::{OperationRef, Type, TypeLike, Value, ValueLike};

pub struct Attention;
pub struct AttentionGrad;

pub static ATTENTION: Attention = Attention;
pub static ATTENTION_GRAD: AttentionGrad = AttentionGrad;

/// The most queries or keys in a block: a block's scores (`64 x 64` per
/// head) stay in a core's cache, and finer blocks skip the mask's work more
/// closely.
const MAX_BLOCK: i64 = 64;

/// The factors of `q`, `k`, `v`, `out` and `lse`: the leading dims shard
/// (a size-1 dim of `k` and `v` that broadcasts over `q`'s has none), as do
/// the queries; the keys and features do not.
struct AttentionDims {
    q: Dims,
    k: Dims,
    v: Dims,
    out: Dims,
    lse: Dims,
}

fn attention_dims(b: &mut RuleBuilder, desc: &OpDesc) -> Result<AttentionDims, RuleError> {
    let (qs, ks, vs) = (&desc.operands[0], &desc.operands[1], &desc.operands[2]);
    let rank = qs.len();
    if rank < 2 || ks.len() != rank || vs.len() != rank {
        return Err(malformed(desc, "q, k and v need one rank >= 2".into()));
    }
    let lead: Dims = (0..rank - 2).map(|d| Some(b.factor(indexed('b', d), true))).collect();
    let own = |shape: &[i64]| -> Dims {
        (0..rank - 2)
            .map(|d| (shape[d] == qs[d]).then_some(lead[d]).flatten())
            .collect()
    };
    let (mut k, mut v) = (own(ks), own(vs));
    let queries = Some(b.factor("queries", true));
    let keys = Some(b.factor("keys", false));
    let features = Some(b.factor("features", false));
    let values = Some(b.factor("values", false));
    let mut q = lead.clone();
    q.extend([queries, features]);
    k.extend([keys, features]);
    v.extend([keys, values]);
    let mut lse = lead;
    lse.push(queries);
    let mut out = lse.clone();
    out.push(values);
    Ok(AttentionDims { q, k, v, out, lse })
}

impl OpSpec for Attention {
    /// q, k, v -> out, lse.
    fn rule(&self, desc: &OpDesc) -> Result<Rule, RuleError> {
        expect_arity(desc, 3, 2)?;
        let mut b = RuleBuilder::default();
        let d = attention_dims(&mut b, desc)?;
        Ok(b.finish(vec![d.q, d.k, d.v], vec![d.out, d.lse], sum_each(2), Linearity::None))
    }

    fn gradient(&self) -> Option<GradRule> {
        Some(GradRule {
            op: DistOp::AttentionGrad,
            reads: &[
                Read::Operand(0),
                Read::Operand(1),
                Read::Operand(2),
                Read::Result(0),
                Read::Result(1),
                Read::Dout,
                Read::Operand(3),
            ],
            grads: Grads::Of(&[0, 1, 2]),
            attributes: &[
                Attr::Copy(attr::SCALE),
                Attr::Copy(attr::CAUSAL),
                Attr::Copy(attr::BALANCE),
            ],
        })
    }

    fn lower<'c, 'a>(&self, b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        forward(b, &Instance::of(op, 3))
    }

    fn localize<'c, 'a>(&self, op: OperationRef<'c, 'a>, local: &mut dyn Localize<'c, 'a>) -> Lowered<'c, ()> {
        localize_queries(op, 3, local)
    }

    fn gemm_flops(&self, op: OperationRef<'_, '_>, local_shape: &mut dyn FnMut(Value) -> Option<Vec<i64>>) -> f64 {
        slowest(&self.gemm_flops_by_shard(op, local_shape))
    }

    /// Per visible block pair: the scores and the weighted values.
    fn gemm_flops_by_shard(
        &self,
        op: OperationRef<'_, '_>,
        local_shape: &mut dyn FnMut(Value) -> Option<Vec<i64>>,
    ) -> Vec<f64> {
        flops_by_shard(op, local_shape, |d, dv| d + dv)
    }
}

impl OpSpec for AttentionGrad {
    /// q, k, v, out, lse, dout -> dq, dk, dv: the keys' gradients sum over
    /// the queries (and over the query heads that share a key head).
    fn rule(&self, desc: &OpDesc) -> Result<Rule, RuleError> {
        expect_arity(desc, 6, 3)?;
        let mut b = RuleBuilder::default();
        let d = attention_dims(&mut b, desc)?;
        Ok(b.finish(
            vec![d.q.clone(), d.k.clone(), d.v.clone(), d.out.clone(), d.lse, d.out],
            vec![d.q, d.k, d.v],
            sum_each(3),
            Linearity::linear_in(&[5]),
        ))
    }

    fn lower<'c, 'a>(&self, b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        backward(
            b,
            &Instance::of(op, 6),
            [operand(op, 3), operand(op, 4), operand(op, 5)],
        )
    }

    fn localize<'c, 'a>(&self, op: OperationRef<'c, 'a>, local: &mut dyn Localize<'c, 'a>) -> Lowered<'c, ()> {
        localize_queries(op, 6, local)
    }

    fn gemm_flops(&self, op: OperationRef<'_, '_>, local_shape: &mut dyn FnMut(Value) -> Option<Vec<i64>>) -> f64 {
        slowest(&self.gemm_flops_by_shard(op, local_shape))
    }

    /// Per visible block pair: the scores again, then dv, dp, dq and dk.
    fn gemm_flops_by_shard(
        &self,
        op: OperationRef<'_, '_>,
        local_shape: &mut dyn FnMut(Value) -> Option<Vec<i64>>,
    ) -> Vec<f64> {
        flops_by_shard(op, local_shape, |d, dv| 3 * d + 2 * dv)
    }
}

fn slowest(values: &[f64]) -> f64 {
    values.iter().copied().fold(0.0, f64::max)
}

/// Under a split query dim, the shard's first query among the keys (plus
/// the offset the program gave, if any) as the op's trailing operand;
/// `tensors` is the op's count of tensor operands.
fn localize_queries<'c, 'a>(
    op: OperationRef<'c, 'a>,
    tensors: usize,
    local: &mut dyn Localize<'c, 'a>,
) -> Lowered<'c, ()> {
    let q = operand(op, 0);
    if !op.has_attribute(attr::CAUSAL) {
        return Ok(());
    }
    let Some(split) = local.split(q) else {
        return Ok(());
    };
    let queries = split.len() - 2;
    if split[queries].is_empty() {
        return Ok(());
    }
    let shard = local.offset(&split[queries], shape(q)[queries], op.location())?;
    let mut operands: Vec<Value<'c, 'a>> = (0..tensors).map(|i| operand(op, i)).collect();
    operands.extend(shifted_offset(op, op.operand_at(tensors), Some(shard)));
    set_operands(op, &operands);
    Ok(())
}

/// How an instance is gone over: its block sizes, its mask and the
/// positions of its queries and keys. Pure, so that the lowering and the
/// reports' count of the work agree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Blocks {
    queries: i64,
    keys: i64,
    query_block: i64,
    key_block: i64,
    causal: bool,
    /// The balanced order's chunk size and shard count (`balance = S`:
    /// `2 S` chunks), or `None` where positions are indices.
    balance: Option<(i64, i64)>,
}

/// The largest divisor of `n` up to [`MAX_BLOCK`].
fn block(n: i64) -> i64 {
    (1..=n.min(MAX_BLOCK)).rev().find(|b| n % b == 0).unwrap_or(1)
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// Blocks smaller than this cost more in loop overhead than the mask saves.
const MIN_DIAGONAL_BLOCK: i64 = 16;

impl Blocks {
    /// `queries` of `keys`. Under the mask, query and key blocks of one
    /// size tile the diagonal (a key block past it is skipped whole) unless
    /// the lengths share no divisor of [`MIN_DIAGONAL_BLOCK`] or more; in the
    /// balanced order each key block lies in one chunk (positions ascend
    /// by one inside it), and so does each query block at an offset that a
    /// block divides.
    pub fn new(queries: i64, keys: i64, causal: bool, balance: Option<i64>) -> Self {
        let balance = balance.map(|shards| (keys / (2 * shards), shards));
        let diagonal = block(gcd(keys, queries));
        let (query_block, key_block) = match (causal, balance) {
            (true, Some((chunk, _))) => (block(gcd(chunk, queries)), block(gcd(chunk, queries))),
            (true, None) if diagonal >= MIN_DIAGONAL_BLOCK.min(queries) => (diagonal, diagonal),
            _ => (block(queries), block(keys)),
        };
        Self {
            queries,
            keys,
            query_block,
            key_block,
            causal,
            balance,
        }
    }

    /// The chunk size of the positions' order (the keys, for indices).
    fn chunk(&self) -> i64 {
        self.balance.map_or(self.keys, |(chunk, _)| chunk)
    }

    /// The position of the query or key stored at index `t`.
    pub fn position(&self, t: i64) -> i64 {
        let Some((chunk, shards)) = self.balance else {
            return t;
        };
        let (j, r) = (t / chunk, t % chunk);
        let logical = if j % 2 == 0 { j / 2 } else { 2 * shards - 1 - j / 2 };
        logical * chunk + r
    }

    /// The stored indices whose positions bound the latest position of the
    /// query block from stored index `first`: its last, and the last of its
    /// first chunk if the block runs into the next (a block is at most a
    /// chunk, so it spans at most two, each ascending).
    fn query_bounds(&self, first: i64) -> [i64; 2] {
        let last = first + self.query_block - 1;
        let chunk = self.chunk();
        [last, last.min(first / chunk * chunk + chunk - 1)]
    }

    /// Whether the block of queries from stored index `query` and that of
    /// keys from `key` (a multiple of the key block) hold a pair the mask
    /// shows.
    pub fn visible(&self, query: i64, key: i64) -> bool {
        let latest = self.query_bounds(query).map(|t| self.position(t)).into_iter().max();
        !self.causal || latest.is_some_and(|q| self.position(key) <= q)
    }

    /// The block pairs computed for the queries from stored index `offset`.
    pub fn visible_pairs(&self, offset: i64) -> i64 {
        let mut pairs = 0;
        for qb in 0..self.queries / self.query_block {
            for kb in 0..self.keys / self.key_block {
                pairs += i64::from(self.visible(offset + qb * self.query_block, kb * self.key_block));
            }
        }
        pairs
    }
}

/// The shapes, attributes and block plan of an attention op, and its
/// operands `q`, `k`, `v` and query offset.
struct Instance<'c, 'a> {
    q: Value<'c, 'a>,
    k: Value<'c, 'a>,
    v: Value<'c, 'a>,
    offset: Option<Value<'c, 'a>>,
    scale: f64,
    blocks: Blocks,
    /// q's leading dims, and the dims of k and v that broadcast over them.
    lead: Vec<i64>,
    broadcast: Vec<usize>,
    features: i64,
    values: i64,
    element: Type<'c>,
    /// The running maximum's and the log-sum-exp's type (f32, f64 for f64).
    stat: Type<'c>,
    /// The sums' type ([`accumulator`]).
    wide: Type<'c>,
}

impl<'c, 'a> Instance<'c, 'a> {
    fn of(op: OperationRef<'c, 'a>, tensors: usize) -> Self {
        let (q, k, v) = (operand(op, 0), operand(op, 1), operand(op, 2));
        let (qs, ks) = (shape(q), shape(k));
        let rank = qs.len();
        let element = element_type(q.r#type());
        let f32_type = Type::float32(dist_dialect::ir::context_of_type(element));
        Self {
            q,
            k,
            v,
            offset: op.operand_at(tensors),
            scale: float_attribute(&op, attr::SCALE).unwrap_or(1.0),
            blocks: Blocks::new(
                qs[rank - 2],
                ks[rank - 2],
                op.has_attribute(attr::CAUSAL),
                integer_attribute(&op, attr::BALANCE),
            ),
            lead: qs[..rank - 2].to_vec(),
            broadcast: (0..rank - 2).filter(|&d| ks[d] != qs[d]).collect(),
            features: qs[rank - 1],
            values: shape(v)[rank - 1],
            element,
            stat: if element.is_f64() { element } else { f32_type },
            wide: accumulator(element),
        }
    }

    fn rank(&self) -> usize {
        self.lead.len() + 2
    }

    /// The leading dims then `rest`.
    fn dims(&self, rest: &[i64]) -> Vec<i64> {
        self.lead.iter().chain(rest).copied().collect()
    }

    /// The positions of the queries (from the op's offset among the keys)
    /// and of the keys, as `index` tensors, under a causal mask.
    fn positions(&self, b: &mut Builder<'c, 'a>) -> Lowered<'c, Option<(Value<'c, 'a>, Value<'c, 'a>)>> {
        if !self.blocks.causal {
            return Ok(None);
        }
        let queries = self.position_tensor(b, self.blocks.queries, self.offset)?;
        let keys = self.position_tensor(b, self.blocks.keys, None)?;
        Ok(Some((queries, keys)))
    }

    /// [`Blocks::position`] of stored indices `offset .. offset + n`.
    fn position_tensor(
        &self,
        b: &mut Builder<'c, 'a>,
        n: i64,
        offset: Option<Value<'c, 'a>>,
    ) -> Lowered<'c, Value<'c, 'a>> {
        let init = b.empty(&[n], Type::index(b.context))?;
        let balance = self.blocks.balance;
        b.generic(1, &[], &[], (init, all(1)), |s, _| {
            let mut t = s.index(0)?;
            if let Some(offset) = offset {
                t = s.index_op("arith.addi", t, offset)?;
            }
            let Some((chunk, shards)) = balance else {
                return Ok(t);
            };
            let (c, two) = (s.index_constant(chunk)?, s.index_constant(2)?);
            let (last, zero) = (s.index_constant(2 * shards - 1)?, s.index_constant(0)?);
            let j = s.index_op("arith.divui", t, c)?;
            let r = s.index_op("arith.remui", t, c)?;
            let pair = s.index_op("arith.divui", j, two)?;
            let odd = s.index_op("arith.remui", j, two)?;
            let mirrored = s.index_op("arith.subi", last, pair)?;
            // arith::CmpIPredicate::ne
            let is_odd = s.cmpi(1, odd, zero)?;
            let logical = s.select(is_odd, mirrored, pair)?;
            let start = s.index_op("arith.muli", logical, c)?;
            s.index_op("arith.addi", start, r)
        })
    }

    /// The query block from `qi`: its start in `q`, and under the mask its
    /// positions and the latest of them ([`Blocks::query_bounds`]).
    fn query_block(
        &self,
        b: &mut Builder<'c, 'a>,
        qi: Value<'c, 'a>,
        positions: Option<(Value<'c, 'a>, Value<'c, 'a>)>,
    ) -> Lowered<'c, Block<'c, 'a>> {
        let size = self.blocks.query_block;
        let tq = b.index_value(size);
        let start = b.index_arith("arith.muli", qi, tq)?;
        let Some((queries, _)) = positions else {
            return Ok(Block { start, mask: None });
        };
        let reach = b.index_value(size - 1);
        let last = b.index_arith("arith.addi", start, reach)?;
        // The last of the first chunk, as an index of q: ((offset + start)
        // / chunk + 1) chunk - 1 - offset.
        let chunk = b.index_value(self.blocks.chunk());
        let first = match self.offset {
            Some(offset) => b.index_arith("arith.addi", start, offset)?,
            None => start,
        };
        let chunks = b.index_arith("arith.divui", first, chunk)?;
        let one = b.index_value(1);
        let next = b.index_arith("arith.addi", chunks, one)?;
        let end = b.index_arith("arith.muli", next, chunk)?;
        let end = b.index_arith("arith.subi", end, one)?;
        let end = match self.offset {
            Some(offset) => b.index_arith("arith.subi", end, offset)?,
            None => end,
        };
        let chunk_last = b.index_arith("arith.minui", last, end)?;
        let at_last = b.extract_element(queries, &[last])?;
        let at_chunk_last = b.extract_element(queries, &[chunk_last])?;
        let latest = b.index_arith("arith.maxui", at_last, at_chunk_last)?;
        let slice = b.extract_block(queries, 0, start, size)?;
        Ok(Block {
            start,
            mask: Some((slice, latest)),
        })
    }

    /// The key block from `ki`: its start in `k`, and under the mask its
    /// positions and the earliest of them (its first: a key block lies in
    /// one chunk).
    fn key_block(
        &self,
        b: &mut Builder<'c, 'a>,
        ki: Value<'c, 'a>,
        positions: Option<(Value<'c, 'a>, Value<'c, 'a>)>,
    ) -> Lowered<'c, Block<'c, 'a>> {
        let size = self.blocks.key_block;
        let tk = b.index_value(size);
        let start = b.index_arith("arith.muli", ki, tk)?;
        let Some((_, keys)) = positions else {
            return Ok(Block { start, mask: None });
        };
        let earliest = b.extract_element(keys, &[start])?;
        let slice = b.extract_block(keys, 0, start, size)?;
        Ok(Block {
            start,
            mask: Some((slice, earliest)),
        })
    }

    /// `visit` where the query and key blocks hold a pair the mask shows
    /// (the key block's earliest position is not after the query block's
    /// latest), else `state` unchanged.
    fn if_visible(
        &self,
        b: &mut Builder<'c, 'a>,
        (query, key): (&Block<'c, 'a>, &Block<'c, 'a>),
        state: &[Value<'c, 'a>],
        visit: impl FnOnce(&mut Builder<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>>,
    ) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        let (Some((_, latest)), Some((_, earliest))) = (query.mask, key.mask) else {
            return visit(b);
        };
        // arith::CmpIPredicate::ule
        let visible = b.index_compare(7, earliest, latest)?;
        let types: Vec<Type<'c>> = state.iter().map(|v| v.r#type()).collect();
        b.if_else(visible, &types, visit, |_| Ok(state.to_vec()))
    }

    /// `inputs` of a generic over a block of scores (`[lead, query block,
    /// key block]`) and, under the mask, the blocks' positions after them.
    fn with_positions(
        &self,
        mut inputs: Vec<(Value<'c, 'a>, Vec<Ix>)>,
        (query, key): (&Block<'c, 'a>, &Block<'c, 'a>),
    ) -> Vec<(Value<'c, 'a>, Vec<Ix>)> {
        let r = self.rank();
        if let (Some((queries, _)), Some((keys, _))) = (query.mask, key.mask) {
            inputs.extend([(queries, vec![Ix::D(r - 2)]), (keys, vec![Ix::D(r - 1)])]);
        }
        inputs
    }

    /// An entry of a block of scores scaled, and -inf where its key's
    /// position comes after its query's; `args` are the generic's block
    /// arguments, the positions (if any, [`Instance::with_positions`]) from
    /// `inputs` on.
    fn masked(
        &self,
        s: &mut Body<'c, '_>,
        score: Value<'c, '_>,
        args: &[Value<'c, 'c>],
        inputs: usize,
    ) -> Lowered<'c, Value<'c, 'c>> {
        let scaled = s.times(score, self.scale)?;
        if !self.blocks.causal {
            return Ok(scaled);
        }
        let fill = s.float_of(scaled.r#type(), f64::NEG_INFINITY)?;
        // arith::CmpIPredicate::ugt
        let future = s.cmpi(8, args[inputs + 1], args[inputs])?;
        s.select(future, fill, scaled)
    }
}

/// A block of queries or keys: its start in its operand and, under the
/// mask, its positions and the latest (queries) or earliest (keys).
#[derive(Clone, Copy)]
struct Block<'c, 'a> {
    start: Value<'c, 'a>,
    mask: Option<(Value<'c, 'a>, Value<'c, 'a>)>,
}

/// `x` in the body's element type (extended, or rounded).
fn in_body_type<'c>(s: &mut Body<'c, '_>, x: Value<'c, '_>) -> Lowered<'c, Value<'c, 'c>> {
    let ty = s.element;
    s.as_type(x, ty)
}

/// An elementwise map of `inputs` (each read through its map) into a new
/// tensor of `shape` and `ty`.
fn map<'c, 'a>(
    b: &mut Builder<'c, 'a>,
    inputs: &[(Value<'c, 'a>, Vec<Ix>)],
    shape: &[i64],
    ty: Type<'c>,
    body: impl FnOnce(&mut Body<'c, '_>, &[Value<'c, 'c>]) -> Lowered<'c, Value<'c, 'c>>,
) -> Lowered<'c, Value<'c, 'a>> {
    let r = shape.len();
    let init = b.empty(shape, ty)?;
    b.generic(r, &[], inputs, (init, all(r)), body)
}

/// The forward: for each block of queries, the keys' blocks it sees folded
/// into a running maximum `m`, sum `l` and weighted sum `acc`; then `out =
/// acc / l` and `lse = m + log l`.
fn forward<'c, 'a>(b: &mut Builder<'c, 'a>, at: &Instance<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
    let r = at.rank();
    let Blocks {
        queries,
        keys,
        query_block: tq,
        key_block: tk,
        ..
    } = at.blocks;
    let (rows, row_map) = (at.dims(&[tq]), without(r, &[r - 1]));
    let out = b.empty(&at.dims(&[queries, at.values]), at.element)?;
    let lse = b.empty(&at.dims(&[queries]), at.stat)?;
    let positions = at.positions(b)?;
    b.for_loop(queries / tq, &[out, lse], |b, qi, done| {
        let query = at.query_block(b, qi, positions)?;
        let q = b.extract_block(at.q, r - 2, query.start, tq)?;
        let m = b.splat(&rows, at.stat, f64::NEG_INFINITY)?;
        let l = b.splat(&rows, at.wide, 0.0)?;
        let acc = b.splat(&at.dims(&[tq, at.values]), at.wide, 0.0)?;
        let state = b.for_loop(keys / tk, &[m, l, acc], |b, ki, state| {
            let key = at.key_block(b, ki, positions)?;
            at.if_visible(b, (&query, &key), state, |b| {
                let (m, l, acc) = (state[0], state[1], state[2]);
                let k = b.extract_block(at.k, r - 2, key.start, tk)?;
                let v = b.extract_block(at.v, r - 2, key.start, tk)?;
                let scores = matmul(b, q, k, false, true, &at.dims(&[tq, tk]))?;
                // The running maximum of the masked scores.
                let inputs = at.with_positions(vec![(scores, all(r))], (&query, &key));
                let m_new = b.generic(r, &[r - 1], &inputs, (m, row_map.clone()), |s, a| {
                    let x = at.masked(s, a[0], a, 1)?;
                    s.binary("arith.maximumf", a[a.len() - 1], x)
                })?;
                // What the old sums are worth under the new maximum (0 while
                // a row has seen no key: exp(-inf - 0)), and the weights.
                let m_safe = map(b, &[(m_new, all(r - 1))], &rows, at.stat, |s, a| {
                    let (minus_inf, zero) = (s.float(f64::NEG_INFINITY)?, s.float(0.0)?);
                    // arith::CmpFPredicate::OEQ
                    let none = s.cmpf(1, a[0], minus_inf)?;
                    s.select(none, zero, a[0])
                })?;
                let alpha = map(b, &[(m, all(r - 1)), (m_safe, all(r - 1))], &rows, at.stat, |s, a| {
                    let d = s.sub(a[0], a[1])?;
                    s.unary("math.exp", d)
                })?;
                let shape = at.dims(&[tq, tk]);
                // A masked entry weighs exp(-inf - finite) = 0.
                let inputs = at.with_positions(vec![(scores, all(r)), (m_safe, row_map.clone())], (&query, &key));
                let p = map(b, &inputs, &shape, at.element, |s, a| {
                    let x = at.masked(s, a[0], a, 2)?;
                    let shifted = s.sub(x, a[1])?;
                    s.unary("math.exp", shifted)
                })?;
                let row_sums = b.sum(
                    r,
                    &[r - 1],
                    &[(p, all(r))],
                    (&rows, row_map.clone()),
                    at.wide,
                    1.0,
                    |s, a| in_body_type(s, a[0]),
                )?;
                let l = map(
                    b,
                    &[(l, all(r - 1)), (alpha, all(r - 1)), (row_sums, all(r - 1))],
                    &rows,
                    at.wide,
                    |s, a| {
                        let alpha = in_body_type(s, a[1])?;
                        let kept = s.mul(a[0], alpha)?;
                        s.add(kept, a[2])
                    },
                )?;
                let pv = matmul(b, p, v, false, false, &at.dims(&[tq, at.values]))?;
                let acc = map(
                    b,
                    &[(acc, all(r)), (alpha, row_map.clone()), (pv, all(r))],
                    &at.dims(&[tq, at.values]),
                    at.wide,
                    |s, a| {
                        let alpha = in_body_type(s, a[1])?;
                        let kept = s.mul(a[0], alpha)?;
                        let added = in_body_type(s, a[2])?;
                        s.add(kept, added)
                    },
                )?;
                Ok(vec![m_new, l, acc])
            })
        })?;
        let (m, l, acc) = (state[0], state[1], state[2]);
        let o = map(
            b,
            &[(acc, all(r)), (l, row_map.clone())],
            &at.dims(&[tq, at.values]),
            at.element,
            |s, a| {
                s.element = at.wide;
                let o = s.div(a[0], a[1])?;
                s.as_type(o, at.element)
            },
        )?;
        let lse = map(b, &[(m, all(r - 1)), (l, all(r - 1))], &rows, at.stat, |s, a| {
            s.element = at.wide;
            let m = in_body_type(s, a[0])?;
            let log = s.unary("math.log", a[1])?;
            let lse = s.add(m, log)?;
            s.as_type(lse, at.stat)
        })?;
        Ok(vec![
            b.insert_block(o, done[0], r - 2, query.start)?,
            b.insert_block(lse, done[1], r - 2, query.start)?,
        ])
    })
}

/// The gradient (FlashAttention-2's): for each block of keys, the query
/// blocks that see it recompute the weights from `lse` and add into `dk`,
/// `dv` (the block's, summed over broadcast dims at its end) and `dq`.
fn backward<'c, 'a>(
    b: &mut Builder<'c, 'a>,
    at: &Instance<'c, 'a>,
    [out, lse, dout]: [Value<'c, 'a>; 3],
) -> Lowered<'c, Vec<Value<'c, 'a>>> {
    let r = at.rank();
    let Blocks {
        queries,
        keys,
        query_block: tq,
        key_block: tk,
        ..
    } = at.blocks;
    let row_map = without(r, &[r - 1]);
    // D = rowsum(dout * out), the softmax gradient's correction.
    let rows = at.dims(&[queries]);
    let correction = b.sum(
        r,
        &[r - 1],
        &[(dout, all(r)), (out, all(r))],
        (&rows, row_map.clone()),
        at.stat,
        1.0,
        |s, a| s.mul(a[0], a[1]),
    )?;
    let dq = b.splat(&at.dims(&[queries, at.features]), at.wide, 0.0)?;
    let dk = b.empty(&shape(at.k), at.element)?;
    let dv = b.empty(&shape(at.v), at.element)?;
    let positions = at.positions(b)?;
    let grads = b.for_loop(keys / tk, &[dq, dk, dv], |b, ki, grads| {
        let key = at.key_block(b, ki, positions)?;
        let k = b.extract_block(at.k, r - 2, key.start, tk)?;
        let v = b.extract_block(at.v, r - 2, key.start, tk)?;
        let dk_block = b.splat(&at.dims(&[tk, at.features]), at.wide, 0.0)?;
        let dv_block = b.splat(&at.dims(&[tk, at.values]), at.wide, 0.0)?;
        let sums = b.for_loop(queries / tq, &[grads[0], dk_block, dv_block], |b, qi, sums| {
            let query = at.query_block(b, qi, positions)?;
            let q_start = query.start;
            // The block's share of dq, added after the branch: a branch
            // that yielded the whole dq would copy it.
            let none = b.splat(&at.dims(&[tq, at.features]), at.element, 0.0)?;
            let visited = at.if_visible(b, (&query, &key), &[none, sums[1], sums[2]], |b| {
                let (dk, dv) = (sums[1], sums[2]);
                let q = b.extract_block(at.q, r - 2, q_start, tq)?;
                let d_out = b.extract_block(dout, r - 2, q_start, tq)?;
                let lse = b.extract_block(lse, r - 2, q_start, tq)?;
                let correction = b.extract_block(correction, r - 2, q_start, tq)?;
                let scores = matmul(b, q, k, false, true, &at.dims(&[tq, tk]))?;
                let shape = at.dims(&[tq, tk]);
                let inputs = at.with_positions(vec![(scores, all(r)), (lse, row_map.clone())], (&query, &key));
                let p = map(b, &inputs, &shape, at.element, |s, a| {
                    let x = at.masked(s, a[0], a, 2)?;
                    let shifted = s.sub(x, a[1])?;
                    s.unary("math.exp", shifted)
                })?;
                let pd = matmul(b, p, d_out, true, false, &at.dims(&[tk, at.values]))?;
                let dv = accumulate(b, dv, pd, 1.0)?;
                let dp = matmul(b, d_out, v, false, true, &shape)?;
                let ds = map(
                    b,
                    &[(p, all(r)), (dp, all(r)), (correction, row_map.clone())],
                    &shape,
                    at.element,
                    |s, a| {
                        let d = s.sub(a[1], a[2])?;
                        s.mul(a[0], d)
                    },
                )?;
                let dsk = matmul(b, ds, k, false, false, &at.dims(&[tq, at.features]))?;
                let dsq = matmul(b, ds, q, true, false, &at.dims(&[tk, at.features]))?;
                let dk = accumulate(b, dk, dsq, at.scale)?;
                Ok(vec![dsk, dk, dv])
            })?;
            let dq_block = b.extract_block(sums[0], r - 2, q_start, tq)?;
            let dq_block = accumulate(b, dq_block, visited[0], at.scale)?;
            let dq = b.insert_block(dq_block, sums[0], r - 2, q_start)?;
            Ok(vec![dq, visited[1], visited[2]])
        })?;
        let (dk, dv) = (key_gradient(b, at, sums[1])?, key_gradient(b, at, sums[2])?);
        let dk = b.insert_block(dk, grads[1], r - 2, key.start)?;
        let dv = b.insert_block(dv, grads[2], r - 2, key.start)?;
        Ok(vec![sums[0], dk, dv])
    })?;
    let dq = grads[0];
    let dq = map(b, &[(dq, all(r))], &shape(at.q), at.element, |s, a| {
        s.as_type(a[0], at.element)
    })?;
    Ok(vec![dq, grads[1], grads[2]])
}

/// `sum + factor * term`, `sum` in the wide type.
fn accumulate<'c, 'a>(
    b: &mut Builder<'c, 'a>,
    sum: Value<'c, 'a>,
    term: Value<'c, 'a>,
    factor: f64,
) -> Lowered<'c, Value<'c, 'a>> {
    let shape = shape(sum);
    let r = shape.len();
    let ty = element_type(sum.r#type());
    map(b, &[(sum, all(r)), (term, all(r))], &shape, ty, |s, a| {
        let t = in_body_type(s, a[1])?;
        let t = if factor == 1.0 { t } else { s.times(t, factor)? };
        s.add(a[0], t)
    })
}

/// A key block's gradient summed over the dims its operand broadcast,
/// in the operand's type.
fn key_gradient<'c, 'a>(
    b: &mut Builder<'c, 'a>,
    at: &Instance<'c, 'a>,
    sum: Value<'c, 'a>,
) -> Lowered<'c, Value<'c, 'a>> {
    let sum = match at.broadcast.is_empty() {
        true => sum,
        false => reduce(b, sum, &at.broadcast, true, false)?,
    };
    let shape = shape(sum);
    let r = shape.len();
    map(b, &[(sum, all(r))], &shape, at.element, |s, a| {
        s.as_type(a[0], at.element)
    })
}

/// The GEMM FLOPs of each shard of the queries, `per_pair(d, dv)` GEMMs of
/// `2 tq tk` per visible block pair and leading entry. The shards are
/// those of a split query dim (its global size over its local one), or, in
/// a partitioned function (an op given its offset), the keys' share each
/// block of queries may be; one entry otherwise.
fn flops_by_shard(
    op: OperationRef<'_, '_>,
    local_shape: &mut dyn FnMut(Value) -> Option<Vec<i64>>,
    per_pair: fn(i64, i64) -> i64,
) -> Vec<f64> {
    let (Some(q), Some(k), Some(v)) = (
        op.operand_at(0).and_then(&mut *local_shape),
        op.operand_at(1).and_then(&mut *local_shape),
        op.operand_at(2).and_then(&mut *local_shape),
    ) else {
        return vec![0.0];
    };
    let r = q.len();
    let blocks = Blocks::new(
        q[r - 2],
        k[r - 2],
        op.has_attribute(attr::CAUSAL),
        integer_attribute(&op, attr::BALANCE),
    );
    let lead: i64 = q[..r - 2].iter().product();
    let pair = 2.0 * (lead * blocks.query_block * blocks.key_block * per_pair(q[r - 1], v[r - 1])) as f64;
    let global = op.operand_at(0).map(|q| shape(q)[r - 2]).unwrap_or(blocks.queries);
    let tensors = match DistOp::of(&op) {
        Some(DistOp::AttentionGrad) => 6,
        _ => 3,
    };
    let shards = match (global > blocks.queries, op.operand_at(tensors).is_some()) {
        (true, _) => (global + blocks.queries - 1) / blocks.queries,
        (false, true) if blocks.causal => (blocks.keys + blocks.queries - 1) / blocks.queries,
        (false, _) => 1,
    };
    (0..shards)
        .map(|s| blocks.visible_pairs(s * blocks.queries) as f64 * pair)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::Blocks;
    use crate::ops::testing::{desc, factor_rule};
    use crate::vocabulary::rules::OpAttrs;

    #[test]
    fn the_balanced_order_is_npy_balances() {
        // 2 shards, chunks of 2: shard 0 holds chunks 0 and 3, shard 1
        // chunks 1 and 2 (scripts/npy.py balanced_order(8, 2)).
        let blocks = Blocks::new(8, 8, true, Some(2));
        let order: Vec<i64> = (0..8).map(|t| blocks.position(t)).collect();
        assert_eq!(order, [0, 1, 6, 7, 2, 3, 4, 5]);
    }

    #[test]
    fn causal_blocks_skip_the_future_and_balance_evens_the_shards() {
        // 4 shards of 256 queries among 1024 keys, blocks of 64.
        let contiguous = Blocks::new(256, 1024, true, None);
        let work: Vec<i64> = (0..4).map(|s| contiguous.visible_pairs(s * 256)).collect();
        // Shard s sees the 4 s key blocks before it whole and its own 4 as
        // a triangle of blocks: 16 s + 10.
        assert_eq!(work, [10, 26, 42, 58]);
        // Balanced, shard s holds chunks s and 7 - s of 128 keys, two blocks
        // each: chunk c's blocks see 2 c + 1 and 2 c + 2 key blocks, so
        // every shard sees 4 s + 3 + 4 (7 - s) + 3 = 34, the same 136 in all.
        let balanced = Blocks::new(256, 1024, true, Some(4));
        let work: Vec<i64> = (0..4).map(|s| balanced.visible_pairs(s * 256)).collect();
        assert_eq!(work, [34, 34, 34, 34]);
        // Without the mask every pair is computed.
        assert_eq!(Blocks::new(256, 1024, false, None).visible_pairs(0), 64);
    }

    #[test]
    fn every_visible_pair_lies_in_a_computed_block() {
        // At the offsets partitioning gives and at any other a program may
        // give, where a block of queries runs into the next chunk.
        for (queries, keys, balance) in [
            (12, 12, None),
            (6, 12, Some(1)),
            (3, 12, Some(2)),
            (100, 100, None),
            (4, 24, Some(3)),
        ] {
            let blocks = Blocks::new(queries, keys, true, balance);
            for offset in 0..=keys - queries {
                for i in 0..queries {
                    for j in 0..keys {
                        if blocks.position(j) <= blocks.position(offset + i) {
                            let qb = i / blocks.query_block * blocks.query_block;
                            let kb = j / blocks.key_block * blocks.key_block;
                            assert!(blocks.visible(offset + qb, kb), "{queries} {keys} {balance:?} {i} {j}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn queries_and_lead_dims_shard_and_the_key_gradients_are_partial_over_queries() {
        let (q, kv) = ([2, 4, 2, 16, 8].as_slice(), [2, 4, 1, 16, 8].as_slice());
        let rule = factor_rule(&desc("dist.attention", &[q, kv, kv], &[q, &q[..4]], OpAttrs::default()));
        assert_eq!(
            rule.einsum(),
            "b0,b1,b2,queries,features ; b0,b1,1,keys,features ; b0,b1,1,keys,values -> b0,b1,b2,queries,values ; b0,b1,b2,queries"
        );
        let shardable: Vec<&str> = rule.factors.iter().filter(|f| f.shardable).map(|f| &*f.name).collect();
        assert_eq!(shardable, ["b0", "b1", "b2", "queries"]);
        let grad = factor_rule(&desc(
            "dist.attention_grad",
            &[q, kv, kv, q, &q[..4], q],
            &[q, kv, kv],
            OpAttrs::default(),
        ));
        let queries = grad.factors.iter().position(|f| f.name == "queries").unwrap();
        let group = grad.factors.iter().position(|f| f.name == "b2").unwrap();
        assert!(!grad.is_reduced(queries, 0) && grad.is_reduced(queries, 1) && grad.is_reduced(queries, 2));
        assert!(grad.is_reduced(group, 1) && grad.is_reduced(group, 2));
    }
}
