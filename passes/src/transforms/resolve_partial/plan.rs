//! What `dist-resolve-partial` inserts, decided in pure Rust: for every
//! value some use needs in another layout, a tree of steps (collectives and
//! scales) from the value to each layout its uses want, sharing common
//! prefixes; and the buckets that coalesce gradient all_reduces.

use crate::sharding::needs::{Need, Use};
use crate::sharding::solver::{Layout, Value, forward_transfer, layout_text};
use crate::vocabulary::comm::local_numel;
use crate::vocabulary::rules::{Axes, Axis, Transfer};
use dist_dialect::ReductionKind;
use thiserror::Error;

/// A layout no chain of collectives turns into the one a use needs.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("cannot turn a value sharded {from} into {to}")]
pub struct Unreachable {
    pub from: String,
    pub to: String,
}

/// How a partial `avg` is reduced.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AvgLowering {
    /// A `sum` collective, then a scale by 1/N (MPI has no average).
    #[default]
    SumThenScale,
    /// An `avg` collective (NCCL's `ncclAvg`).
    Native,
}

/// One inserted op.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    Collective(Transfer),
    /// A multiplication by `1 / divisor`.
    Scale {
        divisor: i64,
    },
    /// A `dist.cast` to `to`: into a reduction's wire type, or back.
    Cast {
        to: Precision,
    },
}

/// The float types a reduction's casts convert between.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Precision {
    F32,
    BF16,
    F16,
}

/// For a value whose partial reductions run in another type: that type
/// (the wire's) and the value's own, which the result is cast back to.
pub type Wire = Option<(Precision, Precision)>;

/// One inserted op: `step` applied to its parent (the value itself when
/// `parent` is `None`), producing `layout`.
#[derive(Debug, Clone)]
pub struct Node {
    pub step: Step,
    pub layout: Layout,
    pub parent: Option<usize>,
    /// The uses that read this node's result.
    pub uses: Vec<Use>,
}

/// Everything inserted for one value, parents before children.
#[derive(Debug, Clone)]
pub struct Resolution {
    pub value: usize,
    pub nodes: Vec<Node>,
}

/// A gradient bucket: root all_reduce nodes (resolution index, node index)
/// over the same axes and kind, in the order their values are defined.
pub type Bucket = Vec<(usize, usize)>;

#[derive(Debug, Clone, Default)]
pub struct Plan {
    pub resolutions: Vec<Resolution>,
    /// Buckets of two or more all_reduces.
    pub buckets: Vec<Bucket>,
}

/// The mesh and values a plan is made for.
pub struct Context<'a> {
    pub axis_sizes: &'a [i64],
    pub axis_names: &'a [String],
    /// The values (for their shapes).
    pub values: &'a [Value],
    /// Bytes of one element of each value.
    pub element_bytes: &'a [u64],
    /// Each value's element type, as an identity (a bucket is one buffer
    /// of one type).
    pub element_types: &'a [usize],
    /// Each value's reduction type, where it is not its own.
    pub wires: &'a [Wire],
    pub layouts: &'a [Layout],
    pub order: &'a ProgramOrder,
}

/// Where values are defined and read, as positions in the function body.
#[derive(Debug, Clone, Default)]
pub struct ProgramOrder {
    /// Where each value is defined (`None` for an argument).
    pub defined_at: Vec<Option<usize>>,
    /// Where each solver op reads its operands.
    pub read_at: Vec<usize>,
    /// Whether each solver op is an optimizer step (it reads gradients).
    pub reads_gradients: Vec<bool>,
}

impl ProgramOrder {
    /// The solver op that first reads a node of `resolution`, if any op
    /// does (results are read by the return, after every op).
    pub fn first_reader(&self, resolution: &Resolution) -> Option<usize> {
        resolution
            .nodes
            .iter()
            .flat_map(|n| &n.uses)
            .filter_map(|u| u.op())
            .min_by_key(|&op| self.read_at[op])
    }
}

impl Context<'_> {
    fn product(&self, axes: &[Axis]) -> i64 {
        axes.iter().map(|&a| self.axis_sizes[a as usize]).product()
    }

    /// Bytes each device holds of `value` in its own layout.
    pub fn local_bytes(&self, value: usize) -> u64 {
        let numel = local_numel(&self.values[value].shape, &self.layouts[value].dims, self.axis_sizes);
        numel as u64 * self.element_bytes[value]
    }

    pub fn describe(&self, layout: &Layout) -> String {
        layout_text(self.axis_names, layout)
    }
}

