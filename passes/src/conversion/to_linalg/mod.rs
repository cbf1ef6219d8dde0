//! The `convert-dist-to-linalg` pass. Its documentation (what it does, preconditions, before
//! and after) is [`INFO`]'s description: `dist-opt --help-passes` prints it
//! and docs/passes.md holds it.

// Building a linalg body extends the lifetimes of the values of a block
// not yet inserted (melior ties them to a borrow of the block).
#[allow(unsafe_code)]
mod build;
mod optimizer;

use crate::registry::{DistPass, PassInfo};
use crate::sharding::comm::CollectiveKind;
use crate::sharding::matmul_grad::{self as plan, GradOperands, Input, Step};
use crate::{PassError, fail};
use build::{Builder, Ix, Lowered};
use dist_dialect::DistOp;
use dist_dialect::ir::{
    FunctionOpRef, Located, OperationExt, context_of, element_type, float_attribute, i64_array_attribute,
    integer_attribute, nested_ops, op_name, replace_op, static_tensor_shape, string_attribute,
};
use dist_dialect::ops::attr;
use melior::ir::operation::OperationLike;
use melior::ir::{OperationRef, Value, ValueLike};

#[derive(Debug, Default)]
pub struct ConvertDistToLinalg;

pub const INFO: PassInfo = PassInfo {
    argument: "convert-dist-to-linalg",
    summary: "Lower dist compute and gradient ops to linalg, tensor, arith and math",
    description: r#"`convert-dist-to-linalg`: lowers the compute and gradient ops of `dist`
to `linalg.generic` (and `tensor`, `arith`, `math`) on the tensors they
have: local ones after `dist-partition`, or the global ones for the
single-device reference run.

Preconditions: static shapes (the dialect's), and no argument marked
`dist.requires_grad`: such a function is a forward program whose
backward `dist-append-backward` derives (and then drops the marks);
lowering it as it is is an error at the argument. Collectives,
`dist.axis_index` and the mesh stay for `convert-dist-to-runtime`. Every
op becomes `linalg.generic`s whose bodies compute the definitions in the
op descriptions: matmul (`linalg.matmul`, or `linalg.batch_matmul` when
both operands are batched, transposes in their indexing maps; a generic
contraction for broadcast batches and higher ranks), matmul_grad through the matmuls of
`dist-split-matmul-grad`'s plan, elementwise ops and their gradients
(the broadcast operand's gradient summed over the leading dims), gelu in
both forms, layer_norm and softmax with their gradients, embedding (an
offset masks the rows of other shards) and its scatter-add gradient,
reductions, reshape (`tensor.reshape`) and transpose.

Before:
```mlir
%y = dist.relu %x : (tensor<8xf32>) -> tensor<8xf32>
```
After:
```mlir
%0 = tensor.empty() : tensor<8xf32>
%y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                     iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%0 : tensor<8xf32>) {
^bb0(%in: f32, %out: f32):
  %cst = arith.constant 0.000000e+00 : f32
  %1 = arith.cmpf ogt, %in, %cst : f32
  %2 = arith.select %1, %in, %cst : f32
  linalg.yield %2 : f32
} -> tensor<8xf32>
```
"#,
    anchor: "func.func",
    options: &[],
    dialects: &["arith", "linalg", "math", "tensor"],
    create: || Box::new(ConvertDistToLinalg),
};

/// The ops this pass leaves to the runtime lowering.
fn stays(op: DistOp) -> bool {
    matches!(op, DistOp::Mesh | DistOp::AxisIndex | DistOp::Wait) || CollectiveKind::of(op).is_some()
}

impl DistPass for ConvertDistToLinalg {
    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), PassError> {
        if let Ok(function) = FunctionOpRef::try_from(op)
            && let Some(&i) = function.arguments_with(attr::REQUIRES_GRAD).first()
        {
            return Err(fail(
                function.argument_location(i),
                &format!(
                    "argument #{i} asks for a gradient (dist.requires_grad) but the function has no backward: \
                     derive it first with dist-append-backward (dist-run --grad), or drop the attribute to \
                     compile the forward alone"
                ),
            ));
        }
        let todo = nested_ops(&op, |nested| DistOp::of(nested).is_some_and(|o| !stays(o)));
        let context = context_of(&op);
        for target in todo {
            let mut b = Builder::new(context, target);
            let results = lower(&mut b, target)?;
            // SAFETY: the collected ops are each lowered once.
            #[allow(unsafe_code)]
            unsafe {
                replace_op(target, results)
            };
        }
        Ok(())
    }
}

fn shape(v: Value<'_, '_>) -> Vec<i64> {
    static_tensor_shape(v.r#type()).unwrap_or_default()
}

fn operand<'c, 'a>(op: OperationRef<'c, 'a>, i: usize) -> Value<'c, 'a> {
    op.operand_at(i).expect("the verifier checked the operands")
}

/// The identity map of `rank` loops.
fn all(rank: usize) -> Vec<Ix> {
    (0..rank).map(Ix::D).collect()
}

/// The map reading the trailing `rank` dims of `loops` loops.
fn trailing(loops: usize, rank: usize) -> Vec<Ix> {
    (loops - rank..loops).map(Ix::D).collect()
}

/// The map of the loops `loops` without those in `dropped`.
fn without(loops: usize, dropped: &[usize]) -> Vec<Ix> {
    (0..loops).filter(|d| !dropped.contains(d)).map(Ix::D).collect()
}

/// A reduction's `dims`, each in `0..rank`.
fn reduced_dims(op: OperationRef<'_, '_>, rank: usize) -> Vec<usize> {
    i64_array_attribute(&op, attr::DIMS)
        .unwrap_or_default()
        .iter()
        .map(|&d| normalize(d, rank))
        .collect()
}

fn normalize(dim: i64, rank: usize) -> usize {
    dim.rem_euclid(rank.max(1) as i64) as usize
}

fn lower<'c, 'a>(b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
    let Some(kind) = DistOp::of(&op) else {
        return Err(Located::at(&op, format!("'{}' is not a dist op", op_name(&op))));
    };
    let x = || operand(op, 0);
    let out_shape = || op.result_at(0).map(|r| shape(r.into())).unwrap_or_default();
    Ok(match kind {
        DistOp::Matmul => vec![matmul(
            b,
            x(),
            operand(op, 1),
            op.has_attribute(attr::TRANSPOSE_X),
            op.has_attribute(attr::TRANSPOSE_Y),
            &out_shape(),
        )?],
        DistOp::MatmulGrad => matmul_grad(b, op)?,
        DistOp::Add | DistOp::Sub | DistOp::Mul => {
            let arith = match kind {
                DistOp::Add => "arith.addf",
                DistOp::Sub => "arith.subf",
                _ => "arith.mulf",
            };
            vec![broadcast_binary(b, x(), operand(op, 1), arith)?]
        }
        DistOp::AddGrad | DistOp::SubGrad | DistOp::MulGrad => binary_grad(b, op, kind)?,
        DistOp::Scale => {
            let factor = float_attribute(&op, attr::FACTOR).unwrap_or(1.0);
            vec![map1(b, x(), |s, a| s.times(a, factor))?]
        }
        DistOp::Relu => vec![map1(b, x(), |s, a| s.where_positive(a, a))?],
        DistOp::ReluGrad => vec![map2(b, x(), operand(op, 1), |s, a, d| s.where_positive(a, d))?],
        DistOp::Gelu | DistOp::GeluGrad => {
            let tanh = string_attribute(&op, attr::APPROXIMATE).is_some_and(|s| s == "tanh");
            if kind == DistOp::Gelu {
                vec![map1(b, x(), |s, a| gelu(s, a, tanh))?]
            } else {
                vec![map2(b, x(), operand(op, 1), |s, a, d| {
                    let g = gelu_derivative(s, a, tanh)?;
                    s.mul(g, d)
                })?]
            }
        }
        DistOp::ReduceSum | DistOp::ReduceMean => {
            let dims = reduced_dims(op, shape(x()).len());
            let mean = kind == DistOp::ReduceMean;
            vec![reduce(b, x(), &dims, op.has_attribute(attr::KEEPDIM), mean)?]
        }
        DistOp::ReduceSumGrad | DistOp::ReduceMeanGrad => {
            let xs = shape(x());
            let rank = xs.len();
            let dims = reduced_dims(op, rank);
            let count: i64 = dims.iter().map(|&d| xs[d]).product();
            let factor = if kind == DistOp::ReduceMeanGrad {
                1.0 / count as f64
            } else {
                1.0
            };
            let keep = op.has_attribute(attr::KEEPDIM);
            let dout_map: Vec<Ix> = (0..rank)
                .filter_map(|d| match (dims.contains(&d), keep) {
                    (false, _) => Some(Ix::D(d)),
                    (true, true) => Some(Ix::Zero),
                    (true, false) => None,
                })
                .collect();
            let init = b.empty(&xs, element_type(x().r#type()))?;
            vec![
                b.generic(rank, &[], &[(operand(op, 1), dout_map)], (init, all(rank)), |s, a| {
                    s.times(a[0], factor)
                })?,
            ]
        }
        DistOp::Reshape => vec![b.reshape(x(), &out_shape())?],
        DistOp::Transpose => {
            let perm = i64_array_attribute(&op, attr::PERM).unwrap_or_default();
            let rank = perm.len();
            // out[i] = x[perm[i]]: x's dim perm[i] is loop i.
            let mut x_map = vec![Ix::Zero; rank];
            for (i, &p) in perm.iter().enumerate() {
                x_map[p as usize] = Ix::D(i);
            }
            let init = b.empty(&out_shape(), element_type(x().r#type()))?;
            vec![b.generic(rank, &[], &[(x(), x_map)], (init, all(rank)), |_, a| Ok(a[0]))?]
        }
        DistOp::Softmax => vec![softmax(
            b,
            x(),
            normalize(integer_attribute(&op, attr::AXIS).unwrap_or(0), shape(x()).len()),
        )?],
        DistOp::SoftmaxGrad => {
            let y = x();
            let axis = normalize(integer_attribute(&op, attr::AXIS).unwrap_or(0), shape(y).len());
            vec![softmax_grad(b, y, operand(op, 1), axis)?]
        }
        DistOp::LayerNorm => layer_norm(b, op)?,
        DistOp::LayerNormGrad => layer_norm_grad(b, op)?,
        DistOp::Embedding => vec![embedding(b, op)?],
        DistOp::EmbeddingGrad => vec![embedding_grad(b, op)?],
        DistOp::AdamW => optimizer::adamw(b, op)?,
        DistOp::Sgd => optimizer::sgd(b, op)?,
        _ => {
            return Err(Located::at(
                &op,
                format!("convert-dist-to-linalg has no lowering for '{kind}'"),
            ));
        }
    })
}

/// An elementwise op of one tensor.
fn map1<'c, 'a>(
    b: &mut Builder<'c, 'a>,
    x: Value<'c, 'a>,
    f: impl FnOnce(&mut build::Body<'c, '_>, Value<'c, '_>) -> Lowered<'c, Value<'c, 'c>>,
) -> Lowered<'c, Value<'c, 'a>> {
    let s = shape(x);
    let r = s.len();
    let init = b.empty(&s, element_type(x.r#type()))?;
    b.generic(r, &[], &[(x, all(r))], (init, all(r)), |body, a| f(body, a[0]))
}

/// An elementwise op of two tensors of one shape.
fn map2<'c, 'a>(
    b: &mut Builder<'c, 'a>,
    x: Value<'c, 'a>,
    y: Value<'c, 'a>,
    f: impl FnOnce(&mut build::Body<'c, '_>, Value<'c, '_>, Value<'c, '_>) -> Lowered<'c, Value<'c, 'c>>,
) -> Lowered<'c, Value<'c, 'a>> {
    let s = shape(x);
    let r = s.len();
    let init = b.empty(&s, element_type(x.r#type()))?;
    b.generic(r, &[], &[(x, all(r)), (y, all(r))], (init, all(r)), |body, a| {
        f(body, a[0], a[1])
    })
}

/// `x op y` with `y` broadcast along the leading dims of `x`.
fn broadcast_binary<'c, 'a>(
    b: &mut Builder<'c, 'a>,
    x: Value<'c, 'a>,
    y: Value<'c, 'a>,
    op: &str,
) -> Lowered<'c, Value<'c, 'a>> {
    let (xs, ry) = (shape(x), shape(y).len());
    let r = xs.len();
    let init = b.empty(&xs, element_type(x.r#type()))?;
    b.generic(r, &[], &[(x, all(r)), (y, trailing(r, ry))], (init, all(r)), |s, a| {
        s.binary(op, a[0], a[1])
    })
}

/// Sums `x` over `dims` (keeping them as size 1 with `keep`); `mean`
/// divides by their element count.
fn reduce<'c, 'a>(
    b: &mut Builder<'c, 'a>,
    x: Value<'c, 'a>,
    dims: &[usize],
    keep: bool,
    mean: bool,
) -> Lowered<'c, Value<'c, 'a>> {
    let xs = shape(x);
    let r = xs.len();
    let out_shape: Vec<i64> = (0..r)
        .filter_map(|d| match (dims.contains(&d), keep) {
            (false, _) => Some(xs[d]),
            (true, true) => Some(1),
            (true, false) => None,
        })
        .collect();
    let out_map: Vec<Ix> = (0..r)
        .filter_map(|d| match (dims.contains(&d), keep) {
            (false, _) => Some(Ix::D(d)),
            (true, true) => Some(Ix::Zero),
            (true, false) => None,
        })
        .collect();
    let count: i64 = dims.iter().map(|&d| xs[d]).product();
    let scale = if mean { 1.0 / count as f64 } else { 1.0 };
    let element = element_type(x.r#type());
    b.sum(
        r,
        dims,
        &[(x, all(r))],
        (&out_shape, out_map),
        element,
        scale,
        |_, a| Ok(a[0]),
    )
}

fn matmul<'c, 'a>(
    b: &mut Builder<'c, 'a>,
    x: Value<'c, 'a>,
    y: Value<'c, 'a>,
    tx: bool,
    ty: bool,
    out: &[i64],
) -> Lowered<'c, Value<'c, 'a>> {
    let r = out.len();
    let (m, n, k) = (Ix::D(r - 2), Ix::D(r - 1), Ix::D(r));
    // Batch dims align to the right of the output's; size-1 ones broadcast.
    let operand_map = |s: &[i64], rows: Ix, cols: Ix| {
        let batch = s.len() - 2;
        let mut map: Vec<Ix> = (0..batch)
            .map(|i| {
                let d = r - 2 - batch + i;
                if s[i] == 1 && out[d] != 1 { Ix::Zero } else { Ix::D(d) }
            })
            .collect();
        map.extend([rows, cols]);
        map
    };
    let x_map = if tx {
        operand_map(&shape(x), k, m)
    } else {
        operand_map(&shape(x), m, k)
    };
    let y_map = if ty {
        operand_map(&shape(y), n, k)
    } else {
        operand_map(&shape(y), k, n)
    };
    let init = b.splat(out, element_type(x.r#type()), 0.0)?;
    // linalg.matmul, and batch_matmul with both operands batched, take
    // transposed operands through their maps; broadcast batches and ranks
    // above 3 are a generic contraction.
    let plain_batch = |m: &[Ix]| m.len() == r && m[..r - 2].iter().enumerate().all(|(i, e)| *e == Ix::D(i));
    let named = match r {
        2 => Some("linalg.matmul"),
        3 if plain_batch(&x_map) && plain_batch(&y_map) => Some("linalg.batch_matmul"),
        _ => None,
    };
    match named {
        Some(name) => b.contraction(name, r + 1, &[(x, x_map), (y, y_map)], (init, all(r))),
        None => b.generic(r + 1, &[r], &[(x, x_map), (y, y_map)], (init, all(r)), |s, a| {
            let p = s.mul(a[0], a[1])?;
            s.add(a[2], p)
        }),
    }
}

/// The used gradients through the split plan's matmuls.
fn matmul_grad<'c, 'a>(b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
    let inputs = GradOperands::of(op);
    let split = plan::split(&inputs.shapes(), true, true, true);
    let mut values: Vec<Value<'c, 'a>> = Vec::new();
    for planned in &split.steps {
        let read = |i: &Input| inputs.read(*i, &values);
        let value = match &planned.step {
            Step::Matmul {
                x,
                y,
                transpose_x,
                transpose_y,
            } => matmul(b, read(x), read(y), *transpose_x, *transpose_y, &planned.shape)?,
            Step::Reshape(input) => b.reshape(read(input), &planned.shape)?,
            Step::ReduceSum { input, dims } => {
                let dims: Vec<usize> = dims.iter().map(|&d| d as usize).collect();
                reduce(b, read(input), &dims, false, false)?
            }
        };
        values.push(value);
    }
    let (dx, dy) = (split.dx.expect("wanted"), split.dy.expect("wanted"));
    Ok(vec![values[dx], values[dy]])
}

/// add_grad, sub_grad, mul_grad: `dx` has x's shape; `dy` sums over the
/// leading dims `y` was broadcast along.
fn binary_grad<'c, 'a>(
    b: &mut Builder<'c, 'a>,
    op: OperationRef<'c, 'a>,
    kind: DistOp,
) -> Lowered<'c, Vec<Value<'c, 'a>>> {
    let (x, y, dout) = (operand(op, 0), operand(op, 1), operand(op, 2));
    let (r, ry) = (shape(x).len(), shape(y).len());
    let leading: Vec<usize> = (0..r - ry).collect();
    let element = element_type(x.r#type());
    let ys = shape(y);
    let dx = match kind {
        DistOp::MulGrad => broadcast_binary(b, dout, y, "arith.mulf")?,
        _ => dout,
    };
    // dy[j] = sum over the leading dims of g(dout, x)[i, j].
    let inputs = [(dout, all(r)), (x, all(r))];
    let dy = b.sum(
        r,
        &leading,
        &inputs,
        (&ys, trailing(r, ry)),
        element,
        1.0,
        |s, a| match kind {
            DistOp::AddGrad => Ok(a[0]),
            DistOp::SubGrad => s.times(a[0], -1.0),
            _ => s.mul(a[0], a[1]),
        },
    )?;
    Ok(vec![dx, dy])
}

const SQRT_2_OVER_PI: f64 = 0.797_884_560_802_865_4;
const GELU_CUBIC: f64 = 0.044_715;

/// `gelu(a)`: `0.5 a (1 + erf(a / sqrt 2))`, or with `tanh`
/// `0.5 a (1 + tanh(sqrt(2/pi) (a + 0.044715 a^3)))`.
fn gelu<'c>(s: &mut build::Body<'c, '_>, a: Value<'c, '_>, tanh: bool) -> Lowered<'c, Value<'c, 'c>> {
    let phi = gelu_cdf(s, a, tanh)?;
    s.mul(a, phi)
}

/// `0.5 (1 + erf(a / sqrt 2))` or its tanh approximation.
fn gelu_cdf<'c>(s: &mut build::Body<'c, '_>, a: Value<'c, '_>, tanh: bool) -> Lowered<'c, Value<'c, 'c>> {
    let inner = if tanh {
        let u = tanh_argument(s, a)?;
        s.unary("math.tanh", u)?
    } else {
        let u = s.times(a, std::f64::consts::FRAC_1_SQRT_2)?;
        s.unary("math.erf", u)?
    };
    let one = s.float(1.0)?;
    let sum = s.add(one, inner)?;
    s.times(sum, 0.5)
}

/// `sqrt(2/pi) (a + 0.044715 a^3)`.
fn tanh_argument<'c>(s: &mut build::Body<'c, '_>, a: Value<'c, '_>) -> Lowered<'c, Value<'c, 'c>> {
    let a2 = s.mul(a, a)?;
    let a3 = s.mul(a2, a)?;
    let c = s.times(a3, GELU_CUBIC)?;
    let sum = s.add(a, c)?;
    s.times(sum, SQRT_2_OVER_PI)
}

/// `d gelu(a) / da`.
fn gelu_derivative<'c>(s: &mut build::Body<'c, '_>, a: Value<'c, '_>, tanh: bool) -> Lowered<'c, Value<'c, 'c>> {
    let cdf = gelu_cdf(s, a, tanh)?;
    let pdf_term = if tanh {
        // 0.5 a (1 - t^2) sqrt(2/pi) (1 + 3 * 0.044715 a^2)
        let u = tanh_argument(s, a)?;
        let t = s.unary("math.tanh", u)?;
        let t2 = s.mul(t, t)?;
        let one = s.float(1.0)?;
        let sech2 = s.sub(one, t2)?;
        let a2 = s.mul(a, a)?;
        let c = s.times(a2, 3.0 * GELU_CUBIC)?;
        let one = s.float(1.0)?;
        let du = s.add(one, c)?;
        let du = s.times(du, SQRT_2_OVER_PI)?;
        let half_a = s.times(a, 0.5)?;
        let p = s.mul(half_a, sech2)?;
        s.mul(p, du)?
    } else {
        // a exp(-a^2 / 2) / sqrt(2 pi)
        let a2 = s.mul(a, a)?;
        let e = s.times(a2, -0.5)?;
        let e = s.unary("math.exp", e)?;
        let p = s.mul(a, e)?;
        s.times(p, 1.0 / (2.0 * std::f64::consts::PI).sqrt())?
    };
    s.add(cdf, pdf_term)
}

/// `exp(x - max) / sum(exp(x - max))` along `axis`.
fn softmax<'c, 'a>(b: &mut Builder<'c, 'a>, x: Value<'c, 'a>, axis: usize) -> Lowered<'c, Value<'c, 'a>> {
    let xs = shape(x);
    let r = xs.len();
    let element = element_type(x.r#type());
    let reduced: Vec<i64> = (0..r).filter(|&d| d != axis).map(|d| xs[d]).collect();
    let init = b.splat(&reduced, element, f64::NEG_INFINITY)?;
    let max = b.generic(r, &[axis], &[(x, all(r))], (init, without(r, &[axis])), |s, a| {
        s.binary("arith.maximumf", a[0], a[1])
    })?;
    let init = b.empty(&xs, element)?;
    let e = b.generic(
        r,
        &[],
        &[(x, all(r)), (max, without(r, &[axis]))],
        (init, all(r)),
        |s, a| {
            let d = s.sub(a[0], a[1])?;
            s.unary("math.exp", d)
        },
    )?;
    let sum = reduce(b, e, &[axis], false, false)?;
    let init = b.empty(&xs, element)?;
    b.generic(
        r,
        &[],
        &[(e, all(r)), (sum, without(r, &[axis]))],
        (init, all(r)),
        |s, a| s.div(a[0], a[1]),
    )
}

/// `y (dy - sum(dy y))` along `axis`.
fn softmax_grad<'c, 'a>(
    b: &mut Builder<'c, 'a>,
    y: Value<'c, 'a>,
    dy: Value<'c, 'a>,
    axis: usize,
) -> Lowered<'c, Value<'c, 'a>> {
    let ys = shape(y);
    let r = ys.len();
    let element = element_type(y.r#type());
    let reduced: Vec<i64> = (0..r).filter(|&d| d != axis).map(|d| ys[d]).collect();
    let inputs = [(y, all(r)), (dy, all(r))];
    let dot = b.sum(
        r,
        &[axis],
        &inputs,
        (&reduced, without(r, &[axis])),
        element,
        1.0,
        |s, a| s.mul(a[0], a[1]),
    )?;
    let init = b.empty(&ys, element)?;
    b.generic(
        r,
        &[],
        &[(y, all(r)), (dy, all(r)), (dot, without(r, &[axis]))],
        (init, all(r)),
        |s, a| {
            let d = s.sub(a[1], a[2])?;
            s.mul(a[0], d)
        },
    )
}

/// The leading (statistic) and normalized dims of a layer norm.
fn norm_dims(rank: usize, begin: i64) -> (Vec<usize>, Vec<usize>) {
    let begin = normalize(begin, rank + 1).min(rank);
    ((0..begin).collect(), (begin..rank).collect())
}

fn layer_norm<'c, 'a>(b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
    let (x, scale, bias) = (operand(op, 0), operand(op, 1), operand(op, 2));
    let epsilon = float_attribute(&op, attr::EPSILON).unwrap_or(1e-5);
    let xs = shape(x);
    let r = xs.len();
    let (lead, norm) = norm_dims(r, integer_attribute(&op, attr::BEGIN_NORM_AXIS).unwrap_or(0));
    let element = element_type(x.r#type());
    let count: i64 = norm.iter().map(|&d| xs[d]).product();
    let mean = reduce(b, x, &norm, false, true)?;
    let lead_map: Vec<Ix> = lead.iter().map(|&d| Ix::D(d)).collect();
    let norm_map: Vec<Ix> = norm.iter().map(|&d| Ix::D(d)).collect();
    let stat_shape: Vec<i64> = lead.iter().map(|&d| xs[d]).collect();
    let inputs = [(x, all(r)), (mean, lead_map.clone())];
    let var = b.sum(
        r,
        &norm,
        &inputs,
        (&stat_shape, lead_map.clone()),
        element,
        1.0 / count as f64,
        |s, a| {
            let d = s.sub(a[0], a[1])?;
            s.mul(d, d)
        },
    )?;
    let rstd = map1(b, var, |s, var| {
        let eps = s.float(epsilon)?;
        let v = s.add(var, eps)?;
        // sqrt and a division: libm has no rsqrt.
        let root = s.unary("math.sqrt", v)?;
        let one = s.float(1.0)?;
        s.div(one, root)
    })?;
    let init = b.empty(&xs, element)?;
    let y = b.generic(
        r,
        &[],
        &[
            (x, all(r)),
            (mean, lead_map.clone()),
            (rstd, lead_map),
            (scale, norm_map.clone()),
            (bias, norm_map),
        ],
        (init, all(r)),
        |s, a| {
            let d = s.sub(a[0], a[1])?;
            let n = s.mul(d, a[2])?;
            let g = s.mul(n, a[3])?;
            s.add(g, a[4])
        },
    )?;
    Ok(vec![y, mean, rstd])
}

/// With `xhat = (x - mean) rstd` and `g = dy scale`: `dbias = sum_lead dy`,
/// `dscale = sum_lead dy xhat`, `dx = rstd (g - mean_norm(g) - xhat
/// mean_norm(g xhat))`.
fn layer_norm_grad<'c, 'a>(b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
    let [x, scale, mean, rstd, dy] = [0, 1, 2, 3, 4].map(|i| operand(op, i));
    let xs = shape(x);
    let r = xs.len();
    let (lead, norm) = norm_dims(r, integer_attribute(&op, attr::BEGIN_NORM_AXIS).unwrap_or(0));
    let element = element_type(x.r#type());
    let count = norm.iter().map(|&d| xs[d]).product::<i64>() as f64;
    let lead_map: Vec<Ix> = lead.iter().map(|&d| Ix::D(d)).collect();
    let norm_map: Vec<Ix> = norm.iter().map(|&d| Ix::D(d)).collect();
    let norm_shape: Vec<i64> = norm.iter().map(|&d| xs[d]).collect();
    let stat_shape: Vec<i64> = lead.iter().map(|&d| xs[d]).collect();
    let stats = [(mean, lead_map.clone()), (rstd, lead_map.clone())];
    // xhat, computed in each body that needs it.
    fn xhat<'c>(
        s: &mut build::Body<'c, '_>,
        x: Value<'c, '_>,
        mean: Value<'c, '_>,
        rstd: Value<'c, '_>,
    ) -> Lowered<'c, Value<'c, 'c>> {
        let d = s.sub(x, mean)?;
        s.mul(d, rstd)
    }
    let per_feature = (&norm_shape[..], norm_map.clone());
    let dbias = b.sum(r, &lead, &[(dy, all(r))], per_feature.clone(), element, 1.0, |_, a| {
        Ok(a[0])
    })?;
    let inputs = [(dy, all(r)), (x, all(r)), stats[0].clone(), stats[1].clone()];
    let dscale = b.sum(r, &lead, &inputs, per_feature, element, 1.0, |s, a| {
        let h = xhat(s, a[1], a[2], a[3])?;
        s.mul(a[0], h)
    })?;
    // Per row: sum of g and of g xhat over the normalized dims.
    let row_sum = |b: &mut Builder<'c, 'a>, with_xhat: bool| {
        let inputs = [
            (dy, all(r)),
            (scale, norm_map.clone()),
            (x, all(r)),
            stats[0].clone(),
            stats[1].clone(),
        ];
        b.sum(
            r,
            &norm,
            &inputs,
            (&stat_shape, lead_map.clone()),
            element,
            1.0,
            |s, a| {
                let g = s.mul(a[0], a[1])?;
                if with_xhat {
                    let h = xhat(s, a[2], a[3], a[4])?;
                    s.mul(g, h)
                } else {
                    Ok(g)
                }
            },
        )
    };
    let sum_g = row_sum(b, false)?;
    let sum_gh = row_sum(b, true)?;
    let init = b.empty(&xs, element)?;
    let inputs = [
        (dy, all(r)),
        (scale, norm_map),
        (x, all(r)),
        stats[0].clone(),
        stats[1].clone(),
        (sum_g, lead_map.clone()),
        (sum_gh, lead_map),
    ];
    let dx = b.generic(r, &[], &inputs, (init, all(r)), |s, a| {
        let g = s.mul(a[0], a[1])?;
        let h = xhat(s, a[2], a[3], a[4])?;
        let mg = s.times(a[5], 1.0 / count)?;
        let mgh = s.times(a[6], 1.0 / count)?;
        let hm = s.mul(h, mgh)?;
        let t = s.sub(g, mg)?;
        let t = s.sub(t, hm)?;
        s.mul(a[4], t)
    })?;
    Ok(vec![dx, dscale, dbias])
}

/// The row of the table an id reads, and whether this shard holds it:
/// `id - offset` in `[0, rows)`.
fn embedding_row<'c>(
    s: &mut build::Body<'c, '_>,
    id: Value<'c, '_>,
    offset: Option<Value<'c, '_>>,
    rows: i64,
) -> Lowered<'c, (Value<'c, 'c>, Option<Value<'c, 'c>>)> {
    let id = s.index_cast(id)?;
    let Some(offset) = offset else {
        return Ok((id, None));
    };
    let row = s.index_op("arith.subi", id, offset)?;
    let zero = s.index_constant(0)?;
    let n = s.index_constant(rows)?;
    let lower = s.cmpi(5, row, zero)?; // sge
    let upper = s.cmpi(2, row, n)?; // slt
    let held = s.and(lower, upper)?;
    let clamped = s.select(held, row, zero)?;
    Ok((clamped, Some(held)))
}

/// `out[i..., h] = table[ids[i...] - offset, h]`, zero for rows of other
/// shards.
fn embedding<'c, 'a>(b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Value<'c, 'a>> {
    let (ids, table) = (operand(op, 0), operand(op, 1));
    let offset = op.operand_at(2);
    let out = op.result_at(0).map(|r| shape(r.into())).unwrap_or_default();
    let r = out.len();
    let rows = shape(table)[0];
    let init = b.empty(&out, element_type(table.r#type()))?;
    b.generic(r, &[], &[(ids, all(r - 1))], (init, all(r)), |s, a| {
        let (row, held) = embedding_row(s, a[0], offset, rows)?;
        let h = s.index(r - 1)?;
        let v = s.extract(table, &[row, h])?;
        match held {
            Some(held) => {
                let zero = s.float(0.0)?;
                s.select(held, v, zero)
            }
            None => Ok(v),
        }
    })
}

/// `dtable[v, h] = sum over ids[i...] - offset == v of dout[i..., h]`, as a
/// reduction over the ids (correct for any ids, O(rows x ids x hidden)).
fn embedding_grad<'c, 'a>(b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Value<'c, 'a>> {
    let (ids, table, dout) = (operand(op, 0), operand(op, 1), operand(op, 2));
    let offset = op.operand_at(3);
    let ts = shape(table);
    let id_rank = shape(ids).len();
    // Loops: v, the id dims, h.
    let loops = id_rank + 2;
    let id_map: Vec<Ix> = (1..=id_rank).map(Ix::D).collect();
    let mut dout_map = id_map.clone();
    dout_map.push(Ix::D(loops - 1));
    let reductions: Vec<usize> = (1..=id_rank).collect();
    b.sum(
        loops,
        &reductions,
        &[(ids, id_map), (dout, dout_map)],
        (&ts, vec![Ix::D(0), Ix::D(loops - 1)]),
        element_type(table.r#type()),
        1.0,
        |s, a| {
            let (row, held) = embedding_row(s, a[0], offset, ts[0])?;
            let v = s.index(0)?;
            let mut hit = s.cmpi(0, row, v)?; // eq
            if let Some(held) = held {
                hit = s.and(hit, held)?;
            }
            let zero = s.float(0.0)?;
            s.select(hit, a[1], zero)
        },
    )
}
