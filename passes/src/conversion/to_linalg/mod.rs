//! The `convert-dist-to-linalg` pass. Its documentation (what it does, preconditions, before
//! and after) is [`INFO`]'s description: `dist-opt --help-passes` prints it
//! and docs/passes.md holds it.

use crate::error::{PassError, fail};
use crate::ops;
use crate::pass::options::PassOptions;
use crate::pass::{DistPass, PassInfo};
use crate::vocabulary::linalg::build::Builder;
use dist_dialect::DistOp;
use dist_dialect::ir::{FunctionOpRef, context_of, nested_ops, replace_op};
use dist_dialect::ops::attr;
use melior::ir::OperationRef;

crate::pass::options::option_enum! {
    /// How `embedding_grad` adds each token's row into its id's row.
    pub enum Scatter {
        /// An `scf.for` over tokens x hidden (the CPU pipelines').
        Loop = "loop",
        /// A parallel reduction over vocabulary x hidden (the GPU kernels').
        Dense = "dense",
    }
}

crate::pass::options::pass_options! {
    /// The options of `convert-dist-to-linalg`.
    pub struct ConvertDistToLinalgOptions {
        scatter: Scatter = "scatter", "loop",
            "embedding_grad's scatter: loop (sequential, linear in the tokens) or dense (a parallel reduction over vocabulary x hidden, for GPU kernels)";
    }
}

#[derive(Debug, Default)]
pub struct ConvertDistToLinalg {
    options: ConvertDistToLinalgOptions,
}

pub const INFO: PassInfo = PassInfo {
    argument: "convert-dist-to-linalg",
    summary: "Lower dist compute and gradient ops to linalg, tensor, arith, math and scf",
    description: r#"`convert-dist-to-linalg`: lowers the compute and gradient ops of `dist`
to `linalg.generic` (and `tensor`, `arith`, `math`) on the tensors they
have: local ones after `dist-partition`, or the global ones for the
single-device reference run.

Preconditions: static shapes (the dialect's), and no argument marked
`dist.requires_grad`: such a function is a forward program whose
backward `dist-append-backward` derives (and then drops the marks);
lowering it as it is is an error at the argument. Collectives,
`dist.axis_index` and the mesh stay for `convert-dist-to-runtime`. Every
op becomes what its description (`ops`) lowers it to, `linalg.generic`s
whose bodies compute the definitions in the op descriptions: matmul (`linalg.matmul`, or `linalg.batch_matmul` when
both operands are batched, transposes in their indexing maps; a generic
contraction for broadcast batches and higher ranks), matmul_grad through the matmuls of
`dist-split-matmul-grad`'s plan, elementwise ops and their gradients
(the broadcast operand's gradient summed over the leading dims), gelu in
both forms, layer_norm and softmax with their gradients, embedding (an
offset masks the rows of other shards) and its scatter-add gradient,
reductions, reshape (`tensor.reshape`) and transpose.

Option `scatter`: how `embedding_grad` adds each token's row into its
id's row. `loop` (the default, the CPU pipelines'): an `scf.for` over
tokens x hidden, linear in the tokens. `dense` (the GPU pipeline's, whose
kernels tile linalg ops): a parallel `linalg.generic` over vocabulary x
hidden that compares every id with every row.

Before:
```mlir
%y = dist.relu %x : (tensor<8xf32>) -> tensor<8xf32>
```
After:
```mlir
%0 = tensor.empty() : tensor<8xf32>
%y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                     iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%0 : tensor<8xf32>) {
^bb0(%in: f32, %out: f32):
  %cst = arith.constant 0.000000e+00 : f32
  %1 = arith.cmpf ogt, %in, %cst : f32
  %2 = arith.select %1, %in, %cst : f32
  linalg.yield %2 : f32
} -> tensor<8xf32>
```
"#,
    anchor: "func.func",
    options: ConvertDistToLinalgOptions::info,
    dialects: &["arith", "linalg", "math", "scf", "tensor"],
    create: || Box::new(ConvertDistToLinalg::default()),
};

impl DistPass for ConvertDistToLinalg {
    fn options(&mut self) -> Option<&mut dyn PassOptions> {
        Some(&mut self.options)
    }

    fn run(&mut self, op: OperationRef<'_, '_>) -> Result<(), PassError> {
        if let Ok(function) = FunctionOpRef::try_from(op)
            && let Some(&i) = function.arguments_with(attr::REQUIRES_GRAD).first()
        {
            return Err(fail(
                function.argument_location(i),
                &format!(
                    "argument #{i} asks for a gradient (dist.requires_grad) but the function has no backward: \
                     derive it first with dist-append-backward (dist-run --grad), or drop the attribute to \
                     compile the forward alone"
                ),
            ));
        }
        // Every compute op has a description; collectives, the mesh and
        // axis_index stay for convert-dist-to-runtime.
        let todo = nested_ops(&op, |nested| DistOp::of(nested).and_then(ops::spec).is_some());
        let context = context_of(&op);
        for target in todo {
            let spec = DistOp::of(&target)
                .and_then(ops::spec)
                .expect("collected for its description");
            let mut b = Builder::new(context, target, self.options.scatter == Scatter::Dense);
            let results = spec.lower(&mut b, target)?;
            // SAFETY: the collected ops are each lowered once.
            #[allow(unsafe_code)]
            unsafe {
                replace_op(target, results)
            };
        }
        Ok(())
    }
}
