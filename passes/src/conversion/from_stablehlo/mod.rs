//! The `convert-stablehlo-to-dist` pass: JAX programs in. Its
//! documentation is [`INFO`]'s description (`dist-opt --help-passes`,
//! docs/passes.md); docs/stablehlo-import.md covers what is recognised.
//!
//! The pass reads each public function into a pure-Rust [`graph::Graph`]
//! (inlining the private helpers it calls), translates that
//! ([`translate`]) and builds the result; Shardy's mesh and shardings map
//! one to one onto dist's.

pub mod compound;
pub mod eval;
pub mod graph;
pub mod program;
pub mod raise;
pub mod syntax;
pub mod translate;

use crate::error::{PassError, fail};
use crate::pass::options::{Indices, PassOptions};
use crate::pass::{DistPass, PassInfo};
use dist_dialect::DistOp;
use dist_dialect::ir::build::splat_attribute;
use dist_dialect::ir::{
    FunctionOpRef, Located, OperationExt, Severity, ShardingAttribute, attribute, block_argument, block_ops, build_op,
    context_of, emit_diagnostic, erase, i64_array_attribute, insert_before, op_name, remove_attribute, set_operands,
    string_attribute, symbol_name, walk_preorder,
};
use dist_dialect::ops::attr::{REQUIRES_GRAD, SHARDING};
use dist_dialect::{CompareDirection, Sharding};
use graph::{Binary, Graph, Kind, Node, Ref, Unary, Unsupported};
use melior::Context;
use melior::ir::attribute::{
    ArrayAttribute, DenseI64ArrayAttribute, FloatAttribute, IntegerAttribute, StringAttribute,
};
use melior::ir::operation::{OperationLike, WalkResult};
use melior::ir::r#type::IntegerType;
use melior::ir::{Attribute, BlockLike, Identifier, Location, OperationRef, RegionLike, Type, Value, ValueLike};
use program::{Attr, Operand, Program};
use rustc_hash::{FxHashMap, FxHashSet};
use syntax::{Dense, DimNumbers, TensorTy};

crate::pass::options::pass_options! {
    /// The options of `convert-stablehlo-to-dist`.
    pub struct ConvertStablehloToDistOptions {
        requires_grad: Indices = "requires-grad", "",
            "Comma-separated indices of the arguments to differentiate with respect to (dist.requires_grad)";
    }
}

#[derive(Debug, Default)]
pub struct ConvertStablehloToDist {
    options: ConvertStablehloToDistOptions,
}

