//! The matmuls, reshapes and reductions that compute the gradients of a
//! `dist.matmul_grad`, from shapes alone. Pure Rust.
//!
//! With `X = tx ? x^T : x` and `Y = ty ? y^T : y` (last two dims), the
//! forward op is `out = X . Y`, so `dX = dout . Y^T` and `dY = X^T . dout`;
//! undoing the operand's own transpose gives, as `matmul(a, b, ta, tb)`:
//!
//! | tx, ty | dx                         | dy                         |
//! |--------|----------------------------|----------------------------|
//! | F, F   | `matmul(dout, y, F, T)`    | `matmul(x, dout, T, F)`    |
//! | F, T   | `matmul(dout, y, F, F)`    | `matmul(dout, x, T, F)`    |
//! | T, F   | `matmul(y, dout, F, T)`    | `matmul(x, dout, F, F)`    |
//! | T, T   | `matmul(y, dout, T, T)`    | `matmul(dout, x, T, T)`    |
//!
//! Each product has the batch dims of `dout`; where the operand broadcast
//! (fewer batch dims, or size-1 ones) they are summed away and the result
//! reshaped to the operand's shape. Folding (FoldInitDims): when both
//! factors are batched and contract their row dim (`ta && !tb`) and the
//! operand has no batch (a 2-D weight), `[b..., r, c] -> [b*r, c]` on both
//! turns the batched product plus its sum into one GEMM; when only the
//! untransposed left factor is batched, folding it makes the product one
//! GEMM whose `[b*r, c]` result is reshaped back.

mod operands;

pub use operands::GradOperands;

use dist_dialect::DistOp;

/// What a step reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Input {
    X,
    Y,
    Dout,
    /// The result of an earlier step.
    Step(usize),
}

/// One op of the split.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    Matmul {
        x: Input,
        y: Input,
        transpose_x: bool,
        transpose_y: bool,
    },
    Reshape(Input),
    /// Sums `dims` away (no keepdim).
    ReduceSum {
        input: Input,
        dims: Vec<i64>,
    },
}

/// A step and the shape of its result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Planned {
    pub step: Step,
    pub shape: Vec<i64>,
}

/// The steps of a split, dx's first, and which step yields each gradient.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Split {
    pub steps: Vec<Planned>,
    pub dx: Option<usize>,
    pub dy: Option<usize>,
}

/// The operands of a matmul_grad, as shapes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Operands<'s> {
    pub x: &'s [i64],
    pub y: &'s [i64],
    pub dout: &'s [i64],
    pub transpose_x: bool,
    pub transpose_y: bool,
}

impl<'s> Operands<'s> {
    /// A matmul_grad's operands without transposes.
    #[cfg(test)]
    pub fn plain(x: &'s [i64], y: &'s [i64], dout: &'s [i64]) -> Self {
        Operands {
            x,
            y,
            dout,
            transpose_x: false,
            transpose_y: false,
        }
    }

    /// The shape of `input` (a step's as planned).
    pub fn shape(&self, input: Input, steps: &[Planned]) -> Vec<i64> {
        match input {
            Input::X => self.x.to_vec(),
            Input::Y => self.y.to_vec(),
            Input::Dout => self.dout.to_vec(),
            Input::Step(i) => steps[i].shape.clone(),
        }
    }
}

/// The product computing one gradient: `(a, b, ta, tb)`.
fn product(wrt_x: bool, tx: bool, ty: bool) -> (Input, Input, bool, bool) {
    use Input::{Dout, X, Y};
    match (wrt_x, tx, ty) {
        (true, false, false) => (Dout, Y, false, true),
        (true, false, true) => (Dout, Y, false, false),
        (true, true, false) => (Y, Dout, false, true),
        (true, true, true) => (Y, Dout, true, true),
        (false, false, false) => (X, Dout, true, false),
        (false, false, true) => (Dout, X, true, false),
        (false, true, false) => (X, Dout, false, false),
        (false, true, true) => (Dout, X, true, true),
    }
}

/// `shape` with its leading dims folded into the second-to-last:
/// `[b..., r, c] -> [b*r, c]`.
fn folded(shape: &[i64]) -> Vec<i64> {
    let rank = shape.len();
    vec![shape[..rank - 1].iter().product(), shape[rank - 1]]
}

/// The shape `matmul(a, b, ta, tb)` produces (operands of rank >= 2,
/// batch dims broadcast NumPy-style).
pub fn matmul_shape(a: &[i64], b: &[i64], ta: bool, tb: bool) -> Vec<i64> {
    let (ra, rb) = (a.len(), b.len());
    let rows = if ta { a[ra - 1] } else { a[ra - 2] };
    let cols = if tb { b[rb - 2] } else { b[rb - 1] };
    let (ba, bb) = (&a[..ra - 2], &b[..rb - 2]);
    let batch = ba.len().max(bb.len());
    let dim = |s: &[i64], i: usize| {
        let pad = batch - s.len();
        if i < pad { 1 } else { s[i - pad] }
    };
    let mut shape: Vec<i64> = (0..batch).map(|i| dim(ba, i).max(dim(bb, i))).collect();
    shape.extend([rows, cols]);
    shape
}

