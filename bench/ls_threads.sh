#!/usr/bin/env bash
# Local search's climbs in threads (docs/ga.md "Local search", Threads;
# bench/RESULTS.md "Local search's climbs in threads"): on bench/suite
# lattices, a run of max_evaluations EVALS at 1 and at THREADS threads, side
# by side (REPS rounds, the thread counts alternating): wall and CPU seconds
# of the run, the mean wall of a local-search step (from the run file's
# per-generation wall_s: a step's generation less the median of the others),
# and whether the two --json outputs match (but for the config's path, the
# device line and the timings); then
# the units (evaluations + ls_evaluations) that time_budget_s BUDGET buys at
# each thread count, SEEDS seeds.
#   SUITE_DIR=/work/suite BUILD_DIR=build bash bench/ls_threads.sh
# LATTICES (default "s9 s11"), EVALS_s9 .. (default 300000; s11 1000000),
# THREADS (2), REPS (3), SEEDS (3), BUDGET (10); WORK (bench/out/ls_threads).
# OpenMP's own variables pass through (OMP_WAIT_POLICY=passive: RESULTS says why).
set -euo pipefail
cd "$(dirname "$0")/.."
E=$(pwd)/${BUILD_DIR:-build}/evolve
S=$(cd "${SUITE_DIR:-bench/out/suite}" && pwd)
W=${WORK:-bench/out/ls_threads}
N=${THREADS:-2}
mkdir -p "$W"
PY=/usr/bin/python3 # Debian's, with h5py

config() { # lattice out limit-line
  local data
  data=$(awk -F'\t' -v n="$1" '$1 == n {print $3}' bench/suite/lattices.tsv)
  sed -e "s|DATA|$S/$data.h5|" -e "s|OUT|$2|" "bench/suite/$1.yaml"
  printf 'ga:\n  %s\n' "$3"
}

step_wall() { # run file: the mean wall of a local-search step (ls_every 5)
  "$PY" - "$1" <<'EOF'
import sys, statistics, h5py
w = list(h5py.File(sys.argv[1], "r")["ga/stats/wall_s"][:])
d = [b - a for a, b in zip(w, w[1:])]
ls = [x for g, x in enumerate(d) if (g + 1) % 5 == 0]
gen = statistics.median([x for g, x in enumerate(d) if (g + 1) % 5 != 0])
print(f"{statistics.mean(ls) - gen:.3f} s a step ({len(ls)} steps)")
EOF
}

same_json() { # two --json files equal but for the config path, device line and timings
  "$PY" - "$1" "$2" <<'EOF'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
for d in (a, b):  # what differs by design: the config's path, the device line, timings
    for k in ("config", "device", "seconds"):
        d.pop(k, None)
print("same results" if a == b else "RESULTS DIFFER")
EOF
}

echo "machine: $(nproc) cores, $(uptime); OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-}"
for lat in ${LATTICES:-s9 s11}; do
  v=EVALS_$lat
  evals=${!v:-$([ "$lat" = s11 ] && echo 1000000 || echo 300000)}
  for rep in $(seq "${REPS:-3}"); do
    for t in 1 "$N"; do
      out=$W/$lat-e-$t.h5
      config "$lat" "$out" "max_evaluations: $evals" >"$W/$lat-e-$t.yaml"
      rm -f "$out"
      OMP_NUM_THREADS=$t /usr/bin/time -f "%e %U %S" -o "$W/time" "$E" "$W/$lat-e-$t.yaml" --seed 1 --quiet \
        --json "$W/$lat-e-$t.json" >/dev/null 2>>"$W/stderr.log"
      read -r wall user sys <"$W/time"
      echo "$lat EVALS $evals, $t thread(s), round $rep: wall $wall s, CPU $(echo "$user + $sys" | bc) s," \
        "$(step_wall "$out"), load $(cut -d' ' -f1 /proc/loadavg)"
    done
    echo "$lat round $rep: 1 vs $N threads: $(same_json "$W/$lat-e-1.json" "$W/$lat-e-$N.json")"
  done
  for seed in $(seq "${SEEDS:-3}"); do
    for t in 1 "$N"; do
      config "$lat" "$W/$lat-b.h5" "time_budget_s: ${BUDGET:-10}" >"$W/$lat-b.yaml"
      rm -f "$W/$lat-b.h5"
      OMP_NUM_THREADS=$t /usr/bin/time -f "%e %U %S" -o "$W/time" "$E" "$W/$lat-b.yaml" --seed "$seed" --quiet \
        --json "$W/$lat-b.json" >/dev/null 2>>"$W/stderr.log"
      read -r wall user sys <"$W/time"
      "$PY" -c "import json,sys; d=json.load(open(sys.argv[1])); u=d['unique_evaluations']; l=d['ls_evaluations']
print(f'$lat time_budget_s ${BUDGET:-10}, seed $seed, $t thread(s): {u + l:,} units ({u:,} + {l:,} of sweeps),'
      f' {d[\"generations\"]} generations, best {d[\"top\"][0][\"fitness\"]:.6g}; wall $wall s, CPU',
      round($user + $sys, 2), 's, load', open('/proc/loadavg').read().split()[0])" "$W/$lat-b.json"
    done
  done
done
