#!/usr/bin/env python3
"""Strategy seller_exhaustion on the search engine (docs/signals.md "Search"):
evolve CONFIG, --grid, --validate, --resume and the run file, on generated
random-walk bars.

- Grid top-K = brute force: a grid whose top holds the whole lattice lists
  exactly the feasible genomes (ema_slow > ema_fast, at least min_trades
  trades), each with the fitness computed here from its trades as
  `evolve trades --genomes` lists them (outcome = pnl / entry * 100,
  quantised to micro-percent as SPEC sec. 5 does), for total_return, sharpe,
  profit_factor, calmar and compound, in the grid's order.
- The GA finds the grid's best on a small lattice (--validate: grid rank 1).
- A GA run killed with SIGKILL and resumed ends with the uninterrupted run's file;
  a resume on other bars is refused (the bars' fingerprint).
- The run file records the strategy; evolve report reads it.
- Refusals: validation:, ga.local_search and data: in a strategy config
  (the device backends: tests/test_strategy_backends.py).

Needs numpy, pandas and h5py (else skipped with 77)."""
import csv
import itertools
import json
import math
import os
import signal
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import evolve_cli as cli  # noqa: E402

if not cli.have_modules("numpy", "pandas", "h5py"):
    print("SKIP: numpy, pandas and h5py are needed")
    sys.exit(77)

import h5py  # noqa: E402

import runfile  # noqa: E402
from walk_bars import random_walk_bars, write_bars  # noqa: E402

args = cli.parse_args()
check = cli.Checker()

SMALL = [("ema_fast", [4, 8, 16]), ("ema_slow", [8, 24, 48]), ("z_window", [20, 40]), ("atr_window", [8, 16]),
         ("vol_z", ["0.5", "1.0", "1.5"]), ("tr_z", ["0.0", "0.5"]), ("cloc_min", ["0.3", "0.6"]),
         ("reward_r", ["1.5", "2.5"])]
MIN_TRADES = 3


def write_config(path, bars, params, extra=""):
    with open(path, "w") as f:
        f.write(f"strategy:\n  type: seller_exhaustion\n  bars: {{csv: {bars}}}\n  costs: {{fee_bp: 2, slippage_bp: 1}}\n")
        f.write("parameters:\n")
        for name, values in params:
            f.write(f"  - {{name: {name}, values: [{', '.join(str(v) for v in values)}]}}\n")
        f.write(extra)


def llround(x):
    return int(math.floor(abs(x) + 0.5)) * (1 if x >= 0 else -1)


def fitness(q, objective):
    """SPEC sec. 5 on the quantised outcomes q (micro-percent), as fitness/accum.h."""
    n, s = len(q), sum(q)
    if n < MIN_TRADES:
        return None
    if objective == "total_return":
        return s / 1e6
    if objective == "sharpe":
        if n < 2:
            return None
        d = n * sum(x * x for x in q) - s * s
        if d <= 0:
            return math.inf if s > 0 else -math.inf if s < 0 else 0.0
        return (s / n) / math.sqrt(float(d) / (n * (n - 1.0)))
    if objective == "profit_factor":
        pos = sum(x for x in q if x > 0)
        loss = pos - s
        return math.inf if loss == 0 else pos / loss
    if objective == "calmar":
        eq = peak = dd = 0
        for x in q:
            eq += x
            peak = max(peak, eq)
            dd = max(dd, peak - eq)
        return math.inf if dd == 0 else s / dd
    # compound: the reported percent (results/README.md)
    prod = 1.0
    for x in q:
        if x <= -100000000:
            return -100.0
        prod *= 1.0 + x / 1e8
    return (prod - 1.0) * 100.0


def se_feasible(p):
    return int(p["ema_slow"]) > int(p["ema_fast"])


