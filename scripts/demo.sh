#!/usr/bin/env bash
# Sets everything up and runs the main job on the sample data:
# builds evolve, generates the sample data (a few days, in data/sample), and
# runs `evolve configs/soxl.yaml`. Extra arguments go to evolve (e.g. --grid).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
BUILD_DIR=${BUILD_DIR:-build}
if [ ! -f data/sample/all_trade_logs.csv ]; then
  "$BUILD_DIR/evolve" gen-data --out data/sample --days 5 --seed 1
fi
"$BUILD_DIR/evolve" configs/soxl.yaml "$@"
