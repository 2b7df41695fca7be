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
- validation: by day (docs/signals.md "Validation"): on bars of 30 days, the
  split's days are the bars' days (holdout days / share / last as asked);
  every reported row's in-sample, holdout and per-fold fitness and trades
  (run file) equal the objective over that genome's trades entered on the
  part's days (UTC date of entry_time in `evolve trades --genomes`); the
  grid lists exactly the genomes feasible by the search's fitness (in-sample,
  or the fold statistic of objective.aggregate: worst, median, mean), with
  that fitness, and its top-1 is the test's argmax over the whole lattice.
- --walk-forward (grid: total_return, calmar; GA: total_return) on those
  bars, train 10 / test 5 days: each window's winner is the test's argmax
  over the lattice of the objective on its train days' trades (ties: the
  lower linear index), or for the GA a separate GA run holding out every
  other day; its test fitness / trades are the objective on the test days'
  trades; the chained result the objective over every test window's trades
  of its winner, in order; each window's test trader statistics (JSON
  test_stats, run file test/trader_stats) are those of its test days'
  trades, the chained ones those of the chain's trades; evolve report
  summarises it.
- Trader statistics (docs/signals.md): every reported row of a grid, a GA,
  a validation: run (and its "out_of_sample_stats" on the holdout days) and
  a walk-forward carries docs/config.md's statistics as computed here from
  its trades in `evolve trades --genomes` (tests/test_trade_stats.py's
  formulas; exits tp -> target, stop / stop_gap -> stop, time / signal ->
  logged), in the JSON and the run file; evolve report prints them.
- ga.local_search on a strategy (batches of backtests): ls_evaluations > 0,
  every hall of fame row's fitness is brute force's, the GA that climbs
  finds the grid's best (--validate), and a killed + resumed run that
  climbs ends with the uninterrupted run's file.
- Refusals: objective.aggregate without folds, bad holdout / folds and data: in a
  strategy config (the device backends: tests/test_strategy_backends.py).

With --by-day (test_strategy_search_days) only the validation by day and the
walk-forward; without it (test_strategy_search) the rest, so that the two
halves run side by side.

