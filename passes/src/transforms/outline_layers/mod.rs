//! The `dist-outline-layers` pass: each run of identical layers of a
//! function becomes calls of one function, so that lowering and code
//! generation see each distinct layer once. Its documentation is [`INFO`]'s
//! description (`dist-opt --help-passes`, docs/passes.md); the search is
//! [`repeats`], plain data.

pub mod repeats;

use crate::error::PassError;
use crate::pass::options::{PassOptions, Positive};
use crate::pass::{DistPass, PassInfo};
use dist_dialect::ir::{
    OperationExt, block_argument, block_ops, clone_op, context_of, erase, insert_before, op_name, replace_all_uses,
    set_attribute, set_operand, string_attribute,
};
use dist_dialect::ops::attr;
use melior::dialect::func;
use melior::ir::attribute::{FlatSymbolRefAttribute, StringAttribute, TypeAttribute};
use melior::ir::operation::OperationLike;
use melior::ir::r#type::FunctionType;
use melior::ir::{Attribute, Block, BlockLike, Identifier, OperationRef, Region, RegionLike, Type, Value, ValueLike};
use repeats::{Op, Repeat, Source};
use rustc_hash::{FxHashMap, FxHashSet};

crate::pass::options::pass_options! {
    /// The options of `dist-outline-layers`.
    pub struct OutlineLayersOptions {
        min_ops: Positive = "min-ops", "8", "The fewest ops a layer body has (default 8)";
    }
}

#[derive(Debug, Default)]
pub struct OutlineLayers {
    options: OutlineLayersOptions,
}

pub const INFO: PassInfo = PassInfo {
    argument: "dist-outline-layers",
    summary: "Outline each run of identical layers into one function called once per layer",
    description: r#"`dist-outline-layers`: finds, in each function, runs of consecutive
copies of one block of ops that are identical up to the values they read
from outside (structural keys: op name, attributes, operand and result
types, and the wiring inside the block), and replaces each run by calls of
one private function, `<function>__layer<N>` (marked `dist.layer`). The
calls carry `no_inline`,
so the lowering and code generation see each distinct layer body once:
compile time stops growing with depth. Nothing in the program marks the
layers: a transformer's forward layers, its backward layers and its
per-layer optimizer updates are found as they are, and layers that
alternate between two kinds repeat in pairs.

At each step the run that saves the most ops is taken (the shortest body
first, then the earliest), then the same is done before and after it. A
body has at least `min-ops` ops. Each function reads what its copy read
from outside (parameters, the previous layer's activations, async
handles) and returns what any copy's surroundings read (activations saved
for the backward, the output, handles waited later), so async
collectives and the waits that overlap placed keep their places.

Preconditions: none. It looks at functions of one block whose ops have no
regions (the per-device program after `dist-partition`; `dist-run` runs it
before `dist-lower-to-cpu`) and leaves other functions as they are.

Before (two identical layers):
```mlir
func.func @step(%x: tensor<8x16xf32>, %w0: tensor<16x16xf32>, %w1: tensor<16x16xf32>) -> tensor<8x16xf32> {
  %0 = dist.matmul %x, %w0 : ...
  %1 = dist.gelu %0 : ...
  %2 = dist.matmul %1, %w1 : ...
  %3 = dist.gelu %2 : ...
  return %3 : tensor<8x16xf32>
}
```
After (`min-ops=2`):
```mlir
func.func @step(%x: tensor<8x16xf32>, %w0: tensor<16x16xf32>, %w1: tensor<16x16xf32>) -> tensor<8x16xf32> {
  %0 = call @step__layer0(%x, %w0) {no_inline} : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  %1 = call @step__layer0(%0, %w1) {no_inline} : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}
func.func private @step__layer0(%arg0: tensor<8x16xf32>, %arg1: tensor<16x16xf32>) -> tensor<8x16xf32>
    attributes {dist.layer} {
  %0 = dist.matmul %arg0, %arg1 : ...
  %1 = dist.gelu %0 : ...
  return %1 : tensor<8x16xf32>
}
```
"#,
    anchor: "builtin.module",
    options: OutlineLayersOptions::info,
    dialects: &["func"],
    create: || Box::new(OutlineLayers::default()),
};

/// The unit attribute that marks a function this pass made.
pub const LAYER: &str = "dist.layer";

/// The name of function `function`'s `index`-th layer body.
pub fn layer_name(function: &str, index: usize) -> String {
    format!("{function}__layer{index}")
}