pub const INFO: PassInfo = PassInfo {
    argument: "convert-stablehlo-to-dist",
    summary: "Import a JAX program: StableHLO ops and Shardy shardings to dist",
    description: r#"`convert-stablehlo-to-dist`: turns a module that JAX exported
(`jax.jit(f).lower(...)`, StableHLO with Shardy shardings, in MLIR's
generic form; read it with `--allow-unregistered-dialect`) into a dist
program.

- `sdy.mesh @m = <["dp"=2, "tp"=2]>` becomes `dist.mesh @m`; the
  `#sdy.sharding<@m, [{"dp"}, {}]>` of arguments and results and of
  `sdy.sharding_constraint` become `#dist.sharding` (closed dims only:
  open dims, sub-axes, priorities and replicated axes are refused).
- Each public function (JAX's `@main`) is translated with the private
  helpers it calls inlined; the helpers are then erased.
- `requires-grad=I,J,...` marks those arguments `dist.requires_grad`, so
  `dist-append-backward` (or `dist-run --grad`) differentiates the
  function with respect to them. Without it, the marks the export carries
  stay (`scripts/torch-export.py` marks the parameters that require
  grad); with it, only the listed arguments are marked.

The ops, one by one: elementwise arithmetic and math (of floats, and of
integers where StableHLO has them), `compare`, `select`, `and`/`or`/
`xor`/`not`, `is_finite` and `iota` map to their dist ops, with
`broadcast_in_dim` left to their NumPy broadcasting (materialised where
another op reads it); `reduce` with an add, max or min body from its
identity to `dist.reduce_sum/max/min`; `dot_general` to `dist.matmul`
(batch dims moved to the front; several contracting or free dims merged
by reshapes); `reshape`/`transpose`/`convert` (between floats, integers
and booleans); a `gather` of one slice at constant indices to
`dist.slice`; a `scatter` that adds, as JAX's backward (an export of
`jax.value_and_grad`) writes the gradient of those gathers, to their
gradient ops. Patterns are recognised by value, not by spelling, where
they give better collectives: a `select` whose constant predicate is
lower-triangular over the last two dims and whose fill is -inf or the
type's lowest value is `dist.causal_mask`; a `gather` of whole rows is
`dist.embedding` and one of an element per row along the last dim is
`dist.take_along`, without the index wrap and NaN fill JAX writes around
them (ids must be in range). An op a result needs that has no mapping is
an error at that op, naming it; ops no result needs are dropped.
`sdy.manual_computation` is refused.

Before (generic form, abridged):
```mlir
"sdy.mesh"() <{mesh = #sdy.mesh<["dp"=2, "tp"=2]>, sym_name = "mesh"}> : () -> ()
"func.func"() <{arg_attrs = [{sdy.sharding = #sdy.sharding<@mesh, [{"dp"}, {}]>},
    {sdy.sharding = #sdy.sharding<@mesh, [{}, {"tp"}]>}], function_type = ..., sym_name = "main"}> ({
^bb0(%arg0: tensor<8x16xf32>, %arg1: tensor<16x32xf32>):
  %0 = "stablehlo.dot_general"(%arg0, %arg1) <{dot_dimension_numbers = #stablehlo.dot<
      lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>}> : ... -> tensor<8x32xf32>
  %1 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
  %2 = "stablehlo.broadcast_in_dim"(%1) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
  %3 = "stablehlo.maximum"(%0, %2) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
```
After (`requires-grad=1`):
```mlir
dist.mesh @mesh = <["dp"=2, "tp"=2]>
func.func @main(%arg0: tensor<8x16xf32> {dist.sharding = #dist.sharding<@mesh, [{"dp"}, {}]>},
    %arg1: tensor<16x32xf32> {dist.requires_grad, dist.sharding = #dist.sharding<@mesh, [{}, {"tp"}]>}) ... {
  %0 = dist.matmul %arg0, %arg1 : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
  %cst = arith.constant dense<0.000000e+00> : tensor<f32>
  %1 = dist.maximum %0, %cst : (tensor<8x32xf32>, tensor<f32>) -> tensor<8x32xf32>
```
"#,
    anchor: "builtin.module",
    options: ConvertStablehloToDistOptions::info,
    dialects: &["arith"],
    create: || Box::new(ConvertStablehloToDist::default()),
};

/// What a forward-only export leaves out of the gradients
/// `dist-append-backward` derives from it (docs/stablehlo-import.md).
pub const FORWARD_ONLY: &str = "the gradients of this import are those of its forward ops: a forward-only \
    export drops lax.stop_gradient, jax.custom_vjp and remat policies (JAX lowers them away; so does \
    torch.export a tensor's detach and a custom autograd.Function's backward), so where the program used \
    them, the framework's own gradients differ (docs/stablehlo-import.md)";

const SDY_SHARDING: &str = "sdy.sharding";
const GSPMD_SHARDING: &str = "mhlo.sharding";

impl DistPass for ConvertStablehloToDist {
    fn options(&mut self) -> Option<&mut dyn PassOptions> {
        Some(&mut self.options)
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let Some(body) = module.region_at(0).and_then(|r| r.first_block()) else {
            return Ok(());
        };
        for op in block_ops(body) {
            if op_name(&op) == "sdy.mesh" {
                convert_mesh(op)?;
            }
        }
        // The meshes converted are erased: read the block again.
        let ops = block_ops(body);
        let functions: FxHashMap<String, OperationRef> = ops
            .iter()
            .filter(|op| op_name(op) == "func.func")
            .map(|&op| (symbol_name(&op), op))
            .collect();
        let mut inlined = FxHashSet::default();
        let mut converted = false;
        for &op in &ops {
            if op_name(&op) == "func.func"
                && string_attribute(&op, "sym_visibility").as_deref() != Some("private")
                && (has_foreign_ops(op) || has_shardy_shardings(op))
            {
                let function = FunctionOpRef::try_from(op).map_err(|e| fail(op.location(), &e.to_string()))?;
                self.check_requires_grad(function)?;
                convert_function(function, &functions, &mut inlined)?;
                self.mark_requires_grad(function);
                converted = true;
            }
        }
        if !converted && !self.options.requires_grad.0.is_empty() {
            return Err(fail(
                module.location(),
                "requires-grad names arguments, but the module has no StableHLO function to import",
            ));
        }
        // Erase the inlined helpers no op calls any more, callers first.
        let mut helpers: Vec<String> = inlined
            .into_iter()
            .filter(|name| string_attribute(&functions[name], "sym_visibility").as_deref() == Some("private"))
            .collect();
        helpers.sort();
        while let Some(index) = helpers.iter().position(|name| !is_called(module, name)) {
            let name = helpers.swap_remove(index);
            // SAFETY: the helper is unreferenced and no handle to it or
            // its ops is used after this.
            #[allow(unsafe_code)]
            unsafe {
                erase(functions[&name])
            };
        }
        let mut leftover = None;
        walk_preorder(&module, |op| {
            if has_foreign_name(op_name(&op)) {
                leftover = Some(op);
                return WalkResult::Interrupt;
            }
            WalkResult::Advance
        });
        match leftover {
            Some(op) => Err(fail(
                op.location(),
                &format!("'{}' is left in a function no public function calls", op_name(&op)),
            )),
            None => Ok(()),
        }
    }
}

