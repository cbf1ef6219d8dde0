//! The generated `main`: each input read as a global array and cut to the
//! device's shard, the step called (K times with `--repeat`), each result
//! completed to its global value and written from rank 0. It is parsed on
//! its own and moved into the program, which is parsed only once.

use super::RunOptions;
use super::signature::Port;
use super::symbols::module_symbols;
use crate::Error;
use dist_dialect::ir::{MeshOpRef, block_ops, move_to_end, print_local, symbol_name, tensor_type_text as tensor};
use dist_dialect::model::Mesh;
use dist_dialect::model::symbol_ref;
use dist_dialect::{ReductionKind, Sharding};
use dist_passes::conversion::runtime_abi::{self, RuntimeFn};
use dist_passes::vocabulary::comm::local_size;
use melior::Context;
use melior::ir::Module;

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

/// Adds `main` and the runtime declarations it calls to `module`.
pub fn append(context: &Context, module: &Module<'_>, options: &RunOptions, ports: &Ports<'_>) -> Result<(), Error> {
    // `main` refers to the meshes and the step: parsed beside copies of the
    // meshes and a declaration of the step, which stay behind.
    let mut source = String::from("module {\n");
    let mut context_ops = 0;
    let mut meshes = Vec::new();
    for op in block_ops(module.body()) {
        if let Ok(mesh) = MeshOpRef::try_from(op) {
            source.push_str(&print_local(&op));
            source.push('\n');
            context_ops += 1;
            meshes.push(mesh.to_model().map_err(|e| Error::Usage(e.to_string()))?);
        }
    }
    source.push_str(&step_declaration(ports));
    context_ops += 1;
    source.push_str(&main_text(options, ports, &meshes));
    source.push_str(&runtime_declarations(options));
    source.push_str("}\n");
    let parsed = Module::parse(context, &source)
        .ok_or_else(|| Error::Codegen("internal error: the generated main does not parse".into()))?;
    let added: Vec<_> = block_ops(parsed.body()).into_iter().skip(context_ops).collect();
    // The program's functions were renamed apart; a declaration of its own
    // keeps its name, which may be one of these.
    let taken = module_symbols(module);
    if let Some(name) = added.iter().map(symbol_name).find(|n| taken.contains(n)) {
        return Err(Error::Usage(format!(
            "the program declares {}, which dist-run's driver defines or declares itself: rename the declaration",
            symbol_ref(&name)
        )));
    }
    let body = module.body();
    for op in added {
        move_to_end(op, &body);
    }
    Ok(())
}

fn step_declaration(ports: &Ports<'_>) -> String {
    let types = |ports: &[Port]| -> Vec<String> { ports.iter().map(|p| tensor(&p.shape, &p.element)).collect() };
    format!(
        "  func.func private {}({}) -> ({})\n",
        symbol_ref(ports.step),
        types(ports.locals).join(", "),
        types(ports.results).join(", ")
    )
}

/// The lines of `main`'s body.
struct Body<'m> {
    text: String,
    /// The program's meshes (the group of each collective).
    meshes: &'m [Mesh],
}

