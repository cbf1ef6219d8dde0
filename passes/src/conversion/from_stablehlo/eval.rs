//! Evaluating the parts of a function that depend on no argument: the
//! masks JAX builds from `iota`, `compare` and `select`, the fill values of
//! `select`, the initial values of `reduce`. The importer recognises
//! patterns by these values, not by how JAX happened to spell them.

use super::graph::{Binary, Graph, Kind, Ref};
use rustc_hash::FxHashMap;
use std::rc::Rc;

/// The most elements a constant value is evaluated for: masks are
/// evaluated before their broadcasts, so this bounds a sequence length
/// squared, not an activation.
const MAX_ELEMENTS: i64 = 1 << 24;

/// A constant tensor, row-major; booleans are 0 and 1.
#[derive(Debug, Clone, PartialEq)]
pub struct Array {
    pub shape: Vec<i64>,
    pub data: Vec<f64>,
}

impl Array {
    /// The one value every element has, if they all have one (NaN
    /// included).
    pub fn splat(&self) -> Option<f64> {
        let first = *self.data.first()?;
        self.data
            .iter()
            .all(|v| v.to_bits() == first.to_bits() || (v.is_nan() && first.is_nan()))
            .then_some(first)
    }
}

/// Row-major strides of `shape`.
pub fn strides(shape: &[i64]) -> Vec<i64> {
    let mut s = vec![1; shape.len()];
    for d in (0..shape.len().saturating_sub(1)).rev() {
        s[d] = s[d + 1] * shape[d + 1];
    }
    s
}

/// The multi-index of flat position `i` in `shape`.
pub fn unflatten(mut i: i64, shape: &[i64]) -> Vec<i64> {
    let mut index = vec![0; shape.len()];
    for d in (0..shape.len()).rev() {
        index[d] = i % shape[d];
        i /= shape[d];
    }
    index
}

/// Memoized evaluation over one graph.
pub struct Evaluator<'g> {
    graph: &'g Graph,
    memo: FxHashMap<usize, Option<Rc<Array>>>,
}

impl<'g> Evaluator<'g> {
    pub fn new(graph: &'g Graph) -> Self {
        Self {
            graph,
            memo: FxHashMap::default(),
        }
    }

    /// The value of `value`, if it depends on no argument and is small
    /// enough; `None` otherwise.
    pub fn eval(&mut self, value: Ref) -> Option<Rc<Array>> {
        let Ref::Node(n) = value else {
            return None;
        };
        if let Some(known) = self.memo.get(&n) {
            return known.clone();
        }
        let result = self.compute(n).map(Rc::new);
        self.memo.insert(n, result.clone());
        result
    }