/// The steps that turn a value of layout `from` into one of layout `to`,
/// each with the layout it produces.
///
/// Partial axes `to` does not keep are reduced first, while the value is
/// largest in no dim: a reduce_scatter for those `to` appends to a dim that
/// needs nothing else (each device reduces only its slice), one all_reduce
/// over the rest. Then dims: an all_to_all where a dim's trailing axes move
/// to another dim, slices of free axes before gathers (less to gather),
/// gathers, the remaining slices.
///
/// With a `wire`, the reductions run in its type: a cast before the first,
/// and one back after the last (and after the scale of an avg).
pub fn steps(
    ctx: &Context<'_>,
    from: &Layout,
    to: &Layout,
    avg: AvgLowering,
    wire: Wire,
) -> Result<Vec<(Step, Layout)>, Unreachable> {
    let mut out: Vec<(Step, Layout)> = Vec::new();
    let mut current = from.clone();
    let mut push = |step: Step, current: &mut Layout| {
        if let Step::Collective(t) = &step {
            *current = forward_transfer(t, current);
        }
        out.push((step, current.clone()));
    };
    let cannot = || Unreachable {
        from: ctx.describe(from),
        to: ctx.describe(to),
    };
    let kept: &[Axis] = to.partial.as_ref().map_or(&[], |p| &p.axes);
    if let Some(want) = &to.partial {
        let have = from.partial.as_ref().ok_or_else(cannot)?;
        if have.kind != want.kind || !want.axes.iter().all(|a| have.axes.contains(a)) {
            return Err(cannot());
        }
    }
    if let Some(partial) = from.partial.clone() {
        let mut reduce: Axes = partial.axes.iter().copied().filter(|a| !kept.contains(a)).collect();
        let reduced = ctx.product(&reduce);
        let wire = wire.filter(|_| !reduce.is_empty());
        if let Some((over, _)) = wire {
            push(Step::Cast { to: over }, &mut current);
        }
        let kind = match (partial.kind, avg) {
            (ReductionKind::Avg, AvgLowering::SumThenScale) => ReductionKind::Sum,
            (kind, _) => kind,
        };
        for d in 0..current.dims.len() {
            let (have, want) = (&current.dims[d], &to.dims[d]);
            if !want.starts_with(have) {
                continue;
            }
            let run: Vec<Axis> = want[have.len()..]
                .iter()
                .copied()
                .take_while(|a| reduce.contains(a))
                .collect();
            if run.is_empty() {
                continue;
            }
            reduce = reduce.iter().copied().filter(|a| !run.contains(a)).collect();
            let transfer = Transfer::Reduce {
                axes: run,
                kind,
                scatter_dim: Some(d),
            };
            push(Step::Collective(transfer), &mut current);
        }
        if !reduce.is_empty() {
            let transfer = Transfer::Reduce {
                axes: reduce.to_vec(),
                kind,
                scatter_dim: None,
            };
            push(Step::Collective(transfer), &mut current);
        }
        if kind != partial.kind && reduced > 1 {
            push(Step::Scale { divisor: reduced }, &mut current);
        }
        if let Some((_, own)) = wire {
            push(Step::Cast { to: own }, &mut current);
        }
    }
    reshard_dims(&mut current, to, &mut push);
    if current != *to {
        return Err(cannot());
    }
    Ok(out)
}

/// The dim part of [`steps`]: `current` and `to` differ only in dims.
fn reshard_dims(current: &mut Layout, to: &Layout, push: &mut impl FnMut(Step, &mut Layout)) {
    let rank = current.dims.len();
    let common = |current: &Layout, d: usize| {
        current.dims[d]
            .iter()
            .zip(&to.dims[d])
            .take_while(|(a, b)| a == b)
            .count()
    };
    let extra = |current: &Layout, d: usize| -> Axes { Axes::from_slice(&current.dims[d][common(current, d)..]) };
    let missing = |current: &Layout, d: usize| -> Axes { Axes::from_slice(&to.dims[d][common(current, d)..]) };
    // Trailing axes of one dim that another dim wants next: one all_to_all.
    for concat_dim in 0..rank {
        let axes = extra(current, concat_dim);
        if axes.is_empty() {
            continue;
        }
        let target = (0..rank)
            .find(|&d| d != concat_dim && extra(current, d).is_empty() && missing(current, d).starts_with(&axes));
        if let Some(split_dim) = target {
            let transfer = Transfer::AllToAll {
                split_dim,
                concat_dim,
                axes: axes.to_vec(),
            };
            push(Step::Collective(transfer), current);
        }
    }
    let slice = |current: &mut Layout, push: &mut dyn FnMut(Step, &mut Layout), only_free: bool| {
        for d in 0..rank {
            if !extra(current, d).is_empty() {
                continue;
            }
            let used = |a: &Axis| current.dims.iter().any(|dim| dim.contains(a));
            let axes: Vec<Axis> = missing(current, d)
                .iter()
                .copied()
                .take_while(|a| !only_free || !used(a))
                .collect();
            if !axes.is_empty() {
                push(Step::Collective(Transfer::Slice { dim: d, axes }), current);
            }
        }
    };
    slice(current, push, true);
    for d in 0..rank {
        let axes = extra(current, d);
        if !axes.is_empty() {
            push(
                Step::Collective(Transfer::Gather {
                    dim: d,
                    axes: axes.to_vec(),
                }),
                current,
            );
        }
    }
    slice(current, push, false);
}

