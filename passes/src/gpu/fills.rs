//! Fills of host buffers from splat constants as device memsets, for
//! `dist-finalize-gpu-launches`: bufferization writes the initial value of
//! a product's or a reduction's output (zeros, the lowest float) as a copy
//! from a constant global, which on managed memory is a host loop over the
//! whole buffer, whose pages then migrate to the device for the kernel.

use crate::error::{PassError, fail};
use dist_dialect::ir::build::gpu_async_token_type;
use dist_dialect::ir::{
    OperationExt, attribute, block_ops, erase, has_ancestor, insert_before, op_name, op_result, string_attribute,
    users, walk_preorder,
};
use melior::Context;
use melior::dialect::ods::gpu;
use melior::ir::attribute::AttributeLike;
use melior::ir::operation::{OperationBuilder, OperationLike, WalkResult};
use melior::ir::{Attribute, Identifier, OperationRef, Value, ValueLike};
use std::collections::HashMap;

/// Replaces each host `memref.copy` from a splat global of 16- or 32-bit
/// elements into a buffer of the identity layout by a `gpu.memset` on the
/// compute stream, waited for unless the buffer's next user is a launch
/// (then the stream orders them).
pub fn fill_on_device(context: &Context, module: OperationRef<'_, '_>) -> Result<(), PassError> {
    let mut splats: HashMap<String, String> = HashMap::new();
    let mut copies = Vec::new();
    walk_preorder(&module, |op| {
        match op_name(&op) {
            "memref.global" => {
                if let Some(literal) = attribute(&op, "initial_value").and_then(|v| splat_literal(&v.to_string())) {
                    splats.insert(string_attribute(&op, "sym_name").unwrap_or_default(), literal);
                }
            }
            "memref.copy" if !has_ancestor(&op, |a| op_name(a) == "gpu.launch") => copies.push(op),
            _ => {}
        }
        WalkResult::Advance
    });
    for copy in copies {
        let (Some(source), Some(target)) = (copy.operand_at(0), copy.operand_at(1)) else {
            continue;
        };
        let Some(global) = op_result(source)
            .map(|r| r.owner())
            .filter(|g| op_name(g) == "memref.get_global")
        else {
            continue;
        };
        let name = attribute(&global, "name").map(|n| n.to_string()).unwrap_or_default();
        let Some(literal) = splats.get(name.trim_start_matches('@')) else {
            continue;
        };
        let ty = target.r#type().to_string();
        let Some(element) = memset_element(&ty) else {
            continue;
        };
        let location = copy.location();
        let value = Attribute::parse(context, &format!("{literal} : {element}"))
            .ok_or_else(|| fail(location, &format!("a splat {literal} that is not a {element}")))?;
        let constant = OperationBuilder::new("arith.constant", location)
            .add_attributes(&[(Identifier::new(context, "value"), value)])
            .add_results(&[value.r#type()])
            .build()
            .map_err(|e| fail(location, &e.to_string()))?;
        let constant: Value = insert_before(copy, constant).result_at(0).expect("a value").into();
        let token = gpu_async_token_type(context);
        let stream = gpu::WaitOperationBuilder::new(context, location)
            .async_token(token)
            .async_dependencies(&[])
            .build();
        let stream: Value = insert_before(copy, stream.into()).result_at(0).expect("a token").into();
        let memset = gpu::MemsetOperationBuilder::new(context, location)
            .async_token(token)
            .async_dependencies(&[stream])
            .dst(target)
            .value(constant)
            .build();
        let done: Value = insert_before(copy, memset.into()).result_at(0).expect("a token").into();
        if !next_user_is_launch(copy, target) {
            let wait = gpu::WaitOperationBuilder::new(context, location)
                .async_dependencies(&[done])
                .build();
            insert_before(copy, wait.into());
        }
        // SAFETY: a copy has no results, and each is listed once.
        #[allow(unsafe_code)]
        unsafe {
            erase(copy)
        };
        if users(global.result_at(0).expect("a global's memref")).is_empty() {
            // SAFETY: its only user was the copy, erased above.
            #[allow(unsafe_code)]
            unsafe {
                erase(global)
            };
        }
    }
    Ok(())
}

/// The one element of a splat initial value (`dense<0.000000e+00> :
/// tensor<...>`), or `None` for any other.
fn splat_literal(text: &str) -> Option<String> {
    let body = text.strip_prefix("dense<")?.rsplit_once("> : ")?.0.trim();
    (!body.starts_with('[') && !body.starts_with('"')).then(|| body.to_owned())
}

/// The element type of a memref of the identity layout whose elements a
/// memset writes (16 or 32 bits, which `gpu-to-llvm` lowers).
fn memset_element(ty: &str) -> Option<&str> {
    let inner = ty.strip_prefix("memref<")?.strip_suffix('>')?;
    if inner.contains(',') {
        return None;
    }
    let element = inner.rsplit('x').next()?;
    matches!(element, "f32" | "i32" | "bf16" | "f16" | "i16").then_some(element)
}

/// Whether the first op after `at` in its block that uses `buffer` (or
/// holds a use) is a launch: the stream then orders the fill before it.
fn next_user_is_launch(at: OperationRef<'_, '_>, buffer: Value<'_, '_>) -> bool {
    let Some(block) = at.block() else { return false };
    let holders: Vec<OperationRef> = users(buffer);
    let after = block_ops(block)
        .into_iter()
        .skip_while(|op| op.to_raw().ptr != at.to_raw().ptr)
        .skip(1);
    for op in after {
        let holds = holders.iter().any(|user| {
            user.to_raw().ptr == op.to_raw().ptr || has_ancestor(user, |a| a.to_raw().ptr == op.to_raw().ptr)
        });
        if holds {
            return op_name(&op) == "gpu.launch";
        }
    }
    false
}
