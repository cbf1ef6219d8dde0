//! The `convert-dist-to-runtime` pass. Its documentation (what it does, preconditions, before
//! and after) is [`INFO`]'s description: `dist-opt --help-passes` prints it
//! and docs/passes.md holds it.

use super::runtime_abi::{self, RuntimeFn};
use crate::error::{PassError, fail};
use crate::registry::{DistPass, PassInfo};
use crate::sharding::comm::CollectiveKind;
use dist_dialect::DistOp;
use dist_dialect::ir::{
    Located, MeshOpRef, OperationExt, attribute, context_of, context_of_type, element_type, erase, integer_attribute,
    move_to_end, op_name, reduction_kind, remove_attribute, replace_op, static_tensor_shape,
    tensor_type_text as tensor_type, walk_preorder,
};
use dist_dialect::model::Mesh;
use dist_dialect::ops::attr;
use melior::dialect::func;
use melior::ir::attribute::FlatSymbolRefAttribute;
use melior::ir::operation::OperationLike;
use melior::ir::operation::WalkResult;
use melior::ir::{BlockLike, Location, OperationRef, RegionLike, Type, Value, ValueLike};
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
    options: &[],
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
                Some(DistOp::AxisIndex) => targets.push(op),
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

fn memref_type(n: i64, element: &str) -> String {
    format!("memref<{n}x{element}>")
}

/// The integer list of a mesh and of axes, as the runtime reads them.
fn descriptors(mesh: &Mesh, axes: &[String]) -> (Vec<i64>, Vec<i64>) {
    let mut words = vec![mesh.axes().len() as i64];
    words.extend(mesh.axes().iter().map(|a| a.size));
    match mesh.explicit_devices() {
        Some(ids) => {
            words.push(ids.len() as i64);
            words.extend_from_slice(ids);
        }
        None => words.push(0),
    }
    let axes = axes
        .iter()
        .map(|a| mesh.axis_index(a).expect("verified axes") as i64)
        .collect();
    (words, axes)
}

/// Text building one helper body.
struct Text {
    body: String,
    next: usize,
    element: String,
}

impl Text {
    fn value(&mut self) -> String {
        self.next += 1;
        format!("%v{}", self.next)
    }

    fn line(&mut self, line: String) {
        self.body.push_str("    ");
        self.body.push_str(&line);
        self.body.push('\n');
    }

    fn constant_list(&mut self, words: &[i64], element: &str) -> String {
        let list: Vec<String> = words.iter().map(i64::to_string).collect();
        let v = self.value();
        self.line(format!(
            "{v} = arith.constant dense<[{}]> : tensor<{}x{element}>",
            list.join(", "),
            words.len()
        ));
        v
    }

    /// `tensor.reshape` of `x` (of `from`) to `to`.
    fn reshape(&mut self, x: &str, from: &[i64], to: &[i64]) -> String {
        if from == to {
            return x.to_owned();
        }
        let shape = self.constant_list(to, "index");
        let v = self.value();
        let e = self.element.clone();
        self.line(format!(
            "{v} = tensor.reshape {x}({shape}) : ({}, tensor<{}xindex>) -> {}",
            tensor_type(from, &e),
            to.len(),
            tensor_type(to, &e)
        ));
        v
    }

    /// `linalg.transpose` of `x` (of `shape`): result dim `i` is dim
    /// `perm[i]`.
    fn transpose(&mut self, x: &str, shape: &[i64], perm: &[usize]) -> (String, Vec<i64>) {
        let out: Vec<i64> = perm.iter().map(|&p| shape[p]).collect();
        if perm.iter().enumerate().all(|(i, &p)| i == p) {
            return (x.to_owned(), out);
        }
        let e = self.element.clone();
        let init = self.value();
        self.line(format!("{init} = tensor.empty() : {}", tensor_type(&out, &e)));
        let v = self.value();
        let perm: Vec<String> = perm.iter().map(usize::to_string).collect();
        self.line(format!(
            "{v} = linalg.transpose ins({x} : {}) outs({init} : {}) permutation = [{}]",
            tensor_type(shape, &e),
            tensor_type(&out, &e),
            perm.join(", ")
        ));
        (v, out)
    }

