//! Between MLIR and the solver: reads a function into a [`Problem`] and
//! writes a [`Solution`] back as `dist.sharding` attributes.

use super::solver::{Layout, Op, PartialLayout, Problem, Requirement, Solution, Value};
use crate::error::{PassError, fail};
use crate::ops::rule_for;
use crate::vocabulary::rules::{Axes, Axis, Linearity, MAX_AXES, OpAttrs, OpDesc, Rule};
use dist_dialect::ir::{
    FunctionOpRef, Located, MeshOpRef, OperationExt, ShardingAttribute, attribute, block_argument, block_ops,
    context_of, i64_array_attribute, integer_attribute, is_float_tensor, op_name, reduction_kind, set_attribute,
    sharding_of, static_tensor_shape, string_array_attribute,
};
use dist_dialect::model::{Mesh, Partial};
use dist_dialect::ops::attr::{self, SHARDING};
use dist_dialect::{DistOp, Sharding};
use melior::ir::attribute::{ArrayAttribute, FlatSymbolRefAttribute};
use melior::ir::{
    Attribute, AttributeLike, BlockLike, BlockRef, Location, OperationRef, RegionLike, Type, TypeLike,
    Value as IrValue, ValueLike, operation::OperationLike,
};
use rustc_hash::FxHashMap;
use std::rc::Rc;

type Result<'c, T> = std::result::Result<T, Located<'c>>;

fn error<'c>(location: Location<'c>, message: impl Into<String>) -> Located<'c> {
    Located::new(location, message)
}

/// The MLIR ops behind one solver op.
#[derive(Clone, Copy)]
pub struct OpSite<'c, 'a> {
    /// Where diagnostics go: the op, or the start of an async pair.
    pub op: OperationRef<'c, 'a>,
    /// The op whose results are the solver op's results (the `dist.wait`
    /// of an async pair).
    pub results: OperationRef<'c, 'a>,
}

/// A function read for propagation.
pub struct Graph<'c, 'a> {
    pub function: FunctionOpRef<'c, 'a>,
    pub mesh: Mesh,
    pub problem: Problem,
    pub sites: Vec<OpSite<'c, 'a>>,
    /// The IR value behind each value id.
    pub values: Vec<IrValue<'c, 'a>>,
    /// The `return` and the value id of each function result it returns.
    pub terminator: Option<OperationRef<'c, 'a>>,
    pub returned: Vec<Option<usize>>,
    /// Value id of each tensor argument of the entry block.
    pub arguments: Vec<Option<usize>>,
}

fn is_tensor(ty: Type<'_>) -> bool {
    ty.is_ranked_tensor() || ty.is_tensor()
}

/// The mesh every annotation and collective of `function` names; `None` if
/// it names none (then there is nothing to propagate).
fn function_mesh<'c>(
    function: FunctionOpRef<'c, '_>,
    body: &[OperationRef<'c, '_>],
    pass: &str,
) -> Result<'c, Option<String>> {
    let mut first: Option<String> = None;
    let mut check = |name: &str, at: Location<'c>| match &first {
        None => {
            first = Some(name.to_owned());
            Ok(())
        }
        Some(f) if f == name => Ok(()),
        Some(f) => Err(error(
            at,
            format!("{pass} handles one mesh per function: this uses @{name}, the function also uses @{f}"),
        )),
    };
    // Attributes are uniqued: read each one's mesh once.
    let mut meshes: FxHashMap<*const std::ffi::c_void, Option<String>> = FxHashMap::default();
    let mut mesh_of = |a: Attribute<'c>| {
        meshes
            .entry(a.to_raw().ptr)
            .or_insert_with(|| sharding_of(a).map(|s| s.mesh))
            .clone()
    };
    let location = function.operation().location();
    for i in 0..function.num_arguments() {
        if let Some(mesh) = function.argument_attribute(i, SHARDING).and_then(&mut mesh_of) {
            check(&mesh, location)?;
        }
    }
    for i in 0..function.num_results() {
        if let Some(mesh) = function.result_attribute(i, SHARDING).and_then(&mut mesh_of) {
            check(&mesh, location)?;
        }
    }
    for op in body {
        if let Some(list) = attribute(op, SHARDING).and_then(|a| ArrayAttribute::try_from(a).ok()) {
            for mesh in (0..list.len()).filter_map(|i| list.element(i).ok().and_then(&mut mesh_of)) {
                check(&mesh, op.location())?;
            }
        }
        if let Some(mesh) = attribute(op, "mesh").and_then(|a| FlatSymbolRefAttribute::try_from(a).ok()) {
            check(mesh.value(), op.location())?;
        }
    }
    Ok(first)
}