impl ConvertStablehloToDist {
    fn check_requires_grad(&self, function: FunctionOpRef) -> Result<(), PassError> {
        let types = function.argument_types();
        for &i in &self.options.requires_grad.0 {
            let Some(ty) = types.get(i) else {
                return Err(fail(
                    function.operation().location(),
                    &format!(
                        "requires-grad names argument {i}, but @{} has {} arguments",
                        symbol_name(&function.operation()),
                        types.len()
                    ),
                ));
            };
            if !TensorTy::parse(&ty.to_string()).is_some_and(|t| t.is_float()) {
                return Err(fail(
                    function.argument_location(i),
                    &format!("requires-grad names argument {i} of type {ty}, which has no gradient"),
                ));
            }
        }
        Ok(())
    }

    /// Marks the arguments to differentiate (those the option lists, in
    /// place of any the export marked: torch-export.py marks the
    /// parameters that require grad); where there are any, says once what
    /// a forward-only export leaves out.
    fn mark_requires_grad(&self, function: FunctionOpRef) {
        let context = context_of(&function.operation());
        if !self.options.requires_grad.0.is_empty() {
            function.remove_argument_and_result_attributes(REQUIRES_GRAD);
        }
        let marks: Vec<Option<Attribute>> = (0..function.num_arguments())
            .map(|i| {
                self.options
                    .requires_grad
                    .0
                    .contains(&i)
                    .then(|| Attribute::unit(context))
            })
            .collect();
        function.set_argument_attributes(REQUIRES_GRAD, &marks);
        if (0..function.num_arguments()).any(|i| function.argument_attribute(i, REQUIRES_GRAD).is_some()) {
            emit_diagnostic(function.operation().location(), Severity::Remark, FORWARD_ONLY);
        }
    }
}

fn has_foreign_name(name: &str) -> bool {
    name.starts_with("stablehlo.") || name.starts_with("sdy.") || name.starts_with("chlo.")
}

/// Whether `function`'s body has an op this pass converts (a StableHLO or
/// Shardy op, or a call, which may reach one).
fn has_foreign_ops(function: OperationRef) -> bool {
    let mut found = false;
    walk_preorder(&function, |op| {
        found = has_foreign_name(op_name(&op)) || op_name(&op) == "func.call";
        if found {
            WalkResult::Interrupt
        } else {
            WalkResult::Advance
        }
    });
    found
}

/// Whether a function argument or result carries a Shardy sharding.
fn has_shardy_shardings(function: OperationRef) -> bool {
    FunctionOpRef::try_from(function).is_ok_and(|f| {
        (0..f.num_arguments()).any(|i| f.argument_attribute(i, SDY_SHARDING).is_some())
            || (0..f.num_results()).any(|i| f.result_attribute(i, SDY_SHARDING).is_some())
    })
}

fn is_called(module: OperationRef, name: &str) -> bool {
    let mut called = false;
    walk_preorder(&module, |op| {
        called = op_name(&op) == "func.call"
            && attribute(&op, "callee").is_some_and(|c| c.to_string().strip_prefix('@') == Some(name));
        if called {
            WalkResult::Interrupt
        } else {
            WalkResult::Advance
        }
    });
    called
}

/// `sdy.mesh` as the `dist.mesh` of the same name and axes.
fn convert_mesh(op: OperationRef) -> Result<(), PassError> {
    let context = context_of(&op);
    let text = attribute(&op, "mesh").map(|a| a.to_string()).unwrap_or_default();
    let axes = syntax::sdy_mesh(&text).map_err(|e| fail(op.location(), &e.to_string()))?;
    let names: Vec<Attribute> = axes
        .iter()
        .map(|(n, _)| StringAttribute::new(context, n).into())
        .collect();
    let sizes: Vec<i64> = axes.iter().map(|(_, s)| *s).collect();
    let attributes = [
        ("sym_name", StringAttribute::new(context, &symbol_name(&op)).into()),
        ("axis_names", ArrayAttribute::new(context, &names).into()),
        ("axis_sizes", DenseI64ArrayAttribute::new(context, &sizes).into()),
    ]
    .map(|(name, value)| (Identifier::new(context, name), value));
    let mesh = build_op(DistOp::Mesh.name(), op.location(), &[], &[], &attributes)?;
    insert_before(op, mesh);
    // SAFETY: a symbol op without results; no handle to it is used after.
    #[allow(unsafe_code)]
    unsafe {
        erase(op)
    };
    Ok(())
}

