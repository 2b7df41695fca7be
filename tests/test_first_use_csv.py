#!/usr/bin/env python3
"""What a trader met on first use (issue 24), the CSVs:
- every number in a CSV evolve writes is the shortest text that reads back
  as the same double (167.43, not 167.43000000000001): `evolve bars`,
  strategy `evolve trades` and its --metrics, trade-log `evolve trades --csv`;
- `evolve bars` writes the symbol column, so its own output is read back by
  `evolve bars --bars` and by a config's `bars: {csv, symbol}`, with or
  without the symbol, to the same bytes;
- strategy trades CSVs carry `outcome_pct`: pnl / entry * 100 less
  objective.cost_pct, quantised to micro-percent (docs/signals.md "Search"),
  so the run's fitness (total_return) is their sum, for each of a grid's top
  rows, and their count its trades.
Standard library only."""
import csv
import json
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import evolve_cli as cli  # noqa: E402

check = cli.Checker()

COST_PCT = 0.01
CONFIG = f"""strategy:
  type: seller_exhaustion
  bars: {{csv: b.csv, symbol: SOXL}}
  costs: {{fee_bp: 5, slippage_bp: 5}}
objective: {{name: total_return, min_trades: 1, cost_pct: {COST_PCT}}}
parameters:
  - {{name: ema_fast, values: [4, 8]}}
  - {{name: ema_slow, values: [16, 24]}}
  - {{name: z_window, values: [20, 40]}}
  - {{name: atr_window, values: [8]}}
  - {{name: vol_z, values: [0.5, 1.0]}}
  - {{name: tr_z, values: [0.0, 0.5]}}
  - {{name: cloc_min, values: [0.3]}}
"""


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def check_shortest(path, columns):
    """Every value of `columns` in the CSV at path is its number's shortest text."""
    bad = [(c, r[c]) for r in rows(path) for c in columns if not cli.is_shortest(r[c])]
    check(not bad, f"{path}: numbers not in their shortest text: {bad[:5]}")


def quantised(pnl, entry, cost):
    """docs/signals.md: o = pnl / entry * 100, less cost_pct, in micro-percent
    (llround: halves away from zero)."""
    x = (pnl / entry * 100.0 - cost) * 1e6
    return int(math.copysign(math.floor(abs(x) + 0.5), x))


def check_outcomes(path, cost):
    """outcome_pct of every row of a strategy trades CSV; returns their q."""
    qs = []
    for n, r in enumerate(rows(path)):
        q = quantised(float(r["pnl"]), float(r["entry"]), cost)
        if not check(float(r["outcome_pct"]) == q / 1e6, f"{path}: row {n}: outcome_pct {r['outcome_pct']}, "
                     f"expected {q / 1e6} from pnl {r['pnl']} and entry {r['entry']}"):
            break
        qs.append(q)
    return qs


def main():
    a = cli.parse_args()
    E = os.path.abspath(a.evolve)
    with cli.scratch_dir("evolve_firstcsv_") as root:
        cli.gen_data(E, os.path.join(root, "data"), ["--days", "2", "--tickers", "SOXL", "--trades", "60"])
        market = os.path.join(root, "data", "market")
        b = os.path.join(root, "b.csv")
        r = cli.run(E, ["bars", "--market", market, "--ticker", "SOXL", "--timeframe", "1m", "--csv", b])
        check(r.returncode == 0, f"bars: {r.stderr}")
        with open(b) as f:
            head = f.readline()
        check(head == "timestamp,open,high,low,close,volume,symbol\n", f"bars header: {head!r}")
        got = rows(b)
        check(got and all(g["symbol"] == "SOXL" for g in got), "every bar names its symbol SOXL")
        check_shortest(b, ["open", "high", "low", "close", "volume"])
        check(any(len(g["close"]) < len("%.17g" % float(g["close"])) for g in got),
              "some price is shorter than its 17-digit text (the data tests the rule)")
        # its own output read back, with and without --symbol: the same bytes
        for extra in ([], ["--symbol", "SOXL"]):
            b2 = os.path.join(root, "b2.csv")
            r = cli.run(E, ["bars", "--bars", b, "--csv", b2] + extra)
            check(r.returncode == 0 and open(b2).read() == open(b).read(), f"bars read back {extra}: {r.stderr}")
            os.remove(b2)
        # a strategy config on it (bars: {csv, symbol}); a grid and its top rows' trades
        cfg = os.path.join(root, "s.yaml")
        with open(cfg, "w") as f:
            f.write(CONFIG)
        run = os.path.join(root, "r.h5")
        js = os.path.join(root, "r.json")
        r = cli.run(E, [cfg, "--grid", "--quiet", "--output", run, "--json", js])
        check(r.returncode == 0, f"grid: {r.stderr}")
        top = json.load(open(js))["top"] if r.returncode == 0 else []
        check(len(top) >= 3, f"the grid lists {len(top)} genomes")
        for row in top[:3]:
            t = os.path.join(root, f"t{row['rank']}.csv")
            r = cli.run(E, ["trades", cfg, "--run", run, "--rank", str(row["rank"]), "--csv", t])
            if not check(r.returncode == 0, f"trades rank {row['rank']}: {r.stderr}"):
                continue
            check_shortest(t, ["entry", "exit", "stop", "tp", "risk", "pnl", "R", "outcome_pct"])
            qs = check_outcomes(t, COST_PCT)
            check(len(qs) == row["trades"] and sum(qs) == round(row["fitness"] * 1e6),
                  f"rank {row['rank']}: sum of outcome_pct {sum(qs) / 1e6} over {len(qs)} trades, "
                  f"the run's total_return {row['fitness']} over {row['trades']}")
        # atc and the metrics file, no config: no cost_pct
        t = os.path.join(root, "atc.csv")
        r = cli.run(E, ["trades", "--bars", b, "--strategy", "atc", "--csv", t])
        check(r.returncode == 0 and rows(t), f"atc trades: {r.stderr}")
        check_shortest(t, ["entry", "exit", "pnl", "outcome_pct"])
        check_outcomes(t, 0.0)
        t, m = os.path.join(root, "se.csv"), os.path.join(root, "se_metrics.csv")
        r = cli.run(E, ["trades", "--bars", b, "--set", "ema_fast=4", "--set", "ema_slow=16", "--set", "z_window=20",
                        "--set", "atr_window=8", "--set", "vol_z=0.5", "--csv", t, "--metrics", m])
        check(r.returncode == 0 and rows(t), f"seller_exhaustion trades: {r.stderr}")
        check_outcomes(t, 0.0)
        check_shortest(m, ["win_rate", "avg_R", "total_pnl", "max_dd", "sharpe"])
        # a trade log's trades CSV
        cli.write_config(os.path.join(root, "log.yaml"), os.path.join(root, "data"), os.path.join(root, "log.h5"),
                         min_trades=1)
        r = cli.run(E, [os.path.join(root, "log.yaml"), "--grid", "--quiet", "--output", os.path.join(root, "log.h5")])
        check(r.returncode == 0, f"trade-log grid: {r.stderr}")
        t = os.path.join(root, "log_trades.csv")
        r = cli.run(E, ["trades", os.path.join(root, "log.h5"), "--csv", t])
        check(r.returncode == 0 and rows(t), f"trade-log trades: {r.stderr}")
        check_shortest(t, ["entry_price", "outcome_pct", "cumulative_pct"])
    if not check.failures:
        print("ok: shortest numbers, bars symbol, outcome_pct")
    return check.exit()


if __name__ == "__main__":
    sys.exit(main())
