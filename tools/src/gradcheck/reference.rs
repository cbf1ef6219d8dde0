//! The float64 reference: each op by its definition (the ODS descriptions
//! in `docs/dialect.md`), written here without the compiler's rules,
//! gradients or lowerings, and the loss's gradient by central finite
//! differences of it.

use super::program::{Binary, Kind, Op, Program, Reduction, Ref, Unary, broadcast_shape, reduced_shape};

/// A dense row-major float64 tensor (indices are held as floats).
#[derive(Debug, Clone, PartialEq)]
pub struct Tensor {
    pub shape: Vec<usize>,
    pub data: Vec<f64>,
}

fn strides(shape: &[usize]) -> Vec<usize> {
    let mut strides = vec![1; shape.len()];
    for d in (0..shape.len().saturating_sub(1)).rev() {
        strides[d] = strides[d + 1] * shape[d + 1];
    }
    strides
}

/// Every index of `shape`, in row-major order.
fn indices(shape: &[usize]) -> impl Iterator<Item = Vec<usize>> + '_ {
    let count: usize = shape.iter().product();
    let strides = strides(shape);
    (0..count).map(move |flat| shape.iter().zip(&strides).map(|(&n, &s)| flat / s % n).collect())
}

impl Tensor {
    pub fn new(shape: Vec<usize>, data: Vec<f64>) -> Self {
        debug_assert_eq!(shape.iter().product::<usize>(), data.len());
        Self { shape, data }
    }

    fn at(&self, index: &[usize]) -> f64 {
        self.data[index
            .iter()
            .zip(strides(&self.shape))
            .map(|(i, s)| i * s)
            .sum::<usize>()]
    }

    fn map(&self, f: impl Fn(f64) -> f64) -> Tensor {
        Tensor::new(self.shape.clone(), self.data.iter().map(|&v| f(v)).collect())
    }

    /// `out[index] = f(index)` over `shape`.
    fn build(shape: Vec<usize>, f: impl Fn(&[usize]) -> f64) -> Tensor {
        let data = indices(&shape).map(|i| f(&i)).collect();
        Tensor::new(shape, data)
    }

    /// The element an operand broadcast to the loops of `out` reads at `index`.
    fn broadcast_at(&self, index: &[usize]) -> f64 {
        let lead = index.len() - self.shape.len();
        let own: Vec<usize> = self
            .shape
            .iter()
            .enumerate()
            .map(|(d, &n)| if n == 1 { 0 } else { index[lead + d] })
            .collect();
        self.at(&own)
    }
}

fn binary(kind: Binary, x: &Tensor, y: &Tensor) -> Tensor {
    let f = |a: f64, b: f64| match kind {
        Binary::Add => a + b,
        Binary::Sub => a - b,
        Binary::Mul => a * b,
        Binary::Div => a / b,
        Binary::Maximum => a.max(b),
        Binary::Minimum => a.min(b),
        Binary::Pow => a.powf(b),
        // fmod: of the dividend's sign.
        Binary::Rem => a % b,
    };
    Tensor::build(broadcast_shape(&x.shape, &y.shape), |i| {
        f(x.broadcast_at(i), y.broadcast_at(i))
    })
}

fn sigmoid(v: f64) -> f64 {
    1.0 / (1.0 + (-v).exp())
}

fn erf(v: f64) -> f64 {
    // SAFETY: libm's erf, a pure function of its argument.
    unsafe { libc_erf(v) }
}

fn erfc(v: f64) -> f64 {
    // SAFETY: libm's erfc, a pure function of its argument.
    unsafe { libc_erfc(v) }
}

unsafe extern "C" {
    #[link_name = "erf"]
    fn libc_erf(v: f64) -> f64;
    #[link_name = "erfc"]
    fn libc_erfc(v: f64) -> f64;
}

