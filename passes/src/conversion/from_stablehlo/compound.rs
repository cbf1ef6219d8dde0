//! StableHLO ops the reader writes as several nodes of the graph's plain
//! kinds, so that each part keeps its sharding rule and its gradient: a
//! strided slice (`x[:, ::2]`), interior padding (`lax.pad`'s third
//! entry, a strided slice's gradient in JAX's backward), the value and
//! index reduction `jnp.argmax`/`argmin` and `torch.argmax` write, the
//! elementwise functions of [`Function`], and `chlo.top_k` (`lax.top_k`),
//! a [`Kind::TopK`] node for its values and a [`Kind::Result`] of it for
//! its indices.

use super::eval::Evaluator;
use super::graph::{Binary, Graph, Kind, Node, Ref, Unary, Unsupported};
use super::kind_of;
use super::syntax::{Dense, TensorTy, largest_finite};
use dist_dialect::CompareDirection;
use dist_dialect::ir::{OperationExt, block_argument, block_ops, i64_array_attribute, op_name};
use melior::ir::operation::OperationLike;
use melior::ir::{BlockRef, OperationRef, RegionLike, Value, ValueLike};

/// An op that becomes several nodes.
#[derive(Debug, Clone, PartialEq)]
pub enum Compound {
    /// Each dim's `[start, limit)` and stride, some stride above one.
    StridedSlice {
        start: Vec<i64>,
        limit: Vec<i64>,
        strides: Vec<i64>,
    },
    /// Edge padding (negative: cropping) after interior padding, some
    /// interior above zero.
    InteriorPad {
        low: Vec<i64>,
        high: Vec<i64>,
        interior: Vec<i64>,
    },
    /// A reduction of (values, their iota) along `dim` to the extreme
    /// value and its first index: the largest with `max`.
    ArgReduce { dim: usize, max: bool },
    /// An elementwise function written with others, and the op's name.
    Function(Function, &'static str),
    /// `chlo.top_k`: the `k` largest entries of the last dim and their
    /// indices.
    TopK { k: usize },
}

/// The elementwise functions written with dist's own, each in a form that
/// keeps float32's digits and whose gradient is the function's: where a
/// formula would overflow or divide by zero at some inputs, those inputs
/// take another branch and the first branch reads a safe value there (so
/// that no NaN of a branch not taken reaches a gradient).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Function {
    /// `sin / cos`.
    Tan,
    /// `(expm1(x) - expm1(-x)) / 2`.
    Sinh,
    /// `(e^x + e^-x) / 2`.
    Cosh,
    /// `(log1p(x) - log1p(-x)) / 2`.
    Atanh,
    /// `log1p(a + a^2 / (1 + sqrt(1 + a^2)))` of `a = |x|`, `ln(2a)` where
    /// `a^2` is past the type's precision, the sign of `x`.
    Asinh,
    /// `log1p(t + sqrt(t (x + 1)))` of `t = x - 1`, `ln(2x)` where `x^2`
    /// is past the type's precision.
    Acosh,
    /// `atan(x / sqrt((1 - x)(1 + x)))`.
    Asin,
    /// `2 atan(sqrt((1 - x) / (1 + x)))`.
    Acos,
    /// `atan` of the smaller of `|y|`, `|x|` over the larger, turned into
    /// the quadrant.
    Atan2,
    /// `|x|^(1/3)` with the sign of `x`.
    Cbrt,
    /// Halves away from zero: `floor(|x|)`, one more where the rest is at
    /// least a half, the sign of `x`.
    RoundAwayFromZero,
    /// `|x|` above the type's largest finite value.
    IsInf,
    IsPosInf,
    IsNegInf,
}

