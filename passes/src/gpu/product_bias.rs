//! The `dist-fuse-product-bias` pass. Its documentation (what it does,
//! preconditions, before and after) is [`INFO`]'s description:
//! `dist-opt --help-passes` prints it and docs/passes.md holds it.

use super::tensor_ir::{iterators_text, map_text, operand_loops, parse, reassociation};
use crate::error::{PassError, fail};
use crate::pass::{DistPass, PassInfo};
use dist_dialect::ir::{
    OperationExt, ancestor_in, block_argument, block_ops, context_of, element_type, erase, insert_before,
    is_before_in_block, linalg_contraction_roles, linalg_static_loops, op_name, op_result, replace_all_uses,
    set_operand, static_tensor_shape, users, walk_preorder,
};
use melior::Context;
use melior::ir::attribute::DenseI32ArrayAttribute;
use melior::ir::block::BlockArgument;
use melior::ir::operation::{OperationBuilder, OperationLike, WalkResult};
use melior::ir::{Attribute, Block, BlockLike, Identifier, OperationRef, Region, RegionLike, Type, Value, ValueLike};

/// The attribute that marks a product's bias broadcast: `dist-schedule-gpu`
/// leaves it unplanned and `dist-call-blas{library=cublaslt}` turns it into
/// the product's bias epilogue.
pub const PRODUCT_BIAS: &str = "dist.product_bias";

pub const INFO: PassInfo = PassInfo {
    argument: "dist-fuse-product-bias",
    summary: "Fold a bias added to a product's result into the product (cuBLASLt's bias epilogue): one call, no \
              kernel for the add",
    description: r#"`dist-fuse-product-bias`: a bias vector added to a product's result
becomes the product's initial value, a broadcast that cuBLASLt applies
as its bias epilogue.

`y = x W + b` is a product and an elementwise add, a kernel that reads
and writes the whole product once more. A product accumulates into its
initial value, so starting it from `b` broadcast along the rows instead of
from zeros gives `y` with no add. The broadcast is marked
`dist.product_bias`: `dist-schedule-gpu` (matmul=cublaslt) leaves it
unplanned, and `dist-call-blas{library=cublaslt}` passes the bias vector
to the runtime's cuBLASLt call (`CUBLASLT_EPILOGUE_BIAS`), which adds it
while it writes the product, instead of filling the output first.

- **Precondition:** linalg ops on static tensors, before
  `dist-schedule-gpu` and bufferization; in the GPU pipeline with
  products on cuBLASLt (`dist-lower-to-gpu-kernels{matmul=cublaslt}`).
- **Folded:** an all-parallel `linalg.generic` whose body is one
  `arith.addf` of its two f32 inputs, one the result of a contraction
  that `dist-call-blas` takes (directly or through a
  `tensor.expand_shape` that keeps the last dim), read by nothing else and
  started from a splat of +0.0, in the product's block, the other a
  vector indexed by the last loop (defined before the product), the
  product's last dim being its n dim (the contiguous dim of its fresh
  output: cuBLASLt's bias runs along D's rows, C's n).
- **Effect:** the same values up to the order of one addition: the
  product accumulates onto `b` (cuBLASLt adds `b` to the finished sum in
  its epilogue), where the add added `b` to the finished sum.

```mlir
// before
%p = linalg.matmul ins(%x, %w : tensor<512x1024xf32>, tensor<1024x4096xf32>) outs(%zeros : tensor<512x4096xf32>)
%y = linalg.generic {indexing_maps = [(d0, d1) -> (d0, d1), (d0, d1) -> (d1), (d0, d1) -> (d0, d1)], ...}
    ins(%p, %b : tensor<512x4096xf32>, tensor<4096xf32>) outs(%e : tensor<512x4096xf32>) { addf }
// after
%bias = linalg.generic {indexing_maps = [(d0, d1) -> (d1), (d0, d1) -> (d0, d1)], ...}
    ins(%b : tensor<4096xf32>) outs(%empty : tensor<512x4096xf32>) { yield } {dist.product_bias}
%y = linalg.matmul ins(%x, %w : tensor<512x1024xf32>, tensor<1024x4096xf32>) outs(%bias : tensor<512x4096xf32>)
```
"#,
    anchor: "builtin.module",
    options: Vec::new,
    dialects: &["tensor", "linalg", "arith"],
    create: || Box::new(FuseProductBias),
};

