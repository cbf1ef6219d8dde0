#!/usr/bin/env bash
# The GPU check of a bundle that scripts/gpu-bundle.sh made: needs no Rust,
# LLVM, MLIR or MPI, only a CUDA driver (and, for the comparisons, python3
# with numpy, PyTorch and JAX on the GPU).
#
#   ./run.sh [--cpu-only | --no-jax]
#
# First every dist op and gradient alone (bin/ops-gpu against the float64
# definitions of check_linalg.py, case by case). For each GPT step in gpt.sizes: its inputs are made again (tools/npy.py,
# seeded; checked against the bundle's checksums), the step runs on the GPU
# (bin/<name>-gpu, --repeat built in) and its loss and gradients are
# compared with the CPU reference results the bundle carries (within 1e-4
# of each tensor's largest value), then JAX runs the same step on the same
# GPU (tools/jax_gpt.py: time and largest difference). Then the GEMM
# kernels beside cuBLAS (tools/gemm.py). --cpu-only runs the CPU programs
# instead (bin/<name>-cpu) against the same references: the bundle's own
# check on a machine without a GPU. Logs go to $OUT (else ./results);
# the table goes to stdout and $OUT/table.md. --no-jax leaves JAX out
# (XLA's autotuning takes most of a run). Exits 1 if anything failed.
set -uo pipefail
bundle=$(cd "$(dirname "$0")" && pwd)
cpu_only=0
jax=1
case "${1:-}" in
  --cpu-only) cpu_only=1 ;;
  --no-jax) jax=0 ;;
  "") ;;
  *) echo "usage: $0 [--cpu-only | --no-jax]" >&2; exit 2 ;;
esac
results=${OUT:-$bundle/results}
mkdir -p "$results"
log=$results/run.log
table=$results/table.md
: > "$log"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
say() { echo "$*" >> "$log"; }
row() { echo "$*" >> "$table"; }

# run_step FLAGS EXE OUT [TOOL...]: the program (under TOOL, if given) with
# its inputs in the order of FLAGS (npy.py's --input list) and its results
# into OUT, for at most $limit seconds; its output to the log, the median
# step time (ms) to stdout.
run_step() {
  local flags=$1 exe=$2 out=$3 k=0 inputs=() err
  shift 3
  for file in $(grep -o '=[^ ]*' "$flags" | cut -c2-); do
    inputs+=("DIST_RUN_INPUT_$k=$file")
    k=$((k + 1))
  done
  err=$work/stderr
  mkdir -p "$out"
  if ! env "${inputs[@]}" DIST_RUN_OUT="$out" DIST_RUN_TIMING=1 timeout "${limit:-300}" "$@" "$exe" > "$err" 2>&1; then
    cat "$err" >> "$log"
    return 1
  fi
  cat "$err" >> "$log"
  sed -nE 's/^step ([0-9.]+) ms.*/\1/p' "$err"
}

# compare REF GOT: the largest difference relative to each tensor's largest
# value; fails above 1e-4.
compare() {
  local line
  line=$(python3 "$bundle/tools/npy.py" compare "$1" "$2" --per-tensor)
  local ok=$?
  say "$line"
  echo "$line" | sed -nE 's/.*: ([0-9.e+-]+)$/\1/p' | head -1
  return $ok
}

# sanitize NAME: the first wrong or failed step once more under
# compute-sanitizer's race and memory checks, where the bundle has its
# one-call program.
sanitize() {
  local exe=$bundle/bin/$1-gpu-once tool
  [ -x "$exe" ] && command -v compute-sanitizer > /dev/null && [ ! -e "$work/sanitized" ] || return 0
  touch "$work/sanitized"
  for tool in racecheck memcheck; do
    say "== compute-sanitizer --tool $tool on $1"
    limit=120 run_step "$work/flags-$1" "$exe" "$work/san-$1" compute-sanitizer --tool "$tool" --print-limit 10 >> "$log"
  done
}

