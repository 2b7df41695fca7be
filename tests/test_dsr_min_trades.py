#!/usr/bin/env python3
"""The deflated Sharpe ratio a trader can read (issue 32 item 5): rank 1's
DSR equals the published formula (Bailey and Lopez de Prado 2014, recomputed
here from the SPEC oracle's trades) with V, the variance of the per-trade
Sharpe ratio over the trials, taken over the lattice points that meet
objective.min_trades only (points of 2 or 3 trades, whose ratios run wild,
no longer inflate the expected best Sharpe ratio until every DSR underflows);
and it is never printed as 0.000: the terminal's DSR column and the verdict
print "<1e-6" / "< 1e-6 (z = ...)" or the value.

Runs on gen-data's sample data, and on the real prices of
../shared/data/real-hf (configs/real-hf.yaml's lattice) when that folder is
there (else that half says so and is skipped). Needs numpy (spec_oracle)."""
import datetime
import json
import math
import os
import re
import sys
from statistics import NormalDist

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "support"))
sys.path.insert(0, HERE)
import evolve_cli as cli  # noqa: E402

check = cli.Checker()
EULER_GAMMA = 0.57721566490153286061


def dsr_paper(outcomes, trials, var_sr):
    """(DSR, z) of the outcomes (percent) against N trials and V (the paper's eq.)."""
    nd = NormalDist()
    n = len(outcomes)
    mean = sum(outcomes) / n
    d = [x - mean for x in outcomes]
    m2, m3, m4 = (sum(x ** k for x in d) / n for k in (2, 3, 4))
    sr = mean / math.sqrt(m2 * n / (n - 1))
    g3, g4 = m3 / m2 ** 1.5, m4 / m2 ** 2
    sr0 = math.sqrt(var_sr) * ((1 - EULER_GAMMA) * nd.inv_cdf(1 - 1 / trials)
                               + EULER_GAMMA * nd.inv_cdf(1 - 1 / (trials * math.e))) if trials > 1 else 0.0
    z = (sr - sr0) * math.sqrt(n - 1) / math.sqrt(1 - g3 * sr + (g4 - 1) / 4 * sr * sr)
    return nd.cdf(z), z


def variance_over(oracle_sr, size):
    srs = [oracle_sr.value(i) for i in range(size)]
    srs = [x for x in srs if x is not None and math.isfinite(x)]
    mean = sum(srs) / len(srs)
    return sum((x - mean) ** 2 for x in srs) / (len(srs) - 1), len(srs)


