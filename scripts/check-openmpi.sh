#!/usr/bin/env bash
# Builds the runtime against Open MPI (instead of the default MPICH) in a
# separate target directory and runs every collective on 4 ranks with
# Open MPI's launcher. Needs Debian's openmpi-bin and libopenmpi-dev.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${TMPDIR:-/tmp}/dist-openmpi-target
MPICC=mpicc.openmpi CARGO_TARGET_DIR="$target" cargo build -q -p dist-runtime --example collectives
mpiexec.openmpi --allow-run-as-root --oversubscribe -n 4 "$target/debug/examples/collectives"
