#!/usr/bin/env bash
# Installs what dist-mlir needs on Debian 12 with Rust, skipping what is
# already there: LLVM/MLIR 22 (with clang 22, which must build the C++ side;
# see docs/linking.md), CMake, Ninja, MPICH (the runtime's MPI), OpenBLAS
# (the runtime's f32 GEMMs) and oneDNN (its bf16 ones), both loaded at run
# time, lit and the
# cargo dependencies, ptxas with libdevice from the CUDA compiler wheel, and
# JAX (the independent autodiff references and the XLA benchmarks).
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools libclang-22-dev
          libpolly-22-dev lld-22 clang-22 libzstd-dev zlib1g-dev libxml2-dev
          libz3-dev cmake ninja-build mpich libmpich-dev libopenblas0 libdnnl2 python3-venv)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=(); [[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -q
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -q "${missing[@]}"
fi

if ! python3 -c 'import lit' 2>/dev/null; then
  echo "setup: installing lit"
  python3 -m pip install -q lit
fi

# ptxas and libdevice for the GPU checks (no GPU or driver needed): the
# CUDA compiler wheel, unpacked into the ignored .tools/cuda.
cuda_wheel=nvidia-cuda-nvcc-cu12==12.9.86
if [[ ! -x .tools/cuda/nvidia/cuda_nvcc/bin/ptxas ]]; then
  echo "setup: installing $cuda_wheel (ptxas, libdevice)"
  python3 -m pip install -q --no-deps --target .tools/cuda "$cuda_wheel"
fi

# JAX in its own environment (ignored .tools/jax-venv): the tests'
# float64 references and scripts/bench-vs-xla.sh.
jax_venv=.tools/jax-venv
if ! "$jax_venv/bin/python" -c 'import jax' 2>/dev/null; then
  echo "setup: installing JAX into $jax_venv"
  python3 -m venv "$jax_venv"
  "$jax_venv/bin/pip" install -q "jax==0.10.2"
fi

cargo fetch -q