/// Layouts read from sharding attributes, by attribute: attributes are
/// uniqued and a training step repeats a few, so each is converted once.
#[derive(Default)]
struct LayoutCache(FxHashMap<*const std::ffi::c_void, Layout>);

impl LayoutCache {
    /// The layout of `attribute`, which must be a sharding.
    fn get<'c>(&mut self, mesh: &Mesh, attribute: Attribute<'c>, location: Location<'c>) -> Result<'c, Layout> {
        if let Some(layout) = self.0.get(&attribute.to_raw().ptr) {
            return Ok(layout.clone());
        }
        let sharding = sharding_of(attribute).ok_or_else(|| error(location, "'dist.sharding' must hold shardings"))?;
        let layout = layout_of(mesh, &sharding, location)?;
        self.0.insert(attribute.to_raw().ptr, layout.clone());
        Ok(layout)
    }
}

fn axis_index<'c>(mesh: &Mesh, name: &str, location: Location<'c>) -> Result<'c, Axis> {
    mesh.axis_index(name)
        .map(|a| a as Axis)
        .ok_or_else(|| error(location, format!("mesh @{} has no axis \"{name}\"", mesh.name())))
}

/// The layout of `sharding` on `mesh`; an error for an axis it lacks.
pub fn layout_of<'c>(mesh: &Mesh, sharding: &Sharding, location: Location<'c>) -> Result<'c, Layout> {
    let axes = |names: &[String]| {
        names
            .iter()
            .map(|n| axis_index(mesh, n, location))
            .collect::<Result<Axes>>()
    };
    let dims = sharding.dims.iter().map(|d| axes(d)).collect::<Result<Vec<_>>>()?;
    let partial = match &sharding.partial {
        Some(p) => {
            let mut axes = axes(&p.axes)?;
            axes.sort_unstable();
            Some(PartialLayout { axes, kind: p.kind })
        }
        None => None,
    };
    Ok(Layout { dims, partial })
}

/// The sharding a layout stands for (partial axes in mesh order).
pub fn sharding_for(mesh: &Mesh, layout: &Layout) -> Sharding {
    let name = |a: &Axis| mesh.axes()[*a as usize].name.clone();
    Sharding {
        mesh: mesh.name().to_owned(),
        dims: layout.dims.iter().map(|d| d.iter().map(name).collect()).collect(),
        partial: layout.partial.as_ref().map(|p| Partial {
            axes: p.axes.iter().map(name).collect(),
            kind: p.kind,
        }),
    }
}

fn op_attrs<'c>(op: &OperationRef<'c, '_>, mesh: &Mesh) -> Result<'c, OpAttrs> {
    let mut axes = Vec::new();
    for name in string_array_attribute(op, attr::AXES).unwrap_or_default() {
        let name = name.ok_or_else(|| error(op.location(), "'axes' must hold strings"))?;
        axes.push(axis_index(mesh, &name, op.location())?);
    }
    Ok(OpAttrs {
        transpose_x: op.has_attribute(attr::TRANSPOSE_X),
        transpose_y: op.has_attribute(attr::TRANSPOSE_Y),
        keepdim: op.has_attribute(attr::KEEPDIM),
        dims: i64_array_attribute(op, attr::DIMS).unwrap_or_default(),
        perm: i64_array_attribute(op, attr::PERM).unwrap_or_default(),
        axis: integer_attribute(op, attr::AXIS).unwrap_or(0),
        begin_norm_axis: integer_attribute(op, attr::BEGIN_NORM_AXIS).unwrap_or(0),
        dim: integer_attribute(op, attr::DIM).unwrap_or(0),
        split_dim: integer_attribute(op, attr::SPLIT_DIM).unwrap_or(0),
        concat_dim: integer_attribute(op, attr::CONCAT_DIM).unwrap_or(0),
        axes,
        kind: attribute(op, attr::KIND).and_then(reduction_kind),
        ignore_index: op.has_attribute(attr::IGNORE_INDEX),
    })
}

/// `#dist.sharding` attributes by layout: many values share a layout, so
/// each attribute is built once.
pub struct ShardingAttributes<'m, 'c> {
    mesh: &'m Mesh,
    built: FxHashMap<Layout, Attribute<'c>>,
}

