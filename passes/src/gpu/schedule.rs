//! `dist-schedule-gpu`: plans every linalg op of the module for the GPU and
//! adds the plan as a transform-dialect schedule for `transform-interpreter`.

use super::plan::{self, Contraction, Limits, Loop, Plan};
use crate::propagate_sharding::graph::{fail, op_name};
use crate::{DistPass, OptionInfo, PassError, PassInfo};
use dist_dialect::ir::OperationExt;
use melior::ir::AttributeLike;
use melior::ir::attribute::IntegerAttribute;
use melior::ir::operation::{OperationLike, WalkOrder, WalkResult};
use melior::ir::r#type::IntegerType;
use melior::ir::{BlockLike, OperationRef, RegionLike, ShapedTypeLike, ValueLike};

pub const INFO: PassInfo = PassInfo {
    argument: "dist-schedule-gpu",
    summary: "Plan each linalg op's GPU mapping (shared-memory tiled contractions, thread-per-element elsewhere) \
              as a transform schedule",
    anchor: "builtin.module",
    options: &[
        OptionInfo {
            name: "matmul-tile",
            description: "Upper bounds of a contraction's block tile as M,N,K (each becomes the largest divisor of \
                          its loop)",
            default: "64,64,16",
        },
        OptionInfo {
            name: "max-threads",
            description: "The most threads in a block",
            default: "256",
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
        module.walk(WalkOrder::PreOrder, |op| {
            // SAFETY: the walk hands out live ops of this module.
            let op = unsafe { OperationRef::from_raw(op.to_raw()) };
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
            let context_ref = op.context();
            // SAFETY: the context outlives this statement.
            let context = unsafe { context_ref.to_ref() };
            let index = IntegerAttribute::new(IntegerType::new(context, 64).into(), plans.len() as i64);
            // SAFETY: `op` is live; the attribute is owned by the context.
            unsafe {
                mlir_sys::mlirOperationSetAttributeByName(
                    op.to_raw(),
                    melior::StringRef::new(plan::TAG).to_raw(),
                    melior::ir::Attribute::from(index).to_raw(),
                )
            };
            plans.push(plan);
        }
        // Inserted even when empty, so that the interpreter always finds the
        // sequences it is asked to run.
        let context_ref = module.context();
        // SAFETY: `context_ref` lives to the end of this function.
        let context = unsafe { context_ref.to_ref() };
        let parsed = melior::ir::Module::parse(context, &format!("module {{\n{}}}", plan::schedule(&plans)))
            .ok_or_else(|| fail(module.location(), "internal error: the GPU schedule does not parse"))?;
        let schedule = parsed.body().first_operation().expect("the schedule module");
        let body = module
            .region_at(0)
            .and_then(|r| r.first_block())
            .expect("a module body");
        // SAFETY: moves a live op from the parsed module into ours.
        unsafe {
            mlir_sys::mlirOperationRemoveFromParent(schedule.to_raw());
            mlir_sys::mlirBlockAppendOwnedOperation(body.to_raw(), schedule.to_raw());
        }
        Ok(())
    }
}

/// Ops already inside a loop nest or kernel are part of someone's mapping.
fn is_mapped(op: &OperationRef<'_, '_>) -> bool {
    matches!(op_name(op), "scf.forall" | "gpu.launch" | "gpu.module")
}

/// The contraction roles of `op`'s loops, if it is a contraction.
fn contraction(op: &OperationRef<'_, '_>) -> Option<Contraction> {
    // SAFETY: `op` is live; the returned attributes are owned by the context.
    let dims = unsafe {
        if !mlir_sys::mlirLinalgIsAContractionOp(op.to_raw()) {
            return None;
        }
        mlir_sys::mlirLinalgInferContractionDimensions(op.to_raw())
    };
    let list = |attr: mlir_sys::MlirAttribute| -> Vec<usize> {
        // SAFETY: the attribute is a dense i32 or i64 array (or null).
        unsafe {
            if attr.ptr.is_null() {
                return Vec::new();
            }
            let n = mlir_sys::mlirDenseArrayGetNumElements(attr);
            (0..n)
                .map(|i| {
                    if mlir_sys::mlirAttributeIsADenseI32Array(attr) {
                        mlir_sys::mlirDenseI32ArrayGetElement(attr, i) as usize
                    } else {
                        mlir_sys::mlirDenseI64ArrayGetElement(attr, i) as usize
                    }
                })
                .collect()
        }
    };
    let rank = |i: usize| {
        op.operand_at(i)
            .and_then(|v| melior::ir::r#type::RankedTensorType::try_from(v.r#type()).ok())
            .map_or(0, |t| t.rank())
    };
    let mut batch = list(dims.batch);
    let mut m = list(dims.m);
    let mut n = list(dims.n);
    let mut k = list(dims.k);
    for dims in [&mut batch, &mut m, &mut n, &mut k] {
        dims.sort_unstable();
    }
    Some(Contraction {
        batch,
        m,
        n,
        k,
        input_ranks: [rank(0), rank(1)],
    })
}