fn unary(kind: Unary, v: f64) -> f64 {
    match kind {
        Unary::Exp => v.exp(),
        Unary::Log => v.ln(),
        Unary::Sqrt => v.sqrt(),
        Unary::Rsqrt => 1.0 / v.sqrt(),
        Unary::Sigmoid => sigmoid(v),
        Unary::Silu => v * sigmoid(v),
        Unary::Tanh => v.tanh(),
        Unary::Neg => -v,
        Unary::Reciprocal => 1.0 / v,
        Unary::Relu => v.max(0.0),
        Unary::Gelu => 0.5 * v * (1.0 + erf(v / std::f64::consts::SQRT_2)),
        Unary::GeluTanh => {
            let c = (2.0 / std::f64::consts::PI).sqrt();
            0.5 * v * (1.0 + (c * (v + 0.044715 * v * v * v)).tanh())
        }
        Unary::Abs => v.abs(),
        Unary::Square => v * v,
        Unary::Sin => v.sin(),
        Unary::Cos => v.cos(),
        Unary::Erf => erf(v),
        Unary::Erfc => erfc(v),
        Unary::Log1p => v.ln_1p(),
        Unary::Expm1 => v.exp_m1(),
        Unary::Atan => v.atan(),
        Unary::Sign if v > 0.0 => 1.0,
        Unary::Sign if v < 0.0 => -1.0,
        Unary::Sign => v,
        Unary::Floor => v.floor(),
        Unary::Ceil => v.ceil(),
        Unary::Round => v.round_ties_even(),
    }
}

fn reduce(kind: Reduction, x: &Tensor, dims: &[usize], keep: bool) -> Tensor {
    let out = reduced_shape(&x.shape, dims, keep);
    let start = match kind {
        Reduction::Sum | Reduction::Mean => 0.0,
        Reduction::Max => f64::NEG_INFINITY,
        Reduction::Min => f64::INFINITY,
    };
    let mut acc = Tensor::new(out.clone(), vec![start; out.iter().product()]);
    let out_strides = strides(&out);
    for (flat, i) in indices(&x.shape).enumerate() {
        let o: usize = (0..i.len())
            .filter_map(|d| match (dims.contains(&d), keep) {
                (false, _) => Some(i[d]),
                (true, true) => Some(0),
                (true, false) => None,
            })
            .zip(&out_strides)
            .map(|(i, s)| i * s)
            .sum();
        let v = x.data[flat];
        let a = &mut acc.data[o];
        *a = match kind {
            Reduction::Sum | Reduction::Mean => *a + v,
            Reduction::Max => a.max(v),
            Reduction::Min => a.min(v),
        };
    }
    if kind == Reduction::Mean {
        let count: usize = dims.iter().map(|&d| x.shape[d]).product();
        acc = acc.map(|v| v / count as f64);
    }
    acc
}

/// `f` applied to each row along `axis` (the row's values in, its values out).
fn along(x: &Tensor, axis: usize, f: impl Fn(&[f64]) -> Vec<f64>) -> Tensor {
    let mut out = x.clone();
    let stride = strides(&x.shape)[axis];
    let n = x.shape[axis];
    let mut outer_shape = x.shape.clone();
    outer_shape[axis] = 1;
    for i in indices(&outer_shape) {
        let base: usize = i.iter().zip(strides(&x.shape)).map(|(i, s)| i * s).sum();
        let row: Vec<f64> = (0..n).map(|k| x.data[base + k * stride]).collect();
        for (k, v) in f(&row).into_iter().enumerate() {
            out.data[base + k * stride] = v;
        }
    }
    out
}

fn softmax_row(row: &[f64]) -> Vec<f64> {
    let max = row.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let e: Vec<f64> = row.iter().map(|v| (v - max).exp()).collect();
    let sum: f64 = e.iter().sum();
    e.iter().map(|v| v / sum).collect()
}

/// The groups `x` normalizes from dim `begin` on: their count and size.
fn groups(x: &Tensor, begin: usize) -> (usize, usize) {
    let inner: usize = x.shape[begin..].iter().product();
    (x.data.len() / inner.max(1), inner)
}

