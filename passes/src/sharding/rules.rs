//! The sharding rule table: for every `dist` op, how mesh axes may be
//! assigned to the op's iteration *factors* (einsum letters), and what that
//! means for its operands and results.
//!
//! Pure Rust over shapes and attributes ([`OpDesc`]), so the table is unit
//! tested without MLIR. A compute op's rule maps each operand and result dim
//! to a factor; a factor that appears in some operand but not in a result is
//! *reduced* for that result, so a result is partial over the axes that
//! shard its reduced factors (see `docs/sharding-rules.md`). Collectives are
//! not einsums: they have layout transfer functions instead.

use dist_dialect::{DistOp, ReductionKind};
use std::borrow::Cow;
use std::fmt;

/// Index of a mesh axis in its mesh.
pub type Axis = u8;

/// The most mesh axes the passes handle: an [`Axes`] list holds any set of
/// distinct axes inline.
pub const MAX_AXES: usize = 15;

/// Distinct mesh axes in order (the split of one dim, or a partial set).
///
/// A `Copy` inline list: propagation builds and compares many of these per
/// op, and heap vectors made that the cost of the pass (docs/perf.md).
/// Unused slots stay zero, so the derived `Eq` and `Hash` see the list only.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Axes {
    len: u8,
    axes: [Axis; MAX_AXES],
}

impl Axes {
    pub const fn new() -> Self {
        Self {
            len: 0,
            axes: [0; MAX_AXES],
        }
    }

    /// # Panics
    /// If `axes` is longer than [`MAX_AXES`] (distinct axes of a mesh the
    /// passes accept never are).
    pub fn from_slice(axes: &[Axis]) -> Self {
        let mut out = Self::new();
        out.extend_from_slice(axes);
        out
    }

    /// # Panics
    /// If the list is full.
    pub fn push(&mut self, axis: Axis) {
        self.axes[usize::from(self.len)] = axis;
        self.len += 1;
    }

    /// # Panics
    /// If the result would exceed [`MAX_AXES`].
    pub fn extend_from_slice(&mut self, axes: &[Axis]) {
        let len = usize::from(self.len);
        self.axes[len..len + axes.len()].copy_from_slice(axes);
        self.len += axes.len() as u8;
    }

    pub fn truncate(&mut self, len: usize) {
        if len < usize::from(self.len) {
            self.axes[len..].fill(0);
            self.len = len as u8;
        }
    }
}

impl std::ops::Deref for Axes {
    type Target = [Axis];

    fn deref(&self) -> &[Axis] {
        &self.axes[..usize::from(self.len)]
    }
}

impl std::ops::DerefMut for Axes {
    fn deref_mut(&mut self) -> &mut [Axis] {
        &mut self.axes[..usize::from(self.len)]
    }
}

impl<'a> IntoIterator for &'a Axes {
    type Item = &'a Axis;
    type IntoIter = std::slice::Iter<'a, Axis>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl FromIterator<Axis> for Axes {
    fn from_iter<I: IntoIterator<Item = Axis>>(iter: I) -> Self {
        let mut out = Self::new();
        for axis in iter {
            out.push(axis);
        }
        out
    }
}

impl fmt::Debug for Axes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Index of a factor in its rule.
pub type FactorId = usize;

/// One einsum letter of an op.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Factor {
    /// Name for diagnostics: `m`, `k`, `n`, `b0`, `d1`, `vocab`, ...
    pub name: Cow<'static, str>,
    /// False where splitting the factor has no local meaning (the softmax
    /// axis, the normalized dims of layer_norm, the minor dims of a reshape).
    pub shardable: bool,
}

/// Which operands an op is linear in, so a partial operand may pass through
/// to the results instead of being reduced first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Linearity {
    /// Nonlinear: every partial operand must be resolved first.
    None,
    /// `x + y`: all listed operands partial on the same axes and kind.
    Sum(Vec<usize>),
    /// Linear in each listed operand separately (`matmul`, `scale`):
    /// exactly one of them partial, every other operand not partial.
    /// `any_kind` also passes `max`/`min` (pure data movement).
    Each { operands: Vec<usize>, any_kind: bool },
}

/// An einsum-style rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FactorRule {
    pub factors: Vec<Factor>,
    /// For each operand, the factor of each dim (`None`: a broadcast size-1
    /// dim or an integer dim, never split).
    pub operands: Vec<Vec<Option<FactorId>>>,
    pub results: Vec<Vec<Option<FactorId>>>,
    /// For each result, how the contributions of its reduced factors combine.
    pub reduction: Vec<ReductionKind>,
    pub linearity: Linearity,
    /// Operands only read for their shape (`x` and `y` of `add_grad`): a
    /// partial one needs no resolution.
    pub shape_only: Vec<usize>,
}

