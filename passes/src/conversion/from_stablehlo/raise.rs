//! Raising the elementwise spelling of known layers to their dist ops:
//! layer normalisation, softmax, the tanh GELU and the mean log-softmax
//! cross-entropy against integer labels, as `jax.nn` and the usual model
//! code write them. The dist ops carry sharding rules that know the layer
//! (a layer norm reduces its input once; a vocabulary-split cross-entropy
//! is Megatron's), where the spelled-out form would let partial sums flow
//! into every reduction, and they lower to fused loops.
//!
//! Matching is on the translated ops, up to operand order of additions and
//! products and with constants compared by value; a layer is replaced at
//! its output, so intermediate values something else reads stay as they
//! are.

use super::program::{Attr, Inst, Operand};
use super::syntax::{Dense, TensorTy};
use dist_dialect::DistOp;

/// Rewrites `insts` in place: each recognised layer's output op becomes the
/// layer's dist op (its operands are defined earlier, so it stays in
/// order); the spelled-out ops left unused are for the caller to prune.
pub fn raise(insts: &mut [Inst], args: &[TensorTy]) {
    for i in 0..insts.len() {
        let m = Matcher { insts, args };
        let raised = m
            .layer_norm(i)
            .or_else(|| m.rms_norm(i))
            .or_else(|| m.softmax(i))
            .or_else(|| m.gelu(i))
            .or_else(|| m.cross_entropy(i))
            .or_else(|| m.cross_entropy_ignoring(i));
        if let Some(raised) = raised {
            insts[i] = raised;
        }
    }
}

struct Matcher<'p> {
    insts: &'p [Inst],
    args: &'p [TensorTy],
}

