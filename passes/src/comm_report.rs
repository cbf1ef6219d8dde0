//! `dist-comm-report`: prints, per function, a table of the collectives it
//! runs and what each moves per device.
//!
//! Anchored on the module so that functions print in order whatever the
//! threading. The table goes to stderr, like `--mlir-timing`. Per collective
//! (sync or async start, in program order): kind, mesh axes, device groups
//! (their count and size, and the first four), element type, the bytes each
//! device sends in a bandwidth-optimal ring (the lower bound for large
//! messages: `2 (g-1)/g` of the per-device buffer for all_reduce, `(g-1)/g`
//! for reduce_scatter, all_gather and all_to_all, 0 for all_slice), the
//! value it reads and the op that reads its result; then totals. The
//! per-device buffer is the operand's type divided by the splits of its
//! sharding (global view), or the type itself where the operand has no
//! sharding (after partitioning).
//!
//! Example (`dist-opt f.mlir --dist-comm-report -o /dev/null`):
//! ```text
//! // dist-comm-report @step on @mesh ["dp"=2, "tp"=2], bytes per device (ring lower bound)
//! //   #  collective  axes  groups               type  bytes  value  for
//! //   1  all_reduce  "tp"  2x2 {0,1} {2,3}      f32     256  %2     dist.sub
//! // total: 1 collective, 256 bytes per device; all_reduce 1 (256)
//! ```

use crate::PassError;
use crate::comm::{CollectiveKind, device_groups};
use crate::propagate_sharding::graph::{ancestor_in, attribute, block_ops, value_sharding};
use crate::registry::{DistPass, PassInfo};
use dist_dialect::ir::{
    FunctionOpRef, MeshOpRef, OperationExt, append_to_string, element_bytes, element_type, static_tensor_shape,
};
use dist_dialect::model::Mesh;
use melior::ir::attribute::{FlatSymbolRefAttribute, StringAttribute};
use melior::ir::operation::OperationLike;
use melior::ir::{BlockRef, OperationRef, RegionLike, Value, ValueLike};
use rustc_hash::FxHashMap;
use std::ffi::c_void;
use std::fmt::Write;

#[derive(Debug, Default)]
pub struct CommReport;

pub const INFO: PassInfo = PassInfo {
    argument: "dist-comm-report",
    summary: "Print each function's collectives with their groups and bytes per device (to stderr)",
    anchor: "builtin.module",
    options: &[],
    dialects: &[],
    create: || Box::new(CommReport),
};

impl DistPass for CommReport {
    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let mut text = String::new();
        for op in ops_of(module) {
            if let Ok(function) = FunctionOpRef::try_from(op) {
                report(function, &mut text);
            }
        }
        eprint!("{text}");
        Ok(())
    }
}

/// The ops of the body of `op` (none for a declaration).
pub(crate) fn ops_of<'c, 'a>(op: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    op.region_at(0)
        .and_then(|r| r.first_block())
        .map_or_else(Vec::new, block_ops)
}

/// Names values as the printer does (one state per function).
pub(crate) struct Names(mlir_sys::MlirAsmState);

impl Names {
    pub fn new(function: &OperationRef<'_, '_>) -> Self {
        // SAFETY: the op is live; the flags are copied by the state.
        unsafe {
            let flags = mlir_sys::mlirOpPrintingFlagsCreate();
            let state = mlir_sys::mlirAsmStateCreateForOperation(function.to_raw(), flags);
            mlir_sys::mlirOpPrintingFlagsDestroy(flags);
            Self(state)
        }
    }

    pub fn name(&self, value: Value<'_, '_>) -> String {
        let mut text = String::new();
        // SAFETY: the value and the state are live; the callback gets `text`.
        unsafe {
            mlir_sys::mlirValuePrintAsOperand(
                value.to_raw(),
                self.0,
                Some(append_to_string),
                &mut text as *mut String as *mut c_void,
            )
        };
        text
    }
}