/// Plans every need: one tree per value, sharing the steps that several
/// target layouts begin with (one reduction per value however many uses
/// read it), or, for the values `per_use` names, one tree per op reading
/// them (a gathered copy that lives for that op only). Resolutions come in
/// value order, so in program order, and a value's trees in use order.
pub fn plan(
    ctx: &Context<'_>,
    needs: &[Need],
    avg: AvgLowering,
    per_use: impl Fn(usize) -> bool,
) -> Result<Plan, (Use, Unreachable)> {
    let mut by_value: Vec<Vec<&Need>> = vec![Vec::new(); ctx.layouts.len()];
    for need in needs {
        by_value[need.value].push(need);
    }
    let mut resolutions = Vec::new();
    for (value, needs) in by_value.iter().enumerate() {
        if !per_use(value) {
            resolutions.extend(resolve(ctx, value, needs, avg)?);
            continue;
        }
        let mut by_op: Vec<(Option<usize>, Vec<&Need>)> = Vec::new();
        for &need in needs {
            let op = need.at.op();
            match by_op.iter_mut().find(|(o, _)| *o == op) {
                Some((_, group)) => group.push(need),
                None => by_op.push((op, vec![need])),
            }
        }
        for (_, group) in by_op {
            resolutions.extend(resolve(ctx, value, &group, avg)?);
        }
    }
    Ok(Plan {
        resolutions,
        buckets: Vec::new(),
    })
}

/// The tree that gives each of `needs` (all of `value`) its layout, if
/// any needs one.
fn resolve(
    ctx: &Context<'_>,
    value: usize,
    needs: &[&Need],
    avg: AvgLowering,
) -> Result<Option<Resolution>, (Use, Unreachable)> {
    if needs.is_empty() {
        return Ok(None);
    }
    let from = &ctx.layouts[value];
    let mut chains: Vec<(Vec<(Step, Layout)>, Use)> = Vec::new();
    for need in needs {
        let chain = steps(ctx, from, &need.layout, avg, ctx.wires[value]).map_err(|e| (need.at, e))?;
        chains.push((chain, need.at));
    }
    // Uses that want different reduce_scatters of a partial value
    // would each reduce it: reduce it whole once instead and slice.
    let first_reductions: Vec<&Step> = chains
        .iter()
        .filter_map(|(c, _)| {
            c.iter()
                .map(|(s, _)| s)
                .find(|s| matches!(s, Step::Collective(Transfer::Reduce { .. })))
        })
        .collect();
    if first_reductions.windows(2).any(|w| w[0] != w[1]) {
        let reduced = Layout {
            dims: from.dims.clone(),
            partial: None,
        };
        for (chain, at) in &mut chains {
            let target = chain
                .last()
                .expect("a chain reaching a reduction is not empty")
                .1
                .clone();
            if target.partial.is_none() {
                let wire = ctx.wires[value];
                let mut full = steps(ctx, from, &reduced, avg, wire).map_err(|e| (*at, e))?;
                full.extend(steps(ctx, &reduced, &target, avg, wire).map_err(|e| (*at, e))?);
                *chain = full;
            }
        }
    }
    continue_from_partial_chains(ctx, value, &mut chains, avg);
    let mut nodes: Vec<Node> = Vec::new();
    for (chain, at) in chains {
        if chain.is_empty() {
            continue;
        }
        let mut parent = None;
        for (step, layout) in chain {
            let existing = nodes
                .iter()
                .position(|n| n.parent == parent && n.step == step && n.layout == layout);
            parent = Some(existing.unwrap_or_else(|| {
                nodes.push(Node {
                    step,
                    layout,
                    parent,
                    uses: Vec::new(),
                });
                nodes.len() - 1
            }));
        }
        nodes[parent.expect("the chain is not empty")].uses.push(at);
    }
    Ok((!nodes.is_empty()).then_some(Resolution { value, nodes }))
}