impl FactorRule {
    /// Whether `factor` is reduced away for `result`: present in an operand,
    /// absent from the result.
    pub fn is_reduced(&self, factor: FactorId, result: usize) -> bool {
        !self.results[result].contains(&Some(factor)) && self.operands.iter().any(|dims| dims.contains(&Some(factor)))
    }

    /// The rule in einsum form, e.g. `m,k ; k,n -> m,n` (`1`: a dim of no
    /// factor, `()`: a scalar).
    pub fn einsum(&self) -> String {
        let side = |tensors: &[Vec<Option<FactorId>>]| {
            let tensor = |dims: &Vec<Option<FactorId>>| {
                if dims.is_empty() {
                    return "()".to_owned();
                }
                let names: Vec<&str> = dims.iter().map(|f| f.map_or("1", |f| &self.factors[f].name)).collect();
                names.join(",")
            };
            tensors.iter().map(tensor).collect::<Vec<_>>().join(" ; ")
        };
        format!("{} -> {}", side(&self.operands), side(&self.results))
    }
}

/// What a collective does to the layout of its operand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Transfer {
    /// all_reduce (`scatter_dim: None`) or reduce_scatter: the operand is
    /// partial over `axes`; the result is not, and reduce_scatter splits
    /// `scatter_dim` over them.
    Reduce {
        axes: Vec<Axis>,
        kind: ReductionKind,
        scatter_dim: Option<usize>,
    },
    /// Removes `axes` from the split of `dim`.
    Gather { dim: usize, axes: Vec<Axis> },
    /// Adds `axes` to the split of `dim` (minor end).
    Slice { dim: usize, axes: Vec<Axis> },
    /// Moves `axes` from `concat_dim` to `split_dim`.
    AllToAll {
        split_dim: usize,
        concat_dim: usize,
        axes: Vec<Axis>,
    },
}

/// A collective: operand `i` maps to result `i` by `transfer`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CollectiveRule {
    pub transfer: Transfer,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rule {
    Factor(FactorRule),
    Collective(CollectiveRule),
}

/// Attributes the rules read; absent ones keep their defaults.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct OpAttrs {
    pub transpose_x: bool,
    pub transpose_y: bool,
    pub keepdim: bool,
    /// `dims` of reductions.
    pub dims: Vec<i64>,
    pub perm: Vec<i64>,
    /// softmax `axis`.
    pub axis: i64,
    pub begin_norm_axis: i64,
    /// Collectives: `dim`, `split_dim`, `concat_dim`, the axes and the kind.
    pub dim: i64,
    pub split_dim: i64,
    pub concat_dim: i64,
    pub axes: Vec<Axis>,
    pub kind: Option<ReductionKind>,
}

/// An op instance as the rule table sees it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct OpDesc {
    /// Full name, e.g. `dist.matmul`.
    pub name: String,
    pub operands: Vec<Vec<i64>>,
    pub results: Vec<Vec<i64>>,
    pub attrs: OpAttrs,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    /// No entry in the table: a clear error, never a silent replicate.
    #[error("no sharding rule for '{0}'")]
    NoRule(String),
    /// The op does not have the structure its rule expects (a verifier
    /// would normally have caught it).
    #[error("'{op}' does not fit its sharding rule: {reason}")]
    Malformed { op: String, reason: String },
}

/// `d3`, `b0`, ...: static for the small indices every real op uses, so
/// building a rule allocates no names.
fn indexed(prefix: char, index: usize) -> Cow<'static, str> {
    const NAMES: [[&str; 8]; 4] = [
        ["b0", "b1", "b2", "b3", "b4", "b5", "b6", "b7"],
        ["d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7"],
        ["g0", "g1", "g2", "g3", "g4", "g5", "g6", "g7"],
        ["i0", "i1", "i2", "i3", "i4", "i5", "i6", "i7"],
    ];
    let row = "bdgi".find(prefix);
    match row.and_then(|r| NAMES[r].get(index)) {
        Some(name) => Cow::Borrowed(name),
        None => Cow::Owned(format!("{prefix}{index}")),
    }
}

/// Builds a rule factor by factor.
#[derive(Default)]
struct Builder {
    factors: Vec<Factor>,
}

