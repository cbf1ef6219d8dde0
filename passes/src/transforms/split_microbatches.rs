//! The `dist-split-microbatches` pass. Its documentation (what it does, preconditions, before
//! and after) is [`INFO`]'s description: `dist-opt --help-passes` prints it
//! and docs/passes.md holds it.

use crate::error::PassError;
use crate::pass::options::{Name, PassOptions, Positive};
use crate::pass::{DistPass, PassInfo};
use dist_dialect::ir::{
    FunctionOpRef, Located, MeshOpRef, OperationExt, ShardingAttribute, body_ops, context_of, set_attribute,
    sharding_of, static_tensor_shape, string_attribute,
};
use dist_dialect::model::Sharding;
use dist_dialect::ops::attr::{self, BATCH_DIM, MICROBATCH_AXIS};
use melior::ir::attribute::{ArrayAttribute, DenseI64ArrayAttribute, IntegerAttribute, StringAttribute};
use melior::ir::{Attribute, OperationRef, RegionLike};

crate::pass::options::pass_options! {
    /// How many microbatches, on which new axis.
    pub struct SplitMicrobatchesOptions {
        microbatches: Positive = "microbatches", "1", "Microbatches each step's data is split into";
        axis: Name = "axis", "mb", "The name of the mesh axis the pass adds for the microbatches";
    }
}

#[derive(Debug, Default)]
pub struct SplitMicrobatches {
    options: SplitMicrobatchesOptions,
}

