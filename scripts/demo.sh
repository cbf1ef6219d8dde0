#!/usr/bin/env bash
# The main job on the shipped example: the Megatron MLP training step through
# dist-opt: shardings and partial status propagated, the partial values
# reduced by collectives, and the communication report (on stderr).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cargo build -q --release -p dist-tools
target/release/dist-opt examples/megatron-mlp.mlir --dist-propagate-sharding --dist-resolve-partial \
  --dist-comm-report "$@"