struct Builder<'o, 's> {
    operands: &'o Operands<'s>,
    steps: Vec<Planned>,
}

impl Builder<'_, '_> {
    fn push(&mut self, step: Step) -> Input {
        let shape = match &step {
            Step::Matmul {
                x,
                y,
                transpose_x,
                transpose_y,
            } => matmul_shape(&self.shape(*x), &self.shape(*y), *transpose_x, *transpose_y),
            Step::Reshape(_) => unreachable!("reshapes are pushed with their shape"),
            Step::ReduceSum { input, dims } => {
                let shape = self.shape(*input);
                (0..shape.len())
                    .filter(|d| !dims.contains(&(*d as i64)))
                    .map(|d| shape[d])
                    .collect()
            }
        };
        self.push_shaped(step, shape)
    }

    fn push_shaped(&mut self, step: Step, shape: Vec<i64>) -> Input {
        self.steps.push(Planned { step, shape });
        Input::Step(self.steps.len() - 1)
    }

    fn shape(&self, input: Input) -> Vec<i64> {
        self.operands.shape(input, &self.steps)
    }

    fn reshape(&mut self, input: Input, shape: Vec<i64>) -> Input {
        if self.shape(input) == shape {
            return input;
        }
        // dx and dy fold dout alike: one reshape serves both.
        let same = |p: &Planned| p.step == Step::Reshape(input) && p.shape == shape;
        if let Some(i) = self.steps.iter().position(same) {
            return Input::Step(i);
        }
        self.push_shaped(Step::Reshape(input), shape)
    }

    /// The gradient of `x` (`wrt_x`) or `y`, of shape `target`.
    fn gradient(&mut self, wrt_x: bool, target: &[i64], fold: bool) -> Input {
        let o = self.operands;
        let (a, b, ta, tb) = product(wrt_x, o.transpose_x, o.transpose_y);
        let (sa, sb) = (self.shape(a), self.shape(b));
        let rank = target.len();
        let target_batch: i64 = target[..rank - 2].iter().product();
        let matmul = |x, y| Step::Matmul {
            x,
            y,
            transpose_x: ta,
            transpose_y: tb,
        };
        if fold
            && ta
            && !tb
            && sa.len() > 2
            && sb.len() > 2
            && sa[..sa.len() - 2] == sb[..sb.len() - 2]
            && target_batch == 1
        {
            // Both contract their (batch-extended) row dim: one GEMM.
            let (fa, fb) = (self.reshape(a, folded(&sa)), self.reshape(b, folded(&sb)));
            let product = self.push(matmul(fa, fb));
            return self.reshape(product, target.to_vec());
        }
        let full = matmul_shape(&sa, &sb, ta, tb);
        if fold && !ta && sa.len() > 2 && sb.len() == 2 && full == target {
            // Only the left factor is batched: fold it and reshape back.
            let fa = self.reshape(a, folded(&sa));
            let product = self.push(matmul(fa, b));
            return self.reshape(product, target.to_vec());
        }
        let product = self.push(matmul(a, b));
        // Sum the dims the operand broadcast along: the leading ones it
        // lacks and its size-1 batch dims that the product has wider.
        let extra = full.len() - rank;
        let summed: Vec<i64> = (0..full.len() - 2)
            .filter(|&d| d < extra || (target[d - extra] == 1 && full[d] != 1))
            .map(|d| d as i64)
            .collect();
        let reduced = if summed.is_empty() {
            product
        } else {
            self.push(Step::ReduceSum {
                input: product,
                dims: summed,
            })
        };
        self.reshape(reduced, target.to_vec())
    }
}

/// The steps computing the wanted gradients; `fold` allows folding the
/// leading dims into GEMMs.
pub fn split(operands: &Operands<'_>, want_dx: bool, want_dy: bool, fold: bool) -> Split {
    let mut builder = Builder {
        operands,
        steps: Vec::new(),
    };
    let mut gradient = |wrt_x: bool, target: &[i64]| match builder.gradient(wrt_x, target, fold) {
        Input::Step(i) => i,
        // Every gradient ends in a matmul or a reshape of one.
        _ => unreachable!("a gradient is computed"),
    };
    let dx = want_dx.then(|| gradient(true, operands.x));
    let dy = want_dy.then(|| gradient(false, operands.y));
    Split {
        steps: builder.steps,
        dx,
        dy,
    }
}

