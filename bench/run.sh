#!/usr/bin/env bash
# The benchmark entry point: builds evolve (Release), makes the user-scale data
# set (250 days, 3 kept tickers, 50,000 trades) when it is missing, and runs
# every benchmark, each printing a short table and appending CSV rows to
# $OUT_DIR/*.csv. Not part of the test suite.
#
#   bash bench/run.sh [--quick] [--full] [--backend cpu|cuda|auto]
#     --quick   small sizes only (a minute or two on a laptop)
#     --full    also the 1.2e9-point lattice on the CPU (about a minute per backend)
#   OUT_DIR=bench/out (default), DATA_DIR=data/user (default)
set -euo pipefail
cd "$(dirname "$0")/.."

QUICK=0 FULL=0 BACKEND=auto
while (($#)); do
  case "$1" in
    --quick) QUICK=1 ;;
    --full) FULL=1 ;;
    --backend) BACKEND=$2; shift ;;
    *) echo "bench/run.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done

BUILD_DIR=${BUILD_DIR:-build}
OUT_DIR=${OUT_DIR:-bench/out}
DATA_DIR=${DATA_DIR:-data/user}
mkdir -p "$OUT_DIR"
bash scripts/setup.sh
. scripts/deps-env.sh
B="$BUILD_DIR/bench"
E="$BUILD_DIR/evolve"

echo "== machine"
{ lscpu 2>/dev/null | grep -E "Model name|^CPU\(s\)" || true; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo "no GPU"; } | tee "$OUT_DIR/machine.txt"

if ((QUICK)); then DAYS=20 TRADES=5000; else DAYS=250 TRADES=50000; fi
if [ ! -f "$DATA_DIR/all_trade_logs.csv" ] || [ "$(($(wc -l <"$DATA_DIR/all_trade_logs.csv") - 1))" != "$TRADES" ]; then
  echo "== gen-data: $DAYS days, $TRADES trades -> $DATA_DIR"
  # only a directory gen-data wrote (its marker) is ever deleted
  if [ -e "$DATA_DIR" ] && [ ! -f "$DATA_DIR/.evolve-gen-data" ]; then
    echo "bench: $DATA_DIR holds files gen-data did not write; set DATA_DIR to a new directory" >&2
    exit 1
  fi
  rm -rf "$DATA_DIR"
  t0=$(date +%s.%N)
  "$E" gen-data --out "$DATA_DIR" --days "$DAYS" --trades "$TRADES" --seed 7 --quiet
  awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "gen-data: %.1f s wall\n", b - a }' | tee "$OUT_DIR/gen_data.txt"
fi

echo "== ingest (MB/s; the page cache is warm after gen-data)"
"$B/bench_ingest" "$DATA_DIR/market" "$DATA_DIR/all_trade_logs.csv" SOXL,IONQ,MARA --repeat 3 --csv "$OUT_DIR/ingest.csv"
"$E" ingest --market "$DATA_DIR/market" --trades "$DATA_DIR/all_trade_logs.csv" --out "$DATA_DIR.h5" --quiet

echo "== grid evaluators (reference, tables, dominance) on each backend"
LATTICES=seed,1e8
((FULL)) && LATTICES=seed,1e8,1.2e9
CPU_DOM_MAX=200000000
((FULL)) && CPU_DOM_MAX=2000000000
((QUICK)) && LATTICES=seed
"$B/bench_grid" --dataset "$DATA_DIR.h5" --lattice "$LATTICES" --seconds 20 \
  --cpu-dominance-max "$CPU_DOM_MAX" --csv "$OUT_DIR/grid.csv"

echo "== GA: time per generation"
if ((QUICK)); then POPS=1024,4096 TR=5000; else POPS=1024,4096,16384,65536 TR=5000,50000; fi
"$B/bench_ga" --backend "$BACKEND" --pop "$POPS" --trades "$TR" --gens 4 --csv "$OUT_DIR/ga.csv"

echo "== GA: search quality against random search (20 seeds, planted landscapes of 3.6e6 and 1.9e8 points)"
"$B/bench_ga" --quality --seeds 20 --backend "$BACKEND" --csv "$OUT_DIR/ga_quality.csv"
((QUICK)) || "$B/bench_ga" --quality --seeds 20 --backend "$BACKEND" --lattice 6,12,8 --csv "$OUT_DIR/ga_quality.csv"
echo "== GA: search quality on the sample data (20 seeds, 9.4e6-point lattice)"
BUILD_DIR=$BUILD_DIR bash bench/quality_sample.sh $( ((QUICK)) && echo 5 || echo 20) | tee "$OUT_DIR/quality_sample.txt"
echo "== done: CSV rows in $OUT_DIR"
