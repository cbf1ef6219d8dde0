//! The `convert-dist-to-runtime` pass. Its documentation (what it does, preconditions, before
//! and after) is [`INFO`]'s description: `dist-opt --help-passes` prints it
//! and docs/passes.md holds it.
//!
//! `site` reads each op (its mesh, axes and what it moves), `body` builds
//! function bodies op by op, `layout` arranges buffers in the runtime's
//! blocks, `calls` builds each op's helper, and this module drives them
//! and swaps the ops for calls.

pub mod body;
mod calls;
mod layout;
mod site;

use body::Body;
use calls::{axis_index_call, point_to_point_call, runtime_call, slice_call};
use site::{Moved, Site, int_attr, wait_of};

use crate::conversion::runtime_abi::{self, Element, RuntimeFn};
use crate::error::PassError;
use crate::pass::{DistPass, PassInfo};
use crate::vocabulary::comm::CollectiveKind;
use dist_dialect::DistOp;
use dist_dialect::ir::{Located, OperationExt, context_of, erase, remove_attribute, replace_op, walk_preorder};
use dist_dialect::model::Mesh;
use dist_dialect::ops::attr;
use melior::Context;
use melior::dialect::func;
use melior::ir::attribute::FlatSymbolRefAttribute;
use melior::ir::operation::OperationLike;
use melior::ir::operation::WalkResult;
use melior::ir::{BlockLike, Location, Operation, OperationRef, RegionLike, Type, Value, ValueLike};
use rustc_hash::FxHashMap;
use std::collections::BTreeMap;

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

pub type Lowered<'c, T> = Result<T, Located<'c>>;

/// A helper function: its name and result types.
#[derive(Clone)]
struct Callee<'c> {
    name: String,
    results: Vec<Type<'c>>,
}

/// The helpers and runtime declarations a module needs, by name.
struct Helpers<'c> {
    context: &'c Context,
    /// Each helper by key (kind, types, attributes).
    by_key: FxHashMap<String, Callee<'c>>,
    /// The helper functions, in the order of their names.
    functions: Vec<Operation<'c>>,
    declarations: BTreeMap<String, RuntimeFn>,
}

impl<'c> Helpers<'c> {
    fn new(context: &'c Context) -> Self {
        Self {
            context,
            by_key: FxHashMap::default(),
            functions: Vec::new(),
            declarations: BTreeMap::new(),
        }
    }

    fn declare(&mut self, function: &RuntimeFn) {
        self.declarations
            .entry(function.name.clone())
            .or_insert_with(|| function.clone());
    }

    /// The helper shared under `key`; built first (a private function of
    /// `inputs`, whose body `write` writes) if there is none.
    fn add(
        &mut self,
        key: String,
        at: Location<'c>,
        inputs: &[Type<'c>],
        write: impl for<'b> FnOnce(&Body<'c, 'b>, &[Value<'c, 'b>]) -> Vec<Value<'c, 'b>>,
    ) -> Callee<'c> {
        if let Some(callee) = self.by_key.get(&key) {
            return callee.clone();
        }
        let name = format!("__dist_rt_{}", self.functions.len());
        let private = [body::private(self.context)];
        let (function, results) = body::function(self.context, &name, inputs, &private, at, write);
        self.functions.push(function);
        let callee = Callee { name, results };
        self.by_key.insert(key, callee.clone());
        callee
    }
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
        let context = context_of(&module);
        let mut helpers = Helpers::new(context);
        let mut mesh_models: FxHashMap<String, Mesh> = FxHashMap::default();
        let mut calls = Vec::new();
        for op in &targets {
            let call = plan_call(*op, &mut helpers, &mut mesh_models)?;
            calls.push(call);
        }
        // The declarations, then the helpers, at the end of the module.
        let body = module
            .region_at(0)
            .and_then(|r| r.first_block())
            .expect("a module body");
        for function in helpers.declarations.values() {
            body.append_operation(function.declaration(context, module.location()));
        }
        for function in helpers.functions {
            body.append_operation(function);
        }
        for (op, call) in targets.into_iter().zip(calls) {
            replace_with_call(context, op, &call)?;
        }
        // The shardings on signatures and ops name the meshes: they go too.
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

/// A device group the program communicates over, as the runtime reads it
/// (`runtime_abi::prepare_group`): the mesh and axes descriptors, and
/// whether point-to-point transfers (rather than collectives) use it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Group {
    pub mesh_words: Vec<i64>,
    pub axis_words: Vec<i64>,
    pub p2p: bool,
}

