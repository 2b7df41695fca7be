#!/usr/bin/env python3
"""Strategy atc on the search engine (docs/signals.md "Search"), on generated
random-walk bars:

- Grid top-K = brute force: a grid whose top holds the whole lattice lists
  exactly the feasible genomes (every robustness member >= 3 bars, at least
  min_trades trades), each with the fitness computed here from its trades as
  `evolve trades --genomes` lists them (outcome = pnl / entry * 100, a
  short's pnl being its gain, quantised to micro-percent), for total_return,
  sharpe and calmar, in the grid's order; the same list on one thread.
- The GA finds the grid's best on the small lattice (--validate: grid rank 1),
  and `evolve trades CONFIG --run RUN --rank 1` lists trades worth that best.
- validation: by the entry bar's day, as test_strategy_search.py checks it for
  seller_exhaustion: holdout days and folds, and aggregate: worst_fold (rows
  per part, the grid's list and its top-1 against the test's own scoring).

--small (the sanitizer build, tests/CMakeLists.txt): every case on 800 bars
rather than 1,500, the validation's 30 days of 50 bars rather than 100
(test_strategy_search.py's --small).

Needs numpy, pandas and h5py (else skipped with 77)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import evolve_cli as cli  # noqa: E402

if not cli.have_modules("numpy", "pandas", "h5py"):
    print("SKIP: numpy, pandas and h5py are needed")
    sys.exit(77)

from test_strategy_search import (MIN_TRADES, brute_force, grid_matches, grid_rows,  # noqa: E402
                                  validate_finds_grid_best, validation_by_day)
from walk_bars import random_walk_bars, write_bars  # noqa: E402

args = cli.parse_args(["--small"])  # the sanitizer build: 800 bars (the docstring)
check = cli.Checker()

# wma_len 8 is infeasible with Wide (8 - 7 < 3): those points must never be ranked
SMALL = [("ema_len", [10, 24, 40]), ("hull_len", [12, 30]), ("wma_len", [8, 30]),
         ("robustness", ["Narrow", "Wide"]), ("La", ["0.02", "0.5"]), ("De", ["0.01", "0.1", "0.25"]),
         ("long_threshold", ["0.05", "0.3"]), ("short_threshold", ["-0.3", "-0.05"])]


def write_config(path, bars, extra=""):
    with open(path, "w") as f:
        f.write(f"strategy:\n  type: atc\n  bars: {{csv: {bars}}}\n  costs: {{fee_bp: 2, slippage_bp: 1}}\n"
                "  pine: {python_cut: true}\n")
        f.write("parameters:\n")
        for name, values in SMALL:
            f.write(f"  - {{name: {name}, values: [{', '.join(str(v) for v in values)}]}}\n")
        f.write(extra)


def feasible(p):
    return not (p["robustness"] == "Wide" and int(p["wma_len"]) < 10)


def grid_equals_brute_force(work, bars):
    cfg = os.path.join(work, "small.yaml")
    write_config(cfg, bars)
    size, outcomes = brute_force(work, cfg, SMALL, feasible, check)
    check(sum(1 for q in outcomes.values() if len(q) >= MIN_TRADES) > 50, "the small lattice should trade")
    for objective in ("total_return", "sharpe", "calmar"):
        write_config(cfg, bars, f"objective: {{name: {objective}, min_trades: {MIN_TRADES}}}\ntop: {size}\n")
        out = os.path.join(work, f"grid_{objective}.h5")
        r = cli.run(args.evolve, [cfg, "--grid", "--output", out, "--quiet"])
        if not check(r.returncode == 0, f"{objective}: --grid: {r.stderr}"):
            continue
        rows, strategy = grid_rows(out)
        check(strategy == "atc", f"{objective}: provenance strategy attribute {strategy!r}")
        order = grid_matches(check, objective, rows, outcomes)
        if objective == "total_return":
            one = os.path.join(work, "grid_one_thread.h5")
            r = cli.run(args.evolve, [cfg, "--grid", "--output", one, "--quiet"], {"OMP_NUM_THREADS": "1"})
            check(r.returncode == 0 and grid_rows(one)[0] == rows, f"one thread: a different grid list {r.stderr}")
        print(f"{objective}: grid = brute force over {len(rows)} ranked genomes of {size}; best {order[0]!r}")


def ga_finds_grid_best(work, bars):
    cfg = os.path.join(work, "validate.yaml")
    write_config(cfg, bars, f"objective: {{name: total_return, min_trades: {MIN_TRADES}}}\n"
                            "ga: {population: 32, generations: 30}\ntop: 5\nseed: 3\n")
    validate_finds_grid_best(check, work, cfg, "atc")


def main():
    with cli.scratch_dir("evolve-atc-search-") as work:
        write_bars(random_walk_bars(800 if args.small else 1500, 21), os.path.join(work, "walk.csv"))
        grid_equals_brute_force(work, "walk.csv")
        ga_finds_grid_best(work, "walk.csv")
        validation_by_day(work, SMALL, feasible, write_config, check,
                          (("total_return", MIN_TRADES, "", "{holdout: {days: [DAYS]}, folds: 4}"),
                           ("sharpe", 2, "worst_fold", "{holdout: {last: 5}, folds: 3}")))
    sys.exit(check.exit())


if __name__ == "__main__":
    main()
