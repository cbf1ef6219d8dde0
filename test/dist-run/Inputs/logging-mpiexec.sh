#!/usr/bin/env bash
# A stand-in MPI launcher: `logging-mpiexec.sh FLAVOUR LOG [mpiexec args...]`.
# Answers --version as FLAVOUR's launcher does (openmpi or mpich), logs the
# arguments and Open MPI's root variable to LOG, then runs the job with the
# real (MPICH) mpiexec, without the Open MPI-only --oversubscribe.
flavour=$1 log=$2
shift 2
if [[ $1 == --version ]]; then
  [[ $flavour == openmpi ]] && echo "mpiexec (OpenRTE) 4.1.4" || echo "HYDRA build details:"
  exit 0
fi
echo "args: $*" > "$log"
echo "OMPI_ALLOW_RUN_AS_ROOT=${OMPI_ALLOW_RUN_AS_ROOT:-}" >> "$log"
args=()
for a in "$@"; do [[ $a == --oversubscribe ]] || args+=("$a"); done
exec mpiexec "${args[@]}"
