#!/usr/bin/env bash
# The cost of validation: (holdout, day folds, a fold statistic as the
# objective, the GA's PBO, walk-forward) on the grid and the GA, side by
# side in one run: every variant
# on the same data and lattice, interleaved, best of REPEAT. Prints a
# Markdown table (bench/side_by_side.sh: search seconds from --json, total wall seconds).
#   bash bench/validation_cost.sh [EVOLVE] [WORKDIR]
DEFAULT_WORK=bench/out/validation
source "$(dirname "$0")/side_by_side.sh"
# The trader's seed lattice (configs/soxl.yaml), 11,340 points.
config() { # name objective-extra validation-block
    cat > "$WORK/$1.yaml" <<YAML
$(data_yaml)
parameters:
  - {name: volatility, feature: Entry Volatility Percent, values: [0.0, 0.3, 0.4, 0.5, 0.6]}
  - {name: ratio, feature: Entry Volatility Ratio, values: [0.0, 0.2, 0.5, 0.7, 0.8, 0.9, 1.0]}
  - {name: adx28, feature: Entry Adx28, values: [0, 20, 30]}
  - {name: adx14, feature: Entry Adx14, values: [0, 20, 30]}
  - {name: adx7, feature: Entry Adx7, values: [0, 20, 30]}
  - {name: target, role: target, values: [0.2, 0.3, 0.4, 0.5]}
  - {name: stop, role: stop, values: [-0.5, -0.4, -0.3]}
objective:
  name: total_return
$2
$3
ga:
  population: 1024
  generations: 40
  stall_generations: 1000
top: 10
seed: 42
output: $WORK/$1.h5
YAML
}
config none "" ""
config holdout "" "validation: {holdout: {share: 0.25}}"
config folds "" "validation: {holdout: {share: 0.25}, folds: 5}"
config agg "  aggregate: worst_fold" "validation: {holdout: {share: 0.25}, folds: 5}"
config nopbo "" "validation: {holdout: {share: 0.25}, pbo_genomes: 0}"
config wf "" "validation: {walk_forward: {train_days: 20, test_days: 5}}"
"$EVOLVE" "$WORK/none.yaml" --grid --quiet --top 1 > /dev/null # the dataset cache, once
row_header
row "grid, no validation" none --grid
row "grid, no validation, tables" none --grid --evaluator tables
row "grid, holdout 25 %" holdout --grid
row "grid, holdout 25 %, tables" holdout --grid --evaluator tables
row "grid, holdout + 5 folds (reported)" folds --grid
row "grid, holdout + 5 folds, tables" folds --grid --evaluator tables
row "grid, aggregate worst_fold of 5" agg --grid
row "GA, no validation" none
row "GA, holdout 25 %" holdout
row "GA, holdout + 5 folds (reported)" folds
row "GA, aggregate worst_fold of 5" agg
row "GA, holdout 25 %, no PBO (pbo_genomes: 0)" nopbo
row "grid, walk-forward 4 windows (train 20 d, test 5 d)" wf --walk-forward --grid
row "GA, walk-forward 4 windows (train 20 d, test 5 d)" wf --walk-forward
