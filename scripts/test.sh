#!/usr/bin/env bash
# Every check CI runs: formatting, lints, unit and integration tests, and the
# lit suite (driven by `cargo test`, see tools/tests/lit.rs).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cargo fmt --all --check
cargo clippy --workspace --all-targets -q -- -D warnings
DIST_REQUIRE_PTXAS=1 DIST_REQUIRE_JAX=1 cargo test --workspace
# The GPU bundle: it builds, its programs need no LLVM, MLIR or MPI library,
# and its CPU part runs from its own directory in an empty environment.
bundle=$(mktemp -d)
trap 'rm -rf "$bundle"' EXIT
scripts/gpu-bundle.sh "$bundle/gpu" --profile debug
if ldd "$bundle"/gpu/bin/* | grep -Ei 'llvm|mlir|mpi'; then
  echo "test.sh: a program of the GPU bundle needs the library above" >&2
  exit 1
fi
env -i PATH=/usr/bin:/bin "$bundle/gpu/run.sh" --cpu-only
