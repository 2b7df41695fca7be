#!/usr/bin/env python3
"""evolve CONFIG --walk-forward (docs/config.md validation.walk_forward).

- Also on a lattice with SPEC sec. 4.1's exits (trail, breakeven, max_hold).
- Each window's winner equals a separate run of the same search on that
  window's train days alone (the other days given as validation.holdout.days,
  so the search never sees them): grid (--grid) and GA (same seed), genome,
  fitness and trades.
- Each winner's test fitness and trades equal the SPEC oracle's
  (tests/spec_oracle.py) on the test days alone, and the chained result the
  oracle's sum over every test window's kept trades under its own winner.
- The windows: train_days then test_days, every step_days, while a whole test
  window fits; the JSON and the run file (/walk_forward) agree.
- `evolve report` summarises a walk-forward run file, with the trader
  statistics of each window's winner on its test days and of the chained
  result (also in the run file).
- Each test window's baselines (issue 28; JSON, the run file, Python, the terminal
  table and `evolve report`'s): log
  (every trade of its days as logged), loosest and the config's `baseline:`,
  against the oracle on the test days alone.
- validation.min_trades (issue 24) rules each test window's feasibility and
  the chained result's, by their own trade counts, and changes nothing else;
  0 makes every window, the chained result and the windows' baselines
  feasible under a larger objective.min_trades.
- Bad blocks are refused naming the key, and --walk-forward without the block,
  with a holdout, or on too few days is refused.
"""

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "support"))
sys.path.insert(0, HERE)
import evolve_cli as cli  # noqa: E402

try:
    import numpy as np  # noqa: F401
    import spec_oracle as so
    from small_lattice import (EXIT_PARAMS, FEATURES, PARAMS, config, day_text, index_of, lattice_yaml, run_json,
                               subset)
except ImportError as exc:  # pragma: no cover
    print(f"test_walk_forward: skipped: {exc} (install python3-numpy)")
    sys.exit(77)

check = cli.Checker()

def window_days(all_days, span):
    return [d for d in all_days if span["first"] <= d <= span["last"]]


def walk(evolve, root, data, ds, all_days, name, wf, mode_args, want_windows, ga=None, params=PARAMS):
    """ga: GA settings small enough that the winner depends on the seed;
    params: PARAMS or EXIT_PARAMS (SPEC sec. 4.1's exits)."""
    more = {"ga": ga} if ga else {}
    more["params_yaml"] = lattice_yaml(params)
    cfg = config(root, name, data, validation=f"  walk_forward: {wf}\n", **more)
    doc = run_json(evolve, cfg, ["--walk-forward"] + mode_args, check)
    if doc is None:
        return
    w = doc.get("walk_forward", {})
    wins = w.get("windows", [])
    check(doc["mode"] == "walk_forward" and w.get("search") == ("grid" if mode_args else "ga"),
          f"{name}: mode {doc['mode']}, search {w.get('search')}")
    check([(x["train"]["first"], x["train"]["last"], x["test"]["first"], x["test"]["last"]) for x in wins]
          == want_windows, f"{name}: windows {[(x['train'], x['test']) for x in wins]}, expected {want_windows}")
    chained = 0
    chained_n = 0
    obj = so.Objective()
    for x in wins:
        train = window_days(all_days, x["train"])
        test = window_days(all_days, x["test"])
        where = f"{name} window {x['window']}"
        # the same search on the train days alone
        held = [d for d in all_days if d not in train]
        sep = config(root, f"{name}_sep{x['window']}", data,
                     validation="  holdout: {days: [" + ", ".join(held) + "]}\n", **more)
        one = run_json(evolve, sep, mode_args, check)
        if one is not None:
            top = one["top"][0]
            check(top["values"] == x["values"] and top["fitness"] == x["train_fitness"]
                  and top["trades"] == x["train_trades"],
                  f"{where}: winner {x['values']} {x['train_fitness']} ({x['train_trades']}), separate run "
                  f"{top['values']} {top['fitness']} ({top['trades']})")
        # the winner on the test days, by the oracle
        orc = so.Oracle(subset(ds, set(test)), params, obj)
        idx = index_of(x["values"], params)
        check(x["test_trades"] == int(orc.n[idx]) and abs(x["test_fitness"] - orc.value(idx)) <= 1e-12,
              f"{where}: test {x['test_fitness']} ({x['test_trades']}), oracle {orc.value(idx)} ({orc.n[idx]})")
        check(x["test_stats"]["trades"] == x["test_trades"], f"{where}: test_stats trades")
        chained += int(orc.S[idx])
        chained_n += int(orc.n[idx])
    c = w.get("chained", {})
    check(c.get("trades") == chained_n and abs(c.get("fitness", 0) - chained / 1e6) <= 1e-12
          and c.get("stats", {}).get("trades") == chained_n,
          f"{name}: chained {c.get('fitness')} ({c.get('trades')}), oracle {chained / 1e6} ({chained_n})")
    run = cli.mode_file(os.path.join(root, name + ".h5"), ["--walk-forward"] + mode_args)
    run_file(run, doc)
    r = cli.run(evolve, ["report", run, "--out", os.path.join(root, name + "_rep")])
    check(r.returncode == 0 and f"walk-forward ({w.get('search')}): {len(wins)} windows" in r.stdout,
          f"{name}: report: {r.returncode} {r.stdout[-400:]} {r.stderr}")
    # the report's trader statistics: a row per window (its test trades), then the chained row
    rows = report_stats_rows(r.stdout, "the winners' trader statistics on their test days")
    check(rows == [[i + 1, x["test_trades"]] for i, x in enumerate(wins)],
          f"{name}: report's per-window stats rows {rows}, expected the windows' test trades")
    rows = report_stats_rows(r.stdout, "trader statistics of the chained test windows")
    check(rows == [[1, chained_n]], f"{name}: report's chained stats rows {rows}, expected [[1, {chained_n}]]")


