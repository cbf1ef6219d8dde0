//! The `dist-outline-loops` pass. Its documentation (what it does, preconditions, before
//! and after) is [`INFO`]'s description: `dist-opt --help-passes` prints it
//! and docs/passes.md holds it.

use crate::error::PassError;
use crate::pass::{DistPass, PassInfo};
use dist_dialect::ir::{
    OperationExt, attribute, block_ops, context_of, op_name, outline_into_function, set_attribute, string_attribute,
    walk_preorder,
};
use dist_dialect::ops::attr;
use melior::ir::attribute::{ArrayAttribute, StringAttribute};
use melior::ir::operation::{OperationLike, WalkResult};
use melior::ir::{Attribute, OperationRef, RegionLike};
use rustc_hash::FxHashSet;

#[derive(Debug, Default)]
pub struct OutlineLoops;

pub const INFO: PassInfo = PassInfo {
    argument: "dist-outline-loops",
    summary: "Move each linalg op on memrefs into a noinline function of its own (LLVM optimizes one loop nest \
              at a time)",
    description: r#"`dist-outline-loops`: each linalg op on memrefs moves into a private
function of its own, called where it was.

The lowered training step is one function of about a hundred loop nests,
and LLVM's loop analyses cost more than linearly in the size of the
function: -O3 took 5 s on the GPT block's step. One function per loop nest
(a kernel, as XLA emits them) keeps every function small; the functions
carry LLVM's `noinline` so that the inliner does not undo it.

What a function keeps is a sequence of calls, allocations and descriptor
moves, which runs in microseconds but is long: at 32 layers the step is
one block of thousands of instructions, and the post-RA scheduler that
the host CPU's tuning turns on (znver4's) is quadratic in a block (2.9 s
of the 4.6 s of code generation). So each function left with calls is
tuned for the generic CPU (`passthrough = [["tune-cpu", "generic"]]`: the
same instruction set, another scheduling model); its loop nests keep the
host's.

Preconditions: bufferized, with contractions already rewritten
(`dist-call-blas`). Each function is named `<function>__loop<N>` in op
order (skipping names the module already has) and follows its function
in the module; its arguments are the op's operands and the values its
body reads from above.

Before:
```mlir
func.func @step(%x: memref<8xf32>, %y: memref<8xf32>) {
  linalg.generic {...} ins(%x : memref<8xf32>) outs(%y : memref<8xf32>) {...}
  return
}
```
After:
```mlir
func.func @step(%x: memref<8xf32>, %y: memref<8xf32>) {
  call @step__loop0(%x, %y) : (memref<8xf32>, memref<8xf32>) -> ()
  return
} // with attributes {passthrough = [["tune-cpu", "generic"]]}
func.func private @step__loop0(%arg0: memref<8xf32>, %arg1: memref<8xf32>) attributes {passthrough = ["noinline"]} {
  linalg.generic {...} ins(%arg0 : memref<8xf32>) outs(%arg1 : memref<8xf32>) {...}
  return
}
```
"#,
    anchor: "builtin.module",
    options: Vec::new,
    dialects: &["func"],
    create: || Box::new(OutlineLoops),
};

/// The name of function `function`'s `index`-th outlined loop nest.
pub fn outlined_name(function: &str, index: usize) -> String {
    format!("{function}__loop{index}")
}

impl DistPass for OutlineLoops {
    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let Some(body) = module.region_at(0).and_then(|r| r.first_block()) else {
            return Ok(());
        };
        let symbol = |op: &OperationRef<'_, '_>| string_attribute(op, attr::SYM_NAME);
        let mut taken: FxHashSet<String> = block_ops(body).iter().filter_map(symbol).collect();
        for function in block_ops(body) {
            if op_name(&function) != "func.func" {
                continue;
            }
            let Some(name) = symbol(&function) else {
                continue;
            };
            let mut nests = Vec::new();
            walk_preorder(&function, |op| {
                if op_name(&op).starts_with("linalg.") && op.result_count() == 0 {
                    nests.push(op);
                    return WalkResult::Skip;
                }
                WalkResult::Advance
            });
            let mut index = 0;
            for op in nests {
                let outlined = loop {
                    let candidate = outlined_name(&name, index);
                    index += 1;
                    if taken.insert(candidate.clone()) {
                        break candidate;
                    }
                };
                // SAFETY: the nests were collected without their insides
                // (the walk skipped them), and each is outlined once.
                #[allow(unsafe_code)]
                unsafe {
                    outline_into_function(op, &outlined)
                };
            }
            if index > 0 {
                tune_for_generic_cpu(function);
            }
        }
        Ok(())
    }
}

/// Adds `["tune-cpu", "generic"]` to `function`'s `passthrough` (LLVM
/// function attributes), keeping what it has.
fn tune_for_generic_cpu(function: OperationRef<'_, '_>) {
    let context = context_of(&function);
    let mut entries: Vec<Attribute> = attribute(&function, PASSTHROUGH)
        .and_then(|a| ArrayAttribute::try_from(a).ok())
        .map(|array| (0..array.len()).filter_map(|i| array.element(i).ok()).collect())
        .unwrap_or_default();
    let pair = [
        StringAttribute::new(context, "tune-cpu").into(),
        StringAttribute::new(context, "generic").into(),
    ];
    entries.push(ArrayAttribute::new(context, &pair).into());
    set_attribute(function, PASSTHROUGH, ArrayAttribute::new(context, &entries).into());
}

/// The LLVM dialect's list of function attributes of a `func.func`.
const PASSTHROUGH: &str = "passthrough";

#[cfg(test)]
mod tests {
    #[test]
    fn names_follow_their_function() {
        assert_eq!(super::outlined_name("gpt_step", 3), "gpt_step__loop3");
    }
}
