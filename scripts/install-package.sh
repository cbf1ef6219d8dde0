#!/usr/bin/env bash
# Installs dist-mlir for out-of-tree MLIR projects (CMake's find_package):
#
#   scripts/install-package.sh [PREFIX] [--debug]
#
# PREFIX (default target/dist-mlir-package) gets
#   include/Dist-c/Dist.h                     the C API: the dialect, its
#                                             attributes, and the passes
#   lib/libdist_mlir_plugin.so                the dialect and every pass (also
#                                             mlir-opt's plugin)
#   lib/cmake/DistMLIR/DistMLIRConfig.cmake   DistMLIR::Dialect, DistMLIR::Passes
# so that a project configured with -DDistMLIR_DIR=PREFIX/lib/cmake/DistMLIR
# (or CMAKE_PREFIX_PATH=PREFIX) does find_package(DistMLIR) and
# target_link_libraries(my-opt PRIVATE DistMLIR::Dialect DistMLIR::Passes).
# The release build unless --debug. Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=target/dist-mlir-package
profile=release
for arg in "$@"; do
  case "$arg" in
    --debug) profile=debug ;;
    -*) echo "install-package.sh: unknown option $arg" >&2; exit 2 ;;
    *) prefix=$arg ;;
  esac
done
flags=()
[ "$profile" = release ] && flags=(--release)
cargo build -q -p dist-mlir-plugin "${flags[@]}"
mkdir -p "$prefix/include/Dist-c" "$prefix/lib/cmake/DistMLIR"
install -m 644 dialect/include/Dist-c/Dist.h "$prefix/include/Dist-c/Dist.h"
install -m 755 "target/$profile/libdist_mlir_plugin.so" "$prefix/lib/libdist_mlir_plugin.so"
install -m 644 cmake/DistMLIRConfig.cmake "$prefix/lib/cmake/DistMLIR/DistMLIRConfig.cmake"
echo "installed dist-mlir ($profile) in $prefix"
