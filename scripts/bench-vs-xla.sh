#!/usr/bin/env bash
# The GPT block's training step compiled and run by dist-run (-n 1, one
# thread; and -n 4 on a 2 x 2 mesh with overlap) beside the same model in
# JAX/XLA (scripts/jax_gpt.py) on one core (taskset -c 0, single-threaded
# Eigen), on the same inputs, in one run; then dist-gen llama's step at
# hidden 512 (8 heads, 2 key/value heads, ffn 1376, seq 128, batch 4,
# vocabulary 1024, Llama's rotary tables) beside scripts/jax_llama.py.
# At hidden 512 the GPT step also runs in mixed precision (dist-gen
# --dtype bf16) beside XLA's bf16 step (f32 parameters cast to bf16 in the
# step). Prints a table with compile time, median step time, GFLOP/s
# (XLA's FLOP count for both) and our ratios to XLA, and checks that the
# losses and gradients agree (GPT: relative to max(1, |x|); Llama: to each
# tensor's largest value; bf16: each step's error against float64).
#
# Then compile time against depth: the GPT step at hidden 512 with 1, 8 and
# 32 layers, compiled by dist-run with its identical layers outlined
# (dist-outline-layers, the default) and without (--no-outline-layers),
# beside XLA's jit of the same model (REPEAT_DEPTH step calls each,
# default 3).
#
#   scripts/bench-vs-xla.sh [REPEAT]        (default 20 step calls per system)
#   scripts/bench-vs-xla.sh [REPEAT] depth  (the depth table only)
#
# scripts/setup.sh installs JAX from PyPI into .tools/jax-venv when it is
# missing.
set -euo pipefail
cd "$(dirname "$0")/.."
repeat=${1:-20}
only=${2:-}
scripts/setup.sh >&2 # JAX into .tools/jax-venv, when it is missing
venv=.tools/jax-venv
cargo build -q --release --workspace
bin=target/release
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
# The runtime picks OpenBLAS's kernels for the CPU unless told otherwise
# (runtime/src/blas.rs); a forced core type in the environment (this
# machine's sets OPENBLAS_CORETYPE=Haswell) would hide that.
unset OPENBLAS_CORETYPE
xla_env=(env XLA_FLAGS="--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1" taskset -c 0)
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

depth_table() {
  local depth_repeat=${REPEAT_DEPTH:-3}
  echo "| layers | system | compile (ms) | step (ms) | compile / 1 layer | compile / XLA | step / XLA |"
  echo "|---:|---|---:|---:|---:|---:|---:|"
  local first_on="" first_off="" layers
  for layers in 1 8 32; do
    "$bin/dist-gen" gpt --layers "$layers" --seq 128 --head-dim 64 --dp 1 --tp 1 --batch 4 --heads 8 --vocab 128 \
      > "$work/depth.mlir"
    python3 scripts/npy.py inputs "$work/depth.mlir" gpt_step "$work/depth-in" --id-range 128 > /dev/null
    depth_run() { # out, flags...: prints "compile_ms step_ms"
      local out
      out=$(taskset -c 0 "$bin/dist-run" "$work/depth.mlir" --entry gpt_step --input-dir "$work/depth-in" --out "$1" \
        -O3 --repeat "$depth_repeat" --timing "${@:2}" 2>&1 >/dev/null)
      echo "$(echo "$out" | sed -nE 's/.*compile ([0-9]+) ms.*/\1/p') $(echo "$out" | sed -nE 's/^step ([0-9.]+) ms.*/\1/p')"
    }
    local on_compile on_step off_compile off_step xla_compile xla_step
    read -r on_compile on_step <<< "$(depth_run "$work/depth-on")"
    read -r off_compile off_step <<< "$(depth_run "$work/depth-off" --no-outline-layers)"
    cmp -s "$work/depth-on/result0.npy" "$work/depth-off/result0.npy"
    read -r _ _ xla_compile _ xla_step _ <<< \
      "$("${xla_env[@]}" "$venv/bin/python" scripts/jax_gpt.py "$work/depth-in" "$work/depth-on" "$layers" 8 64 "$depth_repeat")"
    first_on=${first_on:-$on_compile}
    first_off=${first_off:-$off_compile}
    echo "| $layers | dist-run, layers outlined | $on_compile | $on_step | $(ratio "$on_compile" "$first_on") | $(ratio "$on_compile" "$xla_compile") | $(ratio "$on_step" "$xla_step") |"
    echo "| $layers | dist-run --no-outline-layers | $off_compile | $off_step | $(ratio "$off_compile" "$first_off") | $(ratio "$off_compile" "$xla_compile") | $(ratio "$off_step" "$xla_step") |"
    echo "| $layers | XLA, 1 core | $xla_compile | $xla_step | | 1 | 1 |"
  done
}

