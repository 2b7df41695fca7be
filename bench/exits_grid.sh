#!/usr/bin/env bash
# The grid with 0 to 3 of SPEC sec. 4.1's exits (trail, breakeven, max_hold)
# at the user's scale (50,000 trades over 40 days, 3 tickers): points per
# second of the dominance sums and of the tables evaluator (best of REPEAT),
# by the search's wall seconds (from --json) and by the process's CPU seconds
# (user + system, /usr/bin/time), which a loaded machine disturbs less.
# Prints a Markdown table; bench/RESULTS.md "Exits of SPEC sec. 4.1 at the
# user's scale" has a run and its floor.
#   bash bench/exits_grid.sh [EVOLVE] [WORKDIR]
#   TABLES_MAX=N: the tables evaluator only on lattices of at most N points (default 200000)
DEFAULT_WORK=bench/out/exits_grid
GEN_ARGS="--days 40 --tickers SOXL,IONQ,MARA --trades 50000 --seed 7"
source "$(dirname "$0")/side_by_side.sh"
TABLES_MAX=${TABLES_MAX:-200000}
ROLES=("  - {name: trail, role: trail, values: [0.1, 0.15, 0.2, 0.25, 0.3, 0.4]}"
       "  - {name: breakeven, role: breakeven, values: [0.05, 0.1, 0.15, 0.2, 0.3, 0.4]}"
       "  - {name: max_hold, role: max_hold, values: [60, 120, 300, 600, 900, 1800]}")
# r0: configs/soxl.yaml without adx7 (5 x 7 x 3 x 3 filter values, 4 targets, 3 stops: 3,780
# points); rK adds the first K roles above, 6 values each.
for k in 0 1 2 3; do
    {
        data_yaml
        cat <<YAML
parameters:
  - {name: volatility, feature: Entry Volatility Percent, values: [0.0, 0.3, 0.4, 0.5, 0.6]}
  - {name: ratio, feature: Entry Volatility Ratio, values: [0.0, 0.2, 0.5, 0.7, 0.8, 0.9, 1.0]}
  - {name: adx28, feature: Entry Adx28, values: [0, 20, 30]}
  - {name: adx14, feature: Entry Adx14, values: [0, 20, 30]}
  - {name: target, role: target, values: [0.2, 0.3, 0.4, 0.5]}
  - {name: stop, role: stop, values: [-0.5, -0.4, -0.3]}
YAML
        for ((r = 0; r < k; r++)); do echo "${ROLES[$r]}"; done
        printf 'objective: {name: total_return}\ntop: 10\nseed: 42\noutput: %s/r%d.h5\n' "$WORK" "$k"
    } > "$WORK/r$k.yaml"
done
"$EVOLVE" "$WORK/r0.yaml" --grid --quiet --top 1 > /dev/null # the dataset cache, once
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
# measure CONFIG ARGS...: "search-s cpu-s top1-index top1-fitness" of the run with the least CPU
# time (the whole process's: reading the dataset cache and building the tables included)
measure() {
    local cfg=$1 best=""
    shift
    for _ in $(seq "$REPEAT"); do
        /usr/bin/time -f "%U %S" -o "$WORK/time.txt" "$EVOLVE" "$WORK/$cfg.yaml" --quiet --json "$WORK/$cfg.json" "$@" \
            > /dev/null
        local s
        s=$(python3 -c "import json; d=json.load(open('$WORK/$cfg.json')); t=d['top'][0]; \
u, k = map(float, open('$WORK/time.txt').read().split()[-2:]); print(d['seconds']['search'], u + k, t['index'], t['fitness'])")
        if [ -z "$best" ] || [ "$(echo "$s $best" | awk '{print ($2 < $6)}')" = 1 ]; then best=$s; fi
    done
    echo "$best"
}
echo "| roles added | points | evaluator | search s (wall) | CPU s (process) | points/s (wall) | points/s (CPU) | top-1 index | top-1 fitness |"
echo "|---|---|---|---|---|---|---|---|---|"
for k in 0 1 2 3; do
    points=$((3780 * 6 ** k))
    for ev in dominance tables; do
        if [ "$ev" = tables ] && [ "$points" -gt "$TABLES_MAX" ]; then continue; fi
        set -- $(measure "r$k" --grid --evaluator "$ev")
        printf '| %d | %d | %s | %.3f | %.3f | %.3g | %.3g | %s | %s |\n' "$k" "$points" "$ev" "$1" "$2" \
            "$(python3 -c "print($points / $1)")" "$(python3 -c "print($points / $2)")" "$3" "$4"
    done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
