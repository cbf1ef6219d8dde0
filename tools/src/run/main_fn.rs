//! The generated `main`: each input read as a global array and cut to the
//! device's shard, the step called (K times with `--repeat`), each result
//! completed to its global value and written from rank 0. It is built at
//! the end of the program's module, followed by the runtime functions it
//! calls.

mod shards;

use super::RunOptions;
use super::signature::Port;
use super::symbols::module_symbols;
use crate::Error;
use dist_dialect::ReductionKind;
use dist_dialect::ir::build::reduction_kind_attribute;
use dist_dialect::ir::build::tensor_type;
use dist_dialect::ir::{MeshOpRef, block_ops};
use dist_dialect::model::{Mesh, symbol_ref};
use dist_dialect::ods::dist;
use dist_passes::conversion::runtime_abi::{self, Element, RuntimeFn};
use dist_passes::conversion::to_runtime::body::{Body, function, private, shape_of};
use dist_passes::conversion::to_runtime::{Group, communicating_groups};
use melior::Context;
use melior::dialect::arith::{self, CmpiPredicate};
use melior::dialect::{func, scf};
use melior::ir::attribute::{ArrayAttribute, FlatSymbolRefAttribute, StringAttribute};
use melior::ir::operation::{OperationLike, OperationMutLike};
use melior::ir::r#type::IntegerType;
use melior::ir::{
    Attribute, Block, BlockLike, Identifier, Location, Module, Region, RegionLike, Type, Value, ValueLike,
};
use shards::{Spread, axes_attribute, first_of_group, per_split_dim};

/// The signature `main` connects: the step's global arguments and results
/// (what the files hold) and its local ones (what one device's step takes).
pub struct Ports<'p> {
    /// The step's symbol in the module.
    pub step: &'p str,
    pub globals: &'p [Port],
    pub global_results: &'p [Port],
    pub locals: &'p [Port],
    pub results: &'p [Port],
}

/// The program's entry point, which the driver defines.
const MAIN: &str = "main";

/// The function `main` calls before the first step to make the
/// communicators of every group the program uses.
const PREPARE_GROUPS: &str = "dist_run_prepare_groups";

/// Adds `main` and the runtime declarations it calls to `module`.
pub fn append(context: &Context, module: &Module<'_>, options: &RunOptions, ports: &Ports<'_>) -> Result<(), Error> {
    let meshes = block_ops(module.body())
        .into_iter()
        .filter_map(|op| MeshOpRef::try_from(op).ok())
        .map(|mesh| mesh.to_model().map_err(|e| Error::Usage(e.to_string())))
        .collect::<Result<Vec<Mesh>, Error>>()?;
    let declarations = runtime_declarations(options);
    // The program's functions were renamed apart; a declaration of its own
    // keeps its name, which may be one of these.
    let taken = module_symbols(module);
    let mut added = [MAIN, PREPARE_GROUPS]
        .into_iter()
        .chain(declarations.iter().map(|f| f.name.as_str()));
    if let Some(name) = added.find(|&name| taken.contains(name)) {
        return Err(Error::Usage(format!(
            "the program declares {}, which dist-run's driver defines or declares itself: rename the declaration",
            symbol_ref(name)
        )));
    }
    let main = Main {
        options,
        ports,
        meshes: &meshes,
        inputs: elements(ports.globals)?,
        outputs: elements(ports.results)?,
    };
    let location = Location::unknown(context);
    // It runs once, and LLVM does not optimize it (`optnone`): compiled at
    // -O3, its SLP vectorizer took time quadratic in the block (10 of the
    // 12 s of codegen of a 2-layer step at -n 4), and a function per input
    // and result instead cost 7 ms of compile time each (a GPT step has 12
    // parameters a layer).
    let passthrough: Vec<Attribute> = ["noinline", "optnone"]
        .map(|name| StringAttribute::new(context, name).into())
        .into();
    let attributes = [(
        Identifier::new(context, "passthrough"),
        ArrayAttribute::new(context, &passthrough).into(),
    )];
    let (main, _) = function(context, MAIN, &[], &attributes, location, |b, _| main.write(b));
    let body = module.body();
    body.append_operation(main);
    if options.partitioned() {
        // After `main`, whose results' gathers communicate too.
        let groups = communicating_groups(&module.as_operation())
            .map_err(|e| Error::Codegen(format!("{}: {}", e.location, e.message)))?;
        let private = [private(context)];
        let (prepare, _) = function(context, PREPARE_GROUPS, &[], &private, location, |b, _| {
            prepare_groups(b, &groups);
            Vec::new()
        });
        body.append_operation(prepare);
    }
    for function in &declarations {
        body.append_operation(function.declaration(context, location));
    }
    Ok(())
}

