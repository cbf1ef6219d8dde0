# lit configuration of the dist-mlir test suite.
import glob
import os
import sys

import lit
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


def newest_dialect_plugin():
    """The dialect-only plugin CMake built for this profile (cargo keeps one
    build directory per configuration of the dialect crate: the newest is
    this build's)."""
    found = glob.glob(os.path.join(bin_dir, "build", "dist-dialect-*", "out", "build", "lib", "libDistPlugin.so"))
    return max(found, key=os.path.getmtime) if found else ""


# The plugin (dialect, passes and pipelines) beside the binaries
# (`cargo build` makes it; `cargo test` builds it for the suite:
# tools/tests/lit.rs), and the older dialect-only one.
plugin = os.environ.get("DIST_PLUGIN") or os.path.join(bin_dir, "libdist_mlir_plugin.so")
dialect_plugin = os.environ.get("DIST_DIALECT_PLUGIN") or newest_dialect_plugin()

config.environment["PATH"] = os.pathsep.join([bin_dir, llvm_bin, os.environ.get("PATH", "")])
config.substitutions.append(("%dist_plugin", plugin))
config.substitutions.append(("%dist_dialect_plugin", dialect_plugin))
if os.path.exists(plugin) and dialect_plugin and os.path.exists(dialect_plugin):
    config.available_features.add("plugin")
elif os.environ.get("DIST_PLUGIN"):
    # `cargo test` built them: a missing one is a failure, not a skip.
    lit_config.fatal(f"no plugin at DIST_PLUGIN ({plugin}) or DIST_DIALECT_PLUGIN ({dialect_plugin})")
else:
    lit_config.note(
        f"Plugin/ tests are unsupported: no plugin at {plugin} or no dialect plugin under "
        f"{os.path.join(bin_dir, 'build')}: build the workspace (cargo build) or set DIST_PLUGIN and DIST_DIALECT_PLUGIN")

# Numerical checks run lowered code in upstream's JIT runner.
llvm_lib = os.path.join(os.path.dirname(llvm_bin), "lib")
config.substitutions.append(("%mlir_runner_libs", ",".join(
    os.path.join(llvm_lib, name) for name in ("libmlir_runner_utils.so", "libmlir_c_runner_utils.so"))))
config.substitutions.append(("%mlir_runner", os.path.join(llvm_bin, "mlir-runner")))
config.substitutions.append(("%python", "python3"))
# This lit, for a test that runs lit by hand: its Python, finding its
# package (Debian's lit lives outside that Python's path); %dist_bin_dir is
# the build it tests.
lit_path = os.pathsep.join(
    p for p in [os.path.dirname(os.path.dirname(lit.__file__)), os.environ.get("PYTHONPATH", "")] if p)
config.substitutions.append((
    "%lit", f'env PYTHONPATH={lit_path} {sys.executable} -c "from lit.main import main; main()"'))
config.substitutions.append(("%dist_bin_dir", bin_dir))
# The dist runtime as a shared library, for running per-device programs in
# mlir-runner under mpiexec.
config.substitutions.append(("%dist_runtime_libs", ",".join(
    [os.path.join(bin_dir, "libdist_runtime.so")] + [
        os.path.join(llvm_lib, name) for name in ("libmlir_runner_utils.so", "libmlir_c_runner_utils.so")])))

# GPU code generation links libdevice and is checked by ptxas, both from a
# CUDA toolkit: CUDA_ROOT, or the nvidia-cuda-nvcc-cu12 wheel that
# scripts/setup.sh installs under .tools/cuda. The README test command sets
# DIST_REQUIRE_PTXAS so that CI cannot skip the PTX checks.
cuda_root = os.environ.get("CUDA_ROOT") or os.path.join(root, ".tools", "cuda", "nvidia", "cuda_nvcc")
ptxas = os.path.join(cuda_root, "bin", "ptxas")
if os.path.exists(ptxas):
    config.available_features.add("ptxas")
    config.environment["CUDA_ROOT"] = cuda_root
elif os.environ.get("DIST_REQUIRE_PTXAS"):
    lit_config.fatal(f"no ptxas at {ptxas}: run scripts/setup.sh or set CUDA_ROOT")
config.substitutions.append(("%ptxas", ptxas))

# The independent autodiff references run JAX (float64), installed by
# scripts/setup.sh into .tools/jax-venv; the README test command sets
# DIST_REQUIRE_JAX so that CI cannot skip them.
jax_python = os.path.join(root, ".tools", "jax-venv", "bin", "python")
if os.path.exists(jax_python):
    config.available_features.add("jax")
elif os.environ.get("DIST_REQUIRE_JAX"):
    lit_config.fatal(f"no JAX at {jax_python}: run scripts/setup.sh")
config.substitutions.append(("%jax_python", jax_python))
# Flax and optax are installed into the same environment on first use (by
# scripts/jax-export.py of a SPEC that imports them): the tests that
# re-export the Flax examples run where they are.
if glob.glob(os.path.join(root, ".tools", "jax-venv", "lib", "python*", "site-packages", "flax")):
    config.available_features.add("flax")
# PyTorch, torch-mlir and transformers are installed on first use by
# scripts/torch-export.py into .tools/torch-venv: the tests that re-export
# the PyTorch examples and remake their references run where they are.
torch_python = os.path.join(root, ".tools", "torch-venv", "bin", "python")
if glob.glob(os.path.join(root, ".tools", "torch-venv", "lib", "python*", "site-packages", "torch_mlir")):
    config.available_features.add("torch")
config.substitutions.append(("%torch_python", torch_python))
config.substitutions.append(("%cuda_root", cuda_root))

# A machine with an NVIDIA driver runs the GPU tests; one without checks
# that dist-run --device gpu says so.
try:
    import ctypes
    ctypes.CDLL("libcuda.so.1")
    config.available_features.add("cuda-driver")
except OSError:
    pass
