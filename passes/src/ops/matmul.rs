//! `dist.matmul` and `dist.matmul_grad`: batched GEMMs with broadcast
//! batch dims and either operand transposed.

use super::matmul_grad::{self as plan, GradOperands, Input, Step};
use super::{Attr, GradRule, Grads, OpSpec, Read};
use crate::vocabulary::linalg::build::{Builder, Ix, Lowered, accumulator};
use crate::vocabulary::linalg::common::{all, operand, reduce, shape};
use crate::vocabulary::rules::{
    Dims, Linearity, OpDesc, Rule, RuleBuilder, RuleError, expect_arity, indexed, malformed, sum_each,
};
use dist_dialect::DistOp;
use dist_dialect::ir::{OperationExt, element_type, has_uses};
use dist_dialect::ops::attr;
use melior::ir::operation::OperationLike;
use melior::ir::{OperationRef, Type, TypeLike, Value, ValueLike};

pub struct Matmul;
pub struct MatmulGrad;

pub static MATMUL: Matmul = Matmul;
pub static MATMUL_GRAD: MatmulGrad = MatmulGrad;

impl OpSpec for Matmul {
    fn rule(&self, desc: &OpDesc) -> Result<Rule, RuleError> {
        expect_arity(desc, 2, 1)?;
        let mut b = RuleBuilder::default();
        let (x, y, out) = matmul_dims(&mut b, desc)?;
        let linearity = Linearity::linear_in(&[0, 1]);
        Ok(b.finish(vec![x, y], vec![out], sum_each(1), linearity))
    }

    fn gradient(&self) -> Option<GradRule> {
        Some(GradRule {
            op: DistOp::MatmulGrad,
            reads: &[Read::Operand(0), Read::Operand(1), Read::Dout],
            grads: Grads::Of(&[0, 1]),
            attributes: &[Attr::Copy(attr::TRANSPOSE_X), Attr::Copy(attr::TRANSPOSE_Y)],
        })
    }

    fn lower<'c, 'a>(&self, b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
        let out = op.result_at(0).map(|r| shape(r.into())).unwrap_or_default();
        Ok(vec![matmul(
            b,
            operand(op, 0),
            operand(op, 1),
            op.has_attribute(attr::TRANSPOSE_X),
            op.has_attribute(attr::TRANSPOSE_Y),
            &out,
        )?])
    }

    fn gemm_flops(&self, op: OperationRef<'_, '_>, local_shape: &mut dyn FnMut(Value) -> Option<Vec<i64>>) -> f64 {
        products_flops(op, 1.0, op.result_at(0).map(Value::from), local_shape)
    }
}

impl OpSpec for MatmulGrad {
    fn rule(&self, desc: &OpDesc) -> Result<Rule, RuleError> {
        expect_arity(desc, 3, 2)?;
        let mut b = RuleBuilder::default();
        let (x, y, out) = matmul_dims(&mut b, desc)?;
        Ok(b.finish(
            vec![x.clone(), y.clone(), out],
            vec![x, y],
            sum_each(2),
            Linearity::None,
        ))
    }

