//! The order of a block's ops that overlaps collectives with compute: a
//! list schedule over the def-use and effect dependences. Pure Rust.
//!
//! A collective is *due* at the first op that reads its wait's results. At
//! each step the scheduler takes, among the ops whose dependences are all
//! placed: a collective start first (so it is issued right after its last
//! operand's producer); else the compute op that feeds the earliest-due
//! start, in the original order among equals (so the work a collective
//! waits for runs first, and work no collective waits for fills the time a
//! collective is in flight); and a wait only when nothing else is ready
//! (so it lands right before its first use, with every independent op in
//! front of it), the earliest-due first. Without async ops this reproduces
//! the original order. Every rank runs the same program, so every rank
//! issues the collectives in the same (new) order.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// How an op may move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Class {
    /// An async collective start: as early as possible.
    Start,
    /// Compute: in the original order, as far as dependences allow.
    Compute,
    /// A `dist.wait`: as late as possible.
    Wait,
}

/// One op of the block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    pub class: Class,
    /// Ops (indices into the block) that must come before this one.
    pub after: Vec<usize>,
}

/// The schedule: a permutation of `0..nodes.len()`. `nodes` must be in a
/// valid order already (every `after` index below its node's).
pub fn schedule(nodes: &[Node]) -> Vec<usize> {
    let n = nodes.len();
    let mut waiting: Vec<usize> = nodes.iter().map(|node| node.after.len()).collect();
    let mut successors: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, node) in nodes.iter().enumerate() {
        for &p in &node.after {
            successors[p].push(i);
        }
    }
    // A wait is due at its first successor (its earliest reader), a
    // start when its wait is, and compute when the earliest start it feeds
    // is (`n`: never).
    let mut due = vec![n; n];
    for i in (0..n).rev() {
        due[i] = match nodes[i].class {
            Class::Wait => successors[i].iter().copied().min().unwrap_or(n),
            Class::Start => successors[i]
                .iter()
                .filter(|&&s| nodes[s].class == Class::Wait)
                .map(|&s| due[s])
                .min()
                .unwrap_or(n),
            Class::Compute => successors[i]
                .iter()
                .filter(|&&s| nodes[s].class != Class::Wait)
                .map(|&s| due[s])
                .min()
                .unwrap_or(n),
        };
    }
    let mut ready: BinaryHeap<Reverse<(Class, usize, usize)>> = BinaryHeap::new();
    for (i, &w) in waiting.iter().enumerate() {
        if w == 0 {
            ready.push(Reverse((nodes[i].class, due[i], i)));
        }
    }
    let mut order = Vec::with_capacity(n);
    while let Some(Reverse((_, _, i))) = ready.pop() {
        order.push(i);
        for &s in &successors[i] {
            waiting[s] -= 1;
            if waiting[s] == 0 {
                ready.push(Reverse((nodes[s].class, due[s], s)));
            }
        }
    }
    debug_assert_eq!(order.len(), n, "the dependences are acyclic");
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(class: Class, after: &[usize]) -> Node {
        Node {
            class,
            after: after.to_vec(),
        }
    }

    #[test]
    fn without_async_ops_the_order_is_kept() {
        let nodes = [
            node(Class::Compute, &[]),
            node(Class::Compute, &[]),
            node(Class::Compute, &[0]),
            node(Class::Compute, &[1, 2]),
        ];
        assert_eq!(schedule(&nodes), [0, 1, 2, 3]);
    }

    /// Column-parallel backward: dx matmul, start, dW matmul, wait, use.
    #[test]
    fn independent_compute_moves_between_start_and_wait() {
        let nodes = [
            node(Class::Compute, &[]),  // 0: dx = matmul(dout, w^T)
            node(Class::Start, &[0]),   // 1: start(dx)
            node(Class::Wait, &[1]),    // 2: wait
            node(Class::Compute, &[2]), // 3: use of the reduced dx
            node(Class::Compute, &[]),  // 4: dw = matmul(x^T, dout)
            node(Class::Compute, &[4]), // 5: use of dw
        ];
        assert_eq!(schedule(&nodes), [0, 1, 4, 5, 2, 3]);
    }

    #[test]
    fn a_start_is_issued_right_after_its_producer_and_the_due_wait_goes_first() {
        let nodes = [
            node(Class::Compute, &[]),     // 0
            node(Class::Compute, &[]),     // 1
            node(Class::Start, &[1]),      // 2: reads 1
            node(Class::Start, &[0]),      // 3: reads 0
            node(Class::Wait, &[2]),       // 4
            node(Class::Wait, &[3]),       // 5
            node(Class::Compute, &[5]),    // 6: needs 5 first
            node(Class::Compute, &[4, 6]), // 7
        ];
        // 3 is due first (at 6): its input is computed and it is issued
        // first, and its wait comes first.
        assert_eq!(schedule(&nodes), [0, 3, 1, 2, 5, 6, 4, 7]);
    }

    /// Q/K/V backward: three dx summed into one tp all-reduce, needed next;
    /// three dW, each with a dp all-reduce needed only at the end.
    #[test]
    fn work_a_due_collective_waits_for_runs_first() {
        let nodes = [
            node(Class::Compute, &[]),          // 0: dq
            node(Class::Compute, &[]),          // 1: dwq
            node(Class::Start, &[1]),           // 2: dp start(dwq)
            node(Class::Compute, &[]),          // 3: dk
            node(Class::Compute, &[]),          // 4: dwk
            node(Class::Compute, &[0, 3]),      // 5: dq + dk
            node(Class::Start, &[5]),           // 6: tp start(sum)
            node(Class::Wait, &[6]),            // 7
            node(Class::Compute, &[7]),         // 8: layer_norm_grad
            node(Class::Start, &[4]),           // 9: dp start(dwk)
            node(Class::Wait, &[2]),            // 10
            node(Class::Wait, &[9]),            // 11
            node(Class::Compute, &[8, 10, 11]), // 12: return
        ];
        // The sum's inputs first, its start, then the dW matmuls behind it.
        assert_eq!(schedule(&nodes), [0, 3, 5, 6, 1, 2, 4, 9, 7, 8, 10, 11, 12]);
    }

    #[test]
    fn nothing_crosses_a_dependence() {
        let nodes = [
            node(Class::Compute, &[]),
            node(Class::Start, &[0]),
            node(Class::Compute, &[1]), // an effect after the start
            node(Class::Wait, &[1, 2]),
            node(Class::Compute, &[]),
        ];
        let order = schedule(&nodes);
        let position = |i: usize| order.iter().position(|&o| o == i).unwrap();
        for (i, n) in nodes.iter().enumerate() {
            for &p in &n.after {
                assert!(position(p) < position(i));
            }
        }
        assert_eq!(order, [0, 1, 2, 4, 3]);
    }
}
