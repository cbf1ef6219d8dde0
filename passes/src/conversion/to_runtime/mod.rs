//! The `convert-dist-to-runtime` pass. Its documentation (what it does, preconditions, before
//! and after) is [`INFO`]'s description: `dist-opt --help-passes` prints it
//! and docs/passes.md holds it.
//!
//! `site` reads each op (its mesh, axes and what it moves), `text` writes
//! helper bodies as MLIR text, `calls` builds each op's helper, and this
//! module drives them and swaps the ops for calls.

mod calls;
mod site;
mod text;

use calls::{axis_index_call, point_to_point_call, runtime_call, slice_call};
use site::{Moved, Site, int_attr};

use crate::conversion::runtime_abi::{self, RuntimeFn};
use crate::error::{PassError, fail};
use crate::pass::{DistPass, PassInfo};
use crate::vocabulary::comm::CollectiveKind;
use dist_dialect::DistOp;
use dist_dialect::ir::{
    Located, OperationExt, context_of, erase, move_to_end, remove_attribute, replace_op, walk_preorder,
};
use dist_dialect::model::Mesh;
use dist_dialect::ops::attr;
use melior::dialect::func;
use melior::ir::attribute::FlatSymbolRefAttribute;
use melior::ir::operation::OperationLike;
use melior::ir::operation::WalkResult;
use melior::ir::{BlockLike, OperationRef, RegionLike, Type, Value, ValueLike};
use rustc_hash::FxHashMap;

#[derive(Debug, Default)]
pub struct ConvertDistToRuntime;

pub const INFO: PassInfo = PassInfo {
    argument: "convert-dist-to-runtime",
    summary: "Lower collectives and dist.axis_index to calls into the dist runtime's C ABI",
    description: r#"`convert-dist-to-runtime`: lowers collectives and `dist.axis_index` on
local tensors to calls into the runtime's C ABI (`dist-runtime`).

Preconditions: the module is partitioned (`dist-partition`; local types)
and its compute is lowered (`convert-dist-to-linalg`). Each collective
becomes a call to a private helper function, one per distinct kind,
types and attributes, built from `tensor`, `linalg`, `memref` and
`bufferization` ops around a runtime call; `--inline` then folds the
helpers into their callers. Buffers cross the ABI flat (rank 1, the
runtime's contiguous blocks): `reduce_scatter` and `all_gather` move
their dim to the front first and back after, `all_to_all` splits its
`split_dim` into group blocks and joins them into `concat_dim`, a
coalesced all-reduce packs its operands one after the other into one
buffer and a coalesced reduce-scatter block by block (each device's
blocks of every operand side by side). `all_slice`
needs no communication: it extracts the slice at the device's
`dist_rt_axis_index`. The output buffers are `memref.alloc`s, so the
upstream deallocation pipeline frees them. An async start copies its
input (later ops may reuse that buffer while the collective reads it)
and hands the request and both buffers to its wait. The mesh ops, and
the shardings that name them, are erased.

Before:
```mlir
%r = dist.all_reduce %x on @mesh axes = ["tp"] kind = sum : tensor<4x8xf32> -> tensor<4x8xf32>
```
After:
```mlir
%r = call @__dist_all_reduce_0(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
// @__dist_all_reduce_0 flattens %x, calls @dist_rt_all_reduce_f32 on
// its buffer and a new one, and returns that one reshaped.
```
"#,
    anchor: "builtin.module",
    options: Vec::new,
    dialects: &["arith", "linalg", "tensor", "memref", "bufferization", "func"],
    create: || Box::new(ConvertDistToRuntime),
};

type Lowered<'c, T> = Result<T, Located<'c>>;

/// The helpers and runtime declarations a module needs, by name.
#[derive(Default)]
struct Helpers {
    /// Helper text by key (kind, types, attributes), with its name.
    by_key: FxHashMap<String, String>,
    text: Vec<String>,
    declarations: std::collections::BTreeMap<String, String>,
}

impl DistPass for ConvertDistToRuntime {
    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let mut targets = Vec::new();
        let mut meshes = Vec::new();
        walk_preorder(&module, |op| {
            match DistOp::of(&op) {
                Some(DistOp::Mesh) => meshes.push(op),
                Some(DistOp::AxisIndex | DistOp::Send | DistOp::Recv) => targets.push(op),
                Some(other) if CollectiveKind::of(other).is_some() => targets.push(op),
                _ => {}
            }
            WalkResult::Advance
        });
        let mut helpers = Helpers::default();
        let mut mesh_models: FxHashMap<String, Mesh> = FxHashMap::default();
        let mut calls = Vec::new();
        for op in &targets {
            let call = plan_call(*op, &mut helpers, &mut mesh_models)?;
            calls.push(call);
        }
        // The helpers and declarations, parsed once into the module.
        let mut source = String::new();
        for d in helpers.declarations.values() {
            source.push_str(d);
        }
        for h in &helpers.text {
            source.push_str(h);
        }
        let context = context_of(&module);
        if !source.is_empty() {
            let parsed = melior::ir::Module::parse(context, &format!("module {{\n{source}}}"))
                .ok_or_else(|| fail(module.location(), "internal error: a runtime helper does not parse"))?;
            let body = module
                .region_at(0)
                .and_then(|r| r.first_block())
                .expect("a module body");
            let mut next = parsed.body().first_operation();
            while let Some(op) = next {
                next = op.next_in_block();
                move_to_end(op, &body);
            }
        }
        for (op, call) in targets.into_iter().zip(calls) {
            replace_with_call(context, op, &call)?;
        }
        // The shardings on signatures and ops name the meshes: they go too.
        let body = module
            .region_at(0)
            .and_then(|r| r.first_block())
            .expect("a module body");
        for op in dist_dialect::ir::block_ops(body) {
            if let Ok(function) = dist_dialect::ir::FunctionOpRef::try_from(op) {
                function.remove_argument_and_result_attributes(attr::SHARDING);
                function.remove_argument_and_result_attributes(attr::LOCAL);
                // Marks of the tensors' data and provenance, meaningless on
                // buffers.
                function.remove_argument_and_result_attributes(attr::BATCH_DIM);
                function.remove_argument_and_result_attributes(attr::GRADIENT_OF);
            }
        }
        walk_preorder(&module, |op| {
            remove_attribute(op, attr::SHARDING);
            WalkResult::Advance
        });
        for mesh in meshes {
            // SAFETY: no call names the mesh any more, and it was collected once.
            #[allow(unsafe_code)]
            unsafe {
                erase(mesh)
            };
        }
        Ok(())
    }
}

