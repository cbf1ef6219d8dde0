//! The gradient sweep: every differentiable op, each of its differentiable
//! operands, under every broadcast its verifier allows (leading, middle,
//! trailing and all size-1 dims, a scalar, both operands at once), each
//! variant of its attributes, in four contexts: alone, fed by a reduction
//! (each float operand the mean of a larger argument), feeding one (its
//! result summed over its last dim and broadcast back onto itself), and
//! both. Each case's loss is the weighted sum of what it computes.

use super::program::{Binary, Data, Kind, Program, Reduction, Ref, Unary};
use dist_dialect::CompareDirection;
use dist_dialect::DistOp;

/// A named case.
pub struct Case {
    pub name: String,
    pub program: Program,
}

/// Where an op sits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Context {
    Alone,
    Fed,
    Feeding,
    Both,
}

const CONTEXTS: [Context; 4] = [Context::Alone, Context::Fed, Context::Feeding, Context::Both];

impl Context {
    fn fed(self) -> bool {
        matches!(self, Context::Fed | Context::Both)
    }

    fn feeding(self) -> bool {
        matches!(self, Context::Feeding | Context::Both)
    }

    fn name(self) -> &'static str {
        match self {
            Context::Alone => "alone",
            Context::Fed => "fed by a reduction",
            Context::Feeding => "feeding a reduction",
            Context::Both => "fed by and feeding reductions",
        }
    }
}

/// An operand of a case: a float of some shape and range, or indices.
#[derive(Debug, Clone)]
enum Input {
    Float(Vec<usize>, f64, f64),
    /// Differentiated only through another operand (a norm's scale).
    Ids(Vec<usize>, i64),
    /// Labels below a bound, some of them ignored.
    Labels(Vec<usize>, i64, i64),
    /// A comparison of two floats of these shapes (differentiated: their
    /// gradient through it is zero).
    Predicate(Vec<usize>, Vec<usize>, CompareDirection),
    /// The operand before it, again.
    Same,
}

fn float(shape: &[usize]) -> Input {
    Input::Float(shape.to_vec(), -1.0, 1.0)
}

fn positive(shape: &[usize]) -> Input {
    Input::Float(shape.to_vec(), 0.5, 2.0)
}

/// One case: `kind` of `inputs` in `context`.
fn case(kind: &Kind, inputs: &[Input], context: Context, reshape_to: Option<&[usize]>) -> Program {
    let mut p = Program::new(Vec::new());
    let float_operand = |p: &mut Program, shape: &[usize], lo: f64, hi: f64| {
        if !context.fed() {
            return p.arg(shape, true, Data::Uniform(lo, hi));
        }
        // The mean over a trailing dim of 3 of an argument in range.
        let mut wide = shape.to_vec();
        wide.push(3);
        let h = p.arg(&wide, true, Data::Uniform(lo, hi));
        let kind = Kind::Reduce {
            kind: Reduction::Mean,
            dims: vec![shape.len()],
            keepdim: false,
        };
        p.op(kind, &[h])
    };
    let mut operands: Vec<Ref> = Vec::new();
    for input in inputs {
        let v = match input {
            Input::Float(shape, lo, hi) => float_operand(&mut p, shape, *lo, *hi),
            Input::Ids(shape, below) => p.arg(shape, false, Data::Below(*below)),
            Input::Labels(shape, below, ignored) => p.arg(
                shape,
                false,
                Data::Labels {
                    below: *below,
                    ignored: *ignored,
                },
            ),
            Input::Predicate(a, b, direction) => {
                let (a, b) = (float_operand(&mut p, a, -1.0, 1.0), float_operand(&mut p, b, -1.0, 1.0));
                p.op(Kind::Compare(*direction), &[a, b])
            }
            Input::Same => *operands.last().expect("an operand before"),
        };
        operands.push(v);
    }
    let out = match reshape_to {
        Some(shape) => p.push(kind.clone(), &operands, vec![shape.to_vec()]),
        None => p.op(kind.clone(), &operands),
    };
    let out = if matches!(kind, Kind::CausalMask) {
        p.op(Kind::Softmax { axis: -1 }, &[out])
    } else {
        out
    };
    let shape = p.shape(out).to_vec();
    let out = if context.feeding() && !shape.is_empty() {
        let last = shape.len() - 1;
        let kind = Kind::Reduce {
            kind: Reduction::Sum,
            dims: vec![last],
            keepdim: true,
        };
        let total = p.op(kind, &[out]);
        p.op(Kind::Binary(Binary::Mul), &[out, total])
    } else if context.feeding() {
        // A scalar: its square, through a reduction of a broadcast.
        p.op(Kind::Binary(Binary::Mul), &[out, out])
    } else {
        out
    };
    p.finish(out, true);
    p
}