fn layer_norm(x: &Tensor, scale: &Tensor, bias: &Tensor, begin: usize, epsilon: f64) -> Vec<Tensor> {
    let (outer, inner) = groups(x, begin);
    let (mut y, mut means, mut rstds) = (x.clone(), Vec::new(), Vec::new());
    for g in 0..outer {
        let row = &x.data[g * inner..(g + 1) * inner];
        let mean = row.iter().sum::<f64>() / inner as f64;
        let var = row.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / inner as f64;
        let rstd = 1.0 / (var + epsilon).sqrt();
        let out = &mut y.data[g * inner..(g + 1) * inner];
        for (k, (o, v)) in out.iter_mut().zip(row).enumerate() {
            *o = (v - mean) * rstd * scale.data[k] + bias.data[k];
        }
        means.push(mean);
        rstds.push(rstd);
    }
    let lead = x.shape[..begin].to_vec();
    vec![y, Tensor::new(lead.clone(), means), Tensor::new(lead, rstds)]
}

/// The `k` largest entries of each row (the last dim) in the total order of
/// their f32 values (XLA's sort: `-NaN < -inf < ... < -0.0 < +0.0 < ...`),
/// largest first, equal ones in index order; and their indices.
fn top_k(x: &Tensor, k: usize) -> Vec<Tensor> {
    let n = *x.shape.last().expect("a top-k of rank >= 1");
    let mut shape = x.shape.clone();
    *shape.last_mut().expect("rank >= 1") = k;
    let (mut values, mut picked) = (Vec::new(), Vec::new());
    for row in x.data.chunks(n) {
        let key = |e: usize| {
            let bits = (row[e] as f32).to_bits() as i32;
            if bits < 0 { bits ^ i32::MAX } else { bits }
        };
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&e| (std::cmp::Reverse(key(e)), e));
        for &e in &order[..k] {
            values.push(row[e]);
            picked.push(e as f64);
        }
    }
    vec![Tensor::new(shape.clone(), values), Tensor::new(shape, picked)]
}

fn rms_norm(x: &Tensor, scale: &Tensor, begin: usize, epsilon: f64) -> Vec<Tensor> {
    let (outer, inner) = groups(x, begin);
    let (mut y, mut rstds) = (x.clone(), Vec::new());
    for g in 0..outer {
        let row = &x.data[g * inner..(g + 1) * inner];
        let rstd = 1.0 / (row.iter().map(|v| v * v).sum::<f64>() / inner as f64 + epsilon).sqrt();
        let out = &mut y.data[g * inner..(g + 1) * inner];
        for ((o, v), s) in out.iter_mut().zip(row).zip(&scale.data) {
            *o = v * rstd * s;
        }
        rstds.push(rstd);
    }
    vec![y, Tensor::new(x.shape[..begin].to_vec(), rstds)]
}

fn matmul(x: &Tensor, y: &Tensor, tx: bool, ty: bool, out: &[usize]) -> Tensor {
    let xr = x.shape.len();
    let k = if tx { x.shape[xr - 2] } else { x.shape[xr - 1] };
    Tensor::build(out.to_vec(), |i| {
        let r = i.len();
        let (m, n) = (i[r - 2], i[r - 1]);
        let batch = &i[..r - 2];
        let pick = |t: &Tensor, a: usize, b: usize| {
            let tr = t.shape.len();
            let lead = batch.len() - (tr - 2);
            let mut at: Vec<usize> = (0..tr - 2)
                .map(|d| if t.shape[d] == 1 { 0 } else { batch[lead + d] })
                .collect();
            at.extend([a, b]);
            t.at(&at)
        };
        (0..k)
            .map(|l| {
                let a = if tx { pick(x, l, m) } else { pick(x, m, l) };
                let b = if ty { pick(y, n, l) } else { pick(y, l, n) };
                a * b
            })
            .sum()
    })
}

/// The position of index `t` of `n` in the balanced order of `shards`
/// (`dist.attention`'s `balance`): shard s holds chunks s and 2 shards - 1 - s.
fn balanced_position(t: usize, n: usize, shards: usize) -> usize {
    let chunk = n / (2 * shards);
    let (j, r) = (t / chunk, t % chunk);
    let logical = if j % 2 == 0 { j / 2 } else { 2 * shards - 1 - j / 2 };
    logical * chunk + r
}

