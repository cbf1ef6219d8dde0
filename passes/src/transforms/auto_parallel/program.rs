//! What `dist-auto-parallel` reads of a step (its parameters, data and
//! optimizer states), the Megatron layout it derives from the step's
//! dataflow, and the annotations that write a plan on a module.

use super::space::{Plan, Zero};
use crate::ops;
use dist_dialect::DistOp;
use dist_dialect::ir::{
    FunctionOpRef, Located, OperationExt, ShardingAttribute, block_argument, block_argument_of, body_ops, build_op,
    context_of, i64_array_attribute, insert_before, op_result, static_tensor_shape, symbol_name, value_sharding,
};
use dist_dialect::model::Sharding;
use dist_dialect::ops::attr::{self, BATCH_DIM, REQUIRES_GRAD};
use melior::ir::attribute::{ArrayAttribute, DenseI64ArrayAttribute, IntegerAttribute, StringAttribute};
use melior::ir::operation::OperationLike;
use melior::ir::{Attribute, BlockLike, Identifier, OperationRef, RegionLike, Value, ValueLike};
use rustc_hash::FxHashSet;

/// The name of the mesh a plan writes.
pub const MESH: &str = "mesh";

/// How a parameter is first read by a product, which decides its
/// tensor-parallel split.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Product {
    /// The table of `dist.embedding`: split over its vocabulary dim
    /// (Megatron's vocabulary-parallel embedding).
    Table { vocab: usize },
    /// The right operand of `dist.matmul`: row-parallel (its dim `k`
    /// split) when the left operand's contraction dim `lhs_k` arrives split
    /// over tp, column-parallel (its dim `n` split) otherwise. The dims are
    /// the parameter's, through the casts and transposes between.
    Weight { lhs_k: usize, k: usize, n: usize },
}

/// The first product that reads a parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FirstUse {
    pub param: usize,
    /// The op's position in the function body.
    pub op: usize,
    pub product: Product,
}

/// What the search reads of the step function.
#[derive(Debug, Clone)]
pub struct Step {
    pub name: String,
    /// A forward program (parameters marked `dist.requires_grad`): the
    /// search differentiates it, as `dist-run --grad` does.
    pub forward: bool,
    /// Each data argument, its batch dim and the dim's size.
    pub data: Vec<(usize, usize, i64)>,
    /// The parameters, ascending.
    pub params: Vec<usize>,
    /// Each optimizer state argument and its parameter.
    pub states: Vec<(usize, usize)>,
    pub first_uses: Vec<FirstUse>,
    /// Each argument's static shape (empty: not a static tensor).
    pub shapes: Vec<Vec<i64>>,
}

