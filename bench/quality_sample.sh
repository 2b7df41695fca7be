#!/usr/bin/env bash
# Search quality on the sample data: the GA against the exact grid optimum,
# over 20 seeds, on a 7-gene lattice of 9.4 million points (the 3-ticker
# sample config with total_return and no drawdown constraint, so the grid can
# use dominance sums). Prints success rate and lattice share per seed.
#   bash bench/quality_sample.sh [SEEDS]
set -euo pipefail
cd "$(dirname "$0")/.."
SEEDS=${1:-20}
E=${BUILD_DIR:-build}/evolve
[ -f data/sample/all_trade_logs.csv ] || "$E" gen-data --out data/sample --days 5 --seed 1 --quiet
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
sed -e "s|\.\./data/sample|$PWD/data/sample|" -e '/max_drawdown_pct/d' -e 's/name: sharpe/name: total_return/' \
    -e 's/population: 4096/population: 512/' -e 's/generations: 200/generations: 120/' \
    -e "s|output: .*|output: $W/run.h5|" configs/sample-3tickers.yaml >"$W/study.yaml"
"$E" "$W/study.yaml" --grid --quiet --json "$W/grid.json" >/dev/null
for s in $(seq 1 "$SEEDS"); do "$E" "$W/study.yaml" --seed "$s" --quiet --json "$W/ga$s.json" >/dev/null; done
python3 - "$W" "$SEEDS" <<'PY'
import json, sys
w, n = sys.argv[1], int(sys.argv[2])
g = json.load(open(f"{w}/grid.json"))
best = g["top"][0]["fitness"]
print(f"lattice {g['lattice_size']} points, grid best {best}")
hits, shares = 0, []
for s in range(1, n + 1):
    d = json.load(open(f"{w}/ga{s}.json"))
    f = d["top"][0]["fitness"] if d["top"] else None
    hits += f == best
    shares.append(d["lattice_share_evaluated"])
    print(f"seed {s:2d}: best {f}  unique evaluations {d['unique_evaluations']}  "
          f"({100 * d['lattice_share_evaluated']:.3f}% of the lattice), {d['generations']} generations, {d['termination']}")
print(f"GA reached the grid optimum in {hits}/{n} seeds, evaluating {100 * sum(shares) / n:.3f}% of the lattice on average")
PY
