#!/usr/bin/env bash
# Sets everything up and runs the main job on the sample data:
# builds evolve, installs it (`evolve` on PATH in a new login shell), generates
# the sample data (a few days, in data/sample), and runs `evolve configs/soxl.yaml`.
# Extra arguments go to evolve (e.g. --grid).
#   PREFIX=DIR   install there instead of the default (~/.local; /usr/local for root)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
BUILD_DIR=${BUILD_DIR:-build}
cmake --install "$BUILD_DIR" ${PREFIX:+--prefix "$PREFIX"} >/dev/null
bin=$(grep -m1 '/bin/evolve$' "$BUILD_DIR/install_manifest.txt")
echo "demo: installed $bin (with libevolve, evolve.h, evolve.pc, man evolve, the docs)" >&2
# Debian's and Ubuntu's ~/.profile put ~/.local/bin on PATH once it exists; other shells may not.
if [ "$(bash -lc 'command -v evolve' 2>/dev/null)" != "$bin" ]; then
  echo "demo: $(dirname "$bin") is not first on a login shell's PATH: add to ~/.profile" >&2
  echo "      export PATH=\"$(dirname "$bin"):\$PATH\"" >&2
fi
if [ ! -f data/sample/all_trade_logs.csv ]; then
  "$bin" gen-data --out data/sample --days 5 --seed 1
fi
"$bin" configs/soxl.yaml "$@"
