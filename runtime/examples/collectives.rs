//! Runs every collective of the runtime on a 2 x 2 mesh (`mpiexec -n 4`)
//! and checks each rank's result; prints `rank R: ok` or what differed and
//! exits non-zero. Driven by `tests/mpi.rs`.

use dist_npy::f32_to_bf16 as bf16;
use dist_runtime::{
    _mlir_ciface_dist_rt_all_gather_bf16, _mlir_ciface_dist_rt_all_gather_f32, _mlir_ciface_dist_rt_all_gather_i64,
    _mlir_ciface_dist_rt_all_reduce_bf16, _mlir_ciface_dist_rt_all_reduce_f32, _mlir_ciface_dist_rt_all_reduce_f64,
    _mlir_ciface_dist_rt_all_reduce_start_f32, _mlir_ciface_dist_rt_all_to_all_f32,
    _mlir_ciface_dist_rt_all_to_all_i32, _mlir_ciface_dist_rt_reduce_scatter_bf16,
    _mlir_ciface_dist_rt_reduce_scatter_start_f32, _mlir_ciface_dist_rt_wait,
};
use dist_runtime::{MemRef1, axis_index, finalize, init, rank_and_size};

fn memref<T>(v: &mut [T]) -> MemRef1<T> {
    MemRef1 {
        allocated: v.as_mut_ptr(),
        aligned: v.as_mut_ptr(),
        offset: 0,
        size: v.len() as i64,
        stride: 1,
    }
}

/// Records `what` as failed unless `got` is `want`.
fn expect<T: PartialEq + std::fmt::Debug>(failures: &mut Vec<String>, what: &str, got: &[T], want: &[T]) {
    if got != want {
        failures.push(format!("{what}: got {got:?}, want {want:?}"));
    }
}

