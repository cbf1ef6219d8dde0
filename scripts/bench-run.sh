#!/usr/bin/env bash
# Compile and run times of the GPT block through dist-run, sharded (4
# processes, 2 x 2 mesh, overlap) against -n 1, at a few sizes. Prints a
# table; the figures go to docs/perf.md. Release build.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build -q --release --workspace
bin=target/release
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "| per-shard sizes (batch, seq, heads, head dim) | hidden | n | compile (ms) | passes | codegen | link | run (ms) |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for size in "2 16 2 32" "2 64 2 64" "4 128 4 64"; do
  read -r batch seq heads dim <<< "$size"
  prog="$work/gpt-$batch-$seq-$heads-$dim.mlir"
  "$bin/dist-gen" gpt --layers 1 --dp 2 --tp 2 --batch "$batch" --seq "$seq" --heads "$heads" --head-dim "$dim" > "$prog"
  python3 scripts/npy.py inputs "$prog" gpt_step "$work/in" --id-range 256 > /dev/null
  for n in 1 4; do
    extra=(); [[ $n -gt 1 ]] && extra=(--overlap)
    line=$("$bin/dist-run" "$prog" --entry gpt_step -n "$n" --input-dir "$work/in" --out "$work/out$n" -O3 --timing "${extra[@]}" 2>&1 >/dev/null | grep "dist-run: compile")
    read -r c p g l r <<< "$(echo "$line" | sed -E 's/.*compile ([0-9]+) ms \(passes ([0-9]+), codegen ([0-9]+), link ([0-9]+)\); run ([0-9]+) ms.*/\1 \2 \3 \4 \5/')"
    echo "| $batch, $seq, $heads, $dim | $((2 * heads * dim)) | $n | $c | $p | $g | $l | $r |"
  done
  python3 scripts/npy.py compare "$work/out1" "$work/out4" > /dev/null
done
