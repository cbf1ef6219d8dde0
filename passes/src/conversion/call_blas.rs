//! The `dist-call-blas` pass. Its documentation (what it does, preconditions, before
//! and after) is [`INFO`]'s description: `dist-opt --help-passes` prints it
//! and docs/passes.md holds it.

use super::runtime_abi::{self, Element};
use crate::error::{PassError, fail};
use crate::gpu::product_bias::PRODUCT_BIAS;
use crate::pass::options::PassOptions;
use crate::pass::{DistPass, PassInfo};
use dist_dialect::ir::{
    OperationExt, context_of, element_type, erase, is_before_in_block, linalg_contraction_roles,
    memref_sizes_and_strides, op_name, users, walk_preorder,
};
use melior::dialect::arith;
use melior::dialect::memref as plain_memref;
use melior::dialect::ods::memref;
use melior::ir::attribute::IntegerAttribute;
use melior::ir::operation::{OperationLike, WalkResult};
use melior::ir::r#type::{IntegerType, MemRefType};
use melior::ir::{BlockLike, BlockRef, Operation, OperationRef, Type, TypeLike, Value, ValueLike};

crate::pass::options::option_enum! {
    /// The library the runtime's GEMMs call.
    pub enum GemmLibrary {
        /// OpenBLAS (f32) and oneDNN (bf16) on the CPU.
        OpenBlas = "openblas",
        /// cuBLASLt on the GPU, on buffers in device memory.
        CublasLt = "cublaslt",
        /// cuBLASLt, f32 products rounding their inputs to TF32 (tensor
        /// cores; about 1e-3 relative).
        CublasLtTf32 = "cublaslt-tf32",
    }
}

crate::pass::options::pass_options! {
    /// The options of `dist-call-blas`.
    pub struct CallBlasOptions {
        library: GemmLibrary = "library", "openblas",
            "The runtime's GEMMs: openblas (the CPU's, dist_rt_contract_*), cublaslt (the GPU's, dist_rt_gpu_contract_*, queued on the compute stream) or cublaslt-tf32 (the same, f32 products rounding their inputs to TF32)";
    }
}

#[derive(Debug, Default)]
pub struct CallBlas {
    options: CallBlasOptions,
}

pub const INFO: PassInfo = PassInfo {
    argument: "dist-call-blas",
    summary: "Replace f32 and bf16 linalg contractions on memrefs by calls of the runtime's GEMMs (OpenBLAS or cuBLASLt)",
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

With `library=cublaslt` (the GPU pipeline's) the calls are of the
runtime's cuBLASLt GEMMs (`dist_rt_gpu_contract_f32`/`_bf16`, one more
argument: 1 where `library=cublaslt-tf32` lets f32 products round their
inputs to TF32, else 0), which take buffers in device memory and are
queued on the compute stream. Contractions inside a kernel or a mapped loop nest (`gpu.launch`,
`scf.forall`, `gpu.module`) are left alone: they are a tile of a generated
kernel. cuBLASLt reads a matrix in place only if one of its dims is
contiguous and the other steps over whole lines of it: an operand laid
out otherwise goes through a contiguous copy (an output is copied back
after the call); one of dynamic shape is an error (`--gpu-matmul=generated`
compiles it as a kernel).

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
    options: CallBlasOptions::info,
    dialects: &["arith", "func", "memref"],
    create: || Box::<CallBlas>::default(),
};

/// Packs the roles of one operand's dims (`-1` broadcast, else the loop
/// role) four bits a dim, the first dim lowest: 0 is a broadcast dim,
/// `r + 1` role `r`.
pub fn pack(roles: &[i64]) -> i64 {
    roles.iter().rev().fold(0, |packed, &r| (packed << 4) | (r + 1))
}

