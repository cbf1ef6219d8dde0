#!/usr/bin/env bash
# Builds the runtime against Open MPI (instead of the default MPICH) in a
# separate target directory, runs every collective on 4 ranks with Open
# MPI's launcher, then runs the Megatron step end to end with dist-run on
# 4 ranks through that launcher (--mpiexec) against the -n 1 reference.
# Needs Debian's openmpi-bin and libopenmpi-dev (which make Open MPI the
# default mpicc/mpiexec unless update-alternatives says otherwise).
set -euo pipefail
cd "$(dirname "$0")/.."
target=${TMPDIR:-/tmp}/dist-openmpi-target
MPICC=mpicc.openmpi CARGO_TARGET_DIR="$target" cargo build -q -p dist-runtime --example collectives --lib
mpiexec.openmpi --allow-run-as-root --oversubscribe -n 4 "$target/debug/examples/collectives"
# dist-run links the runtime found beside it: this one, built on Open MPI.
cargo build -q --bin dist-run
cp target/debug/dist-run "$target/debug/"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 scripts/npy.py inputs examples/megatron-mlp.mlir step "$work/in" > /dev/null
"$target/debug/dist-run" examples/megatron-mlp.mlir --entry step -n 1 --input-dir "$work/in" --out "$work/ref"
"$target/debug/dist-run" examples/megatron-mlp.mlir --entry step -n 4 --input-dir "$work/in" --out "$work/ompi" \
  --overlap --mpiexec mpiexec.openmpi
python3 scripts/npy.py compare "$work/ref" "$work/ompi"