def report_stats_rows(text, title):
    """[rank, trades] of each row of the report's statistics table under `title`."""
    lines = text.splitlines()
    at = next((i for i, line in enumerate(lines) if line.startswith(title)), None)
    if at is None:
        return None
    rows = []
    for line in lines[at + 2:]:
        cells = line.split()
        if len(cells) < 2 or not cells[0].isdigit():
            break
        rows.append([int(cells[0]), int(cells[1])])
    return rows


def run_file(h5, doc):
    if not cli.have_modules("h5py"):
        return
    import h5py
    wins = doc["walk_forward"]["windows"]
    with h5py.File(h5, "r") as f:
        g = f["walk_forward"]
        check(int(g.attrs["windows"]) == len(wins), f"{h5}: windows attr")
        check(list(g["winners/fitness"][:]) == [x["train_fitness"] for x in wins], f"{h5}: winners/fitness")
        check(list(g["test/fitness"][:]) == [x["test_fitness"] for x in wins], f"{h5}: test/fitness")
        check([day_text(d) for d in g["test_first_day"][:]] == [x["test"]["first"] for x in wins],
              f"{h5}: test_first_day")
        check(float(g.attrs["chained_fitness"]) == doc["walk_forward"]["chained"]["fitness"], f"{h5}: chained")
        check(list(g["test/trader_stats/trades"][:]) == [x["test_trades"] for x in wins], f"{h5}: test stats")
        check(list(g["chained_trader_stats/trades"][:]) == [doc["walk_forward"]["chained"]["trades"]],
              f"{h5}: chained_trader_stats")


BASELINE = {"volatility": "0.35", "target": "0.45", "stop": "-0.42"}


PY_WALK = """
import json, sys, evolve
w = evolve.load_run(sys.argv[1]).walk_forward_baselines
print(json.dumps([{"window": int(i[0]), "name": i[1], "fitness": float(r["fitness"]), "trades": int(r["trades"]),
                   "feasible": bool(r["feasible"]), "first": str(r["test_first_day"].date()),
                   "last": str(r["test_last_day"].date())} for i, r in w.iterrows()]))
"""


def python_baselines(evolve, run, wins):
    """Result.walk_forward_baselines: the JSON's windows' baselines and test days, row by row."""
    if not cli.have_modules("pandas"):
        return
    r = subprocess.run([sys.executable, "-c", PY_WALK, run], capture_output=True, text=True,
                       env=cli.python_env(evolve), timeout=120)
    if not check(r.returncode == 0, f"baselines: Python: {r.stderr}"):
        return
    want = [dict(b, window=x["window"], first=x["test"]["first"], last=x["test"]["last"])
            for x in wins for b in x["baselines"]]
    check(json.loads(r.stdout) == want, f"baselines: Python's {r.stdout}, JSON's {want}")