struct FuseProductBias;

impl DistPass for FuseProductBias {
    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let context = context_of(&module);
        let mut folds = Vec::new();
        walk_preorder(&module, |op| {
            if op_name(&op) == "gpu.module" {
                return WalkResult::Skip;
            }
            if let Some(fold) = bias_add(&op) {
                folds.push(fold);
            }
            WalkResult::Advance
        });
        for fold in folds {
            fold.apply(context)?;
        }
        Ok(())
    }
}

/// A bias add the pass folds into its product.
struct BiasAdd<'c, 'a> {
    add: OperationRef<'c, 'a>,
    product: OperationRef<'c, 'a>,
    /// The add's input from the product: its result, or its expansion.
    sum: Value<'c, 'a>,
    bias: Value<'c, 'a>,
}

/// The bias add `op` is, with its product and bias vector, where it can be
/// folded (see the pass's description).
fn bias_add<'c, 'a>(op: &OperationRef<'c, 'a>) -> Option<BiasAdd<'c, 'a>> {
    if op_name(op) != "linalg.generic" || op.operand_count() != 3 || op.result_count() != 1 {
        return None;
    }
    let loops = linalg_static_loops(op)?;
    let rank = loops.len();
    if rank == 0 || loops.iter().any(|&(_, reduces)| reduces) || !adds_its_inputs(op) {
        return None;
    }
    let maps = operand_loops(op)?;
    let identity: Vec<usize> = (0..rank).collect();
    let last = vec![rank - 1];
    let f32 = Type::float32(context_of(op));
    let (sum, bias) = match (&maps[0], &maps[1]) {
        (a, b) if *a == identity && *b == last => (op.operand_at(0)?, op.operand_at(1)?),
        (a, b) if *a == last && *b == identity => (op.operand_at(1)?, op.operand_at(0)?),
        _ => return None,
    };
    if maps[2] != identity || element_type(sum.r#type()) != f32 || element_type(bias.r#type()) != f32 {
        return None;
    }
    // The product's result, or its expansion that keeps the last dim whole,
    // all in the add's block (the add runs as often as the product).
    let mut product = op_result(sum)?.owner();
    if op_name(&product) == "tensor.expand_shape" {
        let groups = reassociation(&product)?;
        if groups.last()?.len() != 1 || users(sum).len() != 1 || product.block() != op.block() {
            return None;
        }
        product = op_result(product.operand_at(0)?)?.owner();
    }
    let (roles, batch_loops) = linalg_contraction_roles(&product)?;
    // cuBLASLt's bias runs along D's rows: the output's n dim, contiguous
    // in a fresh output (the runtime then computes C^T = B^T A^T).
    let n_role = batch_loops as i64 + 1;
    let along_n = roles[2].last() == Some(&n_role);
    let zero_start = product.operand_at(2).is_some_and(is_zero_splat);
    let only_reader = users(product.result_at(0)?).len() == 1;
    (product.result_count() == 1
        && only_reader
        && zero_start
        && along_n
        && product.block() == op.block()
        && available_at(bias, &product))
    .then_some(BiasAdd {
        add: *op,
        product,
        sum,
        bias,
    })
}

/// Whether `value` is defined where `at` can use it: by an op before it in
/// its block, or as an argument of its block or of a block around it.
fn available_at(value: Value<'_, '_>, at: &OperationRef<'_, '_>) -> bool {
    if let Some(result) = op_result(value) {
        let owner = result.owner();
        return owner.block() == at.block() && is_before_in_block(&owner, at);
    }
    BlockArgument::try_from(value).is_ok_and(|argument| ancestor_in(argument.owner(), *at).is_some())
}