impl DistPass for CallBlas {
    fn options(&mut self) -> Option<&mut dyn PassOptions> {
        Some(&mut self.options)
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let gpu = self.options.library != GemmLibrary::OpenBlas;
        let tf32 = self.options.library == GemmLibrary::CublasLtTf32;
        let mut contractions = Vec::new();
        walk_preorder(&module, |op| {
            if gpu && matches!(op_name(&op), "gpu.launch" | "scf.forall" | "gpu.module") {
                return WalkResult::Skip;
            }
            if op_name(&op).starts_with("linalg.")
                && op.operand_at(0).is_some_and(|v| v.r#type().is_mem_ref())
                && let Some(found) = linalg_contraction_roles(&op)
            {
                contractions.push((op, found));
            }
            WalkResult::Advance
        });
        let context = context_of(&module);
        let mut declared = Vec::new();
        for (op, (roles, batch)) in contractions {
            let location = op.location();
            let block = op.block().expect("a contraction is in a block");
            let input = Element::of(element_type(op.operand_at(0).expect("three operands").r#type()))
                .filter(|e| runtime_abi::CONTRACTED_ELEMENTS.contains(e))
                .ok_or_else(|| {
                    fail(
                        location,
                        "internal error: no runtime GEMM takes this contraction's inputs",
                    )
                })?;
            // The bias broadcast the product starts from, on the GPU the
            // call's bias epilogue.
            let bias = if gpu { bias_broadcast(&op) } else { None };
            let callee = match (gpu, bias) {
                (false, _) => runtime_abi::contract(input),
                (true, None) => runtime_abi::gpu_contract(input),
                (true, Some(_)) => runtime_abi::gpu_contract_bias(input),
            };
            let function_type = callee.function_type(context);
            if !declared.contains(&callee.name) {
                callee.declare_once(module);
                declared.push(callee.name.clone());
            }
            let parameter = |i| function_type.input(i).map_err(|e| fail(location, &e.to_string()));
            let i64_type: Type = IntegerType::new(context, 64).into();
            let mut arguments: Vec<Value> = Vec::with_capacity(8);
            // cuBLASLt reads a matrix in place along a contiguous dim only:
            // others go through a contiguous copy (C copied back after).
            let staging = if gpu {
                unreadable(&op, &roles, batch as i64)
            } else {
                [false; 3]
            };
            let mut copies = Vec::new();
            for (i, &stage) in staging.iter().enumerate() {
                let mut operand = op.operand_at(i).expect("three operands");
                if stage {
                    let buffer = staged(block, op, operand)?;
                    copies.push((i, operand, buffer));
                    operand = buffer;
                }
                let cast = memref::cast(context, parameter(i)?, operand, location).into();
                arguments.push(insert(block, op, cast));
            }
            if let Some(broadcast) = bias {
                // cuBLASLt reads the bias as a contiguous vector; a staged
                // C (copied in, then back) is overwritten by the epilogue.
                let mut vector = broadcast.operand_at(0).expect("a bias broadcast reads the bias");
                if !contiguous_vector(vector.r#type()) {
                    let buffer = staged(block, op, vector)?;
                    copies.push((3, vector, buffer));
                    vector = buffer;
                }
                let cast = memref::cast(context, parameter(3)?, vector, location).into();
                arguments.push(insert(block, op, cast));
                // SAFETY: it has no results (on memrefs), and the call
                // applies it; it is a product's only broadcast.
                #[allow(unsafe_code)]
                unsafe {
                    erase(broadcast)
                };
            }
            let mut scalars: Vec<i64> = roles.iter().map(|r| pack(r)).chain([batch as i64]).collect();
            if gpu {
                scalars.push(i64::from(tf32 && input == Element::F32));
            }
            for value in scalars {
                let constant = arith::constant(context, IntegerAttribute::new(i64_type, value).into(), location);
                arguments.push(insert(block, op, constant));
            }
            block.insert_operation_before(op, callee.call(context, &arguments, location));
            for (i, operand, buffer) in copies {
                if i == 2 {
                    block.insert_operation_before(op, memref::copy(context, buffer, operand, location).into());
                }
                block.insert_operation_before(op, memref::dealloc(context, buffer, location).into());
            }
            // SAFETY: the call took its place (it has no results), and it was collected once.
            #[allow(unsafe_code)]
            unsafe {
                erase(op)
            };
        }
        if gpu && let Some(location) = untaken_bias(&module) {
            return Err(fail(
                location,
                "a product's bias broadcast (dist.product_bias) that no cuBLASLt call took: the product it starts is \
                 not a contraction dist-call-blas takes",
            ));
        }
        Ok(())
    }
}

/// Where a bias broadcast outside kernels is left, if one is: on the GPU
/// it is for a cuBLASLt call to apply, never a host loop.
fn untaken_bias<'c>(module: &OperationRef<'c, '_>) -> Option<melior::ir::Location<'c>> {
    let mut left = None;
    walk_preorder(module, |op| {
        if matches!(op_name(&op), "gpu.launch" | "scf.forall" | "gpu.module") {
            return WalkResult::Skip;
        }
        if left.is_none() && op.attribute(PRODUCT_BIAS).is_ok() {
            left = Some(op.location());
        }
        WalkResult::Advance
    });
    left
}

/// The bias broadcast (`dist.product_bias`, `dist-fuse-product-bias`)
/// that writes the output of the contraction `op` before it, if any.
fn bias_broadcast<'c, 'a>(op: &OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    let output = op.operand_at(2)?;
    users(output).into_iter().find(|user| {
        user.attribute(PRODUCT_BIAS).is_ok()
            && user.operand_count() == 2
            && user.operand_at(1) == Some(output)
            && user.block() == op.block()
            && is_before_in_block(user, op)
    })
}

/// Whether the memref type `ty` is a vector of contiguous elements.
fn contiguous_vector(ty: Type<'_>) -> bool {
    memref_sizes_and_strides(ty).is_some_and(|(sizes, strides)| sizes.len() == 1 && (sizes[0] == 1 || strides[0] == 1))
}

/// Which operands of `op` cuBLASLt cannot read in place: those whose static
/// layout is not a matrix the runtime hands it as one (`layout` in the
/// runtime's contraction planner: one matrix dim contiguous, the other
/// stepping over whole lines of it); `roles` are its dims' roles and
/// `batch` its batch loops (`linalg_contraction_roles`: m, n and k are
/// `batch`, `batch + 1` and `batch + 2`).
fn unreadable(op: &OperationRef<'_, '_>, roles: &[Vec<i64>; 3], batch: i64) -> [bool; 3] {
    let (m, n, k) = (batch, batch + 1, batch + 2);
    let matrices = [(m, k), (k, n), (m, n)];
    [0, 1, 2].map(|i| {
        let ty = op.operand_at(i).expect("three operands").r#type();
        let Some((shape, strides)) = memref_sizes_and_strides(ty) else {
            return false;
        };
        // A loop the operand does not have is a dim of one element.
        let dim = |role: i64| {
            roles[i]
                .iter()
                .position(|&r| r == role)
                .map_or((1, 0), |d| (shape[d], strides[d]))
        };
        let ((rows, row_stride), (cols, col_stride)) = (dim(matrices[i].0), dim(matrices[i].1));
        let by_rows = (col_stride == 1 || cols == 1) && (rows == 1 || row_stride >= cols);
        let by_cols = (row_stride == 1 || rows == 1) && (cols == 1 || col_stride >= rows);
        !(by_rows || by_cols)
    })
}

/// A contiguous copy of `operand` (static shape) allocated and filled
/// before `at`, for cuBLASLt to read; freed by the caller.
fn staged<'c, 'a>(
    block: BlockRef<'c, 'a>,
    at: OperationRef<'c, 'a>,
    operand: Value<'c, 'a>,
) -> Result<Value<'c, 'a>, PassError> {
    let context = context_of(&at);
    let location = at.location();
    let ty = operand.r#type();
    let Some((shape, _)) = memref_sizes_and_strides(ty).filter(|(shape, _)| shape.iter().all(|&d| d >= 0)) else {
        return Err(fail(
            location,
            "dist-call-blas: a product operand of dynamic shape whose layout cuBLASLt cannot read in place (one \
             matrix dim contiguous, the other over whole lines); --gpu-matmul=generated compiles it as a kernel",
        ));
    };
    let contiguous = MemRefType::new(element_type(ty), &shape, None, None);
    let buffer = insert(
        block,
        at,
        plain_memref::alloc(context, contiguous, &[], &[], None, location),
    );
    block.insert_operation_before(at, memref::copy(context, operand, buffer, location).into());
    Ok(buffer)
}

/// Inserts `new` before `at` and returns its result.
fn insert<'c, 'a>(block: BlockRef<'c, 'a>, at: OperationRef<'c, 'a>, new: Operation<'c>) -> Value<'c, 'a> {
    block
        .insert_operation_before(at, new)
        .result_at(0)
        .expect("one result")
        .into()
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