    /// The buffer of flat tensor `x` of `n` elements, as `memref<?xE>`;
    /// `copy` makes it a fresh buffer the caller owns.
    fn buffer_of(&mut self, x: &str, n: i64, copy: bool) -> String {
        let e = self.element.clone();
        let b = self.value();
        self.line(format!(
            "{b} = bufferization.to_buffer {x} read_only : {} to {}",
            tensor_type(&[n], &e),
            memref_type(n, &e)
        ));
        let b = if copy {
            let fresh = self.value();
            self.line(format!("{fresh} = memref.alloc() : {}", memref_type(n, &e)));
            self.line(format!(
                "memref.copy {b}, {fresh} : {} to {}",
                memref_type(n, &e),
                memref_type(n, &e)
            ));
            fresh
        } else {
            b
        };
        let c = self.value();
        self.line(format!(
            "{c} = memref.cast {b} : {} to memref<?x{e}>",
            memref_type(n, &e)
        ));
        c
    }

    /// A new output buffer of `n` elements: (its `memref<?xE>`, itself).
    fn output(&mut self, n: i64) -> (String, String) {
        let e = self.element.clone();
        let out = self.value();
        self.line(format!("{out} = memref.alloc() : {}", memref_type(n, &e)));
        let c = self.value();
        self.line(format!(
            "{c} = memref.cast {out} : {} to memref<?x{e}>",
            memref_type(n, &e)
        ));
        (c, out)
    }

    /// The tensor of output buffer `out` (static `memref<nxE>`).
    fn tensor_of(&mut self, out: &str, n: i64) -> String {
        let e = self.element.clone();
        let v = self.value();
        self.line(format!(
            "{v} = bufferization.to_tensor {out} restrict writable : {} to {}",
            memref_type(n, &e),
            tensor_type(&[n], &e)
        ));
        v
    }

    /// The mesh and axes descriptors, as `memref<?xi64>`.
    fn descriptors(&mut self, mesh: &[i64], axes: &[i64]) -> (String, String) {
        let mut buffer = |words: &[i64]| {
            let t = self.constant_list(words, "i64");
            let b = self.value();
            self.line(format!(
                "{b} = bufferization.to_buffer {t} read_only : tensor<{n}xi64> to memref<{n}xi64>",
                n = words.len()
            ));
            let c = self.value();
            self.line(format!(
                "{c} = memref.cast {b} : memref<{}xi64> to memref<?xi64>",
                words.len()
            ));
            c
        };
        (buffer(mesh), buffer(axes))
    }
}

/// Prepares operand `x` (of `shape`) as the flat block layout `kind`
/// needs; returns the flat tensor.
fn to_blocks(t: &mut Text, x: &str, shape: &[i64], kind: &Layout) -> String {
    let n: i64 = shape.iter().product();
    match *kind {
        Layout::Flat => t.reshape(x, shape, &[n]),
        Layout::Leading(d) => {
            let mut perm: Vec<usize> = vec![d];
            perm.extend((0..shape.len()).filter(|&i| i != d));
            let (v, s) = t.transpose(x, shape, &perm);
            t.reshape(&v, &s, &[n])
        }
        Layout::Blocks { split, group, .. } => {
            // Split `split` into (group, size / group), group to the front.
            let mut expanded = shape[..split].to_vec();
            expanded.extend([group, shape[split] / group]);
            expanded.extend_from_slice(&shape[split + 1..]);
            let v = t.reshape(x, shape, &expanded);
            let mut perm = vec![split];
            perm.extend((0..expanded.len()).filter(|&i| i != split));
            let (v, s) = t.transpose(&v, &expanded, &perm);
            t.reshape(&v, &s, &[n])
        }
    }
}

