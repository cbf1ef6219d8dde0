#!/usr/bin/env bash
# Causal grouped-query attention, forward and backward (the loss
# sum(attention(q, k, v) * w) and the gradients of q, k and v; batch 1, 2
# key/value heads of 4 query heads each, head dim 32), at sequence lengths
# 512, 1024 and 2048: dist.attention (blocks that skip the masked keys),
# the same attention in its steps (dist.matmul, dist.causal_mask,
# dist.softmax, dist.matmul), both run by dist-run -n 1, and XLA's jit of
# it through JAX, all on one core (taskset -c 0, single-threaded BLAS and
# Eigen), on the same inputs, in one run. Prints a table of median step
# times and the ratios, and checks that the three agree (relative to each
# tensor's largest value, 1e-4).
#
#   scripts/bench-attention.sh [REPEAT]   (default 7 step calls per system)
set -euo pipefail
cd "$(dirname "$0")/.."
repeat=${1:-7}
scripts/setup.sh >&2 # JAX into .tools/jax-venv, when it is missing
cargo build -q --release -p dist-tools -p dist-runtime
bin=target/release
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
unset OPENBLAS_CORETYPE
xla_env=(env XLA_FLAGS="--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1" taskset -c 0)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
# program SEQ: the fused and the unfused loss, f32.
program() {
  local n=$1 q kv s l
  q="tensor<1x2x4x${n}x32xf32>" kv="tensor<1x2x1x${n}x32xf32>" s="tensor<1x2x4x${n}x${n}xf32>" l="tensor<1x2x4x${n}xf32>"
  local args="%q: $q {dist.requires_grad}, %k: $kv {dist.requires_grad}, %v: $kv {dist.requires_grad}, %w: $q"
  local tail="  %x = dist.mul %o, %w : ($q, $q) -> $q
  %r = dist.reduce_sum %x {dims = array<i64: 0, 1, 2, 3, 4>} : ($q) -> tensor<f32>
  return %r : tensor<f32>
}"
  cat <<MLIR
func.func @fused($args) -> tensor<f32> {
  %o, %lse = dist.attention %q, %k, %v {causal, scale = 0.17677669529663687 : f64} : ($q, $kv, $kv) -> ($q, $l)
$tail
func.func @unfused($args) -> tensor<f32> {
  %s = dist.matmul %q, %k {transpose_y} : ($q, $kv) -> $s
  %t = dist.scale %s {factor = 0.17677669529663687 : f64} : ($s) -> $s
  %m = dist.causal_mask %t : ($s) -> $s
  %p = dist.softmax %m {axis = 4 : i64} : ($s) -> $s
  %o = dist.matmul %p, %v : ($s, $kv) -> $q
$tail
MLIR
}
step_ms() { sed -nE 's/^step ([0-9.]+) ms.*/\1/p'; }
echo "| seq | XLA (ms) | dist steps (ms) | dist.attention (ms) | steps / XLA | dist.attention / XLA |"
echo "|---:|---:|---:|---:|---:|---:|"
for n in 512 1024 2048; do
  program "$n" > "$work/attention.mlir"
  python3 scripts/npy.py inputs "$work/attention.mlir" fused "$work/in" > /dev/null
  xla=$("${xla_env[@]}" .tools/jax-venv/bin/python scripts/jax_attention.py "$work/in" "$work/xla" "$repeat")
  run() {
    taskset -c 0 "$bin/dist-run" "$work/attention.mlir" --grad --entry "$1" --input-dir "$work/in" --out "$work/$1" \
      --repeat "$repeat" --timing 2>&1 >/dev/null | step_ms
  }
  unfused=$(run unfused)
  fused=$(run fused)
  for system in unfused fused; do
    python3 scripts/npy.py compare "$work/xla" "$work/$system" --per-tensor --tolerance 1e-4 > /dev/null
  done
  echo "| $n | $xla | $unfused | $fused | $(ratio "$unfused" "$xla") | $(ratio "$fused" "$xla") |"
done
