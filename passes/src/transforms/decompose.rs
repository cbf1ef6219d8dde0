//! The `dist-decompose` pass. Its documentation (what it does,
//! preconditions, before and after) is [`INFO`]'s description:
//! `dist-opt --help-passes` prints it and docs/passes.md holds it.

use crate::error::PassError;
use crate::ops::{self, Compose};
use crate::pass::{DistPass, PassInfo};
use dist_dialect::DistOp;
use dist_dialect::ir::build::splat_attribute;
use dist_dialect::ir::{Located, build_op, context_of, erase, insert_before, nested_ops, replace_all_uses};
use melior::Context;
use melior::ir::operation::OperationLike;
use melior::ir::{Attribute, BlockLike, Identifier, OperationRef, Type, Value, ValueLike};
use rustc_hash::FxHashMap;

#[derive(Debug, Default)]
pub struct Decompose;

pub const INFO: PassInfo = PassInfo {
    argument: "dist-decompose",
    summary: "Expand composite ops (cross_entropy) into the ops whose sharding rules derive their communication",
    description: r#"`dist-decompose`: expands each composite op into simpler dist ops, so
that propagation and resolution derive the communication its own rule
cannot express.

`dist.cross_entropy` becomes the log-sum-exp of the logits over the
vocabulary (`reduce_max`, `sub`, `exp`, `reduce_sum`, `log`, `add`), the
picked logit (`take_along`) and their mean difference (`reduce_mean`);
`dist.cross_entropy_grad` becomes `exp(logits - lse) * c -
take_along_grad(labels, c)` with `c = dloss / N`, reusing the forward's
log-sum-exp (in the same block; a gradient without its forward builds
its own). With the vocabulary split over a mesh axis, the maximum is
partial max, the sum of exponentials and the picked logit partial sum:
resolution places three all-reduces of one value per position
(Megatron's vocab-parallel cross-entropy) and no device holds a whole
row of logits; a gradient reusing the forward's log-sum-exp needs no
communication.

Preconditions: none (a function without composite ops is unchanged).
`dist-lower-to-local` runs it first; a single device (`dist-run -n 1`)
keeps the fused op, which lowers to fewer loops.

Before:
```mlir
%loss = dist.cross_entropy %logits, %labels : (tensor<4x8x64xf32>, tensor<4x8xi64>) -> tensor<f32>
```
After:
```mlir
%0 = dist.reduce_max %logits {dims = array<i64: 2>, keepdim} : (tensor<4x8x64xf32>) -> tensor<4x8x1xf32>
%1 = dist.sub %logits, %0 : (tensor<4x8x64xf32>, tensor<4x8x1xf32>) -> tensor<4x8x64xf32>
%2 = dist.exp %1 : (tensor<4x8x64xf32>) -> tensor<4x8x64xf32>
%3 = dist.reduce_sum %2 {dims = array<i64: 2>, keepdim} : (tensor<4x8x64xf32>) -> tensor<4x8x1xf32>
%4 = dist.log %3 : (tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
%5 = dist.add %4, %0 : (tensor<4x8x1xf32>, tensor<4x8x1xf32>) -> tensor<4x8x1xf32>
%6 = dist.reshape %5 : (tensor<4x8x1xf32>) -> tensor<4x8xf32>
%7 = dist.take_along %logits, %labels : (tensor<4x8x64xf32>, tensor<4x8xi64>) -> tensor<4x8xf32>
%8 = dist.sub %6, %7 : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
%loss = dist.reduce_mean %8 {dims = array<i64: 0, 1>} : (tensor<4x8xf32>) -> tensor<f32>
```
"#,
    anchor: "func.func",
    options: Vec::new,
    dialects: &[],
    create: || Box::new(Decompose),
};

/// Builds in front of the op being expanded; keeps the values expansions
/// share, by their key's handle and the block they were built in (a value
/// built in a branch or loop body does not dominate the ops after it).
struct Composer<'c, 'a> {
    context: &'c Context,
    at: OperationRef<'c, 'a>,
    shared: FxHashMap<(*const std::ffi::c_void, *const std::ffi::c_void), Value<'c, 'a>>,
}

impl Composer<'_, '_> {
    fn shared_key(&self, key: Value<'_, '_>) -> (*const std::ffi::c_void, *const std::ffi::c_void) {
        let block = self.at.block().expect("an expanded op is in a block");
        (key.to_raw().ptr, block.to_raw().ptr)
    }
}

impl<'c, 'a> Compose<'c, 'a> for Composer<'c, 'a> {
    fn context(&self) -> &'c Context {
        self.context
    }

    fn build(
        &mut self,
        op: DistOp,
        operands: &[Value<'c, 'a>],
        results: &[Type<'c>],
        attributes: &[(&str, Attribute<'c>)],
    ) -> Result<Vec<Value<'c, 'a>>, Located<'c>> {
        let attributes: Vec<(Identifier<'c>, Attribute<'c>)> = attributes
            .iter()
            .map(|&(name, value)| (Identifier::new(self.context, name), value))
            .collect();
        let built = build_op(op.name(), self.at.location(), operands, results, &attributes)?;
        let built = insert_before(self.at, built);
        Ok(built.results().map(Value::from).collect())
    }

    fn splat(&mut self, ty: Type<'c>, value: f64) -> Result<Value<'c, 'a>, Located<'c>> {
        let attributes = [(
            Identifier::new(self.context, "value"),
            splat_attribute(self.context, ty, value),
        )];
        let built = build_op("arith.constant", self.at.location(), &[], &[ty], &attributes)?;
        let built = insert_before(self.at, built);
        Ok(built.result(0).expect("a constant has its value").into())
    }

    fn shared(&self, key: Value<'c, 'a>) -> Option<Value<'c, 'a>> {
        self.shared.get(&self.shared_key(key)).copied()
    }

    fn share(&mut self, key: Value<'c, 'a>, value: Value<'c, 'a>) {
        self.shared.insert(self.shared_key(key), value);
    }
}

impl DistPass for Decompose {
    fn run(&mut self, function: OperationRef<'_, '_>) -> Result<(), PassError> {
        let ops = nested_ops(&function, |op| DistOp::of(op).and_then(ops::spec).is_some());
        let Some(&first) = ops.first() else {
            return Ok(());
        };
        let mut composer = Composer {
            context: context_of(&function),
            at: first,
            shared: FxHashMap::default(),
        };
        for op in ops {
            let spec = DistOp::of(&op)
                .and_then(ops::spec)
                .expect("collected for its description");
            composer.at = op;
            let Some(values) = spec.decompose(op, &mut composer)? else {
                continue;
            };
            for (result, value) in op.results().zip(values) {
                replace_all_uses(result, value);
            }
            // SAFETY: its results have no uses left, and the op is not
            // visited again (the list was collected before).
            #[allow(unsafe_code)]
            unsafe {
                erase(op)
            };
        }
        Ok(())
    }
}
