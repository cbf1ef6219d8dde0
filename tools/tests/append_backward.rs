//! dist-append-backward on dist-gen's forward GPT against dist-gen's
//! hand-written step: after propagation and resolution (and with the
//! overlap passes) both communicate the same collectives: kind, axes,
//! bytes per device and count. The numerics are test/Examples/append-backward.mlir's.

mod common;

use common::{Rows, comm_report, dist_gen, dist_opt};

/// The hand-written step and the differentiated forward program for the
/// dist-gen options `config`.
fn both(config: &[&str]) -> (String, String) {
    let mut args = vec!["gpt"];
    args.extend(config);
    let hand = dist_gen(&args);
    args.push("--forward-only");
    let (auto, _) = dist_opt(&dist_gen(&args), &["--dist-append-backward"]);
    (hand, auto)
}

fn count(rows: &Rows, kind: &str, axes: &str) -> usize {
    rows.iter().filter(|(k, a, _)| k == kind && a == axes).count()
}

#[test]
fn the_derived_backward_communicates_as_the_hand_written_one() {
    let configs: [&[&str]; 3] = [
        &["--layers", "2", "--dp", "2", "--tp", "2"],
        &["--layers", "2", "--dp", "2", "--tp", "4"],
        &["--layers", "1", "--dp", "2", "--tp", "2", "--sp", "2"],
    ];
    let overlap: &[&str] = &["--dist-split-matmul-grad", "--dist-overlap-collectives"];
    for config in configs {
        let (hand, auto) = both(config);
        for extra in [&[][..], overlap] {
            let (hand_rows, hand_total) = comm_report(&hand, extra);
            let (auto_rows, auto_total) = comm_report(&auto, extra);
            assert_eq!(auto_rows, hand_rows, "{config:?} {extra:?}");
            assert_eq!(auto_total, hand_total, "{config:?} {extra:?}");
        }
    }
}

#[test]
fn the_qkv_input_gradients_share_one_tp_all_reduce() {
    // The tp all_reduces of activations, per layer: the attention and MLP
    // outputs forward; backward the input gradients of the two layer_norms,
    // one of them the sum of the Q, K and V input gradients (three
    // all_reduces if they were reduced apart). Once: the vocabulary-parallel
    // lookup and the final layer_norm's input gradient. 4 per layer + 2.
    let layers = 3;
    let (_, auto) = both(&["--layers", "3", "--dp", "2", "--tp", "2"]);
    let (rows, _) = comm_report(&auto, &[]);
    // A local activation: 2 sequences of 16 tokens, hidden 2 x 2 heads of
    // 32, f32; a ring all_reduce over 2 devices moves as many bytes.
    let activation = 2 * 16 * 128 * 4;
    let tp_activation = rows
        .iter()
        .filter(|(k, a, b)| k == "all_reduce" && a == "\"tp\"" && *b == activation)
        .count();
    assert_eq!(tp_activation, 4 * layers + 2, "{rows:?}");
    assert_eq!(count(&rows, "all_reduce", "\"tp\""), tp_activation, "{rows:?}");
}