def one(evolve, root, name, cfg_text, ds, params, min_trades, so):
    """A grid run of cfg_text (its holdout's in-sample days split from ds); the checks."""
    cfg = os.path.join(root, name + ".yaml")
    with open(cfg, "w") as f:
        f.write(cfg_text)
    js = os.path.join(root, name + ".json")
    r = cli.run(evolve, [cfg, "--grid", "--json", js, "--output", os.path.join(root, name + ".h5")], timeout=600)
    if not check(r.returncode == 0, f"{name}: exit {r.returncode}: {r.stderr}"):
        return
    doc = json.load(open(js))
    ins = set(doc["validation"]["in_sample_days"])
    sub = so.Dataset()
    sub.tickers, sub.price, sub.ts = ds.tickers, ds.price, ds.ts
    sub.trades = [t for t in ds.trades
                  if (datetime.date(1970, 1, 1) + datetime.timedelta(days=t.entry_ts // 86400)).isoformat() in ins]
    size = 1
    for p in params:
        size *= len(p)
    var_all, n_all = variance_over(so.Oracle(sub, params, so.Objective("sharpe", min_trades=2)), size)
    var, n_pts = variance_over(so.Oracle(sub, params, so.Objective("sharpe", min_trades=max(2, min_trades))), size)
    v = doc["validation"]
    check(v["sharpe_variance_points"] == n_pts, f"{name}: V over {v['sharpe_variance_points']} points, the "
          f"oracle has {n_pts} meeting min_trades {min_trades} (of {n_all} with a ratio)")
    check(abs(v["sharpe_variance"] - var) <= 1e-12 * var, f"{name}: V {v['sharpe_variance']}, oracle {var} "
          f"(over every point: {var_all})")
    top = doc["top"][0]
    o_in = so.Oracle(sub, params, so.Objective("total_return", min_trades=min_trades))
    idx = int(top["index"])
    outs = [so.quantise(o) / 1e6 for _, o, _ in o_in.trade_outcomes(idx)]
    want, z = dsr_paper(outs, v["trials"], var)
    got = top["deflated_sharpe"]
    check(got is not None and abs(got - want) <= 1e-9 + 1e-9 * want, f"{name}: rank 1's DSR {got}, the paper {want}")
    check(abs(doc["verdict"]["dsr"] - got) <= 1e-15 and abs(doc["verdict"]["dsr_z"] - z) <= 1e-7 * max(1, abs(z)),
          f"{name}: verdict dsr {doc['verdict']['dsr']} z {doc['verdict']['dsr_z']}, want {got}, z {z}")
    # never 0.000: the verdict's reading and the top table's DSR column
    line = next((x for x in r.stdout.splitlines() if x.strip().startswith("DSR ")), "")
    shown = "< 1e-6 (z = %.2f)" % z if want < 1e-6 else ("%.1e" % want if want < 1e-3 else "%.3f" % want)
    check(line.strip().startswith("DSR " + shown + ":"), f"{name}: the verdict prints {line!r}, want 'DSR {shown}'")
    table = cli.list_tables(r.stdout)[0]
    col, rank = table["head"].index("DSR"), table["head"].index("rank")
    cell = next(row[col] for row in table["rows"] if row[rank] == "1")
    check(cell != "0.000" and not re.fullmatch(r"-?0\.0+", cell), f"{name}: rank 1's DSR column prints {cell}")
    check(cell == ("<1e-6" if want < 1e-6 else shown), f"{name}: rank 1's DSR column {cell}, want {shown}")
    print(f"ok: {name}: V {var:.6g} over {n_pts} points (all points: {var_all:.6g} over {n_all}); DSR {got:.6g} "
          f"(z {z:.3f}); printed {cell!r}", flush=True)


SAMPLE_PARAMS = """parameters:
  - {name: volatility, feature: Entry Volatility Percent, values: [0, 0.3, 0.5]}
  - {name: ratio, feature: Entry Volatility Ratio, values: [0, 0.5, 0.8]}
  - {name: adx7, feature: Entry Adx7, values: [0, 20, 30]}
  - {name: target, role: target, values: [0.2, 0.3, 0.5]}
  - {name: stop, role: stop, values: [-0.5, -0.3]}
"""


def sample(evolve, root, so):
    data = os.path.join(root, "data")
    r = cli.gen_data(evolve, data, ["--days", "8", "--tickers", "SOXL", "--trades", "200", "--seed", "5"])
    if not check(r.returncode == 0, f"gen-data: {r.stderr}"):
        return
    params = [so.param("volatility", feature="Entry Volatility Percent", values=["0", "0.3", "0.5"]),
              so.param("ratio", feature="Entry Volatility Ratio", values=["0", "0.5", "0.8"]),
              so.param("adx7", feature="Entry Adx7", values=["0", "20", "30"]),
              so.param("target", role="target", values=["0.2", "0.3", "0.5"]),
              so.param("stop", role="stop", values=["-0.5", "-0.3"])]
    features = tuple(sorted({p.feature for p in params if p.role == "filter"}))
    ds = so.load_dataset(os.path.join(data, "market"), os.path.join(data, "all_trade_logs.csv"), ["SOXL"], features)
    for mt in (2, 40):
        text = f"""data:
  market_dir: {os.path.join(data, "market")}
  trades: {os.path.join(data, "all_trade_logs.csv")}
  tickers: [SOXL]
  cache: {os.path.join(root, "ds.h5")}
{SAMPLE_PARAMS}objective:
  name: total_return
  min_trades: {mt}
validation:
  holdout: {{share: 0.25}}
top: 5
seed: 11
"""
        one(evolve, root, f"sample_min{mt}", text, ds, params, mt, so)


def real(evolve, root, shared, so):
    """configs/real-hf.yaml's lattice on the real prices, with a holdout day."""
    base = os.path.join(shared, "real-hf") if shared else None
    if not base or not os.path.isdir(base):
        print(f"skip: real-hf: no {base} (../shared/data/real-hf)", flush=True)
        return
    params = [so.param("volatility", feature="Entry Volatility Percent",
                       values=["0", "0.04", "0.08", "0.1", "0.15", "0.3"]),
              so.param("ratio", feature="Entry Volatility Ratio", values=["0", "0.8", "0.9", "1.0"]),
              so.param("adx14", feature="Entry Adx14", values=["0", "15", "20", "25"]),
              so.param("target", role="target", values=["0.1", "0.2", "0.3", "0.4"]),
              so.param("stop", role="stop", values=["-0.4", "-0.3", "-0.2", "-0.1"])]
    features = tuple(sorted({p.feature for p in params if p.role == "filter"}))
    tickers = ["ETF", "AAA", "BBB", "XXX"]
    ds = so.load_dataset(os.path.join(base, "market"), os.path.join(base, "all_trade_logs.csv"), tickers, features)
    text = f"""data:
  market_dir: {os.path.join(base, "market")}
  trades: {os.path.join(base, "all_trade_logs.csv")}
  tickers: [{", ".join(tickers)}]
  cache: {os.path.join(root, "real.h5")}
parameters:
  - {{name: volatility, feature: Entry Volatility Percent, values: [0, 0.04, 0.08, 0.1, 0.15, 0.3]}}
  - {{name: ratio, feature: Entry Volatility Ratio, values: [0, 0.8, 0.9, 1.0]}}
  - {{name: adx14, feature: Entry Adx14, values: [0, 15, 20, 25]}}
  - {{name: target, role: target, range: {{start: 0.1, stop: 0.4, step: 0.1}}}}
  - {{name: stop, role: stop, range: {{start: -0.4, stop: -0.1, step: 0.1}}}}
objective:
  name: total_return
  min_trades: 5
validation:
  holdout: {{last: 1}}
top: 5
seed: 42
"""
    one(evolve, root, "real_hf", text, ds, params, 5, so)


def main():
    a = cli.parse_args()
    if not cli.have_modules("numpy"):
        print("skip: numpy is not installed (the SPEC oracle needs it)")
        return 77
    import spec_oracle as so
    E = os.path.abspath(a.evolve)
    shared = a.shared_data or os.path.join(HERE, "..", "..", "shared", "data")
    with cli.scratch_dir("evolve_dsr_") as root:
        sample(E, root, so)
        real(E, root, shared, so)
    return check.exit()


if __name__ == "__main__":
    sys.exit(main())
