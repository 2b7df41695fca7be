#!/usr/bin/env bash
# CI's builds ahead (.ci/run; bench/RESULTS.md "CI time, ninth cut"): the builds of later stages,
# run one after the other in the order given, at the idle scheduling class (SCHED_IDLE: a core the
# foreground stages leave idle, and nothing else). What such a build compiles no earlier stage
# compiles (clang for the OpenMP-TSan and fuzz stages, MinGW for Windows), so it only takes time the
# run would otherwise lose: a ctest whose last test runs alone, a configure's serial probes, a link.
# Each stage that needs one waits for it (.ci/run's ahead_wait) and then runs its own script, which
# builds what is left: nothing, or all of it when the build ahead failed (its errors are then the
# stage's own). The packages must be installed before (no apt-get here: dpkg's lock is one).
#   bash scripts/build-ahead.sh DIR JOB...    JOB: omp-tsan | windows | fuzz
# Writes DIR/JOB.log (the build's output) and, when it ends, DIR/JOB.done ("EXIT WALL-SECONDS CPU-SECONDS").
set -uo pipefail
cd "$(dirname "$0")/.."
dir=$1
shift
mkdir -p "$dir"
idle=(nice -n 19) # where the idle class is refused, the lowest priority
chrt --idle 0 true 2>/dev/null && idle=(chrt --idle 0)
. scripts/cpu-now.sh
trap 'rm -f "$CPU_TMP"' EXIT
for job in "$@"; do
  case $job in
    omp-tsan) cmd=(bash scripts/omp-tsan.sh --build-only) ;;
    windows) cmd=(bash scripts/windows-check.sh --build-only) ;;
    fuzz) cmd=(bash tests/fuzz/run.sh --build-only) ;;
    *) echo "build-ahead: no job $job (omp-tsan, windows, fuzz)" >&2; exit 2 ;;
  esac
  cpu_now
  t=$SECONDS c=$CPU_NOW
  # (no compiler cache: none of these compilations is another stage's, and the stages' hit counts stay theirs)
  CCACHE_DISABLE=1 "${idle[@]}" "${cmd[@]}" >"$dir/$job.log" 2>&1 </dev/null
  rc=$?
  cpu_now
  echo "$rc $((SECONDS - t)) $((CPU_NOW - c))" >"$dir/$job.done"
done
