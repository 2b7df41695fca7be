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

Needs numpy, pandas and h5py (else skipped with 77)."""
import csv
import itertools
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import evolve_cli as cli  # noqa: E402

if not cli.have_modules("numpy", "pandas", "h5py"):
    print("SKIP: numpy, pandas and h5py are needed")
    sys.exit(77)

from test_strategy_search import MIN_TRADES, fitness, grid_rows, llround  # noqa: E402
from walk_bars import random_walk_bars, write_bars  # noqa: E402

args = cli.parse_args()
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


def brute_force(work, cfg):
    names = [n for n, _ in SMALL]
    points = [dict(zip(names, vals)) for vals in itertools.product(*[v for _, v in SMALL])]
    ok = [p for p in points if feasible(p)]
    gpath, tpath = os.path.join(work, "genomes.csv"), os.path.join(work, "trades.csv")
    with open(gpath, "w") as f:
        f.write(",".join(names) + "\n")
        for p in ok:
            f.write(",".join(str(p[n]) for n in names) + "\n")
    r = cli.run(args.evolve, ["trades", cfg, "--genomes", gpath, "--csv", tpath])
    check(r.returncode == 0, f"evolve trades --genomes: {r.stderr}")
    q = {i: [] for i in range(len(ok))}
    with open(tpath) as f:
        for row in csv.DictReader(f):
            q[int(row["genome"])].append(llround(float(row["pnl"]) / float(row["entry"]) * 100.0 * 1e6))
    return len(points), {tuple(str(p[n]) for n in names): q[i] for i, p in enumerate(ok)}


def grid_equals_brute_force(work, bars):
    cfg = os.path.join(work, "small.yaml")
    write_config(cfg, bars)
    size, outcomes = brute_force(work, cfg)
    check(sum(1 for q in outcomes.values() if len(q) >= MIN_TRADES) > 50, "the small lattice should trade")
    for objective in ("total_return", "sharpe", "calmar"):
        write_config(cfg, bars, f"objective: {{name: {objective}, min_trades: {MIN_TRADES}}}\ntop: {size}\n")
        out = os.path.join(work, f"grid_{objective}.h5")
        r = cli.run(args.evolve, [cfg, "--grid", "--output", out, "--quiet"])
        if not check(r.returncode == 0, f"{objective}: --grid: {r.stderr}"):
            continue
        rows, strategy = grid_rows(out)
        check(strategy == "atc", f"{objective}: provenance strategy attribute {strategy!r}")
        want = {g: fitness(q, objective) for g, q in outcomes.items()}
        want = {g: v for g, v in want.items() if v is not None}
        got = {g: v for g, v, _ in rows}
        check(set(got) == set(want), f"{objective}: the grid lists {len(got)} genomes, brute force "
                                     f"{len(want)}; first differences {sorted(set(got) ^ set(want))[:3]}")
        bad = [g for g in got if g in want and not (got[g] == want[g] or
                                                    abs(got[g] - want[g]) <= 1e-12 * abs(want[g]))]
        check(not bad, f"{objective}: fitness differs for {len(bad)} genomes, e.g. "
                       f"{[(got[g], want[g]) for g in bad[:2]]}")
        check(all(n == len(outcomes[g]) for g, _, n in rows), f"{objective}: trade counts differ")
        order = [v for _, v, _ in rows]
        check(order == sorted(order, reverse=True), f"{objective}: the grid's list is not best first")
        if objective == "total_return":
            one = os.path.join(work, "grid_one_thread.h5")
            r = cli.run(args.evolve, [cfg, "--grid", "--output", one, "--quiet"], {"OMP_NUM_THREADS": "1"})
            check(r.returncode == 0 and grid_rows(one)[0] == rows, f"one thread: a different grid list {r.stderr}")
        print(f"{objective}: grid = brute force over {len(got)} ranked genomes of {size}; best {order[0]!r}")


def ga_finds_grid_best(work, bars):
    cfg = os.path.join(work, "validate.yaml")
    write_config(cfg, bars, f"objective: {{name: total_return, min_trades: {MIN_TRADES}}}\n"
                            "ga: {population: 32, generations: 30}\ntop: 5\nseed: 3\n")
    js, out = os.path.join(work, "validate.json"), os.path.join(work, "validate.h5")
    r = cli.run(args.evolve, [cfg, "--validate", "--output", out, "--json", js, "--quiet"])
    if not check(r.returncode == 0, f"--validate: {r.stderr}"):
        return
    with open(js) as f:
        summary = json.load(f)
    v = summary["validate"]
    check(summary.get("strategy") == "atc", f"JSON strategy: {summary.get('strategy')!r}")
    check(v.get("grid_rank_of_ga_best") == 1 and v["ga_best"] == v["grid_best"],
          f"the GA did not find the grid's best: {v}")
    print(f"validate: GA best {v['ga_best']} = grid best, {v['ga_evaluations']} of {v['lattice_size']} points")
    tcsv = os.path.join(work, "best_trades.csv")
    r = cli.run(args.evolve, ["trades", cfg, "--run", out, "--rank", "1", "--csv", tcsv])
    if check(r.returncode == 0, f"trades --run --rank 1: {r.stderr}"):
        with open(tcsv) as f:
            q = [llround(float(t["pnl"]) / float(t["entry"]) * 100.0 * 1e6) for t in csv.DictReader(f)]
        check(fitness(q, "total_return") == v["grid_best"],
              f"--rank 1's trades make {fitness(q, 'total_return')}, the run's best is {v['grid_best']}")


def main():
    with cli.scratch_dir("evolve-atc-search-") as work:
        write_bars(random_walk_bars(1500, 21), os.path.join(work, "walk.csv"))
        grid_equals_brute_force(work, "walk.csv")
        ga_finds_grid_best(work, "walk.csv")
    sys.exit(check.exit())


if __name__ == "__main__":
    main()