def brute_force(work, cfg, params=SMALL, is_feasible=se_feasible, chk=check):
    """Every feasible lattice point's outcomes through evolve trades --genomes."""
    names = [n for n, _ in params]
    points = [dict(zip(names, vals)) for vals in itertools.product(*[v for _, v in params])]
    feasible = [p for p in points if is_feasible(p)]
    gpath, tpath = os.path.join(work, "genomes.csv"), os.path.join(work, "trades.csv")
    with open(gpath, "w") as f:
        f.write(",".join(names) + "\n")
        for p in feasible:
            f.write(",".join(str(p[n]) for n in names) + "\n")
    r = cli.run(args.evolve, ["trades", cfg, "--genomes", gpath, "--csv", tpath])
    chk(r.returncode == 0, f"evolve trades --genomes: {r.stderr}")
    q = {i: [] for i in range(len(feasible))}
    with open(tpath) as f:
        for row in csv.DictReader(f):
            q[int(row["genome"])].append(llround(float(row["pnl"]) / float(row["entry"]) * 100.0 * 1e6))
    key = lambda p: tuple(str(p[n]) for n in names)  # noqa: E731
    return len(points), {key(p): q[i] for i, p in enumerate(feasible)}


def grid_rows(path):
    with h5py.File(path, "r") as f:
        names = list(f["lattice/name"].asstr())
        texts = list(f["lattice/value_text"].asstr())
        off = f["lattice/value_offset"][:]
        t = f["grid/top"]
        genes, fit, trades = t["genes"][:], t["fitness"][:], t["trades"][:]
        strategy = f["provenance"].attrs.get("strategy")
        check(f["grid"].attrs.get("evaluator") == "backtest", f"{path}: grid evaluator {f['grid'].attrs.get('evaluator')}")
    rows = [(tuple(texts[off[k] + g[k]] for k in range(len(names))), float(fit[i]), int(trades[i]))
            for i, g in enumerate(genes)]
    return rows, strategy


def grid_matches(chk, objective, rows, outcomes):
    """The grid's rows against brute force (each genome's quantised outcomes):
    the same genomes, fitness to 1e-12 relative, the same trade counts, best
    first. Returns the fitness values in the grid's order."""
    want = {g: fitness(q, objective) for g, q in outcomes.items()}
    want = {g: v for g, v in want.items() if v is not None}
    got = {g: v for g, v, _ in rows}
    chk(set(got) == set(want), f"{objective}: the grid lists {len(got)} genomes, brute force "
                               f"{len(want)} feasible; first differences {sorted(set(got) ^ set(want))[:3]}")
    bad = [g for g in got if g in want and not (got[g] == want[g] or abs(got[g] - want[g]) <= 1e-12 * abs(want[g]))]
    chk(not bad, f"{objective}: fitness differs for {len(bad)} genomes, e.g. {bad[:1]}: "
                 f"{[(got[g], want[g]) for g in bad[:2]]}")
    chk(all(n == len(outcomes[g]) for g, _, n in rows), f"{objective}: trade counts differ")
    order = [v for _, v, _ in rows]
    chk(order == sorted(order, reverse=True), f"{objective}: the grid's list is not best first")
    return order


def grid_equals_brute_force(work, bars):
    cfg = os.path.join(work, "small.yaml")
    write_config(cfg, bars, SMALL, f"objective: {{name: total_return, min_trades: {MIN_TRADES}}}\n")
    size, outcomes = brute_force(work, cfg)
    trading = sum(1 for q in outcomes.values() if len(q) >= MIN_TRADES)
    check(trading > 50, f"the small lattice should trade: {trading} genomes with {MIN_TRADES}+ trades")
    for objective in ("total_return", "sharpe", "profit_factor", "calmar", "compound"):
        write_config(cfg, bars, SMALL, f"objective: {{name: {objective}, min_trades: {MIN_TRADES}}}\ntop: {size}\n")
        out = os.path.join(work, f"grid_{objective}.h5")
        r = cli.run(args.evolve, [cfg, "--grid", "--output", out, "--quiet"])
        if not check(r.returncode == 0, f"{objective}: --grid: {r.stderr}"):
            continue
        rows, strategy = grid_rows(out)
        check(strategy == "seller_exhaustion", f"{objective}: provenance strategy attribute {strategy!r}")
        order = grid_matches(check, objective, rows, outcomes)
        check(all(int(g[1]) > int(g[0]) for g, _, _ in rows), f"{objective}: an infeasible genome "
                                                               "(ema_slow <= ema_fast) was ranked")
        if objective == "total_return":  # one thread: the same list, bit for bit
            one = os.path.join(work, "grid_one_thread.h5")
            r = cli.run(args.evolve, [cfg, "--grid", "--output", one, "--quiet"], {"OMP_NUM_THREADS": "1"})
            check(r.returncode == 0 and grid_rows(one)[0] == rows, f"one thread: a different grid list {r.stderr}")
        print(f"{objective}: grid = brute force over {len(rows)} feasible genomes of {size}; best {order[0]!r}")