/// The op a step becomes.
pub fn step_name(step: &Step) -> &'static str {
    match step {
        Step::Matmul { .. } => DistOp::Matmul.name(),
        Step::Reshape(_) => DistOp::Reshape.name(),
        Step::ReduceSum { .. } => DistOp::ReduceSum.name(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A dense row-major tensor for checking the algebra.
    #[derive(Debug, Clone, PartialEq)]
    struct Tensor {
        shape: Vec<i64>,
        data: Vec<f64>,
    }

    fn strides(shape: &[i64]) -> Vec<usize> {
        let mut s = vec![1; shape.len()];
        for d in (0..shape.len().saturating_sub(1)).rev() {
            s[d] = s[d + 1] * shape[d + 1] as usize;
        }
        s
    }

    fn index_of(shape: &[i64], mut flat: usize) -> Vec<usize> {
        let mut idx = vec![0; shape.len()];
        for d in (0..shape.len()).rev() {
            idx[d] = flat % shape[d] as usize;
            flat /= shape[d] as usize;
        }
        idx
    }

    fn tensor(shape: &[i64], seed: u64) -> Tensor {
        let n: i64 = shape.iter().product();
        let mut state = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let data = (0..n)
            .map(|_| {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((state >> 33) % 17) as f64 - 8.0
            })
            .collect();
        Tensor {
            shape: shape.to_vec(),
            data,
        }
    }

    /// Where element `(batch..., i, j)` of `t` is, with broadcasting of the
    /// batch.
    fn flat_index(t: &Tensor, batch: &[usize], i: usize, j: usize, transposed: bool) -> usize {
        let rank = t.shape.len();
        let (i, j) = if transposed { (j, i) } else { (i, j) };
        let pad = batch.len() - (rank - 2);
        let st = strides(&t.shape);
        let mut flat = i * st[rank - 2] + j * st[rank - 1];
        for d in 0..rank - 2 {
            flat += if t.shape[d] == 1 { 0 } else { batch[d + pad] } * st[d];
        }
        flat
    }

    fn at(t: &Tensor, batch: &[usize], i: usize, j: usize, transposed: bool) -> f64 {
        t.data[flat_index(t, batch, i, j, transposed)]
    }

    fn matmul(a: &Tensor, b: &Tensor, ta: bool, tb: bool) -> Tensor {
        let shape = matmul_shape(&a.shape, &b.shape, ta, tb);
        let r = shape.len();
        let k = if ta {
            a.shape[a.shape.len() - 2]
        } else {
            a.shape[a.shape.len() - 1]
        } as usize;
        let n: i64 = shape.iter().product();
        let data = (0..n as usize)
            .map(|flat| {
                let idx = index_of(&shape, flat);
                let (batch, i, j) = (&idx[..r - 2], idx[r - 2], idx[r - 1]);
                (0..k).map(|l| at(a, batch, i, l, ta) * at(b, batch, l, j, tb)).sum()
            })
            .collect();
        Tensor { shape, data }
    }

    fn reduce_sum(t: &Tensor, dims: &[i64], shape: &[i64]) -> Tensor {
        let mut data = vec![0.0; shape.iter().product::<i64>() as usize];
        let st = strides(shape);
        for (flat, v) in t.data.iter().enumerate() {
            let idx = index_of(&t.shape, flat);
            let kept = (0..idx.len()).filter(|d| !dims.contains(&(*d as i64)));
            let out: usize = kept.zip(&st).map(|(d, s)| idx[d] * s).sum();
            data[out] += v;
        }
        Tensor {
            shape: shape.to_vec(),
            data,
        }
    }

    /// The gradients by definition: `dX = dout . Y^T` and `dY = X^T . dout`
    /// element by element, summed over the dims each operand broadcast.
    fn reference(x: &Tensor, y: &Tensor, dout: &Tensor, tx: bool, ty: bool) -> (Tensor, Tensor) {
        let out = &dout.shape;
        let r = out.len();
        let (m, n) = (out[r - 2] as usize, out[r - 1] as usize);
        let k = if tx {
            x.shape[x.shape.len() - 2]
        } else {
            x.shape[x.shape.len() - 1]
        } as usize;
        let mut dx = vec![0.0; x.data.len()];
        let mut dy = vec![0.0; y.data.len()];
        let batches: i64 = out[..r - 2].iter().product();
        for b in 0..batches as usize {
            let batch = index_of(&out[..r - 2], b);
            for i in 0..m {
                for j in 0..n {
                    let g = at(dout, &batch, i, j, false);
                    for l in 0..k {
                        dx[flat_index(x, &batch, i, l, tx)] += g * at(y, &batch, l, j, ty);
                        dy[flat_index(y, &batch, l, j, ty)] += g * at(x, &batch, i, l, tx);
                    }
                }
            }
        }
        (
            Tensor {
                shape: x.shape.clone(),
                data: dx,
            },
            Tensor {
                shape: y.shape.clone(),
                data: dy,
            },
        )
    }

    fn run(split: &Split, x: &Tensor, y: &Tensor, dout: &Tensor) -> Vec<Tensor> {
        let mut values: Vec<Tensor> = Vec::new();
        for planned in &split.steps {
            let get = |i: &Input| match *i {
                Input::X => x.clone(),
                Input::Y => y.clone(),
                Input::Dout => dout.clone(),
                Input::Step(s) => values[s].clone(),
            };
            let value = match &planned.step {
                Step::Matmul {
                    x,
                    y,
                    transpose_x,
                    transpose_y,
                } => matmul(&get(x), &get(y), *transpose_x, *transpose_y),
                Step::Reshape(input) => Tensor {
                    shape: planned.shape.clone(),
                    data: get(input).data,
                },
                Step::ReduceSum { input, dims } => reduce_sum(&get(input), dims, &planned.shape),
            };
            assert_eq!(value.shape, planned.shape, "{planned:?}");
            values.push(value);
        }
        values
    }

    fn transposed(shape: &[i64], t: bool) -> Vec<i64> {
        let mut s = shape.to_vec();
        if t {
            let r = s.len();
            s.swap(r - 1, r - 2);
        }
        s
    }

    /// Every transpose combination, ranks 2-4, batched and broadcast
    /// operands: the split computes what the definition does.
    #[test]
    fn split_matches_the_definition() {
        let cases: &[(&[i64], &[i64])] = &[
            (&[3, 4], &[4, 5]),
            (&[2, 3, 4], &[4, 5]),
            (&[2, 2, 3, 4], &[4, 5]),
            (&[3, 4], &[2, 4, 5]),
            (&[2, 3, 4], &[2, 4, 5]),
            (&[2, 3, 4], &[1, 4, 5]),
            (&[1, 3, 4], &[2, 4, 5]),
            (&[2, 2, 3, 4], &[2, 4, 5]),
            (&[2, 1, 3, 4], &[1, 2, 4, 5]),
        ];
        let mut checked = 0;
        for &(xs, ys) in cases {
            for (tx, ty) in [(false, false), (false, true), (true, false), (true, true)] {
                let (xs, ys) = (transposed(xs, tx), transposed(ys, ty));
                let x = tensor(&xs, 1);
                let y = tensor(&ys, 2);
                let out = matmul_shape(&xs, &ys, tx, ty);
                let dout = tensor(&out, 3);
                let (dx, dy) = reference(&x, &y, &dout, tx, ty);
                for fold in [true, false] {
                    let operands = Operands {
                        x: &xs,
                        y: &ys,
                        dout: &out,
                        transpose_x: tx,
                        transpose_y: ty,
                    };
                    let s = split(&operands, true, true, fold);
                    let values = run(&s, &x, &y, &dout);
                    let case = format!("x {xs:?} y {ys:?} tx {tx} ty {ty} fold {fold}: {s:#?}");
                    assert_eq!(values[s.dx.unwrap()], dx, "{case}");
                    assert_eq!(values[s.dy.unwrap()], dy, "{case}");
                    checked += 1;
                }
            }
        }
        assert_eq!(checked, 72);
    }

    #[test]
    fn a_two_d_weight_gradient_is_one_gemm_over_folded_dims() {
        let operands = Operands::plain(&[4, 8, 16], &[16, 32], &[4, 8, 32]);
        let s = split(&operands, true, true, true);
        let shapes: Vec<&[i64]> = s.steps.iter().map(|p| &p.shape[..]).collect();
        // dout folded, dx GEMM, reshaped back; x folded, dW GEMM reading
        // the same folded dout.
        assert_eq!(shapes, [&[32, 32][..], &[32, 16], &[4, 8, 16], &[32, 16], &[16, 32]]);
        assert_eq!(
            s.steps[4].step,
            Step::Matmul {
                x: Input::Step(3),
                y: Input::Step(0),
                transpose_x: true,
                transpose_y: false
            }
        );
        assert!(s.steps.iter().all(|p| !matches!(p.step, Step::ReduceSum { .. })));
        assert_eq!((s.dx, s.dy), (Some(2), Some(4)));
        // Unfolded, dW is a batched product summed over the batch.
        let s = split(&operands, false, true, false);
        assert_eq!(
            s.steps[1].step,
            Step::ReduceSum {
                input: Input::Step(0),
                dims: vec![0]
            }
        );
    }

    #[test]
    fn only_wanted_gradients_are_computed() {
        let operands = Operands::plain(&[8, 16], &[16, 32], &[8, 32]);
        let s = split(&operands, false, true, true);
        assert_eq!(s.steps.len(), 1);
        assert_eq!((s.dx, s.dy), (None, Some(0)));
    }
}
