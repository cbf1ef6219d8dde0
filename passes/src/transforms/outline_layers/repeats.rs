//! Finding the repeated layers of a function, as plain data: runs of
//! consecutive copies of one block of ops, equal up to the values they
//! read from outside.

use rustc_hash::FxHashMap;

/// Where an operand comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Source {
    Arg(usize),
    /// Result `1` of op `0` (an index into the op list).
    Op(usize, usize),
}

/// One op: its structural key (name, attributes, types; equal keys are
/// interchangeable ops) and its operands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Op {
    pub key: u32,
    pub operands: Vec<Source>,
    /// Its results must be read in the copy that makes them (an async
    /// collective's handle, which only its wait may read).
    pub local: bool,
}

/// `count` consecutive copies of the `period` ops from `start`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Repeat {
    pub start: usize,
    pub period: usize,
    pub count: usize,
}

impl Repeat {
    pub fn copy(&self, k: usize) -> std::ops::Range<usize> {
        let start = self.start + k * self.period;
        start..start + self.period
    }

    fn saved(&self) -> usize {
        self.period * (self.count - 1)
    }
}

/// The repeats of `ops` (whose function returns `returned`) worth
/// outlining, in order and disjoint: at each step the run that saves the
/// most ops (the shortest period first, then the earliest), then the same
/// in what lies before and after it. A body has at least `min_period` ops.
pub fn find(ops: &[Op], returned: &[Source], min_period: usize) -> Vec<Repeat> {
    // The last op reading each op's results (past the end: returned).
    let mut last_reader = vec![0usize; ops.len()];
    for (j, op) in ops.iter().enumerate() {
        for s in &op.operands {
            if let Source::Op(i, _) = *s {
                last_reader[i] = last_reader[i].max(j);
            }
        }
    }
    for s in returned {
        if let Source::Op(i, _) = *s {
            last_reader[i] = usize::MAX;
        }
    }
    let reads = Reads { ops, last_reader };
    let mut found = Vec::new();
    let mut pending = Vec::new();
    pending.push(0..ops.len());
    while let Some(range) = pending.pop() {
        if let Some(best) = best_in(&reads, range.clone(), min_period.max(1)) {
            let end = best.start + best.period * best.count;
            pending.push(range.start..best.start);
            pending.push(end..range.end);
            found.push(best);
        }
    }
    found.sort_by_key(|r| r.start);
    found
}

/// The ops and, for each, the last op that reads it.
struct Reads<'o> {
    ops: &'o [Op],
    last_reader: Vec<usize>,
}

impl Reads<'_> {
    /// Whether copy `k` keeps its local values to itself: each read in it
    /// and read there only.
    fn keeps_local(&self, repeat: Repeat, k: usize) -> bool {
        let copy = repeat.copy(k);
        copy.clone().all(|i| {
            let op = &self.ops[i];
            (!op.local || self.last_reader[i] < copy.end)
                && op.operands.iter().all(|s| match *s {
                    Source::Op(j, _) => !self.ops[j].local || j >= copy.start,
                    Source::Arg(_) => true,
                })
        })
    }
}

/// The repeat in `range` that saves the most ops.
fn best_in(reads: &Reads, range: std::ops::Range<usize>, min_period: usize) -> Option<Repeat> {
    let ops = reads.ops;
    let n = range.len();
    let mut candidates = Vec::new();
    for period in min_period..=n / 2 {
        // run[i]: how many ops from i on equal, by key, those a period later.
        let mut run = vec![0usize; n + 1];
        for i in (0..n - period).rev() {
            let (a, b) = (range.start + i, range.start + i + period);
            run[i] = if ops[a].key == ops[b].key { run[i + 1] + 1 } else { 0 };
        }
        // Every start, rotations included: where async handles cross one
        // phase of the layers, another keeps them inside.
        for (i, &length) in run.iter().enumerate().take(n.saturating_sub(2 * period - 1)) {
            if length >= period {
                candidates.push(Repeat {
                    start: range.start + i,
                    period,
                    count: 1 + length / period,
                });
            }
        }
    }
    // The most saved first; a candidate's wiring may cut its count, so
    // check in that order until no candidate can beat the best checked.
    candidates.sort_by_key(|r| (std::cmp::Reverse(r.saved()), r.period, r.start));
    let mut best: Option<Repeat> = None;
    for candidate in candidates {
        if best.is_some_and(|b| b.saved() >= candidate.saved()) {
            break;
        }
        if !reads.keeps_local(candidate, 0) {
            continue;
        }
        let count = (1..candidate.count)
            .take_while(|&k| same_wiring(ops, candidate, k) && reads.keeps_local(candidate, k))
            .count()
            + 1;
        let checked = Repeat { count, ..candidate };
        if count >= 2 && best.is_none_or(|b| checked.saved() > b.saved()) {
            best = Some(checked);
        }
    }
    best
}