fn main() {
    init().expect("MPI starts");
    let (rank, size) = rank_and_size().expect("initialized");
    assert_eq!(size, 4, "run with mpiexec -n 4");
    let r = rank as f32;
    let (dp, tp) = ((rank / 2) as f32, (rank % 2) as f32);
    let mut mesh = [2i64, 2, 2, 0];
    let (mut tp_axes, mut dp_axes, mut both) = ([1i64], [0i64], [0i64, 1]);
    let mut failures = Vec::new();
    // SAFETY (all calls): the descriptors describe the live local arrays.
    unsafe {
        let mut x = [r, r + 1.0];
        let mut out = [0.0f32; 2];
        _mlir_ciface_dist_rt_all_reduce_f32(
            &memref(&mut x),
            &memref(&mut out),
            &memref(&mut mesh),
            &memref(&mut tp_axes),
            0,
        );
        expect(
            &mut failures,
            "all_reduce sum over tp",
            &out,
            &[4.0 * dp + 1.0, 4.0 * dp + 3.0],
        );

        let mut x = [r];
        let mut out = [0.0f32];
        _mlir_ciface_dist_rt_all_reduce_f32(
            &memref(&mut x),
            &memref(&mut out),
            &memref(&mut mesh),
            &memref(&mut both),
            1,
        );
        expect(&mut failures, "all_reduce avg over dp, tp", &out, &[1.5]);
        _mlir_ciface_dist_rt_all_reduce_f32(
            &memref(&mut x),
            &memref(&mut out),
            &memref(&mut mesh),
            &memref(&mut dp_axes),
            2,
        );
        expect(&mut failures, "all_reduce max over dp", &out, &[tp + 2.0]);
        _mlir_ciface_dist_rt_all_reduce_f32(
            &memref(&mut x),
            &memref(&mut out),
            &memref(&mut mesh),
            &memref(&mut dp_axes),
            3,
        );
        expect(&mut failures, "all_reduce min over dp", &out, &[tp]);

        let mut x64 = [f64::from(rank)];
        let mut out64 = [0.0f64];
        _mlir_ciface_dist_rt_all_reduce_f64(
            &memref(&mut x64),
            &memref(&mut out64),
            &memref(&mut mesh),
            &memref(&mut both),
            0,
        );
        expect(
            &mut failures,
            "all_reduce f64 sum over dp, tp",
            &[out64[0] as f32],
            &[6.0],
        );

        // Reduce-scatter, started and waited for.
        let mut x = [r, 10.0 * r];
        let mut out = [0.0f32];
        let request = _mlir_ciface_dist_rt_reduce_scatter_start_f32(
            &memref(&mut x),
            &memref(&mut out),
            &memref(&mut mesh),
            &memref(&mut tp_axes),
            0,
        );
        _mlir_ciface_dist_rt_wait(request);
        let block = (4.0 * dp + 1.0) * if tp == 0.0 { 1.0 } else { 10.0 };
        expect(&mut failures, "reduce_scatter over tp", &out, &[block]);

        let mut x = [r];
        let mut out = [0.0f32; 2];
        _mlir_ciface_dist_rt_all_gather_f32(
            &memref(&mut x),
            &memref(&mut out),
            &memref(&mut mesh),
            &memref(&mut tp_axes),
            0,
        );
        expect(&mut failures, "all_gather over tp", &out, &[2.0 * dp, 2.0 * dp + 1.0]);

        // Integers only move: token ids near 2^53, where f32 or f64 would
        // round them.
        let mut ids = [(1i64 << 53) + rank as i64];
        let mut out = [0i64; 2];
        _mlir_ciface_dist_rt_all_gather_i64(
            &memref(&mut ids),
            &memref(&mut out),
            &memref(&mut mesh),
            &memref(&mut tp_axes),
            0,
        );
        let first = (1i64 << 53) + 2 * (rank as i64 / 2);
        expect(&mut failures, "all_gather i64 over tp", &out, &[first, first + 1]);
        let mut ids = [10 * rank, 10 * rank + 1];
        let mut out = [0i32; 2];
        _mlir_ciface_dist_rt_all_to_all_i32(
            &memref(&mut ids),
            &memref(&mut out),
            &memref(&mut mesh),
            &memref(&mut dp_axes),
            0,
        );
        let (dpi, tpi) = (rank / 2, rank % 2);
        expect(
            &mut failures,
            "all_to_all i32 over dp",
            &out,
            &[10 * tpi + dpi, 10 * (tpi + 2) + dpi],
        );

        // Block j goes to group rank j; the block from rank j lands at j.
        let mut x = [10.0 * r, 10.0 * r + 1.0];
        let mut out = [0.0f32; 2];
        _mlir_ciface_dist_rt_all_to_all_f32(
            &memref(&mut x),
            &memref(&mut out),
            &memref(&mut mesh),
            &memref(&mut dp_axes),
            0,
        );
        expect(
            &mut failures,
            "all_to_all over dp",
            &out,
            &[10.0 * tp + dp, 10.0 * (tp + 2.0) + dp],
        );

        // Two async all-reduces in flight at once, waited in reverse order.
        let (mut a, mut b) = ([r], [2.0 * r]);
        let (mut oa, mut ob) = ([0.0f32], [0.0f32]);
        let ra = _mlir_ciface_dist_rt_all_reduce_start_f32(
            &memref(&mut a),
            &memref(&mut oa),
            &memref(&mut mesh),
            &memref(&mut both),
            1,
        );
        let rb = _mlir_ciface_dist_rt_all_reduce_start_f32(
            &memref(&mut b),
            &memref(&mut ob),
            &memref(&mut mesh),
            &memref(&mut tp_axes),
            0,
        );
        _mlir_ciface_dist_rt_wait(rb);
        _mlir_ciface_dist_rt_wait(ra);
        expect(&mut failures, "async avg", &oa, &[1.5]);
        expect(&mut failures, "async sum over tp", &ob, &[2.0 * (4.0 * dp + 1.0)]);
    }
    let tp_index = axis_index(&mesh, &tp_axes).expect("a mesh device") as f32;
    let flat = axis_index(&mesh, &both).expect("a mesh device") as f32;
    expect(
        &mut failures,
        "axis_index over tp, over dp and tp",
        &[tp_index, flat],
        &[tp, r],
    );
    // bfloat16: its bits move as 16-bit integers, and reductions combine
    // pairs in f32 (the shim's own MPI operations).
    // SAFETY (all calls): the descriptors describe the live local arrays.
    unsafe {
        let mut x = [bf16(r), bf16(r + 1.0)];
        let mut out = [0u16; 2];
        // Over dp and tp the four ranks hold [r, r + 1] for r = 0..3.
        for (kind, name, want) in [
            (0, "sum", [6.0, 10.0]),
            (1, "avg", [1.5, 2.5]),
            (2, "max", [3.0, 4.0]),
            (3, "min", [0.0, 1.0]),
        ] {
            _mlir_ciface_dist_rt_all_reduce_bf16(
                &memref(&mut x),
                &memref(&mut out),
                &memref(&mut mesh),
                &memref(&mut both),
                kind,
            );
            expect(
                &mut failures,
                &format!("bf16 all_reduce {name} over dp, tp"),
                &out,
                &want.map(bf16),
            );
        }
        let mut one = [bf16(r)];
        _mlir_ciface_dist_rt_all_gather_bf16(
            &memref(&mut one),
            &memref(&mut out),
            &memref(&mut mesh),
            &memref(&mut tp_axes),
            0,
        );
        expect(
            &mut failures,
            "bf16 all_gather over tp",
            &out,
            &[bf16(2.0 * dp), bf16(2.0 * dp + 1.0)],
        );
        let mut pair = [bf16(1.0), bf16(2.0)];
        let mut half = [0u16];
        _mlir_ciface_dist_rt_reduce_scatter_bf16(
            &memref(&mut pair),
            &memref(&mut half),
            &memref(&mut mesh),
            &memref(&mut tp_axes),
            0,
        );
        expect(
            &mut failures,
            "bf16 reduce_scatter over tp",
            &half,
            &[bf16(2.0 + 2.0 * tp)],
        );
    }
    finalize().expect("MPI ends");
    if failures.is_empty() {
        println!("rank {rank}: ok");
    } else {
        println!("rank {rank}: {}", failures.join("; "));
        std::process::exit(1);
    }
}