impl Builder {
    fn factor(&mut self, name: impl Into<Cow<'static, str>>, shardable: bool) -> FactorId {
        self.factors.push(Factor {
            name: name.into(),
            shardable,
        });
        self.factors.len() - 1
    }

    /// One shardable factor per dim, named `d0`, `d1`, ...
    fn dims(&mut self, rank: usize) -> Vec<Option<FactorId>> {
        (0..rank).map(|d| Some(self.factor(indexed('d', d), true))).collect()
    }

    fn finish(
        self,
        operands: Vec<Vec<Option<FactorId>>>,
        results: Vec<Vec<Option<FactorId>>>,
        reduction: Vec<ReductionKind>,
        linearity: Linearity,
    ) -> Rule {
        Rule::Factor(FactorRule {
            factors: self.factors,
            operands,
            results,
            reduction,
            linearity,
            shape_only: Vec::new(),
        })
    }
}

/// `dims` with every factor of `x` that `y` (right-aligned, same sizes)
/// shares: the trailing-broadcast operand of add/sub/mul.
fn trailing(x: &[Option<FactorId>], rank: usize) -> Vec<Option<FactorId>> {
    x[x.len() - rank..].to_vec()
}

fn sum_each(n: usize) -> Vec<ReductionKind> {
    vec![ReductionKind::Sum; n]
}

/// `arith.constant`, which dist-append-backward seeds the backward with.
const CONSTANT: &str = "arith.constant";

/// A tensor constant has one value on every device: replicated, its dims
/// unshardable (a split would need a slice of the literal).
fn constant_rule(desc: &OpDesc) -> Result<Rule, RuleError> {
    expect_arity(desc, 0, 1)?;
    let mut b = Builder::default();
    let dims = (0..desc.results[0].len())
        .map(|d| Some(b.factor(indexed('d', d), false)))
        .collect();
    Ok(b.finish(Vec::new(), vec![dims], sum_each(1), Linearity::None))
}

/// Normalizes a possibly negative dim index.
fn dim_index(desc: &OpDesc, dim: i64, rank: usize, what: &str) -> Result<usize, RuleError> {
    let d = if dim < 0 { dim + rank as i64 } else { dim };
    if (0..rank as i64).contains(&d) {
        Ok(d as usize)
    } else {
        Err(malformed(desc, format!("{what} {dim} is out of range for rank {rank}")))
    }
}

fn malformed(desc: &OpDesc, reason: String) -> RuleError {
    RuleError::Malformed {
        op: desc.name.clone(),
        reason,
    }
}

fn expect_arity(desc: &OpDesc, operands: usize, results: usize) -> Result<(), RuleError> {
    if desc.operands.len() == operands && desc.results.len() == results {
        Ok(())
    } else {
        Err(malformed(
            desc,
            format!(
                "expected {operands} operands and {results} results, got {} and {}",
                desc.operands.len(),
                desc.results.len()
            ),
        ))
    }
}

/// Factors of `matmul(x, y)`: `(x dims, y dims, out dims)`. Batch dims align
/// on the right; a size-1 dim broadcast against a larger one maps to no
/// factor.
type MatmulDims = (Vec<Option<FactorId>>, Vec<Option<FactorId>>, Vec<Option<FactorId>>);

fn matmul_dims(b: &mut Builder, desc: &OpDesc) -> Result<MatmulDims, RuleError> {
    let (xs, ys) = (&desc.operands[0], &desc.operands[1]);
    if xs.len() < 2 || ys.len() < 2 {
        return Err(malformed(desc, "x and y need rank >= 2".into()));
    }
    let out_batch = xs.len().max(ys.len()) - 2;
    let mut out: Vec<Option<FactorId>> = Vec::with_capacity(out_batch + 2);
    let mut sizes = Vec::with_capacity(out_batch);
    for i in 0..out_batch {
        let size_of = |s: &[i64]| {
            let batch = s.len() - 2;
            (i + batch >= out_batch).then(|| s[i + batch - out_batch])
        };
        let size = size_of(xs).unwrap_or(1).max(size_of(ys).unwrap_or(1));
        out.push(Some(b.factor(indexed('b', i), true)));
        sizes.push(size);
    }
    let batch_of = |s: &[i64]| -> Vec<Option<FactorId>> {
        let batch = s.len() - 2;
        (0..batch)
            .map(|j| {
                let i = j + out_batch - batch;
                (s[j] == sizes[i]).then_some(out[i]).flatten()
            })
            .collect()
    };
    let (mut xd, mut yd) = (batch_of(xs), batch_of(ys));
    let (m, n, k) = (
        Some(b.factor("m", true)),
        Some(b.factor("n", true)),
        Some(b.factor("k", true)),
    );
    xd.extend(if desc.attrs.transpose_x { [k, m] } else { [m, k] });
    yd.extend(if desc.attrs.transpose_y { [n, k] } else { [k, n] });
    out.extend([m, n]);
    Ok((xd, yd, out))
}

