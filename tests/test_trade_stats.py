#!/usr/bin/env python3
"""Trader statistics of every reported genome (docs/config.md "Trader
statistics") against an independent computation from the SPEC oracle
(tests/spec_oracle.py): the kept trades of each reported lattice point, each
walked through SPEC sec. 4's loop (with sec. 4.1's trail, breakeven and
max_hold on the lattices that have them) for its exit reason and exit second, then
win rate, profit factor, expectancy, max drawdown, Sharpe, Sortino, average
hold and exits by reason computed here from their quantised outcomes.

Checked in the --json summary of grid and GA runs (with and without a
validation: block: then on the in-sample days, and "out_of_sample_stats" on
the holdout days), in the run file's GROUP/trader_stats, and in `evolve
report`'s table.

`evolve trades RUN.h5` lists the same trades (every CSV row against the
SPEC loop, in-sample and holdout; on the real prices of SHARED/real-hf,
when present, genomes exiting by every reason: target, stop, logged,
breakeven, trail, time), and `evolve report`'s per-day result of
the top-1 (behind its equity.svg / daily.svg) equals their sums per day.
"""

import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "support"))
sys.path.insert(0, HERE)
import evolve_cli as cli  # noqa: E402

try:
    import numpy as np
    import spec_oracle as so
    from small_lattice import (EXIT_PARAMS, EXIT_YAML, FEATURES, PARAM_YAML, PARAMS, config, day_text, index_of,
                               lattice_yaml, run_json, subset)
except ImportError as exc:  # pragma: no cover
    print(f"test_trade_stats: skipped: {exc} (install python3-numpy)")
    sys.exit(77)

check = cli.Checker()
F32 = np.float32

def spec_exits(orc, idx):
    """The trades lattice point idx keeps, in equity order (entry time, then
    dataset order): (trade, q, reason, exit second), each walked through the
    SPEC sec. 4 loop with sec. 4.1's exits (so.race_exit) where the lattice
    has them."""
    ds, obj = orc.ds, orc.obj
    g = so.genes_of(idx, orc.dims)
    exits = {r: orc.params[i].values[g[i]] for r, i in orc.ei.items() if i is not None}
    mask, _ = orc.kept([idx])
    out = []
    for j in orc.curve.tolist():
        if not mask[0, j]:
            continue
        tr = ds.trades[j]
        ts = ds.ts[tr.ticker_id][tr.start:tr.end]
        reason, k, o = so.race_exit(ds.path(tr), ts, tr.entry_price, tr.entry_ts, exits, tr.pct_change, obj.fill)
        exit_ts = tr.exit_ts if k is None else int(ts[k])
        out.append((tr, so.quantise(o - obj.cost), reason, exit_ts))
    return out


def stats_want(trades, more_exits=False):
    """docs/config.md's formulas, from the exact integer outcomes; more_exits:
    the lattice has a SPEC sec. 4.1 role (the counts of its exits are listed)."""
    q = [x[1] for x in trades]
    n = len(q)
    o = [v / 1e6 for v in q]
    pos, neg = sum(v for v in q if v > 0), sum(v for v in q if v < 0)
    cum, peak, dd = 0, 0, 0
    for v in q:
        cum += v
        peak = max(peak, cum)
        dd = max(dd, peak - cum)
    mean = sum(q) / n / 1e6 if n else math.nan
    sd = math.sqrt(sum((v - mean) ** 2 for v in o) / (n - 1)) if n >= 2 else 0.0
    down = math.sqrt(sum(min(v, 0.0) ** 2 for v in o) / n) if n else 0.0
    more = {f"exits_{r}": sum(x[2] == r for x in trades) for r in ("breakeven", "trail", "time")}
    return (more if more_exits else {}) | {
        "trades": n,
        "wins": sum(v > 0 for v in q),
        "losses": sum(v < 0 for v in q),
        "exits_target": sum(x[2] == "target" for x in trades),
        "exits_stop": sum(x[2] == "stop" for x in trades),
        "exits_logged": sum(x[2] == "logged" for x in trades),
        "total_return": sum(q) / 1e6,
        "win_rate": sum(v > 0 for v in q) / n if n else None,
        "profit_factor": pos / -neg if neg else (math.inf if pos else None),
        "expectancy": mean if n else None,
        "max_drawdown": dd / 1e6,
        "sharpe": (mean / sd if sd > 0 else 0.0) if n else None,
        "sortino": mean / down if down > 0 else (math.inf if n and mean > 0 else None),
        "avg_hold_s": sum(x[3] - x[0].entry_ts for x in trades) / n if n else None,
        "best": max(o) if n else None,
        "worst": min(o) if n else None,
    }


