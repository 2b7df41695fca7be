#!/usr/bin/env bash
# Sets everything up and shows why a GA, on the sample data: builds evolve,
# installs it (`evolve` on PATH in a new login shell), generates the sample
# data (5 days, in data/sample), then
#   1. evolve configs/demo.yaml: the GA on a lattice of 1.75 billion points,
#      too many for the exact grid here (tens of minutes), in 200,000 evaluations;
#   2. evolve configs/demo_check.yaml --validate: the same search on a coarser
#      lattice the grid covers exactly, and where the GA's best ranks there;
#   3. evolve report results/demo.h5: the verdict, rank 1 against the trader's
#      settings and the log, in sample and on the held-out day.
# Extra arguments go to step 1's evolve (e.g. --backend cpu).
#   PREFIX=DIR   install there instead of the default (~/.local; /usr/local for root)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
BUILD_DIR=${BUILD_DIR:-build}
cmake --install "$BUILD_DIR" ${PREFIX:+--prefix "$PREFIX"} >/dev/null
E=$(grep -m1 '/bin/evolve$' "$BUILD_DIR/install_manifest.txt")
echo "demo: installed $E (with libevolve, evolve.h, evolve.pc, man evolve, the docs)" >&2
# Debian's and Ubuntu's ~/.profile put ~/.local/bin on PATH once it exists; other shells may not.
if [ "$(bash -lc 'command -v evolve' 2>/dev/null)" != "$E" ]; then
  echo "demo: $(dirname "$E") is not first on a login shell's PATH: add to ~/.profile" >&2
  echo "      export PATH=\"$(dirname "$E"):\$PATH\"" >&2
fi
if [ ! -f data/sample/all_trade_logs.csv ]; then
  "$E" gen-data --out data/sample --days 5 --seed 1
fi
t0=$SECONDS
echo "=== 1. the GA on configs/demo.yaml (the grid would need every one of its 1,755,191,025 points)"
"$E" configs/demo.yaml "$@"
echo "=== 2. the check: GA and exact grid on a coarser lattice (configs/demo_check.yaml --validate)"
"$E" configs/demo_check.yaml --validate --quiet
echo "=== 3. the verdict (evolve report results/demo.h5)"
"$E" report results/demo.h5
echo "=== the demo took $((SECONDS - t0)) s after the build"