/// The rule of one op instance.
pub fn rule_for(desc: &OpDesc) -> Result<Rule, RuleError> {
    if desc.name == CONSTANT {
        return constant_rule(desc);
    }
    // An async start has the rule of its synchronous form (the pass pairs it
    // with its wait, whose results are the collective's results).
    let op = DistOp::from_name(&desc.name)
        .ok_or_else(|| RuleError::NoRule(desc.name.clone()))?
        .synchronous();
    let mut b = Builder::default();
    let rank = |i: usize| desc.operands.get(i).map_or(0, Vec::len);
    let each = |operands: Vec<usize>| Linearity::Each {
        operands,
        any_kind: false,
    };
    let mut rule = match op {
        DistOp::Matmul => {
            expect_arity(desc, 2, 1)?;
            let (x, y, out) = matmul_dims(&mut b, desc)?;
            b.finish(vec![x, y], vec![out], sum_each(1), each(vec![0, 1]))
        }
        DistOp::MatmulGrad => {
            expect_arity(desc, 3, 2)?;
            let (x, y, out) = matmul_dims(&mut b, desc)?;
            b.finish(
                vec![x.clone(), y.clone(), out],
                vec![x, y],
                sum_each(2),
                Linearity::None,
            )
        }
        DistOp::Add | DistOp::Sub | DistOp::Mul => {
            expect_arity(desc, 2, 1)?;
            let x = b.dims(rank(0));
            let y = trailing(&x, rank(1));
            let linearity = if op == DistOp::Mul {
                each(vec![0, 1])
            } else {
                Linearity::Sum(vec![0, 1])
            };
            b.finish(vec![x.clone(), y], vec![x], sum_each(1), linearity)
        }
        DistOp::AddGrad | DistOp::SubGrad | DistOp::MulGrad => {
            expect_arity(desc, 3, 2)?;
            let x = b.dims(rank(0));
            let y = trailing(&x, rank(1));
            b.finish(
                vec![x.clone(), y.clone(), x.clone()],
                vec![x, y],
                sum_each(2),
                Linearity::None,
            )
        }
        DistOp::Scale | DistOp::Gelu | DistOp::Relu => {
            expect_arity(desc, 1, 1)?;
            let x = b.dims(rank(0));
            let linearity = if op == DistOp::Scale {
                each(vec![0])
            } else {
                Linearity::None
            };
            b.finish(vec![x.clone()], vec![x], sum_each(1), linearity)
        }
        DistOp::GeluGrad | DistOp::ReluGrad => {
            expect_arity(desc, 2, 1)?;
            let x = b.dims(rank(0));
            b.finish(vec![x.clone(), x.clone()], vec![x], sum_each(1), Linearity::None)
        }
        DistOp::Softmax | DistOp::SoftmaxGrad => {
            let n = if op == DistOp::Softmax { 1 } else { 2 };
            expect_arity(desc, n, 1)?;
            let axis = dim_index(desc, desc.attrs.axis, rank(0), "axis")?;
            let x: Vec<_> = (0..rank(0))
                .map(|d| Some(b.factor(if d == axis { "axis".into() } else { indexed('d', d) }, d != axis)))
                .collect();
            b.finish(vec![x.clone(); n], vec![x], sum_each(1), Linearity::None)
        }
        DistOp::LayerNorm | DistOp::LayerNormGrad => {
            let grad = op == DistOp::LayerNormGrad;
            expect_arity(desc, if grad { 5 } else { 3 }, 3)?;
            let split = desc.attrs.begin_norm_axis;
            if split < 0 || split > rank(0) as i64 {
                return Err(malformed(desc, format!("begin_norm_axis {split} is out of range")));
            }
            let split = split as usize;
            let batch: Vec<_> = (0..split).map(|d| Some(b.factor(indexed('d', d), true))).collect();
            let norm: Vec<_> = (split..rank(0))
                .map(|d| Some(b.factor(indexed('d', d), false)))
                .collect();
            let x: Vec<_> = batch.iter().chain(&norm).copied().collect();
            if grad {
                // x, scale, mean, rstd, dy -> dx, dscale, dbias
                b.finish(
                    vec![x.clone(), norm.clone(), batch.clone(), batch, x.clone()],
                    vec![x, norm.clone(), norm],
                    sum_each(3),
                    Linearity::None,
                )
            } else {
                b.finish(
                    vec![x.clone(), norm.clone(), norm],
                    vec![x, batch.clone(), batch],
                    sum_each(3),
                    Linearity::None,
                )
            }
        }
        DistOp::Embedding | DistOp::EmbeddingGrad => {
            let grad = op == DistOp::EmbeddingGrad;
            expect_arity(desc, if grad { 3 } else { 2 }, 1)?;
            if rank(1) != 2 {
                return Err(malformed(desc, "the table needs rank 2".into()));
            }
            let ids: Vec<_> = (0..rank(0)).map(|d| Some(b.factor(indexed('i', d), true))).collect();
            let table = vec![Some(b.factor("vocab", true)), Some(b.factor("hidden", true))];
            let mut out = ids.clone();
            out.push(table[1]);
            // Forward: a vocab-sharded table gives masked lookups that sum
            // to the output. Grad: dtable sums dout over the id dims.
            if grad {
                b.finish(vec![ids, table.clone(), out], vec![table], sum_each(1), Linearity::None)
            } else {
                b.finish(vec![ids, table], vec![out], sum_each(1), Linearity::None)
            }
        }
        DistOp::ReduceSum | DistOp::ReduceMean | DistOp::ReduceSumGrad | DistOp::ReduceMeanGrad => {
            let grad = matches!(op, DistOp::ReduceSumGrad | DistOp::ReduceMeanGrad);
            expect_arity(desc, if grad { 2 } else { 1 }, 1)?;
            let x = b.dims(rank(0));
            let mut reduced = vec![false; rank(0)];
            for &d in &desc.attrs.dims {
                reduced[dim_index(desc, d, rank(0), "reduced dim")?] = true;
            }
            let out: Vec<_> = x
                .iter()
                .zip(&reduced)
                .filter_map(|(&f, &r)| match (r, desc.attrs.keepdim) {
                    (false, _) => Some(f),
                    (true, true) => Some(None),
                    (true, false) => None,
                })
                .collect();
            let kind = if matches!(op, DistOp::ReduceMean | DistOp::ReduceMeanGrad) {
                ReductionKind::Avg
            } else {
                ReductionKind::Sum
            };
            if grad {
                b.finish(vec![x.clone(), out], vec![x], sum_each(1), Linearity::None)
            } else {
                b.finish(vec![x], vec![out], vec![kind], each(vec![0]))
            }
        }
        DistOp::Transpose => {
            expect_arity(desc, 1, 1)?;
            let x = b.dims(rank(0));
            let mut seen = vec![false; rank(0)];
            let out = desc
                .attrs
                .perm
                .iter()
                .map(|&p| {
                    let p = dim_index(desc, p, rank(0), "perm entry")?;
                    if std::mem::replace(&mut seen[p], true) {
                        return Err(malformed(desc, format!("perm repeats {p}")));
                    }
                    Ok(x[p])
                })
                .collect::<Result<Vec<_>, _>>()?;
            if out.len() != rank(0) {
                return Err(malformed(desc, "perm length differs from the rank".into()));
            }
            let linearity = Linearity::Each {
                operands: vec![0],
                any_kind: true,
            };
            b.finish(vec![x], vec![out], sum_each(1), linearity)
        }
        DistOp::Reshape => {
            expect_arity(desc, 1, 1)?;
            let (x, out) = reshape_dims(&mut b, &desc.operands[0], &desc.results[0])
                .ok_or_else(|| malformed(desc, "element counts differ".into()))?;
            let linearity = Linearity::Each {
                operands: vec![0],
                any_kind: true,
            };
            b.finish(vec![x], vec![out], sum_each(1), linearity)
        }
        DistOp::AdamW | DistOp::Sgd => {
            // Elementwise over the parameter, its gradient and its states;
            // AdamW's step count is a replicated scalar.
            let (operands, results) = match (op, desc.operands.len()) {
                (DistOp::AdamW, _) => (5, 3),
                (_, 3) => (3, 2),
                _ => (2, 1),
            };
            expect_arity(desc, operands, results)?;
            let x = b.dims(rank(0));
            let tensors = (0..operands)
                .map(|i| {
                    if op == DistOp::AdamW && i == 4 {
                        Vec::new()
                    } else {
                        x.clone()
                    }
                })
                .collect();
            b.finish(tensors, vec![x; results], sum_each(results), Linearity::None)
        }
        DistOp::AllReduce
        | DistOp::AllReduceCoalesced
        | DistOp::ReduceScatter
        | DistOp::ReduceScatterCoalesced
        | DistOp::AllGather
        | DistOp::AllSlice
        | DistOp::AllToAll => {
            return collective_rule(desc, op).map(Rule::Collective);
        }
        _ => return Err(RuleError::NoRule(desc.name.clone())),
    };
    if let Rule::Factor(rule) = &mut rule {
        rule.shape_only = match op {
            DistOp::AddGrad | DistOp::SubGrad => vec![0, 1],
            DistOp::ReduceSumGrad | DistOp::ReduceMeanGrad => vec![0],
            DistOp::EmbeddingGrad => vec![1],
            _ => Vec::new(),
        };
    }
    Ok(rule)
}