/// A call replacing one op: the helper, and for a start the wait helper.
struct Call {
    helper: String,
    results: Vec<String>,
}

fn declare(helpers: &mut Helpers, function: &RuntimeFn) {
    helpers
        .declarations
        .entry(function.name.clone())
        .or_insert_with(|| function.declaration());
}

/// Builds (or reuses) the helper for `op` and says how to call it.
fn plan_call<'c>(
    op: OperationRef<'c, '_>,
    helpers: &mut Helpers,
    meshes: &mut FxHashMap<String, Mesh>,
) -> Lowered<'c, Call> {
    let site = Site::read(op, meshes)?;
    if DistOp::AxisIndex.is(&op) {
        return Ok(axis_index_call(helpers, &site));
    }
    if let Some(send) = [DistOp::Send, DistOp::Recv]
        .iter()
        .position(|o| o.is(&op))
        .map(|i| i == 0)
    {
        let moved = if send {
            op.operand_at(0)
        } else {
            op.result_at(0).map(Into::into)
        };
        let ty = moved
            .map(|v| v.r#type())
            .ok_or_else(|| Located::new(site.at, "a transfer moves one tensor"))?;
        let shape = dist_dialect::ir::static_tensor_shape(ty)
            .ok_or_else(|| Located::new(site.at, "a transfer moves a static tensor"))?;
        let element = dist_dialect::ir::element_type(ty).to_string();
        if !runtime_abi::POINT_TO_POINT_ELEMENTS.contains(&element.as_str()) {
            return Err(Located::new(
                site.at,
                format!(
                    "'{}' in the runtime takes f32, f64, bf16, i32 or i64 tensors, not {element}",
                    site.name
                ),
            ));
        }
        let peer = dist_dialect::ir::integer_attribute(&op, attr::PEER).unwrap_or(0);
        let tag = dist_dialect::ir::integer_attribute(&op, attr::TAG).unwrap_or(0);
        return Ok(point_to_point_call(helpers, &site, send, &shape, &element, peer, tag));
    }
    let moved = Moved::read(op, &site)?;
    if moved.kind == CollectiveKind::AllSlice {
        return Ok(slice_call(helpers, &site, &moved, int_attr(&op, attr::DIM)));
    }
    // Slicing moves nothing; every other kind goes through MPI.
    let elements = runtime_abi::collective_elements(moved.kind);
    if !elements.contains(&moved.element.as_str()) {
        let (last, rest) = elements.split_last().expect("each collective moves some type");
        let takes = format!("{} or {last}", rest.join(", "));
        return Err(Located::new(
            site.at,
            format!(
                "'{}' in the runtime takes {takes} tensors, not {}",
                site.name, moved.element
            ),
        ));
    }
    let layout = moved.layout(&op, site.group);
    Ok(runtime_call(helpers, &site, moved, &layout))
}

