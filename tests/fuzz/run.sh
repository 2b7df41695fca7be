#!/usr/bin/env bash
# Builds the libFuzzer harnesses (clang, ASan + UBSan, libFuzzer coverage) and
# runs each for SECONDS, or for N executions; fails on any crash, sanitizer
# report, broken invariant, leak or timeout that is evolve's. README.md here
# has the details.
#
#   tests/fuzz/run.sh SECONDS [HARNESS...]     (default: every harness)
#   tests/fuzz/run.sh --runs N [HARNESS...]    N executions each from seed FUZZ_SEED
#                                              (default 1), in process: a repeatable
#                                              draw from the same corpus (CI's
#                                              smoke; README.md says how repeatable)
#   tests/fuzz/run.sh --build-only             the build alone (CI builds it ahead, .ci/run)
#
#   FUZZ_BUILD_DIR=build-fuzz   the build folder (its own: clang, sanitizers)
#   FUZZ_WORK=DIR               where corpora, artifacts and logs go
#                               (default FUZZ_BUILD_DIR/fuzz-work; kept between runs,
#                               so a later run starts from what an earlier one found)
#   FUZZ_JOBS=N                 build parallelism (default: nproc)
#   FUZZ_PAR=N                  harnesses run side by side (default: nproc)
#   FUZZ_ARGS="..."             more libFuzzer flags (e.g. -seed=1)
#   FUZZ_TIMEOUT=5              seconds an input may run before it counts as a hang
#
# The HDF5 harnesses (fuzz_dataset_h5, fuzz_run_file, fuzz_checkpoint) run in libFuzzer's fork
# mode and keep going after a crash or timeout; each one is then run again and
# sorted by its stack: where the first frame that lies in libhdf5 or in evolve's
# sources lies in libhdf5 (HDF5 1.10 crashing or looping on a damaged file), it
# is reported as HDF5's and does not fail the run; anything else does. A broken
# invariant of ours (an abort from fuzz_common.h), a leak, and a memory error on
# a buffer evolve allocated always count as evolve's.
set -euo pipefail
cd "$(dirname "$0")/../.."

usage() {
  sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}
RUNS=
SECONDS_EACH=
BUILD_ONLY=
if [ "${1:-}" = --build-only ]; then
  BUILD_ONLY=1
  shift
elif [ "${1:-}" = --runs ]; then
  [[ ${2:-} =~ ^[0-9]+$ ]] || usage
  RUNS=$2
  shift 2
else
  [[ ${1:-} =~ ^[0-9]+$ ]] || usage
  SECONDS_EACH=$1
  shift
fi
ALL=(fuzz_csv_reader fuzz_market fuzz_trades fuzz_ingest fuzz_config fuzz_dataset_h5 fuzz_run_file
  fuzz_checkpoint)
