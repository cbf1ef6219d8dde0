//! Fills of host buffers from splat constants as device memsets, for
//! `dist-finalize-gpu-launches`: bufferization writes the initial value of
//! a product's or a reduction's output (zeros, the lowest float) as a copy
//! from a constant global, which on managed memory is a host loop over the
//! whole buffer, whose pages then migrate to the device for the kernel.

use super::chain::is_stream_call;
use super::chain::only_block;
use crate::error::{PassError, fail};
use dist_dialect::ir::build::gpu_async_token_type;
use dist_dialect::ir::{
    OperationExt, attribute, block_ops, erase, has_ancestor, insert_before, nested_ops, op_name, op_result,
    replace_all_uses, string_attribute, users, walk_preorder,
};
use melior::Context;
use melior::dialect::{memref, ods::gpu};
use melior::ir::attribute::AttributeLike;
use melior::ir::operation::{OperationBuilder, OperationLike, WalkResult};
use melior::ir::r#type::MemRefType;
use melior::ir::{Attribute, BlockLike, Identifier, OperationRef, Type, Value, ValueLike};
use std::collections::{HashMap, HashSet};

/// Replaces each host `memref.copy` from a splat global of 16- or 32-bit
/// elements, or of 64-bit zeros, into a buffer of the identity layout that
/// a launch reads next, or that its function returns next, by a
/// `gpu.memset` on the compute stream, which orders the two: no host wait
/// (a function of one block waits for the stream before it returns, or is
/// ordered on it, `dist-chain-gpu-launches`). (A buffer host code reads
/// next stays filled on the host, where its pages are wanted.) A 64-bit buffer (an
/// f64 partial sum's zeros) is allocated as bytes and read through a view,
/// so that a memset of 32-bit zeros writes it: `gpu-to-llvm` lowers
/// memsets of 16 and 32 bits only.
pub fn fill_on_device(context: &Context, module: OperationRef<'_, '_>) -> Result<(), PassError> {
    let mut splats: HashMap<String, String> = HashMap::new();
    let mut globals = HashMap::new();
    let mut emptied = HashSet::new();
    let mut copies = Vec::new();
    walk_preorder(&module, |op| {
        match op_name(&op) {
            "memref.global" => {
                if let Some(literal) = attribute(&op, "initial_value").and_then(|v| splat_literal(&v.to_string())) {
                    let name = string_attribute(&op, "sym_name").unwrap_or_default();
                    splats.insert(name.clone(), literal);
                    globals.insert(name, op);
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
        if !next_user_follows_stream(copy, target) {
            continue;
        }
        let ty = target.r#type().to_string();
        let location = copy.location();
        let (target, element, literal) = match memset_element(&ty) {
            Some(element) => (target, element, literal.as_str()),
            None => match as_words(context, copy, target, &ty, literal) {
                Some(words) => (words, "i32", "0"),
                None => continue,
            },
        };
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
        insert_before(copy, memset.into());
        // SAFETY: a copy has no results, and each is listed once.
        #[allow(unsafe_code)]
        unsafe {
            erase(copy)
        };
        if users(global.result_at(0).expect("a global's memref")).is_empty() {
            emptied.insert(name.trim_start_matches('@').to_owned());
            // SAFETY: its only user was the copy, erased above.
            #[allow(unsafe_code)]
            unsafe {
                erase(global)
            };
        }
    }
    // The constants no longer read (a splat of a large type is as large
    // in the program's data).
    globals.retain(|name, _| emptied.contains(name));
    walk_preorder(&module, |op| {
        if op_name(&op) == "memref.get_global"
            && let Some(name) = attribute(&op, "name")
        {
            globals.remove(name.to_string().trim_start_matches('@'));
        }
        WalkResult::Advance
    });
    for global in globals.into_values() {
        // SAFETY: nothing refers to it; each global is listed once.
        #[allow(unsafe_code)]
        unsafe {
            erase(global)
        };
    }
    Ok(())
}

/// The one element of a splat initial value (`dense<0.000000e+00> :
/// tensor<...>`), or `None` for any other.
fn splat_literal(text: &str) -> Option<String> {
    let body = text.strip_prefix("dense<")?.rsplit_once("> : ")?.0.trim();
    (!body.starts_with('[') && !body.starts_with('"')).then(|| body.to_owned())
}

/// A view as 32-bit words of `target`, a fresh 64-bit buffer of the
/// identity layout filled with `literal`, where that is zero: its
/// allocation becomes one of bytes that a view of the old type replaces.
fn as_words<'c, 'a>(
    context: &'c Context,
    copy: OperationRef<'c, 'a>,
    target: Value<'c, 'a>,
    ty: &str,
    literal: &str,
) -> Option<Value<'c, 'a>> {
    let zero = literal.parse::<f64>().is_ok_and(|v| v == 0.0 && v.is_sign_positive());
    let (dims, element) = identity_memref(ty)?;
    if !zero || !matches!(element, "f64" | "i64") {
        return None;
    }
    let elements: i64 = dims.iter().map(|d| d.parse::<i64>().ok()).product::<Option<i64>>()?;
    let alloc = op_result(target)?.owner();
    if op_name(&alloc) != "memref.alloc" || alloc.operand_count() != 0 {
        return None;
    }
    let location = alloc.location();
    let memref = |text: String| Type::parse(context, &text).and_then(|t| MemRefType::try_from(t).ok());
    let bytes = memref(format!("memref<{}xi8>", elements * 8))?;
    let words = memref(format!("memref<{}xi32>", elements * 2))?;
    let typed = MemRefType::try_from(target.r#type()).ok()?;
    let raw: Value = insert_before(alloc, memref::alloc(context, bytes, &[], &[], None, location))
        .result_at(0)?
        .into();
    let offset = OperationBuilder::new("arith.constant", location)
        .add_attributes(&[(
            Identifier::new(context, "value"),
            Attribute::parse(context, "0 : index")?,
        )])
        .add_results(&[Type::index(context)])
        .build()
        .ok()?;
    let offset: Value = insert_before(alloc, offset).result_at(0)?.into();
    let view = |to: MemRefType<'c>| {
        OperationBuilder::new("memref.view", location)
            .add_operands(&[raw, offset])
            .add_results(&[to.into()])
            .build()
            .ok()
    };
    let typed_view: Value = insert_before(alloc, view(typed)?).result_at(0)?.into();
    replace_all_uses(target, typed_view);
    // SAFETY: its uses were replaced, and the copy it was found from is
    // its only entry in the caller's list.
    #[allow(unsafe_code)]
    unsafe {
        erase(alloc)
    };
    Some(insert_before(copy, view(words)?).result_at(0)?.into())
}

/// The dims and element type of a memref type of the identity layout, as
/// MLIR prints it (`memref<4x128xf32>`).
fn identity_memref(ty: &str) -> Option<(Vec<&str>, &str)> {
    let inner = ty.strip_prefix("memref<")?.strip_suffix('>')?;
    if inner.contains(',') {
        return None;
    }
    let mut dims: Vec<&str> = inner.split('x').collect();
    let element = dims.pop()?;
    Some((dims, element))
}

/// The element type of a memref of the identity layout whose elements a
/// memset writes (16 or 32 bits, which `gpu-to-llvm` lowers).
fn memset_element(ty: &str) -> Option<&str> {
    let (_, element) = identity_memref(ty)?;
    matches!(element, "f32" | "i32" | "bf16" | "f16" | "i16").then_some(element)
}

/// Ops that read no element of their memref operand: views of it (their
/// results alias it) and queries of its descriptor.
pub(super) const VIEWS: [&str; 9] = [
    "memref.cast",
    "memref.subview",
    "memref.reshape",
    "memref.expand_shape",
    "memref.collapse_shape",
    "memref.reinterpret_cast",
    "memref.view",
    "memref.transpose",
    "memref.extract_strided_metadata",
];
pub(super) const QUERIES: [&str; 2] = ["memref.extract_aligned_pointer_as_index", "memref.dim"];

/// Whether the first op after `at` in its block that touches the elements
/// of `buffer`, through any view of it made anywhere, (or holds such a
/// use) is a launch or a runtime call ordered on the stream (a cuBLASLt
/// product accumulating into it), or a loop of them (a product stepping
/// over its outer batch dims), or the return of a function of one block
/// (a stage of a pipelined step returns zeros for the results other stages
/// compute): the stream then orders the fill before them.
fn next_user_follows_stream(at: OperationRef<'_, '_>, buffer: Value<'_, '_>) -> bool {
    let Some(block) = at.block() else { return false };
    let one_block_function = block.parent_operation().and_then(|f| only_block(&f)) == Some(block);
    let mut aliases = vec![buffer];
    let mut readers: Vec<OperationRef> = Vec::new();
    let mut next = 0;
    while let Some(&alias) = aliases.get(next) {
        next += 1;
        for user in users(alias) {
            let name = op_name(&user);
            if VIEWS.contains(&name) && user.operand_at(0) == Some(alias) {
                aliases.extend(
                    user.results()
                        .map(Value::from)
                        .filter(|r| !aliases.contains(r))
                        .collect::<Vec<_>>(),
                );
            } else if !QUERIES.contains(&name) {
                readers.push(user);
            }
        }
    }
    let after = block_ops(block)
        .into_iter()
        .skip_while(|op| op.to_raw().ptr != at.to_raw().ptr)
        .skip(1);
    for op in after {
        let holds = readers.iter().any(|user| {
            user.to_raw().ptr == op.to_raw().ptr || has_ancestor(user, |a| a.to_raw().ptr == op.to_raw().ptr)
        });
        if holds {
            let on_stream = |inner: &OperationRef| op_name(inner) == "gpu.launch" || is_stream_call(inner);
            let returned = one_block_function && op_name(&op) == "func.return";
            return returned || on_stream(&op) || !nested_ops(&op, on_stream).is_empty();
        }
    }
    false
}