impl DistPass for OutlineLayers {
    fn options(&mut self) -> Option<&mut dyn PassOptions> {
        Some(&mut self.options)
    }

    fn run(&mut self, module: OperationRef<'_, '_>) -> Result<(), PassError> {
        let Some(body) = module.region_at(0).and_then(|r| r.first_block()) else {
            return Ok(());
        };
        let ops = block_ops(body);
        let mut taken: FxHashSet<String> = ops
            .iter()
            .filter_map(|op| string_attribute(op, attr::SYM_NAME))
            .collect();
        for function in ops {
            if op_name(&function) == "func.func" {
                self.outline_function(function, &mut taken)?;
            }
        }
        Ok(())
    }
}

/// A function's ops as [`Op`]s: each op's key interned from its name,
/// attributes and types, its operands as sources.
pub(crate) struct Listing<'c, 'a> {
    pub ops: Vec<OperationRef<'c, 'a>>,
    pub model: Vec<Op>,
    pub returned: Vec<Source>,
}

pub(crate) fn listing<'c, 'a>(
    block: melior::ir::BlockRef<'c, 'a>,
    terminator: OperationRef<'c, 'a>,
) -> Listing<'c, 'a> {
    let ops: Vec<OperationRef> = block_ops(block).into_iter().filter(|o| *o != terminator).collect();
    let mut defined: FxHashMap<usize, Source> = FxHashMap::default();
    let key_of = |v: Value| v.to_raw().ptr as usize;
    for i in 0..block.argument_count() {
        if let Some(arg) = block_argument(&block, i) {
            defined.insert(key_of(arg.into()), Source::Arg(i));
        }
    }
    let mut keys: FxHashMap<String, u32> = FxHashMap::default();
    let mut model = Vec::with_capacity(ops.len());
    for (i, op) in ops.iter().enumerate() {
        let mut text = op_name(op).to_owned();
        let mut attributes: Vec<(String, String)> = op
            .attributes()
            .map(|(name, value)| {
                (
                    name.as_string_ref().as_str().unwrap_or("").to_owned(),
                    value.to_string(),
                )
            })
            .collect();
        attributes.sort();
        for (name, value) in attributes {
            text.push_str(&format!(" {name}={value}"));
        }
        let operands: Vec<Source> = op
            .operands()
            .map(|v| {
                text.push_str(&format!(" {}", v.r#type()));
                defined.get(&key_of(v)).copied().unwrap_or(Source::Arg(usize::MAX))
            })
            .collect();
        text.push_str(" ->");
        for (r, result) in op.results().enumerate() {
            text.push_str(&format!(" {}", result.r#type()));
            defined.insert(key_of(result.into()), Source::Op(i, r));
        }
        let next = keys.len() as u32;
        let key = *keys.entry(text).or_insert(next);
        // An async collective's handle stays with its wait.
        let local = op.results().any(|r| dist_dialect::ir::is_handle_type(r.r#type()));
        model.push(Op { key, operands, local });
    }
    let returned = terminator
        .operands()
        .map(|v| defined.get(&key_of(v)).copied().unwrap_or(Source::Arg(usize::MAX)))
        .collect();
    Listing { ops, model, returned }
}

impl OutlineLayers {
    fn outline_function(&self, function: OperationRef<'_, '_>, taken: &mut FxHashSet<String>) -> Result<(), PassError> {
        let Some(region) = function.region_at(0) else {
            return Ok(());
        };
        let Some(block) = region.first_block() else {
            return Ok(());
        };
        let Some(terminator) = block.terminator() else {
            return Ok(());
        };
        // Values an op's regions read from above are not operands the
        // search sees: such functions (and those of several blocks, the
        // step's driver loops) are left as they are.
        if block.next_in_region().is_some() || block_ops(block).iter().any(|op| op.region_count() > 0) {
            return Ok(());
        }
        let name = string_attribute(&function, attr::SYM_NAME).unwrap_or_default();
        let listing = listing(block, terminator);
        let mut next = 0;
        // The layer functions follow the function, in the order found.
        let mut after = function;
        for repeat in repeats::find(&listing.model, &listing.returned, self.options.min_ops.0) {
            let mut layer = layer_name(&name, next);
            while taken.contains(&layer) {
                next += 1;
                layer = layer_name(&name, next);
            }
            next += 1;
            taken.insert(layer.clone());
            after = outline(function, after, &listing, repeat, &layer);
        }
        Ok(())
    }
}

/// The values copy `k` reads from outside, in the order of
/// [`repeats::inputs`], as its ops read them now (an earlier outlining may
/// have replaced them by a call's results).
fn live_inputs<'c, 'a>(listing: &Listing<'c, 'a>, repeat: Repeat, k: usize) -> Vec<Value<'c, 'a>> {
    repeats::inputs(&listing.model, repeat, k)
        .into_iter()
        .map(|(_, op, operand)| listing.ops[op].operand_at(operand).expect("an operand per read"))
        .collect()
}

/// Result `r` of op `i` (not yet erased).
fn result_of<'c, 'a>(listing: &Listing<'c, 'a>, i: usize, r: usize) -> Value<'c, 'a> {
    listing.ops[i].result_at(r).expect("a result of the op").into()
}

/// Builds the layer function of `repeat` (after `after`, in `function`'s
/// module) and replaces each copy by a call of it; the new function.
fn outline<'c, 'a>(
    function: OperationRef<'c, 'a>,
    after: OperationRef<'c, 'a>,
    listing: &Listing<'c, 'a>,
    repeat: Repeat,
    layer: &str,
) -> OperationRef<'c, 'a> {
    let context = context_of(&function);
    let location = listing.ops[repeat.start].location();
    let inputs = repeats::inputs(&listing.model, repeat, 0);
    let outputs = repeats::outputs(&listing.model, &listing.returned, repeat);
    let input_types: Vec<Type> = live_inputs(listing, repeat, 0).iter().map(|v| v.r#type()).collect();
    let output_types: Vec<Type> = outputs
        .iter()
        .map(|&(offset, r)| result_of(listing, repeat.start + offset, r).r#type())
        .collect();

    // The body: copy 0's ops, reading the function's arguments for the
    // values from outside.
    let body = Block::new(&input_types.iter().map(|&t| (t, location)).collect::<Vec<_>>());
    let mut cloned: Vec<OperationRef> = Vec::with_capacity(repeat.period);
    for offset in 0..repeat.period {
        let original = listing.ops[repeat.start + offset];
        let copy = body.append_operation(clone_op(original));
        for (k, &source) in listing.model[repeat.start + offset].operands.iter().enumerate() {
            let value: Value = match source {
                Source::Op(i, r) if repeat.copy(0).contains(&i) => {
                    cloned[i - repeat.start].result_at(r).expect("a result").into()
                }
                outside => {
                    let j = inputs
                        .iter()
                        .position(|r| r.0 == outside)
                        .expect("an input of the copy");
                    block_argument(&body, j).expect("an argument per input").into()
                }
            };
            set_operand(copy, k, value);
        }
        cloned.push(copy);
    }
    let returned: Vec<Value> = outputs
        .iter()
        .map(|&(offset, r)| cloned[offset].result_at(r).expect("a result").into())
        .collect();
    body.append_operation(func::r#return(&returned, location));
    let region = Region::new();
    region.append_block(body);
    let ty = FunctionType::new(context, &input_types, &output_types);
    let new_function = func::func(
        context,
        StringAttribute::new(context, layer),
        TypeAttribute::new(ty.into()),
        region,
        &[
            (
                Identifier::new(context, "sym_visibility"),
                StringAttribute::new(context, "private").into(),
            ),
            (Identifier::new(context, LAYER), Attribute::unit(context)),
        ],
        location,
    );
    let module_body = function.block().expect("a function in a module");
    let new_function = module_body.insert_operation_after(after, new_function);

    for k in 0..repeat.count {
        let copy = repeat.copy(k);
        let args = live_inputs(listing, repeat, k);
        let first = listing.ops[copy.start];
        let call = func::call(
            context,
            FlatSymbolRefAttribute::new(context, layer),
            &args,
            &output_types,
            first.location(),
        );
        let call = insert_before(first, call);
        set_attribute(call, "no_inline", Attribute::unit(context));
        for (n, &(offset, r)) in outputs.iter().enumerate() {
            let old = result_of(listing, copy.start + offset, r);
            replace_all_uses(old, call.result_at(n).expect("a result per output"));
        }
        for i in copy.rev() {
            // SAFETY: the copy's values are read only inside it (the rest
            // now reads the call's results); erased users first, and no
            // handle to them is used after.
            #[allow(unsafe_code)]
            unsafe {
                erase(listing.ops[i])
            };
        }
    }
    new_function
}
