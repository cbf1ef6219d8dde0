//! Random well-typed forward programs from the table of differentiable
//! ops: chains and diamonds of elementwise ops with every broadcast the
//! verifiers allow, reductions feeding broadcasts, softmax, norms, matmuls
//! (with transposes and batch broadcasting), shape ops, lookups and the
//! cross-entropy, each value's range tracked so that every op stays in its
//! domain (a logarithm of a positive value, nothing that overflows) and
//! the reference stays well conditioned.

use super::program::{Binary, Data, Kind, Program, Reduction, Ref, Unary, broadcast_shape};
use crate::fuzz::mutate::Rng;
use dist_dialect::CompareDirection;

/// Whether shapes `a` and `b` broadcast together (NumPy's rule).
fn broadcasts(a: &[usize], b: &[usize]) -> bool {
    let n = a.len().min(b.len());
    a[a.len() - n..]
        .iter()
        .zip(&b[b.len() - n..])
        .all(|(&x, &y)| x == y || x == 1 || y == 1)
}

/// A closed interval holding every element of a value.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Range {
    lo: f64,
    hi: f64,
}

impl Range {
    fn of(values: impl IntoIterator<Item = f64>) -> Range {
        let (lo, hi) = values
            .into_iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)));
        Range { lo, hi }
    }

    fn magnitude(self) -> f64 {
        self.lo.abs().max(self.hi.abs())
    }

    fn positive(self) -> bool {
        self.lo >= 0.25
    }

    /// The image of a monotone (increasing) function.
    fn increasing(self, f: impl Fn(f64) -> f64) -> Range {
        Range {
            lo: f(self.lo),
            hi: f(self.hi),
        }
    }
}

/// The largest magnitude a value may reach.
const BOUND: f64 = 50.0;
/// The most elements of one value.
const MAX_ELEMENTS: usize = 72;
/// The mesh of the sharded programs.
pub const MESH: [(&str, usize); 2] = [("a", 2), ("b", 2)];

struct Generator<'r> {
    rng: &'r mut Rng,
    program: Program,
    /// Each float value's range, by value.
    ranges: Vec<(Ref, Range)>,
    /// Values with -inf entries (a causal mask's): only a softmax over the
    /// last dim reads them.
    masked: Vec<Ref>,
}