/// Whether copy `k` of `repeat` reads its values as copy 0 does: each
/// operand from the same op (at the same offset) of its own copy, or
/// from outside it, with two reads of one outside value in copy 0 again
/// one value in copy `k` and the other way round.
fn same_wiring(ops: &[Op], repeat: Repeat, k: usize) -> bool {
    let (first, other) = (repeat.copy(0), repeat.copy(k));
    let mut outside: FxHashMap<Source, Source> = FxHashMap::default();
    let mut back: FxHashMap<Source, Source> = FxHashMap::default();
    for offset in 0..repeat.period {
        let (a, b) = (&ops[first.start + offset], &ops[other.start + offset]);
        if a.operands.len() != b.operands.len() {
            return false;
        }
        for (&x, &y) in a.operands.iter().zip(&b.operands) {
            let inner = |s: Source, range: &std::ops::Range<usize>| match s {
                Source::Op(i, r) if range.contains(&i) => Some((i - range.start, r)),
                _ => None,
            };
            match (inner(x, &first), inner(y, &other)) {
                (Some(p), Some(q)) if p == q => {}
                (None, None) => {
                    if *outside.entry(x).or_insert(y) != y || *back.entry(y).or_insert(x) != x {
                        return false;
                    }
                }
                _ => return false,
            }
        }
    }
    true
}

/// The values copy `k` reads from outside itself, in order of first read:
/// each with where it is first read (op, operand index).
pub fn inputs(ops: &[Op], repeat: Repeat, k: usize) -> Vec<(Source, usize, usize)> {
    let range = repeat.copy(k);
    let mut seen: Vec<(Source, usize, usize)> = Vec::new();
    for i in range.clone() {
        for (j, &s) in ops[i].operands.iter().enumerate() {
            let inside = matches!(s, Source::Op(d, _) if range.contains(&d));
            if !inside && !seen.iter().any(|r| r.0 == s) {
                seen.push((s, i, j));
            }
        }
    }
    seen
}

