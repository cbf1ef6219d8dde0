//! The programs the gradient checks run: a forward function of `dist` ops
//! whose first result is a scalar loss, with its arguments (which are
//! differentiated, how they are sharded, what data they take), as data the
//! generator, the shrinker and the reference work on, printed as MLIR for
//! `dist-run` and read back from MLIR for `dist-fuzz --grad-check`.

use dist_dialect::ops::attr;
use dist_dialect::{CompareDirection, DistOp};
use std::fmt::Write;

/// An element type of an argument or value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Element {
    F32,
    /// Indices: token ids, labels.
    I64,
    I32,
    /// A comparison's result.
    I1,
}

impl Element {
    fn name(self) -> &'static str {
        match self {
            Self::F32 => "f32",
            Self::I64 => "i64",
            Self::I32 => "i32",
            Self::I1 => "i1",
        }
    }
}

/// What an argument's random data is drawn from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Data {
    /// Uniform floats in `[lo, hi]`.
    Uniform(f64, f64),
    /// Integers in `[0, n)`.
    Below(i64),
    /// Labels in `[0, below)`, about a quarter of them `ignored` (never
    /// all): a cross-entropy's with `ignore_index`.
    Labels { below: i64, ignored: i64 },
}

#[derive(Debug, Clone, PartialEq)]
pub struct Arg {
    pub name: String,
    pub shape: Vec<usize>,
    pub element: Element,
    /// `dist.requires_grad`.
    pub grad: bool,
    /// The mesh axes that split each dim (empty lists: whole), on a mesh.
    pub sharding: Option<Vec<Vec<String>>>,
    pub data: Data,
}

