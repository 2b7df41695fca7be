#!/usr/bin/env bash
# The grid with exits against its floor (bench/RESULTS.md "The grid with
# exits at its floor"): a trader-like lattice on real prices
# (../shared/data/real-hf, the trader's formats; read from there, never
# copied into the repository), 5 filters, target, stop, trail, breakeven
# and max_hold, and the same filters without the three exits; each config
# run by every evolve binary given, one after another (side by side), with
# --top 1 (one pass) and --top 10 (the strategies' reruns), on THREADS
# threads. Prints a Markdown table of CPU seconds (user + system: steadier on
# a shared machine) and points per CPU second, and the load average.
#   bash bench/exits_floor.sh WORKDIR SCALE EVOLVE [EVOLVE...]
#   SCALE: small (8.5e7 points), mid (3.9e8) or full (1.7e9, the issue's)
set -euo pipefail
WORK=$1
SCALE=$2
shift 2
DATA=$(cd "$(dirname "$0")/../../shared/data/real-hf" 2> /dev/null && pwd) || {
    echo "exits_floor: no ../shared/data/real-hf beside the repository: skipped"
    exit 0
}
THREADS=${THREADS:-1}
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
case $SCALE in
    small) N=(8 8 8 8 8) ;;
    mid) N=(12 12 11 11 12) ;;
    full) N=(15 15 14 14 15) ;;
    *) echo "exits_floor: SCALE is small, mid or full" >&2; exit 2 ;;
esac
# n values from start by step (a range config key), for each filter
range() { echo "{start: $1, stop: $(python3 -c "print(round($1 + ($3 - 1) * $2, 6))"), step: $2}"; }
for exits in 0 1; do
    cfg=$WORK/$SCALE-x$exits.yaml
    {
        cat <<YAML
data:
  market_dir: $DATA/market
  trades: $DATA/all_trade_logs.csv
  tickers: [ETF, AAA, BBB, XXX]
  cache: $WORK/dataset.h5
parameters:
  - {name: volatility, feature: Entry Volatility Percent, range: $(range 0 0.02 "${N[0]}")}
  - {name: ratio, feature: Entry Volatility Ratio, range: $(range 0.7 0.04 "${N[1]}")}
  - {name: adx28, feature: Entry Adx28, range: $(range 8 2 "${N[2]}")}
  - {name: adx14, feature: Entry Adx14, range: $(range 12 2 "${N[3]}")}
  - {name: adx7, feature: Entry Adx7, range: $(range 20 2 "${N[4]}")}
  - {name: target, role: target, values: [0.2, 0.3, 0.4, 0.5]}
  - {name: stop, role: stop, values: [-0.5, -0.4, -0.3]}
YAML
        if [ "$exits" = 1 ]; then
            cat <<YAML
  - {name: trail, role: trail, values: [0.1, 0.15, 0.2, 0.25, 0.3, 0.4]}
  - {name: breakeven, role: breakeven, values: [0.05, 0.1, 0.15, 0.2, 0.3, 0.4]}
  - {name: max_hold, role: max_hold, values: [60, 120, 300, 600, 900, 1800]}
YAML
        fi
        printf 'objective: {name: total_return, min_trades: 5}\ntop: 10\nseed: 42\noutput: %s\n' "$WORK/out.h5"
    } > "$cfg"
done
"$1" "$WORK/$SCALE-x0.yaml" --grid --quiet --top 1 --output "$WORK/warm.h5" > /dev/null 2>&1 # the dataset cache, once
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $THREADS thread(s)"
echo "| lattice | points | top | evolve | CPU s | wall s | lattice points per CPU s |"
echo "|---|---|---|---|---|---|---|"
for exits in 0 1; do
    cfg=$WORK/$SCALE-x$exits.yaml
    for top in 1 10; do
        for ev in "$@"; do
            /usr/bin/time -f "%U %S %e" -o "$WORK/time.txt" env OMP_NUM_THREADS="$THREADS" "$ev" "$cfg" --grid --quiet \
                --top "$top" --output "$WORK/run.h5" --json "$WORK/run.json" > /dev/null 2>&1
            read -r u s e < <(tail -1 "$WORK/time.txt")
            points=$(python3 -c "import json; print(json.load(open('$WORK/run.json'))['lattice_size'])")
            printf '| %s | %s | %s | %s | %.2f | %.2f | %.3g |\n' "$SCALE-x$exits" "$points" "$top" "$ev" \
                "$(echo "$u + $s" | bc)" "$e" "$(python3 -c "print($points / ($u + $s))")"
        done
    done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