fn add_helper(helpers: &mut Helpers, key: String, signature: &str, body: &str) -> String {
    if let Some(name) = helpers.by_key.get(&key) {
        return name.clone();
    }
    let name = format!("__dist_rt_{}", helpers.text.len());
    helpers
        .text
        .push(format!("  func.func private @{name}{signature} {{\n{body}  }}\n"));
    helpers.by_key.insert(key, name.clone());
    name
}

/// Replaces `op` with a call to its helper (a start: the start helper,
/// and its wait with the wait helper).
fn replace_with_call<'c, 'a>(context: &'c melior::Context, op: OperationRef<'c, 'a>, call: &Call) -> Lowered<'c, ()> {
    let at = op.location();
    let block = op.block().expect("in a block");
    let build_call = |callee: &str,
                      operands: &[Value<'c, '_>],
                      results: &[Type<'c>],
                      before: OperationRef<'c, 'a>|
     -> OperationRef<'c, 'a> {
        let callee = FlatSymbolRefAttribute::new(context, callee);
        block.insert_operation_before(before, func::call(context, callee, operands, results, at))
    };
    let parse = |t: &str| Type::parse(context, t).ok_or_else(|| Located::new(at, format!("cannot build the type {t}")));
    let operands: Vec<Value<'c, 'a>> = op.operands().collect();
    let mut names = call.helper.split(' ');
    let first = names.next().expect("a helper");
    let results: Vec<Type<'c>> = call.results.iter().map(|t| parse(t)).collect::<Result<_, _>>()?;
    let new = build_call(first, &operands, &results, op);
    match names.next() {
        None => {
            // SAFETY: each target is replaced once.
            #[allow(unsafe_code)]
            unsafe {
                replace_op(op, new.results().map(Value::from))
            };
        }
        Some(wait_helper) => {
            // The handle's one user is its wait.
            let handle: Value<'c, '_> = op.result_at(0).expect("a handle").into();
            let wait = dist_dialect::ir::users(handle)
                .into_iter()
                .next()
                .ok_or_else(|| Located::new(at, "an async start without its dist.wait"))?;
            let pieces: Vec<Value<'c, '_>> = (0..3)
                .map(|i| new.result_at(i).expect("three results").into())
                .collect();
            let wait_results: Vec<Type<'c>> = wait.results().map(|r| r.r#type()).collect();
            let done = build_call(wait_helper, &pieces, &wait_results, wait);
            // SAFETY: nothing but this start held its wait.
            #[allow(unsafe_code)]
            unsafe {
                replace_op(wait, done.results().map(Value::from))
            };
            // SAFETY: the wait, its handle's one reader, is gone, and each
            // target is replaced once.
            #[allow(unsafe_code)]
            unsafe {
                erase(op)
            };
        }
    }
    Ok(())
}
