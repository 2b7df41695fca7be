#!/usr/bin/env bash
# The 12-gene search study (issue 18; results in bench/RESULTS.md): on 20 days
# of gen-data's sample data, bench/study12.yaml's lattice (min and max filters
# on five entry metrics, target, stop: 5.4e15 points), best fitness at equal
# unique-evaluation budgets for
#   default  the default GA (population auto, local search every 5, depth 2)
#   old      the settings before issue 18 (population 4096, no local search)
#   random   random search: one generation of BUDGET uniform genomes
# against the best fitness that LONG-evaluation runs of the default GA found
# (20x the budget; LONG_SEEDS of them, default 1, seeds 1..). Wall times are whole processes (load,
# tables, search, run file).
#   bash bench/study12.sh [SEEDS [BUDGET]]      (default 10 200000)
# OBJECTIVE (default total_return) and MIN_TRADES (default 20) choose the
# objective; STUDY_DIR the scratch folder (default bench/out/study12); PYTHON a
# Python with h5py (default python3).
set -euo pipefail
cd "$(dirname "$0")/.."
SEEDS=${1:-10}
BUDGET=${2:-200000}
LONG=$((BUDGET * 20))
E=${BUILD_DIR:-build}/evolve
OBJ=${OBJECTIVE:-total_return}
MINT=${MIN_TRADES:-20}
mkdir -p "${STUDY_DIR:-bench/out/study12}/$OBJ-$MINT"
W=$(cd "${STUDY_DIR:-bench/out/study12}/$OBJ-$MINT" && pwd)
G=$(dirname "$W")
[ -f "$G/data20/all_trade_logs.csv" ] || "$E" gen-data --out "$G/data20" --days 20 --seed 1 --quiet
[ -f "$G/data20.h5" ] || "$E" ingest --market "$G/data20/market" --trades "$G/data20/all_trade_logs.csv" \
    --tickers SOXL,IONQ,MARA --out "$G/data20.h5" >/dev/null 2>&1
D=$(cd "$G" && pwd)/data20.h5
run() { # arm seed budget extra
    local cfg="$W/$1-$2.yaml" out="$W/$1-$2.h5"
    sed -e "s|DATA|$D|" -e "s|OBJECTIVE|$OBJ|" -e "s|MINTRADES|$MINT|" -e "s|OUT|$out|" -e "s|BUDGET|$3|" -e "s|GAEXTRA|$4|" bench/study12.yaml >"$cfg"
    rm -f "$out" "$out.partial" "$out.partial.ckpt"
    /usr/bin/time -f "%e" -o "$W/$1-$2.time" "$E" "$cfg" --seed "$2" --quiet --json "$W/$1-$2.json" >/dev/null
}
LONG_SEEDS=${LONG_SEEDS:-1}
for s in $(seq 1 "$LONG_SEEDS"); do [ -f "$W/long-$s.json" ] || run long "$s" "$LONG" "  generations: 1000000\n  checkpoint_every_s: 10"; done
for s in $(seq 1 "$SEEDS"); do
    run default "$s" "$BUDGET" "  generations: 1000000"
    run old "$s" "$BUDGET" "  generations: 1000000\n  population: 4096\n  local_search: {every: 0}"
    run random "$s" "$BUDGET" "  population: $BUDGET\n  generations: 1\n  local_search: {every: 0}"
done
${PYTHON:-python3} - "$W" "$SEEDS" "$BUDGET" "$LONG_SEEDS" <<'PY'
import json, statistics, sys
import h5py
w, n, budget, long_seeds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
def load(arm, s):
    d = json.load(open(f"{w}/{arm}-{s}.json"))
    with h5py.File(f"{w}/{arm}-{s}.h5", "r") as f:
        ls = int(f["ga"].attrs["ls_evaluations"])
    return float(d["top"][0]["fitness"]), d["unique_evaluations"], float(open(f"{w}/{arm}-{s}.time").read()), ls
ref = max(load("long", s)[0] for s in range(1, long_seeds + 1))
print(f"budget {budget} unique evaluations; reference best {ref} (best of {long_seeds} default run(s) of {20 * budget})")
print("| arm | seeds reaching the reference | median best | worst best | budget used (genomes + sweeps) "
      "| of which sweeps | mean wall s |")
print("|---|---|---|---|---|---|---|")
for arm in ("default", "old", "random"):
    r = [load(arm, s) for s in range(1, n + 1)]
    hits = sum(x[0] >= ref for x in r)
    print(f"| {arm} | {hits}/{n} | {statistics.median(x[0] for x in r)} | {min(x[0] for x in r)} | "
          f"{statistics.mean(x[1] + x[3] for x in r):.0f} | {statistics.mean(x[3] for x in r):.0f} | "
          f"{statistics.mean(x[2] for x in r):.2f} |")
PY