    fn compute(&mut self, n: usize) -> Option<Array> {
        let node = &self.graph.nodes[n];
        let shape = node.ty.shape.clone();
        let count = node.ty.elements();
        if count > MAX_ELEMENTS {
            return None;
        }
        let mut operands = Vec::new();
        if !matches!(node.kind, Kind::Constant(..) | Kind::Iota(_)) {
            for &operand in &node.operands {
                operands.push(self.eval(operand)?);
            }
        }
        let data: Vec<f64> = match &node.kind {
            Kind::Constant(dense, _) if dense.values.len() == 1 => vec![dense.values[0]; count as usize],
            Kind::Constant(dense, _) => dense.values.clone(),
            Kind::Iota(dim) => (0..count).map(|i| unflatten(i, &shape)[*dim] as f64).collect(),
            Kind::Reshape => operands[0].data.clone(),
            Kind::Convert if node.ty.element == "i1" => operands[0]
                .data
                .iter()
                .map(|v| f64::from(u8::from(*v != 0.0)))
                .collect(),
            Kind::Convert if node.ty.element.starts_with('i') => operands[0].data.iter().map(|v| v.trunc()).collect(),
            Kind::Convert => operands[0].data.clone(),
            Kind::BroadcastInDim(dims) => {
                let source = &operands[0];
                let from = strides(&source.shape);
                (0..count)
                    .map(|i| {
                        let index = unflatten(i, &shape);
                        let at: i64 = dims
                            .iter()
                            .enumerate()
                            .map(|(d, &out)| {
                                if source.shape[d] == 1 {
                                    0
                                } else {
                                    index[out as usize] * from[d]
                                }
                            })
                            .sum();
                        source.data[at as usize]
                    })
                    .collect()
            }
            // Bitwise logic of integers is not the booleans' (masks are).
            Kind::Binary(Binary::And | Binary::Or | Binary::Xor) if node.ty.element != "i1" => return None,
            Kind::Binary(op) => {
                let (a, b) = (&operands[0].data, &operands[1].data);
                let f = |x: f64, y: f64| match op {
                    Binary::Add => Some(x + y),
                    Binary::Sub => Some(x - y),
                    Binary::Mul => Some(x * y),
                    Binary::Max => Some(x.max(y)),
                    Binary::Min => Some(x.min(y)),
                    Binary::And => Some(f64::from(u8::from(x != 0.0 && y != 0.0))),
                    Binary::Or => Some(f64::from(u8::from(x != 0.0 || y != 0.0))),
                    Binary::Xor => Some(f64::from(u8::from((x != 0.0) != (y != 0.0)))),
                    // Integer and float division (and powers) round differently.
                    Binary::Div | Binary::Pow | Binary::Rem => None,
                };
                a.iter().zip(b).map(|(x, y)| f(*x, *y)).collect::<Option<_>>()?
            }
            Kind::Compare(direction) => operands[0]
                .data
                .iter()
                .zip(&operands[1].data)
                .map(|(x, y)| f64::from(u8::from(direction.holds(*x, *y))))
                .collect(),
            Kind::Select => (0..count as usize)
                .map(|i| {
                    // A scalar predicate picks for every element.
                    let p = if operands[0].data.len() == 1 { 0 } else { i };
                    if operands[0].data[p] != 0.0 {
                        operands[1].data[i]
                    } else {
                        operands[2].data[i]
                    }
                })
                .collect(),
            _ => return None,
        };
        (data.len() as i64 == count).then_some(Array { shape, data })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conversion::from_stablehlo::graph::Node;
    use crate::conversion::from_stablehlo::syntax::{Dense, TensorTy};
    use dist_dialect::CompareDirection;

    fn node(kind: Kind, operands: Vec<Ref>, shape: &[i64], element: &str) -> Node {
        Node {
            kind,
            operands,
            ty: TensorTy::new(shape.to_vec(), element),
            site: 0,
        }
    }

    fn constant(text: &str) -> Kind {
        Kind::Constant(Dense::parse(text).unwrap(), text.to_owned())
    }

    /// jnp.tril(jnp.ones((3, 3), bool)) as JAX lowers it.
    #[test]
    fn a_lower_triangle_from_iotas() {
        let graph = Graph {
            args: vec![],
            nodes: vec![
                node(Kind::Iota(0), vec![], &[3, 3], "i32"),
                node(Kind::Iota(1), vec![], &[3, 3], "i32"),
                node(
                    Kind::Compare(CompareDirection::Ge),
                    vec![Ref::Node(0), Ref::Node(1)],
                    &[3, 3],
                    "i1",
                ),
                node(constant("dense<true> : tensor<i1>"), vec![], &[], "i1"),
                node(Kind::BroadcastInDim(vec![]), vec![Ref::Node(3)], &[3, 3], "i1"),
                node(constant("dense<false> : tensor<i1>"), vec![], &[], "i1"),
                node(Kind::BroadcastInDim(vec![]), vec![Ref::Node(5)], &[3, 3], "i1"),
                node(
                    Kind::Select,
                    vec![Ref::Node(2), Ref::Node(4), Ref::Node(6)],
                    &[3, 3],
                    "i1",
                ),
                node(Kind::BroadcastInDim(vec![1, 2]), vec![Ref::Node(7)], &[2, 3, 3], "i1"),
            ],
            results: vec![],
            site: 0,
        };
        let mut eval = Evaluator::new(&graph);
        let tril = eval.eval(Ref::Node(7)).unwrap();
        assert_eq!(tril.data, [1., 0., 0., 1., 1., 0., 1., 1., 1.]);
        let wide = eval.eval(Ref::Node(8)).unwrap();
        assert_eq!(wide.data[9..], tril.data[..]);
        assert_eq!(eval.eval(Ref::Node(6)).unwrap().splat(), Some(0.0));
        assert_eq!(eval.eval(Ref::Arg(0)), None);
    }

    #[test]
    fn nan_splats_are_splats() {
        let a = Array {
            shape: vec![2],
            data: vec![f64::NAN, f64::NAN],
        };
        assert!(a.splat().unwrap().is_nan());
        assert_eq!(
            Array {
                shape: vec![2],
                data: vec![1.0, 2.0]
            }
            .splat(),
            None
        );
    }
}
