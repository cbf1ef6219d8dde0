//! ZeRO by annotation: `dist-gen gpt --optimizer adamw --zero N` writes
//! only layouts (the optimizer states split over dp from stage 1), and
//! propagation and resolution choose the communication. Stages 1 and 2
//! reduce-scatter each gradient over dp and all-gather each updated
//! parameter, the bytes of stage 0's all-reduce; the moments are never
//! gathered. Bytes are the ring lower bound computed here from the model's
//! sizes alone. The numerics are test/Examples/zero.mlir's.

mod common;

use common::{Rows, comm_report, dist_gen, gpt_param_elements};

const LAYERS: u64 = 2;
const DP: u64 = 2;
const TP: u64 = 2;

fn rows(optimizer: &str, zero: &str) -> (Rows, u64) {
    let program = dist_gen(&[
        "gpt",
        "--layers",
        &LAYERS.to_string(),
        "--dp",
        &DP.to_string(),
        "--tp",
        &TP.to_string(),
        "--optimizer",
        optimizer,
        "--zero",
        zero,
    ]);
    comm_report(&program, &[])
}

/// What one device of a ring of `group` sends for a reduce-scatter or an
/// all-gather of `bytes` (half an all-reduce).
fn ring_share(group: u64, bytes: u64) -> u64 {
    ((group - 1) * bytes).div_ceil(group)
}

/// The rows over dp: the parameters' gradients and updates.
fn over_dp(rows: &Rows) -> Rows {
    rows.iter().filter(|r| r.1 == "\"dp\"").cloned().collect()
}

#[test]
fn stage_0_all_reduces_every_gradient() {
    let (rows, _) = rows("adamw", "0");
    let mut want: Rows = gpt_param_elements(LAYERS, TP)
        .into_iter()
        .map(|n| ("all_reduce".to_owned(), "\"dp\"".to_owned(), 2 * ring_share(DP, 4 * n)))
        .collect();
    want.sort();
    assert_eq!(over_dp(&rows), want);
}

#[test]
fn stages_1_and_2_reduce_scatter_gradients_and_gather_parameters() {
    let (stage0, total0) = rows("adamw", "0");
    for stage in ["1", "2"] {
        for optimizer in ["adamw", "sgd"] {
            let (rows, total) = rows(optimizer, stage);
            let mut want = Rows::new();
            for n in gpt_param_elements(LAYERS, TP) {
                let share = ring_share(DP, 4 * n);
                want.push(("reduce_scatter".to_owned(), "\"dp\"".to_owned(), share));
                want.push(("all_gather".to_owned(), "\"dp\"".to_owned(), share));
                // The replicated parameter is sliced to its shard locally.
                want.push(("all_slice".to_owned(), "\"dp\"".to_owned(), 0));
            }
            want.sort();
            assert_eq!(over_dp(&rows), want, "stage {stage} {optimizer}");
            // The rest (tp activations, the loss) is stage 0's, and the
            // total is too: a reduce-scatter and an all-gather move an
            // all-reduce's bytes.
            let rest = |r: &Rows| -> Rows { r.iter().filter(|r| r.1 != "\"dp\"").cloned().collect() };
            assert_eq!(rest(&rows), rest(&stage0), "stage {stage} {optimizer}");
            assert_eq!(total, total0, "stage {stage} {optimizer}");
        }
    }
}
