//! The `dist-schedule-gpu` pass. Its documentation (what it does, preconditions, before
//! and after) is [`INFO`]'s description: `dist-opt --help-passes` prints it
//! and docs/passes.md holds it.

use super::plan::{self, Contraction, Limits, Loop, Plan};
use super::product_bias::PRODUCT_BIAS;
use crate::error::PassError;
use crate::error::fail;
use crate::pass::options::{Expected, OptionValue, PassOptions};
use crate::pass::{DistPass, PassInfo};
use dist_dialect::ir::{
    OperationExt, context_of, linalg_contraction_dims, linalg_contraction_roles, move_to_end, op_name, set_attribute,
    walk_preorder,
};
use melior::ir::attribute::IntegerAttribute;
use melior::ir::operation::{OperationLike, WalkResult};
use melior::ir::r#type::IntegerType;
use melior::ir::{BlockLike, OperationRef, RegionLike, ShapedTypeLike, TypeLike, ValueLike};

pub const INFO: PassInfo = PassInfo {
    argument: "dist-schedule-gpu",
    summary: "Plan each linalg op's GPU mapping (shared-memory tiled contractions, thread-per-element elsewhere) \
              as a transform schedule",
    description: r#"`dist-schedule-gpu`: plans every linalg op of the module for the GPU and
adds the plan as a transform-dialect schedule for `transform-interpreter`.

- **Precondition:** linalg ops on tensors with static loops. Ops already
  inside an `scf.forall`, `gpu.launch` or `gpu.module` are skipped, and so,
  with `matmul=cublaslt` (the default), are the contractions
  `dist-call-blas{library=cublaslt}` replaces by cuBLASLt calls after
  bufferization (f32, or bf16 into f32, multiply-accumulate bodies), and
  the bias broadcasts they start from (`dist.product_bias`, which become
  their bias epilogues).
- **Effect:** each op it plans gets `dist.gpu_tile = i`, and the module gets
  `module @__dist_gpu_schedule` with the two sequences.

```mlir
// before                                   // after
%y = linalg.matmul ins(%x, %w ...)          %y = linalg.matmul {dist.gpu_tile = 0 : i64} ins(%x, %w ...)
                                            module @__dist_gpu_schedule attributes {transform.with_named_sequence} {
                                              transform.named_sequence @__dist_gpu_tile(%root: ...) {
                                                %op0 = transform.structured.match attributes {dist.gpu_tile = 0 : i64} in %root
                                                %b0, %f0 = transform.structured.tile_using_forall %op0 tile_sizes [64, 64, 0] (mapping = [...])
                                                ... tile_using_for %b0 tile_sizes [0, 0, 16]
                                              }
                                              transform.named_sequence @__dist_gpu_map(%root: ...) { promote, threads, launch }
                                            }
```
"#,
    anchor: "builtin.module",
    options: ScheduleGpuOptions::info,
    dialects: &["transform", "gpu", "scf"],
    create: || Box::new(ScheduleGpu::default()),
};

/// A contraction's block tile, M,N,K.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MatmulTile(pub [i64; 3]);

impl OptionValue for MatmulTile {
    fn parse(text: &str) -> Result<Self, Expected> {
        let sizes: Option<Vec<i64>> = text
            .split(',')
            .map(|s| s.trim().parse().ok().filter(|&v| v > 0))
            .collect();
        let [m, n, k]: [i64; 3] = sizes
            .and_then(|s| s.try_into().ok())
            .ok_or_else(|| Expected::from("three positive sizes M,N,K"))?;
        // The A and B tiles of f64 operands within the 48 KiB of static
        // shared memory every architecture gives a block.
        let bytes = (m * k + k * n) * 8;
        if bytes > 48 * 1024 {
            return Err(Expected(format!(
                "sizes whose f64 tiles fit a block's 48 KiB of shared memory (these need {} KiB)",
                bytes / 1024
            )));
        }
        Ok(MatmulTile([m, n, k]))
    }
    fn text(&self) -> String {
        self.0.map(|s| s.to_string()).join(",")
    }
}

/// Threads in a block: 1 to 1024, a block's limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockThreads(pub i64);

impl OptionValue for BlockThreads {
    fn parse(text: &str) -> Result<Self, Expected> {
        text.parse()
            .ok()
            .filter(|t| (1..=1024).contains(t))
            .map(BlockThreads)
            .ok_or_else(|| Expected::from("an integer from 1 to 1024 (a block's limit)"))
    }
    fn text(&self) -> String {
        self.0.to_string()
    }
}

crate::pass::options::option_enum! {
    /// What computes the products.
    pub enum GpuMatmul {
        /// cuBLASLt (`dist-call-blas{library=cublaslt}` after bufferization):
        /// the contractions it takes are left unplanned.
        CublasLt = "cublaslt",
        /// Kernels of this schedule (shared-memory tiles, tensor cores for bf16).
        Generated = "generated",
    }
}

