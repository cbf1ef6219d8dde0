#!/usr/bin/env bash
# Builds the GPU check as a bundle for a machine with an NVIDIA GPU and no
# toolchain (no Rust, LLVM/MLIR or MPI): single-process executables linked
# with the runtime built without MPI (statically; they need only libc and a
# CUDA driver), the programs and checksums that remake their inputs there,
# the CPU reference results, and run.sh, which runs everything and prints
# one table (scripts/gpu-bundle/run.sh says what it measures).
#
#   scripts/gpu-bundle.sh DIR [--chip sm_80|sm_90] [--profile release|debug]
#
# --profile debug builds with the debug tools (the test suite's check of the
# bundle, which reuses their build); the programs' code is the same. The
# runtime linked into the programs is always the release one: unoptimized,
# it would make each program larger (21 of them) and slower.
#
# In DIR:
#   run.sh                  ./run.sh on the GPU machine; ./run.sh --cpu-only
#                           runs the CPU programs against the same references
#   bin/<gpt>-gpu, -cpu     the GPT training step (dist-gen gpt, one layer)
#                           on one GPU, and on the CPU (x86-64-v3)
#   bin/gemm-<N>-<M.N.K>    C = A B, N x N float32, with the block tile M.N.K
#   bin/ops-gpu, -cpu, ops/ every case of check_linalg.py dist-run feeds (no f64: each op
#                           and gradient on small inputs) as one program,
#                           with its inputs and expected results
#   programs/, inputs/      each step's program (npy.py remakes its seeded
#                           inputs from it) and its inputs' sha256 sums
#   ref/<gpt>/              the CPU results (dist-run -n 1), where they fit
#   gpt.sizes, gemm.variants   what run.sh runs
#   tools/                  npy.py, jax_gpt.py, jax_timing.py, gemm.py
set -euo pipefail
cd "$(dirname "$0")/.."
usage() { echo "usage: $0 DIR [--chip sm_80|sm_90] [--profile release|debug]" >&2; exit 2; }
(($#)) || usage
dir=$1
shift
chip=sm_90
profile=release
while (($#)); do
  case "$1" in
    --chip) chip=$2; shift 2 ;;
    --profile) profile=$2; shift 2 ;;
    *) usage ;;
  esac
done
case "$profile" in
  release) cargo_profile=(--release) ;;
  debug) cargo_profile=() ;;
  *) usage ;;
esac

scripts/setup.sh >&2
export CUDA_ROOT=${CUDA_ROOT:-$PWD/.tools/cuda/nvidia/cuda_nvcc}
cargo build -q "${cargo_profile[@]}" -p dist-tools -p dist-runtime
# The runtime for one process, without MPI: its own target directory, so
# that the MPI build beside it stays as it is.
cargo build -q --release -p dist-runtime --no-default-features --target-dir target/solo
runtime=$PWD/target/solo/release/libdist_runtime.a
bin=target/$profile
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

rm -rf "$dir"
mkdir -p "$dir"/{bin,programs,inputs,ref,tools}
cp scripts/gpu-bundle/run.sh "$dir/"
cp scripts/gpu-bundle/gemm.py scripts/npy.py scripts/jax_gpt.py scripts/jax_timing.py \
  test/Conversion/Inputs/check_linalg.py "$dir/tools/"

# Each op and gradient alone, against its float64 definition.
python3 test/Conversion/Inputs/check_linalg.py --emit "$dir/ops"
ops=("$dir/ops/ops.mlir" --entry ops -O2 --no-run --runtime "$runtime")
"$bin/dist-run" "${ops[@]}" --device gpu --chip "$chip" --keep-exe "$dir/bin/ops-gpu"
"$bin/dist-run" "${ops[@]}" --mcpu x86-64-v3 --keep-exe "$dir/bin/ops-cpu"