impl Generator<'_> {
    fn chance(&mut self, percent: usize) -> bool {
        self.rng.below(100) < percent
    }

    fn range(&self, v: Ref) -> Range {
        self.ranges
            .iter()
            .find(|(r, _)| *r == v)
            .map(|(_, r)| *r)
            .expect("a float value")
    }

    fn shape(&self, v: Ref) -> Vec<usize> {
        self.program.shape(v).to_vec()
    }

    fn random_shape(&mut self, rank: usize) -> Vec<usize> {
        (0..rank).map(|_| 1 + self.rng.below(5)).collect()
    }

    fn new_arg(&mut self, shape: &[usize], positive: bool) -> Ref {
        let (lo, hi) = if positive { (0.5, 2.0) } else { (-1.0, 1.0) };
        let grad = self.chance(70);
        let v = self.program.arg(shape, grad, Data::Uniform(lo, hi));
        self.ranges.push((v, Range { lo, hi }));
        v
    }

    /// A float value to read: the newest half the time (chains), any
    /// other otherwise (diamonds, reuse), among those `fits` accepts.
    fn pick(&mut self, fits: impl Fn(&Self, Ref) -> bool) -> Option<Ref> {
        let candidates: Vec<Ref> = self
            .ranges
            .iter()
            .map(|(v, _)| *v)
            .filter(|&v| !self.masked.contains(&v) && fits(self, v))
            .collect();
        let newest = *candidates.last()?;
        Some(if self.chance(50) {
            newest
        } else {
            *self.rng.pick(&candidates)
        })
    }

    fn add(&mut self, kind: Kind, operands: &[Ref], range: Range) -> Option<Ref> {
        let shapes: Vec<&[usize]> = operands.iter().map(|&v| self.program.shape(v)).collect();
        let results = super::program::result_shapes(&kind, &shapes);
        let fits = results.iter().all(|s| s.iter().product::<usize>() <= MAX_ELEMENTS);
        // (A NaN bound is out of bounds too.)
        let bounded = range.magnitude() <= BOUND;
        if !fits || !bounded {
            return None;
        }
        let v = self.program.push(kind, operands, results);
        self.ranges.push((v, range));
        Some(v)
    }

    /// A shape `x` broadcasts with: itself, a trailing part, size-1 dims,
    /// a scalar, or (as the larger side) `x` with a dim more.
    fn broadcast_partner(&mut self, x: &[usize]) -> Vec<usize> {
        match self.rng.below(6) {
            0 => x.to_vec(),
            1 => x[self.rng.below(x.len() + 1)..].to_vec(),
            2 => x.iter().map(|&d| if self.chance(50) { 1 } else { d }).collect(),
            3 => Vec::new(),
            4 => {
                let mut larger = vec![1 + self.rng.below(3)];
                larger.extend_from_slice(x);
                larger
            }
            _ => {
                let keep = self.rng.below(x.len() + 1);
                x[keep..].iter().map(|&d| if self.chance(50) { 1 } else { d }).collect()
            }
        }
    }

    fn binary(&mut self) -> Option<Ref> {
        let kind = *self.rng.pick(&[
            Binary::Add,
            Binary::Sub,
            Binary::Mul,
            Binary::Div,
            Binary::Maximum,
            Binary::Minimum,
            Binary::Pow,
            Binary::Rem,
        ]);
        // A power's base positive and its exponent small: x^y stays finite
        // and smooth, and its float32 rounding small.
        let power = kind == Binary::Pow;
        let base = |r: Range| r.positive() && r.hi <= 8.0;
        let exponent = |r: Range| r.lo >= -3.0 && r.hi <= 3.0;
        let x = match self.pick(|g, v| !power || base(g.range(v))) {
            Some(x) => x,
            None if power => {
                let rank = self.rng.below(3);
                let shape = self.random_shape(rank);
                self.new_arg(&shape, true)
            }
            None => return None,
        };
        let xs = self.shape(x);
        let compatible = |g: &Self, v: Ref| broadcasts(g.program.shape(v), &xs);
        let divisor = matches!(kind, Binary::Div | Binary::Rem);
        let y = match self.rng.below(3) {
            // The same value on both sides.
            0 if (!divisor || self.range(x).positive()) && (!power || exponent(self.range(x))) => x,
            1 => self.pick(|g, v| {
                compatible(g, v) && (!divisor || g.range(v).positive()) && (!power || exponent(g.range(v)))
            })?,
            _ => {
                let shape = self.broadcast_partner(&xs);
                self.new_arg(&shape, divisor)
            }
        };
        let (x, y) = if !divisor && !power && self.chance(50) {
            (y, x)
        } else {
            (x, y)
        };
        let (a, b) = (self.range(x), self.range(y));
        let range = match kind {
            Binary::Add => Range {
                lo: a.lo + b.lo,
                hi: a.hi + b.hi,
            },
            Binary::Sub => Range {
                lo: a.lo - b.hi,
                hi: a.hi - b.lo,
            },
            Binary::Mul => Range::of([a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi]),
            Binary::Div => Range::of([a.lo / b.lo, a.lo / b.hi, a.hi / b.lo, a.hi / b.hi]),
            Binary::Maximum => Range {
                lo: a.lo.max(b.lo),
                hi: a.hi.max(b.hi),
            },
            Binary::Minimum => Range {
                lo: a.lo.min(b.lo),
                hi: a.hi.min(b.hi),
            },
            // Of x's sign, smaller than x and than y in size.
            Binary::Rem => {
                let bound = b.lo.abs().max(b.hi.abs());
                Range {
                    lo: a.lo.min(0.0).max(-bound),
                    hi: a.hi.max(0.0).min(bound),
                }
            }
            // Bilinear in y and ln x: its extremes are at the corners.
            Binary::Pow => Range::of([a.lo.powf(b.lo), a.lo.powf(b.hi), a.hi.powf(b.lo), a.hi.powf(b.hi)]),
        };
        let shape = broadcast_shape(&self.shape(x), &self.shape(y));
        if shape.iter().product::<usize>() > MAX_ELEMENTS {
            return None;
        }
        self.add(Kind::Binary(kind), &[x, y], range)
    }

    /// A value that broadcasts with `shape`: one of the program's (or the
    /// newest) half the time, a new argument otherwise.
    fn partner(&mut self, shape: &[usize]) -> Option<Ref> {
        if self.chance(50)
            && let Some(v) = self.pick(|g, v| broadcasts(g.program.shape(v), shape))
        {
            return Some(v);
        }
        let partner = self.broadcast_partner(shape);
        Some(self.new_arg(&partner, false))
    }

    /// `where(a <direction> b, x, y)`: a comparison of two floats, which
    /// passes no gradient to them, choosing between two others.
    fn select(&mut self) -> Option<Ref> {
        let a = self.pick(|_, _| true)?;
        let a_shape = self.shape(a);
        let b = self.partner(&a_shape)?;
        let direction = *self.rng.pick(&CompareDirection::ALL);
        let pred_shape = broadcast_shape(&a_shape, &self.shape(b));
        let on_true = self.partner(&pred_shape)?;
        let choice_shape = broadcast_shape(&pred_shape, &self.shape(on_true));
        let on_false = self.partner(&choice_shape)?;
        let out = broadcast_shape(&choice_shape, &self.shape(on_false));
        if out.iter().product::<usize>() > MAX_ELEMENTS {
            return None;
        }
        let predicate = self.program.op(Kind::Compare(direction), &[a, b]);
        let (t, f) = (self.range(on_true), self.range(on_false));
        let range = Range {
            lo: t.lo.min(f.lo),
            hi: t.hi.max(f.hi),
        };
        self.add(Kind::Select, &[predicate, on_true, on_false], range)
    }

    fn unary(&mut self) -> Option<Ref> {
        use Unary::*;
        let kind = *self.rng.pick(&[
            Exp, Log, Sqrt, Rsqrt, Sigmoid, Silu, Tanh, Neg, Reciprocal, Relu, Gelu, GeluTanh, Abs, Square, Sin, Cos,
            Erf, Erfc, Log1p, Expm1, Atan, Sign, Floor, Ceil, Round,
        ]);
        let needs_positive = matches!(kind, Log | Sqrt | Rsqrt | Reciprocal);
        let x = match self.pick(|g, v| {
            let r = g.range(v);
            // A float32 argument of a period's function is off by its
            // rounding (1e-7 of it): a large one would measure float32, not
            // the compiler.
            let periodic = matches!(kind, Sin | Cos);
            (!needs_positive || r.positive())
                && (kind != Log1p || r.lo > -0.9)
                && (!matches!(kind, Exp | Expm1) || r.hi <= 3.0)
                && (!periodic || (r.lo >= -8.0 && r.hi <= 8.0))
        }) {
            Some(x) => x,
            None => {
                let rank = self.rng.below(3);
                let shape = self.random_shape(rank);
                self.new_arg(&shape, needs_positive || kind == Log1p)
            }
        };
        let r = self.range(x);
        let sigmoid = |v: f64| 1.0 / (1.0 + (-v).exp());
        let range = match kind {
            Exp => r.increasing(f64::exp),
            Log => r.increasing(f64::ln),
            Log1p => r.increasing(f64::ln_1p),
            Expm1 => r.increasing(f64::exp_m1),
            Atan => r.increasing(f64::atan),
            Sqrt => r.increasing(f64::sqrt),
            Rsqrt => Range {
                lo: 1.0 / r.hi.sqrt(),
                hi: 1.0 / r.lo.sqrt(),
            },
            Sigmoid => r.increasing(sigmoid),
            Tanh => r.increasing(f64::tanh),
            Neg => Range { lo: -r.hi, hi: -r.lo },
            Reciprocal => Range {
                lo: 1.0 / r.hi,
                hi: 1.0 / r.lo,
            },
            Relu => r.increasing(|v| v.max(0.0)),
            Abs | Square => {
                let (near, far) = if r.lo >= 0.0 {
                    (r.lo, r.hi)
                } else if r.hi <= 0.0 {
                    (-r.hi, -r.lo)
                } else {
                    (0.0, r.hi.max(-r.lo))
                };
                let power = if kind == Square { 2 } else { 1 };
                Range {
                    lo: near.powi(power),
                    hi: far.powi(power),
                }
            }
            Sin | Cos | Erf | Sign => Range { lo: -1.0, hi: 1.0 },
            Erfc => Range { lo: 0.0, hi: 2.0 },
            Floor => r.increasing(f64::floor),
            Ceil => r.increasing(f64::ceil),
            Round => r.increasing(f64::round_ties_even),
            // Their minima are -0.28 and -0.17.
            Silu | Gelu | GeluTanh => Range {
                lo: -0.3,
                hi: r.hi.max(0.0),
            },
        };
        self.add(Kind::Unary(kind), &[x], range)
    }

    fn scale(&mut self) -> Option<Ref> {
        let x = self.pick(|_, _| true)?;
        let factor = *self.rng.pick(&[-2.5, 0.5, 3.0]);
        let r = self.range(x);
        self.add(Kind::Scale(factor), &[x], Range::of([r.lo * factor, r.hi * factor]))
    }

    /// Some dims of a rank: a nonempty subset, in order.
    fn some_dims(&mut self, rank: usize) -> Vec<usize> {
        loop {
            let dims: Vec<usize> = (0..rank).filter(|_| self.chance(50)).collect();
            if !dims.is_empty() {
                return dims;
            }
        }
    }

    fn reduce(&mut self) -> Option<Ref> {
        let x = self.pick(|g, v| !g.program.shape(v).is_empty())?;
        let xs = self.shape(x);
        let dims = self.some_dims(xs.len());
        let kind = *self
            .rng
            .pick(&[Reduction::Sum, Reduction::Mean, Reduction::Max, Reduction::Min]);
        let count: usize = dims.iter().map(|&d| xs[d]).product();
        let r = self.range(x);
        let range = match kind {
            Reduction::Sum => Range::of([r.lo * count as f64, r.hi * count as f64, 0.0]),
            _ => r,
        };
        let keepdim = self.chance(40);
        self.add(Kind::Reduce { kind, dims, keepdim }, &[x], range)
    }

    fn softmax(&mut self) -> Option<Ref> {
        let x = self.pick(|g, v| !g.program.shape(v).is_empty())?;
        let rank = self.shape(x).len() as i64;
        let axis = self.rng.below(rank as usize) as i64 - if self.chance(50) { rank } else { 0 };
        self.softmax_of(x, axis)
    }

    fn softmax_of(&mut self, x: Ref, axis: i64) -> Option<Ref> {
        let xs = self.shape(x);
        let n = xs[axis.rem_euclid(xs.len() as i64) as usize] as f64;
        let r = self.range(x);
        let spread = if self.masked.contains(&x) {
            2.0 * BOUND
        } else {
            r.hi - r.lo
        };
        // Each entry is at least e^-(spread) / n of its row.
        let range = Range {
            lo: (-spread).exp() / n,
            hi: 1.0,
        };
        self.add(Kind::Softmax { axis }, &[x], range)
    }

    fn causal_softmax(&mut self) -> Option<Ref> {
        let x = self.pick(|g, v| g.program.shape(v).len() >= 2)?;
        let r = self.range(x);
        let masked = self.add(Kind::CausalMask, &[x], r)?;
        self.masked.push(masked);
        self.softmax_of(masked, -1)
    }

    fn norm(&mut self) -> Option<Ref> {
        let x = self.pick(|g, v| !g.program.shape(v).is_empty())?;
        let xs = self.shape(x);
        let begin = self.rng.below(xs.len());
        let features = &xs[begin..];
        let n: f64 = features.iter().product::<usize>() as f64;
        let layer = self.chance(50);
        // Fewer features make a degenerate norm: one (two) values normalize
        // to a constant, whose tiny gradient is all rounding error.
        if n < if layer { 3.0 } else { 2.0 } {
            return None;
        }
        let scale = self.new_arg(features, true);
        let epsilon = 1e-5;
        // A normalized entry is at most sqrt(n - 1) in size.
        let reach = n.sqrt() * 2.0;
        let (kind, operands, results) = if layer {
            let bias = self.new_arg(features, false);
            (Kind::LayerNorm { begin, epsilon }, vec![x, scale, bias], 3)
        } else {
            (Kind::RmsNorm { begin, epsilon }, vec![x, scale], 2)
        };
        let y = self.add(
            kind,
            &operands,
            Range {
                lo: -reach - 1.0,
                hi: reach + 1.0,
            },
        )?;
        // Now and then the loss reads a statistic too (the mean, the
        // inverse standard deviation), which the gradient must include.
        let Ref::Op(op, _) = y else {
            unreachable!("an op's result")
        };
        if self.chance(20) {
            let k = 1 + self.rng.below(results - 1);
            let stat = Ref::Op(op, k);
            let r = self.range(x);
            let range = if k == results - 1 {
                Range {
                    lo: 0.0,
                    hi: 1.0 / epsilon.sqrt() as f64,
                }
            } else {
                r
            };
            if range.magnitude() <= BOUND {
                self.ranges.push((stat, range));
                return Some(stat);
            }
        }
        Some(y)
    }

    fn matmul(&mut self) -> Option<Ref> {
        let x = self.pick(|g, v| g.program.shape(v).len() >= 2)?;
        let xs = self.shape(x);
        let r = xs.len();
        let (tx, ty) = (self.chance(30), self.chance(30));
        let k = if tx { xs[r - 2] } else { xs[r - 1] };
        let y = if self.chance(25) {
            // x against itself: x^T x or x x^T.
            x
        } else {
            let n = 1 + self.rng.below(4);
            let batch: Vec<usize> = match self.rng.below(3) {
                0 => Vec::new(),
                1 => xs[..r - 2].to_vec(),
                _ => xs[..r - 2]
                    .iter()
                    .map(|&d| if self.chance(50) { 1 } else { d })
                    .collect(),
            };
            let mut shape = batch;
            shape.extend(if ty { [n, k] } else { [k, n] });
            self.new_arg(&shape, false)
        };
        let (tx, ty) = if y == x {
            // Contract x's last dims (x x^T) or first ones (x^T x).
            let outer = self.chance(50);
            (outer, !outer)
        } else {
            (tx, ty)
        };
        let (a, b) = (self.range(x), self.range(y));
        let bound = k as f64 * a.magnitude() * b.magnitude();
        self.add(Kind::Matmul { tx, ty }, &[x, y], Range { lo: -bound, hi: bound })
    }

    fn transpose(&mut self) -> Option<Ref> {
        let x = self.pick(|g, v| g.program.shape(v).len() >= 2)?;
        let rank = self.shape(x).len();
        let mut perm: Vec<usize> = (0..rank).collect();
        while perm.iter().enumerate().all(|(i, &p)| i == p) {
            for i in (1..rank).rev() {
                perm.swap(i, self.rng.below(i + 1));
            }
        }
        let r = self.range(x);
        self.add(Kind::Transpose { perm }, &[x], r)
    }

    /// A running sum along a random dim, either way.
    fn cumsum(&mut self) -> Option<Ref> {
        let x = self.pick(|g, v| !g.program.shape(v).is_empty())?;
        let shape = self.shape(x);
        let dim = self.rng.below(shape.len());
        let reverse = self.chance(50);
        let n = shape[dim] as f64;
        let r = self.range(x);
        let range = Range {
            lo: (r.lo * n).min(r.lo),
            hi: (r.hi * n).max(r.hi),
        };
        self.add(Kind::Cumsum { dim, reverse }, &[x], range)
    }

    fn reshape(&mut self) -> Option<Ref> {
        let x = self.pick(|g, v| !g.program.shape(v).is_empty())?;
        let xs = self.shape(x);
        let n: usize = xs.iter().product();
        let shape = match self.rng.below(3) {
            0 => vec![n],
            1 => {
                let mut s = xs.clone();
                s.insert(self.rng.below(xs.len() + 1), 1);
                s
            }
            _ => {
                let divisors: Vec<usize> = (2..n).filter(|d| n.is_multiple_of(*d)).collect();
                if divisors.is_empty() {
                    return None;
                }
                let d = *self.rng.pick(&divisors);
                vec![d, n / d]
            }
        };
        if shape == xs {
            return None;
        }
        let r = self.range(x);
        let v = self.program.push(Kind::Reshape, &[x], vec![shape]);
        self.ranges.push((v, r));
        Some(v)
    }

    fn slice(&mut self) -> Option<Ref> {
        let x = self.pick(|g, v| g.program.shape(v).iter().any(|&d| d >= 2))?;
        let xs = self.shape(x);
        let dims: Vec<usize> = (0..xs.len()).filter(|&d| xs[d] >= 2).collect();
        let dim = *self.rng.pick(&dims);
        let size = 1 + self.rng.below(xs[dim] - 1);
        let offset = self.rng.below(xs[dim] - size + 1);
        let mut offsets = vec![0; xs.len()];
        let mut sizes = xs.clone();
        offsets[dim] = offset;
        sizes[dim] = size;
        let r = self.range(x);
        self.add(Kind::Slice { offsets, sizes }, &[x], r)
    }

    fn concat(&mut self) -> Option<Ref> {
        let x = self.pick(|g, v| !g.program.shape(v).is_empty())?;
        let xs = self.shape(x);
        let dim = self.rng.below(xs.len());
        let same_but = |g: &Self, v: Ref| {
            let vs = g.program.shape(v);
            vs.len() == xs.len() && (0..xs.len()).all(|d| d == dim || vs[d] == xs[d])
        };
        let y = match self.rng.below(3) {
            0 => x,
            1 => self.pick(same_but)?,
            _ => {
                let mut shape = xs.clone();
                shape[dim] = 1 + self.rng.below(3);
                self.new_arg(&shape, false)
            }
        };
        let (x, y) = if self.chance(50) { (y, x) } else { (x, y) };
        let range = Range::of([self.range(x).lo, self.range(x).hi, self.range(y).lo, self.range(y).hi]);
        self.add(Kind::Concat { dim }, &[x, y], range)
    }

    fn take_along(&mut self) -> Option<Ref> {
        let x = self.pick(|g, v| !g.program.shape(v).is_empty())?;
        let xs = self.shape(x);
        let v = *xs.last().expect("rank >= 1") as i64;
        let idx = self.program.arg(&xs[..xs.len() - 1], false, Data::Below(v));
        let r = self.range(x);
        self.add(Kind::TakeAlong, &[x, idx], Range::of([r.lo, r.hi, 0.0]))
    }

    /// The k largest entries of a value's last dim (k at random), the
    /// values (a router's weights); the indices feed nothing.
    fn top_k(&mut self) -> Option<Ref> {
        let x = self.pick(|g, v| !g.program.shape(v).is_empty())?;
        let n = *self.shape(x).last().expect("rank >= 1");
        let k = 1 + self.rng.below(n);
        let r = self.range(x);
        self.add(Kind::TopK { k }, &[x], r)
    }

    /// Attention of a value's last two dims (queries, features) over
    /// itself or new keys and values (a leading dim of theirs 1 at random,
    /// shared by q's), causal at random, in a balanced order where the
    /// positions split into its chunks. A weighted mean of v's rows.
    fn attention(&mut self) -> Option<Ref> {
        let q = self.pick(|g, v| g.program.shape(v).len() >= 2)?;
        let qs = self.shape(q);
        let r = qs.len();
        let (k, v) = if self.chance(50) {
            (q, q)
        } else {
            let kv: Vec<usize> = qs
                .iter()
                .enumerate()
                .map(|(d, &n)| if d + 2 < r && self.chance(30) { 1 } else { n })
                .collect();
            (self.new_arg(&kv, false), self.new_arg(&kv, false))
        };
        let causal = self.chance(70);
        let n = qs[r - 2];
        let shards = 1 + self.rng.below(2);
        let balance = (causal && n.is_multiple_of(2 * shards) && self.chance(50)).then_some(shards);
        let kind = Kind::Attention {
            scale: 1.0 / (qs[r - 1] as f64).sqrt(),
            causal,
            balance,
        };
        let range = self.range(v);
        self.add(kind, &[q, k, v], range)
    }

    fn embedding(&mut self) -> Option<Ref> {
        let table = match self.pick(|g, v| g.program.shape(v).len() == 2) {
            Some(t) if self.chance(50) => t,
            _ => {
                let shape = [2 + self.rng.below(5), 1 + self.rng.below(4)];
                self.new_arg(&shape, false)
            }
        };
        let vocab = self.shape(table)[0] as i64;
        let rank = 1 + self.rng.below(2);
        let ids_shape = self.random_shape(rank);
        let ids = self.program.arg(&ids_shape, false, Data::Below(vocab));
        let r = self.range(table);
        self.add(Kind::Embedding, &[ids, table], Range::of([r.lo, r.hi, 0.0]))
    }

    /// One op of a random kind; `None` if the kind found no operand that
    /// fits, or its result would be too large.
    fn step(&mut self) -> Option<Ref> {
        match self.rng.below(100) {
            0..=26 => self.binary(),
            27..=29 => self.select(),
            30..=44 => self.unary(),
            45..=47 => self.scale(),
            48..=59 => self.reduce(),
            60..=64 => self.softmax(),
            65..=66 => self.causal_softmax(),
            67..=72 => self.norm(),
            73..=80 => self.matmul(),
            81..=82 => self.transpose(),
            83 => self.cumsum(),
            84..=86 => self.reshape(),
            87..=90 => self.slice(),
            91..=93 => self.concat(),
            94..=95 => self.take_along(),
            96..=97 => self.top_k(),
            98 => self.embedding(),
            _ => self.attention(),
        }
    }

    /// The loss of `value`: its weighted sum, its mean, or (for logits) a
    /// cross-entropy against random labels.
    fn finish(&mut self, value: Ref) {
        let shape = self.shape(value);
        if !shape.is_empty() && self.chance(15) {
            let v = *shape.last().expect("rank >= 1") as i64;
            // PyTorch's ignore_index half the time.
            let ignore_index = self.chance(50).then_some(-100);
            let data = match ignore_index {
                Some(ignored) => Data::Labels { below: v, ignored },
                None => Data::Below(v),
            };
            let labels = self.program.arg(&shape[..shape.len() - 1], false, data);
            self.program.loss = self.program.op(Kind::CrossEntropy { ignore_index }, &[value, labels]);
        } else if !shape.is_empty() && self.chance(30) {
            let kind = Kind::Reduce {
                kind: Reduction::Mean,
                dims: (0..shape.len()).collect(),
                keepdim: false,
            };
            self.program.loss = self.program.op(kind, &[value]);
        } else {
            let weighted = self.chance(70);
            self.program.finish(value, weighted);
        }
    }
}

