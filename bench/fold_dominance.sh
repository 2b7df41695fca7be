#!/usr/bin/env bash
# The grid with a fold statistic as the objective (objective.aggregate over
# 4 day folds): dominance sums with one sum set per fold against the tables
# evaluator, side by side in one run (rows interleaved, best of REPEAT).
# Prints a Markdown table (search seconds from --json, total wall seconds).
#   bash bench/fold_dominance.sh [EVOLVE] [WORKDIR]
DEFAULT_WORK=bench/out/fold_dominance
source "$(dirname "$0")/side_by_side.sh"
# 1,140,480 points: 5 filters of 10 x 11 x 6 x 6 x 6 values, 8 targets, 6 stops.
config() { # name objective-extra validation-block
    cat > "$WORK/$1.yaml" <<YAML
$(data_yaml)
parameters:
  - {name: volatility, feature: Entry Volatility Percent, values: [0.0, 0.1, 0.2, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6]}
  - {name: ratio, feature: Entry Volatility Ratio, values: [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]}
  - {name: adx28, feature: Entry Adx28, values: [0, 10, 15, 20, 25, 30]}
  - {name: adx14, feature: Entry Adx14, values: [0, 10, 15, 20, 25, 30]}
  - {name: adx7, feature: Entry Adx7, values: [0, 10, 15, 20, 25, 30]}
  - {name: target, role: target, values: [0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6]}
  - {name: stop, role: stop, values: [-0.6, -0.5, -0.45, -0.4, -0.35, -0.3]}
objective:
  name: $2
$3
top: 10
seed: 42
output: $WORK/$1.h5
YAML
}
VAL="validation: {holdout: {share: 0.25}, folds: 4, pbo_genomes: 0}"
config all total_return "$VAL"
config worst total_return "  aggregate: worst_fold
$VAL"
config median_sharpe sharpe "  aggregate: median_fold
$VAL"
"$EVOLVE" "$WORK/all.yaml" --grid --quiet --top 1 > /dev/null # the dataset cache, once
row_header
row "4 folds reported, total_return" all --grid
row "4 folds reported, total_return, tables" all --grid --evaluator tables
row "worst_fold of 4, total_return" worst --grid
row "worst_fold of 4, total_return, tables" worst --grid --evaluator tables
row "median_fold of 4, sharpe" median_sharpe --grid
row "median_fold of 4, sharpe, tables" median_sharpe --grid --evaluator tables
