//! What the compiler knows of each `dist` compute op, in one description
//! per op: its sharding rule, its gradient, its lowering to linalg, what
//! partitioning completes in it, and the facts the reports read. The passes
//! are drivers over these descriptions and name no compute op: propagation
//! reads [`OpSpec::rule`] (through [`rule_for`]), `dist-append-backward`
//! [`OpSpec::gradient`], `convert-dist-to-linalg` [`OpSpec::lower`],
//! `dist-partition` [`OpSpec::localize`], the overlap and memory reports
//! [`OpSpec::gemm_flops`], [`OpSpec::is_view`] and
//! [`OpSpec::optimizer_states`].
//!
//! A new op is its ODS definition, its description (in the file of its
//! family) and its entry in [`spec`]. Collectives, the mesh and
//! `dist.axis_index` have no description: they are the passes' own
//! vocabulary (layout transfers, runtime calls).

mod activation;
mod attention;
mod elementwise;
mod embedding;
mod logic;
mod loss;
mod mask;
mod math;
mod matmul;
pub mod matmul_grad;
mod norm;
mod optimizer;
mod pipeline;
mod reduce;
mod routing;
mod shape;
mod softmax;

use crate::vocabulary::comm::CollectiveKind;
use crate::vocabulary::linalg::build::{Builder, Lowered};
use crate::vocabulary::rules::{Axis, CONSTANT, OpDesc, Rule, RuleError, collective_rule, constant_rule};
use dist_dialect::DistOp;
use dist_dialect::ir::{OperationExt, replace_all_uses_except};
use dist_dialect::ods::dist;
use melior::Context;
use melior::dialect::arith;
use melior::ir::attribute::FloatAttribute;
use melior::ir::operation::OperationLike;
use melior::ir::{Attribute, BlockLike, Location, OperationRef, Type, Value};

/// The description of one compute op.
pub trait OpSpec: Sync {
    /// The sharding rule of an instance: how mesh axes may be assigned to
    /// its factors, and what that makes of its operands and results.
    fn rule(&self, desc: &OpDesc) -> Result<Rule, RuleError>;

    /// How its gradient is computed; `None` where it has none (gradient
    /// ops, optimizer steps): an active instance is then an error.
    fn gradient(&self) -> Option<GradRule> {
        None
    }

    /// Whether its gradient is zero wherever it is defined (a piecewise
    /// constant function: `floor`, `sign`): no gradient flows through it,
    /// so `dist-append-backward` treats its results as constants.
    fn has_zero_gradient(&self) -> bool {
        false
    }

    /// The instance `op` as linalg (and tensor, arith, math) ops on the
    /// tensors it has: one value per result.
    fn lower<'c, 'a>(&self, b: &mut Builder<'c, 'a>, op: OperationRef<'c, 'a>) -> Lowered<'c, Vec<Value<'c, 'a>>>;

