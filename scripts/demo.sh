#!/usr/bin/env bash
# The main job on the shipped example: the Megatron MLP training step through
# dist-opt, with every value's sharding and partial status propagated.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cargo build -q --release -p dist-tools
target/release/dist-opt examples/megatron-mlp.mlir --dist-propagate-sharding "$@"
