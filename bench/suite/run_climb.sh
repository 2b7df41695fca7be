#!/usr/bin/env bash
# Random restarts of the exact sweeps over the suite (bench/bench_climb.c):
# run.sh with METHOD=climb, the same arguments and variables (EVALS=N for an
# evaluation budget, else BUDGET wall seconds; LATTICES, FIRST_SEED).
#   bash bench/suite/run_climb.sh ARM [SEEDS [BUDGET]]
exec env METHOD=climb bash "$(dirname "$0")/run.sh" "$@"
