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