pub const INFO: PassInfo = PassInfo {
    argument: "dist-split-microbatches",
    summary: "Split each data argument (dist.batch_dim) over a new mesh axis of `microbatches` microbatches, for \
              dist-schedule-pipeline to run one after another",
    description: r#"`dist-split-microbatches`: adds the axis `axis` (default `mb`) of
size `microbatches` to the mesh as its last axis and splits the
`dist.batch_dim` dim of every argument that carries the attribute over it,
after the axes that split it already. The function gets
`dist.microbatch_axis = "<axis>"`.

The data arguments are the ones marked `dist.batch_dim = <dim> : i64` (as
PyTorch's pipelining names each argument's chunk dim): the tokens and
targets, not the parameters nor tables every sample reads. After
`dist-lower-to-local` the per-device step is then one microbatch's: it
reads that microbatch's slice of the data, and whatever the step sums
over the batch (the loss, each parameter's gradient) it sums over the
microbatch axis too, as over any data-parallel axis. The scale of a mean
follows: a mean over the batch divides by the whole batch's size, so the
step's loss and gradients are those of the whole batch.
`dist-schedule-pipeline` then runs the microbatches one after another on
each device and removes the axis again.

Preconditions: a global-view program (before `dist-propagate-sharding`);
each marked argument is a ranked tensor whose batch dim divides into its
shards times `microbatches`; the mesh has no axis named `axis`. Errors: no
marked argument in the module, a batch dim out of range or that does not
divide, an argument without a sharding whose function has no mesh, an
axis name the mesh has.

Before (`microbatches=4`):
```mlir
dist.mesh @mesh = <["dp"=2]>
func.func @step(%x: tensor<16x8xf32> {dist.batch_dim = 0 : i64,
                  dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>}, ...)
```
After:
```mlir
dist.mesh @mesh = <["dp"=2, "mb"=4]>
func.func @step(%x: tensor<16x8xf32> {dist.batch_dim = 0 : i64,
                  dist.sharding = #dist.sharding<@mesh, [{"dp", "mb"}, {}]>}, ...)
    attributes {dist.microbatch_axis = "mb"}
```
"#,
    anchor: "builtin.module",
    options: SplitMicrobatchesOptions::info,
    dialects: &[],
    create: || Box::new(SplitMicrobatches::default()),
};

impl DistPass for SplitMicrobatches {
    fn options(&mut self) -> Option<&mut dyn PassOptions> {
        Some(&mut self.options)
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let defined: Vec<_> = body_ops(module)
            .into_iter()
            .filter_map(|op| FunctionOpRef::try_from(op).ok())
            // A declaration has no step to split.
            .filter(|f| f.operation().region_at(0).and_then(|r| r.first_block()).is_some())
            .collect();
        let functions: Vec<_> = defined
            .iter()
            .copied()
            .filter(|f| !f.arguments_with(BATCH_DIM).is_empty())
            .collect();
        if functions.is_empty() {
            // At the step (the first public function), where the marks go.
            let step = defined
                .iter()
                .find(|f| string_attribute(&f.operation(), "sym_visibility").as_deref() != Some("private"))
                .map_or(module, |f| f.operation());
            return Err(Located::at(
                &step,
                format!(
                    "no function argument carries {BATCH_DIM}: mark each data argument with the dim its samples run \
                     along ({BATCH_DIM} = 0 : i64)"
                ),
            )
            .into());
        }
        let mut meshes: Vec<String> = Vec::new();
        for function in functions {
            for mesh in self.split_arguments(function)? {
                if !meshes.contains(&mesh) {
                    add_axis(
                        &module,
                        &function.operation(),
                        &mesh,
                        &self.options.axis.0,
                        self.options.microbatches.0 as i64,
                    )?;
                    meshes.push(mesh);
                }
            }
            let context = context_of(&function.operation());
            set_attribute(
                function.operation(),
                MICROBATCH_AXIS,
                StringAttribute::new(context, &self.options.axis.0).into(),
            );
        }
        Ok(())
    }
}

impl SplitMicrobatches {
    /// Splits the batch dim of each marked argument of `function` over the
    /// microbatch axis; the meshes of those arguments.
    fn split_arguments<'c>(&self, function: FunctionOpRef<'c, '_>) -> Result<Vec<String>, Located<'c>> {
        let operation = function.operation();
        let microbatches = self.options.microbatches.0 as i64;
        let default_mesh = (0..function.num_arguments())
            .filter_map(|i| function.argument_attribute(i, attr::SHARDING).and_then(sharding_of))
            .map(|s| s.mesh)
            .next();
        let types = function.argument_types();
        let mut shardings: Vec<Option<Attribute<'c>>> = vec![None; function.num_arguments()];
        let mut meshes = Vec::new();
        for index in function.arguments_with(BATCH_DIM) {
            let location = function.argument_location(index);
            let fail = |message: String| Located::new(location, format!("argument #{index}: {message}"));
            let shape =
                static_tensor_shape(types[index]).ok_or_else(|| fail("a data argument is a static tensor".into()))?;
            let dim = function
                .argument_attribute(index, BATCH_DIM)
                .and_then(|a| IntegerAttribute::try_from(a).ok())
                .map(|a| a.value())
                .filter(|&d| (0..shape.len() as i64).contains(&d))
                .ok_or_else(|| fail(format!("{BATCH_DIM} must be a dim of its rank-{} tensor", shape.len())))?
                as usize;
            let mut sharding = match function.argument_attribute(index, attr::SHARDING).and_then(sharding_of) {
                Some(sharding) => sharding,
                None => Sharding::replicated(
                    default_mesh
                        .clone()
                        .ok_or_else(|| fail("no argument of the function names a mesh to split it on".into()))?,
                    shape.len(),
                ),
            };
            let mesh = MeshOpRef::lookup(&operation, &sharding.mesh)
                .and_then(|m| m.to_model().ok())
                .ok_or_else(|| fail(format!("no dist.mesh @{} is visible here", sharding.mesh)))?;
            let shards: i64 = sharding.dims[dim]
                .iter()
                .map(|a| mesh.axis_size(a).unwrap_or(1))
                .product();
            let parts = shards
                .checked_mul(microbatches)
                .ok_or_else(|| fail(format!("{} microbatches of {shards} shards overflow", microbatches)))?;
            if shape[dim] % parts != 0 {
                return Err(fail(format!(
                    "its batch dim {dim} of size {} over {shards} shards does not split into {} microbatches",
                    shape[dim], microbatches
                )));
            }
            sharding.dims[dim].push(self.options.axis.0.clone());
            let attribute = ShardingAttribute::new(location, &sharding).map_err(|e| fail(e.to_string()))?;
            shardings[index] = Some(attribute.attribute());
            if !meshes.contains(&sharding.mesh) {
                meshes.push(sharding.mesh);
            }
        }
        function.set_argument_attributes(attr::SHARDING, &shardings);
        Ok(meshes)
    }
}

/// Appends axis `axis` of `size` to the mesh `name` that `from` sees; a
/// mesh with an explicit device order keeps it, each device split into
/// `size` consecutive ones.
fn add_axis<'c>(
    module: &OperationRef<'c, '_>,
    from: &OperationRef<'c, '_>,
    name: &str,
    axis: &str,
    size: i64,
) -> Result<(), Located<'c>> {
    let mesh = MeshOpRef::lookup(from, name).expect("the arguments' mesh was found");
    let model = mesh
        .to_model()
        .map_err(|e| Located::at(&mesh.operation(), e.to_string()))?;
    if model.axis_size(axis).is_ok() {
        return Err(Located::at(
            &mesh.operation(),
            format!("the mesh @{name} has an axis \"{axis}\" already: axis= names the microbatch axis"),
        ));
    }
    let mut axes: Vec<(String, i64)> = model.axes().iter().map(|a| (a.name.clone(), a.size)).collect();
    axes.push((axis.to_owned(), size));
    let devices = model.explicit_devices().map(|ids| {
        ids.iter()
            .flat_map(|&d| (0..size).map(move |j| d * size + j))
            .collect::<Vec<_>>()
    });
    set_mesh_axes(module, &mesh, &axes, devices.as_deref());
    Ok(())
}

/// Sets the axes (and explicit device order, if any) of `mesh`.
pub fn set_mesh_axes<'c>(
    module: &OperationRef<'c, '_>,
    mesh: &MeshOpRef<'c, '_>,
    axes: &[(String, i64)],
    devices: Option<&[i64]>,
) {
    let context = context_of(module);
    let names: Vec<Attribute> = axes
        .iter()
        .map(|(n, _)| StringAttribute::new(context, n).into())
        .collect();
    let sizes: Vec<i64> = axes.iter().map(|(_, s)| *s).collect();
    set_attribute(
        mesh.operation(),
        "axis_names",
        ArrayAttribute::new(context, &names).into(),
    );
    set_attribute(
        mesh.operation(),
        "axis_sizes",
        DenseI64ArrayAttribute::new(context, &sizes).into(),
    );
    if let Some(ids) = devices {
        set_attribute(
            mesh.operation(),
            "devices",
            DenseI64ArrayAttribute::new(context, ids).into(),
        );
    }
}