/// `attributes` of an op whose result is of type `ty`.
fn build_attributes<'c>(
    context: &'c Context,
    location: Location<'c>,
    attributes: &[(&str, Attr)],
    ty: Type<'c>,
) -> Result<Vec<(Identifier<'c>, Attribute<'c>)>, Located<'c>> {
    attributes
        .iter()
        .map(|(name, attr)| {
            let attribute = match attr {
                Attr::I64s(values) => DenseI64ArrayAttribute::new(context, values).into(),
                Attr::I64(value) => IntegerAttribute::new(IntegerType::new(context, 64).into(), *value).into(),
                Attr::F32(value) => FloatAttribute::new(context, Type::float32(context), f64::from(*value)).into(),
                Attr::Str(text) => StringAttribute::new(context, text).into(),
                Attr::Unit => Attribute::unit(context),
                Attr::Zeros => splat_attribute(context, ty, 0.0),
                Attr::Literal(text) => Attribute::parse(context, text)
                    .ok_or_else(|| Located::new(location, format!("the constant {text} does not parse")))?,
            };
            Ok((Identifier::new(context, name), attribute))
        })
        .collect()
}

/// `function` translated in place: its body's ops replaced by dist ops,
/// its Shardy shardings by dist's. The helpers it calls are added to
/// `inlined`.
fn convert_function<'c, 'a>(
    function: FunctionOpRef<'c, 'a>,
    functions: &FxHashMap<String, OperationRef<'c, 'a>>,
    inlined: &mut FxHashSet<String>,
) -> Result<(), PassError> {
    let op = function.operation();
    let mut reader = Reader {
        functions,
        sites: Vec::new(),
        graph: Graph::default(),
        calls: Vec::new(),
        inlined,
    };
    reader.graph.args = function
        .argument_types()
        .iter()
        .enumerate()
        .map(|(i, ty)| {
            TensorTy::parse(&ty.to_string()).ok_or_else(|| {
                fail(
                    function.argument_location(i),
                    &format!("argument {i} of type {ty} is not a static tensor"),
                )
            })
        })
        .collect::<Result<_, _>>()?;
    let args: Vec<Ref> = (0..reader.graph.args.len()).map(Ref::Arg).collect();
    let (results, terminator) = reader.read_body(op, &args)?;
    reader.graph.results = results;
    reader.graph.site = reader.site(terminator.location());
    let program = translate::translate(&reader.graph).map_err(|e| fail(reader.sites[e.site], &e.message))?;
    emit(function, &program, &reader.sites)?;
    // JAX spells out the default visibility.
    if string_attribute(&op, "sym_visibility").as_deref() == Some("public") {
        remove_attribute(op, "sym_visibility");
    }
    convert_shardings(function)
}

/// Replaces the body's ops by `program`'s.
fn emit<'c>(function: FunctionOpRef<'c, '_>, program: &Program, sites: &[Location<'c>]) -> Result<(), PassError> {
    let op = function.operation();
    let context = context_of(&op);
    let block = op
        .region_at(0)
        .and_then(|r| r.first_block())
        .expect("a function with a body");
    let terminator = block.terminator().expect("a terminated body");
    let old: Vec<OperationRef> = block_ops(block).into_iter().filter(|o| *o != terminator).collect();
    // Each built op's results.
    let mut values: Vec<Vec<Value<'c, '_>>> = Vec::with_capacity(program.insts.len());
    fn value<'c, 'b>(
        block: melior::ir::BlockRef<'c, 'b>,
        operand: Operand,
        values: &[Vec<Value<'c, 'b>>],
    ) -> Value<'c, 'b> {
        match operand {
            Operand::Arg(i) => block_argument(&block, i).expect("an argument of the function").into(),
            Operand::Inst(i) => values[i][0],
            Operand::Extra(i, j) => values[i][j + 1],
        }
    }
    for inst in &program.insts {
        let location = sites[inst.site];
        let operands: Vec<Value> = inst.operands.iter().map(|&o| value(block, o, &values)).collect();
        let types: Vec<Type> = std::iter::once(&inst.ty)
            .chain(&inst.extra)
            .map(|ty| Type::parse(context, &ty.text()).expect("a tensor type parses"))
            .collect();
        let mut attributes = build_attributes(context, location, &inst.attributes, types[0])?;
        if let Some(sharding) = &inst.sharding {
            let per_result = std::iter::once(&inst.ty)
                .chain(&inst.extra)
                .map(|ty| {
                    let mut leading = sharding.clone();
                    leading.dims.truncate(ty.shape.len());
                    ShardingAttribute::new(location, &leading)
                        .map(|s| s.attribute())
                        .map_err(|e| fail(location, &e.to_string()))
                })
                .collect::<Result<Vec<_>, _>>()?;
            attributes.push((
                Identifier::new(context, SHARDING),
                ArrayAttribute::new(context, &per_result).into(),
            ));
        }
        let built = insert_before(terminator, build_op(inst.op, location, &operands, &types, &attributes)?);
        values.push(built.results().map(Into::into).collect());
    }
    let results: Vec<Value> = program.results.iter().map(|&o| value(block, o, &values)).collect();
    set_operands(terminator, &results);
    for op in old.into_iter().rev() {
        // SAFETY: the old ops are used only by each other and are erased
        // users first; no handle to them is used after.
        #[allow(unsafe_code)]
        unsafe {
            erase(op)
        };
    }
    Ok(())
}