/// The result (of `shape`) from the flat output of `kind`.
fn from_blocks(t: &mut Text, flat: &str, n: i64, shape: &[i64], kind: &Layout, group: i64) -> String {
    match kind {
        Layout::Flat => t.reshape(flat, &[n], shape),
        &Layout::Leading(d) => {
            // The flat output is [shape[d], others...].
            let mut front = vec![shape[d]];
            front.extend((0..shape.len()).filter(|&i| i != d).map(|i| shape[i]));
            let v = t.reshape(flat, &[n], &front);
            // Back: result dim i comes from front dim (0 if i == d, else its
            // place among the others).
            let perm: Vec<usize> = (0..shape.len())
                .map(|i| match i.cmp(&d) {
                    std::cmp::Ordering::Equal => 0,
                    std::cmp::Ordering::Less => i + 1,
                    std::cmp::Ordering::Greater => i,
                })
                .collect();
            t.transpose(&v, &front, &perm).0
        }
        Layout::Blocks { concat, block, .. } => {
            // [group, block...] -> group next to `concat` -> merged.
            let concat = *concat;
            let mut received = vec![group];
            received.extend_from_slice(block);
            let v = t.reshape(flat, &[n], &received);
            let mut perm: Vec<usize> = (1..=concat).collect();
            perm.push(0);
            perm.extend(concat + 1..received.len());
            let (v, s) = t.transpose(&v, &received, &perm);
            t.reshape(&v, &s, shape)
        }
    }
}

/// How a collective's buffers are arranged.
#[derive(Debug, Clone)]
enum Layout {
    Flat,
    /// Dim moved to the front (reduce_scatter, all_gather).
    Leading(usize),
    /// all_to_all: blocks of `split`, joined along `concat`; `block` is
    /// the shape of one block.
    Blocks {
        split: usize,
        concat: usize,
        group: i64,
        block: Vec<i64>,
    },
}

fn int_attr(op: &OperationRef<'_, '_>, name: &str) -> usize {
    integer_attribute(op, name).map_or(0, |v| v as usize)
}

fn element_name(ty: Type<'_>) -> String {
    element_type(ty).to_string()
}

fn declare(helpers: &mut Helpers, function: &RuntimeFn) {
    helpers
        .declarations
        .entry(function.name.clone())
        .or_insert_with(|| function.declaration());
}

/// The mesh and axes an op communicates over, as the runtime reads them.
struct Site<'c> {
    at: Location<'c>,
    name: String,
    mesh_words: Vec<i64>,
    axis_words: Vec<i64>,
    group: i64,
}

impl<'c> Site<'c> {
    fn read(op: OperationRef<'c, '_>, meshes: &mut FxHashMap<String, Mesh>) -> Lowered<'c, Self> {
        let at = op.location();
        let name = op_name(&op).to_owned();
        let mesh_name = attribute(&op, attr::MESH)
            .and_then(|a| FlatSymbolRefAttribute::try_from(a).ok())
            .map(|s| s.value().to_owned())
            .ok_or_else(|| Located::new(at, format!("'{name}' names no mesh")))?;
        if !meshes.contains_key(&mesh_name) {
            let mesh = MeshOpRef::lookup(&op, &mesh_name)
                .and_then(|m| m.to_model().ok())
                .ok_or_else(|| Located::new(at, format!("no dist.mesh @{mesh_name} is visible here")))?;
            meshes.insert(mesh_name.clone(), mesh);
        }
        let mesh = &meshes[&mesh_name];
        let axes = dist_dialect::ir::axis_names(&op);
        let (mesh_words, axis_words) = descriptors(mesh, &axes);
        let group = mesh.group_size(&axes).map_err(|e| Located::new(at, e.to_string()))?;
        Ok(Self {
            at,
            name,
            mesh_words,
            axis_words,
            group,
        })
    }

    /// A helper body that computes in `element`.
    fn text(&self, element: &str, next: usize) -> Text {
        Text {
            body: String::new(),
            next,
            element: element.to_owned(),
        }
    }
}

/// What a collective moves: its operands' and results' local shapes and
/// types, and the key its helper is shared under.
struct Moved {
    kind: CollectiveKind,
    is_start: bool,
    element: String,
    shapes: Vec<Vec<i64>>,
    result_shapes: Vec<Vec<i64>>,
    input_types: Vec<String>,
    output_types: Vec<String>,
    reduction: i64,
    key: String,
}