/// `softmax(scale q k^T + mask) v` and the log-sum-exp of each query's
/// masked row, k and v broadcast over q's leading dims.
fn attention(q: &Tensor, k: &Tensor, v: &Tensor, (scale, causal, balance): (f64, bool, Option<usize>)) -> Vec<Tensor> {
    let r = q.shape.len();
    let (queries, features, keys, values) = (q.shape[r - 2], q.shape[r - 1], k.shape[r - 2], v.shape[r - 1]);
    let position = |t: usize| balance.map_or(t, |shards| balanced_position(t, keys, shards));
    let lead = q.shape[..r - 2].to_vec();
    // The first element of a (broadcast) operand's matrix at a lead index.
    let base = |t: &Tensor, at: &[usize]| {
        let strides = strides(&t.shape);
        at.iter()
            .zip(&t.shape)
            .zip(&strides)
            .map(|((&a, &n), &s)| if n == 1 { 0 } else { a * s })
            .sum::<usize>()
    };
    let (mut out, mut lse) = (Vec::new(), Vec::new());
    let mut scores = vec![0.0; keys];
    for at in indices(&lead) {
        let (qm, km, vm) = (
            &q.data[base(q, &at)..],
            &k.data[base(k, &at)..],
            &v.data[base(v, &at)..],
        );
        for i in 0..queries {
            let row = &qm[i * features..(i + 1) * features];
            for (j, s) in scores.iter_mut().enumerate() {
                let key = &km[j * features..(j + 1) * features];
                *s = if causal && position(j) > position(i) {
                    f64::NEG_INFINITY
                } else {
                    scale * row.iter().zip(key).map(|(a, b)| a * b).sum::<f64>()
                };
            }
            let max = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let weights: Vec<f64> = scores.iter().map(|s| (s - max).exp()).collect();
            let total: f64 = weights.iter().sum();
            for c in 0..values {
                out.push((0..keys).map(|j| weights[j] * vm[j * values + c]).sum::<f64>() / total);
            }
            lse.push(max + total.ln());
        }
    }
    let rows: Vec<usize> = q.shape[..r - 1].to_vec();
    let mut out_shape = rows.clone();
    out_shape.push(values);
    vec![Tensor::new(out_shape, out), Tensor::new(rows, lse)]
}

/// `x[..., v]` at integer `idx` (0 outside `[0, V)`).
fn take_along(x: &Tensor, idx: &Tensor) -> Tensor {
    let v = *x.shape.last().expect("rank >= 1");
    Tensor::build(idx.shape.clone(), |i| {
        let at = idx.at(i);
        if at >= 0.0 && (at as usize) < v {
            let mut full = i.to_vec();
            full.push(at as usize);
            x.at(&full)
        } else {
            0.0
        }
    })
}

/// Evaluates `program` on `inputs` (one per argument): every value, by op.
pub fn evaluate(program: &Program, inputs: &[Tensor]) -> Vec<Vec<Tensor>> {
    let mut values: Vec<Vec<Tensor>> = Vec::with_capacity(program.ops.len());
    for op in &program.ops {
        let get = |v: Ref| -> &Tensor {
            match v {
                Ref::Arg(i) => &inputs[i],
                Ref::Op(i, k) => &values[i][k],
            }
        };
        let results = apply(op, &op.operands.iter().map(|&v| get(v)).collect::<Vec<_>>());
        values.push(results);
    }
    values
}

/// The loss of `program` on `inputs`.
pub fn loss(program: &Program, inputs: &[Tensor]) -> f64 {
    match program.loss {
        Ref::Arg(i) => inputs[i].data[0],
        Ref::Op(i, k) => evaluate(program, inputs)[i][k].data[0],
    }
}