    /// The used gradients through the split plan's matmuls.
    fn lower<'c, 'a>(&self, b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>> {
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

    /// One product of the forward's size per gradient that is used.
    fn gemm_flops(&self, op: OperationRef<'_, '_>, local_shape: &mut dyn FnMut(Value) -> Option<Vec<i64>>) -> f64 {
        let used = |i: usize| op.result_at(i).is_some_and(has_uses);
        let products = f64::from(u8::from(used(0)) + u8::from(used(1)));
        products_flops(op, products, op.operand_at(2), local_shape)
    }
}

/// `2 m n k` per product, from the output `out` (dout for the gradient) and
/// x's contracted dim, on one device.
fn products_flops(
    op: OperationRef<'_, '_>,
    products: f64,
    out: Option<Value>,
    local_shape: &mut dyn FnMut(Value) -> Option<Vec<i64>>,
) -> f64 {
    if products == 0.0 {
        return 0.0;
    }
    let x = op.operand_at(0).and_then(&mut *local_shape);
    let (Some(out), Some(x)) = (out, x) else {
        return 0.0;
    };
    let k_dim = if op.has_attribute(attr::TRANSPOSE_X) {
        x.len() - 2
    } else {
        x.len() - 1
    };
    let out = local_shape(out).unwrap_or_default();
    products * 2.0 * (out.iter().product::<i64>() * x[k_dim]) as f64
}

/// Factors of `matmul(x, y)`: `(x dims, y dims, out dims)`. Batch dims align
/// on the right; a size-1 dim broadcast against a larger one maps to no
/// factor.
pub type MatmulDims = (Dims, Dims, Dims);

pub fn matmul_dims(b: &mut RuleBuilder, desc: &OpDesc) -> Result<MatmulDims, RuleError> {
    let (xs, ys) = (&desc.operands[0], &desc.operands[1]);
    if xs.len() < 2 || ys.len() < 2 {
        return Err(malformed(desc, "x and y need rank >= 2".into()));
    }
    let out_batch = xs.len().max(ys.len()) - 2;
    let mut out: Dims = Vec::with_capacity(out_batch + 2);
    let mut sizes = Vec::with_capacity(out_batch);
    for i in 0..out_batch {
        let size_of = |s: &[i64]| {
            let batch = s.len() - 2;
            (i + batch >= out_batch).then(|| s[i + batch - out_batch])
        };
        let size = size_of(xs).unwrap_or(1).max(size_of(ys).unwrap_or(1));
        out.push(Some(b.factor(indexed('b', i), true)));
        sizes.push(size);
    }
    let batch_of = |s: &[i64]| -> Dims {
        let batch = s.len() - 2;
        (0..batch)
            .map(|j| {
                let i = j + out_batch - batch;
                (s[j] == sizes[i]).then_some(out[i]).flatten()
            })
            .collect()
    };
    let (mut xd, mut yd) = (batch_of(xs), batch_of(ys));
    let (m, n, k) = (
        Some(b.factor("m", true)),
        Some(b.factor("n", true)),
        Some(b.factor("k", true)),
    );
    xd.extend(if desc.attrs.transpose_x { [k, m] } else { [m, k] });
    yd.extend(if desc.attrs.transpose_y { [n, k] } else { [k, n] });
    out.extend([m, n]);
    Ok((xd, yd, out))
}

/// `x . y` (either transposed) into a tensor of shape `out`.
pub fn matmul<'c, 'a>(
    b: &mut Builder<'c, 'a>,
    x: Value<'c, 'a>,
    y: Value<'c, 'a>,
    tx: bool,
    ty: bool,
    out: &[i64],
) -> Lowered<'c, Value<'c, 'a>> {
    let r = out.len();
    let (m, n, k) = (Ix::D(r - 2), Ix::D(r - 1), Ix::D(r));
    // Batch dims align to the right of the output's. A size-1 one that
    // broadcasts is reshaped away rather than read at index 0: the maps
    // stay projected permutations, so the contraction (grouped-query
    // attention's k and v broadcast over the query group) stays a GEMM
    // for dist-call-blas, whose runtime folds that loop into m.
    let reading =
        |b: &mut Builder<'c, 'a>, v: Value<'c, 'a>, rows: Ix, cols: Ix| -> Lowered<'c, (Value<'c, 'a>, Vec<Ix>)> {
            let s = shape(v);
            let batch = s.len() - 2;
            let broadcast = |i: usize| s[i] == 1 && out[r - 2 - batch + i] != 1;
            let mut map: Vec<Ix> = (0..batch)
                .filter(|&i| !broadcast(i))
                .map(|i| Ix::D(r - 2 - batch + i))
                .collect();
            map.extend([rows, cols]);
            if map.len() == s.len() {
                return Ok((v, map));
            }
            let kept: Vec<i64> = (0..s.len())
                .filter(|&i| i >= batch || !broadcast(i))
                .map(|i| s[i])
                .collect();
            Ok((b.reshape(v, &kept)?, map))
        };
    let (x, x_map) = if tx { reading(b, x, k, m)? } else { reading(b, x, m, k)? };
    let (y, y_map) = if ty { reading(b, y, n, k)? } else { reading(b, y, k, n)? };
    let element = element_type(x.r#type());
    if element.is_bf16() || element.is_f16() {
        return sixteen_bit_contraction(b, r, out, element, (x, x_map), (y, y_map));
    }
    let init = b.splat(out, element, 0.0)?;
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

/// A product of 16-bit operands, accumulated in f32 (each product and sum
/// in f32, as tensor cores and `avx512_bf16` do) and rounded once to
/// `element`: a bf16 running sum would stop growing where the terms fall
/// under its 8 bits (4096 ones would sum to 256).
fn sixteen_bit_contraction<'c, 'a>(
    b: &mut Builder<'c, 'a>,
    r: usize,
    out: &[i64],
    element: Type<'c>,
    x: (Value<'c, 'a>, Vec<Ix>),
    y: (Value<'c, 'a>, Vec<Ix>),
) -> Lowered<'c, Value<'c, 'a>> {
    let wide = accumulator(element);
    let init = b.splat(out, wide, 0.0)?;
    let sum = b.generic(r + 1, &[r], &[x, y], (init, all(r)), |s, a| {
        let p = s.convert("arith.extf", a[0])?;
        let q = s.convert("arith.extf", a[1])?;
        let p = s.mul(p, q)?;
        s.add(a[2], p)
    })?;
    let rounded = b.empty(out, element)?;
    b.generic(r, &[], &[(sum, all(r))], (rounded, all(r)), |s, a| {
        s.convert("arith.truncf", a[0])
    })
}

#[cfg(test)]
mod tests {
    use super::super::testing::{desc, factor_rule};
    use crate::vocabulary::rules::OpAttrs;
    use dist_dialect::DistOp;