/// Whether the body of the linalg op `op` yields the sum of its two
/// inputs, and nothing else.
fn adds_its_inputs(op: &OperationRef<'_, '_>) -> bool {
    let Some(body) = op.region_at(0).and_then(|r| r.first_block()) else {
        return false;
    };
    let ops = block_ops(body);
    let [add, yield_op] = ops.as_slice() else { return false };
    let argument = |i| block_argument(&body, i).map(Value::from);
    let operands = (add.operand_at(0), add.operand_at(1));
    op_name(add) == "arith.addf"
        && yield_op.operand_at(0) == add.result_at(0).map(Value::from)
        && (operands == (argument(0), argument(1)) || operands == (argument(1), argument(0)))
}

/// Whether `value` is a splat constant of +0.0 (a product started from
/// -0.0 keeps the sign of an all-zero sum, which starting from the bias
/// would not).
fn is_zero_splat(value: Value<'_, '_>) -> bool {
    let Some(result) = op_result(value) else { return false };
    let constant = result.owner();
    op_name(&constant) == "arith.constant"
        && constant.attribute("value").is_ok_and(|v| {
            let text = v.to_string();
            text.strip_prefix("dense<")
                .and_then(|t| t.split_once('>'))
                .and_then(|(literal, _)| literal.trim().parse::<f64>().ok())
                .is_some_and(|v| v == 0.0 && v.is_sign_positive())
        })
}

impl<'c> BiasAdd<'c, '_> {
    /// Starts the product from the bias broadcast along its last dim, and
    /// gives the add's readers the product's result (or its expansion).
    fn apply(self, context: &'c Context) -> Result<(), PassError> {
        let location = self.product.location();
        let out_type = self.product.result_at(0).expect("a product's result").r#type();
        // A tensor.empty of the output's type needs its shape static.
        let rank = static_tensor_shape(out_type)
            .ok_or_else(|| fail(location, "a product of dynamic shape"))?
            .len();
        let empty = OperationBuilder::new("tensor.empty", location)
            .add_results(&[out_type])
            .build()
            .map_err(|e| fail(location, &e.to_string()))?;
        let empty = insert_before(self.product, empty)
            .result_at(0)
            .expect("a tensor")
            .into();
        let body = Block::new(&[(Type::float32(context), location), (Type::float32(context), location)]);
        let region = Region::new();
        let body = region.append_block(body);
        body.append_operation(
            OperationBuilder::new("linalg.yield", location)
                .add_operands(&[block_argument(&body, 0).expect("the bias element").into()])
                .build()
                .map_err(|e| fail(location, &e.to_string()))?,
        );
        let maps = format!(
            "[{}, {}]",
            map_text(rank, &[rank - 1]),
            map_text(rank, &(0..rank).collect::<Vec<_>>())
        );
        let broadcast = OperationBuilder::new("linalg.generic", location)
            .add_operands(&[self.bias, empty])
            .add_results(&[out_type])
            .add_attributes(&[
                (
                    Identifier::new(context, "indexing_maps"),
                    parse(context, &maps, location)?,
                ),
                (
                    Identifier::new(context, "iterator_types"),
                    parse(context, &iterators_text(&vec![false; rank]), location)?,
                ),
                (
                    Identifier::new(context, "operandSegmentSizes"),
                    Attribute::from(DenseI32ArrayAttribute::new(context, &[1, 1])),
                ),
                (Identifier::new(context, PRODUCT_BIAS), Attribute::unit(context)),
            ])
            .add_regions([region])
            .build()
            .map_err(|e| fail(location, &e.to_string()))?;
        let broadcast = insert_before(self.product, broadcast);
        set_operand(self.product, 2, broadcast.result_at(0).expect("a tensor"));
        replace_all_uses(self.add.result_at(0).expect("a result"), self.sum);
        // SAFETY: its result's uses were replaced, and it is listed once.
        #[allow(unsafe_code)]
        unsafe {
            erase(self.add)
        };
        Ok(())
    }
}