fn apply(op: &Op, a: &[&Tensor]) -> Vec<Tensor> {
    let out = &op.results[0];
    let one = match &op.kind {
        Kind::Binary(kind) => binary(*kind, a[0], a[1]),
        Kind::Compare(direction) => Tensor::build(out.clone(), |i| {
            f64::from(u8::from(direction.holds(a[0].broadcast_at(i), a[1].broadcast_at(i))))
        }),
        Kind::Select => Tensor::build(out.clone(), |i| {
            let chosen = if a[0].broadcast_at(i) != 0.0 { a[1] } else { a[2] };
            chosen.broadcast_at(i)
        }),
        Kind::Unary(kind) => a[0].map(|v| unary(*kind, v)),
        Kind::Scale(factor) => a[0].map(|v| v * factor),
        Kind::Reduce { kind, dims, keepdim } => reduce(*kind, a[0], dims, *keepdim),
        Kind::Softmax { axis } => {
            let axis = axis.rem_euclid(a[0].shape.len() as i64) as usize;
            along(a[0], axis, softmax_row)
        }
        Kind::LayerNorm { begin, epsilon } => return layer_norm(a[0], a[1], a[2], *begin, f64::from(*epsilon)),
        Kind::TopK { k } => return top_k(a[0], *k),
        Kind::Attention { scale, causal, balance } => return attention(a[0], a[1], a[2], (*scale, *causal, *balance)),
        Kind::RmsNorm { begin, epsilon } => return rms_norm(a[0], a[1], *begin, f64::from(*epsilon)),
        Kind::Matmul { tx, ty } => matmul(a[0], a[1], *tx, *ty, out),
        Kind::Transpose { perm } => Tensor::build(out.clone(), |i| {
            let mut from = vec![0; i.len()];
            for (d, &p) in perm.iter().enumerate() {
                from[p] = i[d];
            }
            a[0].at(&from)
        }),
        Kind::Reshape => Tensor::new(out.clone(), a[0].data.clone()),
        Kind::Cumsum { dim, reverse } => Tensor::build(out.clone(), |i| {
            let n = out[*dim];
            let range = if *reverse { i[*dim]..n } else { 0..i[*dim] + 1 };
            range
                .map(|k| {
                    let mut at = i.to_vec();
                    at[*dim] = k;
                    a[0].at(&at)
                })
                .sum()
        }),
        Kind::Slice { offsets, .. } => Tensor::build(out.clone(), |i| {
            let from: Vec<usize> = i.iter().zip(offsets).map(|(i, o)| i + o).collect();
            a[0].at(&from)
        }),
        Kind::Concat { dim } => Tensor::build(out.clone(), |i| {
            let mut i = i.to_vec();
            for part in a {
                if i[*dim] < part.shape[*dim] {
                    return part.at(&i);
                }
                i[*dim] -= part.shape[*dim];
            }
            unreachable!("the parts fill the dim")
        }),
        Kind::CausalMask => Tensor::build(out.clone(), |i| {
            let r = i.len();
            if i[r - 1] > i[r - 2] {
                f64::NEG_INFINITY
            } else {
                a[0].at(i)
            }
        }),
        Kind::TakeAlong => take_along(a[0], a[1]),
        Kind::CrossEntropy { ignore_index } => {
            let logits = a[0];
            let axis = logits.shape.len() - 1;
            let lse = along(logits, axis, |row| {
                let max = row.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                let lse = row.iter().map(|v| (v - max).exp()).sum::<f64>().ln() + max;
                vec![lse; row.len()]
            });
            let picked = take_along(logits, a[1]);
            let counted = |t: usize| ignore_index.is_none_or(|ignored| a[1].data[t] != ignored as f64);
            let positions = (0..picked.data.len()).filter(|&t| counted(t)).count();
            let total: f64 = picked
                .data
                .iter()
                .enumerate()
                .filter(|&(t, _)| counted(t))
                .map(|(t, p)| lse.data[t * logits.shape[axis]] - p)
                .sum();
            Tensor::new(Vec::new(), vec![total / positions as f64])
        }
        Kind::Constant(value) => Tensor::new(out.clone(), vec![*value; out.iter().product()]),
        Kind::Embedding => {
            let (ids, table) = (a[0], a[1]);
            Tensor::build(out.clone(), |i| {
                let r = i.len();
                let id = ids.at(&i[..r - 1]);
                if id >= 0.0 && (id as usize) < table.shape[0] {
                    table.at(&[id as usize, i[r - 1]])
                } else {
                    0.0
                }
            })
        }
    };
    vec![one]
}