def validate_finds_grid_best(chk, work, cfg, strategy):
    """evolve CONFIG --validate: the GA's best is the grid's (rank 1), the JSON
    names the strategy, and `evolve trades CONFIG --run RUN --rank 1` lists
    trades worth that best. Returns the run file's path (None on failure)."""
    js, out = os.path.join(work, "validate.json"), os.path.join(work, "validate.h5")
    r = cli.run(args.evolve, [cfg, "--validate", "--output", out, "--json", js, "--quiet"])
    if not chk(r.returncode == 0, f"--validate: {r.stderr}"):
        return None
    with open(js) as f:
        summary = json.load(f)
    v = summary["validate"]
    chk(summary.get("strategy") == strategy, f"JSON strategy: {summary.get('strategy')!r}")
    chk(v.get("grid_rank_of_ga_best") == 1 and v["ga_best"] == v["grid_best"],
        f"the GA did not find the grid's best: {v}")
    print(f"validate: GA best {v['ga_best']} = grid best, {v['ga_evaluations']} of {v['lattice_size']} points")
    tcsv = os.path.join(work, "best_trades.csv")
    r = cli.run(args.evolve, ["trades", cfg, "--run", out, "--rank", "1", "--csv", tcsv])
    if chk(r.returncode == 0, f"trades --run --rank 1: {r.stderr}"):
        with open(tcsv) as f:
            q = [llround(float(t["pnl"]) / float(t["entry"]) * 100.0 * 1e6) for t in csv.DictReader(f)]
        chk(fitness(q, "total_return") == v["grid_best"], f"--rank 1's trades make {fitness(q, 'total_return')}, "
                                                          f"the run's best is {v['grid_best']}")
    return out


def ga_finds_grid_best(work, bars):
    cfg = os.path.join(work, "validate.yaml")
    write_config(cfg, bars, SMALL, f"objective: {{name: total_return, min_trades: {MIN_TRADES}}}\n"
                                   "ga: {population: 64, generations: 40}\ntop: 5\nseed: 7\n")
    out = validate_finds_grid_best(check, work, cfg, "seller_exhaustion")
    if out:
        tcsv = os.path.join(work, "best_trades.csv")
        r = cli.run(args.evolve, ["trades", cfg, "--run", out, "--rank", "6", "--csv", tcsv])
        check(r.returncode == 2 and "lists 5 genome(s)" in r.stderr, f"--rank past the list: {r.stderr}")


WIDE = [("ema_fast", list(range(4, 40, 4))), ("ema_slow", list(range(20, 200, 20))),
        ("z_window", list(range(20, 120, 10))), ("atr_window", list(range(4, 40, 4))),
        ("vol_z", [f"{k / 10}" for k in range(0, 30)]), ("tr_z", [f"{k / 10}" for k in range(0, 20)]),
        ("cloc_min", [f"{k / 20}" for k in range(4, 17)]), ("atr_stop_mult", [f"{k / 10}" for k in range(3, 16)]),
        ("reward_r", [f"{k / 4}" for k in range(6, 17)]), ("max_hold", list(range(8, 72, 8)))]


