#!/usr/bin/env bash
# The GPU check, for a machine with an NVIDIA GPU (and, for the 4-GPU part,
# NCCL): builds, runs the GPT block step on one GPU against the CPU, the
# Megatron MLP on the 2x2 mesh over NCCL when 4 GPUs are there, and prints a
# GEMM throughput table of the generated kernel (cuBLAS beside it when
# PyTorch is installed). Record the output in docs/perf.md.
#
#   scripts/gpu-check.sh [--chip sm_80|sm_90] [--sizes "1024 2048 4096"]
set -euo pipefail
cd "$(dirname "$0")/.."
chip=sm_90
sizes="1024 2048 4096"
while (($#)); do
  case "$1" in
    --chip) chip=$2; shift 2 ;;
    --sizes) sizes=$2; shift 2 ;;
    *) echo "usage: $0 [--chip sm_80|sm_90] [--sizes \"N ...\"]" >&2; exit 2 ;;
  esac
done

scripts/setup.sh
export CUDA_ROOT=${CUDA_ROOT:-$PWD/.tools/cuda/nvidia/cuda_nvcc}
cargo build -q --release -p dist-tools -p dist-runtime
bin=target/release
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== device"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
gpus=$(nvidia-smi -L 2>/dev/null | wc -l)

echo "== GPT block step: one GPU against the CPU (-n 1, the unpartitioned step)"
python3 scripts/npy.py inputs examples/gpt-block.mlir gpt_step "$work/gpt-in"
"$bin/dist-run" examples/gpt-block.mlir --entry gpt_step -n 1 --input-dir "$work/gpt-in" --out "$work/gpt-cpu" -O3
DIST_RT_GPU_PROFILE=1 "$bin/dist-run" examples/gpt-block.mlir --entry gpt_step -n 1 --input-dir "$work/gpt-in" \
  --out "$work/gpt-gpu" --device gpu --chip "$chip" --timing 2> "$work/gpt-gpu.log" || { cat "$work/gpt-gpu.log"; exit 1; }
grep -E "^dist-run:|kernels:" "$work/gpt-gpu.log"
python3 scripts/npy.py compare "$work/gpt-cpu" "$work/gpt-gpu"

if ((gpus >= 4)); then
  echo "== Megatron MLP on the 2x2 mesh: 4 GPUs over NCCL, overlapped, against the CPU"
  python3 scripts/npy.py inputs examples/megatron-mlp.mlir step "$work/mlp-in"
  "$bin/dist-run" examples/megatron-mlp.mlir --entry step -n 1 --input-dir "$work/mlp-in" --out "$work/mlp-cpu"
  "$bin/dist-run" examples/megatron-mlp.mlir --entry step -n 4 --input-dir "$work/mlp-in" --out "$work/mlp-gpu" \
    --device gpu --chip "$chip" --overlap
  python3 scripts/npy.py compare "$work/mlp-cpu" "$work/mlp-gpu"
else
  echo "== (fewer than 4 GPUs: the NCCL run is skipped)"
fi

echo "== GEMM throughput (f32, C = A B, N x N): generated kernel"
printf "%6s  %12s  %12s\n" N "dist TFLOP/s" "cuBLAS TFLOP/s"
for n in $sizes; do
  cat > "$work/gemm.mlir" <<MLIR
func.func @gemm(%a: tensor<${n}x${n}xf32>, %b: tensor<${n}x${n}xf32>) -> tensor<${n}x${n}xf32> {
  %c = dist.matmul %a, %b : (tensor<${n}x${n}xf32>, tensor<${n}x${n}xf32>) -> tensor<${n}x${n}xf32>
  return %c : tensor<${n}x${n}xf32>
}
MLIR
  python3 scripts/npy.py inputs "$work/gemm.mlir" gemm "$work/gemm-in"
  DIST_RT_GPU_PROFILE=1 "$bin/dist-run" "$work/gemm.mlir" --entry gemm -n 1 --input-dir "$work/gemm-in" \
    --out "$work/gemm-out" --device gpu --chip "$chip" --gpu-matmul=generated 2> "$work/gemm.log" || { cat "$work/gemm.log"; exit 1; }
  # The slowest kernel is the product. One launch, so the time includes the
  # first-touch migration of the managed inputs: a lower bound on throughput.
  ms=$(grep -E "^dist-runtime: kernel " "$work/gemm.log" | sed -E 's/.* ([0-9.]+) ms$/\1/' | sort -g | tail -1)
  dist=$(python3 -c "print(f'{2*$n**3/($ms*1e-3)/1e12:.2f}')")
  cublas=$(python3 - "$n" <<'PY' 2>/dev/null || echo "n/a"
import sys, torch
n = int(sys.argv[1])
torch.backends.cuda.matmul.allow_tf32 = False
a, b = torch.randn(n, n, device="cuda"), torch.randn(n, n, device="cuda")
for _ in range(3):
    a @ b
start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
start.record()
for _ in range(10):
    a @ b
end.record()
torch.cuda.synchronize()
print(f"{2 * n**3 / (start.elapsed_time(end) / 10 * 1e-3) / 1e12:.2f}")
PY
)
  printf "%6s  %12s  %12s\n" "$n" "$dist" "$cublas"
done