/// A use that needs the value reduced, where another keeps it partial and
/// moves its dims, would reduce it first and move the dims again: its chain
/// continues instead from a point of the other chain reached by moves
/// alone (the value exactly as partial as it was: nothing reduced, scaled
/// or cast), when the collectives it adds from there cost less than those
/// its own chain adds past what it shares with other uses. The cost is the
/// elements per device each collective reads, an all_reduce's counted
/// twice (a ring passes its buffer twice). An expert output partial over
/// tp crosses ep by all_to_all once, for the combine that keeps it partial
/// and for the backward that needs it whole.
fn continue_from_partial_chains(
    ctx: &Context<'_>,
    value: usize,
    chains: &mut [(Vec<(Step, Layout)>, Use)],
    avg: AvgLowering,
) {
    let (from, shape, wire) = (&ctx.layouts[value], &ctx.values[value].shape, ctx.wires[value]);
    if from.partial.is_none() {
        return;
    }
    let cost = |start: &Layout, chain: &[(Step, Layout)]| {
        let mut reads = start;
        let mut total = 0;
        for (step, layout) in chain {
            if let Step::Collective(transfer) = step {
                let passes = match transfer {
                    Transfer::Reduce { scatter_dim: None, .. } => 2,
                    _ => 1,
                };
                total += passes * local_numel(shape, &reads.dims, ctx.axis_sizes);
            }
            reads = layout;
        }
        total
    };
    let is_move = |step: &Step| matches!(step, Step::Collective(t) if !matches!(t, Transfer::Reduce { .. }));
    for b in 0..chains.len() {
        let own = &chains[b].0;
        let Some(target) = own.last().map(|(_, l)| l.clone()) else {
            continue;
        };
        let shared = (0..chains.len())
            .filter(|&a| a != b)
            .map(|a| chains[a].0.iter().zip(own).take_while(|(x, y)| x == y).count())
            .max()
            .unwrap_or(0);
        let own_start = shared.checked_sub(1).map_or(from, |i| &own[i].1);
        let mut best = (cost(own_start, &own[shared..]), None);
        for (a, (other, _)) in chains.iter().enumerate() {
            if a == b {
                continue;
            }
            let moves = other.iter().take_while(|(step, _)| is_move(step)).count();
            for i in 0..moves {
                let start = &other[i].1;
                let Ok(rest) = steps(ctx, start, &target, avg, wire) else {
                    continue;
                };
                let added = cost(start, &rest);
                if added < best.0 {
                    best = (added, Some(other[..=i].iter().cloned().chain(rest).collect()));
                }
            }
        }
        if let (_, Some(chain)) = best {
            chains[b].0 = chain;
        }
    }
}

