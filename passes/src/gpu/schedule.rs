//! The `dist-schedule-gpu` pass. Its documentation (what it does, preconditions, before
//! and after) is [`INFO`]'s description: `dist-opt --help-passes` prints it
//! and docs/passes.md holds it.

use super::plan::{self, Contraction, Limits, Loop, Plan};
use crate::error::PassError;
use crate::error::fail;
use crate::pass::{DistPass, OptionInfo, PassInfo};
use dist_dialect::ir::{
    OperationExt, context_of, linalg_contraction_dims, move_to_end, op_name, set_attribute, walk_preorder,
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
  inside an `scf.forall`, `gpu.launch` or `gpu.module` are skipped.
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
    options: &[
        OptionInfo {
            name: "matmul-tile",
            description: "Upper bounds of a contraction's block tile as M,N,K (each becomes the largest divisor of \
                          its loop)",
            default: "64,64,16",
            choices: &[],
        },
        OptionInfo {
            name: "max-threads",
            description: "The most threads in a block",
            default: "256",
            choices: &[],
        },
    ],
    dialects: &["transform", "gpu", "scf"],
    create: || Box::new(ScheduleGpu::default()),
};

#[derive(Default)]
struct ScheduleGpu {
    limits: Limits,
}

fn positive(name: &str, text: &str) -> Result<i64, String> {
    match text.trim().parse::<i64>() {
        Ok(v) if v > 0 => Ok(v),
        _ => Err(format!("{name} takes positive integers, not '{text}'")),
    }
}

impl DistPass for ScheduleGpu {
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        match name {
            "matmul-tile" => {
                let sizes: Vec<i64> = value.split(',').map(|s| positive(name, s)).collect::<Result<_, _>>()?;
                let [m, n, k]: [i64; 3] = sizes
                    .try_into()
                    .map_err(|_| format!("matmul-tile takes three sizes M,N,K, not '{value}'"))?;
                // The A and B tiles of f64 operands within the 48 KiB of
                // static shared memory every architecture gives a block.
                if (m * k + k * n) * 8 > 48 * 1024 {
                    return Err(format!(
                        "matmul-tile {value} needs {} KiB of shared memory for f64 tiles; the limit is 48",
                        (m * k + k * n) * 8 / 1024
                    ));
                }
                self.limits.matmul_tile = [m, n, k];
            }
            "max-threads" => {
                let threads = positive(name, value)?;
                if threads > 1024 {
                    return Err(format!("max-threads is at most 1024 (a block's limit), not {threads}"));
                }
                self.limits.max_threads = threads;
            }
            _ => return Err(format!("unknown option '{name}'")),
        }
        Ok(())
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
            let Some(plan) = plan::plan(&loops, contraction.as_ref(), self.limits) else {
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
