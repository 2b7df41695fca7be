#!/usr/bin/env bash
# The cost of validation: (holdout, day folds, a fold statistic as the
# objective, the GA's PBO, walk-forward) on the grid and the GA, side by
# side in one run: every variant
# on the same data and lattice, interleaved, best of REPEAT. Prints a
# Markdown table (search seconds from --json, total wall seconds).
#   bash bench/validation_cost.sh [EVOLVE] [WORKDIR]
set -euo pipefail
EVOLVE=${1:-build/evolve}
WORK=${2:-bench/out/validation}
REPEAT=${REPEAT:-2}
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
if [ ! -f "$WORK/data/all_trade_logs.csv" ]; then
    "$EVOLVE" gen-data --out "$WORK/data" --days 40 --tickers SOXL,IONQ,MARA --trades 8000 --seed 7 --quiet
fi
# The trader's seed lattice (configs/soxl.yaml), 11,340 points.
config() { # name objective-extra validation-block
    cat > "$WORK/$1.yaml" <<YAML
data:
  market_dir: $WORK/data/market
  trades: $WORK/data/all_trade_logs.csv
  cache: $WORK/dataset.h5
parameters:
  - {name: volatility, feature: Entry Volatility Percent, values: [0.0, 0.3, 0.4, 0.5, 0.6]}
  - {name: ratio, feature: Entry Volatility Ratio, values: [0.0, 0.2, 0.5, 0.7, 0.8, 0.9, 1.0]}
  - {name: adx28, feature: Entry Adx28, values: [0, 20, 30]}
  - {name: adx14, feature: Entry Adx14, values: [0, 20, 30]}
  - {name: adx7, feature: Entry Adx7, values: [0, 20, 30]}
  - {name: target, role: target, values: [0.2, 0.3, 0.4, 0.5]}
  - {name: stop, role: stop, values: [-0.5, -0.4, -0.3]}
objective:
  name: total_return
$2
$3
ga:
  population: 1024
  generations: 40
  stall_generations: 1000
top: 10
seed: 42
output: $WORK/$1.h5
YAML
}
config none "" ""
config holdout "" "validation: {holdout: {share: 0.25}}"
config folds "" "validation: {holdout: {share: 0.25}, folds: 5}"
config agg "  aggregate: worst_fold" "validation: {holdout: {share: 0.25}, folds: 5}"
config nopbo "" "validation: {holdout: {share: 0.25}, pbo_genomes: 0}"
config wf "" "validation: {walk_forward: {train_days: 20, test_days: 5}}"
"$EVOLVE" "$WORK/none.yaml" --grid --quiet --top 1 > /dev/null # the dataset cache, once
run() { # label config args...
    local label=$1 cfg=$2 best=""
    shift 2
    for _ in $(seq "$REPEAT"); do
        local t0 t1 s
        t0=$(date +%s.%N)
        "$EVOLVE" "$WORK/$cfg.yaml" --quiet --json "$WORK/$cfg.json" "$@" > /dev/null
        t1=$(date +%s.%N)
        s=$(python3 -c "import json,sys; d=json.load(open('$WORK/$cfg.json')); print(d['seconds']['search'], $t1 - $t0, d.get('trades_kept'), d.get('evaluator', d['mode']))")
        if [ -z "$best" ] || python3 -c "import sys; sys.exit(0 if float('${s%% *}') < float('${best%% *}') else 1)"; then best=$s; fi
    done
    set -- $best
    printf '| %s | %s | %s | %.3f | %.3f |\n' "$label" "$3" "$4" "$1" "$2"
}
echo "| run | trades searched | evaluator | search s | total s |"
echo "|---|---|---|---|---|"
run "grid, no validation" none --grid
run "grid, no validation, tables" none --grid --evaluator tables
run "grid, holdout 25 %" holdout --grid
run "grid, holdout 25 %, tables" holdout --grid --evaluator tables
run "grid, holdout + 5 folds (reported)" folds --grid
run "grid, holdout + 5 folds, tables" folds --grid --evaluator tables
run "grid, aggregate worst_fold of 5" agg --grid
run "GA, no validation" none
run "GA, holdout 25 %" holdout
run "GA, holdout + 5 folds (reported)" folds
run "GA, aggregate worst_fold of 5" agg
run "GA, holdout 25 %, no PBO (pbo_genomes: 0)" nopbo
run "grid, walk-forward 4 windows (train 20 d, test 5 d)" wf --walk-forward --grid
run "GA, walk-forward 4 windows (train 20 d, test 5 d)" wf --walk-forward