/// The operand shapes of a binary op with an output of `[2, 3, 4]`: the
/// first, the second.
fn broadcasts() -> Vec<(Vec<usize>, Vec<usize>)> {
    let full = vec![2, 3, 4];
    let partial: [&[usize]; 6] = [&[3, 4], &[2, 1, 4], &[2, 3, 1], &[], &[1, 1, 1], &[3, 1]];
    let mut pairs = vec![(full.clone(), full.clone())];
    for p in partial {
        pairs.push((full.clone(), p.to_vec()));
        pairs.push((p.to_vec(), full.clone()));
    }
    pairs.push((vec![2, 1, 4], vec![3, 1]));
    pairs
}

/// Every case.
pub fn cases() -> Vec<Case> {
    let mut cases = Vec::new();
    let mut add = |name: String, kind: Kind, inputs: Vec<Input>, reshape_to: Option<Vec<usize>>| {
        for context in CONTEXTS {
            cases.push(Case {
                name: format!("{name}, {}", context.name()),
                program: case(&kind, &inputs, context, reshape_to.as_deref()),
            });
        }
    };
    for kind in [
        Binary::Add,
        Binary::Sub,
        Binary::Mul,
        Binary::Div,
        Binary::Maximum,
        Binary::Minimum,
        Binary::Pow,
        Binary::Rem,
    ] {
        let divides = matches!(kind, Binary::Div | Binary::Rem);
        for (x, y) in broadcasts() {
            let divisor = if divides { positive(&y) } else { float(&y) };
            let base = if kind == Binary::Pow { positive(&x) } else { float(&x) };
            add(
                format!("{} {x:?} by {y:?}", Kind::Binary(kind).op_name()),
                Kind::Binary(kind),
                vec![base, divisor],
                None,
            );
        }
        // One value on both sides.
        let same = if divides || kind == Binary::Pow {
            positive(&[2, 3])
        } else {
            float(&[2, 3])
        };
        add(
            format!("{} of one value twice", Kind::Binary(kind).op_name()),
            Kind::Binary(kind),
            vec![same, Input::Same],
            None,
        );
    }
    // select by a comparison: every broadcast of the three operands (and
    // of the comparison's two), every direction, one value as both choices.
    let full = vec![2, 3, 4];
    for (a, b, on_true, on_false) in [
        (full.clone(), full.clone(), full.clone(), full.clone()),
        (full.clone(), vec![], vec![3, 4], vec![]),
        (vec![3, 1], vec![3, 4], full.clone(), vec![2, 1, 4]),
        (vec![], vec![], full.clone(), vec![2, 3, 1]),
        (vec![2, 1, 4], vec![1], vec![3, 1], full.clone()),
        (vec![4], full.clone(), vec![1, 1, 1], vec![3, 4]),
    ] {
        add(
            format!("dist.select {on_true:?} or {on_false:?} by {a:?} > {b:?}"),
            Kind::Select,
            vec![
                Input::Predicate(a, b, CompareDirection::Gt),
                float(&on_true),
                float(&on_false),
            ],
            None,
        );
    }
    for direction in CompareDirection::ALL {
        add(
            format!("dist.select by {}", direction.as_str()),
            Kind::Select,
            vec![
                Input::Predicate(full.clone(), vec![3, 4], direction),
                float(&full),
                float(&full),
            ],
            None,
        );
    }
    add(
        "dist.select of one value twice".into(),
        Kind::Select,
        vec![
            Input::Predicate(full.clone(), vec![], CompareDirection::Lt),
            float(&full),
            Input::Same,
        ],
        None,
    );
    use Unary::*;
    for kind in [
        Exp, Log, Sqrt, Rsqrt, Sigmoid, Silu, Tanh, Neg, Reciprocal, Relu, Gelu, GeluTanh, Abs, Square, Sin, Cos, Erf,
        Erfc, Log1p, Expm1, Atan, Sign, Floor, Ceil, Round,
    ] {
        let domain = if matches!(kind, Log | Sqrt | Rsqrt | Reciprocal | Log1p) {
            positive
        } else {
            float
        };
        for shape in [&[2, 3][..], &[]] {
            let name = format!(
                "{}{} {shape:?}",
                Kind::Unary(kind).op_name(),
                if kind == GeluTanh { " tanh" } else { "" }
            );
            add(name, Kind::Unary(kind), vec![domain(shape)], None);
        }
    }
    add(
        DistOp::Scale.name().into(),
        Kind::Scale(-2.5),
        vec![float(&[2, 3])],
        None,
    );
    for reduction in [Reduction::Sum, Reduction::Mean, Reduction::Max, Reduction::Min] {
        for (dims, keepdim) in [
            (vec![0], false),
            (vec![1], true),
            (vec![0, 2], false),
            (vec![0, 1, 2], false),
            (vec![2], true),
        ] {
            let kind = Kind::Reduce {
                kind: reduction,
                dims: dims.clone(),
                keepdim,
            };
            let name = format!("{} dims {dims:?} keepdim {keepdim}", kind.op_name());
            add(name, kind, vec![float(&[2, 3, 4])], None);
        }
    }
    for axis in [-1, 0, 1] {
        add(
            format!("dist.softmax axis {axis}"),
            Kind::Softmax { axis },
            vec![float(&[2, 3, 4])],
            None,
        );
    }
    add(
        DistOp::CausalMask.name().into(),
        Kind::CausalMask,
        vec![float(&[2, 3, 3])],
        None,
    );
    for begin in [0, 1, 2] {
        let features = [2usize, 3, 4][begin..].to_vec();
        let epsilon = 1e-5;
        add(
            format!("dist.layer_norm begin {begin}"),
            Kind::LayerNorm { begin, epsilon },
            vec![float(&[2, 3, 4]), positive(&features), float(&features)],
            None,
        );
        add(
            format!("dist.rms_norm begin {begin}"),
            Kind::RmsNorm { begin, epsilon },
            vec![float(&[2, 3, 4]), positive(&features)],
            None,
        );
    }
    for tx in [false, true] {
        for ty in [false, true] {
            for (batch_x, batch_y) in [
                (vec![], vec![]),
                (vec![2], vec![]),
                (vec![2], vec![2]),
                (vec![1], vec![2]),
                (vec![], vec![3, 2]),
            ] {
                let mat = |batch: &[usize], rows: usize, cols: usize, t: bool| {
                    let mut s = batch.to_vec();
                    s.extend(if t { [cols, rows] } else { [rows, cols] });
                    s
                };
                let (x, y) = (mat(&batch_x, 3, 4, tx), mat(&batch_y, 4, 2, ty));
                add(
                    format!("dist.matmul {x:?} by {y:?} tx {tx} ty {ty}"),
                    Kind::Matmul { tx, ty },
                    vec![float(&x), float(&y)],
                    None,
                );
            }
        }
    }
    add(
        "dist.matmul x by itself transposed".into(),
        Kind::Matmul { tx: false, ty: true },
        vec![float(&[3, 4]), Input::Same],
        None,
    );
    for perm in [vec![1, 0, 2], vec![2, 0, 1]] {
        add(
            format!("dist.transpose {perm:?}"),
            Kind::Transpose { perm },
            vec![float(&[2, 3, 4])],
            None,
        );
    }
    for (dim, reverse) in [(1, false), (2, true)] {
        add(
            format!(
                "{} dim {dim}{}",
                DistOp::Cumsum.name(),
                if reverse { " reverse" } else { "" }
            ),
            Kind::Cumsum { dim, reverse },
            vec![float(&[2, 3, 4])],
            None,
        );
    }
    for shape in [vec![24], vec![6, 4], vec![2, 1, 12]] {
        add(
            format!("dist.reshape to {shape:?}"),
            Kind::Reshape,
            vec![float(&[2, 3, 4])],
            Some(shape),
        );
    }
    add(
        DistOp::Slice.name().into(),
        Kind::Slice {
            offsets: vec![0, 1, 1],
            sizes: vec![2, 2, 2],
        },
        vec![float(&[2, 3, 4])],
        None,
    );
    for dim in [0, 2] {
        let mut other = vec![2, 3, 4];
        other[dim] = 1;
        add(
            format!("dist.concat dim {dim}"),
            Kind::Concat { dim },
            vec![float(&[2, 3, 4]), float(&other)],
            None,
        );
        add(
            format!("dist.concat dim {dim} of one value twice"),
            Kind::Concat { dim },
            vec![float(&[2, 3, 4]), Input::Same],
            None,
        );
    }
    add(
        DistOp::TakeAlong.name().into(),
        Kind::TakeAlong,
        vec![float(&[2, 3, 4]), Input::Ids(vec![2, 3], 4)],
        None,
    );
    for k in [1, 2, 5] {
        add(
            format!("{} k {k}", DistOp::TopK.name()),
            Kind::TopK { k },
            vec![float(&[2, 3, 5])],
            None,
        );
    }
    add(
        DistOp::CrossEntropy.name().into(),
        Kind::CrossEntropy { ignore_index: None },
        vec![float(&[2, 3, 5]), Input::Ids(vec![2, 3], 5)],
        None,
    );
    add(
        format!("{} ignore_index", DistOp::CrossEntropy.name()),
        Kind::CrossEntropy {
            ignore_index: Some(-100),
        },
        vec![float(&[2, 3, 5]), Input::Labels(vec![2, 3], 5, -100)],
        None,
    );
    add(
        DistOp::Embedding.name().into(),
        Kind::Embedding,
        vec![Input::Ids(vec![2, 3], 5), float(&[5, 4])],
        None,
    );
    // Attention: causal with k and v shared by 2 query heads (a broadcast
    // dim), in the balanced orders (blocks of one chunk: 4 x 4 blocks of 2,
    // the future ones skipped, and 2 x 2 of 3), not causal with other key
    // and value counts, and of one value as q, k and v. (Blocks of 64 in
    // order: test/dist-run/attention.mlir, against the unfused attention.)
    let attention = |causal, balance| Kind::Attention {
        scale: 0.7,
        causal,
        balance,
    };
    for (name, kind, q, k, v) in [
        (
            "causal, k and v broadcast",
            attention(true, None),
            vec![2, 2, 4, 3],
            vec![2, 1, 4, 3],
            vec![2, 1, 4, 3],
        ),
        (
            "balance 2",
            attention(true, Some(2)),
            vec![2, 8, 3],
            vec![2, 8, 3],
            vec![2, 8, 3],
        ),
        (
            "balance 1",
            attention(true, Some(1)),
            vec![6, 2],
            vec![6, 2],
            vec![6, 2],
        ),
        (
            "not causal",
            attention(false, None),
            vec![2, 3, 2],
            vec![2, 5, 2],
            vec![2, 5, 4],
        ),
    ] {
        add(
            format!("{} {name} q {q:?} k {k:?} v {v:?}", DistOp::Attention.name()),
            kind,
            vec![float(&q), float(&k), float(&v)],
            None,
        );
    }
    add(
        format!("{} of one value as q, k and v", DistOp::Attention.name()),
        attention(true, None),
        vec![float(&[2, 4, 3]), Input::Same, Input::Same],
        None,
    );
    cases
}

#[cfg(test)]
mod tests {
    use super::cases;
    use crate::gradcheck::check::Mode;
    use std::collections::BTreeMap;

    /// `--modes rotated` runs case k in the (k mod n)-th of the n covering
    /// modes of its kind (one device, the mesh): every op variant, its cases
    /// but for the context, must have a case at each turn.
    #[test]
    fn every_variant_meets_every_mode_by_turns() {
        let turns = Mode::covering(1).len();
        let mut seen: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        for (k, case) in cases().into_iter().enumerate() {
            let (variant, _context) = case.name.rsplit_once(", ").expect("a context ends the name");
            seen.entry(variant.to_owned()).or_default().push(k % turns);
        }
        for (variant, mut at) in seen {
            at.sort_unstable();
            at.dedup();
            assert_eq!(at, (0..turns).collect::<Vec<_>>(), "{variant}");
        }
    }
}
