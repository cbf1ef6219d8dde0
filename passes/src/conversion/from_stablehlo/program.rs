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
    Inst(usize),
}

/// One dist (or `arith.constant`) op to build.
#[derive(Debug, Clone, PartialEq)]
pub struct Inst {
    pub op: &'static str,
    pub operands: Vec<Operand>,
    /// Attributes by name, in MLIR's textual form.
    pub attributes: Vec<(&'static str, String)>,
    pub ty: TensorTy,
    /// The types of its other results (a raised layer's statistics).
    pub extra: Vec<TensorTy>,
    /// A `sdy.sharding_constraint`'s sharding of the result.
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

/// `array<i64: 0, 1>`: a dense i64 array attribute's text.
pub fn i64_array(values: &[i64]) -> String {
    let list: Vec<String> = values.iter().map(i64::to_string).collect();
    format!("array<i64: {}>", list.join(", "))
}
