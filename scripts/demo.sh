#!/usr/bin/env bash
# The main job on the shipped example: the Megatron MLP training step through
# dist-opt: shardings and partial status propagated, the partial values
# reduced by collectives (gradients in one bucket), the collectives issued
# asynchronously around independent compute, and the communication and
# overlap reports (on stderr).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cargo build -q --release -p dist-tools
target/release/dist-opt examples/megatron-mlp.mlir --dist-propagate-sharding --dist-resolve-partial="bucket-mb=1" \
  --dist-split-matmul-grad --dist-overlap-collectives --dist-verify-sharding --dist-comm-report --dist-overlap-report "$@"