Needs numpy, pandas and h5py (else skipped with 77)."""
import csv
import datetime
import itertools
import json
import math
import os
import signal
import sys
import types

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import evolve_cli as cli  # noqa: E402

if not cli.have_modules("numpy", "pandas", "h5py"):
    print("SKIP: numpy, pandas and h5py are needed")
    sys.exit(77)

import h5py  # noqa: E402

import runfile  # noqa: E402
from walk_bars import random_walk_bars, write_bars  # noqa: E402

import test_trade_stats as tts  # noqa: E402  (the trade-log test's statistics, docs/config.md)

args = cli.parse_args(["--by-day", "--small"])
# --small (the sanitizer build, tests/CMakeLists.txt): the validation cases' 30 days of 50 bars rather than 100,
# every case kept (the walk-forward keeps 100: at 50 its calmar windows tie several genomes at inf)
DAY_BARS = 50 if args.small else 100
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


def fitness(q, objective, min_trades=MIN_TRADES):
    """SPEC sec. 5 on the quantised outcomes q (micro-percent), as fitness/accum.h."""
    n, s = len(q), sum(q)
    if n < min_trades:
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


def brute_force(work, cfg, params=SMALL, is_feasible=se_feasible, chk=check, days=None, trades=None):
    """Every feasible lattice point's outcomes through evolve trades --genomes
    (days: a dict to fill with each point's trades' entry days, UTC; trades:
    with each point's trades as (q, reason, entry second, exit second))."""
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
    d = {i: [] for i in range(len(feasible))}
    t = {i: [] for i in range(len(feasible))}
    with open(tpath) as f:
        for row in csv.DictReader(f):
            q[int(row["genome"])].append(llround(float(row["pnl"]) / float(row["entry"]) * 100.0 * 1e6))
            d[int(row["genome"])].append(int(row["entry_time"]) // 86400)
            t[int(row["genome"])].append((q[int(row["genome"])][-1], row["reason"], int(row["entry_time"]),
                                          int(row["exit_time"])))
    key = lambda p: tuple(str(p[n]) for n in names)  # noqa: E731
    if days is not None:
        days.update({key(p): d[i] for i, p in enumerate(feasible)})
    if trades is not None:
        trades.update({key(p): t[i] for i, p in enumerate(feasible)})
    return len(points), {key(p): q[i] for i, p in enumerate(feasible)}


def ranked_rows(f, table):
    """A run file's ranked list (grid/top, ga/hall_of_fame): (genome as
    texts, fitness, trades) per row."""
    names = list(f["lattice/name"].asstr())
    texts = list(f["lattice/value_text"].asstr())
    off = f["lattice/value_offset"][:]
    t = f[table]
    return [(tuple(texts[off[k] + g[k]] for k in range(len(names))), float(t["fitness"][i]), int(t["trades"][i]))
            for i, g in enumerate(t["genes"][:])]


def grid_rows(path):
    with h5py.File(path, "r") as f:
        rows = ranked_rows(f, "grid/top")
        strategy = f["provenance"].attrs.get("strategy")
        check(f["grid"].attrs.get("evaluator") == "backtest", f"{path}: grid evaluator {f['grid'].attrs.get('evaluator')}")
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


# A strategy's exits as the trader statistics count them (docs/signals.md "Trader statistics").
EXIT_AS = {"tp": "target", "stop": "stop", "stop_gap": "stop", "time": "logged", "signal": "logged"}


def stats_of(trades):
    """docs/config.md's trader statistics of trades [(q, reason, entry second,
    exit second)], computed as tests/test_trade_stats.py computes a trade log's."""
    return tts.stats_want([(types.SimpleNamespace(entry_ts=e), q, EXIT_AS[r], x) for q, r, e, x in trades])


def stats_agree(chk, where, got, column, trades):
    """A reported row's statistics in the JSON (got) and the run file (column:
    name -> that row's value) against the test's over its trades."""
    want = stats_of(trades)
    got = got or {}
    bad = {k: (got.get(k), w) for k, w in want.items() if not tts.close(got.get(k), w)}
    in_file = {k: None if math.isnan(float(v)) else float(v) for k, v in column.items()}  # NaN: JSON's null
    bad_file = {k: (in_file.get(k), w) for k, w in want.items() if not tts.close(in_file.get(k), w)}
    return chk(set(got) == set(want) == set(in_file) and not bad and not bad_file,
               f"{where}: trader statistics (reported, test's): JSON {bad} {sorted(got)}, run file {bad_file}")


def row_column(group, i):
    """Row i of a run file's trader-statistics group (GROUP/trader_stats)."""
    return {k: group[k][i] for k in group}


def stats_rows(chk, what, h5, group, doc, rows, trades, part_of=None):
    """Every reported row's "stats" (JSON and GROUP/trader_stats) over its
    trades that count (part_of: entry day -> part, the holdout's < 0), and
    with a holdout its "out_of_sample_stats" over the holdout's. rows: the
    run file's rows (genome first), in the JSON's order. Returns the rows
    checked."""
    day = lambda t: t[2] // 86400  # noqa: E731
    with h5py.File(h5, "r") as f:
        st = f[group + "/trader_stats"]
        oos = f.get(group + "/validation/out_of_sample_trader_stats")
        held = part_of is not None and any(p < 0 for p in part_of.values())
        chk((oos is not None) == held, f"{what}: out_of_sample_trader_stats {'missing' if held else 'without a holdout'}")
        for i, (row, r) in enumerate(zip(doc["top"], rows)):
            g = r[0]
            ins = [t for t in trades[g] if part_of is None or part_of[day(t)] >= 0]
            if not stats_agree(chk, f"{what} rank {i + 1} {g}", row.get("stats"), row_column(st, i), ins):
                return i
            if held and not stats_agree(chk, f"{what} rank {i + 1} {g} holdout", row.get("out_of_sample_stats"),
                                        row_column(oos, i), [t for t in trades[g] if part_of[day(t)] < 0]):
                return i
            chk(row["stats"]["trades"] == row["trades"], f"{what}: stats trades != trades")
    return len(rows)


def stats_of_runs(work, cfg, bars, size, trades):
    """A grid and a GA run's reported rows carry the statistics of their
    trades; evolve report prints them."""
    for mode, extra in (("grid", f"top: {size}\n"), ("ga", "ga: {population: 32, generations: 6}\ntop: 12\n")):
        write_config(cfg, bars, SMALL, f"objective: {{name: sharpe, min_trades: {MIN_TRADES}}}\n" + extra)
        out, js = os.path.join(work, f"stats_{mode}.h5"), os.path.join(work, f"stats_{mode}.json")
        r = cli.run(args.evolve, [cfg, "--output", out, "--json", js, "--quiet"] + (["--grid"] if mode == "grid" else []))
        if not check(r.returncode == 0, f"stats {mode}: {r.stderr}"):
            continue
        with open(js) as f:
            doc = json.load(f)
        with h5py.File(out, "r") as f:
            rows = ranked_rows(f, "grid/top" if mode == "grid" else "ga/hall_of_fame")
        check(len(rows) == len(doc["top"]) > 5, f"stats {mode}: {len(rows)} rows, JSON {len(doc['top'])}")
        n = stats_rows(check, f"stats {mode}", out, mode, doc, rows, trades)
        r = cli.run(args.evolve, ["report", out, "--out", os.path.join(work, f"stats_rep_{mode}")])
        check(r.returncode == 0 and "trader statistics (per trade" in r.stdout and "  target  stop  logged" in r.stdout,
              f"stats {mode}: evolve report prints no trader statistics: {r.stdout[-600:]} {r.stderr}")
        print(f"trader statistics ({mode}): {n} reported rows, each as the test computes it from its trades")


def grid_equals_brute_force(work, bars):
    cfg = os.path.join(work, "small.yaml")
    write_config(cfg, bars, SMALL, f"objective: {{name: total_return, min_trades: {MIN_TRADES}}}\n")
    trades = {}
    size, outcomes = brute_force(work, cfg, trades=trades)
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
    stats_of_runs(work, cfg, bars, size, trades)


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


def local_search(work, bars):
    """ga.local_search on a strategy (docs/ga.md "Local search"): the climbs
    are batches of backtests, counted in ls_evaluations; every hall of fame
    row is the genome's fitness as brute force computes it; and a small GA
    that climbs finds the grid's best (--validate)."""
    cfg = os.path.join(work, "ls.yaml")
    write_config(cfg, bars, SMALL, f"objective: {{name: total_return, min_trades: {MIN_TRADES}}}\n")
    _, outcomes = brute_force(work, cfg)
    want = {g: fitness(q, "total_return") for g, q in outcomes.items()}
    write_config(cfg, bars, SMALL, f"objective: {{name: total_return, min_trades: {MIN_TRADES}}}\n"
                                   "ga: {population: 16, generations: 8, islands: 1,\n"
                                   "     local_search: {every: 2, members: 2, depth: 2}}\ntop: 20\nseed: 3\n")
    out, js = os.path.join(work, "ls.h5"), os.path.join(work, "ls.json")
    r = cli.run(args.evolve, [cfg, "--output", out, "--json", js, "--quiet"])
    if not check(r.returncode == 0, f"GA with local search: {r.stderr}"):
        return
    with h5py.File(out, "r") as f:
        ls = int(f["ga"].attrs["ls_evaluations"])
        rows = ranked_rows(f, "ga/hall_of_fame")
    check(ls > 0, f"local search ran no sweep: ls_evaluations {ls}")
    bad = [(g, v, want.get(g)) for g, v, _ in rows if want.get(g) is None or abs(v - want[g]) > 1e-12 * abs(want[g])]
    check(rows and not bad, f"local search: hall of fame rows differ from brute force: {bad[:3]}")
    validate_finds_grid_best(check, work, cfg, "seller_exhaustion")
    print(f"local search: {ls} evaluations of sweeps; {len(rows)} hall of fame rows = brute force")


def killed_and_resumed(work, ga="{population: 96, generations: 12}", name="kill"):
    d = os.path.join(work, name)
    os.makedirs(d)
    bars = os.path.join(d, "bars.csv")
    write_bars(random_walk_bars(2500, 11), bars)
    cfg = os.path.join(d, "run.yaml")
    write_config(cfg, "bars.csv", WIDE, f"objective: {{name: sharpe, min_trades: 2}}\nga: {ga}\n")
    ref, out = os.path.join(d, "ref.h5"), os.path.join(d, "run.h5")
    r = cli.run(args.evolve, [cfg, "--output", ref, "--quiet"])
    if not check(r.returncode == 0, f"uninterrupted GA: {r.stderr}"):
        return
    r = cli.run(args.evolve, [cfg, "--output", out, "--quiet"], {"EVOLVE_TEST_KILL": "written:6"})
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
        print(f"resume ({ga}): killed at generation 6, resumed, identical to the uninterrupted run "
              f"({sessions[-1]})")
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
    for extra, expect in (("objective: {name: total_return, aggregate: worst_fold}\n",
                           "objective.aggregate needs a validation: block with folds"),
                          ("objective: {name: total_return, aggregate: mean_fold}\nvalidation: {holdout: {last: 1}}\n",
                           "objective.aggregate needs validation.folds (or fold_by) giving 2 to 16 folds; there are 0"),
                          ("validation: {holdout: {days: [2001-01-01]}}\n",
                           "validation.holdout.days: no bar of the data falls on day 11323"),
                          ("validation: {holdout: {last: 100}}\n", "validation.holdout takes all"),
                          ("validation: {folds: 100}\n", "validation.folds: 100 folds need at least 100 in-sample"),
                          ("data: {dataset: x.h5}\n", "drop data: or strategy:")):
        write_config(bad, bars, SMALL, extra)
        r = cli.run(args.evolve, [bad, "--grid", "--output", out])
        check(r.returncode in (1, 2) and expect in r.stderr and not os.path.exists(out),
              f"{extra.strip()}: exit {r.returncode}: {r.stderr}")


def day_bars(n, seed, per_day):
    """Random-walk bars, per_day a day from 09:00 UTC, five days a week: the
    days a validation: block splits."""
    import numpy as np
    df = random_walk_bars(n, seed)
    day = np.arange(n) // per_day
    df["ts"] = 19675 * 86400 + 9 * 3600 + 86400 * (day + 2 * (day // 5)) + 60 * (np.arange(n) % per_day)
    return df


def part_value(q, d, part_of, keep, objective, min_trades):
    """(fitness or None when infeasible, trades) of the trades q whose entry
    day (d) is in a part kept (keep(part)); part_of: day -> part (-1: holdout)."""
    v = [x for x, day in zip(q, d) if keep(part_of[day])]
    return (fitness(v, objective, min_trades), len(v))


def close(a, b):
    return a == b or abs(a - b) <= 1e-12 * max(1.0, abs(b))


def plateau(g, search, params):
    """(mean, worst, neighbours, feasible) of g's lattice neighbours (one
    step down, one up, parameter order) on the search's fitness (search:
    genome -> value, the feasible ones)."""
    values = [v for _, v in params]
    at = [[str(x) for x in v].index(t) for v, t in zip(values, g)]
    total, worst, n, ok = 0.0, math.inf, 0, 0
    for k in range(len(g)):
        for d in (-1, 1):
            if 0 <= at[k] + d < len(values[k]):
                nb = tuple(str(values[j][at[j] + (d if j == k else 0)]) for j in range(len(g)))
                n += 1
                x = search.get(nb, -math.inf)
                if nb in search:
                    ok += 1
                    total += x
                worst = min(worst, x)
    return (total / ok if ok else -math.inf, worst if n else -math.inf, n, ok)


def validation_rows(path, group):
    """The reported rows (grid: its top, ga: its hall of fame) with their
    validation columns (run file)."""
    with h5py.File(path, "r") as f:
        rows = ranked_rows(f, "grid/top" if group == "grid" else "ga/hall_of_fame")
        v = f[group + "/validation"]
        days, part = [int(x) for x in v["days"][:]], [int(x) for x in v["day_part"][:]]
        cols = {k: v[k][:] for k in ("in_sample_fitness", "in_sample_trades", "in_sample_feasible",
                                     "out_of_sample_fitness", "out_of_sample_trades", "out_of_sample_feasible",
                                     "plateau_mean", "plateau_worst", "plateau_neighbours", "plateau_feasible")}
        cols["pbo"] = float(v.attrs["pbo"])
        if "fold_fitness" in v:
            cols.update({k: v[k][:] for k in ("fold_fitness", "fold_trades", "fold_feasible")})
    return rows, dict(zip(days, part)), cols


def check_cell(chk, what, got_fit, got_n, got_ok, want):
    """One part of one row against the test's (value or None, trades)."""
    value, n = want
    ok = int(got_n) == n and bool(got_ok) == (value is not None)
    if ok and value is not None:
        ok = close(float(got_fit), value)
    return chk(ok, f"{what}: run file ({got_fit}, {got_n} trades, feasible {got_ok}), test ({value}, {n} trades)")


VALIDATION_CASES = (("total_return", MIN_TRADES, "", "{holdout: {days: [DAYS]}, folds: 4}"),
                    ("compound", MIN_TRADES, "", "{holdout: {share: 0.2}, folds: 3}\nseed: 5"),
                    ("total_return", 1, "worst_fold", "{holdout: {last: 5}, folds: 3}"),
                    ("sharpe", 2, "median_fold", "{fold_by: week}"),
                    ("profit_factor", MIN_TRADES, "mean_fold", "{folds: 5}"),
                    ("sharpe", MIN_TRADES, "",
                     "{holdout: {share: 0.25}, folds: 3}\nga: {population: 32, generations: 8}"),
                    ("total_return", MIN_TRADES, "", "{holdout: {last: 3}, rank_by: plateau}"))


def validation_by_day(work, params=SMALL, is_feasible=se_feasible, write=None, chk=check, cases=VALIDATION_CASES):
    """validation: on bars, by the entry bar's day: the split's days are the
    bars' days; every reported row's in-sample, holdout and fold scores equal
    the objective over that genome's trades (evolve trades --genomes) entered
    on the part's days; aggregate: worst_fold ranks the whole lattice by the
    test's own worst fold."""
    d = os.path.join(work, "val")
    os.makedirs(d)
    bars = os.path.join(d, "bars.csv")
    df = day_bars(30 * DAY_BARS, 11, DAY_BARS)
    write_bars(df, bars)
    bar_days = sorted({int(t) // 86400 for t in df["ts"]})
    listed = [bar_days[3], bar_days[10], bar_days[17], bar_days[25]]
    iso = [(datetime.date(1970, 1, 1) + datetime.timedelta(days=x)).isoformat() for x in listed]
    cfg = os.path.join(d, "v.yaml")
    write = write or (lambda path, bars, extra="": write_config(path, bars, params, extra))
    write(cfg, "bars.csv")
    days, trades = {}, {}
    size, outcomes = brute_force(d, cfg, params, is_feasible, chk, days=days, trades=trades)
    for objective, min_trades, agg, validation in cases:
        validation = validation.replace("DAYS", ", ".join(iso))
        group = "ga" if "ga:" in validation else "grid"
        what = f"{objective} {agg} {validation}".replace("\n", " ")
        write(cfg, "bars.csv", f"objective: {{name: {objective}, min_trades: {min_trades}"
                               f"{', aggregate: ' + agg if agg else ''}}}\nvalidation: {validation}\ntop: {size}\n")
        out, js = os.path.join(d, "grid.h5"), os.path.join(d, "grid.json")
        if os.path.exists(out):
            os.remove(out)
        r = cli.run(args.evolve, [cfg] + (["--grid"] if group == "grid" else []) + ["--output", out, "--json", js,
                                                                                    "--quiet"])
        if not chk(r.returncode == 0, f"{what}: {r.stderr}"):
            continue
        rows, part_of, cols = validation_rows(out, group)
        with open(js) as f:
            stats_rows(chk, what, out, group, json.load(f), rows, trades, part_of)
        if "days:" in validation:
            r = cli.run(args.evolve, ["report", out, "--out", os.path.join(d, "report")])
            chk(r.returncode == 0 and "trader statistics on the holdout days" in r.stdout,
                f"{what}: evolve report prints no holdout statistics: {r.stdout[-600:]} {r.stderr}")
        chk(sorted(part_of) == bar_days, f"{what}: the split's days are not the bars' days")
        n_folds = max(part_of.values()) + 1 if "fold_fitness" in cols else 0
        held = sorted(x for x, p in part_of.items() if p < 0)
        if "days:" in validation:
            chk(held == listed, f"{what}: held out {held}, listed {listed}")
        if "share" in validation:
            share = float(validation.split("share: ")[1].split("}")[0])
            chk(len(held) == round(share * len(bar_days)), f"{what}: {len(held)} days held out")
        if "last" in validation:
            last = int(validation.split("last: ")[1].split("}")[0])
            chk(held == bar_days[-last:], f"{what}: held out {held}, not the last {last} days")

        def value(g, keep):
            return part_value(outcomes[g], days[g], part_of, keep, objective, min_trades)

        bad = 0
        for i, (g, _, _) in enumerate(rows):
            if bad > 3:
                break
            bad += not check_cell(chk, f"{what}: {g} in-sample", cols["in_sample_fitness"][i],
                                  cols["in_sample_trades"][i], cols["in_sample_feasible"][i],
                                  value(g, lambda p: p >= 0))
            bad += not check_cell(chk, f"{what}: {g} holdout", cols["out_of_sample_fitness"][i],
                                  cols["out_of_sample_trades"][i], cols["out_of_sample_feasible"][i],
                                  value(g, lambda p: p < 0))
            for f in range(n_folds):
                bad += not check_cell(chk, f"{what}: {g} fold {f}", cols["fold_fitness"][i][f],
                                      cols["fold_trades"][i][f], cols["fold_feasible"][i][f],
                                      value(g, lambda p, f=f: p == f))
        # the search's own list: every genome feasible under its fitness, by it, best first
        search = {}
        for g in outcomes:
            if not agg:
                v = value(g, lambda p: p >= 0)[0]
                if v is not None:
                    search[g] = v
                continue
            fv = [value(g, lambda p, f=f: p == f)[0] for f in range(n_folds)]
            if None in fv:
                continue
            total = 0.0
            for x in fv:  # summed in fold order, as fitness/fold_accum.h (not sum(): compensated since Python 3.12)
                total += x
            m, mean = len(fv), total / len(fv)
            fv.sort()
            search[g] = {"worst_fold": fv[0], "mean_fold": mean,
                         "median_fold": fv[m // 2] if m % 2 else (fv[m // 2 - 1] + fv[m // 2]) / 2}[agg]
        got = {g: v for g, v, _ in rows}
        want = {g: v for g, v in search.items() if g in got} if group == "ga" else search  # the GA: some
        chk(set(got) == set(want), f"{what}: the {group} lists {len(got)} genomes, the test {len(want)}; "
                                     f"first differences {sorted(set(got) ^ set(want))[:3]}")
        tol = 1e-12
        diff = [g for g in got if g in search and got[g] != search[g]
                and not abs(got[g] - search[g]) <= tol * max(1.0, abs(search[g]))]
        chk(not diff, f"{what}: the search's fitness differs for {len(diff)} genomes, e.g. "
                        f"{[(g, got[g], search[g]) for g in diff[:2]]}")
        if objective != "compound":  # (compound's neighbours read as exp of their log sums)
            bad = [g for i, (g, _, _) in enumerate(rows)
                   if plateau(g, search, params) != (cols["plateau_mean"][i], cols["plateau_worst"][i],
                                             cols["plateau_neighbours"][i], cols["plateau_feasible"][i])]
            chk(not bad, f"{what}: plateau differs for {len(bad)} rows, e.g. {bad[:1]}: "
                           f"{[plateau(g, search, params) for g in bad[:1]]}")
        chk(group != "grid" or 0.0 <= cols["pbo"] <= 1.0, f"{what}: PBO {cols['pbo']}")
        if "rank_by: plateau" in validation:
            means = list(cols["plateau_mean"])
            chk(means == sorted(means, reverse=True), f"{what}: the rows are not in plateau order")
        if agg and group == "grid" and chk(rows, f"{what}: no row"):
            best = max(search.values())
            chk(rows[0][1] == best and search[rows[0][0]] == best,
                  f"{what}: grid top-1 {rows[0]} is not the test's argmax of the {agg} ({best})")
        print(f"validation {what}: {len(rows)} rows, each part scored as the test scores it"
              + (f"; top-1 {rows[0][0]} = the test's argmax of the {agg} over the lattice" if agg and rows else ""))


def walk_rows(path):
    """The run file's /walk_forward: per window (winner genome as texts,
    train fitness, train trades, test fitness, test trades, test feasible,
    train days (first, last), test days (first, last), test trader
    statistics), and its attributes."""
    with h5py.File(path, "r") as f:
        names = list(f["lattice/name"].asstr())
        texts = list(f["lattice/value_text"].asstr())
        off = f["lattice/value_offset"][:]
        g = f["walk_forward"]
        win, test = g["winners"], g["test"]
        spans = [g[k][:] for k in ("train_first_day", "train_last_day", "test_first_day", "test_last_day")]
        rows = [(tuple(texts[off[k] + gn[k]] for k in range(len(names))), float(win["fitness"][i]),
                 int(win["trades"][i]), float(test["fitness"][i]), int(test["trades"][i]), bool(test["feasible"][i]),
                 (int(spans[0][i]), int(spans[1][i])), (int(spans[2][i]), int(spans[3][i])),
                 row_column(test["trader_stats"], i))
                for i, gn in enumerate(win["genes"][:])]
        return rows, dict(g.attrs)


def walk_forward(work):
    """--walk-forward on a strategy: the bars' days cut into windows; each
    window's winner is the test's argmax over the lattice of the objective on
    its train days' trades (grid ties: the lower linear index, i.e. the
    earlier point of itertools.product) or, for the GA, a separate GA run with
    every other day held out; its test score is the objective on the test
    days' trades; the chained result the objective over every test window's
    trades under its own winner, in order."""
    d = os.path.join(work, "wf")
    os.makedirs(d)
    df = day_bars(3000, 11, 100)
    write_bars(df, os.path.join(d, "bars.csv"))
    bar_days = sorted({int(t) // 86400 for t in df["ts"]})
    cfg = os.path.join(d, "w.yaml")
    write_config(cfg, "bars.csv", SMALL)
    days, trades = {}, {}
    _, outcomes = brute_force(d, cfg, SMALL, se_feasible, check, days=days, trades=trades)
    iso = lambda x: (datetime.date(1970, 1, 1) + datetime.timedelta(days=x)).isoformat()  # noqa: E731
    train_n, test_n = 10, 5
    want_spans = [((bar_days[b], bar_days[b + train_n - 1]),
                   (bar_days[b + train_n], bar_days[b + train_n + test_n - 1]))
                  for b in range(0, len(bar_days) - train_n - test_n + 1, test_n)]
    ga = "ga: {population: 12, generations: 3}\n"
    for objective, mode, extra in (("total_return", "grid", ""), ("calmar", "grid", ""),
                                   ("total_return", "ga", ga)):
        what = f"walk-forward {mode} {objective}"
        obj = f"objective: {{name: {objective}, min_trades: {MIN_TRADES}}}\n"
        write_config(cfg, "bars.csv", SMALL, obj + extra + f"validation: {{walk_forward: "
                                                        f"{{train_days: {train_n}, test_days: {test_n}}}}}\n")
        out, js = os.path.join(d, f"{mode}_{objective}.h5"), os.path.join(d, f"{mode}_{objective}.json")
        r = cli.run(args.evolve, [cfg, "--walk-forward", "--output", out, "--json", js]
                    + (["--grid"] if mode == "grid" else []))
        if not check(r.returncode == 0, f"{what}: exit {r.returncode}: {r.stderr}"):
            continue
        check("chained out-of-sample" in r.stdout and f"{len(want_spans)} windows" in r.stdout,
              f"{what}: the terminal table: {r.stdout[-400:]}")
        rows, attrs = walk_rows(out)
        with open(js) as f:
            doc = json.load(f)
        w = doc.get("walk_forward", {})
        check(doc.get("mode") == "walk_forward" and w.get("search") == mode and len(w.get("windows", [])) == len(rows),
              f"{what}: JSON mode {doc.get('mode')}, search {w.get('search')}")
        check([(a, b) for *_, a, b, _ in rows] == want_spans, f"{what}: windows {[(a, b) for *_, a, b, _ in rows]}, "
                                                          f"expected {want_spans}")
        chain, chain_trades = [], []
        for i, (g, train_fit, train_trades, test_fit, test_trades, test_ok, tr, te, st) in enumerate(rows):
            where = f"{what} window {i + 1}"
            in_train = {x: (0 if tr[0] <= x <= tr[1] else -1) for x in bar_days}
            in_test = {x: (0 if te[0] <= x <= te[1] else -1) for x in bar_days}

            def value(p, part_of, gen=None):
                return part_value(outcomes[gen or g], days[gen or g], part_of, lambda q: q >= 0, objective,
                                  MIN_TRADES)
            if mode == "grid":
                scored = [(value(None, in_train, k)[0], k) for k in outcomes]
                scored = [(v, k) for v, k in scored if v is not None]
                best = max(v for v, _ in scored)
                first = next(k for v, k in scored if v == best)  # product order = the grid's tie order
                check(g == first and close(train_fit, best),
                      f"{where}: winner {g} ({train_fit}), the test's argmax {first} ({best})")
            else:
                held = [iso(x) for x in bar_days if not tr[0] <= x <= tr[1]]
                sep = os.path.join(d, "sep.yaml")
                write_config(sep, "bars.csv", SMALL, obj + extra + "validation: {holdout: {days: ["
                             + ", ".join(held) + "]}}\n")
                sep_out = os.path.join(d, f"sep{i}.h5")
                r = cli.run(args.evolve, [sep, "--output", sep_out, "--quiet"])
                if check(r.returncode == 0, f"{where}: separate GA run: {r.stderr}"):
                    rows_sep, _, _ = validation_rows(sep_out, "ga")
                    check(rows_sep[0] == (g, train_fit, train_trades),
                          f"{where}: winner {g} ({train_fit}, {train_trades}), separate run {rows_sep[0]}")
            v, n = value(None, in_train)
            check(v is not None and close(train_fit, v) and train_trades == n,
                  f"{where}: train ({train_fit}, {train_trades}), the test ({v}, {n})")
            v, n = value(None, in_test)
            check(test_trades == n and test_ok == (v is not None) and (v is None or close(test_fit, v)),
                  f"{where}: test ({test_fit}, {test_trades}, feasible {test_ok}), the test's ({v}, {n})")
            chain += [q for q, x in zip(outcomes[g], days[g]) if te[0] <= x <= te[1]]
            tested = [t for t in trades[g] if te[0] <= t[2] // 86400 <= te[1]]
            chain_trades += tested
            stats_agree(check, f"{where} test", (w.get("windows") or [{}] * len(rows))[i].get("test_stats"), st,
                        tested)
        want = fitness(chain, objective)
        c = w.get("chained", {})
        check(c.get("trades") == len(chain) == int(attrs["chained_trades"]) and want is not None
              and close(c.get("fitness"), want) and float(attrs["chained_fitness"]) == c.get("fitness"),
              f"{what}: chained {c.get('fitness')} ({c.get('trades')}), the test's {want} ({len(chain)})")
        want = stats_of(chain_trades)
        check(set(c.get("stats", {})) == set(want) and all(tts.close(c["stats"][k], v) for k, v in want.items()),
              f"{what}: chained stats {c.get('stats')}, the test's {want}")
        r = cli.run(args.evolve, ["report", out, "--out", os.path.join(d, f"rep_{mode}_{objective}")])
        check(r.returncode == 0 and f"walk-forward ({mode}): {len(rows)} windows" in r.stdout,
              f"{what}: evolve report: {r.returncode} {r.stdout[-400:]} {r.stderr}")
        print(f"{what}: {len(rows)} windows, each winner and its test score as the test computes them; chained "
              f"{c.get('fitness')} over {len(chain)} trades")


def main():
    with cli.scratch_dir("evolve-strategy-") as work:
        if args.by_day:  # the parts by day, apart so that the two halves run side by side
            validation_by_day(work)
            walk_forward(work)
            sys.exit(check.exit())
        write_bars(random_walk_bars(2500, 11), os.path.join(work, "walk.csv"))
        grid_equals_brute_force(work, "walk.csv")
        ga_finds_grid_best(work, "walk.csv")
        killed_and_resumed(work)
        local_search(work, "walk.csv")
        killed_and_resumed(work, "{population: 32, generations: 10, local_search: {every: 2, members: 2, depth: 2}}",
                           "kill_ls")
        refusals(work, "walk.csv")
    sys.exit(check.exit())


if __name__ == "__main__":
    main()