# name heads head-dim seq batch vocab reference: the step at hidden 256,
# 512 and 1024. The largest one's results (54 MB) would not fit the
# bundle's 64 MiB: run.sh checks it against JAX alone.
gpt_sizes=(
  "gpt-h256 4 64 128 4 128 yes"
  "gpt-h512 8 64 128 4 128 yes"
  "gpt-h1024 16 64 256 8 1024 no"
)
: > "$dir/gpt.sizes"
for size in "${gpt_sizes[@]}"; do
  read -r name heads dim seq batch vocab reference <<< "$size"
  program=$dir/programs/$name.mlir
  "$bin/dist-gen" gpt --layers 1 --dp 1 --tp 1 --seq "$seq" --batch "$batch" --heads "$heads" \
    --head-dim "$dim" --vocab "$vocab" > "$program"
  python3 scripts/npy.py inputs "$program" gpt_step "$work/in-$name" --id-range "$vocab" > /dev/null
  (cd "$work/in-$name" && sha256sum -- *.npy) > "$dir/inputs/$name.sha256"
  common=("$program" --entry gpt_step -O3 --no-run --runtime "$runtime")
  "$bin/dist-run" "${common[@]}" --device gpu --chip "$chip" --repeat 20 --keep-exe "$dir/bin/$name-gpu"
  "$bin/dist-run" "${common[@]}" --mcpu x86-64-v3 --repeat 5 --keep-exe "$dir/bin/$name-cpu"
  if [ "$name" = gpt-h256 ]; then # one call, for compute-sanitizer
    "$bin/dist-run" "${common[@]}" --device gpu --chip "$chip" --keep-exe "$dir/bin/$name-gpu-once"
  fi
  if [ "$reference" = yes ]; then
    "$bin/dist-run" "$program" --entry gpt_step -n 1 -O3 --input-dir "$work/in-$name" --out "$dir/ref/$name"
  fi
  echo "$name $heads $dim $vocab" >> "$dir/gpt.sizes"
done

# The GEMM at three sizes: on cuBLASLt (f32, and TF32), and generated with
# dist-schedule-gpu's default block tile (64,64,16) and three others, for
# tuning from one run.
gemm_sizes=(1024 2048 4096)
tiles=(64,64,16 128,128,16 128,128,8 64,64,32)
libraries=(cublaslt cublaslt-tf32)
for n in "${gemm_sizes[@]}"; do
  cat > "$work/gemm.mlir" <<MLIR
func.func @gemm(%a: tensor<${n}x${n}xf32>, %b: tensor<${n}x${n}xf32>) -> tensor<${n}x${n}xf32> {
  %c = dist.matmul %a, %b : (tensor<${n}x${n}xf32>, tensor<${n}x${n}xf32>) -> tensor<${n}x${n}xf32>
  return %c : tensor<${n}x${n}xf32>
}
MLIR
  gemm=("$work/gemm.mlir" --entry gemm -O3 --no-run --runtime "$runtime" --device gpu --chip "$chip" --repeat 10)
  "$bin/dist-run" "${gemm[@]}" --keep-exe "$dir/bin/gemm-$n-cublaslt"
  "$bin/dist-run" "${gemm[@]}" --gpu-tf32 --keep-exe "$dir/bin/gemm-$n-cublaslt-tf32"
  for tile in "${tiles[@]}"; do
    "$bin/dist-run" "${gemm[@]}" --gpu-matmul=generated --matmul-tile "$tile" --keep-exe "$dir/bin/gemm-$n-${tile//,/.}"
  done
done
(IFS=,; names=("${libraries[@]}" "${tiles[@]//,/.}"); echo "${gemm_sizes[*]} ${names[*]}") > "$dir/gemm.variants"

strip "$dir"/bin/*
size=$(du -sb "$dir" | cut -f1)
if ((size > 64 * 1024 * 1024)); then
  echo "gpu-bundle: $dir holds $size bytes, over the 64 MiB a GPU run can carry" >&2
  exit 1
fi
echo "gpu-bundle: $dir, $((size / 1024 / 1024)) MiB: $(ls "$dir/bin" | wc -l) programs for $chip" >&2