/// Where the reference is not differentiable at `inputs`: the smallest
/// nonzero gap, relative to the values' size, between the two sides of a
/// kink (relu's input and 0, the operands of maximum and minimum, the
/// largest and the next element of a maximum). An exact 0 is a tie of
/// equal values (`maximum(v, v)`, the maximum of a broadcast copy), where
/// the function is smooth; a small nonzero gap means the finite
/// differences, or the float32 program, may fall on either side.
pub fn kink_margin(program: &Program, inputs: &[Tensor]) -> f64 {
    let values = evaluate(program, inputs);
    let get = |v: Ref| -> &Tensor {
        match v {
            Ref::Arg(i) => &inputs[i],
            Ref::Op(i, k) => &values[i][k],
        }
    };
    let mut margin = f64::INFINITY;
    // A value exactly at a kink is one that does not move (`relu(x - x)`),
    // except at a step: there the rounding of a value that should not move
    // (a running sum of a softmax, 1) crosses it.
    let mut gap_at = |a: f64, b: f64, step: bool| {
        let d = (a - b).abs();
        if d > 0.0 || step {
            margin = margin.min(d / a.abs().max(b.abs()).max(1.0));
        }
    };
    for (index, op) in program.ops.iter().enumerate() {
        match &op.kind {
            // A normalization of a group with (next to) no variance is
            // epsilon's: float32's rounding of x - mean, amplified by
            // 1/sqrt(epsilon), is all the gradient holds where it cancels
            // to 0 (a layer norm of a broadcast value). Its share of the
            // normalizer, var / (var + epsilon), is the margin.
            Kind::LayerNorm { epsilon, .. } | Kind::RmsNorm { epsilon, .. } => {
                let rstd = values[index].last().expect("a normalization's rstd");
                for &r in &rstd.data {
                    gap_at(1.0 - f64::from(*epsilon) * r * r, 0.0, true);
                }
            }
            Kind::Unary(Unary::Relu | Unary::Abs) => {
                get(op.operands[0]).data.iter().for_each(|&v| gap_at(v, 0.0, false))
            }
            // The steps: 0 of sign, the integers of floor and ceil, the
            // half-integers of round.
            Kind::Unary(Unary::Sign) => get(op.operands[0]).data.iter().for_each(|&v| gap_at(v, 0.0, true)),
            Kind::Unary(Unary::Floor | Unary::Ceil) => get(op.operands[0])
                .data
                .iter()
                .for_each(|&v| gap_at(v, v.round(), true)),
            Kind::Unary(Unary::Round) => get(op.operands[0])
                .data
                .iter()
                .for_each(|&v| gap_at(v, v.floor() + 0.5, true)),
            // The remainder steps where x / y crosses an integer. Only a
            // value divided by itself stays on the step in every precision
            // (`rem(x, x)` is 0); another hit is a float64 rounding that
            // float32 may miss (`rem(a, sqrt(a) * sqrt(a))`).
            Kind::Binary(Binary::Rem) => {
                let (x, y) = (get(op.operands[0]), get(op.operands[1]));
                let itself = op.operands[0] == op.operands[1];
                for i in indices(&op.results[0]) {
                    let q = x.broadcast_at(&i) / y.broadcast_at(&i);
                    gap_at(q, q.round(), !itself);
                }
            }
            Kind::Binary(Binary::Maximum | Binary::Minimum) | Kind::Compare(_) => {
                let (x, y) = (get(op.operands[0]), get(op.operands[1]));
                for i in indices(&op.results[0]) {
                    gap_at(x.broadcast_at(&i), y.broadcast_at(&i), false);
                }
            }
            Kind::Reduce {
                kind: kind @ (Reduction::Max | Reduction::Min),
                dims,
                keepdim,
            } => {
                let x = get(op.operands[0]);
                let chosen = reduce(*kind, x, dims, *keepdim);
                // The gap between the chosen value and each other element
                // of its group: the next one decides the margin.
                let out = &chosen.shape;
                for i in indices(&x.shape) {
                    let o: Vec<usize> = (0..i.len())
                        .filter_map(|d| match (dims.contains(&d), *keepdim) {
                            (false, _) => Some(i[d]),
                            (true, true) => Some(0),
                            (true, false) => None,
                        })
                        .collect();
                    debug_assert_eq!(o.len(), out.len());
                    gap_at(x.at(&i), chosen.at(&o), false);
                }
            }
            _ => {}
        }
    }
    margin
}