crate::pass::options::pass_options! {
    /// The tiling limits.
    pub struct ScheduleGpuOptions {
        matmul: GpuMatmul = "matmul", "cublaslt",
            "Products: cublaslt (f32 and bf16 contractions left for dist-call-blas{library=cublaslt}) or generated (every contraction a kernel)";
        matmul_tile: MatmulTile = "matmul-tile", "64,64,16",
            "Upper bounds of a contraction's block tile as M,N,K (each becomes the largest divisor of its loop)";
        max_threads: BlockThreads = "max-threads", "256", "The most threads in a block";
    }
}

impl ScheduleGpuOptions {
    /// The limits the planner takes.
    pub fn limits(&self) -> Limits {
        Limits {
            matmul_tile: self.matmul_tile.0,
            max_threads: self.max_threads.0,
        }
    }
}

#[derive(Default)]
struct ScheduleGpu {
    options: ScheduleGpuOptions,
}

impl DistPass for ScheduleGpu {
    fn options(&mut self) -> Option<&mut dyn PassOptions> {
        Some(&mut self.options)
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let mut targets = Vec::new();
        walk_preorder(&module, |op| {
            if op_name(&op) == "builtin.module" && op.to_raw().ptr != module.to_raw().ptr {
                return WalkResult::Skip;
            }
            if is_mapped(&op) {
                return WalkResult::Skip;
            }
            // Products and their bias broadcasts (`dist-fuse-product-bias`)
            // are cuBLASLt calls (`dist-call-blas`).
            if self.options.matmul == GpuMatmul::CublasLt
                && (linalg_contraction_roles(&op).is_some() || op.attribute(PRODUCT_BIAS).is_ok())
            {
                return WalkResult::Skip;
            }
            if let Some(loops) = dist_dialect::ir::linalg_static_loops(&op) {
                targets.push((op, loops));
                return WalkResult::Skip;
            }
            WalkResult::Advance
        });
        let mut plans: Vec<Plan> = Vec::new();
        for (op, loops) in targets {
            let loops: Vec<Loop> = loops
                .into_iter()
                .map(|(size, reduction)| Loop {
                    size: size.unwrap_or(0),
                    reduction,
                })
                .collect();
            let contraction = contraction(&op);
            let Some(plan) = plan::plan(&loops, contraction.as_ref(), self.options.limits()) else {
                continue;
            };
            let context = context_of(&op);
            let index = IntegerAttribute::new(IntegerType::new(context, 64).into(), plans.len() as i64);
            set_attribute(op, plan::TAG, index.into());
            plans.push(plan);
        }
        // Inserted even when empty, so that the interpreter always finds the
        // sequences it is asked to run.
        let context = context_of(&module);
        let parsed = melior::ir::Module::parse(context, &format!("module {{\n{}}}", plan::schedule(&plans)))
            .ok_or_else(|| fail(module.location(), "internal error: the GPU schedule does not parse"))?;
        let schedule = parsed.body().first_operation().expect("the schedule module");
        let body = module
            .region_at(0)
            .and_then(|r| r.first_block())
            .expect("a module body");
        move_to_end(schedule, &body);
        Ok(())
    }
}

/// Ops already inside a loop nest or kernel are part of someone's mapping.
fn is_mapped(op: &OperationRef<'_, '_>) -> bool {
    matches!(op_name(op), "scf.forall" | "gpu.launch" | "gpu.module")
}

/// The contraction roles of `op`'s loops, if it is a contraction.
fn contraction(op: &OperationRef<'_, '_>) -> Option<Contraction> {
    let [batch, m, n, k] = linalg_contraction_dims(op)?;
    let rank = |i: usize| {
        op.operand_at(i)
            .and_then(|v| melior::ir::r#type::RankedTensorType::try_from(v.r#type()).ok())
            .map_or(0, |t| t.rank())
    };
    let element = |i: usize| op.operand_at(i).map(|v| dist_dialect::ir::element_type(v.r#type()));
    let (bf16, f32) = (
        |t: Option<melior::ir::Type>| t.is_some_and(|t| t.is_bf16()),
        |t: Option<melior::ir::Type>| t.is_some_and(|t| t.is_f32()),
    );
    Some(Contraction {
        batch,
        m,
        n,
        k,
        input_ranks: [rank(0), rank(1)],
        tensor_cores: bf16(element(0)) && bf16(element(1)) && f32(element(2)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_declared_defaults_are_the_planners() {
        assert_eq!(ScheduleGpuOptions::default().limits(), Limits::default());
    }

    #[test]
    fn a_tile_is_three_sizes_within_shared_memory() {
        assert_eq!(MatmulTile::parse("32, 16,8"), Ok(MatmulTile([32, 16, 8])));
        assert!(MatmulTile::parse("64,64").is_err());
        assert!(MatmulTile::parse("64,0,16").is_err());
        assert!(MatmulTile::parse("128,128,64").unwrap_err().0.contains("128 KiB"));
        assert_eq!(MatmulTile([32, 16, 8]).text(), "32,16,8");
    }
}