HARNESSES=("$@")
((${#HARNESSES[@]})) || HARNESSES=("${ALL[@]}")

BUILD=${FUZZ_BUILD_DIR:-build-fuzz}
WORK=${FUZZ_WORK:-$BUILD/fuzz-work}

# clang and its libFuzzer runtime (Debian: clang, libclang-rt-N-dev).
need_clang() {
  command -v clang >/dev/null || return 0
  local rt
  rt=$(clang -print-file-name=libclang_rt.fuzzer-x86_64.a 2>/dev/null || true)
  [ -f "$rt" ] || rt=$(clang --print-runtime-dir 2>/dev/null)/libclang_rt.fuzzer-x86_64.a
  [ -f "$rt" ] && return 1
  return 0
}
if need_clang; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "fuzz: installing clang and its libFuzzer runtime" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang >/dev/null
    major=$(clang -dumpversion | cut -d. -f1)
    need_clang && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "libclang-rt-$major-dev" >/dev/null
  fi
  if need_clang; then
    echo "fuzz: needs clang with libFuzzer (Debian: apt-get install clang libclang-rt-14-dev)" >&2
    exit 1
  fi
fi

cmake -S . -B "$BUILD" -G Ninja -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEVOLVE_CUDA=OFF \
  -DEVOLVE_SANITIZE=ON -DEVOLVE_FUZZ=ON -DEVOLVE_BENCH=OFF >/dev/null
cmake --build "$BUILD" --target fuzz_all -j"${FUZZ_JOBS:-$(nproc)}"
[ -z "$BUILD_ONLY" ] || exit 0

# Huge allocations fail (NULL) as on a machine without the memory, instead of
# libFuzzer's out-of-memory stop: HDF5 trusts sizes stored in a damaged file.
export ASAN_OPTIONS=${ASAN_OPTIONS:-allocator_may_return_null=1:max_allocation_size_mb=1024:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# "hdf5", "evolve" or "" (no such stack): the owner of the first stack after the
# line matching $2 in report $1 (see whose below).
stack_owner() {
  awk -v root="$PWD/" -v start="$2" '
    $0 ~ start { on = 1; next }
    on && /^ *#[0-9]+ / {
      if (index($0, "libhdf5")) { print "hdf5"; exit }
      if ($0 ~ /__sanitizer|__asan|__ubsan|__interceptor|fuzzer::/) next
      if (index($0, root) && $0 ~ /\.c:[0-9]+/) { print "evolve"; exit }
      next
    }
    on && /^$/ { print "evolve"; exit }' "$1"
}

# "evolve", "hdf5" or "none" (not reproduced): whose fault the report in file $1 is.
whose() {
  local log=$1
  if grep -q "fuzz: invariant broken\|runtime error:" "$log"; then
    echo evolve
    return
  fi
  if ! grep -q "ERROR: \(AddressSanitizer\|LeakSanitizer\|libFuzzer\)\|SUMMARY:" "$log"; then
    echo none
    return
  fi
  # A leak is HDF5's when every leaked block was allocated by HDF5 for itself:
  # from its internal free lists (H5FL_*, memory it never hands to a caller;
  # e.g. an object header it failed to release after reading a damaged one),
  # inside an open call (H5Dopen2, H5Oopen, H5Aopen, H5Fopen...: a failed open
  # returns no id the caller could close), or in its variable-length conversion
  # (H5T__conv_vlen: strings it converted before a damaged element failed the
  # read stay in its conversion buffer, out of the caller's reach; freeing the
  # caller's buffer on that path was tried and changed nothing).
  if grep -q "LeakSanitizer" "$log"; then
    awk '/leak of/{ if (n && !fl) bad=1; n++; fl=0 } /H5FL_|H5T__conv_vlen| in H5[A-Z]open/{ fl=1 } END{ if (!n || !fl) bad=1; exit bad }' "$log" &&
      echo hdf5 || echo evolve
    return
  fi
  # Otherwise each stack (the crash's, then the allocation's and the free's of a
  # heap error) belongs to whoever owns its first frame that is either in libhdf5
  # or in evolve's own sources; runtime frames (libFuzzer, the sanitizers, libc,
  # whether printed as libc.so or by its source file) own nothing. The report is
  # HDF5's when the crash stack is and no stack is evolve's; a stack with no such
  # frame counts as evolve's.
  local crash others
  crash=$(stack_owner "$log" '^==[0-9]+== ?ERROR')
  others=$(stack_owner "$log" 'allocated by thread')$(stack_owner "$log" 'freed by thread')
  if [ "$crash" = hdf5 ] && [[ $others != *evolve* ]]; then
    echo hdf5
  else
    echo evolve
  fi
}

# Runs harness $bin (the loop's h, dict, corpus, art) with libFuzzer flags
# $2..., its output in file $1.
fuzz_once() {
  local out=$1
  shift
  # shellcheck disable=SC2086
  "${steady[@]}" "$bin" "$@" -timeout="${FUZZ_TIMEOUT:-5}" -dict="$dict" -artifact_prefix="$art/" -print_final_stats=1 \
    ${FUZZ_ARGS:-} "$corpus" "tests/fuzz/corpus/$h" >"$out" 2>&1
}

# --runs: what would make two runs differ goes, as far as known: coverage
# that depends on addresses (ASLR) or on OpenMP's scheduling steers libFuzzer
# to other inputs.
steady=()
if [ -n "$RUNS" ]; then
  export OMP_NUM_THREADS=1
  if setarch "$(uname -m)" -R true 2>/dev/null; then
    steady=(setarch "$(uname -m)" -R)
  else
    echo "fuzz: setarch -R refused here: addresses are random, runs may differ" >&2
  fi
fi

# The executions of a libFuzzer log: its last status line's count.
last_execs() {
  local status
  status=$(grep -aE '^#[0-9]+:?[[:space:]]' "$1" | tail -1 || true)
  [ -n "$status" ] && sed -E 's/^#([0-9]+).*/\1/' <<<"$status" || echo 0
}

# Each saved input of $art not sorted yet, run again alone and sorted (whose):
# counts ours, theirs and lost.
sort_artifacts() {
  local a r
  for a in "$art"/*; do
    [ -f "$a" ] || continue
    case $a in *.report) continue ;; esac
    r=$a.report
    [ -f "$r" ] && continue
    ASAN_OPTIONS=$ASAN_OPTIONS:fast_unwind_on_malloc=0 timeout 120 "$bin" -timeout="${FUZZ_TIMEOUT:-5}" "$a" >"$r" 2>&1 || true
    case $(whose "$r") in
      hdf5)
        theirs=$((theirs + 1))
        echo "fuzz: $h: HDF5-internal (not counted): $(basename "$a"): $(grep -m1 -E 'ERROR' "$r" | cut -c1-160 || true)"
        ;;
      none)
        lost=$((lost + 1))
        echo "fuzz: $h: not reproduced alone (not counted): $(basename "$a") ($(wc -c <"$a") bytes)"
        ;;
      *)
        ours=$((ours + 1))
        echo "fuzz: $h: FAILURE: $(basename "$a") (report: $r)"
        grep -m3 -E 'ERROR|invariant|runtime error|fuzz:' "$r" || true
        # the stacks too (crash, then allocation / free), so a CI log alone says where
        grep -E '^ *#[0-9]+ |allocated by|freed by' "$r" | head -40 || true
        ;;
    esac
  done
}

# One harness $1: its output on stdout, its summary line in WORK/NAME.summary, and WORK/NAME.failed when
# evolve failed (a stop under set -e leaves no summary, which fails the run too).
one_harness() {
  h=$1
  bin=$BUILD/tests/fuzz/$h
  dict=tests/fuzz/csv.dict
  fork=()
  case $h in
    fuzz_config) dict=tests/fuzz/config.dict ;;
    fuzz_dataset_h5 | fuzz_run_file | fuzz_checkpoint)
      dict=tests/fuzz/h5.dict
      fork=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
      ;;
  esac
  corpus=$WORK/corpus/$h
  art=$WORK/artifacts/$h
  log=$WORK/$h.log
  mkdir -p "$corpus" "$art"
  [ -n "${FUZZ_KEEP_ARTIFACTS:-}" ] || rm -f "$art"/*
  : >"$log"
  ours=0 theirs=0 lost=0 execs=0
  if [ -z "$RUNS" ]; then
    echo "=== $h: ${SECONDS_EACH}s"
    rc=0
    fuzz_once "$log" -max_total_time="$SECONDS_EACH" "${fork[@]}" || rc=$?
    execs=$(last_execs "$log")
    sort_artifacts
    if [ -z "${fork[*]}" ] && [ $rc -ne 0 ] && [ $ours -eq 0 ] && [ $theirs -eq 0 ]; then
      ours=1 # a failure without an artifact: the log says what
      echo "fuzz: $h: libFuzzer exited $rc; see $log"
    fi
  else
    # In process and without re-reading the corpus on a timer (-reload=0), so
    # the same inputs every time (fork mode's jobs are timed).
    # A stop on an input sorted as HDF5's or not reproduced goes on from the
    # next seed with the runs left, at most 20 times; an input that stops the
    # run again (HDF5's state built up over many inputs) leaves the work
    # corpus first. The HDF5 harnesses check no leaks here: in one process
    # HDF5's free lists leak on damaged files (the timed, forked runs check).
    seed=${FUZZ_SEED:-1}
    leaks=()
    case $h in fuzz_dataset_h5 | fuzz_run_file | fuzz_checkpoint) leaks=(-detect_leaks=0) ;; esac
    echo "=== $h: $RUNS runs from seed $seed"
    for ((try = 0; try < 20 && execs < RUNS; try++)); do
      part=$log.$try
      rc=0
      ASAN_OPTIONS=$ASAN_OPTIONS${leaks[*]:+:detect_leaks=0} fuzz_once "$part" -runs=$((RUNS - execs)) \
        -seed=$((seed + try)) -reload=0 "${leaks[@]}" || rc=$?
      cat "$part" >>"$log"
      n=$(last_execs "$part")
      execs=$((execs + (n > 0 ? n : 1)))
      stop=$(grep -aoE 'Test unit written to [^ ]+' "$part" | tail -1 | sed 's/^Test unit written to //' || true)
      again=
      [ -n "$stop" ] && [ -f "$stop.report" ] && again=1
      sort_artifacts
      rm -f "$part"
      [ $rc -eq 0 ] && break
      if [ -z "$stop" ] || [ ! -f "$stop.report" ]; then
        ours=1 # a stop no saved input explains: the log says what
        echo "fuzz: $h: libFuzzer exited $rc; see $log"
      elif [ -n "$again" ]; then
        case $(whose "$stop.report") in
          hdf5 | none)
            # the same input again: out of the work corpus, or (a seed) the end
            hash=$(basename "$stop" | sed -E 's/^[a-z]+-//')
            [ -f "$corpus/$hash" ] || break
            rm -f "$corpus/$hash"
            ;;
          *) ours=$((ours + 1)) ;;
        esac
      fi
      [ $ours -gt 0 ] && break
    done
  fi
  status=$(grep -aE '^#[0-9]+:?[[:space:]]' "$log" | tail -1 || true)
  cov=$(grep -oE 'cov: [0-9]+' <<<"$status" || true)
  ft=$(grep -oE 'ft: [0-9]+' <<<"$status" || true)
  result=ok
  if [ $ours -gt 0 ]; then
    result="FAILED ($ours)"
    tail -40 "$log"
  fi
  [ $theirs -gt 0 ] && result="$result, $theirs HDF5-internal"
  [ $lost -gt 0 ] && result="$result, $lost not reproduced"
  printf '%-16s %10s execs  %-10s %-10s corpus %5s  %s\n' "$h" "${execs:-?}" "${cov:-}" "${ft:-}" \
    "$(find "$corpus" -type f | wc -l)" "$result" >"$WORK/$h.summary"
  [ $ours -eq 0 ] || : >"$WORK/$h.failed"
}

# The harnesses side by side, FUZZ_PAR at once (default nproc; each is one process: in process, or fork
# mode's one job at a time), each one's output printed whole, in the list's order, once all are done.
mkdir -p "$WORK"
for h in "${HARNESSES[@]}"; do
  [ -x "$BUILD/tests/fuzz/$h" ] || { echo "fuzz: no harness $h" >&2; exit 2; }
  rm -f "$WORK/$h.summary" "$WORK/$h.failed"
done
running=0
for h in "${HARNESSES[@]}"; do
  if ((running >= ${FUZZ_PAR:-$(nproc)})); then
    wait -n || true
    running=$((running - 1))
  fi
  one_harness "$h" >"$WORK/$h.out" 2>&1 & # (untested, so that set -e holds inside)
  running=$((running + 1))
done
wait
failed=0
summary=()
for h in "${HARNESSES[@]}"; do
  cat "$WORK/$h.out"
  [ -f "$WORK/$h.failed" ] && failed=1
  summary+=("$(cat "$WORK/$h.summary" 2>/dev/null || echo "$h: no summary (see $WORK/$h.out)")")
  [ -f "$WORK/$h.summary" ] || failed=1
done
echo "=== fuzz summary (${RUNS:+$RUNS runs}${SECONDS_EACH:+${SECONDS_EACH}s} each; logs, corpora and artifacts in $WORK)"
printf '%s\n' "${summary[@]}"
exit $failed