/// A value of the program: an argument, or result `1` of op `0`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ref {
    Arg(usize),
    Op(usize, usize),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Binary {
    Add,
    Sub,
    Mul,
    Div,
    Maximum,
    Minimum,
    Pow,
    Rem,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unary {
    Exp,
    Log,
    Sqrt,
    Rsqrt,
    Sigmoid,
    Silu,
    Tanh,
    Neg,
    Reciprocal,
    Relu,
    Gelu,
    GeluTanh,
    Abs,
    Square,
    Sin,
    Cos,
    Erf,
    Erfc,
    Log1p,
    Expm1,
    Atan,
    Sign,
    Floor,
    Ceil,
    Round,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reduction {
    Sum,
    Mean,
    Max,
    Min,
}

/// An op and its attributes.
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    Binary(Binary),
    /// A boolean (i1) result, which only a select reads.
    Compare(CompareDirection),
    /// Operands: the predicate (a comparison), on_true, on_false.
    Select,
    Unary(Unary),
    Scale(f64),
    Reduce {
        kind: Reduction,
        dims: Vec<usize>,
        keepdim: bool,
    },
    Softmax {
        axis: i64,
    },
    /// Results: y, mean, rstd.
    LayerNorm {
        begin: usize,
        epsilon: f32,
    },
    /// Results: y, rstd.
    RmsNorm {
        begin: usize,
        epsilon: f32,
    },
    Matmul {
        tx: bool,
        ty: bool,
    },
    Transpose {
        perm: Vec<usize>,
    },
    Cumsum {
        dim: usize,
        reverse: bool,
    },
    Reshape,
    Slice {
        offsets: Vec<usize>,
        sizes: Vec<usize>,
    },
    Concat {
        dim: usize,
    },
    CausalMask,
    TakeAlong,
    /// Results: the k largest of the last dim, their indices (i64).
    TopK {
        k: usize,
    },
    CrossEntropy {
        ignore_index: Option<i64>,
    },
    Embedding,
    /// Operands q, k, v; results out, lse.
    Attention {
        scale: f64,
        causal: bool,
        /// The balanced order's shard count.
        balance: Option<usize>,
    },
    /// `arith.constant` with every element this value.
    Constant(f64),
}

impl Kind {
    /// The `dist` op's name.
    pub fn op_name(&self) -> &'static str {
        match self {
            Kind::Binary(b) => match b {
                Binary::Add => DistOp::Add.name(),
                Binary::Sub => DistOp::Sub.name(),
                Binary::Mul => DistOp::Mul.name(),
                Binary::Div => DistOp::Div.name(),
                Binary::Maximum => DistOp::Maximum.name(),
                Binary::Minimum => DistOp::Minimum.name(),
                Binary::Pow => DistOp::Pow.name(),
                Binary::Rem => DistOp::Rem.name(),
            },
            Kind::Compare(_) => DistOp::Compare.name(),
            Kind::Select => DistOp::Select.name(),
            Kind::Unary(u) => match u {
                Unary::Exp => DistOp::Exp.name(),
                Unary::Log => DistOp::Log.name(),
                Unary::Sqrt => DistOp::Sqrt.name(),
                Unary::Rsqrt => DistOp::Rsqrt.name(),
                Unary::Sigmoid => DistOp::Sigmoid.name(),
                Unary::Silu => DistOp::Silu.name(),
                Unary::Tanh => DistOp::Tanh.name(),
                Unary::Neg => DistOp::Neg.name(),
                Unary::Reciprocal => DistOp::Reciprocal.name(),
                Unary::Relu => DistOp::Relu.name(),
                Unary::Gelu | Unary::GeluTanh => DistOp::Gelu.name(),
                Unary::Abs => DistOp::Abs.name(),
                Unary::Square => DistOp::Square.name(),
                Unary::Sin => DistOp::Sin.name(),
                Unary::Cos => DistOp::Cos.name(),
                Unary::Erf => DistOp::Erf.name(),
                Unary::Erfc => DistOp::Erfc.name(),
                Unary::Log1p => DistOp::Log1p.name(),
                Unary::Expm1 => DistOp::Expm1.name(),
                Unary::Atan => DistOp::Atan.name(),
                Unary::Sign => DistOp::Sign.name(),
                Unary::Floor => DistOp::Floor.name(),
                Unary::Ceil => DistOp::Ceil.name(),
                Unary::Round => DistOp::Round.name(),
            },
            Kind::Scale(_) => DistOp::Scale.name(),
            Kind::Reduce { kind, .. } => match kind {
                Reduction::Sum => DistOp::ReduceSum.name(),
                Reduction::Mean => DistOp::ReduceMean.name(),
                Reduction::Max => DistOp::ReduceMax.name(),
                Reduction::Min => DistOp::ReduceMin.name(),
            },
            Kind::Softmax { .. } => DistOp::Softmax.name(),
            Kind::LayerNorm { .. } => DistOp::LayerNorm.name(),
            Kind::RmsNorm { .. } => DistOp::RmsNorm.name(),
            Kind::Matmul { .. } => DistOp::Matmul.name(),
            Kind::Transpose { .. } => DistOp::Transpose.name(),
            Kind::Cumsum { .. } => DistOp::Cumsum.name(),
            Kind::Reshape => DistOp::Reshape.name(),
            Kind::Slice { .. } => DistOp::Slice.name(),
            Kind::Concat { .. } => DistOp::Concat.name(),
            Kind::CausalMask => DistOp::CausalMask.name(),
            Kind::TakeAlong => DistOp::TakeAlong.name(),
            Kind::TopK { .. } => DistOp::TopK.name(),
            Kind::Attention { .. } => DistOp::Attention.name(),
            Kind::CrossEntropy { .. } => DistOp::CrossEntropy.name(),
            Kind::Embedding => DistOp::Embedding.name(),
            Kind::Constant(_) => "arith.constant",
        }
    }

    /// The attribute dictionary, as MLIR prints it (empty: none).
    fn attributes(&self) -> String {
        let array = |values: &[usize]| {
            let items: Vec<String> = values.iter().map(usize::to_string).collect();
            format!("array<i64: {}>", items.join(", "))
        };
        let items = match self {
            Kind::Unary(Unary::GeluTanh) => vec!["approximate = \"tanh\"".to_owned()],
            Kind::Scale(factor) => vec![format!("factor = {factor:.17e} : f64")],
            Kind::Reduce { dims, keepdim, .. } => {
                let mut items = vec![format!("dims = {}", array(dims))];
                if *keepdim {
                    items.push("keepdim".into());
                }
                items
            }
            Kind::Softmax { axis } => vec![format!("axis = {axis} : i64")],
            Kind::LayerNorm { begin, epsilon } | Kind::RmsNorm { begin, epsilon } => vec![
                format!("begin_norm_axis = {begin} : i64"),
                format!("epsilon = {epsilon:.9e} : f32"),
            ],
            Kind::Matmul { tx, ty } => [(*tx, "transpose_x"), (*ty, "transpose_y")]
                .iter()
                .filter(|(on, _)| *on)
                .map(|(_, name)| (*name).to_owned())
                .collect(),
            Kind::Transpose { perm } => vec![format!("perm = {}", array(perm))],
            Kind::Cumsum { dim, reverse } => {
                let mut items = vec![format!("dim = {dim} : i64")];
                if *reverse {
                    items.push("reverse".into());
                }
                items
            }
            Kind::CrossEntropy {
                ignore_index: Some(ignored),
            } => vec![format!("ignore_index = {ignored} : i64")],
            Kind::Slice { offsets, sizes } => {
                vec![
                    format!("offsets = {}", array(offsets)),
                    format!("sizes = {}", array(sizes)),
                ]
            }
            Kind::Concat { dim } => vec![format!("dim = {dim} : i64")],
            Kind::TopK { k } => vec![format!("k = {k} : i64")],
            Kind::Attention { scale, causal, balance } => {
                let mut items: Vec<String> = balance.iter().map(|s| format!("balance = {s} : i64")).collect();
                if *causal {
                    items.push("causal".into());
                }
                items.push(format!("scale = {scale:.17e} : f64"));
                items
            }
            Kind::Compare(direction) => vec![format!("direction = \"{}\"", direction.as_str())],
            _ => Vec::new(),
        };
        if items.is_empty() {
            String::new()
        } else {
            format!(" {{{}}}", items.join(", "))
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Op {
    pub kind: Kind,
    pub operands: Vec<Ref>,
    /// The shape of each result (f32, a comparison's i1).
    pub results: Vec<Vec<usize>>,
}

/// A forward program: `loss` is its one result, a scalar.
#[derive(Debug, Clone, PartialEq)]
pub struct Program {
    /// The mesh's axes and sizes (arguments with shardings need one).
    pub mesh: Vec<(String, usize)>,
    pub args: Vec<Arg>,
    pub ops: Vec<Op>,
    pub loss: Ref,
}

/// The name of the checked function.
pub const ENTRY: &str = "f";

pub fn tensor_type(shape: &[usize], element: Element) -> String {
    let mut text = String::from("tensor<");
    for d in shape {
        let _ = write!(text, "{d}x");
    }
    text + element.name() + ">"
}

impl Program {
    pub fn shape(&self, value: Ref) -> &[usize] {
        match value {
            Ref::Arg(i) => &self.args[i].shape,
            Ref::Op(i, k) => &self.ops[i].results[k],
        }
    }

    pub fn element(&self, value: Ref) -> Element {
        match value {
            Ref::Arg(i) => self.args[i].element,
            Ref::Op(i, _) if matches!(self.ops[i].kind, Kind::Compare(_)) => Element::I1,
            Ref::Op(i, 1) if matches!(self.ops[i].kind, Kind::TopK { .. }) => Element::I64,
            Ref::Op(..) => Element::F32,
        }
    }

    fn type_of(&self, value: Ref) -> String {
        tensor_type(self.shape(value), self.element(value))
    }

    /// The differentiated arguments, in order (their gradients follow the
    /// loss among `dist-run --grad`'s results).
    pub fn grad_args(&self) -> Vec<usize> {
        (0..self.args.len()).filter(|&i| self.args[i].grad).collect()
    }

    /// The number of devices of the mesh (1 without one).
    pub fn devices(&self) -> usize {
        self.mesh.iter().map(|(_, n)| n).product()
    }

    fn name(&self, value: Ref) -> String {
        match value {
            Ref::Arg(i) => format!("%{}", self.args[i].name),
            Ref::Op(i, 0) if self.ops[i].results.len() == 1 => format!("%v{i}"),
            Ref::Op(i, k) => format!("%v{i}#{k}"),
        }
    }

    /// The program as MLIR: the mesh (if any) and `func.func @f`.
    pub fn to_mlir(&self) -> String {
        let mut text = String::new();
        if !self.mesh.is_empty() {
            let axes: Vec<String> = self.mesh.iter().map(|(n, s)| format!("\"{n}\"={s}")).collect();
            let _ = writeln!(text, "dist.mesh @mesh = <[{}]>", axes.join(", "));
        }
        let args: Vec<String> = self
            .args
            .iter()
            .map(|a| {
                let mut attributes = Vec::new();
                if a.grad {
                    attributes.push(attr::REQUIRES_GRAD.to_owned());
                }
                if let Some(dims) = &a.sharding {
                    let dims: Vec<String> = dims
                        .iter()
                        .map(|axes| {
                            let axes: Vec<String> = axes.iter().map(|x| format!("\"{x}\"")).collect();
                            format!("{{{}}}", axes.join(", "))
                        })
                        .collect();
                    attributes.push(format!("dist.sharding = #dist.sharding<@mesh, [{}]>", dims.join(", ")));
                }
                let attributes = if attributes.is_empty() {
                    String::new()
                } else {
                    format!(" {{{}}}", attributes.join(", "))
                };
                format!("%{}: {}{attributes}", a.name, tensor_type(&a.shape, a.element))
            })
            .collect();
        let _ = writeln!(
            text,
            "func.func @{ENTRY}({}) -> {} {{",
            args.join(", "),
            self.type_of(self.loss)
        );
        for (i, op) in self.ops.iter().enumerate() {
            let result = if op.results.len() == 1 {
                format!("%v{i}")
            } else {
                format!("%v{i}:{}", op.results.len())
            };
            if let Kind::Constant(value) = op.kind {
                let ty = tensor_type(&op.results[0], Element::F32);
                let _ = writeln!(text, "  {result} = arith.constant dense<{value:.9e}> : {ty}");
                continue;
            }
            let operands: Vec<String> = op.operands.iter().map(|&v| self.name(v)).collect();
            let operand_types: Vec<String> = op.operands.iter().map(|&v| self.type_of(v)).collect();
            let result_types: Vec<String> = (0..op.results.len()).map(|k| self.type_of(Ref::Op(i, k))).collect();
            let results = if result_types.len() == 1 {
                result_types[0].clone()
            } else {
                format!("({})", result_types.join(", "))
            };
            let _ = writeln!(
                text,
                "  {result} = {} {}{} : ({}) -> {results}",
                op.kind.op_name(),
                operands.join(", "),
                op.kind.attributes(),
                operand_types.join(", ")
            );
        }
        let _ = writeln!(text, "  return {} : {}", self.name(self.loss), self.type_of(self.loss));
        text.push_str("}\n");
        text
    }

    /// The values the loss depends on, by op: `live[i]` when op `i` is.
    pub fn live_ops(&self) -> Vec<bool> {
        let mut live = vec![false; self.ops.len()];
        let mut pending = vec![self.loss];
        while let Some(value) = pending.pop() {
            if let Ref::Op(i, _) = value
                && !live[i]
            {
                live[i] = true;
                pending.extend(self.ops[i].operands.iter().copied());
            }
        }
        live
    }

    /// The program without the ops the loss does not depend on and the
    /// arguments nothing reads (the loss aside), values renumbered.
    pub fn pruned(&self) -> Program {
        let live = self.live_ops();
        let mut read = vec![false; self.args.len()];
        if let Ref::Arg(i) = self.loss {
            read[i] = true;
        }
        for (op, _) in self.ops.iter().zip(&live).filter(|(_, l)| **l) {
            for v in &op.operands {
                if let Ref::Arg(i) = v {
                    read[*i] = true;
                }
            }
        }
        let arg_index: Vec<Option<usize>> = read
            .iter()
            .scan(0, |next, &r| {
                Some(r.then(|| {
                    *next += 1;
                    *next - 1
                }))
            })
            .collect();
        let op_index: Vec<Option<usize>> = live
            .iter()
            .scan(0, |next, &l| {
                Some(l.then(|| {
                    *next += 1;
                    *next - 1
                }))
            })
            .collect();
        let map = |v: Ref| match v {
            Ref::Arg(i) => Ref::Arg(arg_index[i].expect("a read argument")),
            Ref::Op(i, k) => Ref::Op(op_index[i].expect("a live op"), k),
        };
        Program {
            mesh: self.mesh.clone(),
            args: self
                .args
                .iter()
                .zip(&read)
                .filter(|(_, r)| **r)
                .map(|(a, _)| a.clone())
                .collect(),
            ops: self
                .ops
                .iter()
                .zip(&live)
                .filter(|(_, l)| **l)
                .map(|(op, _)| Op {
                    kind: op.kind.clone(),
                    operands: op.operands.iter().map(|&v| map(v)).collect(),
                    results: op.results.clone(),
                })
                .collect(),
            loss: map(self.loss),
        }
    }

    /// The programs as one: their arguments side by side (renamed
    /// `c<k>_<name>`), their ops one after another, the loss the sum of
    /// theirs. Every program's gradients are the merged one's, in order.
    pub fn merge(programs: &[Program]) -> Program {
        let mut merged = Program {
            mesh: programs
                .iter()
                .map(|p| p.mesh.clone())
                .max_by_key(Vec::len)
                .unwrap_or_default(),
            args: Vec::new(),
            ops: Vec::new(),
            loss: Ref::Arg(0),
        };
        let mut total: Option<Ref> = None;
        for (k, p) in programs.iter().enumerate() {
            let (args, ops) = (merged.args.len(), merged.ops.len());
            let map = |v: Ref| match v {
                Ref::Arg(i) => Ref::Arg(args + i),
                Ref::Op(i, r) => Ref::Op(ops + i, r),
            };
            merged.args.extend(p.args.iter().map(|a| Arg {
                name: format!("c{k}_{}", a.name),
                ..a.clone()
            }));
            merged.ops.extend(p.ops.iter().map(|op| Op {
                kind: op.kind.clone(),
                operands: op.operands.iter().map(|&v| map(v)).collect(),
                results: op.results.clone(),
            }));
            let loss = map(p.loss);
            total = Some(match total {
                None => loss,
                Some(sum) => {
                    merged.ops.push(Op {
                        kind: Kind::Binary(Binary::Add),
                        operands: vec![sum, loss],
                        results: vec![Vec::new()],
                    });
                    Ref::Op(merged.ops.len() - 1, 0)
                }
            });
        }
        merged.loss = total.expect("at least one program");
        merged
    }
}

/// The result shapes of `kind` on operands of `shapes`.
pub fn result_shapes(kind: &Kind, shapes: &[&[usize]]) -> Vec<Vec<usize>> {
    let x = shapes[0];
    let r = x.len();
    match kind {
        Kind::Binary(_) | Kind::Compare(_) | Kind::Select => {
            vec![shapes[1..].iter().fold(x.to_vec(), |out, s| broadcast_shape(&out, s))]
        }
        Kind::Reduce { dims, keepdim, .. } => vec![reduced_shape(x, dims, *keepdim)],
        Kind::LayerNorm { begin, .. } => vec![x.to_vec(), x[..*begin].to_vec(), x[..*begin].to_vec()],
        Kind::RmsNorm { begin, .. } => vec![x.to_vec(), x[..*begin].to_vec()],
        Kind::Matmul { tx, ty } => {
            let y = shapes[1];
            let q = y.len();
            let m = if *tx { x[r - 1] } else { x[r - 2] };
            let n = if *ty { y[q - 2] } else { y[q - 1] };
            let mut out = broadcast_shape(&x[..r - 2], &y[..q - 2]);
            out.extend([m, n]);
            vec![out]
        }
        Kind::Transpose { perm } => vec![perm.iter().map(|&p| x[p]).collect()],
        Kind::Cumsum { .. } => vec![x.to_vec()],
        Kind::Slice { sizes, .. } => vec![sizes.clone()],
        Kind::Concat { dim } => {
            let mut out = x.to_vec();
            out[*dim] = shapes.iter().map(|s| s[*dim]).sum();
            vec![out]
        }
        Kind::TakeAlong => vec![x[..r - 1].to_vec()],
        Kind::TopK { k } => {
            let picks = [&x[..r - 1], &[*k]].concat();
            vec![picks.clone(), picks]
        }
        Kind::CrossEntropy { .. } => vec![Vec::new()],
        Kind::Attention { .. } => {
            let rows = x[..r - 1].to_vec();
            let mut out = rows.clone();
            out.push(*shapes[2].last().expect("v of rank >= 2"));
            vec![out, rows]
        }
        Kind::Embedding => {
            let mut out = x.to_vec();
            out.push(shapes[1][1]);
            vec![out]
        }
        Kind::Reshape | Kind::Constant(_) => panic!("the result shape is the op's own"),
        Kind::Unary(_) | Kind::Scale(_) | Kind::Softmax { .. } | Kind::CausalMask => vec![x.to_vec()],
    }
}

/// The shape left after reducing `dims` (kept as 1 with `keep`).
pub fn reduced_shape(shape: &[usize], dims: &[usize], keep: bool) -> Vec<usize> {
    (0..shape.len())
        .filter_map(|d| match (dims.contains(&d), keep) {
            (false, _) => Some(shape[d]),
            (true, true) => Some(1),
            (true, false) => None,
        })
        .collect()
}

/// NumPy's broadcast of two shapes (aligned at their trailing dims).
pub fn broadcast_shape(x: &[usize], y: &[usize]) -> Vec<usize> {
    let rank = x.len().max(y.len());
    let pad = |s: &[usize]| {
        let mut padded = vec![1; rank - s.len()];
        padded.extend_from_slice(s);
        padded
    };
    pad(x).iter().zip(pad(y)).map(|(&a, b)| a.max(b)).collect()
}

impl Program {
    /// An empty program on `mesh`.
    pub fn new(mesh: Vec<(String, usize)>) -> Self {
        Program {
            mesh,
            args: Vec::new(),
            ops: Vec::new(),
            loss: Ref::Arg(0),
        }
    }

    /// Appends an argument named `a<k>` (`i<k>` for indices).
    pub fn arg(&mut self, shape: &[usize], grad: bool, data: Data) -> Ref {
        let element = match data {
            Data::Uniform(..) => Element::F32,
            Data::Below(_) | Data::Labels { .. } => Element::I64,
        };
        let prefix = if element == Element::F32 { "a" } else { "i" };
        self.args.push(Arg {
            name: format!("{prefix}{}", self.args.len()),
            shape: shape.to_vec(),
            element,
            grad,
            sharding: None,
            data,
        });
        Ref::Arg(self.args.len() - 1)
    }

    /// Appends `kind` of `operands`; its first result.
    pub fn op(&mut self, kind: Kind, operands: &[Ref]) -> Ref {
        let shapes: Vec<&[usize]> = operands.iter().map(|&v| self.shape(v)).collect();
        let results = result_shapes(&kind, &shapes);
        self.push(kind, operands, results)
    }

    /// Appends `kind` of `operands` with the given result shapes; its first result.
    pub fn push(&mut self, kind: Kind, operands: &[Ref], results: Vec<Vec<usize>>) -> Ref {
        self.ops.push(Op {
            kind,
            operands: operands.to_vec(),
            results,
        });
        Ref::Op(self.ops.len() - 1, 0)
    }

    /// Makes the loss the sum of every element of `value`, weighted by a
    /// new argument of its shape if `weighted` (so that each element's
    /// gradient differs).
    pub fn finish(&mut self, value: Ref, weighted: bool) {
        let shape = self.shape(value).to_vec();
        let weighted = if weighted && !shape.is_empty() {
            let w = self.arg(&shape, false, Data::Uniform(-1.0, 1.0));
            self.op(Kind::Binary(Binary::Mul), &[value, w])
        } else {
            value
        };
        self.loss = if shape.is_empty() {
            weighted
        } else {
            let dims = (0..shape.len()).collect();
            self.op(
                Kind::Reduce {
                    kind: Reduction::Sum,
                    dims,
                    keepdim: false,
                },
                &[weighted],
            )
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> Program {
        Program {
            mesh: vec![("a".into(), 2)],
            args: vec![
                Arg {
                    name: "h".into(),
                    shape: vec![4, 3],
                    element: Element::F32,
                    grad: true,
                    sharding: Some(vec![vec!["a".into()], vec![]]),
                    data: Data::Uniform(-1.0, 1.0),
                },
                Arg {
                    name: "t".into(),
                    shape: vec![4],
                    element: Element::F32,
                    grad: false,
                    sharding: None,
                    data: Data::Uniform(-1.0, 1.0),
                },
            ],
            ops: vec![
                Op {
                    kind: Kind::Reduce {
                        kind: Reduction::Mean,
                        dims: vec![1],
                        keepdim: false,
                    },
                    operands: vec![Ref::Arg(0)],
                    results: vec![vec![4]],
                },
                Op {
                    kind: Kind::Binary(Binary::Add),
                    operands: vec![Ref::Arg(1), Ref::Op(0, 0)],
                    results: vec![vec![4]],
                },
                Op {
                    kind: Kind::Unary(Unary::Exp),
                    operands: vec![Ref::Arg(1)],
                    results: vec![vec![4]],
                },
                Op {
                    kind: Kind::Reduce {
                        kind: Reduction::Sum,
                        dims: vec![0],
                        keepdim: false,
                    },
                    operands: vec![Ref::Op(1, 0)],
                    results: vec![vec![]],
                },
            ],
            loss: Ref::Op(3, 0),
        }
    }

    #[test]
    fn prints_the_mesh_shardings_and_ops() {
        let text = example().to_mlir();
        assert!(text.starts_with("dist.mesh @mesh = <[\"a\"=2]>\n"), "{text}");
        assert!(
            text.contains(
                "%h: tensor<4x3xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{\"a\"}, {}]>}"
            ),
            "{text}"
        );
        assert!(
            text.contains("%v0 = dist.reduce_mean %h {dims = array<i64: 1>} : (tensor<4x3xf32>) -> tensor<4xf32>"),
            "{text}"
        );
        assert!(text.contains("return %v3 : tensor<f32>"), "{text}");
    }

    #[test]
    fn pruning_drops_dead_ops_and_renumbers() {
        let pruned = example().pruned();
        assert_eq!(pruned.ops.len(), 3);
        assert_eq!(pruned.loss, Ref::Op(2, 0));
        assert_eq!(pruned.ops[2].operands, [Ref::Op(1, 0)]);
        assert_eq!(pruned.args.len(), 2);
    }

    #[test]
    fn merging_sums_the_losses_and_keeps_the_gradients_in_order() {
        let merged = Program::merge(&[example(), example()]);
        assert_eq!(merged.args.len(), 4);
        assert_eq!(merged.grad_args(), [0, 2]);
        assert_eq!(merged.args[2].name, "c1_h");
        let last = merged.ops.last().unwrap();
        assert_eq!(last.operands, [Ref::Op(3, 0), Ref::Op(7, 0)]);
        assert_eq!(merged.loss, Ref::Op(8, 0));
    }
}