/// Program `index` of a campaign seeded `seed`: one to three arguments,
/// then two to eight ops, then a loss of the last value. Every argument
/// that is not an index (and some that feed the ops) is differentiated;
/// at least one is.
pub fn program(seed: u64, index: u64) -> Program {
    let mut rng = Rng::for_input(seed, index);
    let mut g = Generator {
        rng: &mut rng,
        program: Program::new(Vec::new()),
        ranges: Vec::new(),
        masked: Vec::new(),
    };
    for _ in 0..1 + g.rng.below(3) {
        let rank = g.rng.below(4);
        let shape = g.random_shape(rank);
        let positive = g.chance(30);
        g.new_arg(&shape, positive);
    }
    let target = 2 + g.rng.below(7);
    let (mut made, mut tries) = (0, 0);
    let mut last = g.ranges.last().expect("an argument").0;
    while made < target && tries < 100 {
        tries += 1;
        if let Some(v) = g.step() {
            made += 1;
            last = v;
        }
    }
    if g.masked.contains(&last) {
        last = g.softmax_of(last, -1).unwrap_or(last);
    }
    g.finish(last);
    let mut program = g.program.pruned();
    if program.grad_args().is_empty() {
        let float = (0..program.args.len()).find(|&a| matches!(program.args[a].data, Data::Uniform(..)));
        if let Some(a) = float {
            program.args[a].grad = true;
        }
    }
    program
}

