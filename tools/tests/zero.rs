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

/// dist-gen's batch per dp shard where gathering a stage-3 parameter moves
/// less than contracting over dp (its default, 2, is too small for that).
const FSDP_BATCH: &str = "8";

fn generate(optimizer: &str, zero: &str, batch: &str) -> String {
    dist_gen(&[
        "gpt",
        "--layers",
        &LAYERS.to_string(),
        "--dp",
        &DP.to_string(),
        "--tp",
        &TP.to_string(),
        "--batch",
        batch,
        "--optimizer",
        optimizer,
        "--zero",
        zero,
    ])
}

fn report_rows(optimizer: &str, zero: &str) -> (Rows, u64) {
    comm_report(&generate(optimizer, zero, "2"), &[])
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

#[test]
fn stage_2_gradient_reduce_scatters_bucket() {
    // bucket-mib coalesces the gradient reduce_scatters (which the updates
    // read only after the backward) like all_reduces: fewer launches, the
    // same bytes, every gradient in exactly one collective.
    let program = generate("adamw", "2", "2");
    let (plain, plain_total) = comm_report(&program, &[]);
    let (bucketed, total) = comm_report(&program, &["--dist-resolve-partial=bucket-mib=0.1"]);
    assert_eq!(total, plain_total);
    let scatters = |rows: &Rows| -> (usize, u64) {
        let of: Rows = over_dp(rows)
            .into_iter()
            .filter(|r| r.0.starts_with("reduce_scatter"))
            .collect();
        (of.len(), of.iter().map(|r| r.2).sum())
    };
    let (plain_count, plain_bytes) = scatters(&plain);
    let (count, bytes) = scatters(&bucketed);
    assert_eq!(plain_count, gpt_param_elements(LAYERS, TP).len());
    assert!(count < plain_count, "{count} collectives for {plain_count} gradients");
    // Rounding up per collective is the only difference in bytes.
    assert!(
        bytes.abs_diff(plain_bytes) < plain_count as u64,
        "{bytes} against {plain_bytes}"
    );
    assert!(over_dp(&bucketed).iter().any(|r| r.0 == "reduce_scatter_coalesced"));
    // No bucket holds more than 0.1 MiB of gradients (before the scatter:
    // a reduce_scatter moves half of that over dp=2).
    let capacity = (0.1 * (1u64 << 20) as f64) as u64;
    for r in over_dp(&bucketed).iter().filter(|r| r.0 == "reduce_scatter_coalesced") {
        assert!(r.2 <= ring_share(DP, capacity), "{r:?}");
    }
}

/// Rows of `kind` over dp.
fn over_dp_of(rows: &Rows, kind: &str) -> Rows {
    over_dp(rows).into_iter().filter(|r| r.0 == kind).collect()
}

#[test]
fn stage_3_gathers_each_parameter_before_use_and_reduce_scatters_its_gradient() {
    // FSDP: one all_gather per parameter (kept for the backward), one
    // reduce_scatter per gradient, the update on the shard and the result
    // left split: an all_reduce's bytes, as at stage 0.
    let (stage0, total0) = comm_report(&generate("adamw", "0", FSDP_BATCH), &[]);
    let (rows, total) = comm_report(&generate("adamw", "3", FSDP_BATCH), &[]);
    let mut want = Rows::new();
    for n in gpt_param_elements(LAYERS, TP) {
        let share = ring_share(DP, 4 * n);
        want.push(("all_gather".to_owned(), "\"dp\"".to_owned(), share));
        want.push(("reduce_scatter".to_owned(), "\"dp\"".to_owned(), share));
    }
    want.sort();
    assert_eq!(over_dp(&rows), want);
    let rest = |r: &Rows| -> Rows { r.iter().filter(|r| r.1 != "\"dp\"").cloned().collect() };
    assert_eq!(rest(&rows), rest(&stage0));
    assert_eq!(total, total0);
}

#[test]
fn stage_3_per_use_gathers_again_for_fewer_live_bytes() {
    // argument-reshards=per-use trades all_gather bytes for memory: each
    // op reading a parameter gets its own gathered copy, so none is kept
    // from the forward to the backward.
    let program = generate("adamw", "3", FSDP_BATCH);
    let per_use = ["--dist-resolve-partial=argument-reshards=per-use"];
    let (kept, kept_total) = comm_report(&program, &[]);
    let (again, again_total) = comm_report(&program, &per_use);
    assert_eq!(
        over_dp_of(&again, "reduce_scatter"),
        over_dp_of(&kept, "reduce_scatter")
    );
    let (kept_gathers, gathers) = (over_dp_of(&kept, "all_gather"), over_dp_of(&again, "all_gather"));
    // Every gather is still one parameter's (the same sizes) ...
    assert!(gathers.iter().all(|g| kept_gathers.contains(g)), "{gathers:?}");
    // ... and each of the 4 projections and 2 MLP weights of every layer,
    // read by its matmul and its matmul_grad, is gathered twice.
    // dist-gen's default hidden size: 2 heads of 32 per tp shard.
    let hidden = 2 * 32 * TP;
    let weights: Vec<u64> = gpt_param_elements(LAYERS, TP)
        .into_iter()
        .skip(1) // the embedding table
        .filter(|&n| n >= hidden * hidden / TP)
        .collect();
    assert_eq!(weights.len() as u64, 6 * LAYERS);
    for n in weights {
        let row = ("all_gather".to_owned(), "\"dp\"".to_owned(), ring_share(DP, 4 * n));
        let count = |rows: &Rows| rows.iter().filter(|r| **r == row).count();
        assert_eq!(count(&gathers), 2 * count(&kept_gathers), "{row:?}");
    }
    assert!(again_total > kept_total);
    let memory = |resolve: &str| -> (Vec<u64>, u64) {
        let report = memory_report(&program, resolve);
        (
            ["parameters", "gradients", "optimizer state"]
                .iter()
                .map(|name| report_row(&report, name))
                .collect(),
            report_row(&report, "activations (peak)"),
        )
    };
    let (kept_states, kept_peak) = memory("--dist-resolve-partial");
    let (states, peak) = memory(per_use[0]);
    assert_eq!(states, kept_states);
    assert!(peak < kept_peak, "per-use peak {peak} against kept {kept_peak}");
}

/// `--dist-memory-report` after propagation and `resolve` (the resolution
/// flag, with its options).
fn memory_report(program: &str, resolve: &str) -> String {
    let args = [
        "--dist-propagate-sharding=remarks=none",
        resolve,
        "--dist-memory-report",
        "-o",
        "/dev/null",
    ];
    dist_opt(program, &args).1
}

/// The bytes of row `name` of a memory report.
fn report_row(report: &str, name: &str) -> u64 {
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
    let report = memory_report(&program, "--dist-resolve-partial");
    let row = |name: &str| report_row(&report, name);
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
