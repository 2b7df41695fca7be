#!/usr/bin/env python3
"""Trader statistics of every reported genome (docs/config.md "Trader
statistics") against an independent computation from the SPEC oracle
(tests/spec_oracle.py): the kept trades of each reported lattice point, each
walked through SPEC sec. 4's loop for its exit reason and exit second, then
win rate, profit factor, expectancy, max drawdown, Sharpe, Sortino, average
hold and exits by reason computed here from their quantised outcomes.

Checked in the --json summary of grid and GA runs (with and without a
validation: block: then on the in-sample days, and "out_of_sample_stats" on
the holdout days), in the run file's GROUP/trader_stats, and in `evolve
report`'s table.

`evolve trades RUN.h5` lists the same trades (every CSV row against the
SPEC loop, in-sample and holdout), and `evolve report`'s per-day result of
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
    from small_lattice import FEATURES, PARAMS, config, day_text, index_of, run_json, subset
except ImportError as exc:  # pragma: no cover
    print(f"test_trade_stats: skipped: {exc} (install python3-numpy)")
    sys.exit(77)

check = cli.Checker()
F32 = np.float32

def spec_exits(orc, idx):
    """The trades lattice point idx keeps, in equity order (entry time, then
    dataset order): (trade, q, reason, exit second), each walked through the
    SPEC sec. 4 loop."""
    ds, obj = orc.ds, orc.obj
    g = so.genes_of(idx, orc.dims)
    t = PARAMS[orc.ti].values[g[orc.ti]]
    s = PARAMS[orc.si].values[g[orc.si]]
    mask, _, _ = orc.kept_mask([idx])
    out = []
    for j in orc.curve.tolist():
        if not mask[0, j]:
            continue
        tr = ds.trades[j]
        e = tr.entry_price
        tl, sl = F32(e * (1 + t / 100)), F32(e * (1 + s / 100))
        path = ds.path(tr)
        reason, o, exit_ts = "logged", tr.pct_change, tr.exit_ts
        for k, p in enumerate(path):
            if p >= tl or p <= sl:
                reason = "target" if p >= tl else "stop"
                hit = t if reason == "target" else s
                o = hit if obj.fill == "level" else (float(p) / e - 1) * 100
                exit_ts = int(ds.ts[tr.ticker_id][tr.start + k])
                break
        out.append((tr, so.quantise(o - obj.cost), reason, exit_ts))
    return out


def stats_want(trades):
    """docs/config.md's formulas, from the exact integer outcomes."""
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
    return {
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
    cases = [
        ("level", "  name: total_return\n", ""),
        ("price_cost", "  name: sharpe\n  fill: price\n  cost_pct: 0.02\n  min_trades: 5\n", ""),
        ("holdout", "  name: total_return\n", "  holdout: {share: 0.3}\n"),
    ]
    for name, objective, validation in cases:
        cfg = config(root, name, data, objective, validation)
        for mode, args in (("grid", ["--grid"]), ("ga", [])):
            doc = run_json(evolve, cfg, args, check)
            if doc is None:
                continue
            sub = subset(ds, set(doc["validation"]["in_sample_days"])) if validation else ds
            obj = so.Objective(name="sharpe" if "sharpe" in objective else "total_return",
                               fill="price" if "price" in objective else "level",
                               cost_pct="0.02" if "cost" in objective else "0")
            orc = so.Oracle(sub, PARAMS, obj)
            held = subset(ds, set(doc["validation"]["holdout_days"])) if validation else None
            orc_out = so.Oracle(held, PARAMS, obj) if held else None
            for row in doc["top"]:
                idx = index_of(row["values"])
                check_stats(f"{name} {mode} rank {row['rank']}", row.get("stats"), stats_want(spec_exits(orc, idx)))
                check(row["stats"]["trades"] == row["trades"], f"{name} {mode}: stats trades != trades")
                if orc_out:
                    check_stats(f"{name} {mode} rank {row['rank']} holdout", row.get("out_of_sample_stats"),
                                stats_want(spec_exits(orc_out, idx)))
                else:
                    check("out_of_sample_stats" not in row, f"{name} {mode}: out_of_sample_stats without a holdout")
            check_run_file(os.path.join(root, name + ".h5"), mode, doc)
        if name == "holdout":
            r = cli.run(evolve, ["report", os.path.join(root, name + ".h5"), "--out", os.path.join(root, "rep")])
            check(r.returncode == 0 and "trader statistics on the holdout days" in r.stdout,
                  f"report: no statistics tables: {r.stdout}")


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


def trades_cmd(evolve, root, data, ds):
    """evolve trades RUN.h5 --rank N --csv: every row against the SPEC loop on
    the whole dataset (in-sample and holdout), both lists of a --validate run."""
    import csv
    cfg = config(root, "explain", data, "  name: total_return\n", "  holdout: {share: 0.3}\n")
    doc = run_json(evolve, cfg, ["--validate"], check)
    if doc is None:
        return
    h5 = os.path.join(root, "explain.h5")
    holdout = set(doc["validation"]["holdout_days"])
    orc = so.Oracle(ds, PARAMS, so.Objective())
    lists = {"grid": doc["top"], "ga": doc["validate"]["ga_top"]}
    for lname, rows in lists.items():
        for row in rows[:3]:
            out = os.path.join(root, f"t_{lname}_{row['rank']}.csv")
            r = cli.run(evolve, ["trades", h5, "--rank", str(row["rank"]), "--list", lname, "--csv", out])
            if not check(r.returncode == 0, f"trades {lname} {row['rank']}: {r.stderr}"):
                continue
            with open(out) as f:
                got = list(csv.DictReader(f))
            want = spec_exits(orc, index_of(row["values"]))
            where = f"trades --list {lname} --rank {row['rank']}"
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
            ins = sum(1 for g in got if g["part"] == "in_sample")
            check(ins == row["trades"], f"{where}: {ins} in-sample rows, the run's trades {row['trades']}")
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
    h5 = os.path.join(root, "explain.h5")
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
    return check.exit()


if __name__ == "__main__":
    sys.exit(main())