/// Random shardings of `program`'s arguments on [`MESH`]: each argument
/// (most of them) has each dim whole or split over one or both axes, evenly
/// or not (a dim at least as large as its shards).
pub fn shard(program: &mut Program, seed: u64, index: u64) {
    let mut rng = Rng::for_input(seed ^ 0x5eed_5a4d, index);
    program.mesh = MESH.iter().map(|(n, s)| ((*n).to_owned(), *s)).collect();
    for arg in &mut program.args {
        if rng.below(100) < 25 {
            continue;
        }
        let mut free: Vec<&str> = MESH.iter().map(|(n, _)| *n).collect();
        let dims = arg
            .shape
            .iter()
            .map(|&size| {
                let mut axes = Vec::new();
                let mut shards = 1;
                while !free.is_empty() && rng.below(100) < 35 {
                    let k = rng.below(free.len());
                    let (_, n) = MESH.iter().find(|(a, _)| *a == free[k]).expect("a mesh axis");
                    // An uneven split takes one axis.
                    let even = size % (shards * n) == 0;
                    if size < shards * n || (!axes.is_empty() && !even) {
                        break;
                    }
                    shards *= n;
                    axes.push(free.remove(k).to_owned());
                }
                axes
            })
            .collect();
        arg.sharding = Some(dims);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn programs_are_reproducible_and_varied() {
        assert_eq!(program(7, 3), program(7, 3));
        let texts: std::collections::HashSet<String> = (0..50).map(|k| program(7, k).to_mlir()).collect();
        assert!(texts.len() > 45, "{}", texts.len());
    }

    #[test]
    fn every_program_has_a_scalar_loss_and_a_gradient() {
        for k in 0..200 {
            let p = program(11, k);
            assert!(p.shape(p.loss).is_empty(), "{}", p.to_mlir());
            assert!(!p.grad_args().is_empty(), "{}", p.to_mlir());
        }
    }

    #[test]
    fn shardings_fit_their_dims() {
        for k in 0..100 {
            let mut p = program(5, k);
            shard(&mut p, 5, k);
            for arg in &p.args {
                let Some(dims) = &arg.sharding else { continue };
                for (axes, &size) in dims.iter().zip(&arg.shape) {
                    let shards: usize = axes.iter().map(|_| 2).product();
                    assert!(size >= shards, "{}", p.to_mlir());
                }
            }
        }
    }
}
