# lit configuration of the dist-mlir test suite.
import os

import lit.formats

config.name = "dist-mlir"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.excludes = ["lit.cfg.py", "Inputs"]

# Set by `cargo test` (tools/tests/lit.rs); defaults fit a debug build.
root = os.path.dirname(config.test_source_root)
bin_dir = os.environ.get("DIST_BIN_DIR", os.path.join(root, "target", "debug"))
llvm_bin = os.environ.get("LLVM_BIN_DIR", "/usr/lib/llvm-22/bin")
plugin = os.environ.get("DIST_PLUGIN", "")

config.environment["PATH"] = os.pathsep.join([bin_dir, llvm_bin, os.environ.get("PATH", "")])
config.substitutions.append(("%dist_plugin", plugin))
if plugin and os.path.exists(plugin):
    config.available_features.add("plugin")

# Numerical checks run lowered code in upstream's JIT runner.
llvm_lib = os.path.join(os.path.dirname(llvm_bin), "lib")
config.substitutions.append(("%mlir_runner_libs", ",".join(
    os.path.join(llvm_lib, name) for name in ("libmlir_runner_utils.so", "libmlir_c_runner_utils.so"))))
config.substitutions.append(("%mlir_runner", os.path.join(llvm_bin, "mlir-runner")))
config.substitutions.append(("%python", "python3"))
# The dist runtime as a shared library, for running per-device programs in
# mlir-runner under mpiexec.
config.substitutions.append(("%dist_runtime_libs", ",".join(
    [os.path.join(bin_dir, "libdist_runtime.so")] + [
        os.path.join(llvm_lib, name) for name in ("libmlir_runner_utils.so", "libmlir_c_runner_utils.so")])))