impl<'m, 'c> ShardingAttributes<'m, 'c> {
    pub fn new(mesh: &'m Mesh) -> Self {
        Self {
            mesh,
            built: FxHashMap::default(),
        }
    }

    /// The attribute of `layout`; errors are reported at `location`.
    pub fn get(&mut self, layout: &Layout, location: Location<'c>) -> Result<'c, Attribute<'c>> {
        if let Some(&a) = self.built.get(layout) {
            return Ok(a);
        }
        let a = ShardingAttribute::new(location, &sharding_for(self.mesh, layout))
            .map_err(|e| Located::new(location, e.to_string()))?
            .attribute();
        self.built.insert(layout.clone(), a);
        Ok(a)
    }
}

/// The graph of the function pass `pass` runs on, with any error reported
/// (naming the pass); `None` for a declaration or a function that names no
/// mesh.
pub fn for_pass<'c, 'a>(op: OperationRef<'c, 'a>, pass: &str) -> std::result::Result<Option<Graph<'c, 'a>>, PassError> {
    let function = FunctionOpRef::try_from(op).map_err(|e| fail(op.location(), &e.to_string()))?;
    Ok(build(function, pass)?)
}

/// Builds the graph of `function`; `None` for a declaration or a function
/// that names no mesh.
pub fn build<'c, 'a>(function: FunctionOpRef<'c, 'a>, pass: &str) -> Result<'c, Option<Graph<'c, 'a>>> {
    let operation = function.operation();
    let Some(block) = operation.region_at(0).and_then(|r| r.first_block()) else {
        return Ok(None);
    };
    if block.next_in_region().is_some() {
        return Err(error(
            operation.location(),
            format!("{pass} needs a single-block function body"),
        ));
    }
    let body = block_ops(block);
    let Some(mesh) = read_mesh(function, &body, pass)? else {
        return Ok(None);
    };
    let mut reader = Reader {
        function,
        mesh,
        layouts: LayoutCache::default(),
        values: Vec::new(),
        ir_values: Vec::new(),
        ids: FxHashMap::default(),
        ops: Vec::new(),
        sites: Vec::new(),
        rules: FxHashMap::default(),
    };
    let arguments = reader.read_arguments(block)?;
    let mut requirements = Vec::new();
    let mut terminator = None;
    let mut returned = Vec::new();
    // Async starts waiting for their `dist.wait`, by handle.
    let mut pending: FxHashMap<*const std::ffi::c_void, OperationRef<'c, 'a>> = FxHashMap::default();
    for op in body {
        // The terminator hands values to the function's results.
        if op.next_in_block().is_none() {
            terminator = Some(op);
            (returned, requirements) = reader.read_returned(op)?;
            continue;
        }
        let kind = DistOp::of(&op);
        if kind.is_some_and(DistOp::is_async_start) {
            let handle = op
                .result_at(0)
                .ok_or_else(|| error(op.location(), "an async start has a handle result"))?;
            pending.insert(handle.to_raw().ptr, op);
            continue;
        }
        let site = if kind == Some(DistOp::Wait) {
            let handle = op.operand_at(0).expect("dist.wait has a handle").to_raw().ptr;
            let start = pending
                .remove(&handle)
                .ok_or_else(|| error(op.location(), "dist.wait of a handle not started in this function"))?;
            OpSite { op: start, results: op }
        } else {
            let touches_tensors =
                op.operands().any(|v| is_tensor(v.r#type())) || op.results().any(|v| is_tensor(v.r#type()));
            if kind.is_none() && !touches_tensors {
                continue;
            }
            OpSite { op, results: op }
        };
        reader.read_site(site)?;
    }
    if let Some(start) = pending.into_values().min_by_key(|op| op.location().to_string()) {
        return Err(error(
            start.location(),
            format!("'{}' has no dist.wait in this function", op_name(&start)),
        ));
    }
    let Reader {
        mesh,
        values,
        ir_values,
        ops,
        sites,
        ..
    } = reader;
    let problem = Problem {
        axis_names: mesh.axes().iter().map(|a| a.name.clone()).collect(),
        axis_sizes: mesh.axes().iter().map(|a| a.size).collect(),
        values,
        ops,
        requirements,
    };
    Ok(Some(Graph {
        function,
        mesh,
        problem,
        sites,
        values: ir_values,
        terminator,
        returned,
        arguments,
    }))
}

/// The one mesh of `function`, looked up; `None` if it names none.
fn read_mesh<'c>(
    function: FunctionOpRef<'c, '_>,
    body: &[OperationRef<'c, '_>],
    pass: &str,
) -> Result<'c, Option<Mesh>> {
    let operation = function.operation();
    let Some(mesh_name) = function_mesh(function, body, pass)? else {
        return Ok(None);
    };
    let mesh = MeshOpRef::lookup(&operation, &mesh_name)
        .and_then(|m| m.to_model().ok())
        .ok_or_else(|| {
            error(
                operation.location(),
                format!("no dist.mesh @{mesh_name} is visible here"),
            )
        })?;
    if mesh.axes().len() > MAX_AXES {
        return Err(error(
            operation.location(),
            format!(
                "{pass} handles meshes of at most {MAX_AXES} axes; @{mesh_name} has {}",
                mesh.axes().len()
            ),
        ));
    }
    Ok(Some(mesh))
}

