//! Shrinking a failing program to a minimal one that still fails: the loss
//! moved to an earlier value, ops bypassed, operands cut off from what
//! computes them, differentiation and shardings dropped, until no smaller
//! variant fails.

use super::program::{Data, Program, Ref};

/// The smaller variants of `program` to try, smallest first.
fn variants(program: &Program) -> Vec<Program> {
    let mut out = Vec::new();
    // The loss of an earlier value: everything after it goes.
    for i in 0..program.ops.len() {
        for k in 0..program.ops[i].results.len() {
            let value = Ref::Op(i, k);
            if value == program.loss {
                continue;
            }
            let mut p = program.clone();
            p.finish(value, true);
            out.push(p.pruned());
        }
    }
    // An op bypassed: its readers read an operand of the result's shape.
    for (i, op) in program.ops.iter().enumerate() {
        for &operand in &op.operands {
            if program.shape(operand) != op.results[0].as_slice()
                || program.element(operand) != program.element(Ref::Op(i, 0))
            {
                continue;
            }
            let mut p = program.clone();
            replace(&mut p, Ref::Op(i, 0), operand);
            out.push(p.pruned());
        }
    }
    // An operand computed by an op replaced by a new argument of its shape.
    for i in 0..program.ops.len() {
        for j in 0..program.ops[i].operands.len() {
            let operand = program.ops[i].operands[j];
            if matches!(operand, Ref::Arg(_)) {
                continue;
            }
            let mut p = program.clone();
            let shape = p.shape(operand).to_vec();
            let a = p.arg(&shape, true, Data::Uniform(-1.0, 1.0));
            p.ops[i].operands[j] = a;
            out.push(p.pruned());
        }
    }
    // One argument fewer differentiated (one stays).
    if program.grad_args().len() > 1 {
        for a in program.grad_args() {
            let mut p = program.clone();
            p.args[a].grad = false;
            out.push(p);
        }
    }
    // One sharding fewer; no mesh once none is left.
    for a in 0..program.args.len() {
        if program.args[a].sharding.is_some() {
            let mut p = program.clone();
            p.args[a].sharding = None;
            if p.args.iter().all(|a| a.sharding.is_none()) {
                p.mesh.clear();
            }
            out.push(p);
        }
    }
    let size = measure(program);
    out.retain(|p| measure(p) < size);
    out.sort_by_key(measure);
    out
}

/// What shrinking decreases, in this order: the ops, the operands an op
/// computes, the differentiated arguments, the sharded ones.
fn measure(program: &Program) -> (usize, usize, usize, usize) {
    let computed = program
        .ops
        .iter()
        .flat_map(|op| &op.operands)
        .filter(|v| matches!(v, Ref::Op(..)))
        .count();
    let sharded = program.args.iter().filter(|a| a.sharding.is_some()).count();
    (program.ops.len(), computed, program.grad_args().len(), sharded)
}

/// Every read of `from` made a read of `to`.
fn replace(program: &mut Program, from: Ref, to: Ref) {
    for op in &mut program.ops {
        for operand in &mut op.operands {
            if *operand == from {
                *operand = to;
            }
        }
    }
    if program.loss == from {
        program.loss = to;
    }
}

/// The smallest program found from `program` on which `fails` holds (it
/// holds on `program`), by greedy steps to the first smaller variant that
/// still fails. Each step lowers [`measure`], a tuple of counts, in the
/// lexicographic order, which has no infinite descent: this ends.
pub fn shrink(program: &Program, mut fails: impl FnMut(&Program) -> bool) -> Program {
    let mut current = program.clone();
    'steps: loop {
        for candidate in variants(&current) {
            if candidate.grad_args().is_empty() || !candidate.shape(candidate.loss).is_empty() {
                continue;
            }
            if fails(&candidate) {
                current = candidate;
                continue 'steps;
            }
        }
        return current;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gradcheck::generate;
    use crate::gradcheck::program::Kind;

    #[test]
    fn shrinks_to_the_op_at_fault() {
        // "Fails" whenever a maximum is left: the shrinker keeps one
        // maximum and as little else as it can.
        let has_maximum = |p: &Program| {
            p.ops
                .iter()
                .any(|op| matches!(op.kind, Kind::Binary(crate::gradcheck::program::Binary::Maximum)))
        };
        let program = (0..500)
            .map(|k| generate::program(3, k))
            .find(|p| has_maximum(p) && p.ops.len() >= 5)
            .expect("a program with a maximum");
        let small = shrink(&program, has_maximum);
        assert!(has_maximum(&small));
        assert!(small.ops.len() <= 3, "{}", small.to_mlir());
    }
}
