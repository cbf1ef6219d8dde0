//! The `dist-resolve-partial` pass. Its documentation (what it does, preconditions, before
//! and after) is [`INFO`]'s description: `dist-opt --help-passes` prints it
//! and docs/passes.md holds it.

pub mod plan;
mod rewrite;

use crate::error::{PassError, fail};
use crate::ops;
use crate::pass::options::{NonNegative, OptionError, PassOptions};
use crate::pass::{DistPass, PassInfo};
use crate::sharding::graph::{self};
use crate::sharding::needs::{layouts_and_needs, use_location};
use dist_dialect::DistOp;
use dist_dialect::ir::{body_ops, element_bytes, element_type};
use melior::ir::r#type::TypeLike;
use melior::ir::{OperationRef, ValueLike};
use plan::{AvgLowering, ProgramOrder};
use rustc_hash::FxHashMap;

crate::pass::options::option_enum! {
    /// `argument-reshards`: where a split argument is resharded for its
    /// readers.
    pub enum ArgumentReshards {
        /// One reshard tree per argument, before its first reader, kept for
        /// every use.
        Shared = "shared",
        /// A tree before each op that reads the argument.
        PerUse = "per-use",
    }
}

crate::pass::options::option_words! { ReduceDtype { F32 = "f32", BF16 = "bf16", Same = "same" } }
crate::pass::options::option_words! { AvgLowering { SumThenScale = "scale", Native = "native" } }

crate::pass::options::pass_options! {
    /// The options of `dist-resolve-partial`.
    pub struct ResolvePartialOptions {
        bucket_mib: Option<NonNegative> = "bucket-mib", "",
            "Coalesce gradient all_reduces (and reduce_scatters along the same dim) over the same axes and kind into buckets of at most this many MiB per device, in definition order (unset or 0: off)";
        bucket_mb: Option<NonNegative> = "bucket-mb", "", "The earlier name of bucket-mib (also in MiB)";
        argument_reshards: ArgumentReshards = "argument-reshards", "shared",
            "shared (one reshard tree per argument, before its first reader, kept for every use) or per-use (a tree before each op that reads the argument: gathered again, live for that op only)";
        reduce_dtype: ReduceDtype = "reduce-dtype", "f32",
            "The type partial values are reduced in: f32 (bf16 and f16 partials are cast to f32, reduced, and cast back: mixed precision's fp32 gradient reduction), bf16 (f32 and f16 partials reduced in bf16) or same (each in its own type)";
        avg: AvgLowering = "avg", "scale",
            "How partial avg is reduced: scale (a sum collective, then a scale by 1/N) or native (an avg collective)";
        @check ResolvePartialOptions::one_bucket_name;
    }
}

impl ResolvePartialOptions {
    /// bucket-mib or its earlier name, not both.
    fn one_bucket_name(&self) -> Result<(), OptionError> {
        match (self.bucket_mib, self.bucket_mb) {
            (Some(_), Some(_)) => Err(OptionError::BothNames("bucket-mib", "bucket-mb")),
            _ => Ok(()),
        }
    }

    /// The bucket capacity in bytes per device; 0: no buckets.
    fn bucket_bytes(&self) -> u64 {
        let mib = self.bucket_mib.or(self.bucket_mb).map_or(0.0, |m| m.0);
        (mib * (1u64 << 20) as f64) as u64
    }
}

#[derive(Debug, Default)]
pub struct ResolvePartial {
    options: ResolvePartialOptions,
}

/// `reduce-dtype`: the type a partial value of a 16-bit (or f32) float
/// type is reduced in.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ReduceDtype {
    /// bf16 and f16 partials are reduced in f32 (mixed precision's fp32
    /// gradient reduction), then cast back.
    #[default]
    F32,
    /// f32 and f16 partials are reduced in bf16 (half the bytes, bf16's
    /// rounding), then cast back.
    BF16,
    /// Every partial is reduced in its own type.
    Same,
}

impl ReduceDtype {
    /// The wire of a value of `element`.
    fn wire(self, element: melior::ir::Type<'_>) -> plan::Wire {
        use melior::ir::TypeLike;
        let own = if element.is_bf16() {
            plan::Precision::BF16
        } else if element.is_f16() {
            plan::Precision::F16
        } else if element.is_f32() {
            plan::Precision::F32
        } else {
            return None;
        };
        let over = match self {
            ReduceDtype::F32 => plan::Precision::F32,
            ReduceDtype::BF16 => plan::Precision::BF16,
            ReduceDtype::Same => own,
        };
        (over != own).then_some((over, own))
    }
}