fn collective_rule(desc: &OpDesc, op: DistOp) -> Result<CollectiveRule, RuleError> {
    let rank = desc.operands.first().map_or(0, Vec::len);
    let axes = desc.attrs.axes.clone();
    let kind = || {
        desc.attrs
            .kind
            .ok_or_else(|| malformed(desc, "missing reduction kind".into()))
    };
    let dim = |value: i64, what: &str| dim_index(desc, value, rank, what);
    let transfer = match op {
        DistOp::AllReduce | DistOp::AllReduceCoalesced => Transfer::Reduce {
            axes,
            kind: kind()?,
            scatter_dim: None,
        },
        DistOp::ReduceScatter | DistOp::ReduceScatterCoalesced => Transfer::Reduce {
            axes,
            kind: kind()?,
            scatter_dim: Some(dim(desc.attrs.dim, "dim")?),
        },
        DistOp::AllGather => Transfer::Gather {
            dim: dim(desc.attrs.dim, "dim")?,
            axes,
        },
        DistOp::AllSlice => Transfer::Slice {
            dim: dim(desc.attrs.dim, "dim")?,
            axes,
        },
        _ => Transfer::AllToAll {
            split_dim: dim(desc.attrs.split_dim, "split_dim")?,
            concat_dim: dim(desc.attrs.concat_dim, "concat_dim")?,
            axes,
        },
    };
    if desc.operands.len() != desc.results.len() || desc.operands.is_empty() {
        return Err(malformed(desc, "operands and results must pair up".into()));
    }
    Ok(CollectiveRule { transfer })
}