impl Moved {
    fn read<'c>(op: OperationRef<'c, '_>, site: &Site<'c>) -> Lowered<'c, Self> {
        let (at, name) = (site.at, &site.name);
        let inputs: Vec<Value<'c, '_>> = op.operands().collect();
        let shapes: Vec<Vec<i64>> = inputs
            .iter()
            .map(|v| {
                static_tensor_shape(v.r#type())
                    .ok_or_else(|| Located::new(at, format!("'{name}' needs static tensors")))
            })
            .collect::<Result<_, _>>()?;
        let element = element_name(inputs[0].r#type());
        if let Some(other) = inputs.iter().map(|v| element_name(v.r#type())).find(|e| *e != element) {
            return Err(Located::new(
                at,
                format!("'{name}' becomes one runtime call over one element type; it mixes {element} and {other}"),
            ));
        }
        let kind = CollectiveKind::from_op_name(name).expect("a collective");
        let is_start = DistOp::of(&op).is_some_and(DistOp::is_async_start);
        // The results' local shapes: of the op, or of the handle's types.
        let result_types: Vec<Type<'c>> = if is_start {
            let handle = op.result_at(0).expect("a start has a handle").r#type();
            handle_result_types(handle)
        } else {
            op.results().map(|r| r.r#type()).collect()
        };
        let result_shapes: Vec<Vec<i64>> = result_types
            .iter()
            .map(|&ty| static_tensor_shape(ty).unwrap_or_default())
            .collect();
        let input_types: Vec<String> = shapes.iter().map(|s| tensor_type(s, &element)).collect();
        let output_types: Vec<String> = result_shapes.iter().map(|s| tensor_type(s, &element)).collect();
        let reduction = attribute(&op, attr::KIND)
            .and_then(reduction_kind)
            .map_or(0, |k| k.to_raw() as i64);
        let key = format!(
            "{name} {input_types:?} {:?} {:?} {reduction} {:?}",
            site.mesh_words,
            site.axis_words,
            attribute_text(&op)
        );
        Ok(Self {
            kind,
            is_start,
            element,
            shapes,
            result_shapes,
            input_types,
            output_types,
            reduction,
            key,
        })
    }

    /// How the runtime arranges the buffers of this collective.
    fn layout(&self, op: &OperationRef<'_, '_>, group: i64) -> Layout {
        match self.kind {
            CollectiveKind::ReduceScatter | CollectiveKind::AllGather => Layout::Leading(int_attr(op, attr::DIM)),
            CollectiveKind::AllToAll => {
                let split = int_attr(op, attr::SPLIT_DIM);
                let mut block = self.shapes[0].clone();
                block[split] /= group.max(1);
                Layout::Blocks {
                    split,
                    concat: int_attr(op, attr::CONCAT_DIM),
                    group,
                    block,
                }
            }
            _ => Layout::Flat,
        }
    }
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

/// `dist.axis_index`: the runtime's coordinate of this device.
fn axis_index_call(helpers: &mut Helpers, site: &Site<'_>) -> Call {
    let axis_index = runtime_abi::axis_index();
    declare(helpers, &axis_index);
    let key = format!("axis_index {:?} {:?}", site.mesh_words, site.axis_words);
    let mut t = site.text("f32", 0);
    let (m, a) = t.descriptors(&site.mesh_words, &site.axis_words);
    let v = t.value();
    t.line(format!("{v} = {}", axis_index.call(&format!("{m}, {a}"))));
    t.line(format!("return {v} : index"));
    let helper = add_helper(helpers, key, "() -> index", &t.body);
    Call {
        helper,
        results: vec!["index".to_owned()],
    }
}

/// `dist.all_slice`: the device's slice of `dim`, no communication.
fn slice_call(helpers: &mut Helpers, site: &Site<'_>, moved: &Moved, dim: usize) -> Call {
    let axis_index = runtime_abi::axis_index();
    declare(helpers, &axis_index);
    let mut t = site.text(&moved.element, 0);
    let (m, a) = t.descriptors(&site.mesh_words, &site.axis_words);
    let i = t.value();
    t.line(format!("{i} = {}", axis_index.call(&format!("{m}, {a}"))));
    let size = moved.result_shapes[0][dim];
    let c = t.value();
    t.line(format!("{c} = arith.constant {size} : index"));
    let off = t.value();
    t.line(format!("{off} = arith.muli {i}, {c} : index"));
    let rank = moved.shapes[0].len();
    let offsets: Vec<String> = (0..rank)
        .map(|d| if d == dim { off.clone() } else { "0".to_owned() })
        .collect();
    let sizes: Vec<String> = moved.result_shapes[0].iter().map(i64::to_string).collect();
    let strides = vec!["1"; rank].join(", ");
    let v = t.value();
    let (input, output) = (&moved.input_types[0], &moved.output_types[0]);
    t.line(format!(
        "{v} = tensor.extract_slice %arg0[{}] [{}] [{strides}] : {input} to {output}",
        offsets.join(", "),
        sizes.join(", "),
    ));
    t.line(format!("return {v} : {output}"));
    let helper = add_helper(
        helpers,
        moved.key.clone(),
        &format!("(%arg0: {input}) -> {output}"),
        &t.body,
    );
    Call {
        helper,
        results: moved.output_types.clone(),
    }
}

/// The flat size of `shapes` together.
fn total(shapes: &[Vec<i64>]) -> i64 {
    shapes.iter().map(|s| s.iter().product::<i64>()).sum()
}

/// Packs the operands, in their block layouts, into one flat tensor: one
/// after the other, or, for a reduce_scatter, block by block (the blocks
/// each of the `group` devices keeps, of every operand, side by side).
fn pack_operands(t: &mut Text, moved: &Moved, layout: &Layout, group: i64) -> String {
    let element = &moved.element;
    let flats: Vec<String> = moved
        .shapes
        .iter()
        .enumerate()
        .map(|(i, s)| to_blocks(t, &format!("%arg{i}"), s, layout))
        .collect();
    if flats.len() == 1 {
        return flats[0].clone();
    }
    let n_in = total(&moved.shapes);
    // A row per device for a reduce_scatter, else one (a flat tensor).
    let rows = if moved.kind == CollectiveKind::ReduceScatter {
        group
    } else {
        1
    };
    let shape = |cols: i64| if rows == 1 { vec![cols] } else { vec![rows, cols] };
    let list = |v: &[i64]| v.iter().map(i64::to_string).collect::<Vec<_>>().join(", ");
    let packed = shape(n_in / rows);
    let mut acc = t.value();
    t.line(format!("{acc} = tensor.empty() : {}", tensor_type(&packed, element)));
    let mut offset = 0;
    for (f, s) in flats.iter().zip(&moved.shapes) {
        let n: i64 = s.iter().product();
        let block = shape(n / rows);
        let piece = t.reshape(f, &[n], &block);
        let mut offsets = vec![0; block.len()];
        offsets[block.len() - 1] = offset;
        let v = t.value();
        t.line(format!(
            "{v} = tensor.insert_slice {piece} into {acc}[{}] [{}] [{}] : {} into {}",
            list(&offsets),
            list(&block),
            list(&vec![1; block.len()]),
            tensor_type(&block, element),
            tensor_type(&packed, element)
        ));
        acc = v;
        offset += n / rows;
    }
    t.reshape(&acc, &packed, &[n_in])
}

/// After the data has arrived: the flat output cut into the results, each
/// in its shape.
fn unpack_results(t: &mut Text, out_static: &str, moved: &Moved, layout: &Layout, group: i64) -> Vec<String> {
    let n_out = total(&moved.result_shapes);
    let flat = t.tensor_of(out_static, n_out);
    let mut results = Vec::new();
    let mut offset = 0;
    for s in &moved.result_shapes {
        let n: i64 = s.iter().product();
        let piece = if moved.result_shapes.len() == 1 {
            flat.clone()
        } else {
            let v = t.value();
            t.line(format!(
                "{v} = tensor.extract_slice {flat}[{offset}] [{n}] [1] : {} to {}",
                tensor_type(&[n_out], &t.element.clone()),
                tensor_type(&[n], &t.element.clone())
            ));
            v
        };
        offset += n;
        results.push(from_blocks(t, &piece, n, s, layout, group));
    }
    results
}

/// A collective through the runtime's MPI (or NCCL) call: one helper that
/// packs, calls and unpacks; for a start, a helper that packs and starts
/// and a second one, for its wait, that completes and unpacks.
fn runtime_call(helpers: &mut Helpers, site: &Site<'_>, moved: Moved, layout: &Layout) -> Call {
    let element = moved.element.clone();
    let function = runtime_abi::collective(moved.kind, &element, moved.is_start);
    declare(helpers, &function);
    let (n_in, n_out) = (total(&moved.shapes), total(&moved.result_shapes));
    let mut t = site.text(&element, 0);
    let packed = pack_operands(&mut t, &moved, layout, site.group);
    let input = t.buffer_of(&packed, n_in, moved.is_start);
    let (out, out_static) = t.output(n_out);
    let (m, a) = t.descriptors(&site.mesh_words, &site.axis_words);
    let k = t.value();
    t.line(format!("{k} = arith.constant {} : i32", moved.reduction));
    let call = function.call(&format!("{input}, {out}, {m}, {a}, {k}"));
    let params: Vec<String> = moved
        .input_types
        .iter()
        .enumerate()
        .map(|(i, ty)| format!("%arg{i}: {ty}"))
        .collect();
    let outputs = moved.output_types.join(", ");
    if !moved.is_start {
        t.line(call);
        let results = unpack_results(&mut t, &out_static, &moved, layout, site.group);
        t.line(format!("return {} : {outputs}", results.join(", ")));
        let helper = add_helper(
            helpers,
            moved.key.clone(),
            &format!("({}) -> ({outputs})", params.join(", ")),
            &t.body,
        );
        return Call {
            helper,
            results: moved.output_types,
        };
    }
    // A start returns the request and both buffers; its wait (a second
    // helper) completes the request and unpacks.
    let r = t.value();
    t.line(format!("{r} = {call}"));
    let out_type = memref_type(n_out, &element);
    t.line(format!(
        "return {r}, {input}, {out_static} : i64, memref<?x{element}>, {out_type}"
    ));
    let start_results = vec!["i64".to_owned(), format!("memref<?x{element}>"), out_type.clone()];
    let helper = add_helper(
        helpers,
        moved.key.clone(),
        &format!("({}) -> ({})", params.join(", "), start_results.join(", ")),
        &t.body,
    );
    let wait = runtime_abi::wait(&element);
    declare(helpers, &wait);
    let mut w = site.text(&element, 100);
    let oc = w.value();
    w.line(format!("{oc} = memref.cast %out : {out_type} to memref<?x{element}>"));
    w.line(wait.call(&format!("%request, %input, {oc}")));
    let results = unpack_results(&mut w, "%out", &moved, layout, site.group);
    w.line(format!("return {} : {outputs}", results.join(", ")));
    let wait = add_helper(
        helpers,
        format!("wait of {}", moved.key),
        &format!("(%request: i64, %input: memref<?x{element}>, %out: {out_type}) -> ({outputs})"),
        &w.body,
    );
    Call {
        helper: format!("{helper} {wait}"),
        results: start_results,
    }
}

/// The attributes that shape a collective, as text (for the helper key).
fn attribute_text(op: &OperationRef<'_, '_>) -> String {
    [attr::DIM, attr::SPLIT_DIM, attr::CONCAT_DIM]
        .iter()
        .map(|n| format!("{n}={}", int_attr(op, n)))
        .collect::<Vec<_>>()
        .join(",")
}

/// The tensor types a `!dist.handle` carries.
fn handle_result_types(handle: Type<'_>) -> Vec<Type<'_>> {
    // `!dist.handle<tensor<...>, ...>`: reparse the carried types.
    let text = handle.to_string();
    let inner = text
        .strip_prefix("!dist.handle<")
        .and_then(|s| s.strip_suffix('>'))
        .unwrap_or("");
    let context = context_of_type(handle);
    split_types(inner)
        .iter()
        .filter_map(|t| Type::parse(context, t))
        .collect()
}

/// Splits `tensor<2x3xf32>, tensor<4xf32>` at top-level commas.
fn split_types(text: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in text.char_indices() {
        match c {
            '<' => depth += 1,
            '>' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(text[start..i].trim().to_owned());
                start = i + 1;
            }
            _ => {}
        }
    }
    if !text[start..].trim().is_empty() {
        parts.push(text[start..].trim().to_owned());
    }
    parts
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