if [ "$only" = depth ]; then
  depth_table
  exit 0
fi

echo "| hidden | system | compile (ms) | step (ms) | GFLOP/s | compile / XLA | step / XLA | max diff vs XLA |"
echo "|---:|---|---:|---:|---:|---:|---:|---:|"
for size in "4 64" "8 64"; do
  read -r heads dim <<< "$size"
  hidden=$((heads * dim))
  # The same global model: dist-gen's sizes are per shard.
  "$bin/dist-gen" gpt --layers 1 --seq 128 --head-dim "$dim" --dp 1 --tp 1 --batch 4 --heads "$heads" --vocab 128 \
    > "$work/single.mlir"
  "$bin/dist-gen" gpt --layers 1 --seq 128 --head-dim "$dim" --dp 2 --tp 2 --batch 2 --heads $((heads / 2)) --vocab 64 \
    > "$work/sharded.mlir"
  python3 scripts/npy.py inputs "$work/single.mlir" gpt_step "$work/in" --id-range 128 > /dev/null
  run() { # n, program, out: prints "compile_ms step_ms"
    local out
    out=$(taskset -c 0 "$bin/dist-run" "$2" --entry gpt_step -n "$1" --input-dir "$work/in" --out "$3" -O3 \
      --repeat "$repeat" --timing "${@:4}" 2>&1 >/dev/null)
    echo "$(echo "$out" | sed -nE 's/.*compile ([0-9]+) ms.*/\1/p') $(echo "$out" | sed -nE 's/^step ([0-9.]+) ms.*/\1/p')"
  }
  read -r ours_compile ours_step <<< "$(run 1 "$work/single.mlir" "$work/ours")"
  read -r _ _ xla_compile _ xla_step _ flops _ loss _ diff <<< \
    "$("${xla_env[@]}" "$venv/bin/python" scripts/jax_gpt.py "$work/in" "$work/ours" 1 "$heads" "$dim" "$repeat")"
  # The sharded step on 4 processes (2 cores here: oversubscribed).
  read -r sharded_compile sharded_step <<< "$("$bin/dist-run" "$work/sharded.mlir" --entry gpt_step -n 4 \
    --input-dir "$work/in" --out "$work/sharded" -O3 --repeat "$repeat" --timing --overlap 2>&1 >/dev/null |
    { out=$(cat); echo "$(echo "$out" | sed -nE 's/.*compile ([0-9]+) ms.*/\1/p') $(echo "$out" | sed -nE 's/^step ([0-9.]+) ms.*/\1/p')"; })"
  python3 scripts/npy.py compare "$work/ours" "$work/sharded" > /dev/null
  gflops() { awk -v f="$flops" -v ms="$1" 'BEGIN { printf "%.1f", f / (ms * 1e6) }'; }
  echo "| $hidden | dist-run -n 1 | $ours_compile | $ours_step | $(gflops "$ours_step") | $(ratio "$ours_compile" "$xla_compile") | $(ratio "$ours_step" "$xla_step") | $diff |"
  echo "| $hidden | XLA, 1 core | $xla_compile | $xla_step | $(gflops "$xla_step") | 1 | 1 | |"
  echo "| $hidden | dist-run -n 4 (2 x 2, overlap) | $sharded_compile | $sharded_step | | | | |"
  [ "$hidden" = 512 ] || continue
  # Mixed precision (dist-gen --dtype bf16): f32 master parameters cast to
  # bf16 in the step, on the same inputs, beside XLA's bf16 step; the last
  # column is each one's error against the step in float64.
  "$bin/dist-gen" gpt --layers 1 --seq 128 --head-dim "$dim" --dp 1 --tp 1 --batch 4 --heads "$heads" --vocab 128 \
    --dtype bf16 > "$work/bf16.mlir"
  read -r bf16_compile bf16_step <<< "$(run 1 "$work/bf16.mlir" "$work/bf16")"
  read -r _ _ xla_bf16_compile _ xla_bf16_step _ _ _ _ _ _ _ ours_error _ xla_error <<< \
    "$("${xla_env[@]}" "$venv/bin/python" scripts/jax_gpt.py "$work/in" "$work/bf16" 1 "$heads" "$dim" "$repeat" bf16)"
  echo "| $hidden bf16 | dist-run -n 1 | $bf16_compile | $bf16_step | $(gflops "$bf16_step") | $(ratio "$bf16_compile" "$xla_bf16_compile") | $(ratio "$bf16_step" "$xla_bf16_step") | f64 error $ours_error |"
  echo "| $hidden bf16 | XLA, 1 core | $xla_bf16_compile | $xla_bf16_step | $(gflops "$xla_bf16_step") | 1 | 1 | f64 error $xla_error |"
  bf16_vs_f32=$(ratio "$bf16_step" "$ours_step")
