//! A StableHLO function as plain data: what the importer reads from the IR
//! (with every `func.call` inlined) and translates without MLIR.

use super::syntax::{Dense, DimNumbers, TensorTy};
use dist_dialect::Sharding;

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
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Binary {
    Add,
    Sub,
    Mul,
    Div,
    Max,
    Min,
    And,
    Or,
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
            Self::And => "stablehlo.and",
            Self::Or => "stablehlo.or",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compare {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Compare {
    pub fn from_word(word: &str) -> Option<Self> {
        Some(match word {
            "EQ" => Self::Eq,
            "NE" => Self::Ne,
            "LT" => Self::Lt,
            "LE" => Self::Le,
            "GT" => Self::Gt,
            "GE" => Self::Ge,
            _ => return None,
        })
    }

    pub fn holds(self, a: f64, b: f64) -> bool {
        match self {
            Self::Eq => a == b,
            Self::Ne => a != b,
            Self::Lt => a < b,
            Self::Le => a <= b,
            Self::Gt => a > b,
            Self::Ge => a >= b,
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
    Convert,
    Unary(Unary),
    Binary(Binary),
    Compare(Compare),
    Select,
    /// A single-input reduction whose body applies one binary op.
    Reduce {
        dims: Vec<i64>,
        body: Binary,
    },
    DotGeneral(DimNumbers),
    Gather {
        dims: DimNumbers,
        slice_sizes: Vec<i64>,
    },
    /// `sdy.sharding_constraint`.
    ShardingConstraint(Sharding),
    /// An op the importer has no mapping for, and why: an error only if
    /// the program needs its value.
    Unsupported(String),
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