    /// Completes the instance `op` of a partitioned function where its
    /// local form computes otherwise than its global one (a shard's offset,
    /// a count of the whole); its values already have their local types.
    fn localize<'c, 'a>(&self, _op: OperationRef<'c, 'a>, _local: &mut dyn Localize<'c, 'a>) -> Lowered<'c, ()> {
        Ok(())
    }

    /// What operand `operand`'s padding becomes before the op reduces over
    /// a dim split unevenly (`dist-partition`), given the reduction's
    /// identity: the identity, which makes every term of a padded entry
    /// the identity, for an op whose terms are products of its operands.
    /// An operand the terms divide by is an exception.
    fn padding_fill(&self, _operand: usize, identity: f64) -> f64 {
        identity
    }

    /// Whether a sum of its operands may be taken before it, all at once:
    /// `f(a1 + a2, b1 + b2) = f(a1, b1) + f(a2, b2)` exactly (a sum, a
    /// difference, a negation, a scale, a reshape, a transpose), so that
    /// `dist-schedule-pipeline` may run it once on the microbatches' sums.
    /// False where not declared.
    fn commutes_with_sums(&self) -> bool {
        false
    }

    /// Whether it only reinterprets its operand (a row-major reshape): it
    /// moves no bytes.
    fn is_view(&self) -> bool {
        false
    }

    /// The floating-point operations of its GEMMs, given each value's local
    /// shape; 0 for an op the cost model counts by its bytes alone.
    fn gemm_flops(&self, _op: OperationRef<'_, '_>, _local_shape: &mut dyn FnMut(Value) -> Option<Vec<i64>>) -> f64 {
        0.0
    }

    /// The GEMM FLOPs of each shard of a split the op's work depends on
    /// (causal attention skips the keys after its queries, so a shard of
    /// later queries does more), in shard order; one entry where every
    /// device does the same work. [`OpSpec::gemm_flops`] is the largest.
    fn gemm_flops_by_shard(
        &self,
        op: OperationRef<'_, '_>,
        local_shape: &mut dyn FnMut(Value) -> Option<Vec<i64>>,
    ) -> Vec<f64> {
        vec![self.gemm_flops(op, local_shape)]
    }

    /// For an optimizer step: the operands that hold its optimizer state
    /// (operand 0 is the parameter, operand 1 its gradient).
    fn optimizer_states(&self) -> Option<&'static [usize]> {
        None
    }

    /// For a composite op: the instance `op` as simpler dist ops whose
    /// rules derive the communication its own rule cannot (one value per
    /// result), or `None` where it stays as it is (`dist-decompose`).
    fn decompose<'c, 'a>(
        &self,
        _op: OperationRef<'c, 'a>,
        _compose: &mut dyn Compose<'c, 'a>,
    ) -> Lowered<'c, Option<Vec<Value<'c, 'a>>>> {
        Ok(None)
    }
}

/// What `dist-decompose` offers a description expanding an op.
pub trait Compose<'c, 'a> {
    fn context(&self) -> &'c Context;