def jval(v):
    if isinstance(v, str):
        return {"inf": math.inf, "-inf": -math.inf}[v]
    return v


def close(got, want):
    if want is None or got is None:
        return got is None and want is None
    got = jval(got)
    if math.isinf(want) or math.isinf(got):
        return got == want
    return abs(got - want) <= 1e-9 * max(1.0, abs(want))


def check_stats(where, got, want):
    if not check(got is not None, f"{where}: no stats"):
        return
    check(set(got) == set(want), f"{where}: stats keys {sorted(got)}")
    for k, w in want.items():
        check(close(got.get(k), w), f"{where}: {k} {got.get(k)!r}, computed {w!r}")


def runs(evolve, root, data, ds):
    exits = (EXIT_PARAMS, EXIT_YAML)
    cases = [
        ("level", "  name: total_return\n", "", None),
        ("price_cost", "  name: sharpe\n  fill: price\n  cost_pct: 0.02\n  min_trades: 5\n", "", None),
        ("holdout", "  name: total_return\n", "  holdout: {share: 0.3}\n", None),
        # SPEC sec. 4.1's exits: their counts join the statistics
        ("exits", "  name: total_return\n", "", exits),
        ("exits_price_holdout", "  name: sharpe\n  fill: price\n  cost_pct: 0.02\n  min_trades: 5\n",
         "  holdout: {share: 0.3}\n", exits),
    ]
    seen = dict.fromkeys(("breakeven", "trail", "time"), 0)
    for name, objective, validation, lattice in cases:
        params, yaml = lattice or (PARAMS, PARAM_YAML)
        cfg = config(root, name, data, objective, validation, params_yaml=yaml)
        for mode, args in (("grid", ["--grid"]), ("ga", [])):
            doc = run_json(evolve, cfg, args, check)
            if doc is None:
                continue
            sub = subset(ds, set(doc["validation"]["in_sample_days"])) if validation else ds
            obj = so.Objective(name="sharpe" if "sharpe" in objective else "total_return",
                               fill="price" if "price" in objective else "level",
                               cost_pct="0.02" if "cost" in objective else "0")
            orc = so.Oracle(sub, params, obj)
            held = subset(ds, set(doc["validation"]["holdout_days"])) if validation else None
            orc_out = so.Oracle(held, params, obj) if held else None
            for row in doc["top"]:
                idx = index_of(row["values"], params)
                want = stats_want(spec_exits(orc, idx), lattice is not None)
                check_stats(f"{name} {mode} rank {row['rank']}", row.get("stats"), want)
                for r in seen:
                    seen[r] += want.get(f"exits_{r}", 0)
                check(row["stats"]["trades"] == row["trades"], f"{name} {mode}: stats trades != trades")
                if orc_out:
                    check_stats(f"{name} {mode} rank {row['rank']} holdout", row.get("out_of_sample_stats"),
                                stats_want(spec_exits(orc_out, idx), lattice is not None))
                else:
                    check("out_of_sample_stats" not in row, f"{name} {mode}: out_of_sample_stats without a holdout")
            check_run_file(cli.mode_file(os.path.join(root, name + ".h5"), args), mode, doc)
        if validation:
            r = cli.run(evolve, ["report", os.path.join(root, name + ".h5"), "--out", os.path.join(root, "rep")])
            check(r.returncode == 0 and "trader statistics on the holdout days" in r.stdout,
                  f"report: no statistics tables: {r.stdout}")
            if lattice:
                check("  breakeven  trail  time" in r.stdout, f"report {name}: no exit columns: {r.stdout}")
    # the exits cases would prove nothing about a reason no reported genome ever took
    check(all(seen.values()), f"exits counted over the reported genomes: {seen}: each should occur")


