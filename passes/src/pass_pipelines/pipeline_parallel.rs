//! The `dist-pipeline` pass. Its documentation (what it does, preconditions, before
//! and after) is [`INFO`]'s description: `dist-opt --help-passes` prints it
//! and docs/passes.md holds it.

use super::{lower_to_local, with_options};
use crate::error::{PassError, fail};
use crate::pass::options::PassOptions;
use crate::pass::{DistPass, PassInfo};
use crate::pipeline::Options;
use crate::transforms::resolve_partial::ResolvePartialOptions;
use crate::transforms::schedule_pipeline::SchedulePipelineOptions;
use crate::transforms::split_microbatches::SplitMicrobatchesOptions;
use dist_dialect::ir::pass::{PipelineError, run_nested_pipeline};
use melior::ir::OperationRef;
use melior::ir::operation::OperationLike;

#[derive(Debug, Default)]
pub struct Pipeline {
    options: Options,
}

pub const INFO: PassInfo = PassInfo {
    argument: "dist-pipeline",
    summary: "Pipeline a training step: microbatches, per-device stages in the order of a schedule, point-to-point \
              transfers between them and the gradients summed over the microbatches",
    description: r#"`dist-pipeline`: from a training step in the global view to the
per-device programs of its pipeline, as the passes it runs in turn:
`dist-split-microbatches{microbatches=M}` (the data arguments, marked
`dist.batch_dim`, split over a new mesh axis of M microbatches),
`dist-lower-to-local` (each device's program of one microbatch) and
`dist-schedule-pipeline{schedule=S axis=A}` (each stage's work of every
microbatch in the schedule's order, in a function of its own that the
step calls on the devices of that coordinate along `axis`; boundary values
sent between neighbouring stages with `dist.send` and `dist.recv`; the
gradients summed over the microbatches before the optimizer). Without
stage boundaries, or on a mesh whose `axis` has one device, it is
gradient accumulation on every device.

The step so computes what the unpipelined step computes on the whole
batch: the loss scales as it is written (a mean over the batch is the mean
over the whole batch, a sum the sum), since the microbatches are a split
of the batch like the data-parallel one. docs/pipeline-parallelism.md
tells the schedules, the transfers and what is refused.

Preconditions: a training step in the global view (after
`dist-append-backward`, or written by hand) whose data arguments carry
`dist.batch_dim`; boundaries at the depth its stage count needs; each
batch dim divisible into its shards times M (ZB-H1: M at least the
stage count). The errors are those of the three passes.

Before (`microbatches=2`):
```mlir
dist.mesh @mesh = <["pp"=2]>
func.func @step(%x: tensor<4x8xf32> {dist.batch_dim = 0 : i64, dist.sharding = ...}, %w: ...) -> ... {
  %h = dist.matmul %x, %w ...
  %b = dist.stage_boundary %h ...
  ...
}
```
After:
```mlir
dist.mesh @mesh = <["pp"=2]>
func.func @step(...) -> ... {
  %s = dist.axis_index @mesh axes = ["pp"] : index
  %r = scf.index_switch %s -> ... case 0 { func.call @step_stage0(...) {no_inline} ... }
                                  default { func.call @step_stage1(...) {no_inline} ... }
  return %r ...
}
func.func private @step_stage0(...) {
  %x0 = dist.slice %x ...
  %b0 = call @step_stage0__f(%x0, %w) {no_inline} ...
  dist.send %b0 to 1 on @mesh axes = ["pp"] tag = 0 : tensor<2x8xf32>
  ...
}
```
"#,
    anchor: "builtin.module",
    options: Options::info,
    dialects: &["arith", "func", "scf", "tensor", "linalg"],
    create: || Box::new(Pipeline::default()),
};

impl DistPass for Pipeline {
    fn options(&mut self) -> Option<&mut dyn PassOptions> {
        Some(&mut self.options)
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let options = &self.options;
        let split = SplitMicrobatchesOptions {
            microbatches: options.microbatches,
            ..Default::default()
        };
        let schedule = SchedulePipelineOptions {
            stages: options.stages.clone(),
            ..Default::default()
        };
        let pipeline = format!(
            "{},{},{}",
            with_options("dist-split-microbatches", &split),
            lower_to_local(&ResolvePartialOptions::default(), false),
            with_options("dist-schedule-pipeline", &schedule)
        );
        run_nested_pipeline(&module, &pipeline).map_err(|e| match e {
            PipelineError::PassFailed => PassError::Failed,
            PipelineError::Invalid(message) => fail(module.location(), &format!("internal error: {message}")),
        })
    }
}