/// Factors of a row-major reshape. Dims are grouped into the shortest runs
/// with equal element counts on both sides; a one-to-one run shares its
/// factor, and a merged or split run shares only its leading factor (a split
/// of the leading dim selects the same contiguous block on both sides). The
/// other dims of such a run get unshardable factors of their own; size-1
/// dims get none.
fn reshape_dims(b: &mut Builder, from: &[i64], to: &[i64]) -> Option<DimsPair> {
    let count = from.iter().product::<i64>();
    if count != to.iter().product::<i64>() {
        return None;
    }
    if count == 0 {
        // Nothing to split in an empty tensor.
        return Some((vec![None; from.len()], vec![None; to.len()]));
    }
    let (mut x, mut out) = (Vec::with_capacity(from.len()), Vec::with_capacity(to.len()));
    let (mut i, mut j) = (0, 0);
    while i < from.len() || j < to.len() {
        // Size-1 dims carry nothing.
        if i < from.len() && from[i] == 1 {
            x.push(None);
            i += 1;
            continue;
        }
        if j < to.len() && to[j] == 1 {
            out.push(None);
            j += 1;
            continue;
        }
        let lead = b.factor(indexed('g', b.factors.len()), true);
        let (mut a, mut c) = (from[i], to[j]);
        x.push(Some(lead));
        out.push(Some(lead));
        i += 1;
        j += 1;
        while a != c {
            if a < c {
                a *= from[i];
                x.push(Some(b.factor(indexed('g', b.factors.len()), false)));
                i += 1;
            } else {
                c *= to[j];
                out.push(Some(b.factor(indexed('g', b.factors.len()), false)));
                j += 1;
            }
        }
    }
    Some((x, out))
}

type DimsPair = (Vec<Option<FactorId>>, Vec<Option<FactorId>>);

#[cfg(test)]
mod tests {
    use super::*;
    use dist_dialect::DistOp;

