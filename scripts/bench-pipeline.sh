#!/usr/bin/env bash
# The sharding pipeline on generated GPT steps of N layers (dist-gen gpt
# --layers N --dp 2 --tp 4), one dist-opt process each with parse, verify
# and print: the wall time, each pass's time (--mlir-timing) and the cost
# per dist op. Prints a table; the figures go to docs/perf.md.
#
#   scripts/bench-pipeline.sh [N ...]      (default 100 250 500 1000)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build -q --release --bin dist-opt --bin dist-gen
bin=target/release
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passes=(dist-propagate-sharding dist-resolve-partial dist-split-matmul-grad dist-overlap-collectives dist-partition)
pipeline="builtin.module(func.func($(IFS=,; echo "${passes[*]}")))"
echo "| N | dist ops | wall (s) | $(IFS='|'; echo "${passes[*]}" | sed 's/|/ (ms) | /g') (ms) | wall per op (us) |"
echo "|---:|---:|---:|$(printf -- '---:|%.0s' "${passes[@]}")---:|"
for n in "${@:-100 250 500 1000}"; do
  for layers in $n; do
    "$bin/dist-gen" gpt --layers "$layers" --dp 2 --tp 4 > "$work/g.mlir"
    ops=$(grep -c '= dist\.' "$work/g.mlir" || true)
    start=$(date +%s%N)
    timing=$("$bin/dist-opt" "$work/g.mlir" --pass-pipeline="$pipeline" --mlir-timing -o /dev/null 2>&1)
    ns=$(($(date +%s%N) - start))
    row="| $layers | $ops | $(awk -v ns="$ns" 'BEGIN { printf "%.2f", ns / 1e9 }') |"
    for p in "${passes[@]}"; do
      ms=$(echo "$timing" | awk -v p="$p" '$NF == p { printf "%.0f", $1 * 1000 }')
      row="$row $ms |"
    done
    echo "$row $(awk -v ns="$ns" -v ops="$ops" 'BEGIN { printf "%.0f", ns / 1e3 / ops }') |"
  done
done