/// The ops written as [`Function`]s, by name.
const FUNCTIONS: [(&str, Function); 16] = [
    ("stablehlo.tan", Function::Tan),
    ("chlo.tan", Function::Tan),
    ("chlo.sinh", Function::Sinh),
    ("chlo.cosh", Function::Cosh),
    ("chlo.atanh", Function::Atanh),
    ("chlo.asinh", Function::Asinh),
    ("chlo.acosh", Function::Acosh),
    ("chlo.asin", Function::Asin),
    ("chlo.acos", Function::Acos),
    ("stablehlo.atan2", Function::Atan2),
    ("chlo.atan2", Function::Atan2),
    ("stablehlo.cbrt", Function::Cbrt),
    ("stablehlo.round_nearest_afz", Function::RoundAwayFromZero),
    ("chlo.is_inf", Function::IsInf),
    ("chlo.is_pos_inf", Function::IsPosInf),
    ("chlo.is_neg_inf", Function::IsNegInf),
];

impl Function {
    fn arity(self) -> usize {
        if self == Self::Atan2 { 2 } else { 1 }
    }

    fn boolean(self) -> bool {
        matches!(self, Self::IsInf | Self::IsPosInf | Self::IsNegInf)
    }
}

/// The compound `op` is, if it is one; why it cannot be imported if it is
/// one of those ops in a form that is not.
pub fn compound_of(op: OperationRef, operands: &[Ref]) -> Option<Result<Compound, Unsupported>> {
    let name = op_name(&op);
    let array = |attribute: &'static str| {
        i64_array_attribute(&op, attribute).ok_or_else(|| Unsupported::MissingArray {
            op: name.to_owned(),
            attribute,
        })
    };
    match name {
        "stablehlo.slice" => {
            let strides = i64_array_attribute(&op, "strides")?;
            if strides.iter().all(|&s| s == 1) {
                return None;
            }
            Some((|| {
                Ok(Compound::StridedSlice {
                    start: array("start_indices")?,
                    limit: array("limit_indices")?,
                    strides,
                })
            })())
        }
        "stablehlo.pad" => {
            let interior = i64_array_attribute(&op, "interior_padding")?;
            if interior.iter().all(|&p| p == 0) {
                return None;
            }
            Some((|| {
                Ok(Compound::InteriorPad {
                    low: array("edge_padding_low")?,
                    high: array("edge_padding_high")?,
                    interior,
                })
            })())
        }
        "stablehlo.reduce" if operands.len() == 4 => Some((|| {
            let dims = array("dimensions")?;
            let [dim] = dims[..] else {
                return Err(Unsupported::VariadicReduce);
            };
            let max = arg_reduce_body(op)?;
            Ok(Compound::ArgReduce { dim: dim as usize, max })
        })()),
        "chlo.top_k" => Some(
            dist_dialect::ir::attribute(&op, "k")
                .and_then(|a| super::dimension(a.to_string()))
                .map(|k| Compound::TopK { k })
                .ok_or(Unsupported::MissingAttribute {
                    op: name.to_owned(),
                    attribute: "k",
                }),
        ),
        _ => FUNCTIONS
            .iter()
            .find(|(op, _)| *op == name)
            .map(|&(op, function)| Ok(Compound::Function(function, op))),
    }
}

/// Pairs `(a, a's index, b, b's index)` a reducer is run on; the order
/// XLA combines elements in is unspecified, so these decide.
const PROBES: [[f64; 4]; 10] = [
    [1.0, 0.0, 2.0, 1.0],
    [2.0, 0.0, 1.0, 1.0],
    [1.0, 0.0, 1.0, 1.0],
    [1.0, 1.0, 1.0, 0.0],
    [3.0, 2.0, 3.0, 7.0],
    [3.0, 7.0, 3.0, 2.0],
    [f64::NEG_INFINITY, 0.0, f64::NEG_INFINITY, 4.0],
    [f64::INFINITY, 4.0, 0.5, 1.0],
    [0.5, 1.0, f64::NEG_INFINITY, 4.0],
    [-2.0, 5.0, -1.0, 3.0],
];

