//! Reading a function's collectives as the reports show them: what each
//! moves, between which devices, and who reads its result first.

use super::cluster::Machine;
use crate::vocabulary::comm::{CollectiveKind, device_groups};
use dist_dialect::ir::{
    FunctionOpRef, MeshOpRef, OperationExt, ancestor_in, attribute, element_bytes, element_type, is_before_in_block,
    op_name, reduction_kind, static_tensor_shape, uses, value_sharding,
};
use dist_dialect::model::Mesh;
use dist_dialect::ops::attr;
use dist_dialect::{DistOp, ReductionKind};
use melior::ir::attribute::FlatSymbolRefAttribute;
use melior::ir::operation::OperationLike;
use melior::ir::{BlockRef, OperationRef, Value, ValueLike};
use rustc_hash::FxHashMap;
use std::fmt::Write;
use std::rc::Rc;

/// The op that reads `value` first in its block (through a `dist.wait`;
/// a reader nested in an op of the block counts as that op).
pub fn first_reader(value: Value<'_, '_>, block: BlockRef<'_, '_>) -> String {
    let mut first: Option<(OperationRef<'_, '_>, usize)> = None;
    for (owner, index) in uses(value) {
        let Some(owner) = ancestor_in(block, owner) else {
            continue;
        };
        if first.is_none_or(|(f, _)| is_before_in_block(&owner, &f)) {
            first = Some((owner, index));
        }
    }
    match first {
        None => "unused".to_owned(),
        Some((op, _)) if DistOp::Wait.is(&op) => op
            .result_at(0)
            .map_or_else(|| "unused".to_owned(), |r| first_reader(r.into(), block)),
        Some((op, index)) if op_name(&op) == "func.return" => format!("result #{index}"),
        Some((op, _)) => op_name(&op).to_owned(),
    }
}

/// The device ids of each group of a collective, shared by the
/// collectives over the same axes.
pub type DeviceGroups = Rc<Vec<Vec<i64>>>;

/// What one collective moves, as the report shows it.
pub struct Collective<'c, 'a> {
    pub op: OperationRef<'c, 'a>,
    pub kind: CollectiveKind,
    pub name: &'static str,
    /// How a reducing collective combines the devices' values.
    pub reduction: Option<ReductionKind>,
    /// `@mesh ["dp"=2, "tp"=4]`.
    pub mesh: String,
    /// `"dp","tp"`.
    pub axes: String,
    pub groups: String,
    /// The device ids of each group.
    pub device_groups: DeviceGroups,
    pub element: String,
    /// Ring lower bound per device.
    pub bytes: u64,
    pub inputs: Vec<Value<'c, 'a>>,
}

/// Reads collectives and per-device sizes, looking each mesh and
/// device-group list up once: a function repeats a few of them.
#[derive(Default)]
pub struct CommReader {
    meshes: FxHashMap<String, Option<Mesh>>,
    groups_by_axes: FxHashMap<(String, Vec<usize>), DeviceGroups>,
    /// Whether the groups (by address, the list kept so that the address
    /// stays its own) cross nodes of that many devices.
    crossings: FxHashMap<(usize, u64), (DeviceGroups, bool)>,
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
                .map(|(&n, axes)| crate::vocabulary::comm::local_size(n, split(axes)))
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
        // Saturating: sizes past 2^63 are refused by the verifier on every
        // dist op, but not on the values of other dialects.
        self.local_shape(value, function, from)
            .map(|s| s.iter().fold(1i64, |n, &d| n.saturating_mul(d)))
    }

    /// Bytes of `value` on one device (see [`Self::local_shape`]).
    pub fn local_bytes(
        &mut self,
        value: Value<'_, '_>,
        function: FunctionOpRef<'_, '_>,
        from: &OperationRef<'_, '_>,
    ) -> Option<u64> {
        self.local_numel(value, function, from)
            .map(|n| n as u64 * element_bytes(value.r#type()))
    }

    /// The collective `op` is, if it is one on a visible mesh.
    pub fn collective<'c, 'a>(
        &mut self,
        op: OperationRef<'c, 'a>,
        function: FunctionOpRef<'_, '_>,
    ) -> Option<Collective<'c, 'a>> {
        let name = op_name(&op);
        let kind = CollectiveKind::from_op_name(name)?;
        let mesh_name = attribute(&op, attr::MESH).and_then(|a| FlatSymbolRefAttribute::try_from(a).ok())?;
        let mesh = self.mesh(&op, mesh_name.value())?.clone();
        let axis_names = dist_dialect::ir::axis_names(&op);
        let axes: Vec<usize> = axis_names.iter().filter_map(|a| mesh.axis_index(a)).collect();
        let device_groups = self.groups(&mesh, &axes);
        let group = device_groups.first().map_or(1, Vec::len) as u64;
        let groups = groups_text(&device_groups);
        let mut bytes = 0;
        let mut elements = Vec::new();
        let mut inputs = Vec::new();
        for input in op.operands() {
            let ty = input.r#type();
            let Some(local) = self.local_bytes(input, function, &op) else {
                continue;
            };
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
            reduction: attribute(&op, attr::KIND).and_then(reduction_kind),
            mesh: format!("@{} {}", mesh.name(), mesh_axes(&mesh)),
            axes: axis_names
                .iter()
                .map(|a| format!("\"{a}\""))
                .collect::<Vec<_>>()
                .join(","),
            groups,
            device_groups,
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

impl CommReader {
    /// The device groups over `axes` (indices) of `mesh`, listed once.
    pub fn groups(&mut self, mesh: &Mesh, axes: &[usize]) -> DeviceGroups {
        Rc::clone(
            self.groups_by_axes
                .entry((mesh.name().to_owned(), axes.to_vec()))
                .or_insert_with_key(|(_, axes)| Rc::new(device_groups(mesh, axes))),
        )
    }

    /// Whether `groups` hold devices of two of `machine`'s nodes, decided
    /// once for each list (a mesh of 100k devices has few of them).
    pub fn crosses_nodes(&mut self, groups: &DeviceGroups, machine: &Machine) -> bool {
        self.crossings
            .entry((Rc::as_ptr(groups) as usize, machine.devices_per_node))
            .or_insert_with(|| (Rc::clone(groups), machine.crosses_nodes(groups)))
            .1
    }
}

fn kind_name(kind: CollectiveKind, coalesced: bool) -> &'static str {
    match kind {
        CollectiveKind::AllReduce if coalesced => "all_reduce_coalesced",
        CollectiveKind::ReduceScatter if coalesced => "reduce_scatter_coalesced",
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

/// `4x2 {0,4} {1,5} {2,6} {3,7}`: count x size, then at most four groups,
/// each of more than eight devices as its first three and its last
/// (`{0,1,2,...,255}`).
fn groups_text(groups: &[Vec<i64>]) -> String {
    let size = groups.first().map_or(0, Vec::len);
    let mut s = format!("{}x{size}", groups.len());
    for g in groups.iter().take(4) {
        let mut ids: Vec<String> = g
            .iter()
            .take(if g.len() > 8 { 3 } else { 8 })
            .map(i64::to_string)
            .collect();
        if g.len() > 8 {
            ids.push(format!("...,{}", g[g.len() - 1]));
        }
        let _ = write!(s, " {{{}}}", ids.join(","));
    }
    if groups.len() > 4 {
        s.push_str(" ...");
    }
    s
}