/// The state of reading a function: its values so far and the solver ops.
struct Reader<'c, 'a> {
    function: FunctionOpRef<'c, 'a>,
    mesh: Mesh,
    layouts: LayoutCache,
    values: Vec<Value>,
    ir_values: Vec<IrValue<'c, 'a>>,
    /// Value id of each IR value read.
    ids: FxHashMap<*const std::ffi::c_void, usize>,
    ops: Vec<Op>,
    sites: Vec<OpSite<'c, 'a>>,
    /// Rules by op kind and shapes: a training step repeats a few of them.
    rules: FxHashMap<OpDesc, Rc<Rule>>,
}

impl<'c, 'a> Reader<'c, 'a> {
    /// A new value with `shape`, fixed to `fixed` if annotated.
    fn add_value(&mut self, value: IrValue<'c, 'a>, shape: Vec<i64>, fixed: Option<Layout>) -> usize {
        let id = self.values.len();
        self.ids.insert(value.to_raw().ptr, id);
        self.ir_values.push(value);
        self.values.push(Value { shape, fixed });
        id
    }

    /// The value id of each tensor argument of the entry block.
    fn read_arguments(&mut self, block: BlockRef<'c, 'a>) -> Result<'c, Vec<Option<usize>>> {
        let location = self.function.operation().location();
        let mut arguments = Vec::new();
        for i in 0..block.argument_count() {
            let argument = block_argument(&block, i).expect("index below the argument count");
            let Some(shape) = static_tensor_shape(argument.r#type()) else {
                arguments.push(None);
                continue;
            };
            let fixed = match self.function.argument_attribute(i, SHARDING) {
                Some(a) => Some(self.layouts.get(&self.mesh, a, location)?),
                None => None,
            };
            arguments.push(Some(self.add_value(argument.into(), shape, fixed)));
        }
        Ok(arguments)
    }

    /// The value id of each returned value, and the declared result
    /// shardings as requirements.
    fn read_returned(
        &mut self,
        terminator: OperationRef<'c, 'a>,
    ) -> Result<'c, (Vec<Option<usize>>, Vec<Requirement>)> {
        let location = self.function.operation().location();
        let (mut returned, mut requirements) = (Vec::new(), Vec::new());
        for i in 0..terminator.operand_count().min(self.function.num_results()) {
            let value = terminator
                .operand_at(i)
                .expect("index below the operand count")
                .to_raw()
                .ptr;
            returned.push(self.ids.get(&value).copied());
            let wanted = self.function.result_attribute(i, SHARDING);
            if let (Some(&value), Some(a)) = (self.ids.get(&value), wanted) {
                let layout = self.layouts.get(&self.mesh, a, location)?;
                requirements.push(Requirement {
                    result: i,
                    value,
                    layout,
                });
            }
        }
        Ok((returned, requirements))
    }

    /// One solver op for `site`: its operands, rule and results.
    fn read_site(&mut self, site: OpSite<'c, 'a>) -> Result<'c, ()> {
        let not_static = |what: &str| error(site.op.location(), format!("'{}' has {what}", op_name(&site.op)));
        let mut operand_shapes = Vec::new();
        let mut operand_ids = Vec::new();
        for v in site.op.operands() {
            // An `index` operand (a position offset) is a scalar every
            // device holds whole; the ops take them after their tensors,
            // so the rules' operand positions stand.
            if v.r#type().is_index() {
                continue;
            }
            let shape = static_tensor_shape(v.r#type());
            let id = self.ids.get(&v.to_raw().ptr).copied();
            let (Some(shape), Some(id)) = (shape, id) else {
                return Err(not_static(
                    "an operand that is not a statically shaped tensor of this function",
                ));
            };
            operand_shapes.push(shape);
            operand_ids.push(id);
        }
        let result_shapes = site
            .results
            .results()
            .map(|r| static_tensor_shape(r.r#type()))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| not_static("a result that is not a statically shaped tensor"))?;
        let desc = OpDesc {
            name: op_name(&site.op).to_owned(),
            operands: operand_shapes,
            results: result_shapes.clone(),
            attrs: op_attrs(&site.op, &self.mesh)?,
        };
        let rule = match self.rules.get(&desc) {
            Some(rule) => rule.clone(),
            None => {
                let rule = Rc::new(rule_for(&desc).map_err(|e| error(site.op.location(), e.to_string()))?);
                self.rules.insert(desc, rule.clone());
                rule
            }
        };
        // A partial value is a float: an op that makes booleans or integers
        // (a comparison, a conversion to an integer) is not linear in its
        // operands, whatever its rule says of floats, and reads them whole;
        // a reduction of them keeps its reduced dims whole.
        let discrete = site.results.results().any(|r| !is_float_tensor(r.r#type()));
        let rule = match &*rule {
            Rule::Factor(factor) if discrete => {
                let mut factor = factor.clone();
                factor.linearity = Linearity::None;
                for f in 0..factor.factors.len() {
                    if (0..factor.results.len()).any(|r| factor.is_reduced(f, r)) {
                        factor.factors[f].shardable = false;
                    }
                }
                Rc::new(Rule::Factor(factor))
            }
            _ => rule,
        };
        let fixed = self.result_layouts(&site.results, result_shapes.len())?;
        let mut result_ids = Vec::new();
        for ((result, shape), fixed) in site.results.results().zip(result_shapes).zip(fixed) {
            result_ids.push(self.add_value(result.into(), shape, fixed));
        }
        self.ops.push(Op {
            rule,
            operands: operand_ids,
            results: result_ids,
        });
        self.sites.push(site);
        Ok(())
    }

    /// The layouts `op`'s `dist.sharding` fixes for its `count` results.
    fn result_layouts(&mut self, op: &OperationRef<'c, 'a>, count: usize) -> Result<'c, Vec<Option<Layout>>> {
        let Some(list) = attribute(op, SHARDING) else {
            return Ok(vec![None; count]);
        };
        let list =
            ArrayAttribute::try_from(list).map_err(|_| error(op.location(), "'dist.sharding' must be an array"))?;
        (0..list.len())
            .map(|i| {
                let a = list
                    .element(i)
                    .map_err(|_| error(op.location(), "'dist.sharding' must hold shardings"))?;
                self.layouts.get(&self.mesh, a, op.location()).map(Some)
            })
            .collect()
    }
}

impl<'c, 'a> Graph<'c, 'a> {
    /// Writes the solved layouts of every value that was not fixed.
    pub fn write(&self, solution: &Solution) -> Result<'c, ()> {
        let mut attributes = ShardingAttributes::new(&self.mesh);
        let mut attribute = |value: usize, location: Location<'c>| attributes.get(&solution.layouts[value], location);
        let location = self.function.operation().location();
        let context = context_of(&self.function.operation());
        let mut arguments = Vec::with_capacity(self.arguments.len());
        for id in &self.arguments {
            arguments.push(match *id {
                Some(id) if self.problem.values[id].fixed.is_none() => Some(attribute(id, location)?),
                _ => None,
            });
        }
        if arguments.iter().any(Option::is_some) {
            self.function.set_argument_attributes(SHARDING, &arguments);
        }
        for (site, op) in self.sites.iter().zip(&self.problem.ops) {
            if site.results.has_attribute(SHARDING) || op.results.is_empty() {
                continue;
            }
            let location = site.results.location();
            let list = op
                .results
                .iter()
                .map(|&v| attribute(v, location))
                .collect::<std::result::Result<Vec<_>, _>>()?;
            let list = ArrayAttribute::new(context, &list);
            set_attribute(site.results, SHARDING, list.into());
        }
        Ok(())
    }
}