impl Body<'_> {
    fn line(&mut self, line: String) {
        self.text.push_str("    ");
        self.text.push_str(&line);
        self.text.push('\n');
    }

    /// `dist.<op>` (all_slice or all_gather) of `value` along each split
    /// dim of `sharding`, taking that dim from `shape` to `target`'s size;
    /// the results are named `<prefix>_<dim>`. A dim its shards do not
    /// divide moves in whole padded shards (as `dist-partition` moves it):
    /// zeros appended before a slice, the padding cut after a gather.
    /// Returns the last value and its shape.
    fn per_split_dim(
        &mut self,
        op: &str,
        prefix: &str,
        sharding: &Sharding,
        (mut value, mut shape): (String, Vec<i64>),
        target: &[i64],
        element: &str,
    ) -> (String, Vec<i64>) {
        for (d, axes) in sharding.dims.iter().enumerate().filter(|(_, a)| !a.is_empty()) {
            let group = self
                .meshes
                .iter()
                .find(|m| m.name() == sharding.mesh)
                .and_then(|m| m.group_size(axes).ok())
                .unwrap_or(1);
            let whole = local_size(shape[d].max(target[d]), group) * group;
            if op == "all_slice" && whole != shape[d] {
                (value, shape) = self.pad(&format!("{prefix}_pad{d}"), (value, shape), d, whole, element);
            }
            let mut next = shape.clone();
            next[d] = if op == "all_gather" { whole } else { target[d] };
            let names: Vec<String> = axes.iter().map(|a| format!("\"{a}\"")).collect();
            self.line(format!(
                "{prefix}_{d} = dist.{op} {value} on {} axes = [{}] dim = {d} : {} -> {}",
                symbol_ref(&sharding.mesh),
                names.join(", "),
                tensor(&shape, element),
                tensor(&next, element)
            ));
            (value, shape) = (format!("{prefix}_{d}"), next);
            if op == "all_gather" && whole != target[d] {
                (value, shape) = self.cut(&format!("{prefix}_cut{d}"), (value, shape), d, target[d], element);
            }
        }
        (value, shape)
    }

    /// `value` with dim `d` grown to `size` by zeros at its end.
    fn pad(
        &mut self,
        name: &str,
        (value, shape): (String, Vec<i64>),
        d: usize,
        size: i64,
        element: &str,
    ) -> (String, Vec<i64>) {
        let mut wide = shape.clone();
        wide[d] = size;
        let zero = if element.starts_with('f') { "0.0" } else { "0" };
        self.line(format!(
            "{name}_z = arith.constant dense<{zero}> : {}",
            tensor(&wide, element)
        ));
        self.line(format!(
            "{name} = tensor.insert_slice {value} into {name}_z{} : {} into {}",
            leading_slice(&shape),
            tensor(&shape, element),
            tensor(&wide, element)
        ));
        (name.to_owned(), wide)
    }

    /// The first `size` entries of `value` along dim `d`.
    fn cut(
        &mut self,
        name: &str,
        (value, shape): (String, Vec<i64>),
        d: usize,
        size: i64,
        element: &str,
    ) -> (String, Vec<i64>) {
        let mut kept = shape.clone();
        kept[d] = size;
        self.line(format!(
            "{name} = tensor.extract_slice {value}{} : {} to {}",
            leading_slice(&kept),
            tensor(&shape, element),
            tensor(&kept, element)
        ));
        (name.to_owned(), kept)
    }

    /// `shape` as a `memref<?xi64>` named `name` (the runtime's shape
    /// operand); returns that name.
    fn shape_buffer(&mut self, name: &str, shape: &[i64]) -> String {
        let dims: Vec<String> = shape.iter().map(i64::to_string).collect();
        let rank = shape.len();
        self.line(format!(
            "{name}_c = arith.constant dense<[{}]> : tensor<{rank}xi64>",
            dims.join(", ")
        ));
        self.line(format!(
            "{name}_b = bufferization.to_buffer {name}_c read_only : tensor<{rank}xi64> to memref<{rank}xi64>"
        ));
        self.line(format!(
            "{name} = memref.cast {name}_b : memref<{rank}xi64> to memref<?xi64>"
        ));
        name.to_owned()
    }

    /// Reads input `k` as its global array and cuts the device's shard;
    /// returns the value the step takes and its type.
    fn load_input(&mut self, k: usize, global: &Port, local: &Port, sharded: bool) -> (String, String) {
        let n: i64 = global.shape.iter().product();
        let e = &global.element;
        self.line(format!("%m{k} = memref.alloc() : memref<{n}x{e}>"));
        self.line(format!("%mc{k} = memref.cast %m{k} : memref<{n}x{e}> to memref<?x{e}>"));
        self.line(format!("%i{k} = arith.constant {k} : i64"));
        let shape = self.shape_buffer(&format!("%ish{k}"), &global.shape);
        self.line(runtime_abi::load(e).call(&format!("%i{k}, %mc{k}, {shape}")));
        self.line(format!(
            "%t{k} = bufferization.to_tensor %m{k} restrict writable : memref<{n}x{e}> to tensor<{n}x{e}>"
        ));
        let dims: Vec<String> = global.shape.iter().map(i64::to_string).collect();
        self.line(format!(
            "%s{k} = arith.constant dense<[{}]> : tensor<{}xindex>",
            dims.join(", "),
            global.shape.len()
        ));
        self.line(format!(
            "%g{k} = tensor.reshape %t{k}(%s{k}) : (tensor<{n}x{e}>, tensor<{}xindex>) -> {}",
            global.shape.len(),
            tensor(&global.shape, e)
        ));
        let mut value = (format!("%g{k}"), global.shape.clone());
        if let Some(s) = local.sharding.as_ref().filter(|_| sharded) {
            value = self.per_split_dim("all_slice", &format!("%sl{k}"), s, value, &local.shape, e);
            if let Some(p) = s.partial.as_ref().filter(|p| p.kind == ReductionKind::Sum) {
                value.0 = self.first_of_group(k, &value.0, &s.mesh, &p.axes, &tensor(&value.1, e), e);
            }
        }
        let ty = tensor(&value.1, e);
        (value.0, ty)
    }

    /// An argument partial over `axes` (a sum of the devices' values): the
    /// whole `value` on the first device of each group over them, zeros on
    /// the others, so that the sum is the value. (An average, a maximum or
    /// a minimum of equal values is the value: each device takes it.)
    fn first_of_group(&mut self, k: usize, value: &str, mesh: &str, axes: &[String], ty: &str, e: &str) -> String {
        let names: Vec<String> = axes.iter().map(|a| format!("\"{a}\"")).collect();
        self.line(format!(
            "%pi{k} = dist.axis_index {} axes = [{}] : index",
            symbol_ref(mesh),
            names.join(", ")
        ));
        self.line(format!("%pz{k} = arith.constant 0 : index"));
        self.line(format!("%pf{k} = arith.cmpi eq, %pi{k}, %pz{k} : index"));
        let zero = if e.starts_with('f') || e.starts_with("bf") {
            "0.0"
        } else {
            "0"
        };
        self.line(format!("%pzs{k} = arith.constant dense<{zero}> : {ty}"));
        self.line(format!("%pv{k} = arith.select %pf{k}, {value}, %pzs{k} : {ty}"));
        format!("%pv{k}")
    }

    /// Calls the step on `args`, `repeat - 1` times in a loop first, each
    /// call timed by the runtime. The step stays a call (`no_inline`): the
    /// timing brackets exactly it, and the repeated calls' unused results
    /// cannot be folded away.
    fn call_step(&mut self, step: &str, args: &[(String, String)], results: &[Port], repeat: usize) {
        let result_types: Vec<String> = results.iter().map(|r| tensor(&r.shape, &r.element)).collect();
        let call_args: Vec<&str> = args.iter().map(|(v, _)| v.as_str()).collect();
        let arg_types: Vec<&str> = args.iter().map(|(_, t)| t.as_str()).collect();
        let lhs = if results.len() == 1 {
            "%r".to_owned()
        } else {
            format!("%r:{}", results.len())
        };
        let (begin, end) = (runtime_abi::step("begin").call(""), runtime_abi::step("end").call(""));
        let call = |lhs: &str| {
            format!(
                "{lhs} = func.call {}({}) {{no_inline}} : ({}) -> ({})",
                symbol_ref(step),
                call_args.join(", "),
                arg_types.join(", "),
                result_types.join(", ")
            )
        };
        if repeat > 1 {
            self.line("%rep_lb = arith.constant 0 : index".to_owned());
            self.line("%rep_step = arith.constant 1 : index".to_owned());
            self.line(format!("%rep_ub = arith.constant {} : index", repeat - 1));
            self.line("scf.for %rep = %rep_lb to %rep_ub step %rep_step {".to_owned());
            self.line(format!("  {begin}"));
            self.line(format!("  {}", call(&lhs.replace("%r", "%rep_r"))));
            self.line(format!("  {end}"));
            self.line("}".to_owned());
        }
        self.line(begin);
        self.line(call(&lhs));
        self.line(end);
    }

    /// Completes result `k` (the value `name`) to its global value (an
    /// all_reduce if partial, all_gathers along split dims) and writes it
    /// from rank 0.
    fn store_result(&mut self, k: usize, name: &str, local: &Port, global: &Port, sharded: bool) {
        let e = &local.element;
        let (mut value, mut cur) = (name.to_owned(), local.shape.clone());
        if let Some(s) = local.sharding.as_ref().filter(|_| sharded) {
            if let Some(p) = &s.partial {
                let names: Vec<String> = p.axes.iter().map(|a| format!("\"{a}\"")).collect();
                self.line(format!(
                    "%p{k} = dist.all_reduce {value} on {} axes = [{}] kind = {} : {} -> {}",
                    symbol_ref(&s.mesh),
                    names.join(", "),
                    p.kind,
                    tensor(&cur, e),
                    tensor(&cur, e)
                ));
                value = format!("%p{k}");
            }
            (value, cur) = self.per_split_dim("all_gather", &format!("%ag{k}"), s, (value, cur), &global.shape, e);
        }
        let n: i64 = cur.iter().product();
        self.line(format!("%fs{k} = arith.constant dense<[{n}]> : tensor<1xindex>"));
        self.line(format!(
            "%f{k} = tensor.reshape {value}(%fs{k}) : ({}, tensor<1xindex>) -> tensor<{n}x{e}>",
            tensor(&cur, e)
        ));
        self.line(format!(
            "%b{k} = bufferization.to_buffer %f{k} read_only : tensor<{n}x{e}> to memref<{n}x{e}>"
        ));
        self.line(format!("%bc{k} = memref.cast %b{k} : memref<{n}x{e}> to memref<?x{e}>"));
        let shape = self.shape_buffer(&format!("%sh{k}"), &cur);
        self.line(format!("%o{k} = arith.constant {k} : i64"));
        self.line(runtime_abi::store(e).call(&format!("%o{k}, %bc{k}, {shape}")));
    }
}