    fn transposed(tx: bool, ty: bool) -> OpAttrs {
        OpAttrs {
            transpose_x: tx,
            transpose_y: ty,
            ..OpAttrs::default()
        }
    }

    #[test]
    fn matmul_contracts_k_for_every_transpose_combination() {
        let cases = [
            (false, false, [8, 16], [16, 32], "m,k ; k,n -> m,n"),
            (true, false, [16, 8], [16, 32], "k,m ; k,n -> m,n"),
            (false, true, [8, 16], [32, 16], "m,k ; n,k -> m,n"),
            (true, true, [16, 8], [32, 16], "k,m ; n,k -> m,n"),
        ];
        for (tx, ty, x, y, expected) in cases {
            let rule = factor_rule(&desc(DistOp::Matmul.name(), &[&x, &y], &[&[8, 32]], transposed(tx, ty)));
            assert_eq!(rule.einsum(), expected);
            let k = rule.factors.iter().position(|f| f.name == "k").unwrap();
            assert!(rule.is_reduced(k, 0));
        }
    }

    #[test]
    fn matmul_broadcasts_batch_dims() {
        let rule = factor_rule(&desc(
            DistOp::Matmul.name(),
            &[&[2, 4, 8, 16], &[4, 16, 32]],
            &[&[2, 4, 8, 32]],
            OpAttrs::default(),
        ));
        assert_eq!(rule.einsum(), "b0,b1,m,k ; b1,k,n -> b0,b1,m,n");
        let rule = factor_rule(&desc(
            DistOp::Matmul.name(),
            &[&[1, 8, 16], &[4, 16, 32]],
            &[&[4, 8, 32]],
            OpAttrs::default(),
        ));
        assert_eq!(rule.einsum(), "1,m,k ; b0,k,n -> b0,m,n");
    }

    #[test]
    fn matmul_grad_reduces_n_for_dx_and_batch_and_m_for_dy() {
        let rule = factor_rule(&desc(
            DistOp::MatmulGrad.name(),
            &[&[4, 8, 16], &[16, 32], &[4, 8, 32]],
            &[&[4, 8, 16], &[16, 32]],
            OpAttrs::default(),
        ));
        assert_eq!(rule.einsum(), "b0,m,k ; k,n ; b0,m,n -> b0,m,k ; k,n");
        let reduced = |r| {
            (0..rule.factors.len())
                .filter(|&f| rule.is_reduced(f, r))
                .map(|f| &*rule.factors[f].name)
                .collect::<Vec<_>>()
        };
        assert_eq!(reduced(0), ["n"]);
        assert_eq!(reduced(1), ["b0", "m"]);
    }
}