done

# Llama: global sizes, so one set of inputs serves every mesh.
llama=(--layers 1 --batch 4 --seq 128 --heads 8 --kv-heads 2 --head-dim 64 --ffn 1376 --vocab 1024 --forward-only)
"$bin/dist-gen" llama "${llama[@]}" --dp 1 --tp 1 > "$work/llama.mlir"
"$bin/dist-gen" llama "${llama[@]}" --dp 2 --tp 2 > "$work/llama-sharded.mlir"
python3 scripts/npy.py inputs "$work/llama.mlir" llama_step "$work/llama-in" --id-range 1024 --scale 0.1 > /dev/null
"$venv/bin/python" scripts/jax_llama.py rope "$work/llama-in" 10000
timed() { # n, program, out, flags...: prints "compile_ms step_ms"; -n 1 on one core
  local out pin=()
  [ "$1" = 1 ] && pin=(taskset -c 0)
  out=$("${pin[@]}" "$bin/dist-run" "$2" --grad --entry llama_step -n "$1" --input-dir "$work/llama-in" --out "$3" \
    -O3 --repeat "$repeat" --timing "${@:4}" 2>&1 >/dev/null)
  echo "$(echo "$out" | sed -nE 's/.*compile ([0-9]+) ms.*/\1/p') $(echo "$out" | sed -nE 's/^step ([0-9.]+) ms.*/\1/p')"
}
read -r ours_compile ours_step <<< "$(timed 1 "$work/llama.mlir" "$work/llama-ours")"
read -r _ _ xla_compile _ xla_step _ flops _ loss _ diff <<< \
  "$("${xla_env[@]}" "$venv/bin/python" scripts/jax_llama.py bench "$work/llama-in" "$work/llama-ours" 1 8 2 "$repeat")"
read -r sharded_compile sharded_step <<< "$(timed 4 "$work/llama-sharded.mlir" "$work/llama-sharded" --overlap)"
python3 scripts/npy.py compare "$work/llama-ours" "$work/llama-sharded" > /dev/null
echo "| 512 Llama | dist-run -n 1 | $ours_compile | $ours_step | $(gflops "$ours_step") | $(ratio "$ours_compile" "$xla_compile") | $(ratio "$ours_step" "$xla_step") | $diff |"
echo "| 512 Llama | XLA, 1 core | $xla_compile | $xla_step | $(gflops "$xla_step") | 1 | 1 | |"
echo "| 512 Llama | dist-run -n 4 (2 x 2, overlap) | $sharded_compile | $sharded_step | | | | |"
echo
echo "bf16 GPT step at hidden 512 / our f32 step: $bf16_vs_f32"
echo "loss and gradients: max difference against XLA, GPT relative to max(1, |x|), Llama to each tensor's largest value; FLOPs: XLA's cost analysis"
echo
depth_table
