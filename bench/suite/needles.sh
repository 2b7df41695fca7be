#!/usr/bin/env bash
# The search suite's two needle lattices, s12 (holdout) and its tune twin s13
# (bench/suite/README.md), with the defaults as a user gets them: every core,
# time_budget_s 10, SEEDS seeds each (default 5): their datasets (data.sh),
# the runs (run.sh, arm "needles") and the hit counts. On this project's
# 2-core machine s12 reaches its best-known in ~9 of 10 seeds (38/40), a rate
# of relaxed random climbs (bench/RESULTS.md "what s12's hits wait for",
# "random starts at off exits"); a machine with many cores climbs more a
# second: bench/gpu-check.sh runs this as its last step on a lent machine.
#   bash bench/suite/needles.sh [SEEDS]      (BUILD_DIR, SUITE_DIR as run.sh's)
set -euo pipefail
cd "$(dirname "$0")/../.."
SEEDS=${1:-5}
LATTICES="s12 s13"
# their datasets, as bench/suite/lattices.tsv names them
DATASETS=$(awk -F'\t' -v l=" $LATTICES " 'index(l, " " $1 " ") { print $3 }' bench/suite/lattices.tsv)
DATASETS=$DATASETS bash bench/suite/data.sh >/dev/null
echo "needles: $LATTICES at every core ($(nproc) threads, OMP_NUM_THREADS ${OMP_NUM_THREADS:-unset}), time_budget_s 10, seeds 1-$SEEDS"
LATTICES=$LATTICES bash bench/suite/run.sh needles "$SEEDS" 10