/// Groups the gradient reductions (a value's whole tree rooted in one
/// all_reduce, or one reduce_scatter) over the same axes, kind, scatter dim
/// and element type into buckets of at most `capacity` bytes per device,
/// filled in the order the values are defined. A gradient here is a value
/// whose uses that need it reduced are optimizer steps or the return. A
/// bucket is issued where its last member is defined, so a gradient joins
/// only if no reader of the bucket comes before that; one larger than a
/// bucket stays alone.
pub fn bucket(ctx: &Context<'_>, plan: &mut Plan, capacity: u64) {
    struct Open<'k> {
        key: (&'k [Axis], ReductionKind, Option<usize>, usize),
        members: Bucket,
        bytes: u64,
        /// Where the first reader of a member reads (`None`: only the
        /// return does).
        first_read: Option<usize>,
    }
    let order = ctx.order;
    let mut open: Vec<Open<'_>> = Vec::new();
    let mut closed: Vec<Bucket> = Vec::new();
    for (r, resolution) in plan.resolutions.iter().enumerate() {
        let roots: Vec<usize> = (0..resolution.nodes.len())
            .filter(|&n| resolution.nodes[n].parent.is_none())
            .collect();
        let [root] = roots.as_slice() else { continue };
        let Step::Collective(Transfer::Reduce {
            axes,
            kind,
            scatter_dim,
        }) = &resolution.nodes[*root].step
        else {
            continue;
        };
        // Arguments are resolved where they are read, not bucketed.
        let Some(defined) = order.defined_at[resolution.value] else {
            continue;
        };
        let gradient = resolution
            .nodes
            .iter()
            .flat_map(|n| &n.uses)
            .all(|u| u.op().is_none_or(|op| order.reads_gradients[op]));
        if !gradient {
            continue;
        }
        // A bucket goes after its last member: every member's readers must
        // follow that.
        let first_read = order.first_reader(resolution).map(|op| order.read_at[op]);
        let after = |read: Option<usize>| read.is_none_or(|at| at > defined);
        let bytes = ctx.local_bytes(resolution.value);
        let key = (&axes[..], *kind, *scatter_dim, ctx.element_types[resolution.value]);
        let fresh = |members| Open {
            key,
            members,
            bytes,
            first_read,
        };
        match open.iter_mut().find(|o| o.key == key) {
            Some(o) if o.bytes + bytes <= capacity && after(o.first_read) => {
                o.members.push((r, *root));
                o.bytes += bytes;
                o.first_read = o.first_read.into_iter().chain(first_read).min();
            }
            Some(o) => closed.push(std::mem::replace(o, fresh(vec![(r, *root)])).members),
            None => open.push(fresh(vec![(r, *root)])),
        }
    }
    closed.extend(open.into_iter().map(|o| o.members));
    closed.retain(|b| b.len() > 1);
    // Deterministic and in readiness order: by the last member's value.
    closed.sort_by_key(|b| b.iter().map(|&(r, _)| plan.resolutions[r].value).max());
    plan.buckets = closed;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sharding::solver::PartialLayout;

    const SUM: ReductionKind = ReductionKind::Sum;

    fn layout(dims: &[&[Axis]], partial: Option<(&[Axis], ReductionKind)>) -> Layout {
        Layout {
            dims: dims.iter().map(|d| Axes::from_slice(d)).collect(),
            partial: partial.map(|(axes, kind)| PartialLayout {
                axes: Axes::from_slice(axes),
                kind,
            }),
        }
    }

    struct Fixture {
        names: Vec<String>,
        sizes: Vec<i64>,
        values: Vec<Value>,
        bytes: Vec<u64>,
        types: Vec<usize>,
        wires: Vec<Wire>,
        layouts: Vec<Layout>,
        order: ProgramOrder,
    }

    impl Fixture {
        /// Mesh dp=2, tp=4.
        fn new(values: &[(&[i64], Layout)]) -> Self {
            Self {
                names: vec!["dp".into(), "tp".into()],
                sizes: vec![2, 4],
                values: values
                    .iter()
                    .map(|v| Value {
                        shape: v.0.to_vec(),
                        fixed: None,
                    })
                    .collect(),
                bytes: vec![4; values.len()],
                types: vec![0; values.len()],
                wires: vec![None; values.len()],
                layouts: values.iter().map(|v| v.1.clone()).collect(),
                // Value i is op i's result, at position i; the ops read in
                // their order and are no optimizer steps.
                order: ProgramOrder {
                    defined_at: (0..values.len()).map(Some).collect(),
                    read_at: (0..values.len()).collect(),
                    reads_gradients: vec![false; values.len()],
                },
            }
        }

        fn ctx(&self) -> Context<'_> {
            Context {
                axis_sizes: &self.sizes,
                axis_names: &self.names,
                values: &self.values,
                element_bytes: &self.bytes,
                element_types: &self.types,
                wires: &self.wires,
                layouts: &self.layouts,
                order: &self.order,
            }
        }
    }

    fn reduce(axes: &[Axis], kind: ReductionKind, scatter_dim: Option<usize>) -> Step {
        Step::Collective(Transfer::Reduce {
            axes: axes.to_vec(),
            kind,
            scatter_dim,
        })
    }

    fn only_steps(chain: Vec<(Step, Layout)>) -> Vec<Step> {
        chain.into_iter().map(|(s, _)| s).collect()
    }

    #[test]
    fn a_bf16_reduction_runs_in_f32_between_casts() {
        let from = layout(&[&[], &[]], Some((&[0, 1], SUM)));
        let to = layout(&[&[], &[]], None);
        let f = Fixture::new(&[(&[8, 16], from.clone())]);
        let chain = steps(
            &f.ctx(),
            &from,
            &to,
            AvgLowering::default(),
            Some((Precision::F32, Precision::BF16)),
        )
        .unwrap();
        assert_eq!(
            only_steps(chain),
            vec![
                Step::Cast { to: Precision::F32 },
                reduce(&[0, 1], SUM, None),
                Step::Cast { to: Precision::BF16 },
            ]
        );
        // Nothing reduced, nothing cast.
        assert!(
            steps(
                &f.ctx(),
                &to,
                &to,
                AvgLowering::default(),
                Some((Precision::F32, Precision::BF16))
            )
            .unwrap()
            .is_empty()
        );
    }

    #[test]
    fn two_partial_axes_are_one_all_reduce() {
        let f = Fixture::new(&[]);
        let from = layout(&[&[], &[]], Some((&[0, 1], SUM)));
        let to = layout(&[&[], &[]], None);
        let chain = steps(&f.ctx(), &from, &to, AvgLowering::default(), None).unwrap();
        assert_eq!(only_steps(chain), vec![reduce(&[0, 1], SUM, None)]);
    }

    #[test]
    fn a_wanted_split_over_partial_axes_is_a_reduce_scatter() {
        let f = Fixture::new(&[]);
        let from = layout(&[&[0], &[], &[]], Some((&[1], SUM)));
        let to = layout(&[&[0], &[1], &[]], None);
        let chain = steps(&f.ctx(), &from, &to, AvgLowering::default(), None).unwrap();
        assert_eq!(only_steps(chain), vec![reduce(&[1], SUM, Some(1))]);
        // Only part of the partial axes scatter; the rest is all-reduced.
        let from = layout(&[&[], &[]], Some((&[0, 1], SUM)));
        let to = layout(&[&[1], &[]], None);
        let chain = steps(&f.ctx(), &from, &to, AvgLowering::default(), None).unwrap();
        assert_eq!(
            only_steps(chain),
            vec![reduce(&[1], SUM, Some(0)), reduce(&[0], SUM, None)]
        );
    }

    #[test]
    fn avg_is_a_sum_and_a_scale_unless_native() {
        let f = Fixture::new(&[]);
        let from = layout(&[&[]], Some((&[0, 1], ReductionKind::Avg)));
        let to = layout(&[&[]], None);
        let chain = steps(&f.ctx(), &from, &to, AvgLowering::SumThenScale, None).unwrap();
        assert_eq!(
            only_steps(chain),
            vec![reduce(&[0, 1], SUM, None), Step::Scale { divisor: 8 }]
        );
        let chain = steps(&f.ctx(), &from, &to, AvgLowering::Native, None).unwrap();
        assert_eq!(only_steps(chain), vec![reduce(&[0, 1], ReductionKind::Avg, None)]);
        let from = layout(&[&[]], Some((&[1], ReductionKind::Max)));
        let chain = steps(&f.ctx(), &from, &to, AvgLowering::SumThenScale, None).unwrap();
        assert_eq!(only_steps(chain), vec![reduce(&[1], ReductionKind::Max, None)]);
    }

    #[test]
    fn kept_partial_axes_stay() {
        let f = Fixture::new(&[]);
        let from = layout(&[&[]], Some((&[0, 1], SUM)));
        let to = layout(&[&[]], Some((&[0], SUM)));
        let chain = steps(&f.ctx(), &from, &to, AvgLowering::default(), None).unwrap();
        assert_eq!(only_steps(chain), vec![reduce(&[1], SUM, None)]);
        assert!(steps(&f.ctx(), &to, &from, AvgLowering::default(), None).is_err());
    }

    #[test]
    fn dims_reshard_with_the_cheapest_collectives() {
        let f = Fixture::new(&[]);
        let ctx = f.ctx();
        let go = |from: &[&[Axis]], to: &[&[Axis]]| {
            only_steps(
                steps(
                    &ctx,
                    &layout(from, None),
                    &layout(to, None),
                    AvgLowering::default(),
                    None,
                )
                .unwrap(),
            )
        };
        let slice = |dim, axes: &[Axis]| {
            Step::Collective(Transfer::Slice {
                dim,
                axes: axes.to_vec(),
            })
        };
        let gather = |dim, axes: &[Axis]| {
            Step::Collective(Transfer::Gather {
                dim,
                axes: axes.to_vec(),
            })
        };
        assert_eq!(go(&[&[0], &[]], &[&[0], &[1]]), vec![slice(1, &[1])]);
        assert_eq!(go(&[&[0, 1], &[]], &[&[0], &[]]), vec![gather(0, &[1])]);
        assert_eq!(
            go(&[&[1], &[]], &[&[], &[1]]),
            vec![Step::Collective(Transfer::AllToAll {
                split_dim: 1,
                concat_dim: 0,
                axes: vec![1]
            })]
        );
        // Slice the free axis first so that the gather moves less.
        assert_eq!(go(&[&[1], &[]], &[&[], &[0]]), vec![slice(1, &[0]), gather(0, &[1])]);
        // An axis freed by the gather is sliced after it.
        assert_eq!(
            go(&[&[1, 0], &[]], &[&[0], &[1]]),
            vec![gather(0, &[1, 0]), slice(0, &[0]), slice(1, &[1])]
        );
    }

    #[test]
    fn uses_share_one_reduction() {
        let partial = layout(&[&[], &[]], Some((&[1], SUM)));
        let f = Fixture::new(&[(&[8, 16], partial)]);
        let need = |layout, op| Need {
            value: 0,
            layout,
            at: Use::Operand { op, index: 0 },
        };
        let replicated = layout(&[&[], &[]], None);
        let split = layout(&[&[], &[1]], None);
        // The same target twice: one node serving both uses.
        let same_twice = [need(replicated.clone(), 0), need(replicated.clone(), 1)];
        let plan = plan(&f.ctx(), &same_twice, AvgLowering::default(), |_| false).unwrap();
        assert_eq!(plan.resolutions[0].nodes.len(), 1);
        assert_eq!(plan.resolutions[0].nodes[0].uses.len(), 2);
        // Per use: a tree for each op, each reducing again.
        let per_use = super::plan(&f.ctx(), &same_twice, AvgLowering::default(), |v| v == 0).unwrap();
        assert_eq!(per_use.resolutions.len(), 2);
        for (op, r) in per_use.resolutions.iter().enumerate() {
            assert_eq!(r.nodes.len(), 1);
            assert_eq!(r.nodes[0].step, reduce(&[1], SUM, None));
            assert_eq!(r.nodes[0].uses, [Use::Operand { op, index: 0 }]);
        }
        // Replicated and split targets: one all_reduce, then a free slice,
        // not an all_reduce and a reduce_scatter.
        let plan = super::plan(
            &f.ctx(),
            &[need(replicated, 0), need(split, 1)],
            AvgLowering::default(),
            |_| false,
        )
        .unwrap();
        let nodes = &plan.resolutions[0].nodes;
        assert_eq!(nodes.len(), 2);
        assert_eq!(nodes[0].step, reduce(&[1], SUM, None));
        assert_eq!(nodes[1].parent, Some(0));
        assert!(matches!(nodes[1].step, Step::Collective(Transfer::Slice { .. })));
    }

    #[test]
    fn a_reduction_continues_from_a_partial_use_that_moves_the_dims() {
        // An expert output [expert, slot, hidden]: experts over dp,
        // partial over tp. One use keeps it partial with dp moved to the
        // slot dim, the other needs it whole there.
        let partial = layout(&[&[0], &[], &[]], Some((&[1], SUM)));
        let f = Fixture::new(&[(&[4, 8, 16], partial)]);
        let moved_partial = layout(&[&[], &[0], &[]], Some((&[1], SUM)));
        let moved_whole = layout(&[&[], &[0], &[]], None);
        let needs = [
            Need {
                value: 0,
                layout: moved_partial,
                at: Use::Operand { op: 0, index: 0 },
            },
            Need {
                value: 0,
                layout: moved_whole,
                at: Use::Operand { op: 1, index: 0 },
            },
        ];
        let plan = plan(&f.ctx(), &needs, AvgLowering::default(), |_| false).unwrap();
        // One all_to_all for both, then the all_reduce for the second,
        // not an all_reduce and a second all_to_all.
        let nodes = &plan.resolutions[0].nodes;
        assert_eq!(nodes.len(), 2, "{nodes:?}");
        assert!(matches!(nodes[0].step, Step::Collective(Transfer::AllToAll { .. })));
        assert_eq!(nodes[0].uses, [Use::Operand { op: 0, index: 0 }]);
        assert_eq!(nodes[1].parent, Some(0));
        assert_eq!(nodes[1].step, reduce(&[1], SUM, None));
        assert_eq!(nodes[1].uses, [Use::Operand { op: 1, index: 0 }]);
    }

    /// The steps from the value to where `at` reads it, root first.
    fn path_to(resolution: &Resolution, at: Use) -> Vec<Step> {
        let mut node = resolution.nodes.iter().position(|n| n.uses.contains(&at));
        let mut path = Vec::new();
        while let Some(i) = node {
            path.push(resolution.nodes[i].step.clone());
            node = resolution.nodes[i].parent;
        }
        path.reverse();
        path
    }

    #[test]
    fn a_continued_average_is_reduced_and_scaled_whole() {
        let avg = ReductionKind::Avg;
        let partial = layout(&[&[0], &[], &[]], Some((&[1], avg)));
        let f = Fixture::new(&[(&[4, 8, 16], partial)]);
        let needs = [
            Need {
                value: 0,
                layout: layout(&[&[], &[0], &[]], Some((&[1], avg))),
                at: Use::Operand { op: 0, index: 0 },
            },
            Need {
                value: 0,
                layout: layout(&[&[], &[0], &[]], None),
                at: Use::Operand { op: 1, index: 0 },
            },
        ];
        let plan = plan(&f.ctx(), &needs, AvgLowering::default(), |_| false).unwrap();
        let path = path_to(&plan.resolutions[0], Use::Operand { op: 1, index: 0 });
        assert!(
            matches!(path[0], Step::Collective(Transfer::AllToAll { .. })),
            "{path:?}"
        );
        assert_eq!(path[1..], [reduce(&[1], SUM, None), Step::Scale { divisor: 4 }]);
    }

    #[test]
    fn a_reduction_shared_with_a_third_use_is_not_moved() {
        // Reducing after the all_to_all would add an all_reduce where the
        // use now adds only an all_to_all after the reduction it shares.
        let partial = layout(&[&[0], &[], &[]], Some((&[1], SUM)));
        let f = Fixture::new(&[(&[4, 8, 16], partial)]);
        let need = |layout, op| Need {
            value: 0,
            layout,
            at: Use::Operand { op, index: 0 },
        };
        let needs = [
            need(layout(&[&[], &[0], &[]], Some((&[1], SUM))), 0),
            need(layout(&[&[0], &[], &[]], None), 1),
            need(layout(&[&[], &[0], &[]], None), 2),
        ];
        let plan = plan(&f.ctx(), &needs, AvgLowering::default(), |_| false).unwrap();
        let path = path_to(&plan.resolutions[0], Use::Operand { op: 2, index: 0 });
        assert_eq!(path[0], reduce(&[1], SUM, None), "{path:?}");
        assert!(matches!(path[1], Step::Collective(Transfer::AllToAll { .. })));
    }

    #[test]
    fn buckets_fill_in_definition_order() {
        let dp = layout(&[&[]], Some((&[0], SUM)));
        let tp = layout(&[&[]], Some((&[1], SUM)));
        // 400-byte gradients (100 x f32) over dp, one over tp in between.
        let values: Vec<(&[i64], Layout)> = vec![
            (&[100], dp.clone()),
            (&[100], dp.clone()),
            (&[100], tp),
            (&[100], dp.clone()),
            (&[300], dp),
        ];
        let f = Fixture::new(&values);
        let needs: Vec<Need> = (0..values.len())
            .map(|v| Need {
                value: v,
                layout: layout(&[&[]], None),
                at: Use::Result(v),
            })
            .collect();
        let mut plan = plan(&f.ctx(), &needs, AvgLowering::default(), |_| false).unwrap();
        let mut buckets = |capacity| {
            bucket(&f.ctx(), &mut plan, capacity);
            plan.buckets
                .iter()
                .map(|b| b.iter().map(|&(r, _)| plan.resolutions[r].value).collect::<Vec<_>>())
                .collect::<Vec<_>>()
        };
        // dp: 0 and 1 fit (800 bytes), 3 opens a new bucket that 4 (1200
        // bytes, larger than a bucket) does not join; tp is alone.
        assert_eq!(buckets(1000), vec![vec![0, 1]]);
        // 0, 1 and 3 fit in 2000 bytes; 4 alone again.
        assert_eq!(buckets(2000), vec![vec![0, 1, 3]]);
    }

    /// Buckets of 4 dp gradients (400 bytes each, value i defined at
    /// position i), each read by `readers[i]` (`None`: returned), with
    /// `element_types`, in a 2000-byte capacity.
    fn buckets_of(readers: [Option<(usize, bool)>; 4], element_types: [usize; 4]) -> Vec<Vec<usize>> {
        let dp = layout(&[&[]], Some((&[0], SUM)));
        let values: Vec<(&[i64], Layout)> = vec![(&[100], dp); 4];
        let mut f = Fixture::new(&values);
        f.types = element_types.to_vec();
        // Solver ops 0-3 define the values; reader ops 4-7 are placed at the
        // positions `readers` gives.
        f.order.read_at.extend([0; 4]);
        f.order.reads_gradients.extend([false; 4]);
        let needs: Vec<Need> = readers
            .iter()
            .enumerate()
            .map(|(v, reader)| Need {
                value: v,
                layout: layout(&[&[]], None),
                at: match reader {
                    None => Use::Result(v),
                    Some((position, update)) => {
                        f.order.read_at[4 + v] = *position;
                        f.order.reads_gradients[4 + v] = *update;
                        Use::Operand { op: 4 + v, index: 0 }
                    }
                },
            })
            .collect();
        let mut plan = plan(&f.ctx(), &needs, AvgLowering::default(), |_| false).unwrap();
        bucket(&f.ctx(), &mut plan, 2000);
        plan.buckets
            .iter()
            .map(|b| b.iter().map(|&(r, _)| plan.resolutions[r].value).collect())
            .collect()
    }

    #[test]
    fn buckets_hold_gradients_whose_readers_follow_them() {
        let update = |at| Some((at, true));
        // Updates after every gradient: one bucket.
        assert_eq!(
            buckets_of([update(10), update(11), None, update(12)], [0; 4]),
            vec![vec![0, 1, 2, 3]]
        );
        // Value 1 is read by an op that is no optimizer step: no gradient.
        assert_eq!(
            buckets_of([update(10), Some((11, false)), None, update(12)], [0; 4]),
            vec![vec![0, 2, 3]]
        );
        // Value 0's update (at 2) comes before value 2 is defined: the
        // bucket closes there.
        assert_eq!(
            buckets_of([update(2), update(11), None, update(12)], [0; 4]),
            vec![vec![0, 1], vec![2, 3]]
        );
        // An f64 gradient does not share an f32 buffer.
        assert_eq!(
            buckets_of([None, None, None, None], [0, 1, 0, 1]),
            vec![vec![0, 2], vec![1, 3]]
        );
    }
}