def baselines(evolve, root, data, ds, all_days):
    """Each test window's baselines against the oracle on its test days."""
    loosest = [so.param(p.name, role=p.role, feature=p.feature, direction=p.direction,
                        values=[p.texts[-1] if p.role == "filter" and p.direction == "max" else p.texts[0]])
               for p in PARAMS]
    base = [so.param(p.name, role=p.role, feature=p.feature, direction=p.direction, values=[BASELINE[p.name]])
            for p in PARAMS if p.name in BASELINE]
    extra = "baseline: {" + ", ".join(f"{k}: {v}" for k, v in BASELINE.items()) + "}\n"
    cfg = config(root, "bases", data, validation="  walk_forward: {train_days: 4, test_days: 2}\n", extra=extra)
    doc = run_json(evolve, cfg, ["--walk-forward", "--grid"], check)
    if doc is None:
        return
    obj = so.Objective()
    wins = doc["walk_forward"]["windows"]
    for x in wins:
        where = f"baselines, window {x['window']}"
        sub = subset(ds, set(window_days(all_days, x["test"])))
        got = {b["name"]: b for b in x.get("baselines", [])}
        if not check(list(got) == ["log", "loosest", "baseline"], f"{where}: {list(got)}"):
            continue
        q = [so.quantise(t.pct_change) for t in sub.trades]
        check(got["log"]["trades"] == len(q) and abs(got["log"]["fitness"] - sum(q) / 1e6) <= 1e-12,
              f"{where}: log {got['log']}, direct {sum(q) / 1e6} ({len(q)})")
        for name, params in (("loosest", loosest), ("baseline", base)):
            orc = so.Oracle(sub, params, obj)
            check(got[name]["trades"] == int(orc.n[0]) and abs(got[name]["fitness"] - orc.value(0)) <= 1e-12
                  and got[name]["feasible"], f"{where}: {name} {got[name]}, oracle {orc.value(0)} ({orc.n[0]})")
    # the run file, then the run's table and evolve report's, against the JSON
    if cli.have_modules("h5py"):
        import h5py
        with h5py.File(os.path.join(root, "bases.walk-grid.h5"), "r") as f:
            g = f["walk_forward/baselines"]
            names = [n.decode() if isinstance(n, bytes) else n for n in g["names"][:]]
            stored = [[{"name": names[j], "fitness": float(g["fitness"][w, j]), "trades": int(g["trades"][w, j]),
                        "feasible": bool(g["feasible"][w, j])} for j in range(len(names))] for w in range(len(wins))]
        check(stored == [x["baselines"] for x in wins], f"baselines: the run file's {stored}")
    python_baselines(evolve, os.path.join(root, "bases.walk-grid.h5"), wins)
    want = [[str(x["window"])] + [f"{b[k]:.6f}" if k == "fitness" else str(b[k]) for b in x["baselines"]
                                  for k in ("fitness", "trades")] for x in wins]
    for what, args in (("the run's", [cfg, "--walk-forward", "--grid"]),
                       ("evolve report's", ["report", os.path.join(root, "bases.walk-grid.h5"), "--out",
                                            os.path.join(root, "bases_rep")])):
        r = cli.run(evolve, args)
        table = r.stdout.split("baselines on each test window:\n")[-1].splitlines()
        rows = [line.split() for line in table[1:len(wins) + 1]]
        check(r.returncode == 0 and table[0].split() == ["window", "log", "trades", "loosest", "trades", "baseline",
                                                         "trades"] and rows == want,
              f"baselines: {what} table {table[:len(wins) + 1]}, want {want}")


def min_trades(evolve, root, data, plain):
    """validation.min_trades on the windows of PLAIN (the grid run's JSON):
    each test window feasible iff its trades reach it, the chained result too;
    the windows, winners and values as without the key."""
    wins = plain["walk_forward"]["windows"]
    counts = sorted(x["test_trades"] for x in wins)
    chained_n = plain["walk_forward"]["chained"]["trades"]
    check(counts[0] < counts[-1], f"min_trades: every window holds {counts[0]} trades (the premise)")
    same = ("values", "train_fitness", "train_trades", "test_fitness", "test_trades")
    for n in (counts[-1], chained_n + 1):
        cfg = config(root, f"vmin{n}", data,
                     validation=f"  walk_forward: {{train_days: 4, test_days: 2}}\n  min_trades: {n}\n")
        doc = run_json(evolve, cfg, ["--walk-forward", "--grid"], check)
        if doc is None:
            continue
        got = doc["walk_forward"]["windows"]
        check([[x[k] for k in same] for x in got] == [[x[k] for k in same] for x in wins],
              f"min_trades {n}: the windows changed with validation.min_trades")
        check([x.get("test_feasible", True) for x in got] == [x["test_trades"] >= n for x in got],
              f"min_trades {n}: test feasibility {[(x['test_trades'], x.get('test_feasible', True)) for x in got]}")
        c = doc["walk_forward"]["chained"]
        check(c.get("feasible", True) == (chained_n >= n) and c["trades"] == chained_n,
              f"min_trades {n}: chained {c}, {chained_n} trades")
    # 0 is a count, not "unset": under objective.min_trades m (above some window's log baseline and winner),
    # every test window, the chained result and each window's baselines are feasible
    m = min(b["trades"] for x in wins for b in x["baselines"] if b["name"] == "log") + 1
    cfg = config(root, "vmin0", data, objective=f"  name: total_return\n  min_trades: {m}\n",
                 validation="  walk_forward: {train_days: 4, test_days: 2}\n  min_trades: 0\n")
    doc = run_json(evolve, cfg, ["--walk-forward", "--grid"], check)
    if doc is None:
        return
    got = doc["walk_forward"]["windows"]
    check(any(x["test_trades"] < m for x in got), f"min_trades 0: no test window under {m} trades (the premise)")
    check(all(x.get("test_feasible", True) for x in got),
          f"min_trades 0: test feasibility {[(x['test_trades'], x.get('test_feasible', True)) for x in got]}")
    check(doc["walk_forward"]["chained"].get("feasible", True), f"min_trades 0: chained {doc['walk_forward']}")
    bases = [(x["window"], b["name"], b["trades"], b.get("feasible", True)) for x in got for b in x["baselines"]]
    check(any(b[2] < m for b in bases), f"min_trades 0: no window baseline under {m} trades (the premise)")
    check(bases and all(b[3] for b in bases), f"min_trades 0: window baselines {bases}")