def killed_and_resumed(work):
    d = os.path.join(work, "kill")
    os.makedirs(d)
    bars = os.path.join(d, "bars.csv")
    write_bars(random_walk_bars(2500, 11), bars)
    cfg = os.path.join(d, "run.yaml")
    write_config(cfg, "bars.csv", WIDE, "objective: {name: sharpe, min_trades: 2}\nga: {population: 96, generations: 12}\n")
    ref, out = os.path.join(d, "ref.h5"), os.path.join(d, "run.h5")
    r = cli.run(args.evolve, [cfg, "--output", ref, "--quiet"])
    if not check(r.returncode == 0, f"uninterrupted GA: {r.stderr}"):
        return
    r = cli.run(args.evolve, [cfg, "--output", out, "--quiet"], {"EVOLVE_TEST_KILL": "flushed:6"})
    check(r.returncode == -signal.SIGKILL and not os.path.exists(out), f"kill at generation 6: {r.returncode}")
    os.rename(bars, bars + ".kept")  # other bars: the resume is refused, the run kept
    write_bars(random_walk_bars(2500, 12), bars)
    r = cli.run(args.evolve, [cfg, "--resume", out + ".partial", "--quiet"])
    check(r.returncode == 1 and "the dataset differs" in r.stderr and os.path.exists(out + ".partial"),
          f"resume on other bars: {r.returncode} {r.stderr}")
    os.replace(bars + ".kept", bars)
    r = cli.run(args.evolve, [cfg, "--resume", out + ".partial", "--quiet"])
    if check(r.returncode == 0 and os.path.exists(out), f"resume: {r.returncode} {r.stderr}"):
        diffs = runfile.compare(ref, out)
        check(not diffs, f"the resumed run differs from the uninterrupted one: {diffs[:5]}")
        with h5py.File(out, "r") as f:
            sessions = list(f["provenance/sessions"].asstr())
        check(any("resumed at generation" in s for s in sessions), f"the resume started over: {sessions}")
        print(f"resume: killed at generation 6, resumed, identical to the uninterrupted run ({sessions[-1]})")
    r = cli.run(args.evolve, ["report", ref, "--out", os.path.join(d, "report")])
    check(r.returncode == 0 and "hall of fame" in r.stdout and "strategy:   seller_exhaustion" in r.stdout,
          f"evolve report: {r.returncode} {r.stdout} {r.stderr}")


def refusals(work, bars):
    cfg = os.path.join(work, "small.yaml")
    write_config(cfg, bars, SMALL)
    out = os.path.join(work, "refused.h5")
    r = cli.run(args.evolve, [cfg, "--grid", "--evaluator", "reference", "--output", out])
    check(r.returncode == 2 and "one evaluator" in r.stderr, f"--evaluator reference: {r.returncode} {r.stderr}")
    bad, out = os.path.join(work, "bad.yaml"), os.path.join(work, "never.h5")
    for extra, expect in (("validation: {holdout: {share: 0.2}}\n",
                           "validation: not supported for strategy seller_exhaustion yet"),
                          ("ga: {local_search: {every: 2}}\n", "bad.yaml:"),
                          ("data: {dataset: x.h5}\n", "drop data: or strategy:")):
        write_config(bad, bars, SMALL, extra)
        r = cli.run(args.evolve, [bad, "--grid", "--output", out])
        check(r.returncode in (1, 2) and expect in r.stderr and not os.path.exists(out),
              f"{extra.strip()}: exit {r.returncode}: {r.stderr}")


def main():
    with cli.scratch_dir("evolve-strategy-") as work:
        write_bars(random_walk_bars(2500, 11), os.path.join(work, "walk.csv"))
        grid_equals_brute_force(work, "walk.csv")
        ga_finds_grid_best(work, "walk.csv")
        killed_and_resumed(work)
        refusals(work, "walk.csv")
    sys.exit(check.exit())


if __name__ == "__main__":
    main()
