# lit configuration of the out-of-tree example's tests: MY_OPT_DIR holds the
# my-opt built against the installed package (scripts/test.sh builds it).
import os

import lit.formats

config.name = "my-opt"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.excludes = ["lit.cfg.py"]
my_opt_dir = os.environ.get("MY_OPT_DIR")
if not my_opt_dir:
    lit_config.fatal("set MY_OPT_DIR to the build directory of examples/out-of-tree (scripts/test.sh does)")
config.environment["PATH"] = os.pathsep.join([my_opt_dir, "/usr/lib/llvm-22/bin", os.environ.get("PATH", "")])
