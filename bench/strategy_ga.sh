#!/usr/bin/env bash
# The strategy GA on the CPU (docs/signals.md "Search"), three cases side by
# side in one run: configs/exhaustion.yaml as shipped (1-minute bars of the
# sample, 1,950 bars), the same lattice on 15-second bars of the same days
# (7,800 bars), and docs/signals-spec.md sec. 3's 15-minute lattice on a random walk of
# 35,040 bars (a year of 15-minute bars around the clock; fewer generations).
# Each prints evolve's own accounting: unique evaluations, seconds, indicator
# series computed, seconds in indicators vs backtests, scratch per thread.
#
# BACKENDS="cpu cuda" runs each case on each backend in turn (default cpu), so
# the GPU's strategy evaluator (docs/signals.md "Backends") is timed beside
# the CPU's in one call; the `gpu probe:` line says what its check cost.
#
#   bash bench/strategy_ga.sh [EVOLVE]   (default build/evolve; data/sample is made when missing)
set -euo pipefail
cd "$(dirname "$0")/.."
E=${1:-build/evolve}
OUT=${OUT_DIR:-bench/out}/strategy
mkdir -p "$OUT"
[ -d data/sample/market ] || "$E" gen-data --out data/sample --days 5 >/dev/null
sed -e 's|timeframe: 1m|timeframe: 15s|' -e 's|\.\./data|'"$PWD"'/data|' configs/exhaustion.yaml >"$OUT/exhaustion_15s.yaml"
/usr/bin/python3 - "$OUT/walk35040.csv" <<'PY'
import sys
sys.path.insert(0, "tests/support")
from walk_bars import random_walk_bars, write_bars
write_bars(random_walk_bars(35040, 3), sys.argv[1])
PY
cat >"$OUT/sec3_15m.yaml" <<YAML
strategy: {type: seller_exhaustion, bars: {csv: walk35040.csv}, costs: {fee_bp: 5, slippage_bp: 5}}
parameters:  # docs/signals-spec.md sec. 3, 15-minute bars
  - {name: ema_fast, range: {start: 48, stop: 192, step: 8}}
  - {name: ema_slow, range: {start: 336, stop: 1344, step: 48}}
  - {name: z_window, range: {start: 336, stop: 1344, step: 48}}
  - {name: atr_window, range: {start: 48, stop: 192, step: 8}}
  - {name: vol_z, range: {start: 1.0, stop: 3.5, step: 0.1}}
  - {name: tr_z, range: {start: 0.8, stop: 2.0, step: 0.1}}
  - {name: cloc_min, range: {start: 0.40, stop: 0.80, step: 0.05}}
  - {name: atr_stop_mult, range: {start: 0.3, stop: 1.5, step: 0.1}}
  - {name: reward_r, range: {start: 1.5, stop: 4.0, step: 0.25}}
  - {name: max_hold, range: {start: 48, stop: 192, step: 8}}
objective: {name: sharpe, min_trades: 10}
ga: {population: 1024, generations: 20}
YAML
run() {
  local be
  for be in ${BACKENDS:-cpu}; do
    echo "== $1 (--backend $be)"
    /usr/bin/time -f "process: %e s wall, %M KiB max resident" "$E" "$2" --backend "$be" \
      --output "$OUT/$1-$be.h5" 2>&1 >/dev/null | grep -E "^(ga: stopped|strategy |gpu probe|process:|evolve: )"
  done
}
run exhaustion_1m configs/exhaustion.yaml
run exhaustion_15s "$OUT/exhaustion_15s.yaml"
run sec3_15m "$OUT/sec3_15m.yaml"