    /// Builds `op` in front of the op being expanded, of `operands`,
    /// `results` types and `attributes` (by name); its results.
    fn build(
        &mut self,
        op: DistOp,
        operands: &[Value<'c, 'a>],
        results: &[Type<'c>],
        attributes: &[(&str, Attribute<'c>)],
    ) -> Lowered<'c, Vec<Value<'c, 'a>>>;

    /// A constant of type `ty` holding `value` everywhere, in front of the
    /// op being expanded.
    fn splat(&mut self, ty: Type<'c>, value: f64) -> Lowered<'c, Value<'c, 'a>>;

    /// The value an earlier expansion of the function shared under `key`.
    fn shared(&self, key: Value<'c, 'a>) -> Option<Value<'c, 'a>>;

    /// Shares `value` under `key` with the later expansions (which it
    /// dominates: ops are expanded in program order).
    fn share(&mut self, key: Value<'c, 'a>, value: Value<'c, 'a>);
}

/// What `dist-partition` offers a description completing an op.
pub trait Localize<'c, 'a> {
    fn context(&self) -> &'c Context;

    /// The mesh axes that split each dim of `value`, if it is a value of
    /// the partitioned function.
    fn split(&self, value: Value<'c, 'a>) -> Option<Vec<Vec<Axis>>>;

    /// The devices along `axes`.
    fn shards(&self, axes: &[Axis]) -> i64;

    /// The global shape of `value`, if it is a value of the partitioned
    /// function (its type is already local).
    fn global_shape(&self, value: Value<'c, 'a>) -> Option<Vec<i64>>;

    /// What a local count of `dims` of `value` (their local entries,
    /// padding included) is of the global count: the factor that turns a
    /// local mean over them into the global one. 1 when they are whole.
    fn share(&self, value: Value<'c, 'a>, dims: &[usize]) -> f64 {
        let (Some(global), local) = (
            self.global_shape(value),
            crate::vocabulary::linalg::common::shape(value),
        ) else {
            return 1.0;
        };
        let count = |shape: &[i64]| dims.iter().map(|&d| shape[d]).product::<i64>() as f64;
        count(&local) / count(&global)
    }

    /// This device's first global index along a dim split over `axes` with
    /// `size` local entries: `dist.axis_index` of `axes` times `size`,
    /// built once at the top of the function.
    fn offset(&mut self, axes: &[Axis], size: i64, location: Location<'c>) -> Lowered<'c, Value<'c, 'a>>;

    /// The `index` constant `value`, built once at the top of the function.
    fn index(&mut self, value: i64, location: Location<'c>) -> Lowered<'c, Value<'c, 'a>>;
}

/// Multiplies the value `value` that `op` defines by `factor` with a
/// `dist.scale` right after `op`, for every reader but the scale.
fn scale_after<'c, 'a>(op: OperationRef<'c, 'a>, value: Value<'c, 'a>, factor: f64, context: &'c Context) {
    let factor = FloatAttribute::new(context, Type::float64(context), factor);
    let scale = dist::scale(context, value, factor, op.location());
    let block = op.block().expect("in the body");
    let scale = block.insert_operation_after(op, scale.into());
    let scaled = scale.result_at(0).expect("one result");
    replace_all_uses_except(value, scaled, scale);
}

/// Where this device's part of a dim starts: its shard's first index
/// `shard` (None: the dim is whole here) plus the offset the program gave
/// the op (`given`: where the dim's global operand starts), the sum built
/// right before `op`; None if neither.
fn shifted_offset<'c, 'a>(
    op: OperationRef<'c, 'a>,
    given: Option<Value<'c, 'a>>,
    shard: Option<Value<'c, 'a>>,
) -> Option<Value<'c, 'a>> {
    match (given, shard) {
        (Some(given), Some(shard)) => {
            let block = op.block().expect("in the body");
            let sum = block.insert_operation_before(op, arith::addi(given, shard, op.location()));
            Some(sum.result_at(0).expect("one result").into())
        }
        (given, shard) => given.or(shard),
    }
}

/// An operand of a gradient op, taken from its forward op.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Read {
    /// Forward operand `i`; absent trailing (optional) operands are skipped.
    Operand(usize),
    /// Forward result `i` (softmax's output, layer_norm's statistics).
    Result(usize),
    /// The gradient of the forward op's result 0.
    Dout,
    /// The gradient of a reduction that chooses elements (`reduce_max`,
    /// `reduce_min`), divided by how many elements equal its result at
    /// each reduced position: ties share it evenly, as in JAX, PyTorch and
    /// TensorFlow (the maximum of copies of one value is that value). The
    /// count is the rule's own op applied to a gradient of ones (an
    /// indicator of the chosen elements), summed over the reduced dims: a
    /// reduced dim split over a mesh axis leaves it partial, a sum over
    /// the devices.
    DoutPerTie,
}

impl Read {
    /// Whether this reads the output gradient (in either form).
    pub fn is_dout(self) -> bool {
        matches!(self, Read::Dout | Read::DoutPerTie)
    }
}

/// An attribute of a gradient op, taken from its forward op.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Attr {
    /// The forward attribute of that name, when set.
    Copy(&'static str),
    /// The inverse of the forward `perm`.
    InversePerm,
    /// The unit attribute of that name, set where the forward's is not.
    Toggled(&'static str),
}

/// The forward operands whose gradients a gradient op returns, one per
/// result, each of its operand's type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grads {
    /// These operands, in order.
    Of(&'static [usize]),
    /// Every operand (of a variadic op).
    Every,
}

/// How the gradient of a forward op is computed: one op of the dialect
/// that reads the gradient of the forward op's result 0 and returns the
/// gradients of some of its operands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GradRule {
    pub op: DistOp,
    pub reads: &'static [Read],
    pub grads: Grads,
    pub attributes: &'static [Attr],
}

impl GradRule {
    /// The operands whose gradients it returns, in order, for a forward op
    /// of `operands` operands.
    pub fn grad_operands(&self, operands: usize) -> Vec<usize> {
        match self.grads {
            Grads::Of(list) => list.to_vec(),
            Grads::Every => (0..operands).collect(),
        }
    }
}

/// The description of `op`, if it is a compute op.
pub fn spec(op: DistOp) -> Option<&'static dyn OpSpec> {
    use DistOp::*;
    Some(match op {
        Matmul => &matmul::MATMUL,
        MatmulGrad => &matmul::MATMUL_GRAD,
        Add => &elementwise::ADD,
        Sub => &elementwise::SUB,
        Mul => &elementwise::MUL,
        AddGrad => &elementwise::ADD_GRAD,
        SubGrad => &elementwise::SUB_GRAD,
        MulGrad => &elementwise::MUL_GRAD,
        Div => &elementwise::DIV,
        Maximum => &elementwise::MAXIMUM,
        Minimum => &elementwise::MINIMUM,
        DivGrad => &elementwise::DIV_GRAD,
        MaximumGrad => &elementwise::MAXIMUM_GRAD,
        MinimumGrad => &elementwise::MINIMUM_GRAD,
        Pow => &elementwise::POW,
        PowGrad => &elementwise::POW_GRAD,
        Rem => &elementwise::REM,
        RemGrad => &elementwise::REM_GRAD,
        Exp => &math::EXP,
        Log => &math::LOG,
        Sqrt => &math::SQRT,
        Rsqrt => &math::RSQRT,
        Sigmoid => &math::SIGMOID,
        Silu => &math::SILU,
        Tanh => &math::TANH,
        Neg => &math::NEG,
        Reciprocal => &math::RECIPROCAL,
        SqrtGrad => &math::SQRT_GRAD,
        RsqrtGrad => &math::RSQRT_GRAD,
        SigmoidGrad => &math::SIGMOID_GRAD,
        SiluGrad => &math::SILU_GRAD,
        TanhGrad => &math::TANH_GRAD,
        ReciprocalGrad => &math::RECIPROCAL_GRAD,
        Abs => &math::ABS,
        Square => &math::SQUARE,
        Sin => &math::SIN,
        Cos => &math::COS,
        Erf => &math::ERF,
        Erfc => &math::ERFC,
        Log1p => &math::LOG1P,
        Expm1 => &math::EXPM1,
        Atan => &math::ATAN,
        Sign => &math::SIGN,
        Floor => &math::FLOOR,
        Ceil => &math::CEIL,
        Round => &math::ROUND,
        AbsGrad => &math::ABS_GRAD,
        SquareGrad => &math::SQUARE_GRAD,
        SinGrad => &math::SIN_GRAD,
        CosGrad => &math::COS_GRAD,
        ErfGrad => &math::ERF_GRAD,
        ErfcGrad => &math::ERFC_GRAD,
        Log1pGrad => &math::LOG1P_GRAD,
        Expm1Grad => &math::EXPM1_GRAD,
        AtanGrad => &math::ATAN_GRAD,
        Compare => &logic::COMPARE,
        Select => &logic::SELECT,
        SelectGrad => &logic::SELECT_GRAD,
        And => &logic::AND,
        Or => &logic::OR,
        Xor => &logic::XOR,
        Not => &logic::NOT,
        IsFinite => &logic::IS_FINITE,
        Iota => &logic::IOTA,
        Scale => &activation::SCALE,
        Cast => &activation::CAST,
        Gelu => &activation::GELU,
        GeluGrad => &activation::GELU_GRAD,
        Relu => &activation::RELU,
        ReluGrad => &activation::RELU_GRAD,
        LayerNorm => &norm::LAYER_NORM,
        LayerNormGrad => &norm::LAYER_NORM_GRAD,
        RmsNorm => &norm::RMS_NORM,
        RmsNormGrad => &norm::RMS_NORM_GRAD,
        Attention => &attention::ATTENTION,
        AttentionGrad => &attention::ATTENTION_GRAD,
        CausalMask => &mask::CAUSAL_MASK,
        CausalMaskGrad => &mask::CAUSAL_MASK_GRAD,
        MaskPadding => &mask::MASK_PADDING,
        TakeAlong => &loss::TAKE_ALONG,
        TakeAlongGrad => &loss::TAKE_ALONG_GRAD,
        TopK => &routing::TOP_K,
        TopKGrad => &routing::TOP_K_GRAD,
        CrossEntropy => &loss::CROSS_ENTROPY,
        CrossEntropyGrad => &loss::CROSS_ENTROPY_GRAD,
        Embedding => &embedding::EMBEDDING,
        EmbeddingGrad => &embedding::EMBEDDING_GRAD,
        Softmax => &softmax::SOFTMAX,
        SoftmaxGrad => &softmax::SOFTMAX_GRAD,
        ReduceSum => &reduce::REDUCE_SUM,
        ReduceMean => &reduce::REDUCE_MEAN,
        ReduceSumGrad => &reduce::REDUCE_SUM_GRAD,
        ReduceMeanGrad => &reduce::REDUCE_MEAN_GRAD,
        ReduceMax => &reduce::REDUCE_MAX,
        ReduceMin => &reduce::REDUCE_MIN,
        ReduceMaxGrad | ReduceMinGrad => &reduce::REDUCE_CHOICE_GRAD,
        Cumsum => &reduce::CUMSUM,
        Reshape => &shape::RESHAPE,
        StageBoundary => &pipeline::STAGE_BOUNDARY,
        Transpose => &shape::TRANSPOSE,
        Slice => &shape::SLICE,
        SliceGrad => &shape::SLICE_GRAD,
        Concat => &shape::CONCAT,
        ConcatGrad => &shape::CONCAT_GRAD,
        AdamW => &optimizer::ADAMW,
        Sgd => &optimizer::SGD,
        AllReduce
        | AllReduceCoalesced
        | ReduceScatter
        | ReduceScatterCoalesced
        | AllGather
        | AllToAll
        | AllSlice
        | AllReduceStart
        | ReduceScatterStart
        | AllGatherStart
        | AllToAllStart
        | Wait
        | Send
        | Recv
        | Mesh
        | AxisIndex => {
            return None;
        }
    })
}

/// The sharding rule of one op instance: its description's, a
/// collective's layout transfer (an async start has its synchronous
/// form's), or a tensor constant's (which `dist-append-backward` seeds the
/// backward with).
pub fn rule_for(desc: &OpDesc) -> Result<Rule, RuleError> {
    if desc.name == CONSTANT {
        return constant_rule(desc);
    }
    let op = DistOp::from_name(&desc.name)
        .ok_or_else(|| RuleError::NoRule(desc.name.clone()))?
        .synchronous();
    if CollectiveKind::of(op).is_some() {
        return collective_rule(desc, op).map(Rule::Collective);
    }
    spec(op).ok_or_else(|| RuleError::NoRule(desc.name.clone()))?.rule(desc)
}

#[cfg(test)]
pub(crate) mod testing {
    //! Building op instances and reading their rules in the descriptions'
    //! tests.

    use crate::vocabulary::rules::{FactorRule, OpAttrs, OpDesc, Rule};

    pub fn desc(name: &str, operands: &[&[i64]], results: &[&[i64]], attrs: OpAttrs) -> OpDesc {
        OpDesc {
            name: name.into(),
            operands: operands.iter().map(|s| s.to_vec()).collect(),
            results: results.iter().map(|s| s.to_vec()).collect(),
            attrs,
        }
    }

    pub fn factor_rule(d: &OpDesc) -> FactorRule {
        match super::rule_for(d).unwrap() {
            Rule::Factor(rule) => rule,
            other => panic!("expected a factor rule, got {other:?}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::testing::desc;
    use super::*;
    use crate::vocabulary::rules::OpAttrs;

    #[test]
    fn unknown_ops_have_no_rule() {
        let err = rule_for(&desc("arith.addf", &[], &[], OpAttrs::default())).unwrap_err();
        assert_eq!(err.to_string(), "no sharding rule for 'arith.addf'");
        let err = rule_for(&desc("dist.frobnicate", &[], &[], OpAttrs::default())).unwrap_err();
        assert_eq!(err, RuleError::NoRule("dist.frobnicate".into()));
    }

    #[test]
    fn every_gradient_reads_the_output_gradient_once() {
        for &op in DistOp::ALL {
            let Some(rule) = spec(op).and_then(|s| s.gradient()) else {
                continue;
            };
            let reads_dout = rule.reads.iter().filter(|r| r.is_dout()).count();
            assert_eq!(reads_dout, 1, "{}", op.name());
            assert!(!rule.grad_operands(1).is_empty(), "{}", op.name());
        }
    }
}