/// Whether a two-input reducer keeps the larger value (`true`) or the
/// smaller, each with its index, the first index among equal values.
/// Found by running the body on [`PROBES`], not by its spelling (JAX's
/// reducer also lets NaN win; torch-mlir's writes `GE` and a `minimum`).
fn arg_reduce_body(op: OperationRef) -> Result<bool, Unsupported> {
    let refused = || Unsupported::VariadicReduce;
    let block = op.region_at(0).and_then(|r| r.first_block()).ok_or_else(refused)?;
    let ops = block_ops(block);
    let types: Vec<TensorTy> = (0..4)
        .map(|i| block_argument(&block, i).and_then(|a| TensorTy::parse(&a.r#type().to_string())))
        .collect::<Option<_>>()
        .ok_or_else(refused)?;
    let expect = |max: bool, [a, ai, b, bi]: [f64; 4]| {
        let wins = |x: f64, y: f64| if max { x > y } else { x < y };
        if wins(a, b) {
            (a, ai)
        } else if wins(b, a) {
            (b, bi)
        } else {
            (a, ai.min(bi))
        }
    };
    let runs: Vec<(f64, f64)> = PROBES
        .iter()
        .map(|&probe| run_reducer(&block, &ops, &types, probe))
        .collect::<Option<_>>()
        .ok_or_else(refused)?;
    [true, false]
        .into_iter()
        .find(|&max| PROBES.iter().zip(&runs).all(|(&probe, &run)| run == expect(max, probe)))
        .ok_or_else(refused)
}

/// The two values a reducer body returns for the scalars `args`, by
/// evaluating the body as a graph of its own.
fn run_reducer<'c, 'a>(
    block: &BlockRef<'c, 'a>,
    ops: &[OperationRef<'c, 'a>],
    types: &[TensorTy],
    args: [f64; 4],
) -> Option<(f64, f64)> {
    let mut graph = Graph::default();
    let mut values: Vec<(Value<'c, 'a>, Ref)> = Vec::new();
    for (i, (ty, value)) in types.iter().zip(args).enumerate() {
        if !ty.shape.is_empty() {
            return None;
        }
        let dense = Dense {
            ty: ty.clone(),
            splat: None,
            values: vec![value],
        };
        graph.nodes.push(Node {
            kind: Kind::Constant(dense, String::new()),
            operands: vec![],
            ty: ty.clone(),
            site: 0,
        });
        values.push((block_argument(block, i)?.into(), Ref::Node(i)));
    }
    let lookup = |values: &[(Value, Ref)], v: Value| values.iter().find(|(w, _)| *w == v).map(|p| p.1);
    let (ret, body) = ops.split_last()?;
    for op in body {
        let operands: Vec<Ref> = op.operands().map(|v| lookup(&values, v)).collect::<Option<_>>()?;
        let kind = kind_of(*op, &operands, &graph).ok()?;
        let result = op.result_at(0)?;
        if op.result_count() != 1 {
            return None;
        }
        graph.nodes.push(Node {
            kind,
            operands,
            ty: TensorTy::parse(&result.r#type().to_string())?,
            site: 0,
        });
        values.push((result.into(), Ref::Node(graph.nodes.len() - 1)));
    }
    if op_name(ret) != "stablehlo.return" || ret.operand_count() != 2 {
        return None;
    }
    let mut evaluator = Evaluator::new(&graph);
    let mut result = |i| {
        let r = lookup(&values, ret.operand_at(i)?)?;
        evaluator.eval(r).map(|a| a.data[0])
    };
    Some((result(0)?, result(1)?))
}

/// Adds the nodes `compound` is to `graph`; its results, or why not
/// (then nothing is added).
pub fn expand(
    graph: &mut Graph,
    compound: &Compound,
    operands: &[Ref],
    results: &[TensorTy],
    site: usize,
) -> Result<Vec<Ref>, Unsupported> {
    let malformed = |op: &str| Unsupported::Malformed {
        op: op.to_owned(),
        why: super::graph::Malformed::Types,
    };
    let (op, takes) = match compound {
        Compound::StridedSlice { .. } => ("stablehlo.slice", 1),
        Compound::InteriorPad { .. } => ("stablehlo.pad", 2),
        Compound::ArgReduce { .. } => ("stablehlo.reduce", 4),
        Compound::Function(function, op) => (*op, function.arity()),
        Compound::TopK { .. } => ("chlo.top_k", 1),
    };
    if operands.len() != takes {
        return Err(Unsupported::Malformed {
            op: op.to_owned(),
            why: super::graph::Malformed::Arity {
                given: operands.len(),
                takes,
            },
        });
    }
    match compound {
        Compound::StridedSlice { start, limit, strides } => {
            let x = graph.ty(operands[0]).clone();
            let counts: Vec<i64> = (0..x.shape.len())
                .map(|d| {
                    let (s, l, k) = (*start.get(d)?, *limit.get(d)?, *strides.get(d)?);
                    (0 <= s && s < l && l <= x.shape[d] && k >= 1).then(|| (l - s + k - 1) / k)
                })
                .collect::<Option<_>>()
                .ok_or_else(|| malformed("stablehlo.slice"))?;
            if [x.with_shape(counts.clone())] != results
                || start.len() != x.shape.len()
                || strides.len() != x.shape.len()
            {
                return Err(malformed("stablehlo.slice"));
            }
            let mut g = Nodes { graph, site };
            // The unit-stride slice from the first element to the last one taken.
            let last: Vec<i64> = (0..counts.len())
                .map(|d| start[d] + (counts[d] - 1) * strides[d] + 1)
                .collect();
            let mut value = g.slice(operands[0], start, &last);
            for (d, &stride) in strides.iter().enumerate() {
                value = g.every_nth(value, d, stride);
            }
            Ok(vec![value])
        }
        Compound::InteriorPad { low, high, interior } => {
            let x = graph.ty(operands[0]).clone();
            let rank = x.shape.len();
            if low.len() != rank || high.len() != rank || interior.len() != rank || interior.iter().any(|&p| p < 0) {
                return Err(malformed("stablehlo.pad"));
            }
            let shape: Vec<i64> = (0..rank)
                .map(|d| low[d] + high[d] + x.shape[d] + (x.shape[d] - 1).max(0) * interior[d])
                .collect();
            if shape.iter().any(|&n| n < 0) || [x.with_shape(shape)] != results {
                return Err(malformed("stablehlo.pad"));
            }
            let mut g = Nodes { graph, site };
            let mut value = operands[0];
            for (d, &gap) in interior.iter().enumerate() {
                value = g.spread(value, operands[1], d, gap);
            }
            Ok(vec![g.pad(value, operands[1], low, high)])
        }
        Compound::ArgReduce { dim, max } => {
            let refused = |why: &str| Unsupported::ArgReduce(why.to_owned());
            let (x, ids) = (graph.ty(operands[0]).clone(), graph.ty(operands[1]).clone());
            let [value_ty, index_ty] = results else {
                return Err(malformed("stablehlo.reduce"));
            };
            let mut kept = x.shape.clone();
            if *dim >= kept.len() || ids.shape != x.shape || !x.is_float() || !index_ty.element.starts_with('i') {
                return Err(malformed("stablehlo.reduce"));
            }
            kept.remove(*dim);
            if value_ty != &x.with_shape(kept.clone()) || index_ty != &ids.with_shape(kept) {
                return Err(malformed("stablehlo.reduce"));
            }
            if !matches!(graph.node(operands[1]).map(|n| &n.kind), Some(Kind::Iota(d)) if d == dim) {
                return Err(refused("its second input is not an iota along the reduced dim"));
            }
            let mut evaluator = Evaluator::new(graph);
            let inits = (
                evaluator.eval(operands[2]).and_then(|a| a.splat()),
                evaluator.eval(operands[3]).and_then(|a| a.splat()),
            );
            let lowest = if *max { f64::NEG_INFINITY } else { f64::INFINITY };
            if inits != (Some(lowest), Some(0.0)) {
                return Err(refused(
                    "its initial values are not the identity of the value and index 0",
                ));
            }
            Ok(Nodes { graph, site }.arg_reduce(operands, *dim, *max, value_ty, index_ty))
        }
        Compound::TopK { k } => {
            let [values, indices] = results else {
                return Err(malformed("chlo.top_k"));
            };
            let kind = Kind::TopK {
                k: *k,
                index_element: indices.element.clone(),
            };
            super::graph::check(&kind, &[graph.ty(operands[0])], values).map_err(|why| Unsupported::Malformed {
                op: "chlo.top_k".to_owned(),
                why,
            })?;
            if indices.shape != values.shape || !indices.element.starts_with('i') {
                return Err(malformed("chlo.top_k"));
            }
            if !values.is_float() {
                return Err(Unsupported::NotFloat {
                    op: "chlo.top_k".to_owned(),
                    element: values.element.clone(),
                });
            }
            let mut g = Nodes { graph, site };
            let first = g.add(kind, vec![operands[0]], values.clone());
            Ok(vec![first, g.add(Kind::Result(1), vec![first], indices.clone())])
        }
        Compound::Function(function, op) => {
            let [out] = results else {
                return Err(malformed(op));
            };
            let x = graph.ty(operands[0]).clone();
            let element = if function.boolean() { "i1" } else { &x.element };
            let fits = operands.iter().all(|&o| graph.ty(o) == &x) && out == &x.with_element(element);
            if !fits {
                return Err(malformed(op));
            }
            if !x.is_float() {
                return Err(Unsupported::NotFloat {
                    op: (*op).to_owned(),
                    element: x.element,
                });
            }
            Ok(vec![Nodes { graph, site }.function(*function, operands)])
        }
    }
}

/// Appends nodes at one site.
struct Nodes<'g> {
    graph: &'g mut Graph,
    site: usize,
}

impl Nodes<'_> {
    fn add(&mut self, kind: Kind, operands: Vec<Ref>, ty: TensorTy) -> Ref {
        self.graph.nodes.push(Node {
            kind,
            operands,
            ty,
            site: self.site,
        });
        Ref::Node(self.graph.nodes.len() - 1)
    }

    fn ty(&self, value: Ref) -> TensorTy {
        self.graph.ty(value).clone()
    }

    /// A scalar constant of `element` type, written as `literal`.
    fn scalar(&mut self, literal: &str, element: &str) -> Ref {
        let text = format!("dense<{literal}> : tensor<{element}>");
        let dense = Dense::parse(&text).expect("a literal of its own type");
        self.add(Kind::Constant(dense, text), vec![], TensorTy::new(vec![], element))
    }

    fn slice(&mut self, x: Ref, start: &[i64], limit: &[i64]) -> Ref {
        let shape = limit.iter().zip(start).map(|(l, s)| l - s).collect();
        let ty = self.ty(x).with_shape(shape);
        let kind = Kind::Slice {
            start: start.to_vec(),
            limit: limit.to_vec(),
        };
        self.add(kind, vec![x], ty)
    }

    fn reshape(&mut self, x: Ref, shape: Vec<i64>) -> Ref {
        let ty = self.ty(x).with_shape(shape);
        self.add(Kind::Reshape, vec![x], ty)
    }

    /// `x` padded by the scalar `fill`: `low[d]` before dim d, `high[d]`
    /// after (negative: cropped).
    fn pad(&mut self, x: Ref, fill: Ref, low: &[i64], high: &[i64]) -> Ref {
        if low.iter().chain(high).all(|&p| p == 0) {
            return x;
        }
        let ty = self.ty(x);
        let shape = (0..ty.shape.len()).map(|d| ty.shape[d] + low[d] + high[d]).collect();
        let kind = Kind::Pad {
            low: low.to_vec(),
            high: high.to_vec(),
        };
        self.add(kind, vec![x, fill], ty.with_shape(shape))
    }

    /// Every `stride`-th element of dim `d` from the first (which `x`
    /// begins and ends with): padded to a multiple of the stride, split
    /// into rows of it, the first column kept.
    fn every_nth(&mut self, x: Ref, d: usize, stride: i64) -> Ref {
        let ty = self.ty(x);
        if stride == 1 || ty.shape[d] == 1 {
            return x;
        }
        let count = (ty.shape[d] - 1) / stride + 1;
        let zero = self.scalar(if ty.is_float() { "0.0" } else { "0" }, &ty.element);
        let mut high = vec![0; ty.shape.len()];
        high[d] = count * stride - ty.shape[d];
        let padded = self.pad(x, zero, &vec![0; ty.shape.len()], &high);
        let mut rows = ty.shape.clone();
        rows[d] = count;
        rows.insert(d + 1, stride);
        let split = self.reshape(padded, rows.clone());
        let mut limit = rows;
        limit[d + 1] = 1;
        let first = self.slice(split, &vec![0; limit.len()], &limit);
        let mut shape = ty.shape;
        shape[d] = count;
        self.reshape(first, shape)
    }

    /// `x` with `gap` copies of `fill` between neighbours along dim `d`:
    /// each element followed by the gap, the last gap cut off.
    fn spread(&mut self, x: Ref, fill: Ref, d: usize, gap: i64) -> Ref {
        let ty = self.ty(x);
        if gap == 0 || ty.shape[d] <= 1 {
            return x;
        }
        let mut column = ty.shape.clone();
        column.insert(d + 1, 1);
        let column = self.reshape(x, column);
        let mut high = vec![0; ty.shape.len() + 1];
        high[d + 1] = gap;
        let rows = self.pad(column, fill, &vec![0; high.len()], &high);
        let mut flat = ty.shape.clone();
        flat[d] *= 1 + gap;
        let mut limit = flat.clone();
        let flat = self.reshape(rows, flat);
        limit[d] -= gap;
        self.slice(flat, &vec![0; limit.len()], &limit)
    }

    /// The extreme along `dim` and its first index: the first index where
    /// `x` equals the extreme or is NaN (NaN wins, as in NumPy, JAX and
    /// PyTorch), so both are reductions the rules split.
    fn arg_reduce(
        &mut self,
        operands: &[Ref],
        dim: usize,
        max: bool,
        value_ty: &TensorTy,
        index_ty: &TensorTy,
    ) -> Vec<Ref> {
        let (x, ids, init) = (operands[0], operands[1], operands[2]);
        let (x_ty, ids_ty) = (self.ty(x), self.ty(ids));
        let body = if max { Binary::Max } else { Binary::Min };
        let extreme = self.add(
            Kind::Reduce {
                dims: vec![dim as i64],
                body,
            },
            vec![x, init],
            value_ty.clone(),
        );
        let kept = (0..x_ty.shape.len() as i64).filter(|&d| d != dim as i64).collect();
        let spread = self.add(Kind::BroadcastInDim(kept), vec![extreme], x_ty.clone());
        let equal = self.compare(CompareDirection::Eq, x, spread);
        let nan = self.compare(CompareDirection::Ne, x, x);
        let hit = self.binary(Binary::Or, equal, nan);
        let width: i32 = ids_ty.element[1..].parse().unwrap_or(32);
        let highest = format!("{}", (1i128 << (width - 1)) - 1);
        let none = self.scalar(&highest, &ids_ty.element);
        let nones = self.add(Kind::BroadcastInDim(vec![]), vec![none], ids_ty.clone());
        let candidates = self.select(hit, ids, nones);
        let first = self.add(
            Kind::Reduce {
                dims: vec![dim as i64],
                body: Binary::Min,
            },
            vec![candidates, none],
            index_ty.clone(),
        );
        vec![extreme, first]
    }
}

/// The distance from 1 to the next value of a float type.
fn epsilon(element: &str) -> f64 {
    match element {
        "f64" => f64::EPSILON,
        "f16" => 2f64.powi(-10),
        "bf16" => 2f64.powi(-7),
        _ => f32::EPSILON as f64,
    }
}

/// A finite value as an MLIR float literal (a `.` before any exponent).
fn float_literal(value: f64) -> String {
    let text = format!("{value:e}");
    match text.split_once('e') {
        Some((mantissa, exponent)) if !mantissa.contains('.') => format!("{mantissa}.0e{exponent}"),
        _ => text,
    }
}

impl Nodes<'_> {
    /// `value` in every element of type `like`.
    fn splat(&mut self, value: f64, like: &TensorTy) -> Ref {
        let literal = float_literal(value);
        let text = format!("dense<{literal}> : {}", like.text());
        let dense = Dense::parse(&text).expect("a float literal");
        self.add(Kind::Constant(dense, text), vec![], like.clone())
    }

    fn unary(&mut self, op: Unary, x: Ref) -> Ref {
        let ty = self.ty(x);
        self.add(Kind::Unary(op), vec![x], ty)
    }

    fn binary(&mut self, op: Binary, a: Ref, b: Ref) -> Ref {
        let ty = self.ty(a);
        self.add(Kind::Binary(op), vec![a, b], ty)
    }

    fn compare(&mut self, direction: CompareDirection, a: Ref, b: Ref) -> Ref {
        let ty = self.ty(a).with_element("i1");
        self.add(Kind::Compare(direction), vec![a, b], ty)
    }

    fn not(&mut self, predicate: Ref) -> Ref {
        let ty = self.ty(predicate);
        self.add(Kind::Not, vec![predicate], ty)
    }

    fn select(&mut self, predicate: Ref, on_true: Ref, on_false: Ref) -> Ref {
        let ty = self.ty(on_true);
        self.add(Kind::Select, vec![predicate, on_true, on_false], ty)
    }

    /// `x` where `predicate` holds, `value` elsewhere: the input of a
    /// branch that must stay finite where it is not taken.
    fn where_else(&mut self, predicate: Ref, x: Ref, value: f64) -> Ref {
        let ty = self.ty(x);
        let safe = self.splat(value, &ty);
        self.select(predicate, x, safe)
    }

    fn function(&mut self, function: Function, operands: &[Ref]) -> Ref {
        use Binary::{Add, Div, Mul, Sub};
        use CompareDirection::{Eq, Ge, Gt, Lt};
        let x = operands[0];
        let ty = self.ty(x);
        let half = self.splat(0.5, &ty);
        let one = self.splat(1.0, &ty);
        let zero = self.splat(0.0, &ty);
        // Past it ln(2a) is asinh(a) and acosh(a) to the type's precision
        // (they differ by 1/(4a^2)), and below it the square's gradient
        // stays far from float32's subnormals.
        let big = 1.0 / epsilon(&ty.element).sqrt();
        let halve = |g: &mut Self, v| g.binary(Mul, v, half);
        let mirror = |g: &mut Self, positive, v| {
            let negated = g.unary(Unary::Neg, v);
            g.select(positive, v, negated)
        };
        match function {
            Function::Tan => {
                let (s, c) = (self.unary(Unary::Sine, x), self.unary(Unary::Cosine, x));
                self.binary(Div, s, c)
            }
            Function::Sinh | Function::Cosh | Function::Atanh => {
                let minus = self.unary(Unary::Neg, x);
                let (op, combine) = match function {
                    Function::Sinh => (Unary::Expm1, Sub),
                    Function::Cosh => (Unary::Exp, Add),
                    _ => (Unary::Log1p, Sub),
                };
                let (a, b) = (self.unary(op, x), self.unary(op, minus));
                let both = self.binary(combine, a, b);
                halve(self, both)
            }
            Function::Asinh | Function::Acosh => {
                let positive = self.compare(Ge, x, zero);
                let a = if function == Function::Asinh {
                    mirror(self, positive, x)
                } else {
                    x
                };
                let bound = self.splat(big, &ty);
                let large = self.compare(Gt, a, bound);
                let small = self.not(large);
                let far = self.where_else(large, a, 2.0);
                let log = self.unary(Unary::Log, far);
                let ln2 = self.splat(std::f64::consts::LN_2, &ty);
                let far = self.binary(Add, log, ln2);
                let near = self.where_else(small, a, 2.0);
                let argument = if function == Function::Asinh {
                    let square = self.binary(Mul, near, near);
                    let plus = self.binary(Add, one, square);
                    let root = self.unary(Unary::Sqrt, plus);
                    let denominator = self.binary(Add, one, root);
                    let ratio = self.binary(Div, square, denominator);
                    self.binary(Add, near, ratio)
                } else {
                    let t = self.binary(Sub, near, one);
                    let above = self.binary(Add, near, one);
                    let product = self.binary(Mul, t, above);
                    let root = self.unary(Unary::Sqrt, product);
                    self.binary(Add, t, root)
                };
                let near = self.unary(Unary::Log1p, argument);
                let value = self.select(large, far, near);
                if function == Function::Asinh {
                    mirror(self, positive, value)
                } else {
                    value
                }
            }
            Function::Asin | Function::Acos => {
                let minus = self.binary(Sub, one, x);
                let plus = self.binary(Add, one, x);
                if function == Function::Asin {
                    let product = self.binary(Mul, minus, plus);
                    let root = self.unary(Unary::Sqrt, product);
                    let ratio = self.binary(Div, x, root);
                    self.unary(Unary::Atan, ratio)
                } else {
                    let ratio = self.binary(Div, minus, plus);
                    let root = self.unary(Unary::Sqrt, ratio);
                    let angle = self.unary(Unary::Atan, root);
                    self.binary(Add, angle, angle)
                }
            }
            Function::Atan2 => {
                let (y, x) = (operands[0], operands[1]);
                let (ay, ax) = (self.unary(Unary::Abs, y), self.unary(Unary::Abs, x));
                let steep = self.compare(Gt, ay, ax);
                let numerator = self.select(steep, x, y);
                let denominator = self.select(steep, y, x);
                // Zero only where both are: atan2(0, 0) is 0.
                let vanishes = self.compare(Eq, denominator, zero);
                let kept = self.not(vanishes);
                let denominator = self.where_else(kept, denominator, 1.0);
                let ratio = self.binary(Div, numerator, denominator);
                let angle = self.unary(Unary::Atan, ratio);
                let pi = std::f64::consts::PI;
                // Steep: ±pi/2 - angle by the sign of y; flat: angle, ±pi
                // more where x is negative.
                let up = self.compare(Ge, y, zero);
                let (quarter, minus_quarter) = (self.splat(pi / 2.0, &ty), self.splat(-pi / 2.0, &ty));
                let vertical = self.select(up, quarter, minus_quarter);
                let steep_angle = self.binary(Sub, vertical, angle);
                let (turn, minus_turn) = (self.splat(pi, &ty), self.splat(-pi, &ty));
                let half_turn = self.select(up, turn, minus_turn);
                let behind = self.compare(Lt, x, zero);
                let offset = self.select(behind, half_turn, zero);
                let flat_angle = self.binary(Add, angle, offset);
                self.select(steep, steep_angle, flat_angle)
            }
            Function::Cbrt => {
                let positive = self.compare(Ge, x, zero);
                let a = mirror(self, positive, x);
                let third = self.splat(1.0 / 3.0, &ty);
                let root = self.binary(Binary::Pow, a, third);
                mirror(self, positive, root)
            }
            Function::RoundAwayFromZero => {
                let positive = self.compare(Ge, x, zero);
                let a = mirror(self, positive, x);
                let whole = self.unary(Unary::Floor, a);
                let rest = self.binary(Sub, a, whole);
                let up = self.compare(Ge, rest, half);
                let step = self.select(up, one, zero);
                let rounded = self.binary(Add, whole, step);
                mirror(self, positive, rounded)
            }
            Function::IsInf | Function::IsPosInf | Function::IsNegInf => {
                let finite = largest_finite(&ty.element);
                match function {
                    Function::IsInf => {
                        let a = self.unary(Unary::Abs, x);
                        let bound = self.splat(finite, &ty);
                        self.compare(Gt, a, bound)
                    }
                    Function::IsPosInf => {
                        let bound = self.splat(finite, &ty);
                        self.compare(Gt, x, bound)
                    }
                    _ => {
                        let bound = self.splat(-finite, &ty);
                        self.compare(Lt, x, bound)
                    }
                }
            }
        }
    }
}
