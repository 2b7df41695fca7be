#!/usr/bin/env bash
# The 12-gene search study (issue 18; results in bench/RESULTS.md): on 20 days
# of gen-data's sample data, bench/study12.yaml's lattice (min and max filters
# on five entry metrics, target, stop: 5.4e15 points), best fitness at equal
# unique-evaluation budgets for
#   default  the default GA (population auto, local search every 5, depth 2)
#   old      the settings before issue 18 (population 4096, no local search)
#   random   random search: one generation of BUDGET uniform genomes
# against the best fitness that LONG-evaluation runs of the default GA found
# (20x the budget, seeds 1 and 2). Wall times are whole processes (load,
# tables, search, run file).
#   bash bench/study12.sh [SEEDS [BUDGET]]      (default 10 200000)
set -euo pipefail
cd "$(dirname "$0")/.."
SEEDS=${1:-10}
BUDGET=${2:-200000}
LONG=$((BUDGET * 20))
E=${BUILD_DIR:-build}/evolve
W=${STUDY_DIR:-bench/out/study12}
mkdir -p "$W"
[ -f "$W/data20/all_trade_logs.csv" ] || "$E" gen-data --out "$W/data20" --days 20 --seed 1 --quiet
[ -f "$W/data20.h5" ] || "$E" ingest --market "$W/data20/market" --trades "$W/data20/all_trade_logs.csv" \
    --tickers SOXL,IONQ,MARA --out "$W/data20.h5" >/dev/null
D=$(cd "$W" && pwd)/data20.h5
run() { # arm seed budget extra
    local cfg="$W/$1-$2.yaml" out="$W/$1-$2.h5"
    sed -e "s|DATA|$D|" -e "s|OUT|$PWD/$out|" -e "s|BUDGET|$3|" -e "s|GAEXTRA|$4|" bench/study12.yaml >"$cfg"
    rm -f "$out" "$out.partial" "$out.partial.ckpt"
    /usr/bin/time -f "%e" -o "$W/$1-$2.time" "$E" "$cfg" --seed "$2" --quiet --json "$W/$1-$2.json" >/dev/null
}
for s in 1 2; do [ -f "$W/long-$s.json" ] || run long "$s" "$LONG" "  generations: 1000000\n  checkpoint_every_s: 10"; done
for s in $(seq 1 "$SEEDS"); do
    run default "$s" "$BUDGET" "  generations: 1000000"
    run old "$s" "$BUDGET" "  generations: 1000000\n  population: 4096\n  local_search: {every: 0}"
    run random "$s" "$BUDGET" "  population: $BUDGET\n  generations: 1\n  local_search: {every: 0}"
done
python3 - "$W" "$SEEDS" "$BUDGET" <<'PY'
import json, statistics, sys
w, n, budget = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def load(arm, s):
    d = json.load(open(f"{w}/{arm}-{s}.json"))
    return d["top"][0]["fitness"], d["unique_evaluations"], float(open(f"{w}/{arm}-{s}.time").read())
ref = max(load("long", s)[0] for s in (1, 2))
print(f"budget {budget} unique evaluations; reference best {ref} (best of 2 default runs of {20 * budget})")
print("| arm | seeds reaching the reference | median best | worst best | mean unique evaluations | mean wall s |")
print("|---|---|---|---|---|---|")
for arm in ("default", "old", "random"):
    r = [load(arm, s) for s in range(1, n + 1)]
    hits = sum(f >= ref for f, _, _ in r)
    print(f"| {arm} | {hits}/{n} | {statistics.median(f for f, _, _ in r)} | {min(f for f, _, _ in r)} | "
          f"{statistics.mean(e for _, e, _ in r):.0f} | {statistics.mean(t for _, _, t in r):.2f} |")
PY