/// The results of the body (offset, result) that some copy's value is
/// read outside that copy: by a later op of `ops` or by `returned`.
pub fn outputs(ops: &[Op], returned: &[Source], repeat: Repeat) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    let end = repeat.start + repeat.period * repeat.count;
    let mut note = |s: Source, reader: Option<usize>| {
        if let Source::Op(i, r) = s
            && (repeat.start..end).contains(&i)
        {
            let copy = (i - repeat.start) / repeat.period;
            let outside = reader.is_none_or(|j| !repeat.copy(copy).contains(&j));
            let slot = ((i - repeat.start) % repeat.period, r);
            if outside && !out.contains(&slot) {
                out.push(slot);
            }
        }
    };
    for (j, op) in ops.iter().enumerate() {
        for &s in &op.operands {
            note(s, Some(j));
        }
    }
    for &s in returned {
        note(s, None);
    }
    out.sort_unstable();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A layer of three ops: `a = f(x, w)`, `b = g(a)`, `y = h(b, x)`.
    fn layers(n: usize, keys: &[[u32; 3]]) -> Vec<Op> {
        let mut ops = Vec::new();
        let mut x = Source::Arg(0);
        for l in 0..n {
            let k = keys[l % keys.len()];
            let base = ops.len();
            ops.push(Op {
                key: k[0],
                operands: vec![x, Source::Arg(1 + l)],
                local: false,
            });
            ops.push(Op {
                key: k[1],
                operands: vec![Source::Op(base, 0)],
                local: false,
            });
            ops.push(Op {
                key: k[2],
                operands: vec![Source::Op(base + 1, 0), x],
                local: false,
            });
            x = Source::Op(base + 2, 0);
        }
        ops
    }

    #[test]
    fn identical_layers_are_one_repeat() {
        let ops = layers(8, &[[1, 2, 3]]);
        assert_eq!(
            find(&ops, &[], 3),
            [Repeat {
                start: 0,
                period: 3,
                count: 8
            }]
        );
        let repeat = find(&ops, &[], 3)[0];
        let sources = |k| inputs(&ops, repeat, k).into_iter().map(|r| r.0).collect::<Vec<_>>();
        assert_eq!(sources(0), [Source::Arg(0), Source::Arg(1)]);
        assert_eq!(sources(2), [Source::Op(5, 0), Source::Arg(3)]);
        assert_eq!(inputs(&ops, repeat, 2)[1], (Source::Arg(3), 6, 1));
        // Each layer's output is read by the next layer or returned.
        assert_eq!(outputs(&ops, &[Source::Op(23, 0)], repeat), [(2, 0)]);
    }

    #[test]
    fn alternating_layers_repeat_in_pairs() {
        let ops = layers(8, &[[1, 2, 3], [1, 4, 3]]);
        assert_eq!(
            find(&ops, &[], 3),
            [Repeat {
                start: 0,
                period: 6,
                count: 4
            }]
        );
        assert_eq!(find(&layers(1, &[[1, 2, 3]]), &[], 3), []);
    }

    #[test]
    fn copies_must_read_alike() {
        // Layer 2 reads its own op where layer 0 read an outside value.
        let mut ops = layers(3, &[[1, 2, 3]]);
        ops[8].operands[1] = Source::Op(6, 0);
        assert_eq!(
            find(&ops, &[], 3),
            [Repeat {
                start: 0,
                period: 3,
                count: 2
            }]
        );
        // One outside value read twice in copy 0, two values in copy 1.
        let mut ops = layers(2, &[[1, 2, 3]]);
        ops[2].operands[1] = Source::Arg(1);
        ops[5].operands[1] = Source::Arg(9);
        assert_eq!(find(&ops, &[], 3), []);
    }

    #[test]
    fn repeats_before_and_after_are_found_too() {
        let mut ops = layers(4, &[[1, 2, 3]]);
        let tail = ops.len();
        ops.push(Op {
            key: 9,
            operands: vec![Source::Op(tail - 1, 0)],
            local: false,
        });
        let mut backward = layers(3, &[[5, 6, 7]]);
        for op in &mut backward {
            for s in &mut op.operands {
                if let Source::Op(i, r) = s {
                    *s = Source::Op(*i + tail + 1, *r);
                }
            }
        }
        ops.extend(backward);
        assert_eq!(
            find(&ops, &[], 3),
            [
                Repeat {
                    start: 0,
                    period: 3,
                    count: 4
                },
                Repeat {
                    start: 13,
                    period: 3,
                    count: 3
                }
            ]
        );
    }

    /// An async start whose wait is in the next layer: the layers are cut
    /// where each start and its wait fall in one copy.
    #[test]
    fn handles_stay_with_their_waits() {
        // Per layer: h = start(x); y = f(x, w); z = wait(h_previous) ...
        // copy k starts an op whose handle the op 3 later (the next
        // copy's first op, at period 3) reads.
        let mut ops = Vec::new();
        let mut x = Source::Arg(0);
        let mut pending: Option<Source> = None;
        for l in 0..4 {
            let base = ops.len();
            let waited = pending.unwrap_or(Source::Arg(90));
            ops.push(Op {
                key: 1,
                operands: vec![waited, x],
                local: false,
            });
            ops.push(Op {
                key: 2,
                operands: vec![Source::Op(base, 0)],
                local: true,
            });
            ops.push(Op {
                key: 3,
                operands: vec![Source::Op(base, 0), Source::Arg(1 + l)],
                local: false,
            });
            pending = Some(Source::Op(base + 1, 0));
            x = Source::Op(base + 2, 0);
        }
        let found = find(&ops, &[x], 3);
        assert!(!found.is_empty());
        for repeat in &found {
            let reads = |k| {
                let copy = repeat.copy(k);
                copy.clone().all(|i| {
                    ops[i].operands.iter().all(|s| match *s {
                        Source::Op(j, _) => !ops[j].local || copy.contains(&j),
                        Source::Arg(_) => true,
                    })
                })
            };
            assert!((0..repeat.count).all(reads), "{repeat:?}");
        }
        // The phase that keeps each handle inside: the wait first.
        assert_eq!(
            found[0],
            Repeat {
                start: 1,
                period: 3,
                count: 3
            }
        );
    }
}
