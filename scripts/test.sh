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
# The CMake package: installed, and the out-of-tree example (an mlir-opt on
# MlirOptMain with the dist dialect and passes) built against it and run on
# its tests.
package=target/dist-mlir-package
scripts/install-package.sh "$package" --debug
cmake -G Ninja -S examples/out-of-tree -B target/out-of-tree -DCMAKE_CXX_COMPILER=/usr/lib/llvm-22/bin/clang++ \
  -DDistMLIR_DIR="$PWD/$package/lib/cmake/DistMLIR" > /dev/null
cmake --build target/out-of-tree
MY_OPT_DIR="$PWD/target/out-of-tree" python3 -c "from lit.main import main; main()" -sv examples/out-of-tree/test
