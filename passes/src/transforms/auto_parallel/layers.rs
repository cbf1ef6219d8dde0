//! Identical layers priced once. A forward program's run of `n > 5`
//! identical layers (as `dist-outline-layers` finds them: equal up to the
//! values they read from outside) is priced from two copies of the step,
//! one keeping 2 of the layers and one keeping 3: a plan's step time,
//! exposed communication, memory and FLOPs at depth `n` are those at depth
//! 3 plus `n - 3` times the difference, so the search costs the same at
//! any depth. Two and three layers rather than one and two: with one layer
//! the memory peak may fall elsewhere (at the logits) than with several.

use super::program::{Split, function_named};
use crate::transforms::outline_layers::listing;
use crate::transforms::outline_layers::repeats::{self, Repeat, Source};
use dist_dialect::ir::OperationExt;
use dist_dialect::ir::{FunctionOpRef, clone_op, erase, has_uses, is_memory_effect_free, replace_all_uses};
use melior::ir::operation::OperationLike;
use melior::ir::{BlockLike, Module, OperationRef, RegionLike};

/// The fewest ops a layer has, as `dist-outline-layers` counts them.
const MIN_LAYER_OPS: usize = 8;

/// The copies the search compiles: the run kept at these depths.
pub const DEPTHS: [usize; 2] = [2, 3];

/// The run of identical layers of `function` the search extrapolates over:
/// the one that repeats the most ops, if it has more copies than the two
/// compiles of [`DEPTHS`] together hold and no value of a copy but the last
/// is read after the run (a skip connection over the dropped layers would
/// have nothing to read). A body of several blocks, or with ops that have
/// regions (whose reads of values from above the listing does not see),
/// has none.
pub fn layer_run(function: FunctionOpRef<'_, '_>) -> Option<Repeat> {
    let block = function.operation().region_at(0)?.first_block()?;
    if block.next_in_region().is_some()
        || dist_dialect::ir::block_ops(block)
            .iter()
            .any(|op| op.region_count() > 0)
    {
        return None;
    }
    let listing = listing(block, block.terminator()?);
    let run = repeats::find(&listing.model, &listing.returned, MIN_LAYER_OPS)
        .into_iter()
        .filter(|r| r.count > DEPTHS[0] + DEPTHS[1])
        .max_by_key(|r| (r.period * (r.count - 1), std::cmp::Reverse(r.start)))?;
    let end = run_range(run).end;
    let last = run.copy(run.count - 1);
    let read_after = listing.model[end..]
        .iter()
        .flat_map(|op| op.operands.iter())
        .chain(&listing.returned);
    let reaches_over = read_after
        .filter_map(|s| match *s {
            Source::Op(i, _) => Some(i),
            Source::Arg(_) => None,
        })
        .any(|i| (run.start..end).contains(&i) && !last.contains(&i));
    (!reaches_over).then_some(run)
}

/// A copy of the module whose step keeps `keep` layers of the run.
pub struct Reduced<'c> {
    pub module: Module<'c>,
    /// The original argument of each of its step's arguments.
    pub kept: Vec<usize>,
}