/// The text of `main`, one block that reads every input, calls the step
/// and writes every result. It runs once, and LLVM does not optimize it
/// (`optnone`): compiled at -O3, its SLP vectorizer took time quadratic in
/// the block (10 of the 12 s of codegen of a 2-layer step at -n 4), and a
/// function per input and result instead cost 7 ms of compile time each (a
/// GPT step has 12 parameters a layer).
fn main_text(options: &RunOptions, ports: &Ports<'_>, meshes: &[Mesh]) -> String {
    let (sharded, gpu) = (options.partitioned(), options.gpu);
    let mut body = Body {
        text: String::new(),
        meshes,
    };
    // Before MPI starts threads, which inherit the mode (the program is
    // compiled for it: `codegen::Subnormals::Flushed`).
    body.line(runtime_abi::flush_subnormals().call(""));
    if sharded {
        body.line(format!("%init = {}", runtime_abi::init().call("")));
    }
    if gpu {
        body.line(format!("%gpu = {}", runtime_abi::use_gpu().call("")));
    }
    let mut args = Vec::new();
    for (k, (global, local)) in ports.globals.iter().zip(ports.locals).enumerate() {
        args.push(body.load_input(k, global, local, sharded));
    }
    body.call_step(ports.step, &args, ports.results, options.repeat);
    let count = ports.results.len();
    for (k, (local, global)) in ports.results.iter().zip(ports.global_results).enumerate() {
        let value = if count == 1 { "%r".to_owned() } else { format!("%r#{k}") };
        body.store_result(k, &value, local, global, sharded);
    }
    body.line(runtime_abi::step("report").call(""));
    if sharded {
        body.line(format!("%fin = {}", runtime_abi::finalize().call("")));
    }
    body.line("%zero = arith.constant 0 : i32".to_owned());
    body.line("return %zero : i32".to_owned());
    format!(
        "  func.func @main() -> i32 attributes {{passthrough = [\"noinline\", \"optnone\"]}} {{\n{}  }}\n",
        body.text
    )
}

/// The runtime functions `main` calls.
fn runtime_declarations(options: &RunOptions) -> String {
    let mut used: Vec<RuntimeFn> = runtime_abi::IO_ELEMENTS.map(runtime_abi::load).into();
    used.extend(runtime_abi::IO_ELEMENTS.map(runtime_abi::store));
    used.extend(["begin", "end", "report"].map(runtime_abi::step));
    used.push(runtime_abi::flush_subnormals());
    if options.partitioned() {
        used.extend([runtime_abi::init(), runtime_abi::finalize()]);
    }
    if options.gpu {
        used.push(runtime_abi::use_gpu());
    }
    used.iter().map(RuntimeFn::declaration).collect()
}

/// The offsets, sizes and strides of a slice of `sizes` at the origin:
/// `[0, 0] [a, b] [1, 1]`.
fn leading_slice(sizes: &[i64]) -> String {
    let list = |values: &[i64]| values.iter().map(i64::to_string).collect::<Vec<_>>().join(", ");
    let rank = sizes.len();
    format!(
        "[{}] [{}] [{}]",
        list(&vec![0; rank]),
        list(sizes),
        list(&vec![1; rank])
    )
}