pub const INFO: PassInfo = PassInfo {
    argument: "dist-resolve-partial",
    summary: "Reduce partial values with collectives (all_reduce, reduce_scatter) where their uses need them",
    description: r#"`dist-resolve-partial`: reduces partial values with collectives where
their uses need them (gradient synchronization on any mesh axis).

Preconditions: a function `dist-propagate-sharding` has run on (every
tensor value has a sharding); the same shape of body propagation
accepts. For each use the solver's assignment (re-run with every layout
fixed) says which layout the op needs; a function result needs its
declared sharding, or, undeclared, its own layout without partial
status. Where a value differs from what a use needs, the pass inserts
after its definition: a `dist.reduce_scatter` for partial axes the use
wants a dim split over, one `dist.all_reduce` over all other partial
axes, a `dist.scale` by 1/N for `avg` (unless `avg=native`), and the
all_gather / all_slice / all_to_all the dims need. One tree per value:
uses that want the same layout read the same collective, and a use that
needs the value reduced continues from the chain of one that keeps it
partial and moves its dims when that moves less (one all_to_all of a
partial expert output, reduced after it, not a second one of the reduced
value). A function
argument's tree goes before the first op that reads it, not at the
entry. `argument-reshards=per-use` gives each op reading an argument a
tree of its own, right before it: a ZeRO-3 parameter is gathered again
for the backward instead of kept from the forward (more all_gather
bytes, each gathered copy live for one op; `--dist-memory-report` shows
the trade). Results declared partial stay partial.

`bucket-mib=N` (earlier name `bucket-mb`) coalesces the reductions of
gradients (values whose uses that need them reduced are optimizer steps
or the return) over the same axes, kind and element type (all_reduces,
and reduce_scatters along the same dim) into `dist.all_reduce_coalesced`
/ `dist.reduce_scatter_coalesced` buckets of at most N MiB per device, in
the order the gradients are defined. A bucket is issued after its last
gradient, so a gradient whose update comes before that starts a new one.
`dist-verify-sharding` proves the result consistent.

Before:
```mlir
%y = dist.matmul %x, %w {dist.sharding = [#dist.sharding<@mesh, [{}, {}], partial = sum{"tp"}>]} ...
%z = dist.gelu %y ...
```
After:
```mlir
%y = dist.matmul %x, %w {dist.sharding = [#dist.sharding<@mesh, [{}, {}], partial = sum{"tp"}>]} ...
%r = dist.all_reduce %y on @mesh axes = ["tp"] kind = sum {dist.sharding = [#dist.sharding<@mesh, [{}, {}]>]} ...
%z = dist.gelu %r ...
```
"#,
    anchor: "func.func",
    options: ResolvePartialOptions::info,
    dialects: &[],
    create: || Box::new(ResolvePartial::default()),
};

impl DistPass for ResolvePartial {
    fn options(&mut self) -> Option<&mut dyn PassOptions> {
        Some(&mut self.options)
    }

    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), PassError> {
        let Some(graph) = graph::for_pass(op, INFO.argument)? else {
            return Ok(());
        };
        let (layouts, pending) = layouts_and_needs(&graph)?;
        if pending.is_empty() {
            return Ok(());
        }
        let element_bytes: Vec<u64> = graph.values.iter().map(|v| element_bytes(v.r#type())).collect();
        // Types are uniqued in their context: the handle names the type.
        let element_types: Vec<usize> = graph
            .values
            .iter()
            .map(|v| element_type(v.r#type()).to_raw().ptr as usize)
            .collect();
        let wires: Vec<plan::Wire> = graph
            .values
            .iter()
            .map(|v| self.options.reduce_dtype.wire(element_type(v.r#type())))
            .collect();
        let order = ProgramOrder::of(&graph);
        let ctx = plan::Context {
            axis_sizes: &graph.problem.axis_sizes,
            axis_names: &graph.problem.axis_names,
            values: &graph.problem.values,
            element_bytes: &element_bytes,
            element_types: &element_types,
            wires: &wires,
            layouts: &layouts,
            order: &order,
        };
        let per_use = |value: usize| {
            (self.options.argument_reshards == ArgumentReshards::PerUse) && order.defined_at[value].is_none()
        };
        let mut plan = plan::plan(&ctx, &pending, self.options.avg, per_use)
            .map_err(|(at, e)| fail(use_location(&graph, at), &e.to_string()))?;
        if self.options.bucket_bytes() > 0 {
            plan::bucket(&ctx, &mut plan, self.options.bucket_bytes());
        }
        Ok(rewrite::apply(&graph, &plan, &order)?)
    }
}

impl ProgramOrder {
    /// Positions in the body: an async pair reads at its start and defines
    /// at its wait.
    fn of(graph: &graph::Graph<'_, '_>) -> Self {
        let position: FxHashMap<*mut std::ffi::c_void, usize> = body_ops(graph.function.operation())
            .iter()
            .enumerate()
            .map(|(i, op)| (op.to_raw().ptr, i))
            .collect();
        let at = |op: OperationRef<'_, '_>| position[&op.to_raw().ptr];
        let mut defined_at = vec![None; graph.values.len()];
        for (site, op) in graph.sites.iter().zip(&graph.problem.ops) {
            for &v in &op.results {
                defined_at[v] = Some(at(site.results));
            }
        }
        Self {
            defined_at,
            read_at: graph.sites.iter().map(|site| at(site.op)).collect(),
            reads_gradients: graph
                .sites
                .iter()
                .map(|site| {
                    DistOp::of(&site.op)
                        .and_then(ops::spec)
                        .is_some_and(|s| s.optimizer_states().is_some())
                })
                .collect(),
        }
    }
}