/// The function's `sdy.sharding` argument and result attributes as
/// `dist.sharding`.
fn convert_shardings(function: FunctionOpRef) -> Result<(), PassError> {
    let op = function.operation();
    let gspmd = (0..function.num_arguments())
        .find(|&i| function.argument_attribute(i, GSPMD_SHARDING).is_some())
        .map(|i| function.argument_location(i))
        .or_else(|| {
            (0..function.num_results())
                .any(|i| function.result_attribute(i, GSPMD_SHARDING).is_some())
                .then(|| op.location())
        });
    if let Some(location) = gspmd {
        return Err(fail(
            location,
            "'mhlo.sharding' (a GSPMD sharding) is not imported: export with Shardy (JAX's default partitioner \
             since 0.7), whose shardings are dist's",
        ));
    }
    fn convert<'c>(
        attribute: Option<Attribute<'c>>,
        location: Location<'c>,
    ) -> Result<Option<Attribute<'c>>, PassError> {
        let Some(attribute) = attribute else {
            return Ok(None);
        };
        let (mesh, dims) = syntax::sdy_sharding(&attribute.to_string()).map_err(|e| fail(location, &e.to_string()))?;
        let sharding = Sharding::new(mesh, &dims.iter().map(Vec::as_slice).collect::<Vec<_>>());
        let attribute = ShardingAttribute::new(location, &sharding).map_err(|e| fail(location, &e.to_string()))?;
        Ok(Some(attribute.attribute()))
    }
    let arguments = (0..function.num_arguments())
        .map(|i| {
            convert(
                function.argument_attribute(i, SDY_SHARDING),
                function.argument_location(i),
            )
        })
        .collect::<Result<Vec<_>, _>>()?;
    let results = (0..function.num_results())
        .map(|i| convert(function.result_attribute(i, SDY_SHARDING), op.location()))
        .collect::<Result<Vec<_>, _>>()?;
    function.remove_argument_and_result_attributes(SDY_SHARDING);
    function.set_argument_attributes(SHARDING, &arguments);
    function.set_result_attributes(SHARDING, &results);
    Ok(())
}

/// Reads functions into a [`Graph`], inlining calls.
struct Reader<'f, 'c, 'a> {
    functions: &'f FxHashMap<String, OperationRef<'c, 'a>>,
    sites: Vec<Location<'c>>,
    graph: Graph,
    /// The functions being read, innermost last (recursion is refused).
    calls: Vec<String>,
    inlined: &'f mut FxHashSet<String>,
}