impl Drop for Names {
    fn drop(&mut self) {
        // SAFETY: created in `new`, destroyed once.
        unsafe { mlir_sys::mlirAsmStateDestroy(self.0) }
    }
}

/// The op that reads `value` first in its block (through a `dist.wait`;
/// a reader nested in an op of the block counts as that op).
pub(crate) fn first_reader(value: Value<'_, '_>, block: BlockRef<'_, '_>) -> String {
    let mut first: Option<(OperationRef<'_, '_>, usize)> = None;
    // SAFETY: walks the use list of a live value; the ops compared are in
    // one block.
    unsafe {
        let mut operand = mlir_sys::mlirValueGetFirstUse(value.to_raw());
        while !operand.ptr.is_null() {
            let owner = OperationRef::from_raw(mlir_sys::mlirOpOperandGetOwner(operand));
            let index = mlir_sys::mlirOpOperandGetOperandNumber(operand) as usize;
            operand = mlir_sys::mlirOpOperandGetNextUse(operand);
            let Some(owner) = ancestor_in(block, owner) else {
                continue;
            };
            if first.is_none_or(|(f, _)| mlir_sys::mlirOperationIsBeforeInBlock(owner.to_raw(), f.to_raw())) {
                first = Some((owner, index));
            }
        }
    }
    match first {
        None => "unused".to_owned(),
        Some((op, _)) if op.name().as_string_ref().as_str() == Ok("dist.wait") => op
            .result_at(0)
            .map_or_else(|| "unused".to_owned(), |r| first_reader(r.into(), block)),
        Some((op, index)) if op.name().as_string_ref().as_str() == Ok("func.return") => format!("result #{index}"),
        Some((op, _)) => op.name().as_string_ref().as_str().unwrap_or("?").to_owned(),
    }
}

/// What one collective moves, as the report shows it.
pub(crate) struct Collective<'c, 'a> {
    pub op: OperationRef<'c, 'a>,
    pub kind: CollectiveKind,
    pub name: &'static str,
    /// `@mesh ["dp"=2, "tp"=4]`.
    pub mesh: String,
    /// `"dp","tp"`.
    pub axes: String,
    pub groups: String,
    pub element: String,
    /// Ring lower bound per device.
    pub bytes: u64,
    pub inputs: Vec<Value<'c, 'a>>,
}

/// Reads collectives and per-device sizes, looking each mesh and
/// device-group list up once: a function repeats a few of them.
#[derive(Default)]
pub(crate) struct CommReader {
    meshes: FxHashMap<String, Option<Mesh>>,
    groups_by_axes: FxHashMap<(String, Vec<usize>), Vec<Vec<i64>>>,
}

impl CommReader {
    /// The mesh `name` as seen from `from`.
    fn mesh(&mut self, from: &OperationRef<'_, '_>, name: &str) -> Option<&Mesh> {
        if !self.meshes.contains_key(name) {
            let mesh = MeshOpRef::lookup(from, name).and_then(|m| m.to_model().ok());
            self.meshes.insert(name.to_owned(), mesh);
        }
        self.meshes[name].as_ref()
    }

