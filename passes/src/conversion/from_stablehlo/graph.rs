//! A StableHLO function as plain data: what the importer reads from the IR
//! (with every `func.call` inlined) and translates without MLIR.

use super::syntax::{Dense, DimNumbers, SyntaxError, TensorTy};
use dist_dialect::{CompareDirection, Sharding};
use thiserror::Error;

/// Why an op of the input has no dist form; an error, at the op, only if
/// the program needs its value.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Unsupported {
    #[error("'{op}' without its '{attribute}' attribute")]
    MissingAttribute { op: String, attribute: &'static str },
    #[error("'{op}' without its '{attribute}' array")]
    MissingArray { op: String, attribute: &'static str },
    #[error("'sdy.manual_computation' (shard_map) is not supported: its body is already per-device code")]
    ManualComputation,
    #[error("'{0}' has no dist mapping")]
    NoMapping(String),
    #[error("'stablehlo.iota' with an unreadable dimension")]
    IotaDimension,
    #[error("'stablehlo.compare' with direction {0}")]
    CompareDirection(String),
    #[error(
        "'stablehlo.compare' of type {0} has no dist op (floats compare as FLOAT, integers as SIGNED, booleans as UNSIGNED)"
    )]
    CompareType(String),
    #[error(
        "'stablehlo.reduce' of several inputs is imported where it is an argmax or argmin (values and their iota \
         along one dim, to the extreme and its first index)"
    )]
    VariadicReduce,
    #[error("'{op}' of {element} tensors has no dist op (it computes on floats)")]
    NotFloat { op: String, element: String },
    #[error("'stablehlo.reduce' as an argmax or argmin: {0}")]
    ArgReduce(String),
    #[error("'stablehlo.reduce' whose body is not one add, maximum, minimum, and or or")]
    ReduceBody,
    #[error("'stablehlo.reduce_window' with dilations or several inputs has no dist op")]
    WindowDilations,
    #[error(
        "'stablehlo.scatter' is imported where it adds into one operand, or writes into zeros (a gather's gradient)"
    )]
    ScatterBody,
    #[error("'{op}' has a result of type {ty}; only statically shaped tensors are imported")]
    DynamicResult { op: String, ty: String },
    #[error("'{op}' with {results} results has no dist op")]
    Results { op: String, results: usize },
    #[error("malformed '{op}': {why}")]
    Malformed { op: String, why: Malformed },
    #[error(transparent)]
    Syntax(#[from] SyntaxError),
}

/// What StableHLO's verifier would reject in a node.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Malformed {
    #[error("{given} operands where it takes {takes}")]
    Arity { given: usize, takes: usize },
    #[error("operand and result types its attributes do not fit")]
    Types,
}

/// A value of the function: an argument or a node's (single) result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ref {
    Arg(usize),
    Node(usize),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unary {
    Neg,
    Exp,
    Log,
    Tanh,
    Rsqrt,
    Sqrt,
    Logistic,
    Abs,
    Sign,
    Floor,
    Ceil,
    Round,
    Sine,
    Cosine,
    Square,
    Erf,
    Erfc,
    Log1p,
    Expm1,
    Atan,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Binary {
    Add,
    Sub,
    Mul,
    Div,
    Max,
    Min,
    Pow,
    Rem,
    And,
    Or,
    Xor,
}

impl Unary {
    pub fn stablehlo_name(self) -> &'static str {
        match self {
            Self::Neg => "stablehlo.negate",
            Self::Exp => "stablehlo.exponential",
            Self::Log => "stablehlo.log",
            Self::Tanh => "stablehlo.tanh",
            Self::Rsqrt => "stablehlo.rsqrt",
            Self::Sqrt => "stablehlo.sqrt",
            Self::Logistic => "stablehlo.logistic",
            Self::Abs => "stablehlo.abs",
            Self::Sign => "stablehlo.sign",
            Self::Floor => "stablehlo.floor",
            Self::Ceil => "stablehlo.ceil",
            Self::Round => "stablehlo.round_nearest_even",
            Self::Sine => "stablehlo.sine",
            Self::Cosine => "stablehlo.cosine",
            Self::Square => "chlo.square",
            Self::Erf => "chlo.erf",
            Self::Erfc => "chlo.erfc",
            Self::Log1p => "stablehlo.log_plus_one",
            Self::Expm1 => "stablehlo.exponential_minus_one",
            Self::Atan => "chlo.atan",
        }
    }
}

