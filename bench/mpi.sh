#!/usr/bin/env bash
# One process against mpirun -n 1 and -n 2 (dist/, docs/scaling.md), side by
# side in one run on the same data and lattice, interleaved, best of REPEAT:
# a sharded grid under calmar (an objective the dominance sums cannot take, so
# the one process runs the tables evaluator too) and a 4-island GA. Prints a
# Markdown table (search seconds from --json, whole-command wall seconds) and
# checks that every run prints the same top-K table.
#   bash bench/mpi.sh [EVOLVE] [WORKDIR]
set -euo pipefail
EVOLVE=${1:-build/evolve}
WORK=${2:-bench/out/mpi}
REPEAT=${REPEAT:-3}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
if [ ! -f "$WORK/data/all_trade_logs.csv" ]; then
    "$EVOLVE" gen-data --out "$WORK/data" --days 40 --tickers SOXL,IONQ,MARA --trades 8000 --seed 7 --quiet
fi
# 21*6*6*5*5*10*4 = 756,000 points
cat > "$WORK/run.yaml" <<YAML
data: {market_dir: $WORK/data/market, trades: $WORK/data/all_trade_logs.csv, cache: $WORK/dataset.h5}
parameters:
  - {name: volatility, feature: Entry Volatility Percent, range: {start: 0, stop: 1.0, step: 0.05}}
  - {name: ratio, feature: Entry Volatility Ratio, range: {start: 0, stop: 1.0, step: 0.2}}
  - {name: adx28, feature: Entry Adx28, range: {start: 0, stop: 40, step: 8}}
  - {name: adx14, feature: Entry Adx14, range: {start: 0, stop: 40, step: 10}}
  - {name: adx7, feature: Entry Adx7, range: {start: 0, stop: 40, step: 10}}
  - {name: target, role: target, range: {start: 0.1, stop: 1.0, step: 0.1}}
  - {name: stop, role: stop, range: {start: -0.8, stop: -0.2, step: 0.2}}
objective:
  name: calmar
  min_trades: 30
ga:
  population: 4096
  islands: 4
  generations: 30
  stall_generations: 1000
top: 10
seed: 42
output: $WORK/out.h5
YAML
"$EVOLVE" "$WORK/run.yaml" --grid --quiet --output "$WORK/warm.h5" > /dev/null # the dataset cache

# how: one | n1 | n2; mode: grid | ga
run() {
    local how=$1 mode=$2 out="$WORK/$1-$2" extra=()
    [ "$mode" = grid ] && extra=(--grid)
    local cmd=("$EVOLVE" "$WORK/run.yaml" "${extra[@]}" --quiet --output "$out.h5" --json "$out.json")
    [ "$how" = n1 ] && cmd=(mpirun -n 1 "${cmd[@]}")
    [ "$how" = n2 ] && cmd=(mpirun -n 2 "${cmd[@]}")
    rm -f "$out.h5"
    local t0 t1
    t0=$(date +%s.%N)
    "${cmd[@]}" > "$out.txt"
    t1=$(date +%s.%N)
    local search
    search=$(python3 -c "import json; print(json.load(open('$out.json'))['seconds']['search'])")
    echo "$how $mode $search $(echo "$t1 - $t0" | bc)" >> "$WORK/times"
}
rm -f "$WORK/times"
for _ in $(seq "$REPEAT"); do
    for mode in grid ga; do
        for how in one n1 n2; do run "$how" "$mode"; done
    done
done
for mode in grid ga; do
    for how in n1 n2; do
        cmp -s "$WORK/one-$mode.txt" "$WORK/$how-$mode.txt" || { echo "mpi.sh: $how $mode: a different table" >&2; exit 1; }
    done
done
echo "| mode | processes | search s (best of $REPEAT) | wall s (best of $REPEAT) |"
echo "|---|---|---|---|"
for mode in grid ga; do
    for how in one n1 n2; do
        case $how in one) label="1 process, 2 OpenMP threads" ;; n1) label="mpirun -n 1 (1 core)" ;;
                     n2) label="mpirun -n 2 (1 core each)" ;; esac
        awk -v h="$how" -v m="$mode" -v l="$label" '$1 == h && $2 == m {
                if (s == "" || $3 < s) s = $3; if (w == "" || $4 < w) w = $4 }
            END { printf "| %s | %s | %.3f | %.3f |\n", m, l, s, w }' "$WORK/times"
    done
done