    /// The shape of `value` on one device: its type divided by the splits
    /// of its sharding (global view), or its type where it has none (local
    /// view). `from` is an op in the function, for the mesh lookup.
    pub fn local_shape(
        &mut self,
        value: Value<'_, '_>,
        function: FunctionOpRef<'_, '_>,
        from: &OperationRef<'_, '_>,
    ) -> Option<Vec<i64>> {
        let shape = static_tensor_shape(value.r#type())?;
        let Some(sharding) = value_sharding(value, function) else {
            return Some(shape);
        };
        let mesh = self.mesh(from, &sharding.mesh)?;
        let split = |axes: &Vec<String>| {
            axes.iter()
                .filter_map(|a| mesh.axis_index(a))
                .map(|a| mesh.axes()[a].size)
                .product::<i64>()
        };
        Some(
            shape
                .iter()
                .zip(&sharding.dims)
                .map(|(&n, axes)| n / split(axes))
                .collect(),
        )
    }

    /// Elements of `value` on one device (see [`Self::local_shape`]).
    pub fn local_numel(
        &mut self,
        value: Value<'_, '_>,
        function: FunctionOpRef<'_, '_>,
        from: &OperationRef<'_, '_>,
    ) -> Option<i64> {
        self.local_shape(value, function, from).map(|s| s.iter().product())
    }

    /// The collective `op` is, if it is one on a visible mesh.
    pub fn collective<'c, 'a>(
        &mut self,
        op: OperationRef<'c, 'a>,
        function: FunctionOpRef<'_, '_>,
    ) -> Option<Collective<'c, 'a>> {
        let name = op.name().as_string_ref().as_str().unwrap_or("").to_owned();
        let kind = CollectiveKind::from_op_name(&name)?;
        let mesh_name = attribute(&op, "mesh").and_then(|a| FlatSymbolRefAttribute::try_from(a).ok())?;
        let mesh = self.mesh(&op, mesh_name.value())?.clone();
        let axis_names = crate::propagate_sharding::graph::axis_names(&op);
        let axes: Vec<usize> = axis_names.iter().filter_map(|a| mesh.axis_index(a)).collect();
        let groups = self
            .groups_by_axes
            .entry((mesh.name().to_owned(), axes))
            .or_insert_with_key(|(_, axes)| device_groups(&mesh, axes));
        let group = groups.first().map_or(1, Vec::len) as u64;
        let groups = groups_text(groups);
        let mut bytes = 0;
        let mut elements = Vec::new();
        let mut inputs = Vec::new();
        for input in op.operands() {
            let ty = input.r#type();
            let Some(numel) = self.local_numel(input, function, &op) else {
                continue;
            };
            let local = numel as u64 * element_bytes(ty);
            let output = match kind {
                CollectiveKind::AllGather => local * group,
                CollectiveKind::ReduceScatter | CollectiveKind::AllSlice => local / group,
                _ => local,
            };
            bytes += kind.wire_bytes(group, local, output);
            elements.push(element_type(ty).to_string());
            inputs.push(input);
        }
        elements.dedup();
        Some(Collective {
            op,
            kind,
            name: kind_name(kind, name.contains("coalesced")),
            mesh: format!("@{} {}", mesh.name(), mesh_axes(&mesh)),
            axes: axis_names
                .iter()
                .map(|a| format!("\"{a}\""))
                .collect::<Vec<_>>()
                .join(","),
            groups,
            element: if elements.len() == 1 {
                elements.remove(0)
            } else {
                "mixed".to_owned()
            },
            bytes,
            inputs,
        })
    }
}

/// The symbol name of a function.
pub(crate) fn symbol(operation: &OperationRef<'_, '_>) -> String {
    attribute(operation, "sym_name")
        .and_then(|a| StringAttribute::try_from(a).ok())
        .map_or_else(String::new, |s| s.value().to_owned())
}

/// Aligned comment lines: numbers (the `right` columns) right-aligned,
/// text left-aligned.
pub(crate) fn table(header: &[&str], rows: &[Vec<String>], right: &[usize]) -> String {
    let widths: Vec<usize> = (0..header.len())
        .map(|c| {
            rows.iter()
                .map(|r| r[c].len())
                .chain([header[c].len()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |cells: &mut dyn Iterator<Item = &str>| {
        let mut s = String::from("//");
        for (c, cell) in cells.enumerate() {
            if right.contains(&c) {
                let _ = write!(s, "  {cell:>w$}", w = widths[c]);
            } else {
                let _ = write!(s, "  {cell:<w$}", w = widths[c]);
            }
        }
        let mut s = s.trim_end().to_owned();
        s.push('\n');
        s
    };
    let mut out = line(&mut header.iter().copied());
    for row in rows {
        out.push_str(&line(&mut row.iter().map(String::as_str)));
    }
    out
}

fn report(function: FunctionOpRef<'_, '_>, out: &mut String) {
    let operation = function.operation();
    if operation.region_at(0).and_then(|r| r.first_block()).is_none() {
        return; // a declaration
    }
    let names = Names::new(&operation);
    let mut reader = CommReader::default();
    let mut rows = Vec::new();
    let mut mesh_text = String::new();
    for op in ops_of(operation) {
        if let Some(c) = reader.collective(op, function) {
            mesh_text = c.mesh.clone();
            rows.push(c);
        }
    }
    let symbol = symbol(&operation);
    if rows.is_empty() {
        let _ = writeln!(out, "// dist-comm-report @{symbol}: no collectives");
        return;
    }
    let _ = writeln!(
        out,
        "// dist-comm-report @{symbol} on {mesh_text}, bytes per device (ring lower bound)"
    );
    let header = ["#", "collective", "axes", "groups", "type", "bytes", "value", "for"];
    let cells: Vec<Vec<String>> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let values: Vec<String> = r.inputs.iter().map(|&v| names.name(v)).collect();
            let reader = r.op.result_at(0).map_or_else(
                || "unused".to_owned(),
                |res| first_reader(res.into(), r.op.block().expect("in a block")),
            );
            vec![
                (i + 1).to_string(),
                r.name.to_owned(),
                r.axes.clone(),
                r.groups.clone(),
                r.element.clone(),
                r.bytes.to_string(),
                values.join(","),
                reader,
            ]
        })
        .collect();
    out.push_str(&table(&header, &cells, &[0, 5]));
    let total: u64 = rows.iter().map(|r| r.bytes).sum();
    let mut by_kind: Vec<(&str, usize, u64)> = Vec::new();
    for r in &rows {
        match by_kind.iter_mut().find(|(k, _, _)| *k == r.name) {
            Some((_, n, b)) => {
                *n += 1;
                *b += r.bytes;
            }
            None => by_kind.push((r.name, 1, r.bytes)),
        }
    }
    let kinds: Vec<String> = by_kind.iter().map(|(k, n, b)| format!("{k} {n} ({b})")).collect();
    let plural = if rows.len() == 1 { "" } else { "s" };
    let _ = writeln!(
        out,
        "// total: {} collective{plural}, {total} bytes per device; {}",
        rows.len(),
        kinds.join(", ")
    );
}

fn kind_name(kind: CollectiveKind, coalesced: bool) -> &'static str {
    match kind {
        CollectiveKind::AllReduce if coalesced => "all_reduce_coalesced",
        CollectiveKind::AllReduce => "all_reduce",
        CollectiveKind::ReduceScatter => "reduce_scatter",
        CollectiveKind::AllGather => "all_gather",
        CollectiveKind::AllToAll => "all_to_all",
        CollectiveKind::AllSlice => "all_slice",
    }
}

fn mesh_axes(mesh: &Mesh) -> String {
    let axes: Vec<String> = mesh
        .axes()
        .iter()
        .map(|a| format!("\"{}\"={}", a.name, a.size))
        .collect();
    format!("[{}]", axes.join(", "))
}

/// `4x2 {0,4} {1,5} {2,6} {3,7}`: count x size, then at most four groups.
fn groups_text(groups: &[Vec<i64>]) -> String {
    let size = groups.first().map_or(0, Vec::len);
    let mut s = format!("{}x{size}", groups.len());
    for g in groups.iter().take(4) {
        let ids: Vec<String> = g.iter().map(i64::to_string).collect();
        let _ = write!(s, " {{{}}}", ids.join(","));
    }
    if groups.len() > 4 {
        s.push_str(" ...");
    }
    s
}
