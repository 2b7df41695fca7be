# Sourced by the side-by-side benchmarks (validation_cost.sh,
# fold_dominance.sh, exits_grid.sh): arguments EVOLVE and WORKDIR, REPEAT from
# the environment, the gen-data set they use (GEN_ARGS, set before sourcing,
# replaces its arguments), and best_of.
set -euo pipefail
EVOLVE=${1:-build/evolve}
WORK=${2:-$DEFAULT_WORK}
REPEAT=${REPEAT:-2}
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
if [ ! -f "$WORK/data/all_trade_logs.csv" ]; then
    # shellcheck disable=SC2086
    "$EVOLVE" gen-data --out "$WORK/data" ${GEN_ARGS:---days 40 --tickers SOXL,IONQ,MARA --trades 8000 --seed 7} --quiet
fi

# best_of CONFIG ARGS...: evolve WORK/CONFIG.yaml ARGS REPEAT times; prints
# the fastest run's "search-s total-s trades_kept evaluator top1-index
# top1-fitness" (search seconds from --json, total: wall time).
best_of() {
    local cfg=$1 best=""
    shift
    for _ in $(seq "$REPEAT"); do
        local t0 t1 s
        t0=$(date +%s.%N)
        "$EVOLVE" "$WORK/$cfg.yaml" --quiet --json "$WORK/$cfg.json" "$@" > /dev/null
        t1=$(date +%s.%N)
        s=$(python3 -c "import json; d=json.load(open('$WORK/$cfg.json')); t=d['top'][0] if d['top'] else {}; \
print(d['seconds']['search'], $t1 - $t0, d.get('trades_kept'), d.get('evaluator', d['mode']), t.get('index'), t.get('fitness'))")
        if [ -z "$best" ] || python3 -c "import sys; sys.exit(0 if float('${s%% *}') < float('${best%% *}') else 1)"; then best=$s; fi
    done
    echo "$best"
}

# The data block of a config on the data above.
data_yaml() {
    cat <<YAML
data:
  market_dir: $WORK/data/market
  trades: $WORK/data/all_trade_logs.csv
  tickers: [SOXL, IONQ, MARA]
  cache: $WORK/dataset.h5
YAML
}

# The table: row LABEL CONFIG ARGS... is one line of best_of.
row_header() {
    echo "| run | trades searched | evaluator | search s | total s | top-1 index | top-1 fitness |"
    echo "|---|---|---|---|---|---|---|"
}
row() {
    local label=$1
    shift
    set -- $(best_of "$@")
    printf '| %s | %s | %s | %.3f | %.3f | %s | %s |\n' "$label" "$3" "$4" "$1" "$2" "$5" "$6"
}
