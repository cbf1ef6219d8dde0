#!/usr/bin/env bash
# Every check CI runs: formatting, lints, unit and integration tests, and the
# lit suite (driven by `cargo test`, see tools/tests/lit.rs).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cargo fmt --all --check
cargo clippy --workspace --all-targets -q -- -D warnings
DIST_REQUIRE_PTXAS=1 DIST_REQUIRE_JAX=1 cargo test --workspace