impl<'c, 'a> Reader<'_, 'c, 'a> {
    fn site(&mut self, location: Location<'c>) -> usize {
        self.sites.push(location);
        self.sites.len() - 1
    }

    /// Adds the ops of `function`'s body, its arguments bound to `args`;
    /// its results and its terminator.
    fn read_body(
        &mut self,
        function: OperationRef<'c, 'a>,
        args: &[Ref],
    ) -> Result<(Vec<Ref>, OperationRef<'c, 'a>), PassError> {
        let block = function
            .region_at(0)
            .and_then(|r| r.first_block())
            .filter(|b| b.next_in_region().is_none())
            .ok_or_else(|| {
                fail(
                    function.location(),
                    "only functions with a single-block body are imported",
                )
            })?;
        let key = |v: Value| v.to_raw().ptr as usize;
        let mut values: FxHashMap<usize, Ref> = FxHashMap::default();
        for (i, &arg) in args.iter().enumerate() {
            values.insert(
                key(block_argument(&block, i).expect("an argument per type").into()),
                arg,
            );
        }
        for op in block_ops(block) {
            let operands: Vec<Ref> = op.operands().map(|v| values[&key(v)]).collect();
            let results: Vec<Ref> = match op_name(&op) {
                "func.return" => return Ok((operands, op)),
                "func.call" => self.read_call(op, &operands)?,
                name if op.result_count() == 0 => {
                    return Err(fail(
                        op.location(),
                        &format!("'{name}' has no results: it has no dist mapping"),
                    ));
                }
                name if attribute(&op, SDY_SHARDING).is_some() => {
                    return Err(fail(
                        op.location(),
                        &format!("'{name}' carries a Shardy sharding of its own, which is not imported"),
                    ));
                }
                _ => self.read_op(op, operands),
            };
            for (result, r) in op.results().zip(results) {
                values.insert(key(result.into()), r);
            }
        }
        Err(fail(function.location(), "a function body without func.return"))
    }

    fn read_call(&mut self, op: OperationRef<'c, 'a>, operands: &[Ref]) -> Result<Vec<Ref>, PassError> {
        let callee = attribute(&op, "callee").map(|c| c.to_string()).unwrap_or_default();
        let name = callee.trim_start_matches('@').to_owned();
        let Some(&function) = self.functions.get(&name) else {
            return Err(fail(
                op.location(),
                &format!("call to {callee}, which is not a function of the module"),
            ));
        };
        if self.calls.contains(&name) {
            return Err(fail(op.location(), &format!("recursive call to {callee}")));
        }
        self.calls.push(name.clone());
        let (results, _) = self.read_body(function, operands)?;
        self.calls.pop();
        self.inlined.insert(name);
        Ok(results)
    }

    /// Adds one node per result of `op`.
    fn read_op(&mut self, op: OperationRef<'c, 'a>, mut operands: Vec<Ref>) -> Vec<Ref> {
        let site = self.site(op.location());
        let name = op_name(&op);
        if name == "stablehlo.dynamic_iota" {
            // Its shape operand says what the static result type does.
            operands.clear();
        }
        let types: Vec<Option<TensorTy>> = op.results().map(|r| TensorTy::parse(&r.r#type().to_string())).collect();
        let dynamic = || Unsupported::DynamicResult {
            op: name.to_owned(),
            ty: op.result_at(0).map(|r| r.r#type().to_string()).unwrap_or_default(),
        };
        let kind = if let Some(compound) = compound::compound_of(op, &operands) {
            let results: Option<Vec<TensorTy>> = types.iter().cloned().collect();
            match compound
                .and_then(|c| compound::expand(&mut self.graph, &c, &operands, &results.ok_or_else(dynamic)?, site))
            {
                Ok(results) => return results,
                Err(why) => Kind::Unsupported(why),
            }
        } else {
            match types.as_slice() {
                [Some(ty)] => kind_of(op, &operands, &self.graph)
                    .and_then(|kind| {
                        let types: Vec<&TensorTy> = operands.iter().map(|&r| self.graph.ty(r)).collect();
                        graph::check(&kind, &types, ty).map_err(|why| Unsupported::Malformed {
                            op: name.to_owned(),
                            why,
                        })?;
                        Ok(kind)
                    })
                    .unwrap_or_else(Kind::Unsupported),
                [None] => Kind::Unsupported(dynamic()),
                _ => Kind::Unsupported(Unsupported::Results {
                    op: name.to_owned(),
                    results: types.len(),
                }),
            }
        };
        types
            .into_iter()
            .map(|ty| {
                self.graph.nodes.push(Node {
                    kind: kind.clone(),
                    operands: operands.clone(),
                    ty: ty.unwrap_or_else(|| TensorTy::new(vec![], "none")),
                    site,
                });
                Ref::Node(self.graph.nodes.len() - 1)
            })
            .collect()
    }
}

/// What `op` computes, or why it has no dist form.
fn kind_of(op: OperationRef, operands: &[Ref], graph: &Graph) -> Result<Kind, Unsupported> {
    let name = op_name(&op);
    let text = |attribute: &'static str| {
        dist_dialect::ir::attribute(&op, attribute)
            .map(|a| a.to_string())
            .ok_or_else(|| Unsupported::MissingAttribute {
                op: name.to_owned(),
                attribute,
            })
    };
    let array = |attribute: &'static str| {
        i64_array_attribute(&op, attribute).ok_or_else(|| Unsupported::MissingArray {
            op: name.to_owned(),
            attribute,
        })
    };
    let Some(short) = name.strip_prefix("stablehlo.") else {
        return match name {
            "sdy.sharding_constraint" => {
                let (mesh, dims) = syntax::sdy_sharding(&text("sharding")?)?;
                Ok(Kind::ShardingConstraint(Sharding::new(
                    mesh,
                    &dims.iter().map(Vec::as_slice).collect::<Vec<_>>(),
                )))
            }
            "sdy.manual_computation" => Err(Unsupported::ManualComputation),
            // torch-mlir writes scalar literals as arith constants.
            "arith.constant" => {
                let value = text("value")?;
                Ok(Kind::Constant(Dense::parse(&value)?, value))
            }
            "chlo.square" => Ok(Kind::Unary(Unary::Square)),
            "chlo.erf" => Ok(Kind::Unary(Unary::Erf)),
            "chlo.erfc" => Ok(Kind::Unary(Unary::Erfc)),
            "chlo.atan" => Ok(Kind::Unary(Unary::Atan)),
            _ => Err(Unsupported::NoMapping(name.to_owned())),
        };
    };
    let unary = |u| Ok(Kind::Unary(u));
    let binary = |b| Ok(Kind::Binary(b));
    match short {
        "constant" => {
            let value = text("value")?;
            Ok(Kind::Constant(Dense::parse(&value)?, value))
        }
        // A dynamic_iota of a static result type is an iota (its shape
        // operand is dropped by the reader).
        "iota" | "dynamic_iota" => Ok(Kind::Iota(
            dimension(text("iota_dimension")?).ok_or(Unsupported::IotaDimension)?,
        )),
        "broadcast_in_dim" => Ok(Kind::BroadcastInDim(array("broadcast_dimensions")?)),
        "reshape" => Ok(Kind::Reshape),
        "transpose" => Ok(Kind::Transpose(array("permutation")?)),
        // Strided slices, interior padding and two-input reductions are
        // compounds, read before.
        "slice" => Ok(Kind::Slice {
            start: array("start_indices")?,
            limit: array("limit_indices")?,
        }),
        "concatenate" => Ok(Kind::Concatenate(dimension(text("dimension")?).ok_or_else(|| {
            Unsupported::MissingAttribute {
                op: name.to_owned(),
                attribute: "dimension",
            }
        })?)),
        "pad" => Ok(Kind::Pad {
            low: array("edge_padding_low")?,
            high: array("edge_padding_high")?,
        }),
        "convert" => Ok(Kind::Convert),
        "negate" => unary(Unary::Neg),
        "exponential" => unary(Unary::Exp),
        "log" => unary(Unary::Log),
        "log_plus_one" => unary(Unary::Log1p),
        "exponential_minus_one" => unary(Unary::Expm1),
        "tanh" => unary(Unary::Tanh),
        "rsqrt" => unary(Unary::Rsqrt),
        "sqrt" => unary(Unary::Sqrt),
        "logistic" => unary(Unary::Logistic),
        "abs" => unary(Unary::Abs),
        "sign" => unary(Unary::Sign),
        "floor" => unary(Unary::Floor),
        "ceil" => unary(Unary::Ceil),
        "round_nearest_even" => unary(Unary::Round),
        "sine" => unary(Unary::Sine),
        "cosine" => unary(Unary::Cosine),
        "add" => binary(Binary::Add),
        "subtract" => binary(Binary::Sub),
        "multiply" => binary(Binary::Mul),
        "divide" => binary(Binary::Div),
        "maximum" => binary(Binary::Max),
        "minimum" => binary(Binary::Min),
        "power" => binary(Binary::Pow),
        "remainder" => binary(Binary::Rem),
        "and" => binary(Binary::And),
        "or" => binary(Binary::Or),
        "xor" => binary(Binary::Xor),
        "not" => Ok(Kind::Not),
        "is_finite" => Ok(Kind::IsFinite),
        "compare" => {
            if let Some(ty) = dist_dialect::ir::attribute(&op, "compare_type").map(|a| a.to_string()) {
                let element = operands
                    .first()
                    .map(|&x| graph.ty(x).element.clone())
                    .unwrap_or_default();
                let word = syntax::enum_word(&ty).unwrap_or_default();
                let fits = match word {
                    "FLOAT" => TensorTy::new(vec![], &element).is_float(),
                    "SIGNED" => element.starts_with('i') && element != "i1",
                    "UNSIGNED" => element == "i1",
                    _ => false,
                };
                if !fits {
                    return Err(Unsupported::CompareType(ty));
                }
            }
            let direction = text("comparison_direction")?;
            syntax::enum_word(&direction)
                .and_then(CompareDirection::from_word)
                .map(Kind::Compare)
                .ok_or_else(|| Unsupported::CompareDirection(direction.clone()))
        }
        "select" => Ok(Kind::Select),
        "clamp" => Ok(Kind::Clamp),
        "reduce" if operands.len() == 2 => Ok(Kind::Reduce {
            dims: array("dimensions")?,
            body: reduce_body(op)?,
        }),
        "reduce" => Err(Unsupported::VariadicReduce),
        "reduce_window" if operands.len() == 2 => {
            let ones = |attribute: &'static str| {
                i64_array_attribute(&op, attribute).is_none_or(|values| values.iter().all(|&v| v == 1))
            };
            if !ones("base_dilations") || !ones("window_dilations") {
                return Err(Unsupported::WindowDilations);
            }
            let window = array("window_dimensions")?;
            let rank = window.len();
            let strides = i64_array_attribute(&op, "window_strides").unwrap_or_else(|| vec![1; rank]);
            let padding = match dist_dialect::ir::attribute(&op, "padding") {
                Some(text) => Dense::parse(&text.to_string())?.values,
                None => vec![0.0; 2 * rank],
            };
            if padding.len() != 2 * rank {
                return Err(Unsupported::Malformed {
                    op: name.to_owned(),
                    why: graph::Malformed::Types,
                });
            }
            Ok(Kind::ReduceWindow {
                window,
                strides,
                padding: padding.chunks(2).map(|p| (p[0] as i64, p[1] as i64)).collect(),
                body: reduce_body(op)?,
            })
        }
        "reduce_window" => Err(Unsupported::WindowDilations),
        "dot_general" => Ok(Kind::DotGeneral(DimNumbers::parse(&text("dot_dimension_numbers")?)?)),
        "dot" => {
            let rank = operands.first().map_or(0, |&lhs| graph.ty(lhs).shape.len());
            let text = format!(
                "#dot<lhs_contracting_dimensions = [{}], rhs_contracting_dimensions = [0]>",
                rank.max(1) - 1
            );
            Ok(Kind::DotGeneral(DimNumbers::parse(&text)?))
        }
        "scatter" if operands.len() == 3 && (matches!(reduce_body(op), Ok(Binary::Add)) || replaces(op)) => {
            Ok(Kind::Scatter {
                dims: DimNumbers::parse(&text("scatter_dimension_numbers")?)?,
                replaces: replaces(op),
            })
        }
        "scatter" => Err(Unsupported::ScatterBody),
        "gather" => Ok(Kind::Gather {
            dims: DimNumbers::parse(&text("dimension_numbers")?)?,
            slice_sizes: array("slice_sizes")?,
        }),
        _ => Err(Unsupported::NoMapping(name.to_owned())),
    }
}