impl Binary {
    pub fn stablehlo_name(self) -> &'static str {
        match self {
            Self::Add => "stablehlo.add",
            Self::Sub => "stablehlo.subtract",
            Self::Mul => "stablehlo.multiply",
            Self::Div => "stablehlo.divide",
            Self::Max => "stablehlo.maximum",
            Self::Min => "stablehlo.minimum",
            Self::Pow => "stablehlo.power",
            Self::Rem => "stablehlo.remainder",
            Self::And => "stablehlo.and",
            Self::Or => "stablehlo.or",
            Self::Xor => "stablehlo.xor",
        }
    }
}

/// What a node computes, with the attributes the importer reads.
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    /// The literal and its text.
    Constant(Dense, String),
    Iota(usize),
    BroadcastInDim(Vec<i64>),
    Reshape,
    Transpose(Vec<i64>),
    /// Unit strides: each dim's `[start, limit)`.
    Slice {
        start: Vec<i64>,
        limit: Vec<i64>,
    },
    /// Its operands joined along a dim.
    Concatenate(usize),
    /// Edge padding (negative: cropping) by a scalar operand, without
    /// interior padding.
    Pad {
        low: Vec<i64>,
        high: Vec<i64>,
    },
    Convert,
    Unary(Unary),
    Binary(Binary),
    /// Logical (bitwise) negation.
    Not,
    IsFinite,
    Compare(CompareDirection),
    Select,
    /// `min(max(x, low), high)`: low, x, high.
    Clamp,
    /// A single-input reduction whose body applies one binary op.
    Reduce {
        dims: Vec<i64>,
        body: Binary,
    },
    /// A single-input `reduce_window` without dilations: each dim's window
    /// and stride, its padding before and after, the body's op.
    ReduceWindow {
        window: Vec<i64>,
        strides: Vec<i64>,
        padding: Vec<(i64, i64)>,
        body: Binary,
    },
    DotGeneral(DimNumbers),
    Gather {
        dims: DimNumbers,
        slice_sizes: Vec<i64>,
    },
    /// A scatter of one input whose body adds (a gather's gradient, as
    /// JAX's backward writes it) or, with `replaces`, returns the update
    /// (PyTorch's backward of nll_loss writes into zeros): operand,
    /// indices, updates.
    Scatter {
        dims: DimNumbers,
        replaces: bool,
    },
    /// `sdy.sharding_constraint`.
    ShardingConstraint(Sharding),
    /// `chlo.top_k`'s first result: the `k` largest entries of the last
    /// dim (its indices, of `index_element`, are a [`Kind::Result`] of this
    /// node).
    TopK {
        k: usize,
        index_element: String,
    },
    /// Result `i` (at least 1) of the multi-result op whose first result
    /// is its operand.
    Result(usize),
    /// An op the importer has no mapping for, and why: an error only if
    /// the program needs its value.
    Unsupported(Unsupported),
}

/// One op of the function.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub kind: Kind,
    pub operands: Vec<Ref>,
    pub ty: TensorTy,
    /// Where the op is, for diagnostics (an index the reader defines).
    pub site: usize,
}

/// A function: its argument types, its nodes in program order (each
/// operand defined before its use) and its results.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Graph {
    pub args: Vec<TensorTy>,
    pub nodes: Vec<Node>,
    pub results: Vec<Ref>,
    /// The site of the function's terminator.
    pub site: usize,
}