say "== machine"
{
  uname -srm
  grep -m1 "model name" /proc/cpuinfo
  ((cpu_only)) || nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv,noheader
} >> "$log" 2>&1
: > "$table"
device=gpu
((cpu_only)) && device=cpu
if ((!cpu_only)); then
  # The card and the libraries every GPU figure below depends on: cuBLASLt
  # as the programs load it (the loader's path, then the nvidia wheels).
  gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>> "$log" | head -1)
  libraries=$(python3 - 2>> "$log" <<'PY'
import ctypes, glob, importlib, os
found = []
for module in ("torch", "jax", "jaxlib"):
    try:
        found.append(f"{module} {importlib.import_module(module).__version__}")
    except Exception:
        pass
try:
    import nvidia
    folders = [d for p in nvidia.__path__ for d in sorted(glob.glob(os.path.join(p, "*", "lib")))]
except ImportError:
    folders = []
for name in ("libcublasLt.so.13", "libcublasLt.so.12"):
    paths = [name] + [os.path.join(d, name) for d in folders if os.path.exists(os.path.join(d, name))]
    for path in paths:
        try:
            version = ctypes.CDLL(path).cublasLtGetVersion()
        except (OSError, AttributeError):
            continue
        found.append(f"cuBLASLt {version} ({name})")
        break
    else:
        continue
    break
print(", ".join(found))
PY
)
  row "GPU: ${gpu:-unknown}; ${libraries:-no library versions}"
  row ""
fi
say "== ops on the $device"
if (cd "$bundle/ops" && run_step ops.flags "$bundle/bin/ops-$device" "$work/ops-$device" > /dev/null); then
  python3 "$bundle/tools/check_linalg.py" --check "$bundle/ops" "$work/ops-$device" >> "$log" 2>&1 || status=1
  row "ops on the $device: $(tail -1 "$log")"
  grep "^FAIL" "$log" | sed 's/^/    /' >> "$table"
else
  row "ops on the $device: the program failed"
  status=1
fi
row ""
row "| step | system | step (ms) | / JAX | max diff vs CPU | max diff vs JAX |"
row "|---|---|---:|---:|---:|---:|"
while read -r name heads dim vocab; do
  [[ -z "$name" || "$name" == \#* ]] && continue
  say "== $name"
  in=$work/in-$name
  python3 "$bundle/tools/npy.py" inputs "$bundle/programs/$name.mlir" gpt_step "$in" --id-range "$vocab" > "$work/flags-$name"
  if ! (cd "$in" && sha256sum --quiet -c "$bundle/inputs/$name.sha256") >> "$log" 2>&1; then
    say "$name: the remade inputs differ from the bundle's"
    row "| $name | inputs | differ from the bundle's | | | |"
    status=1
    continue
  fi
  ref=$bundle/ref/$name
  if ((cpu_only)); then
    if ms=$(run_step "$work/flags-$name" "$bundle/bin/$name-cpu" "$work/cpu-$name"); then
      diff=n/a
      [ -d "$ref" ] && { diff=$(compare "$ref" "$work/cpu-$name") || status=1; }
      row "| $name | dist CPU | $ms | | $diff | |"
    else
      row "| $name | dist CPU | failed | | | |"
      status=1
    fi
    continue
  fi
  if ms=$(DIST_RT_GPU_PROFILE=1 run_step "$work/flags-$name" "$bundle/bin/$name-gpu" "$work/gpu-$name"); then
    diff=n/a
    [ -d "$ref" ] && { diff=$(compare "$ref" "$work/gpu-$name") || { status=1; sanitize "$name"; }; }
    xla_ms="" jax_diff=""
    if ((jax)); then
      xla=$(JAX_PLATFORMS=cuda XLA_PYTHON_CLIENT_PREALLOCATE=false timeout 300 \
        python3 "$bundle/tools/jax_gpt.py" "$in" "$work/gpu-$name" 1 "$heads" "$dim" 20 2>> "$log")
      say "jax: $xla"
      read -r _ _ _ _ xla_ms _ _ _ _ _ jax_diff <<< "$xla"
    fi
    ratio=$(awk -v a="$ms" -v b="${xla_ms:-0}" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }')
    row "| $name | dist GPU | $ms | $ratio | $diff | ${jax_diff:-n/a} |"
    ((jax)) && row "| $name | JAX GPU (XLA) | ${xla_ms:-failed} | 1 | | |"
  else
    row "| $name | dist GPU | failed | | | |"
    status=1
    sanitize "$name"
  fi
done < "$bundle/gpt.sizes"

if ((!cpu_only)); then
  say "== GEMM"
  read -r sizes tiles < "$bundle/gemm.variants"
  row ""
  python3 "$bundle/tools/gemm.py" "$bundle/bin" "$work" "$sizes" "$tiles" >> "$table" 2>> "$log" || status=1
fi
cat "$table"
exit $status