/// Whether a scatter's body returns the update (its second argument).
fn replaces(op: OperationRef) -> bool {
    let Some(block) = op.region_at(0).and_then(|r| r.first_block()) else {
        return false;
    };
    let ops = block_ops(block);
    let update: Option<Value> = block_argument(&block, 1).map(Into::into);
    matches!(ops.as_slice(), [ret] if op_name(ret) == "stablehlo.return" && ret.operand_count() == 1
        && ret.operand_at(0) == update)
}

/// A dim attribute as MLIR prints it (`2 : i64`).
fn dimension(text: String) -> Option<usize> {
    text.split(':').next()?.trim().parse().ok()
}

/// The binary op a `reduce` body applies to its two arguments.
fn reduce_body(op: OperationRef) -> Result<Binary, Unsupported> {
    let refused = || Unsupported::ReduceBody;
    let block = op.region_at(0).and_then(|r| r.first_block()).ok_or_else(refused)?;
    let ops = block_ops(block);
    let [apply, ret] = ops.as_slice() else {
        return Err(refused());
    };
    let args: Vec<Value> = (0..2)
        .filter_map(|i| block_argument(&block, i).map(Into::into))
        .collect();
    let operands: Vec<Value> = apply.operands().collect();
    let reads_args = operands.len() == 2
        && args.len() == 2
        && (operands == args || operands.iter().rev().copied().collect::<Vec<_>>() == args);
    let returns_it = op_name(ret) == "stablehlo.return" && ret.operand_at(0) == apply.result_at(0).map(Into::into);
    let body = match op_name(apply) {
        "stablehlo.add" => Binary::Add,
        "stablehlo.maximum" => Binary::Max,
        "stablehlo.minimum" => Binary::Min,
        "stablehlo.and" => Binary::And,
        "stablehlo.or" => Binary::Or,
        _ => return Err(refused()),
    };
    (reads_args && returns_it).then_some(body).ok_or_else(refused)
}