impl Graph {
    pub fn ty(&self, value: Ref) -> &TensorTy {
        match value {
            Ref::Arg(i) => &self.args[i],
            Ref::Node(n) => &self.nodes[n].ty,
        }
    }

    pub fn node(&self, value: Ref) -> Option<&Node> {
        match value {
            Ref::Arg(_) => None,
            Ref::Node(n) => Some(&self.nodes[n]),
        }
    }
}

/// Why a node of `kind` with operands of types `operands` and result `ty`
/// is malformed, if it is: the checks StableHLO's verifier makes, which do
/// not run here (the dialect is not registered), so that translation can
/// trust ranks, dims and shapes.
pub fn check(kind: &Kind, operands: &[&TensorTy], ty: &TensorTy) -> Result<(), Malformed> {
    let arity = match kind {
        Kind::Constant(..) | Kind::Iota(_) => 0,
        Kind::Concatenate(_) => operands.len().max(1),
        Kind::BroadcastInDim(_)
        | Kind::Reshape
        | Kind::Transpose(_)
        | Kind::Slice { .. }
        | Kind::Convert
        | Kind::Unary(_)
        | Kind::Not
        | Kind::IsFinite => 1,
        Kind::ShardingConstraint(_) | Kind::TopK { .. } | Kind::Result(_) => 1,
        Kind::Binary(_)
        | Kind::Compare(_)
        | Kind::Reduce { .. }
        | Kind::ReduceWindow { .. }
        | Kind::DotGeneral(_)
        | Kind::Gather { .. }
        | Kind::Pad { .. } => 2,
        Kind::Select | Kind::Clamp | Kind::Scatter { .. } => 3,
        Kind::Unsupported(_) => return Ok(()),
    };
    if operands.len() != arity {
        return Err(Malformed::Arity {
            given: operands.len(),
            takes: arity,
        });
    }
    let rank = ty.shape.len() as i64;
    let in_range = |dims: &[i64], rank: usize| dims.iter().all(|&d| (0..rank as i64).contains(&d));
    let unique = |dims: &[i64]| dims.iter().enumerate().all(|(i, d)| !dims[..i].contains(d));
    let same_shape = |t: &TensorTy| t.shape == ty.shape;
    let ok = match kind {
        Kind::Constant(dense, _) => dense.ty == *ty,
        Kind::Iota(dim) => (*dim as i64) < rank,
        Kind::BroadcastInDim(dims) => {
            let source = &operands[0].shape;
            dims.len() == source.len()
                && in_range(dims, ty.shape.len())
                && unique(dims)
                && dims
                    .iter()
                    .zip(source)
                    .all(|(&d, &s)| s == 1 || s == ty.shape[d as usize])
        }
        Kind::Reshape => operands[0].elements() == ty.elements(),
        Kind::Transpose(perm) => {
            perm.len() == operands[0].shape.len()
                && in_range(perm, perm.len())
                && unique(perm)
                && perm
                    .iter()
                    .map(|&p| operands[0].shape[p as usize])
                    .eq(ty.shape.iter().copied())
        }
        Kind::Slice { start, limit } => {
            let source = &operands[0].shape;
            start.len() == source.len()
                && limit.len() == source.len()
                && (0..source.len()).all(|d| 0 <= start[d] && start[d] <= limit[d] && limit[d] <= source[d])
                && (0..source.len()).all(|d| limit[d] - start[d] == ty.shape[d])
        }
        Kind::Concatenate(dim) => {
            let joined: i64 = operands.iter().filter_map(|t| t.shape.get(*dim)).sum();
            *dim < ty.shape.len()
                && operands.iter().all(|t| {
                    t.element == ty.element
                        && t.shape.len() == ty.shape.len()
                        && (0..t.shape.len()).all(|d| d == *dim || t.shape[d] == ty.shape[d])
                })
                && joined == ty.shape[*dim]
        }
        Kind::Pad { low, high } => {
            let source = &operands[0].shape;
            low.len() == source.len()
                && high.len() == source.len()
                && operands[1].shape.is_empty()
                && (0..source.len()).all(|d| source[d] + low[d] + high[d] == ty.shape[d] && ty.shape[d] >= 0)
        }
        Kind::Convert | Kind::Unary(_) | Kind::Not | Kind::IsFinite | Kind::ShardingConstraint(_) => {
            same_shape(operands[0])
        }
        Kind::Binary(_) | Kind::Compare(_) => operands.iter().all(|t| same_shape(t)),
        Kind::Clamp => {
            let bound = |t: &TensorTy| (t.shape.is_empty() || same_shape(t)) && t.element == ty.element;
            bound(operands[0]) && same_shape(operands[1]) && bound(operands[2])
        }
        Kind::Select => {
            (operands[0].shape.is_empty() || same_shape(operands[0]))
                && same_shape(operands[1])
                && same_shape(operands[2])
        }
        Kind::Reduce { dims, .. } => {
            let source = &operands[0].shape;
            in_range(dims, source.len())
                && unique(dims)
                && operands[1].shape.is_empty()
                && (0..source.len() as i64)
                    .filter(|d| !dims.contains(d))
                    .map(|d| source[d as usize])
                    .eq(ty.shape.iter().copied())
        }
        Kind::ReduceWindow {
            window,
            strides,
            padding,
            ..
        } => {
            let source = &operands[0].shape;
            let rank = source.len();
            operands[1].shape.is_empty()
                && [window.len(), strides.len(), padding.len()] == [rank; 3]
                && (0..rank).all(|d| {
                    let padded = source[d] + padding[d].0 + padding[d].1;
                    window[d] >= 1
                        && strides[d] >= 1
                        && padded >= window[d]
                        && (padded - window[d]) / strides[d] + 1 == ty.shape[d]
                })
        }
        Kind::DotGeneral(dims) => {
            let (l, r) = (&operands[0].shape, &operands[1].shape);
            let (lb, rb) = (dims.get("lhs_batching_dimensions"), dims.get("rhs_batching_dimensions"));
            let (lc, rc) = (
                dims.get("lhs_contracting_dimensions"),
                dims.get("rhs_contracting_dimensions"),
            );
            let sizes = |shape: &[i64], d: &[i64]| d.iter().map(|&i| shape[i as usize]).collect::<Vec<_>>();
            let all_l: Vec<i64> = lb.iter().chain(lc).copied().collect();
            let all_r: Vec<i64> = rb.iter().chain(rc).copied().collect();
            in_range(&all_l, l.len())
                && in_range(&all_r, r.len())
                && unique(&all_l)
                && unique(&all_r)
                && sizes(l, lb) == sizes(r, rb)
                && sizes(l, lc) == sizes(r, rc)
                && {
                    let free = |shape: &[i64], used: &[i64]| {
                        (0..shape.len() as i64)
                            .filter(|d| !used.contains(d))
                            .map(|d| shape[d as usize])
                            .collect::<Vec<_>>()
                    };
                    let out: Vec<i64> = sizes(l, lb)
                        .into_iter()
                        .chain(free(l, &all_l))
                        .chain(free(r, &all_r))
                        .collect();
                    out == ty.shape
                }
        }
        Kind::TopK { k, .. } => {
            let x = operands[0];
            x.shape.last().is_some_and(|&n| (1..=n).contains(&(*k as i64)))
                && x.element == ty.element
                && ty.shape.split_last() == Some((&(*k as i64), &x.shape[..x.shape.len() - 1]))
        }
        // Checked with the op's first result, by the reader.
        Kind::Result(_) => true,
        Kind::Gather { slice_sizes, .. } => slice_sizes.len() == operands[0].shape.len(),
        Kind::Scatter { .. } => same_shape(operands[0]),
        Kind::Unsupported(_) => true,
    };
    if ok { Ok(()) } else { Err(Malformed::Types) }
}
