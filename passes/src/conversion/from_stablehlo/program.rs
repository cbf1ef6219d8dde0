//! The translated function: the dist ops (and constants) to build, in
//! order, as the translation ([`super::translate`]) writes them and the
//! raising of spelled-out layers ([`super::raise`]) rewrites them.

use super::syntax::TensorTy;
use dist_dialect::Sharding;

/// An operand of a dist op: an argument of the function or an earlier op's
/// result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Operand {
    Arg(usize),
    /// An op's (first) result.
    Inst(usize),
    /// An op's other result: the one of type `insts[i].extra[j]`.
    Extra(usize, usize),
}

/// One dist (or `arith.constant`) op to build.
#[derive(Debug, Clone, PartialEq)]
pub struct Inst {
    pub op: &'static str,
    pub operands: Vec<Operand>,
    /// Attributes by name.
    pub attributes: Vec<(&'static str, Attr)>,
    pub ty: TensorTy,
    /// The types of its other results (a raised norm's statistics,
    /// top_k's indices).
    pub extra: Vec<TensorTy>,
    /// A `sdy.sharding_constraint`'s sharding of the result; each other
    /// result takes its leading dims (a norm's statistics are the leading
    /// dims of its input, top_k's indices have its values' shape).
    pub sharding: Option<Sharding>,
    /// The site of the StableHLO op it comes from.
    pub site: usize,
}

/// The translated function: the ops its results need, in order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Program {
    pub insts: Vec<Inst>,
    pub results: Vec<Operand>,
}

/// An attribute of an op to build, printed as MLIR spells it.
#[derive(Debug, Clone, PartialEq)]
pub enum Attr {
    /// `array<i64: 0, 1>`.
    I64s(Vec<i64>),
    /// `-1 : i64`.
    I64(i64),
    /// `9.99999974e-06 : f32`.
    F32(f32),
    /// `"tanh"`.
    Str(String),
    /// `unit`.
    Unit,
    /// Zeros of the op's result type.
    Zeros,
    /// A constant's value as the input spells it, `dense<...> : tensor<...>`.
    Literal(String),
}

impl std::fmt::Display for Attr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Attr::I64s(values) => {
                let list: Vec<String> = values.iter().map(i64::to_string).collect();
                write!(f, "array<i64: {}>", list.join(", "))
            }
            Attr::I64(value) => write!(f, "{value} : i64"),
            Attr::F32(value) => write!(f, "{value:.8e} : f32"),
            Attr::Str(text) => write!(f, "{text:?}"),
            Attr::Unit => f.write_str("unit"),
            Attr::Zeros => f.write_str("zeros"),
            Attr::Literal(text) => f.write_str(text),
        }
    }
}
