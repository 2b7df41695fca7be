#!/usr/bin/env bash
# The cost of walk-forward (--walk-forward) and of the GA's PBO, side by side
# in one run: every variant on the same data and lattice as
# bench/validation_cost.sh, interleaved, best of REPEAT. Prints a Markdown
# table (search seconds from --json where the mode has them, total wall seconds).
#   bash bench/walk_forward_cost.sh [EVOLVE] [WORKDIR]
set -euo pipefail
EVOLVE=${1:-build/evolve}
WORK=${2:-bench/out/walk_forward}
REPEAT=${REPEAT:-2}
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
if [ ! -f "$WORK/data/all_trade_logs.csv" ]; then
    "$EVOLVE" gen-data --out "$WORK/data" --days 40 --tickers SOXL,IONQ,MARA --trades 8000 --seed 7 --quiet
fi
config() { # name validation-block
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
ga:
  population: 1024
  generations: 40
  stall_generations: 1000
top: 10
seed: 42
output: $WORK/$1.h5
YAML
}
config none ""
config wf "validation: {walk_forward: {train_days: 20, test_days: 5}}"
config pbo "validation: {holdout: {share: 0.25}}"
config nopbo "validation: {holdout: {share: 0.25}, pbo_genomes: 0}"
"$EVOLVE" "$WORK/none.yaml" --grid --quiet --top 1 > /dev/null # the dataset cache, once
run() { # label config args...
    local label=$1 cfg=$2 best=""
    shift 2
    for _ in $(seq "$REPEAT"); do
        local t0 t1 s
        t0=$(date +%s.%N)
        "$EVOLVE" "$WORK/$cfg.yaml" --quiet --json "$WORK/$cfg.json" "$@" > /dev/null
        t1=$(date +%s.%N)
        s=$(python3 -c "import json; d=json.load(open('$WORK/$cfg.json')); print(d['seconds']['search'], $t1 - $t0, d['evaluated'])")
        if [ -z "$best" ] || python3 -c "import sys; sys.exit(0 if float('${s#* }'.split()[0]) < float('${best#* }'.split()[0]) else 1)"; then best=$s; fi
    done
    set -- $best
    printf '| %s | %s | %.3f | %.3f |\n' "$label" "$3" "$1" "$2"
}
echo "| run | genomes evaluated | search s | total s |"
echo "|---|---|---|---|"
run "grid, whole data" none --grid
run "grid, walk-forward 4 windows (train 20 d, test 5 d)" wf --walk-forward --grid
run "GA, whole data" none
run "GA, walk-forward 4 windows (train 20 d, test 5 d)" wf --walk-forward
run "GA, holdout 25 %, no PBO (pbo_genomes: 0)" nopbo
run "GA, holdout 25 %, PBO over its best 1000 (16 blocks)" pbo
