//! The `dist-call-blas` pass. Its documentation (what it does, preconditions, before
//! and after) is [`INFO`]'s description: `dist-opt --help-passes` prints it
//! and docs/passes.md holds it.

use super::runtime_abi::{self, RuntimeFn};
use crate::error::{PassError, fail};
use crate::pass::{DistPass, PassInfo};
use dist_dialect::ir::{
    OperationExt, context_of, element_type, erase, linalg_contraction_roles, op_name, walk_preorder,
};
use melior::dialect::arith;
use melior::dialect::ods::memref;
use melior::ir::attribute::IntegerAttribute;
use melior::ir::operation::{OperationLike, WalkResult};
use melior::ir::{BlockLike, BlockRef, Operation, OperationRef, RegionLike, Value, ValueLike};

#[derive(Debug, Default)]
pub struct CallBlas;

pub const INFO: PassInfo = PassInfo {
    argument: "dist-call-blas",
    summary: "Replace f32 and bf16 linalg contractions on memrefs by calls of the runtime's GEMMs",
    description: r#"`dist-call-blas`: f32 linalg contractions on memrefs become calls of the
runtime's OpenBLAS GEMM (`dist_rt_contract_f32`), and bf16 ones accumulated
in f32 calls of oneDNN's bf16 GEMM (`dist_rt_contract_bf16`: the CPU's
`avx512_bf16` dot products where it has them).

Preconditions: bufferized (`one-shot-bufferize`). Every linalg op with
f32 inputs whose body is exactly `out + a * b`, or with bf16 inputs and
body `out + extf(a) * extf(b)`, into an f32 output, and whose loops are batch, m, n and
one k loop (`linalg.matmul`, `linalg.batch_matmul`, the generic
contractions `convert-dist-to-linalg` writes for a batched operand times
an unbatched one and for rank 4, transposes in the maps) is replaced;
others stay for `convert-linalg-to-loops` (maps with a constant, which a
size-1 broadcast batch dim gives, among them). The call accumulates into the output, as the
op did. Each operand goes as an unranked memref (any layout) with the
role of each of its dims packed four bits a dim; the runtime folds
batches into one GEMM where the layouts allow and reads transposes as
BLAS transposes.

Before:
```mlir
linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x16xf32>) outs(%c : memref<4x16xf32>)
```
After:
```mlir
%0 = memref.cast %a : memref<4x8xf32> to memref<*xf32>
%1 = memref.cast %b : memref<8x16xf32> to memref<*xf32>
%2 = memref.cast %c : memref<4x16xf32> to memref<*xf32>
%c49_i64 = arith.constant 49 : i64    // a: [m, k] (0x31)
%c35_i64 = arith.constant 35 : i64    // b: [k, n] (0x23)
%c33_i64 = arith.constant 33 : i64    // c: [m, n] (0x21)
%c0_i64 = arith.constant 0 : i64      // no batch loops
call @dist_rt_contract_f32(%0, %1, %2, %c49_i64, %c35_i64, %c33_i64, %c0_i64) : (...) -> ()
```
"#,
    anchor: "builtin.module",
    options: Vec::new,
    dialects: &["arith", "func", "memref"],
    create: || Box::new(CallBlas),
};

/// Packs the roles of one operand's dims (`-1` broadcast, else the loop
/// role) four bits a dim, the first dim lowest: 0 is a broadcast dim,
/// `r + 1` role `r`.
pub fn pack(roles: &[i64]) -> i64 {
    roles.iter().rev().fold(0, |packed, &r| (packed << 4) | (r + 1))
}

impl DistPass for CallBlas {
    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let mut contractions = Vec::new();
        walk_preorder(&module, |op| {
            if op_name(&op).starts_with("linalg.")
                && let Some(found) = linalg_contraction_roles(&op)
            {
                contractions.push((op, found));
            }
            WalkResult::Advance
        });
        if contractions.is_empty() {
            return Ok(());
        }
        let context = context_of(&module);
        let mut callees = Vec::new();
        for input in runtime_abi::CONTRACTED_ELEMENTS {
            let callee = runtime_abi::contract(input);
            let function_type = callee.function_type(context);
            callees.push((callee, function_type));
        }
        let mut declared = Vec::new();
        for (op, (roles, batch)) in contractions {
            let location = op.location();
            let block = op.block().expect("a contraction is in a block");
            let input = element_type(op.operand_at(0).expect("three operands").r#type());
            let (callee, function_type) = callees
                .iter()
                .find(|(_, f)| f.input(0).ok().map(element_type) == Some(input))
                .ok_or_else(|| {
                    fail(
                        location,
                        "internal error: no runtime GEMM takes this contraction's inputs",
                    )
                })?;
            if !declared.contains(&callee.name) {
                declare(module, callee);
                declared.push(callee.name.clone());
            }
            let parameter = |i| function_type.input(i).map_err(|e| fail(location, &e.to_string()));
            let i64_type = parameter(3)?;
            let mut arguments: Vec<Value> = Vec::with_capacity(7);
            for i in 0..3 {
                let operand = op.operand_at(i).expect("three operands");
                let cast = memref::cast(context, parameter(i)?, operand, location).into();
                arguments.push(insert(block, op, cast));
            }
            for value in roles.iter().map(|r| pack(r)).chain([batch as i64]) {
                let constant = arith::constant(context, IntegerAttribute::new(i64_type, value).into(), location);
                arguments.push(insert(block, op, constant));
            }
            block.insert_operation_before(op, callee.call(context, &arguments, location));
            // SAFETY: the call took its place (it has no results), and it was collected once.
            #[allow(unsafe_code)]
            unsafe {
                erase(op)
            };
        }
        Ok(())
    }
}

/// Inserts `new` before `at` and returns its result.
fn insert<'c, 'a>(block: BlockRef<'c, 'a>, at: OperationRef<'c, 'a>, new: Operation<'c>) -> Value<'c, 'a> {
    block
        .insert_operation_before(at, new)
        .result_at(0)
        .expect("one result")
        .into()
}

/// Declares the runtime function at the end of the module (once).
fn declare(module: OperationRef<'_, '_>, callee: &RuntimeFn) {
    let body = module
        .region_at(0)
        .and_then(|r| r.first_block())
        .expect("a module has a body");
    let declared = dist_dialect::ir::block_ops(body)
        .iter()
        .any(|op| op_name(op) == "func.func" && dist_dialect::ir::symbol_name(op) == callee.name);
    if !declared {
        body.append_operation(callee.declaration(context_of(&module), module.location()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_pack_four_bits_a_dim() {
        // No batch loop: m = 0, n = 1, k = 2.
        assert_eq!(pack(&[0, 2]), 0x31);
        assert_eq!(pack(&[2, 1]), 0x23);
        assert_eq!(pack(&[0, 1]), 0x21);
        // A broadcast batch dim, then [m, k] with one batch loop.
        assert_eq!(pack(&[-1, 1, 3]), 0x420);
    }
}