/// The argument `value` is, through casts and transposes, with the map from
/// `value`'s dims to the argument's.
fn trace(value: Value<'_, '_>) -> Option<(usize, Vec<usize>)> {
    if let Some(arg) = block_argument_of(value) {
        let rank = static_tensor_shape(value.r#type())?.len();
        return Some((arg.argument_number(), (0..rank).collect()));
    }
    let op = op_result(value)?.owner();
    match DistOp::of(&op)? {
        DistOp::Cast => trace(op.operand_at(0)?),
        DistOp::Transpose => {
            let (arg, inner) = trace(op.operand_at(0)?)?;
            let perm = i64_array_attribute(&op, attr::PERM)?;
            let map = perm
                .iter()
                .map(|&p| inner.get(p as usize).copied())
                .collect::<Option<_>>()?;
            Some((arg, map))
        }
        _ => None,
    }
}

impl Step {
    /// Reads `function`; an error where it is no step the search can lay out.
    pub fn read<'c>(function: FunctionOpRef<'c, '_>) -> Result<Self, Located<'c>> {
        let operation = function.operation();
        let at = |message: String| Located::at(&operation, message);
        let shapes: Vec<Vec<i64>> = function
            .argument_types()
            .into_iter()
            .map(|t| static_tensor_shape(t).unwrap_or_default())
            .collect();
        let mut params: Vec<usize> = function.arguments_with(REQUIRES_GRAD);
        let forward = !params.is_empty();
        let ops = body_ops(operation);
        let mut states = Vec::new();
        let mut updates = false;
        for op in &ops {
            let Some(indices) = DistOp::of(op).and_then(ops::spec).and_then(|s| s.optimizer_states()) else {
                continue;
            };
            updates = true;
            let argument = |i: usize| {
                op.operand_at(i)
                    .and_then(block_argument_of)
                    .map(|a| a.argument_number())
            };
            let Some(param) = argument(0) else {
                return Err(Located::at(
                    op,
                    "dist-auto-parallel: the optimizer step updates a value that is no argument of the step",
                ));
            };
            params.push(param);
            states.extend(indices.iter().filter_map(|&i| argument(i)).map(|s| (s, param)));
        }
        if forward && updates {
            return Err(at(format!(
                "dist-auto-parallel: @{} marks parameters {REQUIRES_GRAD} and updates parameters with an optimizer \
                 step: give it a forward program or a training step",
                symbol_name(&operation)
            )));
        }
        params.sort_unstable();
        params.dedup();
        if params.is_empty() {
            return Err(at(format!(
                "dist-auto-parallel: @{} has no parameters: mark them {REQUIRES_GRAD} (a forward program) or update \
                 them with dist.adamw or dist.sgd (a training step)",
                symbol_name(&operation)
            )));
        }
        let mut data = Vec::new();
        for arg in function.arguments_with(BATCH_DIM) {
            let dim = function
                .argument_attribute(arg, BATCH_DIM)
                .and_then(|a| IntegerAttribute::try_from(a).ok())
                .and_then(|a| usize::try_from(a.value()).ok())
                .filter(|&d| d < shapes[arg].len())
                .ok_or_else(|| {
                    Located::new(
                        function.argument_location(arg),
                        format!("argument #{arg}: {BATCH_DIM} must be a dim of a static tensor"),
                    )
                })?;
            data.push((arg, dim, shapes[arg][dim]));
        }
        if data.is_empty() {
            return Err(at(format!(
                "dist-auto-parallel: no argument of @{} carries {BATCH_DIM}: the search splits the data's batch over dp",
                symbol_name(&operation)
            )));
        }
        let mut first_uses = Vec::new();
        let mut seen = FxHashSet::default();
        for (position, op) in ops.iter().enumerate() {
            let product = match DistOp::of(op) {
                Some(DistOp::Embedding) => op.operand_at(1).and_then(trace).map(|(arg, map)| (arg, map, None)),
                Some(DistOp::Matmul) => op.operand_at(1).and_then(trace).map(|(arg, map)| {
                    let lhs_rank = op
                        .operand_at(0)
                        .and_then(|v| static_tensor_shape(v.r#type()))
                        .map_or(0, |s| s.len());
                    (arg, map, Some(lhs_rank))
                }),
                _ => None,
            };
            let Some((param, map, lhs_rank)) = product else {
                continue;
            };
            if params.binary_search(&param).is_err() || !seen.insert(param) {
                continue;
            }
            let product = match lhs_rank {
                None => Product::Table { vocab: map[0] },
                Some(lhs_rank) => {
                    let rank = map.len();
                    let (k, n) = if op.has_attribute(attr::TRANSPOSE_Y) {
                        (rank - 1, rank - 2)
                    } else {
                        (rank - 2, rank - 1)
                    };
                    let lhs_k = if op.has_attribute(attr::TRANSPOSE_X) {
                        lhs_rank - 2
                    } else {
                        lhs_rank - 1
                    };
                    Product::Weight {
                        lhs_k,
                        k: map[k],
                        n: map[n],
                    }
                }
            };
            first_uses.push(FirstUse {
                param,
                op: position,
                product,
            });
        }
        Ok(Self {
            name: symbol_name(&operation),
            forward,
            data,
            params,
            states,
            first_uses,
            shapes,
        })
    }

    /// The step function of `module` (a copy of the one it was read from).
    pub fn function<'c, 'a>(&self, module: OperationRef<'c, 'a>) -> FunctionOpRef<'c, 'a> {
        function_named(module, &self.name)
    }
}

/// The function `name` of `module`, a copy of the module the search was
/// given (which has it).
pub fn function_named<'c, 'a>(module: OperationRef<'c, 'a>, name: &str) -> FunctionOpRef<'c, 'a> {
    body_ops(module)
        .into_iter()
        .find(|op| symbol_name(op) == name)
        .and_then(|op| FunctionOpRef::try_from(op).ok())
        .expect("a copy of the module has the step")
}

/// How a parameter splits over tp: by one dim or not at all; `Open` while
/// the derivation has not decided, left to propagation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Split {
    Open,
    Whole,
    Dim(usize),
}

/// Writes `plan` on `module`: the mesh `["dp"=d, "tp"=t]`, the data split
/// over dp along its batch dim, each parameter by `layout` (indexed by
/// argument; `Open` ones left to propagation), the optimizer states as
/// their parameters, and ZeRO's dp splits. An error names a tensor ZeRO
/// cannot split evenly.
pub fn annotate<'c>(module: OperationRef<'c, '_>, step: &Step, layout: &[Split], plan: &Plan) -> Result<(), String> {
    let context = context_of(&module);
    let function = step.function(module);
    let location = function.operation().location();
    let names: Vec<Attribute> = ["dp", "tp"]
        .iter()
        .map(|n| StringAttribute::new(context, n).into())
        .collect();
    let mesh = build_op(
        "dist.mesh",
        location,
        &[],
        &[],
        &[
            (
                Identifier::new(context, "sym_name"),
                StringAttribute::new(context, MESH).into(),
            ),
            (
                Identifier::new(context, "axis_names"),
                ArrayAttribute::new(context, &names).into(),
            ),
            (
                Identifier::new(context, "axis_sizes"),
                DenseI64ArrayAttribute::new(context, &[plan.dp as i64, plan.tp as i64]).into(),
            ),
        ],
    )
    .map_err(|e| e.message)?;
    let body = module
        .region_at(0)
        .and_then(|r| r.first_block())
        .expect("a module has a body");
    match body.first_operation() {
        Some(first) => {
            insert_before(first, mesh);
        }
        None => {
            body.append_operation(mesh);
        }
    }
    let mut dims: Vec<Option<Vec<Vec<String>>>> = vec![None; step.shapes.len()];
    for &(arg, dim, _) in &step.data {
        let mut d = vec![Vec::new(); step.shapes[arg].len()];
        d[dim].push("dp".to_owned());
        dims[arg] = Some(d);
    }
    let zero_split = |arg: usize, mut d: Vec<Vec<String>>| -> Result<Vec<Vec<String>>, String> {
        let shape = &step.shapes[arg];
        let shards = |axes: &[String]| if axes.is_empty() { 1 } else { plan.tp as i64 };
        let dim = (0..shape.len())
            .find(|&i| shape[i] % (shards(&d[i]) * plan.dp as i64) == 0)
            .ok_or_else(|| {
                format!(
                    "ZeRO cannot split argument #{arg} over dp={}: no dim divides evenly",
                    plan.dp
                )
            })?;
        d[dim].push("dp".to_owned());
        Ok(d)
    };
    let tp_dims = |param: usize| -> Option<Vec<Vec<String>>> {
        let mut d = vec![Vec::new(); step.shapes[param].len()];
        match layout[param] {
            Split::Open => return None,
            Split::Whole => {}
            Split::Dim(i) => d[i].push("tp".to_owned()),
        }
        Some(d)
    };
    for &param in &step.params {
        dims[param] = match (tp_dims(param), plan.zero) {
            (Some(d), Zero::Parameters) => Some(zero_split(param, d)?),
            (d, _) => d,
        };
    }
    for &(state, param) in &step.states {
        dims[state] = match (tp_dims(param), plan.zero) {
            (Some(d), Zero::Off) => Some(d),
            (Some(d), _) => Some(zero_split(state, d)?),
            (None, _) => None,
        };
    }
    let mut shardings = Vec::with_capacity(dims.len());
    for (arg, d) in dims.into_iter().enumerate() {
        let Some(dims) = d else {
            shardings.push(None);
            continue;
        };
        let sharding = Sharding {
            mesh: MESH.to_owned(),
            dims,
            partial: None,
        };
        let attribute = ShardingAttribute::new(function.argument_location(arg), &sharding)
            .map_err(|e| format!("argument #{arg}: {e}"))?;
        shardings.push(Some(attribute.attribute()));
    }
    function.set_argument_attributes(attr::SHARDING, &shardings);
    Ok(())
}

/// Whether `value`'s sharding splits its dim `dim` over tp.
pub fn split_over_tp(value: Value<'_, '_>, function: FunctionOpRef<'_, '_>, dim: usize) -> bool {
    value_sharding(value, function).is_some_and(|s| s.dims.get(dim).is_some_and(|axes| axes.iter().any(|a| a == "tp")))
}

/// The values that depend on the arguments `from` (through any op), by
/// handle: what a decision about those arguments could still change.
pub fn dependents(function: FunctionOpRef<'_, '_>, from: &[usize]) -> FxHashSet<*const std::ffi::c_void> {
    let operation = function.operation();
    let body = operation
        .region_at(0)
        .and_then(|r| r.first_block())
        .expect("a step has a body");
    let mut reached: FxHashSet<*const std::ffi::c_void> = from
        .iter()
        .filter_map(|&a| block_argument(&body, a))
        .map(|a| Value::from(a).to_raw().ptr)
        .collect();
    for op in body_ops(operation) {
        if op.operands().any(|v| reached.contains(&v.to_raw().ptr)) {
            reached.extend(op.results().map(|r| Value::from(r).to_raw().ptr));
        }
    }
    reached
}