def check_run_file(h5, mode, doc):
    if not cli.have_modules("h5py"):
        return
    import h5py
    group = "grid" if mode == "grid" else "ga"
    with h5py.File(h5, "r") as f:
        for obj, key in (("trader_stats", "stats"), ("validation/out_of_sample_trader_stats", "out_of_sample_stats")):
            if key not in doc["top"][0]:
                check(f"{group}/{obj}" not in f, f"{h5}: {group}/{obj} without JSON {key}")
                continue
            g = f[f"{group}/{obj}"]
            for i, row in enumerate(doc["top"]):
                for k, v in row[key].items():
                    want = math.nan if v is None else jval(v)
                    got = float(g[k][i])
                    check(got == want or (math.isnan(got) and math.isnan(want)) or close(got, want),
                          f"{h5} {group}/{obj}/{k}[{i}] {got!r}, JSON {v!r}")


def check_trades_csv(evolve, root, h5, lname, row, want, holdout=()):
    """evolve trades H5 --list LNAME --rank N --csv against the oracle's walk
    of the same genome (want: spec_exits); the CSV's rows."""
    import csv
    out = os.path.join(root, f"t_{os.path.basename(h5)}_{lname}_{row['rank']}.csv")
    r = cli.run(evolve, ["trades", h5, "--rank", str(row["rank"]), "--list", lname, "--csv", out])
    if not check(r.returncode == 0, f"trades {h5} {lname} {row['rank']}: {r.stderr}"):
        return []
    with open(out) as f:
        got = list(csv.DictReader(f))
    where = f"trades {os.path.basename(h5)} --list {lname} --rank {row['rank']}"
    check(len(got) == len(want), f"{where}: {len(got)} rows, oracle {len(want)}")
    cum = 0
    for n, (g, (tr, q, reason, exit_ts)) in enumerate(zip(got, want), 1):
        cum += q
        part = "holdout" if day_text(tr.entry_ts // 86400) in holdout else "in_sample"
        exp = {"n": str(n), "ticker": tr.ticker, "trade_id": str(tr.trade_id),
               "entry_time": stamp(tr.entry_ts), "exit_time": stamp(exit_ts), "exit_reason": reason,
               "part": part}
        bad = {k: (g.get(k), v) for k, v in exp.items() if g.get(k) != v}
        for k, v in (("outcome_pct", q / 1e6), ("cumulative_pct", cum / 1e6)):
            if float(g[k]) != v or not cli.is_shortest(g[k]):
                bad[k] = (g[k], v)
        if float(g["entry_price"]) != tr.entry_price:
            bad["entry_price"] = (g["entry_price"], tr.entry_price)
        if not check(not bad, f"{where}: row {n}: (got, oracle) {bad}"):
            break
    return got


def trades_cmd(evolve, root, data, ds):
    """evolve trades RUN.h5 --rank N --csv: every row against the SPEC loop on
    the whole dataset (in-sample and holdout), both lists of a --validate run."""
    cfg = config(root, "explain", data, "  name: total_return\n", "  holdout: {share: 0.3}\n")
    doc = run_json(evolve, cfg, ["--validate"], check)
    if doc is None:
        return
    h5 = os.path.join(root, "explain.validate.h5")
    holdout = set(doc["validation"]["holdout_days"])
    orc = so.Oracle(ds, PARAMS, so.Objective())
    lists = {"grid": doc["top"], "ga": doc["validate"]["ga_top"]}
    for lname, rows in lists.items():
        for row in rows[:3]:
            got = check_trades_csv(evolve, root, h5, lname, row, spec_exits(orc, index_of(row["values"])), holdout)
            ins = sum(1 for g in got if g["part"] == "in_sample")
            check(ins == row["trades"], f"trades --list {lname} --rank {row['rank']}: {ins} in-sample rows, "
                  f"the run's trades {row['trades']}")
    r = cli.run(evolve, ["trades", h5])
    check(r.returncode == 0 and "rank 1 of the grid list" in r.stdout and "holdout" in r.stdout,
          f"trades on the terminal: {r.returncode} {r.stdout[:300]} {r.stderr}")
    bad_cases = [
        (["--rank", "99"], 2, "holds 6 genome(s)"),
        (["--dataset", os.path.join(root, "missing.h5")], 1, "missing.h5"),
        (["--dataset", os.path.join(root, "other.h5")], 1, "content hash"),
    ]
    other = cli.gen_data(evolve, os.path.join(root, "other"), ["--days", "3", "--tickers", "SOXL", "--trades", "60"])
    check(other.returncode == 0, f"gen-data: {other.stderr}")
    r = cli.run(evolve, ["ingest", "--market", os.path.join(root, "other", "market"), "--trades",
                         os.path.join(root, "other", "all_trade_logs.csv"), "--tickers", "SOXL",
                         "--out", os.path.join(root, "other.h5")])
    check(r.returncode == 0, f"ingest: {r.stderr}")
    for args, code, text in bad_cases:
        r = cli.run(evolve, ["trades", h5] + args)
        check(r.returncode == code and text in r.stderr, f"trades {args}: exit {r.returncode}, {r.stderr!r}")


def report_equity(evolve, root, ds):
    """evolve report's per-day table of the top-1 equals the oracle's kept
    trades summed per entry day (holdout days marked), and it draws
    equity.svg and daily.svg with the holdout shaded; without the dataset the
    report still succeeds, with a note and no equity chart."""
    import shutil
    h5 = os.path.join(root, "explain.validate.h5")
    with open(os.path.join(root, "explain.json")) as f:
        doc = json.load(f)
    holdout = set(doc["validation"]["holdout_days"])
    orc = so.Oracle(ds, PARAMS, so.Objective())
    want, cum = [], 0
    for tr, q, _, _ in spec_exits(orc, index_of(doc["top"][0]["values"])):
        day = day_text(tr.entry_ts // 86400)
        if not want or want[-1][0] != day:
            want.append([day, 0, 0, 0, "holdout" if day in holdout else "in_sample"])
        cum += q
        want[-1][1] += 1
        want[-1][2] += q
        want[-1][3] = cum
    want = [[d, str(n), f"{s_ / 1e6:.6f}", f"{c / 1e6:.6f}", p] for d, n, s_, c, p in want]
    out = os.path.join(root, "rep_explain")
    r = cli.run(evolve, ["report", h5, "--out", out])
    if not check(r.returncode == 0, f"report: {r.stderr}"):
        return
    lines = r.stdout.split("\n")
    at = next((i for i, l in enumerate(lines) if l.startswith("top-1 (rank 1 of the grid list) per trading day")), None)
    if not check(at is not None, f"report: no per-day table: {r.stdout}"):
        return
    got = [l.split() for l in lines[at + 2:at + 2 + len(want)]]
    check(got == want, f"report per day: {got} != oracle {want}")
    for name in ("equity.svg", "daily.svg"):
        path = os.path.join(out, name)
        if check(os.path.exists(path), f"report: no {name}"):
            with open(path) as f:
                svg = f.read()
            check("#fde3c8" in svg and "holdout" in svg, f"{name}: the holdout is not shaded")
    moved = os.path.join(root, "moved.h5")
    shutil.move(os.path.join(root, "ds.h5"), moved)
    try:
        out2 = os.path.join(root, "rep_nodata")
        r = cli.run(evolve, ["report", h5, "--out", out2])
        drawn = os.path.exists(os.path.join(out2, "equity.svg"))
        check(r.returncode == 0 and "no equity curve" in r.stderr and not drawn,
              f"report without the dataset: {r.returncode} {r.stderr}")
        r = cli.run(evolve, ["report", h5, "--out", out2, "--dataset", moved])
        check(r.returncode == 0 and os.path.exists(os.path.join(out2, "equity.svg")),
              f"report --dataset: {r.returncode} {r.stderr}")
        r = cli.run(evolve, ["report", h5, "--out", out2, "--dataset", os.path.join(root, "other.h5")])
        check(r.returncode == 1 and "content hash" in r.stderr, f"report --dataset other: {r.returncode} {r.stderr}")
    finally:
        shutil.move(moved, os.path.join(root, "ds.h5"))


def stamp(ts):
    import datetime
    return (datetime.datetime(1970, 1, 1) + datetime.timedelta(seconds=int(ts))).strftime("%Y-%m-%d %H:%M:%S")


# the real prices' lattice: exits sized to their 5-60 minute holds (972 points)
REAL_PARAMS = [
    so.param("ratio", feature="Entry Volatility Ratio", values=["0", "0.9", "1"]),
    so.param("target", role="target", values=["0.1", "0.2", "0.3"]),
    so.param("stop", role="stop", values=["-0.3", "-0.2", "-0.1"]),
    so.param("trail", role="trail", values=["0.03", "0.08", "0.15", "0.5"]),
    so.param("breakeven", role="breakeven", values=["0.02", "0.05", "0.1"]),
    so.param("max_hold", role="max_hold", values=["300", "900", "1800"]),
]


def trades_real(evolve, root, shared):
    """The exit reasons on real prices (SHARED/real-hf: TAQ seconds with gaps):
    the whole ranking of REAL_PARAMS is reported; for rank 1 and, per exit
    reason, the best-ranked genome that the oracle says takes it, `evolve
    trades` must list the oracle's walk (reason, exit second, outcome) and
    the JSON's statistics its counts; at fill: level and at fill: price with
    a cost."""
    real = os.path.join(shared or "", "real-hf")
    if not shared or not os.path.isdir(os.path.join(real, "market")):
        print(f"real-hf: {real} is absent: the real-price exits are skipped", flush=True)
        return
    tickers = ["ETF", "AAA", "BBB", "XXX"]
    ds = so.load_dataset(os.path.join(real, "market"), os.path.join(real, "all_trade_logs.csv"), tickers, FEATURES)
    size = math.prod(len(p) for p in REAL_PARAMS)
    for name, objective, obj in (
            ("real_level", "  name: total_return\n", so.Objective()),
            ("real_price", "  name: total_return\n  fill: price\n  cost_pct: 0.02\n",
             so.Objective(fill="price", cost_pct="0.02"))):
        cfg = config(root, name, real, objective, params_yaml=lattice_yaml(REAL_PARAMS), tickers=", ".join(tickers),
                     cache="real.h5")
        doc = run_json(evolve, cfg, ["--grid", "--top", str(size)], check)
        if doc is None:
            continue
        check(len(doc["top"]) == size, f"{name}: {len(doc['top'])} genomes reported, the lattice has {size}")
        orc = so.Oracle(ds, REAL_PARAMS, obj)
        walks = [spec_exits(orc, index_of(row["values"], REAL_PARAMS)) for row in doc["top"]]
        picked = {0}
        for reason in ("target", "stop", "logged", "breakeven", "trail", "time"):
            at = next((i for i, w in enumerate(walks) if any(x[2] == reason for x in w)), None)
            if check(at is not None, f"{name}: no genome of the whole lattice exits by {reason}"):
                picked.add(at)
        for i in sorted(picked):
            row = doc["top"][i]
            check_trades_csv(evolve, root, os.path.join(root, name + ".grid.h5"), "grid", row, walks[i])
            check_stats(f"{name} rank {row['rank']}", row.get("stats"), stats_want(walks[i], True))
        print(f"{name}: trades of ranks {[i + 1 for i in sorted(picked)]} checked on real prices", flush=True)


def main():
    a = cli.parse_args()
    with cli.scratch_dir("evolve-trade-stats-") as root:
        data = os.path.join(root, "data")
        r = cli.gen_data(a.evolve, data, ["--days", "8", "--tickers", "SOXL", "--trades", "300"])
        if not check(r.returncode == 0, f"gen-data: {r.stderr}"):
            return check.exit()
        ds = so.load_dataset(os.path.join(data, "market"), os.path.join(data, "all_trade_logs.csv"), ["SOXL"],
                             FEATURES)
        runs(a.evolve, root, data, ds)
        trades_cmd(a.evolve, root, data, ds)
        report_equity(a.evolve, root, ds)
        trades_real(a.evolve, root, a.shared_data)
    return check.exit()


if __name__ == "__main__":
    sys.exit(main())