/// The element of each port, as the runtime reads and writes it (the
/// signature's checks admitted only those).
fn elements(ports: &[Port]) -> Result<Vec<Element>, Error> {
    ports
        .iter()
        .map(|port| {
            Element::named(&port.element)
                .ok_or_else(|| Error::Codegen(format!("internal error: dist-run moves no tensors of {}", port.element)))
        })
        .collect()
}

fn i64_type(context: &Context) -> Type<'_> {
    IntegerType::new(context, 64).into()
}

/// What `main` connects, and the element type of each input and result.
struct Main<'p> {
    options: &'p RunOptions,
    ports: &'p Ports<'p>,
    /// The program's meshes (the group of each collective).
    meshes: &'p [Mesh],
    inputs: Vec<Element>,
    outputs: Vec<Element>,
}

impl Main<'_> {
    /// One block that reads every input, calls the step and writes every
    /// result; returns the exit status.
    fn write<'c, 'b>(&self, b: &Body<'c, 'b>) -> Vec<Value<'c, 'b>> {
        // Before MPI starts threads, which inherit the mode (the program is
        // compiled for it: `codegen::Subnormals::Flushed`).
        b.call(&runtime_abi::flush_subnormals(), &[]);
        if self.options.partitioned() {
            b.call(&runtime_abi::init(), &[]);
        }
        if self.options.gpu {
            b.call(&runtime_abi::use_gpu(), &[]);
        }
        if self.options.partitioned() {
            let prepare = FlatSymbolRefAttribute::new(b.context, PREPARE_GROUPS);
            b.append(func::call(b.context, prepare, &[], &[], b.location));
        }
        // The global and local signatures are one function's, before and
        // after partitioning: they have as many arguments and results.
        let arguments: Vec<Value<'c, 'b>> = (0..self.inputs.len()).map(|k| self.load_input(b, k)).collect();
        let results = self.call_step(b, &arguments);
        for (k, &result) in results.iter().enumerate() {
            self.store_result(b, k, result);
        }
        b.call(&runtime_abi::step("report"), &[]);
        if self.options.partitioned() {
            b.call(&runtime_abi::finalize(), &[]);
        }
        vec![b.constant(0, IntegerType::new(b.context, 32).into())]
    }

    /// Reads input `k` as its global array and cuts the device's shard;
    /// returns the value the step takes.
    fn load_input<'c, 'b>(&self, b: &Body<'c, 'b>, k: usize) -> Value<'c, 'b> {
        let (global, local, element) = (&self.ports.globals[k], &self.ports.locals[k], self.inputs[k]);
        let n: i64 = global.shape.iter().product();
        let (buffer, memory) = b.output(n, element.r#type(b.context));
        let index = b.constant(k as i64, i64_type(b.context));
        let shape = b.descriptor(&global.shape);
        b.call(&runtime_abi::load(element), &[index, buffer, shape]);
        let mut value = b.reshape(b.tensor_of(memory), &global.shape);
        if let Some(s) = local.sharding.as_ref().filter(|_| self.options.partitioned()) {
            value = per_split_dim(b, self.meshes, Spread::Slice, s, value, &local.shape);
            if local.shape != global.shape {
                // The shard, a strided slice of the global array, made
                // contiguous once here: each call of the step would copy
                // it.
                value = b.copied(value);
            }
            if let Some(p) = s.partial.as_ref().filter(|p| p.kind == ReductionKind::Sum) {
                value = first_of_group(b, value, &s.mesh, &p.axes);
            }
        }
        value
    }

    /// Calls the step on `arguments`, `repeat - 1` times in a loop first,
    /// each call timed by the runtime; returns the last call's results.
    fn call_step<'c, 'b>(&self, b: &Body<'c, 'b>, arguments: &[Value<'c, 'b>]) -> Vec<Value<'c, 'b>> {
        let (context, location) = (b.context, b.location);
        let result_types: Vec<Type<'c>> = (self.ports.results.iter().zip(&self.outputs))
            .map(|(port, element)| tensor_type(&port.shape, element.r#type(context)))
            .collect();
        if self.options.repeat > 1 {
            let index = Type::index(context);
            let lower = b.constant(0, index);
            let step = b.constant(1, index);
            let upper = b.constant(self.options.repeat as i64 - 1, index);
            let block = Block::new(&[(index, location)]);
            {
                let body = Body::new(context, &block, location);
                if self.options.gpu && self.options.gpu_graph {
                    self.replayable_step(&body, arguments, &result_types);
                } else {
                    self.timed_step(&body, arguments, &result_types);
                }
                body.append(scf::r#yield(&[], location));
            }
            let region = Region::new();
            region.append_block(block);
            b.append(scf::r#for(lower, upper, step, region, location));
        }
        self.timed_step(b, arguments, &result_types)
    }

    /// One call of the step between the runtime's timer calls. The step
    /// stays a call (`no_inline`): the timing brackets exactly it, and the
    /// repeated calls' unused results cannot be folded away.
    fn timed_step<'c, 'b>(
        &self,
        b: &Body<'c, 'b>,
        arguments: &[Value<'c, '_>],
        result_types: &[Type<'c>],
    ) -> Vec<Value<'c, 'b>> {
        b.call(&runtime_abi::step("begin"), &[]);
        let call = b.append(self.step_call(b.context, arguments, result_types, b.location));
        b.call(&runtime_abi::step("end"), &[]);
        call.results().map(Value::from).collect()
    }

    /// A call of the repeat loop on the GPU: skipped when the runtime
    /// launched the step's captured graph in its place
    /// (`dist_rt_step_replay`).
    fn replayable_step<'c>(&self, b: &Body<'c, '_>, arguments: &[Value<'c, '_>], result_types: &[Type<'c>]) {
        let (context, location) = (b.context, b.location);
        b.call(&runtime_abi::step("begin"), &[]);
        let replayed = b.call(&runtime_abi::step_replay(), &[]).expect("a flag");
        let zero = b.constant(0, IntegerType::new(context, 32).into());
        let run = b.value(arith::cmpi(context, CmpiPredicate::Eq, replayed, zero, location));
        let block = Block::new(&[]);
        block.append_operation(self.step_call(context, arguments, result_types, location));
        block.append_operation(scf::r#yield(&[], location));
        let (then, otherwise) = (Region::new(), Region::new());
        then.append_block(block);
        b.append(scf::r#if(run, &[], then, otherwise, location));
        b.call(&runtime_abi::step("end"), &[]);
    }

    /// The call of the step, which stays a call (`no_inline`).
    fn step_call<'c>(
        &self,
        context: &'c Context,
        arguments: &[Value<'c, '_>],
        result_types: &[Type<'c>],
        location: Location<'c>,
    ) -> melior::ir::Operation<'c> {
        let step = FlatSymbolRefAttribute::new(context, self.ports.step);
        let mut call = func::call(context, step, arguments, result_types, location);
        call.set_inherent_attribute("no_inline", Attribute::unit(context));
        call
    }

    /// Completes result `k` (`value`) to its global value (an all_reduce if
    /// partial, all_gathers along split dims) and writes it from rank 0.
    fn store_result<'c, 'b>(&self, b: &Body<'c, 'b>, k: usize, mut value: Value<'c, 'b>) {
        let (local, global, element) = (&self.ports.results[k], &self.ports.global_results[k], self.outputs[k]);
        let context = b.context;
        if let Some(s) = local.sharding.as_ref().filter(|_| self.options.partitioned()) {
            if let Some(p) = &s.partial {
                let mesh = FlatSymbolRefAttribute::new(context, &s.mesh);
                let kind = reduction_kind_attribute(context, p.kind);
                let ty = value.r#type();
                let axes = axes_attribute(context, &p.axes);
                value = b.value(dist::all_reduce(context, ty, value, mesh, axes, kind, b.location));
            }
            value = per_split_dim(b, self.meshes, Spread::Gather, s, value, &global.shape);
        }
        let shape = shape_of(value);
        let flat = b.reshape(value, &[shape.iter().product()]);
        let buffer = b.buffer_of(flat, false);
        let shape = b.descriptor(&shape);
        let index = b.constant(k as i64, i64_type(context));
        b.call(&runtime_abi::store(element), &[index, buffer, shape]);
    }
}

/// Makes the communicators of `groups` (NCCL's too on the GPU backend),
/// so that the first step creates none.
fn prepare_groups(b: &Body<'_, '_>, groups: &[Group]) {
    let flag = IntegerType::new(b.context, 32).into();
    for group in groups {
        let (mesh, axes) = (b.descriptor(&group.mesh_words), b.descriptor(&group.axis_words));
        let p2p = b.constant(i64::from(group.p2p), flag);
        b.call(&runtime_abi::prepare_group(), &[mesh, axes, p2p]);
    }
}

/// The runtime functions `main` calls.
fn runtime_declarations(options: &RunOptions) -> Vec<RuntimeFn> {
    let mut used: Vec<RuntimeFn> = runtime_abi::IO_ELEMENTS.map(runtime_abi::load).into();
    used.extend(runtime_abi::IO_ELEMENTS.map(runtime_abi::store));
    used.extend(["begin", "end", "report"].map(runtime_abi::step));
    used.push(runtime_abi::flush_subnormals());
    if options.partitioned() {
        used.extend([
            runtime_abi::init(),
            runtime_abi::finalize(),
            runtime_abi::prepare_group(),
        ]);
    }
    if options.gpu {
        used.push(runtime_abi::use_gpu());
        if options.gpu_graph && options.repeat > 1 {
            used.push(runtime_abi::step_replay());
        }
    }
    used
}