    #[test]
    fn axes_compare_by_their_list_only() {
        let mut long = Axes::from_slice(&[2, 0, 1]);
        long.truncate(1);
        assert_eq!(long, Axes::from_slice(&[2]), "truncation clears the dropped slots");
        let built: Axes = [2, 0].into_iter().collect();
        assert_eq!(&*built, &[2, 0]);
        assert_ne!(built, Axes::from_slice(&[0, 2]), "order matters");
        assert_eq!(format!("{built:?}"), "[2, 0]");
    }

    fn desc(name: &str, operands: &[&[i64]], results: &[&[i64]], attrs: OpAttrs) -> OpDesc {
        OpDesc {
            name: name.into(),
            operands: operands.iter().map(|s| s.to_vec()).collect(),
            results: results.iter().map(|s| s.to_vec()).collect(),
            attrs,
        }
    }

    fn factor_rule(d: &OpDesc) -> FactorRule {
        match rule_for(d).unwrap() {
            Rule::Factor(rule) => rule,
            other => panic!("expected a factor rule, got {other:?}"),
        }
    }

    fn transposed(tx: bool, ty: bool) -> OpAttrs {
        OpAttrs {
            transpose_x: tx,
            transpose_y: ty,
            ..OpAttrs::default()
        }
    }

    #[test]
    fn matmul_contracts_k_for_every_transpose_combination() {
        let cases = [
            (false, false, [8, 16], [16, 32], "m,k ; k,n -> m,n"),
            (true, false, [16, 8], [16, 32], "k,m ; k,n -> m,n"),
            (false, true, [8, 16], [32, 16], "m,k ; n,k -> m,n"),
            (true, true, [16, 8], [32, 16], "k,m ; n,k -> m,n"),
        ];
        for (tx, ty, x, y, expected) in cases {
            let rule = factor_rule(&desc(DistOp::Matmul.name(), &[&x, &y], &[&[8, 32]], transposed(tx, ty)));
            assert_eq!(rule.einsum(), expected);
            let k = rule.factors.iter().position(|f| f.name == "k").unwrap();
            assert!(rule.is_reduced(k, 0));
        }
    }

    #[test]
    fn matmul_broadcasts_batch_dims() {
        let rule = factor_rule(&desc(
            DistOp::Matmul.name(),
            &[&[2, 4, 8, 16], &[4, 16, 32]],
            &[&[2, 4, 8, 32]],
            OpAttrs::default(),
        ));
        assert_eq!(rule.einsum(), "b0,b1,m,k ; b1,k,n -> b0,b1,m,n");
        let rule = factor_rule(&desc(
            DistOp::Matmul.name(),
            &[&[1, 8, 16], &[4, 16, 32]],
            &[&[4, 8, 32]],
            OpAttrs::default(),
        ));
        assert_eq!(rule.einsum(), "1,m,k ; b0,k,n -> b0,m,n");
    }

    #[test]
    fn matmul_grad_reduces_n_for_dx_and_batch_and_m_for_dy() {
        let rule = factor_rule(&desc(
            DistOp::MatmulGrad.name(),
            &[&[4, 8, 16], &[16, 32], &[4, 8, 32]],
            &[&[4, 8, 16], &[16, 32]],
            OpAttrs::default(),
        ));
        assert_eq!(rule.einsum(), "b0,m,k ; k,n ; b0,m,n -> b0,m,k ; k,n");
        let reduced = |r| {
            (0..rule.factors.len())
                .filter(|&f| rule.is_reduced(f, r))
                .map(|f| &*rule.factors[f].name)
                .collect::<Vec<_>>()
        };
        assert_eq!(reduced(0), ["n"]);
        assert_eq!(reduced(1), ["b0", "m"]);
    }

    #[test]
    fn gradient_rules_reduce_the_broadcast_dims() {
        let add = factor_rule(&desc(
            DistOp::AddGrad.name(),
            &[&[4, 8, 32], &[32], &[4, 8, 32]],
            &[&[4, 8, 32], &[32]],
            OpAttrs::default(),
        ));
        assert_eq!(add.einsum(), "d0,d1,d2 ; d2 ; d0,d1,d2 -> d0,d1,d2 ; d2");
        assert!(add.is_reduced(0, 1) && add.is_reduced(1, 1) && !add.is_reduced(2, 1));
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
        assert!(fwd.is_reduced(2, 0), "a vocab-sharded table gives a partial lookup");
    }