/// The loss's gradient with respect to argument `arg` by central
/// differences, each element stepped by `1e-6` of its size (at least
/// `1e-6`).
pub fn finite_difference(program: &Program, inputs: &[Tensor], arg: usize) -> Tensor {
    let mut stepped = inputs.to_vec();
    let mut gradient = inputs[arg].clone();
    for k in 0..inputs[arg].data.len() {
        let v = inputs[arg].data[k];
        let h = 1e-6 * v.abs().max(1.0);
        stepped[arg].data[k] = v + h;
        let up = loss(program, &stepped);
        stepped[arg].data[k] = v - h;
        let down = loss(program, &stepped);
        stepped[arg].data[k] = v;
        gradient.data[k] = (up - down) / (2.0 * h);
    }
    gradient
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gradcheck::program::{Arg, Data, Element};

    fn t(shape: &[usize], data: &[f64]) -> Tensor {
        Tensor::new(shape.to_vec(), data.to_vec())
    }

    #[test]
    fn broadcasting_aligns_trailing_dims() {
        let x = t(&[2, 3], &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        let y = t(&[2, 1], &[10.0, 20.0]);
        assert_eq!(binary(Binary::Add, &x, &y).data, [11.0, 12.0, 13.0, 24.0, 25.0, 26.0]);
        let z = t(&[3], &[1.0, 0.0, -1.0]);
        assert_eq!(binary(Binary::Mul, &x, &z).data, [1.0, 0.0, -3.0, 4.0, 0.0, -6.0]);
    }

    #[test]
    fn attention_weighs_the_keys_a_query_sees() {
        // One feature, q = k = 1: equal scores, so each query averages the
        // values it sees: causal, the first i + 1; balanced for 2 shards
        // (chunks of 1, positions 0, 3, 1, 2), those of positions up to its
        // own.
        let ones = t(&[4, 1], &[1.0; 4]);
        let v = t(&[4, 1], &[1.0, 2.0, 4.0, 8.0]);
        let causal = attention(&ones, &ones, &v, (1.0, true, None));
        assert_eq!(causal[0].data, [1.0, 1.5, 7.0 / 3.0, 3.75]);
        assert_eq!(causal[1].data, [1.0, 2.0, 3.0, 4.0].map(|n: f64| 1.0 + n.ln()));
        let order: Vec<usize> = (0..4).map(|i| balanced_position(i, 4, 2)).collect();
        assert_eq!(order, [0, 3, 1, 2]);
        let balanced = attention(&ones, &ones, &v, (1.0, true, Some(2)));
        assert_eq!(balanced[0].data, [1.0, 3.75, 2.5, 13.0 / 3.0]);
        let full = attention(&ones, &ones, &v, (1.0, false, None));
        assert_eq!(full[0].data, [3.75; 4]);
    }

    #[test]
    fn reductions_keep_or_drop_dims() {
        let x = t(&[2, 3], &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        assert_eq!(reduce(Reduction::Sum, &x, &[1], false).data, [6.0, 15.0]);
        let mean = reduce(Reduction::Mean, &x, &[0], true);
        assert_eq!(
            (mean.shape.as_slice(), mean.data.as_slice()),
            (&[1, 3][..], &[2.5, 3.5, 4.5][..])
        );
        assert_eq!(reduce(Reduction::Max, &x, &[0, 1], false).data, [6.0]);
    }

    #[test]
    fn matmul_transposes_and_broadcasts_batches() {
        let x = t(&[2, 2], &[1.0, 2.0, 3.0, 4.0]);
        let y = t(&[1, 2, 1], &[1.0, 1.0]);
        assert_eq!(matmul(&x, &y, false, false, &[1, 2, 1]).data, [3.0, 7.0]);
        assert_eq!(matmul(&x, &y, true, false, &[1, 2, 1]).data, [4.0, 6.0]);
    }

    #[test]
    fn finite_differences_of_a_mean_of_a_broadcast_sum() {
        // The reported program: d/dh mean_i((t_i + mean_j h_ij) * u_i) = u_i / (I * J).
        let program = Program {
            mesh: Vec::new(),
            args: ["h", "t", "u"]
                .iter()
                .zip([vec![2, 3], vec![2], vec![2]])
                .map(|(n, shape)| Arg {
                    name: (*n).into(),
                    shape,
                    element: Element::F32,
                    grad: *n == "h",
                    sharding: None,
                    data: Data::Uniform(-1.0, 1.0),
                })
                .collect(),
            ops: vec![
                Op {
                    kind: Kind::Reduce {
                        kind: Reduction::Mean,
                        dims: vec![1],
                        keepdim: false,
                    },
                    operands: vec![Ref::Arg(0)],
                    results: vec![vec![2]],
                },
                Op {
                    kind: Kind::Binary(Binary::Add),
                    operands: vec![Ref::Arg(1), Ref::Op(0, 0)],
                    results: vec![vec![2]],
                },
                Op {
                    kind: Kind::Binary(Binary::Mul),
                    operands: vec![Ref::Op(1, 0), Ref::Arg(2)],
                    results: vec![vec![2]],
                },
                Op {
                    kind: Kind::Reduce {
                        kind: Reduction::Mean,
                        dims: vec![0],
                        keepdim: false,
                    },
                    operands: vec![Ref::Op(2, 0)],
                    results: vec![vec![]],
                },
            ],
            loss: Ref::Op(3, 0),
        };
        let inputs = [
            t(&[2, 3], &[0.1, 0.2, 0.3, 0.4, 0.5, 0.6]),
            t(&[2], &[1.0, 2.0]),
            t(&[2], &[3.0, -6.0]),
        ];
        let g = finite_difference(&program, &inputs, 0);
        for (k, v) in g.data.iter().enumerate() {
            let expected = [3.0, -6.0][k / 3] / 6.0;
            assert!((v - expected).abs() < 1e-8, "{k}: {v} against {expected}");
        }
        assert_eq!(kink_margin(&program, &inputs), f64::INFINITY);
    }

    #[test]
    fn softmax_and_layer_norm_by_their_definitions() {
        let s = along(&t(&[1, 2], &[0.0, f64::ln(3.0)]), 1, softmax_row);
        assert!((s.data[0] - 0.25).abs() < 1e-15 && (s.data[1] - 0.75).abs() < 1e-15);
        let ln = layer_norm(
            &t(&[1, 2], &[1.0, 3.0]),
            &t(&[2], &[1.0, 2.0]),
            &t(&[2], &[0.0, 1.0]),
            1,
            0.0,
        );
        assert_eq!(ln[0].data, [-1.0, 3.0]);
        assert_eq!((ln[1].data[0], ln[2].data[0]), (2.0, 1.0));
    }

    #[test]
    fn a_layer_norm_of_a_constant_row_is_no_smooth_input() {
        // Its gradient cancels to 0 through terms of 1/sqrt(epsilon):
        // float32 cannot resolve it, so such inputs are not drawn.
        let program = Program {
            mesh: Vec::new(),
            args: ["x", "g", "b"]
                .iter()
                .zip([vec![1, 3], vec![3], vec![3]])
                .map(|(n, shape)| Arg {
                    name: (*n).into(),
                    shape,
                    element: Element::F32,
                    grad: *n == "x",
                    sharding: None,
                    data: Data::Uniform(-1.0, 1.0),
                })
                .collect(),
            ops: vec![Op {
                kind: Kind::LayerNorm {
                    begin: 1,
                    epsilon: 1e-5,
                },
                operands: vec![Ref::Arg(0), Ref::Arg(1), Ref::Arg(2)],
                results: vec![vec![1, 3], vec![1], vec![1]],
            }],
            loss: Ref::Op(0, 0),
        };
        let (scale, bias) = (t(&[3], &[1.0, 2.0, 3.0]), t(&[3], &[0.0; 3]));
        let constant = [t(&[1, 3], &[0.5; 3]), scale.clone(), bias.clone()];
        assert!(kink_margin(&program, &constant) < 1e-12);
        let varied = [t(&[1, 3], &[0.5, -1.0, 2.0]), scale, bias];
        assert!(kink_margin(&program, &varied) > 0.99);
    }
}