/// Every group the collectives and transfers under `root` communicate
/// over, once each, in a deterministic order (every rank creates them in
/// that order).
pub fn communicating_groups<'c>(root: &OperationRef<'c, '_>) -> Lowered<'c, Vec<Group>> {
    let mut sites = Vec::new();
    walk_preorder(root, |op| {
        match DistOp::of(&op) {
            Some(DistOp::Send | DistOp::Recv) => sites.push((op, true)),
            Some(other) if CollectiveKind::of(other).is_some_and(|k| k != CollectiveKind::AllSlice) => {
                sites.push((op, false))
            }
            _ => {}
        }
        WalkResult::Advance
    });
    let mut meshes = FxHashMap::default();
    let mut groups = std::collections::BTreeSet::new();
    for (op, p2p) in sites {
        let site = Site::read(op, &mut meshes)?;
        groups.insert(Group {
            mesh_words: site.mesh_words,
            axis_words: site.axis_words,
            p2p,
        });
    }
    Ok(groups.into_iter().collect())
}

/// A call replacing one op: its helper, and for a start its wait's.
struct Call<'c> {
    helper: Callee<'c>,
    wait: Option<Callee<'c>>,
}

/// Builds (or reuses) the helper for `op` and says how to call it.
fn plan_call<'c>(
    op: OperationRef<'c, '_>,
    helpers: &mut Helpers<'c>,
    meshes: &mut FxHashMap<String, Mesh>,
) -> Lowered<'c, Call<'c>> {
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
        let element = dist_dialect::ir::element_type(ty);
        let element = runtime_element(&site, element, &runtime_abi::POINT_TO_POINT_ELEMENTS)?;
        let peer = dist_dialect::ir::integer_attribute(&op, attr::PEER).unwrap_or(0);
        let tag = dist_dialect::ir::integer_attribute(&op, attr::TAG).unwrap_or(0);
        return Ok(point_to_point_call(helpers, &site, send, (&shape, element), peer, tag));
    }
    let moved = Moved::read(op, &site)?;
    if moved.kind == CollectiveKind::AllSlice {
        return Ok(slice_call(helpers, &site, &moved, int_attr(&op, attr::DIM)));
    }
    // Slicing moves nothing; every other kind goes through MPI.
    let element = runtime_element(&site, moved.element, runtime_abi::collective_elements(moved.kind))?;
    let layout = moved.layout(&op, site.group);
    Ok(runtime_call(helpers, &site, &moved, element, &layout))
}

/// `element` as the runtime names it, if it is one of the `elements` the
/// op at `site` moves there.
fn runtime_element<'c>(site: &Site<'c>, element: Type<'c>, elements: &[Element]) -> Lowered<'c, Element> {
    Element::of(element).filter(|e| elements.contains(e)).ok_or_else(|| {
        let names: Vec<&str> = elements.iter().map(|e| e.name()).collect();
        let (last, rest) = names.split_last().expect("each op moves some type");
        Located::new(
            site.at,
            format!(
                "'{}' in the runtime takes {} or {last} tensors, not {element}",
                site.name,
                rest.join(", ")
            ),
        )
    })
}

/// Replaces `op` with a call to its helper (a start: the start helper,
/// and its wait with the wait helper).
fn replace_with_call<'c, 'a>(context: &'c Context, op: OperationRef<'c, 'a>, call: &Call<'c>) -> Lowered<'c, ()> {
    let at = op.location();
    let block = op.block().expect("in a block");
    let build_call =
        |callee: &Callee<'c>, operands: &[Value<'c, '_>], before: OperationRef<'c, 'a>| -> OperationRef<'c, 'a> {
            let symbol = FlatSymbolRefAttribute::new(context, &callee.name);
            block.insert_operation_before(before, func::call(context, symbol, operands, &callee.results, at))
        };
    let operands: Vec<Value<'c, 'a>> = op.operands().collect();
    let new = build_call(&call.helper, &operands, op);
    match &call.wait {
        None => {
            // SAFETY: each target is replaced once.
            #[allow(unsafe_code)]
            unsafe {
                replace_op(op, new.results().map(Value::from))
            };
        }
        Some(wait_helper) => {
            let wait = wait_of(op)?;
            let pieces: Vec<Value<'c, '_>> = new.results().map(Value::from).collect();
            let done = build_call(wait_helper, &pieces, wait);
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