def bad(evolve, root, data):
    cases = [
        ("{train_days: 4}", "expected train_days and test_days"),
        ("{train_days: 4, test_days: 3, step_days: 2}", "step_days"),
        ("{train_days: 4, test_days: 2, every: 2}", "every"),
        ("{train_days: 11, test_days: 2}", "train_days + test_days = 13 trading days, the data has 12"),
    ]
    for i, (wf, text) in enumerate(cases):
        cfg = config(root, f"bad{i}", data, validation=f"  walk_forward: {wf}\n")
        r = cli.run(evolve, [cfg, "--walk-forward", "--grid", "--quiet"])
        check(r.returncode != 0 and text in r.stderr and "walk_forward" in r.stderr,
              f"bad {wf}: exit {r.returncode}, {r.stderr!r}")
        check(not os.path.exists(os.path.join(root, f"bad{i}.h5")), f"bad {wf}: a run file was left")
    both = "  holdout: {last: 2}\n  walk_forward: {train_days: 4, test_days: 2}\n"
    cfg = config(root, "mixed", data, validation=both)
    r = cli.run(evolve, [cfg, "--walk-forward", "--grid", "--quiet"])
    check(r.returncode == 1 and "drop validation.holdout" in r.stderr, f"walk-forward + holdout: {r.stderr!r}")
    cfg = config(root, "none", data, validation="  folds: 0\n")
    r = cli.run(evolve, [cfg, "--walk-forward", "--quiet"])
    check(r.returncode != 0 and "needs validation.walk_forward" in r.stderr, f"no block: {r.stderr!r}")
    r = cli.run(evolve, [cfg, "--walk-forward", "--validate"])
    check(r.returncode == 2, f"--walk-forward --validate: exit {r.returncode}")


def main():
    a = cli.parse_args()
    with cli.scratch_dir("evolve-walk-forward-") as root:
        data = os.path.join(root, "data")
        r = cli.gen_data(a.evolve, data, ["--days", "12", "--tickers", "SOXL", "--trades", "480"])
        if not check(r.returncode == 0, f"gen-data: {r.stderr}"):
            return check.exit()
        ds = so.load_dataset(os.path.join(data, "market"), os.path.join(data, "all_trade_logs.csv"), ["SOXL"],
                             FEATURES)
        days = sorted({day_text(t.entry_ts // 86400) for t in ds.trades})
        # train 4, test 2, step 2 (the default): 4 windows over 12 days
        want = [(days[b], days[b + 3], days[b + 4], days[b + 5]) for b in (0, 2, 4, 6)]
        walk(a.evolve, root, data, ds, days, "grid", "{train_days: 4, test_days: 2}", ["--grid"], want)
        baselines(a.evolve, root, data, ds, days)
        min_trades(a.evolve, root, data, json.load(open(os.path.join(root, "grid.json"))))
        walk(a.evolve, root, data, ds, days, "ga", "{train_days: 4, test_days: 2}", [], want,
             ga="population: 4\n  generations: 2\n  local_search: {every: 0}")
        # SPEC sec. 4.1's exits: grid, and a GA with local search (its sweeps over the exit genes)
        walk(a.evolve, root, data, ds, days, "exits", "{train_days: 4, test_days: 2}", ["--grid"], want,
             params=EXIT_PARAMS)
        walk(a.evolve, root, data, ds, days, "exits_ga", "{train_days: 4, test_days: 2}", [], want,
             ga="population: 8\n  generations: 4\n  local_search: {every: 2, members: 2, depth: 1}",
             params=EXIT_PARAMS)
        # step 3 > test 2: a day between test windows is in no test window
        want = [(days[b], days[b + 2], days[b + 3], days[b + 4]) for b in (0, 3, 6)]
        walk(a.evolve, root, data, ds, days, "gaps", "{train_days: 3, test_days: 2, step_days: 3}", ["--grid"],
             want)
        bad(a.evolve, root, data)
    return check.exit()


if __name__ == "__main__":
    sys.exit(main())
