//! Pipeline parallelism: the schedules and their timeline model
//! ([`schedule`]) and the stages of a function ([`stages`]), both pure Rust,
//! and the reading of a function into them.

pub mod microbatches;
pub mod schedule;
pub mod stages;

use crate::pass::options::{Expected, Name, OptionValue, Positive, alternatives};
use dist_dialect::DistOp;
use dist_dialect::ir::{
    FunctionOpRef, Located, MeshOpRef, OperationExt, body_ops, op_result, sharding_of, walk_preorder,
};
use dist_dialect::model::Mesh;
use dist_dialect::ops::attr;
use melior::ir::operation::{OperationLike, WalkResult};
use melior::ir::{BlockLike, OperationRef, RegionLike, Value};
use rustc_hash::FxHashMap;
use stages::Node;

/// The schedules by the names the model gives them.
impl OptionValue for schedule::Schedule {
    const CHOICES: &'static [&'static str] = schedule::Schedule::NAMES;
    fn parse(text: &str) -> Result<Self, Expected> {
        schedule::Schedule::parse(text).ok_or_else(|| Expected(alternatives(Self::CHOICES)))
    }
    fn text(&self) -> String {
        self.name().to_owned()
    }
}

crate::pass::options::pass_options! {
    /// How the stages run: `schedule=` and `axis=`.
    pub struct StageOptions {
        schedule: schedule::Schedule = "schedule", "1f1b",
            "The order of each stage's forward (F), input-gradient (B) and weight-gradient (W) work";
        axis: Name = "axis", "pp", "The mesh axis whose coordinates are the stages";
    }
}

crate::pass::options::pass_options! {
    /// The options that say how to pipeline: `microbatches=`, then
    /// [`StageOptions`].
    pub struct Options {
        microbatches: Positive = "microbatches", "1", "Microbatches each step's data is split into";
        @group stages: StageOptions;
    }
}

/// A function's body as [`stages::assign`] reads it.
pub struct Body<'c, 'a> {
    /// The ops of the entry block but its terminator, in order.
    pub ops: Vec<OperationRef<'c, 'a>>,
    /// The same ops as data flow.
    pub nodes: Vec<Node>,
    /// The op defining the function's first result (the loss).
    pub loss: Option<usize>,
    /// Each op's position in `ops`, by its handle.
    index: FxHashMap<*mut std::ffi::c_void, usize>,
}

impl<'c, 'a> Body<'c, 'a> {
    /// The function's body; an error for a body of several blocks, whose
    /// order of work the stages cannot follow.
    pub fn read(function: FunctionOpRef<'c, 'a>) -> Result<Self, Located<'c>> {
        let operation = function.operation();
        let region = operation.region_at(0);
        if region
            .and_then(|r| r.first_block())
            .and_then(|b| b.next_in_region())
            .is_some()
        {
            return Err(Located::at(
                &operation,
                "pipeline stages need a function of one block (branches between blocks have no stage)",
            ));
        }
        let mut ops = body_ops(operation);
        let terminator = ops.pop();
        let index: FxHashMap<_, usize> = ops.iter().enumerate().map(|(i, op)| (op.to_raw().ptr, i)).collect();
        let defining = |v: Value<'c, 'a>| op_result(v).and_then(|r| index.get(&r.owner().to_raw().ptr).copied());
        let nodes = ops
            .iter()
            .map(|op| {
                // An op with regions reads what its nested ops read from
                // outside it too.
                let mut inputs = Vec::new();
                walk_preorder(op, |nested| {
                    inputs.extend(nested.operands().filter_map(defining));
                    WalkResult::Advance
                });
                inputs.sort_unstable();
                inputs.dedup();
                Node {
                    inputs,
                    boundary: DistOp::of(op) == Some(DistOp::StageBoundary),
                }
            })
            .collect();
        let loss = terminator.and_then(|t| t.operand_at(0)).and_then(defining);
        Ok(Self {
            ops,
            nodes,
            loss,
            index,
        })
    }

    /// The position of `op` among [`Self::ops`]; `None` for the terminator
    /// and ops elsewhere.
    pub fn position(&self, op: &OperationRef<'c, 'a>) -> Option<usize> {
        self.index.get(&op.to_raw().ptr).copied()
    }

    pub fn has_boundaries(&self) -> bool {
        self.nodes.iter().any(|n| n.boundary)
    }

    /// The number of stages: the size of `axis` on the mesh of the
    /// function's arguments (the first such mesh that has the axis).
    pub fn stages(function: FunctionOpRef<'c, 'a>, axis: &str) -> Result<usize, Located<'c>> {
        let mesh = Self::stage_mesh(function, axis)?;
        Ok(mesh.axis_size(axis).expect("the mesh has the axis") as usize)
    }

    /// The mesh of the function's arguments that has the stages' `axis`
    /// (the first such mesh).
    pub fn stage_mesh(function: FunctionOpRef<'c, 'a>, axis: &str) -> Result<Mesh, Located<'c>> {
        let operation = function.operation();
        let mut meshes: Vec<String> = (0..function.num_arguments())
            .filter_map(|i| function.argument_attribute(i, attr::SHARDING).and_then(sharding_of))
            .map(|s| s.mesh)
            .collect();
        meshes.dedup();
        for name in &meshes {
            let mesh = MeshOpRef::lookup(&operation, name).and_then(|m| m.to_model().ok());
            if let Some(mesh) = mesh.filter(|m| m.axis_size(axis).is_ok()) {
                return Ok(mesh);
            }
        }
        let on = if meshes.is_empty() {
            "its arguments have no sharding".to_owned()
        } else {
            format!("the meshes of its arguments are @{}", meshes.join(", @"))
        };
        Err(Located::at(
            &operation,
            format!("no mesh axis \"{axis}\" for the pipeline stages: {on} (axis= names another)"),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stage_options_are_set_through_the_pipeline_options() {
        use crate::pass::options::PassOptions;
        let mut options = Options::default();
        assert_eq!(options.stages.schedule, schedule::Schedule::OneFOneB);
        options.set("schedule", "zb-h1").unwrap();
        options.set("microbatches", "4").unwrap();
        assert_eq!(options.render(), "microbatches=4 schedule=zb-h1");
        assert_eq!(
            options.set("schedule", "2f2b").unwrap_err().to_string(),
            format!(
                "schedule must be {}, not '2f2b'",
                alternatives(schedule::Schedule::NAMES)
            )
        );
    }
}