/// A copy of `module` whose step `function` keeps the first `keep` copies
/// of `run` (`name` the step): what read the last copy reads copy `keep - 1`, the other
/// copies are erased, and so are the arguments only they read.
pub fn reduce<'c>(module: OperationRef<'c, '_>, name: &str, run: Repeat, keep: usize) -> Result<Reduced<'c>, String> {
    let copy = Module::from_operation(clone_op(module)).expect("a copy of a module is one");
    let step = function_named(copy.as_operation(), name);
    let block = step
        .operation()
        .region_at(0)
        .and_then(|r| r.first_block())
        .expect("a step has a body");
    let terminator = block.terminator().expect("a step returns");
    let listing = listing(block, terminator);
    let used: Vec<bool> = (0..block.argument_count())
        .map(|i| dist_dialect::ir::block_argument(&block, i).is_some_and(has_uses))
        .collect();
    let unused = |op: &OperationRef| op.result_count() > 0 && op.results().all(|r| !has_uses(r));
    let dead_before: Vec<bool> = listing.ops.iter().map(unused).collect();
    let (last, target) = (run.copy(run.count - 1), run.copy(keep - 1));
    for (offset, result) in repeats::outputs(&listing.model, &listing.returned, run) {
        let from = listing.ops[last.start + offset].result(result).expect("a layer output");
        let to = listing.ops[target.start + offset]
            .result(result)
            .expect("a layer output");
        replace_all_uses(from, to);
    }
    let dropped = run.copy(keep).start..run.copy(run.count - 1).end;
    for &op in listing.ops[dropped].iter().rev() {
        // SAFETY: what the dropped layers' values were read by outside
        // them now reads the kept copy's; inside them, later ops go first.
        #[allow(unsafe_code)]
        unsafe {
            erase(op)
        };
    }
    // What only the dropped layers read goes with them (each parameter's
    // cast, where a bf16 step casts them all before the layers).
    for (i, &op) in listing.ops.iter().enumerate().rev() {
        if !run_range(run).contains(&i) && !dead_before[i] && unused(&op) && is_memory_effect_free(&op) {
            // SAFETY: its results have no uses; no handle to it is kept.
            #[allow(unsafe_code)]
            unsafe {
                erase(op)
            };
        }
    }
    let erased: Vec<bool> = used
        .iter()
        .enumerate()
        .map(|(i, &was)| was && !dist_dialect::ir::block_argument(&block, i).is_some_and(has_uses))
        .collect();
    if !step.erase_arguments(&erased) {
        return Err("the arguments of the dropped layers cannot be erased".into());
    }
    let kept = (0..erased.len()).filter(|&i| !erased[i]).collect();
    Ok(Reduced { module: copy, kept })
}

/// The layout of the whole step from that of its copy keeping `keep`
/// layers (`kept` its arguments' originals): each argument a dropped layer
/// reads (directly, or through the same chain of one-operand ops before
/// the run, a bf16 step's casts) as the last kept layer reads its own.
/// `None` where some parameter of `params` is left without one.
pub fn spread_layout(
    function: FunctionOpRef<'_, '_>,
    run: Repeat,
    keep: usize,
    kept: &[usize],
    reduced: &[Split],
    params: &[usize],
) -> Option<Vec<Split>> {
    let mut layout = vec![Split::Open; function.num_arguments()];
    for (&original, &split) in kept.iter().zip(reduced) {
        layout[original] = split;
    }
    let block = function.operation().region_at(0)?.first_block()?;
    let model = listing(block, block.terminator()?).model;
    // The argument a layer's operand is, with the keys of the ops between.
    let root = |mut source: Source| {
        let mut chain = Vec::new();
        loop {
            match source {
                Source::Arg(a) => return Some((a, chain)),
                Source::Op(j, _) if j < run.start && model[j].operands.len() == 1 => {
                    chain.push(model[j].key);
                    source = model[j].operands[0];
                }
                Source::Op(..) => return None,
            }
        }
    };
    let target = run.copy(keep - 1);
    for k in keep..run.count {
        for (offset, i) in run.copy(k).enumerate() {
            for (n, &source) in model[i].operands.iter().enumerate() {
                if let (Some((a, chain)), Some((b, twin))) =
                    (root(source), root(model[target.start + offset].operands[n]))
                    && chain == twin
                    && kept.binary_search(&a).is_err()
                {
                    layout[a] = layout[b];
                }
            }
        }
    }
    params.iter().all(|&p| layout[p] != Split::Open).then_some(layout)
}

/// The ops of the whole run.
fn run_range(run: Repeat) -> std::ops::Range<usize> {
    run.start..run.start + run.period * run.count
}

/// `at_3 + extra max(at_3 - at_2, 0)`: a figure at the run's full depth,
/// `extra` layers past the 3 compiled.
pub fn extrapolate(at_2: f64, at_3: f64, extra: usize) -> f64 {
    // A layer adds no less than nothing: a figure that fell from 2 to 3
    // layers (a peak moved elsewhere) is not extrapolated downwards.
    at_3 + extra as f64 * (at_3 - at_2).max(0.0)
}

#[cfg(test)]
mod tests {
    use super::extrapolate;

    #[test]
    fn a_figure_grows_by_its_difference_per_layer() {
        assert_eq!(extrapolate(10.0, 13.0, 5), 28.0);
        assert_eq!(extrapolate(10.0, 10.0, 100), 10.0);
        assert_eq!(extrapolate(10.0, 9.0, 100), 9.0);
    }
}
