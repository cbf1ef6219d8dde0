//! Reading a collective op: the mesh and axes it runs over, as the
//! runtime reads them, and what it moves (shapes, element type, kind).

use super::Lowered;
use super::layout::Layout;
use crate::vocabulary::comm::CollectiveKind;
use dist_dialect::DistOp;
use dist_dialect::ir::{
    Located, MeshOpRef, OperationExt, attribute, context_of, element_type, integer_attribute, op_name, reduction_kind,
    static_tensor_shape, symbol_ref_attribute, users,
};
use dist_dialect::model::Mesh;
use dist_dialect::ops::attr;
use melior::Context;
use melior::ir::operation::OperationLike;
use melior::ir::{Location, OperationRef, Type, Value, ValueLike};
use rustc_hash::FxHashMap;

/// The integer list of a mesh and of axes, as the runtime reads them.
pub(super) fn descriptors(mesh: &Mesh, axes: &[String]) -> (Vec<i64>, Vec<i64>) {
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

pub(super) fn int_attr(op: &OperationRef<'_, '_>, name: &str) -> usize {
    integer_attribute(op, name).map_or(0, |v| v as usize)
}

/// The mesh and axes an op communicates over, as the runtime reads them.
pub(super) struct Site<'c> {
    pub(super) context: &'c Context,
    pub(super) at: Location<'c>,
    pub(super) name: String,
    pub(super) mesh_words: Vec<i64>,
    pub(super) axis_words: Vec<i64>,
    pub(super) group: i64,
}

impl<'c> Site<'c> {
    pub(super) fn read(op: OperationRef<'c, '_>, meshes: &mut FxHashMap<String, Mesh>) -> Lowered<'c, Self> {
        let at = op.location();
        let name = op_name(&op).to_owned();
        let mesh_name =
            symbol_ref_attribute(&op, attr::MESH).ok_or_else(|| Located::new(at, format!("'{name}' names no mesh")))?;
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
            context: context_of(&op),
            at,
            name,
            mesh_words,
            axis_words,
            group,
        })
    }
}

/// What a collective moves: its operands' and results' local shapes and
/// element type, and the key its helper is shared under.
pub(super) struct Moved<'c> {
    pub(super) kind: CollectiveKind,
    pub(super) is_start: bool,
    pub(super) element: Type<'c>,
    pub(super) shapes: Vec<Vec<i64>>,
    pub(super) result_shapes: Vec<Vec<i64>>,
    pub(super) reduction: i64,
    pub(super) key: String,
}

impl<'c> Moved<'c> {
    pub(super) fn read(op: OperationRef<'c, '_>, site: &Site<'c>) -> Lowered<'c, Self> {
        let (at, name) = (site.at, &site.name);
        let inputs: Vec<Value<'c, '_>> = op.operands().collect();
        let shapes: Vec<Vec<i64>> = inputs
            .iter()
            .map(|v| {
                static_tensor_shape(v.r#type())
                    .ok_or_else(|| Located::new(at, format!("'{name}' needs static tensors")))
            })
            .collect::<Result<_, _>>()?;
        let element = element_type(inputs[0].r#type());
        if let Some(other) = inputs.iter().map(|v| element_type(v.r#type())).find(|&e| e != element) {
            return Err(Located::new(
                at,
                format!("'{name}' becomes one runtime call over one element type; it mixes {element} and {other}"),
            ));
        }
        let kind = CollectiveKind::from_op_name(name).expect("a collective");
        let is_start = DistOp::of(&op).is_some_and(DistOp::is_async_start);
        // The results' local shapes: of the op, or of its wait's.
        let results = if is_start { wait_of(op)? } else { op };
        let result_shapes: Vec<Vec<i64>> = results
            .results()
            .map(|r| static_tensor_shape(r.r#type()).unwrap_or_default())
            .collect();
        let reduction = attribute(&op, attr::KIND)
            .and_then(reduction_kind)
            .map_or(0, |k| k.to_raw() as i64);
        let key = format!(
            "{name} {shapes:?} {element} {:?} {:?} {reduction} {:?}",
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
            reduction,
            key,
        })
    }

    /// How the runtime arranges the buffers of this collective.
    pub(super) fn layout(&self, op: &OperationRef<'_, '_>, group: i64) -> Layout {
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

/// The attributes that shape a collective, as text (for the helper key).
pub(super) fn attribute_text(op: &OperationRef<'_, '_>) -> String {
    [attr::DIM, attr::SPLIT_DIM, attr::CONCAT_DIM]
        .iter()
        .map(|n| format!("{n}={}", int_attr(op, n)))
        .collect::<Vec<_>>()
        .join(",")
}

/// The `dist.wait` of async start `op`: its handle's one reader, lowered
/// with it.
pub(super) fn wait_of<'c, 'a>(op: OperationRef<'c, 'a>) -> Lowered<'c, OperationRef<'c, 'a>> {
    let handle = op.result_at(0).expect("a start has a handle");
    users(handle)
        .into_iter()
        .next()
        .ok_or_else(|| Located::new(op.location(), "an async start without its dist.wait"))
}
