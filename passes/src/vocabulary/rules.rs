//! The sharding rule table: for every `dist` op, how mesh axes may be
//! assigned to the op's iteration *factors* (einsum letters), and what that
//! means for its operands and results.
//!
//! Pure Rust over shapes and attributes ([`OpDesc`]). The rule of each compute
//! op is in its description (`crate::ops`); this module holds what the rules
//! are made of, and the rules of constants and collectives. A compute op's
//! rule maps each operand and result dim
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

/// The factor of each dim of one tensor of a rule (`None`: a dim no factor
/// splits).
pub type Dims = Vec<Option<FactorId>>;

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

impl Linearity {
    /// Linear in each of `operands` separately, for partial sums (and
    /// averages) only: `Each` without `any_kind`.
    pub fn linear_in(operands: &[usize]) -> Self {
        Self::Each {
            operands: operands.to_vec(),
            any_kind: false,
        }
    }
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
    /// `cross_entropy`: whether positions of one label are left out (the
    /// count of the others is data, not a share of a static count).
    pub ignore_index: bool,
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
pub fn indexed(prefix: char, index: usize) -> Cow<'static, str> {
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
pub struct RuleBuilder {
    pub factors: Vec<Factor>,
}

impl RuleBuilder {
    pub fn factor(&mut self, name: impl Into<Cow<'static, str>>, shardable: bool) -> FactorId {
        self.factors.push(Factor {
            name: name.into(),
            shardable,
        });
        self.factors.len() - 1
    }

    /// One shardable factor per dim, named `d0`, `d1`, ...
    pub fn dims(&mut self, rank: usize) -> Vec<Option<FactorId>> {
        (0..rank).map(|d| Some(self.factor(indexed('d', d), true))).collect()
    }

    pub fn finish(
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

/// Each of `n` results reduced by summing.
pub fn sum_each(n: usize) -> Vec<ReductionKind> {
    vec![ReductionKind::Sum; n]
}

/// `arith.constant`, which dist-append-backward seeds the backward with.
pub const CONSTANT: &str = "arith.constant";

/// A tensor constant has one value on every device: replicated, its dims
/// unshardable (a split would need a slice of the literal).
pub fn constant_rule(desc: &OpDesc) -> Result<Rule, RuleError> {
    expect_arity(desc, 0, 1)?;
    let mut b = RuleBuilder::default();
    let dims = (0..desc.results[0].len())
        .map(|d| Some(b.factor(indexed('d', d), false)))
        .collect();
    Ok(b.finish(Vec::new(), vec![dims], sum_each(1), Linearity::None))
}

/// Normalizes a possibly negative dim index.
pub fn dim_index(desc: &OpDesc, dim: i64, rank: usize, what: &str) -> Result<usize, RuleError> {
    let d = if dim < 0 { dim + rank as i64 } else { dim };
    if (0..rank as i64).contains(&d) {
        Ok(d as usize)
    } else {
        Err(malformed(desc, format!("{what} {dim} is out of range for rank {rank}")))
    }
}

pub fn malformed(desc: &OpDesc, reason: String) -> RuleError {
    RuleError::Malformed {
        op: desc.name.clone(),
        reason,
    }
}

pub fn expect_arity(desc: &OpDesc, operands: usize, results: usize) -> Result<(), RuleError> {
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

/// The layout transfer of collective `op` (its synchronous form).
pub fn collective_rule(desc: &OpDesc, op: DistOp) -> Result<CollectiveRule, RuleError> {
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

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn tensor_constants_are_replicated() {
        let Rule::Factor(rule) = constant_rule(&desc(CONSTANT, &[], &[&[4, 8]], OpAttrs::default())).unwrap() else {
            panic!("a factor rule")
        };
        assert_eq!(rule.einsum(), " -> d0,d1");
        assert!(rule.factors.iter().all(|f| !f.shardable));
        let err = constant_rule(&desc(CONSTANT, &[&[4]], &[&[4]], OpAttrs::default())).unwrap_err();
        assert!(matches!(err, RuleError::Malformed { .. }));
    }

    #[test]
    fn collectives_have_transfers() {
        let rule = collective_rule(
            &desc(
                DistOp::ReduceScatter.name(),
                &[&[8, 16]],
                &[&[8, 16]],
                OpAttrs {
                    dim: 0,
                    axes: vec![1],
                    kind: Some(ReductionKind::Sum),
                    ..OpAttrs::default()
                },
            ),
            DistOp::ReduceScatter,
        )
        .unwrap();
        assert_eq!(
            rule,
            CollectiveRule {
                transfer: Transfer::Reduce {
                    axes: vec![1],
                    kind: ReductionKind::Sum,
                    scatter_dim: Some(0)
                }
            }
        );
    }
}