impl<'p> Matcher<'p> {
    fn inst(&self, value: Operand) -> Option<&'p Inst> {
        match value {
            Operand::Inst(i) => Some(&self.insts[i]),
            Operand::Arg(_) | Operand::Extra(..) => None,
        }
    }

    fn ty(&self, value: Operand) -> &'p TensorTy {
        match value {
            Operand::Inst(i) => &self.insts[i].ty,
            Operand::Extra(i, j) => &self.insts[i].extra[j],
            Operand::Arg(i) => &self.args[i],
        }
    }

    /// `value`'s op if it is `op`.
    fn op(&self, value: Operand, op: &str) -> Option<&'p Inst> {
        self.inst(value).filter(|inst| inst.op == op)
    }

    /// The operands of `value`'s binary `op`, in both orders (for a
    /// commutative one) or as they are.
    fn operands(&self, value: Operand, op: &str) -> Vec<(Operand, Operand)> {
        let Some(inst) = self.op(value, op) else {
            return Vec::new();
        };
        let (a, b) = (inst.operands[0], inst.operands[1]);
        if op == DistOp::Add.name() || op == DistOp::Mul.name() {
            vec![(a, b), (b, a)]
        } else {
            vec![(a, b)]
        }
    }

    /// The value of a rank-0 constant (converted, as torch-mlir writes
    /// its literals, or not).
    fn scalar(&self, value: Operand) -> Option<f64> {
        if let Some(cast) = self.op(value, DistOp::Cast.name()) {
            return self.scalar(cast.operands[0]);
        }
        let inst = self.op(value, "arith.constant")?;
        if !inst.ty.shape.is_empty() {
            return None;
        }
        let (_, Attr::Literal(text)) = inst.attributes.iter().find(|(name, _)| *name == "value")? else {
            return None;
        };
        Dense::parse(text).ok()?.values.first().copied()
    }

    fn is_scalar(&self, value: Operand, expected: f64) -> bool {
        self.scalar(value)
            .is_some_and(|v| (v - expected).abs() <= 1e-6 * expected.abs().max(1.0))
    }

    /// `a` and `b` compute the same: one value, or one op of the same
    /// operands and attributes (JAX spells `x - mean` twice).
    fn same(&self, a: Operand, b: Operand) -> bool {
        a == b
            || matches!((self.inst(a), self.inst(b)), (Some(x), Some(y))
                if x.op == y.op && x.operands == y.operands && x.attributes == y.attributes && x.ty == y.ty
                    && x.op != "arith.constant")
    }

    /// `reshape(reduce_<kind>(y, dims = [last]))` with the reduced dim kept
    /// as 1: the `y` reduced.
    fn last_dim_reduction(&self, value: Operand, reduce: &str) -> Option<Operand> {
        let kept = self.op(value, DistOp::Reshape.name())?;
        self.kept_last_dim(kept, self.op(kept.operands[0], reduce)?)
    }

    /// The operand of `reduced` if it reduces its last dim and `kept`
    /// reshapes the result to keep that dim as 1.
    fn kept_last_dim(&self, kept: &Inst, reduced: &Inst) -> Option<Operand> {
        let y = reduced.operands[0];
        let shape = &self.ty(y).shape;
        let last = shape.len().checked_sub(1)?;
        let keepdim: Vec<i64> = shape[..last].iter().copied().chain([1]).collect();
        (reduced.attributes == [("dims", Attr::I64s(vec![last as i64]))] && kept.ty.shape == keepdim).then_some(y)
    }

    /// `sum(y, last dim, kept) / n`, `n` the last dim's size: the `y`.
    fn last_dim_mean(&self, value: Operand) -> Option<Operand> {
        self.operands(value, DistOp::Div.name())
            .into_iter()
            .find_map(|(sum, n)| {
                let y = self.last_dim_reduction(sum, DistOp::ReduceSum.name())?;
                self.is_scalar(n, *self.ty(y).shape.last()? as f64).then_some(y)
            })
    }

    /// `max(y, last dim, kept)`, or the maximum of it and -inf (as
    /// `jax.nn` writes it): the `y`.
    fn last_dim_max(&self, value: Operand) -> Option<Operand> {
        let kept = self.op(value, DistOp::Reshape.name())?;
        let max = self
            .operands(kept.operands[0], DistOp::Maximum.name())
            .into_iter()
            .find_map(|(low, max)| (self.scalar(low) == Some(f64::NEG_INFINITY)).then_some(max))
            .unwrap_or(kept.operands[0]);
        self.kept_last_dim(kept, self.op(max, DistOp::ReduceMax.name())?)
    }

    /// `x - max(x)` over the last dim: the `x`.
    fn shifted(&self, value: Operand) -> Option<Operand> {
        let (x, max) = self.operands(value, DistOp::Sub.name()).into_iter().next()?;
        (self.last_dim_max(max) == Some(x)).then_some(x)
    }

    fn raised(
        &self,
        root: usize,
        op: &'static str,
        operands: Vec<Operand>,
        attributes: Vec<(&'static str, Attr)>,
    ) -> Inst {
        let root = &self.insts[root];
        Inst {
            op,
            operands,
            attributes,
            ty: root.ty.clone(),
            extra: Vec::new(),
            sharding: root.sharding.clone(),
            site: root.site,
        }
    }

    /// `(x - mean(x)) * rsqrt(mean((x - mean(x))^2) + eps) * scale + bias`
    /// over the last dim.
    fn layer_norm(&self, root: usize) -> Option<Inst> {
        let value = Operand::Inst(root);
        for (scaled, bias) in self.operands(value, DistOp::Add.name()) {
            for (normed, scale) in self.operands(scaled, DistOp::Mul.name()) {
                for (centred, rstd) in self.operands(normed, DistOp::Mul.name()) {
                    let Some((x, mean)) = self.operands(centred, DistOp::Sub.name()).into_iter().next() else {
                        continue;
                    };
                    if self.last_dim_mean(mean) != Some(x) {
                        continue;
                    }
                    let Some(inverse) = self.op(rstd, DistOp::Rsqrt.name()) else {
                        continue;
                    };
                    let Some((var, eps)) = self
                        .operands(inverse.operands[0], DistOp::Add.name())
                        .into_iter()
                        .find(|(_, eps)| self.scalar(*eps).is_some())
                    else {
                        continue;
                    };
                    let squares = self.last_dim_mean(var).and_then(|sq| self.op(sq, DistOp::Mul.name()));
                    let is_variance = squares
                        .is_some_and(|sq| self.same(sq.operands[0], centred) && self.same(sq.operands[1], centred));
                    let x_ty = self.ty(x);
                    let (rank, width) = (x_ty.shape.len(), x_ty.shape.last().copied());
                    let is_vector =
                        |v: Operand| self.ty(v).shape == [width.unwrap_or(-1)] && self.ty(v).element == x_ty.element;
                    if !is_variance || !is_vector(scale) || !is_vector(bias) || !x_ty.is_float() {
                        continue;
                    }
                    let Some(epsilon) = self.scalar(eps) else {
                        continue;
                    };
                    let stats = x_ty.with_shape(x_ty.shape[..rank - 1].to_vec());
                    let mut inst = self.raised(
                        root,
                        DistOp::LayerNorm.name(),
                        vec![x, scale, bias],
                        vec![
                            ("begin_norm_axis", Attr::I64(rank as i64 - 1)),
                            ("epsilon", Attr::F32(epsilon as f32)),
                        ],
                    );
                    inst.extra = vec![stats.clone(), stats];
                    return Some(inst);
                }
            }
        }
        None
    }

    /// `x * rsqrt(mean(x^2) + eps) * scale` over the last dim, the square
    /// as a product, a power of 2 or `square`.
    fn rms_norm(&self, root: usize) -> Option<Inst> {
        let is_square_of = |value: Operand, x: Operand| {
            self.inst(value).is_some_and(|sq| {
                (sq.op == DistOp::Mul.name() && sq.operands == [x, x])
                    || (sq.op == DistOp::Square.name() && sq.operands == [x])
                    || (sq.op == DistOp::Pow.name() && sq.operands[0] == x && self.is_scalar(sq.operands[1], 2.0))
            })
        };
        for (normed, scale) in self.operands(Operand::Inst(root), DistOp::Mul.name()) {
            for (x, rstd) in self.operands(normed, DistOp::Mul.name()) {
                let Some(inverse) = self.op(rstd, DistOp::Rsqrt.name()) else {
                    continue;
                };
                let Some((mean, epsilon)) = self
                    .operands(inverse.operands[0], DistOp::Add.name())
                    .into_iter()
                    .find_map(|(mean, eps)| Some((mean, self.scalar(eps)?)))
                else {
                    continue;
                };
                let x_ty = self.ty(x);
                let rank = x_ty.shape.len();
                let is_mean_square = self.last_dim_mean(mean).is_some_and(|sq| is_square_of(sq, x));
                let is_scale = self.ty(scale).shape == [x_ty.shape.last().copied().unwrap_or(-1)]
                    && self.ty(scale).element == x_ty.element;
                if !is_mean_square || !is_scale || !x_ty.is_float() || self.insts[root].ty.shape != x_ty.shape {
                    continue;
                }
                let mut inst = self.raised(
                    root,
                    DistOp::RmsNorm.name(),
                    vec![x, scale],
                    vec![
                        ("begin_norm_axis", Attr::I64(rank as i64 - 1)),
                        ("epsilon", Attr::F32(epsilon as f32)),
                    ],
                );
                inst.extra = vec![x_ty.with_shape(x_ty.shape[..rank - 1].to_vec())];
                return Some(inst);
            }
        }
        None
    }

    /// `exp(x - max(x)) / sum(exp(x - max(x)))` over the last dim.
    fn softmax(&self, root: usize) -> Option<Inst> {
        let (e, sum) = self
            .operands(Operand::Inst(root), DistOp::Div.name())
            .into_iter()
            .next()?;
        let x = self.shifted(self.op(e, DistOp::Exp.name())?.operands[0])?;
        let summed = self.last_dim_reduction(sum, DistOp::ReduceSum.name())?;
        self.same(summed, e)
            .then(|| self.raised(root, DistOp::Softmax.name(), vec![x], vec![("axis", Attr::I64(-1))]))
    }

    /// `x * 0.5 * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3)))`.
    fn gelu(&self, root: usize) -> Option<Inst> {
        let cube_of = |value: Operand, x: Operand| {
            self.operands(value, DistOp::Mul.name()).into_iter().any(|(square, y)| {
                y == x
                    && self
                        .op(square, DistOp::Mul.name())
                        .is_some_and(|sq| sq.operands == [x, x])
            })
        };
        for (x, half_cdf) in self.operands(Operand::Inst(root), DistOp::Mul.name()) {
            for (half, one_plus) in self.operands(half_cdf, DistOp::Mul.name()) {
                if !self.is_scalar(half, 0.5) {
                    continue;
                }
                for (one, tanh) in self.operands(one_plus, DistOp::Add.name()) {
                    let Some(tanh) = self.op(tanh, DistOp::Tanh.name()) else {
                        continue;
                    };
                    if !self.is_scalar(one, 1.0) {
                        continue;
                    }
                    let is_gelu = self
                        .operands(tanh.operands[0], DistOp::Mul.name())
                        .into_iter()
                        .any(|(c, inner)| {
                            self.is_scalar(c, (2.0 / std::f64::consts::PI).sqrt())
                                && self.operands(inner, DistOp::Add.name()).into_iter().any(|(y, cubic)| {
                                    y == x
                                        && self
                                            .operands(cubic, DistOp::Mul.name())
                                            .into_iter()
                                            .any(|(a, cube)| self.is_scalar(a, 0.044715) && cube_of(cube, x))
                                })
                        });
                    if is_gelu && self.ty(x).shape == self.insts[root].ty.shape {
                        return Some(self.raised(
                            root,
                            DistOp::Gelu.name(),
                            vec![x],
                            vec![("approximate", Attr::Str("tanh".to_owned()))],
                        ));
                    }
                }
            }
        }
        None
    }

    /// `mean(-take_along(log_softmax(x), labels))`, log_softmax over the
    /// last dim as `x - max - log(sum(exp(x - max)))`.
    fn cross_entropy(&self, root: usize) -> Option<Inst> {
        let (total, count) = self
            .operands(Operand::Inst(root), DistOp::Div.name())
            .into_iter()
            .next()?;
        let sum = |value: Operand| {
            self.op(value, DistOp::ReduceSum.name())
                .filter(|s| s.ty.shape.is_empty())
                .map(|s| s.operands[0])
        };
        let negated = |value: Operand| self.op(value, DistOp::Neg.name()).map(|n| n.operands[0]);
        let picked = negated(total).and_then(sum).or_else(|| sum(total).and_then(negated))?;
        let mut at = picked;
        while let Some(reshape) = self.op(at, DistOp::Reshape.name()) {
            at = reshape.operands[0];
        }
        let take = self.op(at, DistOp::TakeAlong.name())?;
        let (log_probs, labels) = (take.operands[0], take.operands[1]);
        let x = self.log_softmax(log_probs)?;
        let positions = self.ty(labels).elements();
        self.is_scalar(count, positions as f64)
            .then(|| self.raised(root, DistOp::CrossEntropy.name(), vec![x, labels], Vec::new()))
    }

    /// `x - max - log(sum(exp(x - max)))` over the last dim: the `x`.
    fn log_softmax(&self, value: Operand) -> Option<Operand> {
        let (shifted, log_sum) = self.operands(value, DistOp::Sub.name()).into_iter().next()?;
        let x = self.shifted(shifted)?;
        let summed = self.last_dim_reduction(
            self.op(log_sum, DistOp::Log.name())?.operands[0],
            DistOp::ReduceSum.name(),
        )?;
        let exp = self.op(summed, DistOp::Exp.name())?;
        self.same(exp.operands[0], shifted).then_some(x)
    }

    /// PyTorch's `cross_entropy(x, labels, ignore_index=i)` (`nll_loss` of
    /// `log_softmax`): `sum(select(labels != i, -take_along(log_softmax(x),
    /// select(labels != i, labels, 0)), 0)) / count(labels != i)`, the count
    /// a sum of the mask converted to a number.
    fn cross_entropy_ignoring(&self, root: usize) -> Option<Inst> {
        let (total, count) = self
            .operands(Operand::Inst(root), DistOp::Div.name())
            .into_iter()
            .next()?;
        let scalar_sum = |value: Operand| {
            self.op(self.uncast(value), DistOp::ReduceSum.name())
                .filter(|s| s.ty.shape.is_empty())
                .map(|s| s.operands[0])
        };
        let valid = self.uncast(scalar_sum(count)?);
        let (labels, ignored) = self.not_equal(valid)?;
        let kept = self.op(scalar_sum(total)?, DistOp::Select.name())?;
        if !self.same(kept.operands[0], valid) || !self.is_scalar(kept.operands[2], 0.0) {
            return None;
        }
        let mut at = self.op(kept.operands[1], DistOp::Neg.name())?.operands[0];
        while let Some(reshape) = self.op(at, DistOp::Reshape.name()) {
            at = reshape.operands[0];
        }
        let take = self.op(at, DistOp::TakeAlong.name())?;
        // The labels as read, or made safe where they are ignored.
        let read = take.operands[1];
        let safe = self.op(read, DistOp::Select.name()).is_some_and(|s| {
            self.same(s.operands[0], valid) && s.operands[1] == labels && self.scalar(s.operands[2]).is_some()
        });
        if !(read == labels || safe) || self.ty(labels).shape != self.ty(read).shape {
            return None;
        }
        let x = self.log_softmax(take.operands[0])?;
        Some(self.raised(
            root,
            DistOp::CrossEntropy.name(),
            vec![x, labels],
            vec![("ignore_index", Attr::I64(ignored as i64))],
        ))
    }

    /// `value` without the conversions on it.
    fn uncast(&self, mut value: Operand) -> Operand {
        while let Some(cast) = self.op(value, DistOp::Cast.name()) {
            value = cast.operands[0];
        }
        value
    }

    /// The integer tensor and the constant `value` compares as not equal.
    fn not_equal(&self, value: Operand) -> Option<(Operand, f64)> {
        let compare = self.op(value, DistOp::Compare.name())?;
        if compare.attributes != [("direction", Attr::Str("ne".to_owned()))] {
            return None;
        }
        let (a, b) = (compare.operands[0], compare.operands[1]);
        let integers = |v: Operand| self.ty(v).element.starts_with('i') && self.ty(v).element != "i1";
        [(a, b), (b, a)]
            .into_iter()
            .find_map(|(labels, c)| Some((labels, self.scalar(c)?)).filter(|_| integers(labels)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inst(op: &'static str, operands: &[Operand], attributes: &[(&'static str, Attr)], shape: &[i64]) -> Inst {
        Inst {
            op,
            operands: operands.to_vec(),
            attributes: attributes.to_vec(),
            ty: TensorTy::new(shape.to_vec(), "f32"),
            extra: Vec::new(),
            sharding: None,
            site: 0,
        }
    }

    fn constant(value: f64) -> Inst {
        inst(
            "arith.constant",
            &[],
            &[("value", Attr::Literal(format!("dense<{value:e}> : tensor<f32>")))],
            &[],
        )
    }

    use Operand::{Arg, Inst as I};

    /// jax.nn.softmax's spelling over the last dim, and the same over the
    /// first dim, which is not a softmax over the last.
    #[test]
    fn softmax_over_the_last_dim() {
        let spelled = |dim: i64, kept: &[i64]| {
            let dims = Attr::I64s(vec![dim]);
            vec![
                inst("dist.reduce_max", &[Arg(0)], &[("dims", dims.clone())], &[4]),
                inst("dist.reshape", &[I(0)], &[], kept),
                inst("dist.sub", &[Arg(0), I(1)], &[], &[4, 4]),
                inst("dist.exp", &[I(2)], &[], &[4, 4]),
                inst("dist.reduce_sum", &[I(3)], &[("dims", dims.clone())], &[4]),
                inst("dist.reshape", &[I(4)], &[], kept),
                inst("dist.div", &[I(3), I(5)], &[], &[4, 4]),
            ]
        };
        let args = [TensorTy::new(vec![4, 4], "f32")];
        let mut last = spelled(1, &[4, 1]);
        raise(&mut last, &args);
        assert_eq!(
            (last[6].op, last[6].operands.as_slice()),
            ("dist.softmax", &[Arg(0)][..])
        );
        assert_eq!(last[6].attributes, [("axis", Attr::I64(-1))]);
        let mut first = spelled(0, &[1, 4]);
        raise(&mut first, &args);
        assert_eq!(first[6].op, "dist.div");
    }

    /// jax.nn.gelu(approximate=True), operands in any order; a wrong
    /// constant is not a GELU.
    #[test]
    fn tanh_gelu_by_its_constants() {
        let spelled = |half: f64| {
            vec![
                inst("dist.mul", &[Arg(0), Arg(0)], &[], &[8]),
                inst("dist.mul", &[I(0), Arg(0)], &[], &[8]),
                constant(0.044715),
                inst("dist.mul", &[I(2), I(1)], &[], &[8]),
                inst("dist.add", &[Arg(0), I(3)], &[], &[8]),
                constant(0.7978845608),
                inst("dist.mul", &[I(5), I(4)], &[], &[8]),
                inst("dist.tanh", &[I(6)], &[], &[8]),
                constant(1.0),
                inst("dist.add", &[I(8), I(7)], &[], &[8]),
                constant(half),
                inst("dist.mul", &[I(10), I(9)], &[], &[8]),
                inst("dist.mul", &[Arg(0), I(11)], &[], &[8]),
            ]
        };
        let args = [TensorTy::new(vec![8], "f32")];
        let mut gelu = spelled(0.5);
        raise(&mut gelu, &args);
        assert_eq!(
            (gelu[12].op, gelu[12].operands.as_slice()),
            ("dist.gelu", &[Arg(0)][..])
        );
        let mut other = spelled(0.6);
        raise(&mut other, &args);
        assert_eq!(other[12].op, "dist.mul");
    }
}
