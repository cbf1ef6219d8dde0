//! The communication report on the Megatron MLP and GPT examples lists
//! exactly the collectives the parallel layout needs, with bytes equal to the
//! ring lower bound computed here from the model's dimensions alone (not
//! from the IR).

mod common;

use common::{Rows, comm_report, dist_gen, gpt_param_elements};
use std::path::Path;

/// The report of the program at `path`.
fn report(path: &Path) -> (Rows, u64) {
    comm_report(&std::fs::read_to_string(path).unwrap(), &[])
}

/// Ring all_reduce over `group` devices of `bytes` per device.
fn all_reduce(group: u64, bytes: u64) -> u64 {
    (2 * (group - 1) * bytes).div_ceil(group)
}

fn expect(rows: &mut Rows, kind: &str, axes: &str, bytes: u64, count: usize) {
    rows.extend(std::iter::repeat_n((kind.to_owned(), axes.to_owned(), bytes), count));
}

#[test]
fn megatron_mlp_report_meets_the_ring_bound() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let (rows, total) = report(&root.join("examples/megatron-mlp.mlir"));
    // dp = tp = 2; batch 8, in/out 16, hidden 64; f32.
    let (dp, tp, batch, d, hidden) = (2u64, 2u64, 8u64, 16u64, 64u64);
    let mut want = Rows::new();
    // Forward: the row-parallel output, batch split over dp, summed over tp.
    expect(&mut want, "all_reduce", "\"tp\"", all_reduce(tp, batch / dp * d * 4), 1);
    // The mean loss over the dp-split batch (partial avg: a sum and a scale).
    expect(&mut want, "all_reduce", "\"dp\"", all_reduce(dp, 4), 1);
    // Gradients of the tp-sharded parameters, over dp only.
    for params in [d * hidden / tp, hidden / tp, hidden * d / tp] {
        expect(&mut want, "all_reduce", "\"dp\"", all_reduce(dp, params * 4), 1);
    }
    want.sort();
    assert_eq!(rows, want);
    assert_eq!(total, want.iter().map(|r| r.2).sum::<u64>());
}

#[test]
fn gpt_block_report_meets_the_ring_bound() {
    let (layers, dp, tp) = (2u64, 2u64, 4u64);
    let program = dist_gen(&[
        "gpt",
        "--layers",
        &layers.to_string(),
        "--dp",
        &dp.to_string(),
        "--tp",
        &tp.to_string(),
    ]);
    let (rows, total) = comm_report(&program, &[]);

    // dist-gen's model: batch 2 dp, sequence 16, 2 tp heads of 32, vocab
    // 128 tp, MLP 4 x hidden; f32.
    let (batch, seq, hidden) = (2 * dp, 16, 2 * tp * 32);
    let activation = batch / dp * seq * hidden * 4;
    let mut want = Rows::new();
    // The residual stream over tp: forward after the vocab-parallel
    // embedding and after each row-parallel projection; backward the
    // gradient entering each layer norm. One per layer norm input, so the
    // Q/K/V input gradients are reduced once, summed (three per layer would
    // make this 2 + 6 L).
    expect(
        &mut want,
        "all_reduce",
        "\"tp\"",
        all_reduce(tp, activation),
        (2 + 4 * layers) as usize,
    );
    // The loss: vocab-parallel cross entropy and the dp batch mean.
    expect(&mut want, "all_reduce", "\"dp\",\"tp\"", all_reduce(dp * tp, 4), 1);
    // Every parameter gradient over dp, each at its tp-sharded size.
    for p in gpt_param_elements(layers, tp) {
        expect(&mut want, "all_reduce", "\"dp\"", all_reduce(dp, p * 4), 1);
    }
    want.sort();
    assert_eq!(rows, want);
    assert_eq!(total, want.iter().map(|r| r.2).sum::<u64>());
}