    #[test]
    fn reductions_use_their_kind_and_keepdim() {
        let attrs = |keepdim| OpAttrs {
            dims: vec![1],
            keepdim,
            ..OpAttrs::default()
        };
        let mean = factor_rule(&desc(DistOp::ReduceMean.name(), &[&[8, 32]], &[&[8]], attrs(false)));
        assert_eq!(mean.einsum(), "d0,d1 -> d0");
        assert_eq!(mean.reduction, [ReductionKind::Avg]);
        let sum = factor_rule(&desc(DistOp::ReduceSum.name(), &[&[8, 32]], &[&[8, 1]], attrs(true)));
        assert_eq!(sum.einsum(), "d0,d1 -> d0,1");
        assert_eq!(sum.reduction, [ReductionKind::Sum]);
    }

    #[test]
    fn softmax_axis_and_normalized_dims_are_not_shardable() {
        let softmax = factor_rule(&desc(
            DistOp::Softmax.name(),
            &[&[4, 8, 8]],
            &[&[4, 8, 8]],
            OpAttrs {
                axis: -1,
                ..OpAttrs::default()
            },
        ));
        assert_eq!(softmax.einsum(), "d0,d1,axis -> d0,d1,axis");
        assert!(!softmax.factors[2].shardable && softmax.factors[1].shardable);
    }

    #[test]
    fn reshape_shares_the_leading_factor_of_each_group() {
        let rule = factor_rule(&desc(
            DistOp::Reshape.name(),
            &[&[4, 8, 32]],
            &[&[32, 32]],
            OpAttrs::default(),
        ));
        assert_eq!(rule.einsum(), "g0,g1,g2 -> g0,g2");
        assert!(rule.factors[0].shardable && !rule.factors[1].shardable);
        let split = factor_rule(&desc(
            DistOp::Reshape.name(),
            &[&[32, 1, 32]],
            &[&[4, 8, 32]],
            OpAttrs::default(),
        ));
        assert_eq!(split.einsum(), "g0,1,g2 -> g0,g1,g2");
        assert!(rule_for(&desc(DistOp::Reshape.name(), &[&[4, 8]], &[&[30]], OpAttrs::default())).is_err());
    }

    #[test]
    fn transpose_permutes_factors() {
        let rule = factor_rule(&desc(
            DistOp::Transpose.name(),
            &[&[4, 8, 16]],
            &[&[4, 16, 8]],
            OpAttrs {
                perm: vec![0, 2, 1],
                ..OpAttrs::default()
            },
        ));
        assert_eq!(rule.einsum(), "d0,d1,d2 -> d0,d2,d1");
    }

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
        let err = rule_for(&desc(
            DistOp::Sgd.name(),
            &[&[8], &[8]],
            &[&[8], &[8]],
            OpAttrs::default(),
        ))
        .unwrap_err();
        assert!(matches!(err, RuleError::Malformed { .. }));
    }

    #[test]
    fn tensor_constants_are_replicated() {
        let rule = factor_rule(&desc(CONSTANT, &[], &[&[4, 8]], OpAttrs::default()));
        assert_eq!(rule.einsum(), " -> d0,d1");
        assert!(rule.factors.iter().all(|f| !f.shardable));
        let err = rule_for(&desc(CONSTANT, &[&[4]], &[&[4]], OpAttrs::default())).unwrap_err();
        assert!(matches!(err, RuleError::Malformed { .. }));
    }

    #[test]
    fn unknown_ops_have_no_rule() {
        let err = rule_for(&desc("arith.addf", &[], &[], OpAttrs::default())).unwrap_err();
        assert_eq!(err.to_string(), "no sharding rule for 'arith.addf'");
        let err = rule_for(&desc("dist.frobnicate", &[], &[], OpAttrs::default())).unwrap_err();
        assert_eq!(err, RuleError::NoRule("dist.frobnicate".into()));
    }

    #[test]
    fn collectives_have_transfers() {
        let rule = rule_for(&desc(
            DistOp::ReduceScatter.name(),
            &[&[8, 16]],
            &[&[8, 16]],
            OpAttrs {
                dim: 0,
                axes: vec![1],
                kind: Some(ReductionKind::Sum),
                ..OpAttrs::default()
            },
        ))
        .unwrap();
        assert_eq!(
            rule,
            Rule::Collective(CollectiveRule {
                transfer: Transfer::Reduce {
                    axes: vec![1],
                    kind: ReductionKind::Sum,
                    scatter_dim: Some(0)
                }
            })
        );
    }
}
