//! A step of several stages: a private function per stage holding that
//! stage's work, and the step itself a switch on the device's coordinate
//! along the stage axis that calls its stage's function.

use super::Step;
use crate::pipeline::StageOptions;
use dist_dialect::DistOp;
use dist_dialect::ir::{
    FunctionOpRef, Located, OperationExt, block_argument, body_ops, build_op, clone_op, context_of, erase,
    remove_attribute, set_attribute, set_operand, set_type, symbol_name,
};
use dist_dialect::ops::attr::{self, MICROBATCH_AXIS};
use melior::dialect::{func, scf};
use melior::ir::attribute::{ArrayAttribute, DenseI64ArrayAttribute, FlatSymbolRefAttribute, StringAttribute};
use melior::ir::operation::{OperationBuilder, OperationLike};
use melior::ir::r#type::Type;
use melior::ir::{Attribute, Block, BlockLike, Identifier, OperationRef, Region, RegionLike, Value};

/// Writes `function`'s `count` stages (microbatches on axis
/// `microbatch_axis`) as functions `@<name>_stage<s>` and makes `function`
/// call the one of the device's stage; the mesh the stages run on.
pub(super) fn split<'c>(
    module: OperationRef<'c, '_>,
    function: FunctionOpRef<'c, '_>,
    count: usize,
    microbatch_axis: &str,
    options: &StageOptions,
    trace_jobs: bool,
) -> Result<String, Located<'c>> {
    let operation = function.operation();
    let name = symbol_name(&operation);
    let taken: Vec<String> = body_ops(module).iter().map(symbol_name).collect();
    let context = context_of(&operation);
    let module_body = module
        .region_at(0)
        .and_then(|r| r.first_block())
        .expect("a module body");
    let mut stage_functions = Vec::new();
    let mut mesh = String::new();
    let mut after = operation;
    for stage in 0..count {
        let stage_name = format!("{name}_stage{stage}");
        if taken.contains(&stage_name) {
            return Err(Located::at(
                &operation,
                format!("the module has a symbol @{stage_name} already: the function of stage {stage} takes that name"),
            ));
        }
        let copy = module_body.insert_operation_after(after, clone_op(operation));
        set_attribute(copy, attr::SYM_NAME, StringAttribute::new(context, &stage_name).into());
        set_attribute(copy, "sym_visibility", StringAttribute::new(context, "private").into());
        stage_functions.push((stage_name, FunctionOpRef::try_from(copy).expect("a copy of a function")));
        after = copy;
    }
    // Each stage's parts of the work follow its function.
    for (stage, (_, copy)) in stage_functions.iter().enumerate() {
        mesh = Step::read(*copy, microbatch_axis, options)?.unroll(Some(stage), trace_jobs)?;
        remove_attribute(copy.operation(), MICROBATCH_AXIS);
    }
    let (_, first) = &stage_functions[0];
    call_stages(function, *first, &stage_functions, &mesh, &options.axis.0)?;
    Ok(mesh)
}

/// Replaces `function`'s body by the call of its stage's function,
/// taking the stage functions' signature (`like`'s).
fn call_stages<'c>(
    function: FunctionOpRef<'c, '_>,
    like: FunctionOpRef<'c, '_>,
    stages: &[(String, FunctionOpRef<'c, '_>)],
    mesh: &str,
    axis: &str,
) -> Result<(), Located<'c>> {
    let operation = function.operation();
    let context = context_of(&operation);
    let location = operation.location();
    let entry = operation
        .region_at(0)
        .and_then(|r| r.first_block())
        .expect("a function with a body");
    let (inputs, results) = (like.argument_types(), like.result_types());
    let arguments: Vec<Value<'c, '_>> = inputs
        .iter()
        .enumerate()
        .map(|(i, &ty)| {
            let argument: Value = block_argument(&entry, i).expect("an argument per type").into();
            set_type(argument, ty);
            argument
        })
        .collect();
    function.set_type(&inputs, &results);
    let layouts = |read: &dyn Fn(usize) -> Option<Attribute<'c>>, n: usize| (0..n).map(read).collect::<Vec<_>>();
    function.set_argument_attributes(
        attr::LOCAL,
        &layouts(&|i| like.argument_attribute(i, attr::LOCAL), inputs.len()),
    );
    function.set_result_attributes(
        attr::LOCAL,
        &layouts(&|i| like.result_attribute(i, attr::LOCAL), results.len()),
    );
    let mut old = body_ops(operation);
    let terminator = old.pop().expect("a return");
    let index_type = Type::index(context);
    let axes: Vec<Attribute<'c>> = vec![StringAttribute::new(context, axis).into()];
    let index = build_op(
        DistOp::AxisIndex.name(),
        location,
        &[],
        &[index_type],
        &[
            (
                Identifier::new(context, attr::MESH),
                FlatSymbolRefAttribute::new(context, mesh).into(),
            ),
            (
                Identifier::new(context, attr::AXES),
                ArrayAttribute::new(context, &axes).into(),
            ),
        ],
    )?;
    let index = entry.insert_operation_before(terminator, index);
    // The last stage is the default case: a switch has one.
    let last = stages.len() - 1;
    let regions: Vec<Region<'c>> = std::iter::once(last)
        .chain(0..last)
        .map(|stage| {
            let block = Block::new(&[]);
            let callee = FlatSymbolRefAttribute::new(context, &stages[stage].0);
            let call = block.append_operation(func::call(context, callee, &arguments, &results, location));
            // Each stage compiles as a function of its own: inlined into
            // the switch, every stage's body would be one function's.
            set_attribute(call, "no_inline", Attribute::unit(context));
            let values: Vec<Value> = call.results().map(Into::into).collect();
            block.append_operation(scf::r#yield(&values, location));
            let region = Region::new();
            region.append_block(block);
            region
        })
        .collect();
    let cases: Vec<i64> = (0..last as i64).collect();
    let switch = OperationBuilder::new("scf.index_switch", location)
        .add_operands(&[index.result(0).expect("an index").into()])
        .add_results(&results)
        .add_attributes(&[(
            Identifier::new(context, "cases"),
            DenseI64ArrayAttribute::new(context, &cases).into(),
        )])
        .add_regions_vec(regions)
        .build()
        .map_err(|e| Located::new(location, format!("cannot build scf.index_switch: {e}")))?;
    let switch = entry.insert_operation_before(terminator, switch);
    for (k, result) in switch.results().enumerate() {
        set_operand(terminator, k, result);
    }
    for op in old.into_iter().rev() {
        // SAFETY: the old body's values are read only by the old body
        // (erased from its end) and the return (which reads the switch
        // now); no handle to them is used afterwards.
        #[allow(unsafe_code)]
        unsafe {
            erase(op)
        };
    }
    Ok(())
}
