//! ZeRO by annotation: `dist-gen gpt --optimizer adamw --zero N` writes
//! only layouts (the optimizer states split over dp from stage 1), and
//! propagation and resolution choose the communication. Stages 1 and 2
//! reduce-scatter each gradient over dp and all-gather each updated
//! parameter, the bytes of stage 0's all-reduce; the moments are never
//! gathered. Bytes are the ring lower bound computed here from the model's
//! sizes alone. The numerics are test/Examples/zero.mlir's.

mod common;

use common::{Rows, comm_report, dist_gen, dist_opt, gpt_param_elements};

const LAYERS: u64 = 2;
const DP: u64 = 2;
const TP: u64 = 2;

fn report_rows(optimizer: &str, zero: &str) -> (Rows, u64) {
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
    let (rows, _) = report_rows("adamw", "0");
    let mut want: Rows = gpt_param_elements(LAYERS, TP)
        .into_iter()
        .map(|n| ("all_reduce".to_owned(), "\"dp\"".to_owned(), 2 * ring_share(DP, 4 * n)))
        .collect();
    want.sort();
    assert_eq!(over_dp(&rows), want);
}

#[test]
fn stages_1_and_2_reduce_scatter_gradients_and_gather_parameters() {
    let (stage0, total0) = report_rows("adamw", "0");
    for stage in ["1", "2"] {
        for optimizer in ["adamw", "sgd"] {
            let (rows, total) = report_rows(optimizer, stage);
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

/// The model-state rows of `--dist-memory-report`: parameters, gradients
/// and optimizer state, bytes per device.
fn model_states(optimizer: &str, dp: u64, zero: &str) -> [u64; 3] {
    let program = dist_gen(&[
        "gpt",
        "--layers",
        &LAYERS.to_string(),
        "--dp",
        &dp.to_string(),
        "--tp",
        "1",
        "--optimizer",
        optimizer,
        "--zero",
        zero,
    ]);
    let (_, report) = dist_opt(
        &program,
        &[
            "--dist-propagate-sharding=remarks=none",
            "--dist-resolve-partial",
            "--dist-memory-report",
            "-o",
            "/dev/null",
        ],
    );
    let row = |name: &str| -> u64 {
        let line = report
            .lines()
            .find(|l| l.contains(name))
            .unwrap_or_else(|| panic!("{name} in {report}"));
        line.trim_start_matches("//")
            .trim_start()
            .trim_start_matches(name)
            .split_whitespace()
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    [row("parameters"), row("gradients"), row("optimizer state")]
}

#[test]
fn memory_report_meets_the_zero_papers_model_states() {
    // Rajbhandari et al. 2020, per device with Psi parameters on Nd data
    // parallel ranks, here in f32 (4 bytes a value; AdamW keeps 2 moments,
    // SGD 1 buffer): stage 0 4+4+K, stage 1 4+4+K/Nd, stage 2 4+(4+K)/Nd,
    // stage 3 (4+4+K)/Nd. Resolution reduce-scatters a gradient the update
    // reads split, so a stage-1 program is stage 2's (its gradients arrive
    // as the shard): stage 1 is checked against stage 2's formula.
    let dp = 4;
    let psi: u64 = gpt_param_elements(LAYERS, 1).iter().sum();
    for (optimizer, k) in [("adamw", 8), ("sgd", 4)] {
        let expected = |zero: u64| -> [u64; 3] {
            let split = |on: bool, bytes: u64| if on { bytes / dp } else { bytes };
            [
                split(zero >= 3, 4 * psi),
                split(zero >= 1, 4 * psi),
                split(zero >= 1, k * psi),
            ]
        };
        for zero in 0..=3u64 {
            assert_eq!(
                model_states(optimizer, dp, &zero.to_string()),
                expected(zero),
                "{optimizer} stage {zero}"
            );
        }
    }
}
