//! The plans `dist-auto-parallel` considers, and the rules that prune them
//! before any pass runs. Pure Rust.
//!
//! A plan lays `devices` out as a mesh `["dp"=d, "tp"=t]` (row-major, so a
//! tp group is `t` consecutive devices) and chooses what is not a layout:
//! the ZeRO stage of an optimizer step, recomputation of a forward program's
//! activations. The space is every factorisation `d t = devices` times those
//! choices; the rules below drop a plan that cannot be right or cannot fit
//! whatever the passes make of it.

/// The ZeRO stage, by layouts: the optimizer states split over dp, or the
/// parameters too. (Stages 1 and 2 are one layout here: the gradients a
/// split state reads arrive reduce-scattered.)
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Zero {
    Off,
    States,
    Parameters,
}

impl Zero {
    /// The stage number the table prints.
    pub fn stage(self) -> &'static str {
        match self {
            Self::Off => "0",
            Self::States => "1-2",
            Self::Parameters => "3",
        }
    }
}

/// One point of the space.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plan {
    pub dp: u64,
    pub tp: u64,
    pub zero: Zero,
    pub recompute: bool,
}

impl std::fmt::Display for Plan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "dp={} tp={} zero={} recompute={}",
            self.dp,
            self.tp,
            self.zero.stage(),
            self.recompute
        )
    }
}

/// What the space is drawn from: the devices, the cluster's node, the
/// program's sizes and what the options fix.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Space {
    pub devices: u64,
    pub devices_per_node: u64,
    /// The size of each data argument's batch dim.
    pub batch: Vec<u64>,
    /// The size of each dim the tensor-parallel layout splits.
    pub tp_split: Vec<u64>,
    /// The step has an optimizer step (ZeRO is searched).
    pub optimizer: bool,
    /// Recomputation changes the step (a forward program with residual
    /// blocks): it is searched.
    pub recompute: bool,
    pub fixed_dp: Option<u64>,
    pub fixed_tp: Option<u64>,
}

/// Why a plan was dropped before any pass ran.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Pruned {
    /// An option fixes another dp or tp.
    Fixed,
    /// A tp group (consecutive devices) would span two nodes: tp does not
    /// divide a node's devices, and the devices fill more than one node.
    TpAcrossNodes,
    /// dp does not divide a data argument's batch.
    Batch,
    /// tp does not divide a dim the tensor-parallel layout splits.
    TpSplit,
    /// ZeRO without data parallelism is no ZeRO.
    ZeroWithoutDp,
    /// The model states alone exceed the device's memory.
    Memory,
}

impl Pruned {
    pub fn reason(self) -> &'static str {
        match self {
            Self::Fixed => "an option fixes dp or tp",
            Self::TpAcrossNodes => "tp does not divide a node",
            Self::Batch => "dp does not divide the batch",
            Self::TpSplit => "tp does not divide a split weight dim",
            Self::ZeroWithoutDp => "ZeRO without dp",
            Self::Memory => "model states over the memory",
        }
    }
}

/// The divisors of `n`, ascending.
pub fn divisors(n: u64) -> Vec<u64> {
    let mut low = Vec::new();
    let mut high = Vec::new();
    let mut d = 1;
    while d * d <= n {
        if n.is_multiple_of(d) {
            low.push(d);
            if d * d != n {
                high.push(n / d);
            }
        }
        d += 1;
    }
    low.extend(high.into_iter().rev());
    low
}

impl Space {
    /// Every plan, in a fixed order (tp ascending, then ZeRO, then
    /// recomputation off before on), each with the first rule that drops
    /// it, if any; `memory_floor` gives a plan's lower bound of bytes per
    /// device (the model states), which must not exceed `capacity`.
    pub fn plans(&self, capacity: f64, memory_floor: impl Fn(&Plan) -> u64) -> Vec<(Plan, Option<Pruned>)> {
        let zeros: &[Zero] = if self.optimizer {
            &[Zero::Off, Zero::States, Zero::Parameters]
        } else {
            &[Zero::Off]
        };
        let recomputes: &[bool] = if self.recompute { &[false, true] } else { &[false] };
        let mut plans = Vec::new();
        for tp in divisors(self.devices) {
            let dp = self.devices / tp;
            for &zero in zeros {
                for &recompute in recomputes {
                    let plan = Plan {
                        dp,
                        tp,
                        zero,
                        recompute,
                    };
                    let pruned = self
                        .prune(&plan)
                        .or_else(|| (memory_floor(&plan) as f64 > capacity).then_some(Pruned::Memory));
                    plans.push((plan, pruned));
                }
            }
        }
        plans
    }

    /// The first rule that drops `plan`, in the order of [`Pruned`].
    fn prune(&self, plan: &Plan) -> Option<Pruned> {
        let fixed = |option: Option<u64>, value: u64| option.is_some_and(|v| v != value);
        if fixed(self.fixed_dp, plan.dp) || fixed(self.fixed_tp, plan.tp) {
            Some(Pruned::Fixed)
        } else if self.fixed_tp.is_none()
            && self.devices > self.devices_per_node
            && !self.devices_per_node.is_multiple_of(plan.tp)
        {
            Some(Pruned::TpAcrossNodes)
        } else if self.batch.iter().any(|&b| b % plan.dp != 0) {
            Some(Pruned::Batch)
        } else if self.tp_split.iter().any(|&d| d % plan.tp != 0) {
            Some(Pruned::TpSplit)
        } else if plan.zero != Zero::Off && plan.dp == 1 {
            Some(Pruned::ZeroWithoutDp)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn space(devices: u64) -> Space {
        Space {
            devices,
            devices_per_node: 8,
            batch: vec![8],
            tp_split: vec![64, 32],
            ..Space::default()
        }
    }

    fn kept(space: &Space) -> Vec<(u64, u64)> {
        space
            .plans(f64::INFINITY, |_| 0)
            .into_iter()
            .filter(|(_, pruned)| pruned.is_none())
            .map(|(p, _)| (p.dp, p.tp))
            .collect()
    }

    #[test]
    fn divisors_ascend() {
        assert_eq!(divisors(12), vec![1, 2, 3, 4, 6, 12]);
        assert_eq!(divisors(16), vec![1, 2, 4, 8, 16]);
        assert_eq!(divisors(1), vec![1]);
        assert_eq!(divisors(16384).len(), 15);
    }

    #[test]
    fn every_factorisation_whose_tp_group_is_inside_a_node() {
        // 32 devices: tp 16 and 32 span nodes; dp 32 does not divide the
        // batch of 8.
        assert_eq!(kept(&space(32)), vec![(8, 4), (4, 8)]);
        assert_eq!(kept(&space(8)), vec![(8, 1), (4, 2), (2, 4), (1, 8)]);
    }

    #[test]
    fn the_first_rule_that_drops_a_plan_is_named() {
        let s = Space {
            tp_split: vec![12],
            ..space(8)
        };
        let reasons: Vec<_> = s
            .plans(f64::INFINITY, |_| 0)
            .into_iter()
            .map(|(p, r)| (p.tp, r))
            .collect();
        assert_eq!(
            reasons,
            vec![(1, None), (2, None), (4, None), (8, Some(Pruned::TpSplit))]
        );
    }

    #[test]
    fn devices_of_one_node_take_any_tp() {
        let s = Space {
            batch: vec![6],
            tp_split: vec![],
            ..space(6)
        };
        assert_eq!(kept(&s), vec![(6, 1), (3, 2), (2, 3), (1, 6)]);
    }

    #[test]
    fn fixed_axes_keep_their_value_even_across_nodes() {
        let s = Space {
            fixed_tp: Some(16),
            batch: vec![2],
            tp_split: vec![],
            ..space(32)
        };
        assert_eq!(kept(&s), vec![(2, 16)]);
    }

    #[test]
    fn zero_and_recomputation_multiply_the_plans() {
        let s = Space {
            optimizer: true,
            ..space(2)
        };
        let plans = s.plans(f64::INFINITY, |_| 0);
        // tp 1 (dp 2): three stages; tp 2 (dp 1): ZeRO dropped.
        let zero: Vec<_> = plans.iter().map(|(p, r)| (p.tp, p.zero, *r)).collect();
        assert_eq!(
            zero,
            vec![
                (1, Zero::Off, None),
                (1, Zero::States, None),
                (1, Zero::Parameters, None),
                (2, Zero::Off, None),
                (2, Zero::States, Some(Pruned::ZeroWithoutDp)),
                (2, Zero::Parameters, Some(Pruned::ZeroWithoutDp)),
            ]
        );
        let forward = Space {
            recompute: true,
            ..space(2)
        };
        assert_eq!(forward.plans(f64::INFINITY, |_| 0).len(), 4);
    }

    #[test]
    fn a_plan_whose_model_states_exceed_the_memory_is_dropped_unrun() {
        let plans = space(8).plans(100.0, |p| 800 / p.tp);
        let memory: Vec<_> = plans.iter().map(|(p, r)| (p.tp, *r)).collect();
        assert_eq!(
            memory,
            vec![
                (1, Some(Pruned::Memory)),
                (2, Some(Pruned::Memory)),
                (4, Some(Pruned::Memory)),
                (8, None)
            ]
        );
    }
}
