#!/usr/bin/env python3
"""A strategy config's `baseline:` (docs/config.md "baseline", issue 28)
against the independent reference of seller_exhaustion (tests/se_reference.py,
pandas, written from docs/signals-spec.md sec. 1), never against evolve's own trades:

- the reference backtests the baseline's values (off the lattice) on the
  bars it builds itself from the market files; each trade's outcome is
  pnl / entry * 100 quantised to micro-percent (SPEC sec. 5) and counts on
  the UTC day of its entry bar;
- the JSON's baseline row (fitness, trades, win rate, max drawdown; with a
  validation: block in-sample, holdout and every fold) equals the reference
  on those days, and vs_best is rank 1 less it; the run file's
  GROUP/baselines, Python's Result.baselines and `evolve report`'s row equal
  the same reference; for a grid, a grid with validation and a GA with
  validation, on gen-data's sample and on SHARED/real-hf (where present);
- a walk-forward scores it on each test window's days: the JSON, the run
  file's /walk_forward/baselines and Python's Result.walk_forward_baselines
  equal the reference on those days;
- a misspelt, missing, mistyped, fractional or infeasible baseline value,
  and an atc name its list lacks, are refused naming the key.
"""

import datetime
import json
import math
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "support"))
sys.path.insert(0, HERE)
import evolve_cli as cli  # noqa: E402

if not cli.have_modules("numpy", "pandas", "h5py"):
    print("test_strategy_baselines: skipped: numpy, pandas and h5py are needed")
    sys.exit(77)

import h5py  # noqa: E402

import se_reference as ref  # noqa: E402
import test_baselines as tb  # noqa: E402  (the run file's, Python's and the report's baselines)

check = tb.check
COSTS = {"fee_bp": 2.0, "slippage_bp": 1.0}


def llround(x):
    return int(math.floor(abs(x) + 0.5)) * (1 if x >= 0 else -1)


def day_of(ts):
    return datetime.datetime.fromtimestamp(int(ts), datetime.timezone.utc).strftime("%Y-%m-%d")


def oracle_trades(bars, baseline):
    """[(q, entry day)] of the reference's trades under the baseline's values."""
    p = dict(COSTS)
    p.update({k: (int(v) if k in ref.PARAMS_INT else float(v)) for k, v in baseline.items()})
    out = []
    for t in ref.run(bars, p):
        pct = max(-1e5, min(1e5, t["pnl"] / t["entry"] * 100.0))
        out.append((llround(pct * 1e6), day_of(bars["ts"].iloc[t["entry_bar"]])))
    return out


def cell(trades, days):
    """total_return, trades, win rate and max drawdown of the trades entered on days (None: every day)."""
    q = [x for x, d in trades if days is None or d in days]
    eq = peak = dd = 0
    for x in q:
        eq += x
        peak = max(peak, eq)
        dd = max(dd, peak - eq)
    return {"fitness": sum(q) / 1e6, "trades": len(q), "win_rate": sum(x > 0 for x in q) / len(q) if q else None,
            "max_drawdown": dd / 1e6}


def same_cell(where, got, want, stats=False):
    check(got.get("trades") == want["trades"], f"{where}: trades {got.get('trades')}, reference {want['trades']}")
    check(abs(float(got.get("fitness", "nan")) - want["fitness"]) <= 1e-9 * max(1.0, abs(want["fitness"])),
          f"{where}: fitness {got.get('fitness')}, reference {want['fitness']}")
    if stats and want["win_rate"] is not None:
        s = got["stats"]
        check(abs(s["win_rate"] - want["win_rate"]) <= 1e-12, f"{where}: win rate {s['win_rate']}, {want['win_rate']}")
        check(abs(s["max_drawdown"] - want["max_drawdown"]) <= 1e-9,
              f"{where}: max drawdown {s['max_drawdown']}, reference {want['max_drawdown']}")


def write_config(path, bars_yaml, params, baseline, extra=""):
    with open(path, "w") as f:
        f.write(f"strategy:\n  type: seller_exhaustion\n  bars: {bars_yaml}\n"
                f"  costs: {{fee_bp: {COSTS['fee_bp']}, slippage_bp: {COSTS['slippage_bp']}}}\nparameters:\n")
        for name, values in params:
            f.write(f"  - {{name: {name}, values: [{', '.join(values)}]}}\n")
        f.write("baseline: {" + ", ".join(f"{k}: {v}" for k, v in baseline.items()) + "}\n")
        f.write(f"objective: {{name: total_return}}\ntop: 4\noutput: {path[:-5]}.h5\n{extra}")


def run_json(evolve, path, args):
    out = path[:-5] + ".json"
    r = cli.run(evolve, [path, "--quiet", "--json", out] + list(args), timeout=600)
    if not check(r.returncode == 0, f"{path} {args}: rc {r.returncode}: {r.stderr}"):
        return None
    with open(out) as f:
        return json.load(f)


def parts_of(doc, trades):
    """(label, getter of the row's cell, the reference's cell) for each part the run scores."""
    v = doc.get("validation")
    if not v:
        return [("fitness", lambda b: b, cell(trades, None))]
    out = [("fitness", lambda b: b, cell(trades, set(v["in_sample_days"]))),
           ("in_sample", lambda b: b["in_sample"], cell(trades, set(v["in_sample_days"]))),
           ("out_of_sample", lambda b: b["out_of_sample"], cell(trades, set(v["holdout_days"])))]
    for i, f in enumerate(v.get("folds", [])):
        out.append((f"fold {i}", lambda b, i=i: b["folds"][i], cell(trades, set(f))))
    return out


def search_case(evolve, root, name, bars_yaml, params, baseline, trades, args, extra=""):
    path = os.path.join(root, name + ".yaml")
    write_config(path, bars_yaml, params, baseline, extra)
    doc = run_json(evolve, path, args)
    if not doc:
        return
    bases = {b["name"]: b for b in doc.get("baselines", [])}
    if not check(set(bases) == {"baseline"}, f"{name}: baselines {sorted(bases)} (a strategy has only its own)"):
        return
    b = bases["baseline"]
    check(b["values"] == {k: float(x) for k, x in baseline.items()}, f"{name}: values {b['values']}")
    parts = parts_of(doc, trades)
    for label, get, want in parts:
        same_cell(f"{name} {label}", get(b), want, stats=label == "fitness")
    best = doc["top"][0]
    check(abs(b["vs_best"]["fitness"] - (best["fitness"] - b["fitness"])) <= 1e-9 and
          b["vs_best"]["trades"] == best["trades"] - b["trades"], f"{name}: vs_best {b['vs_best']}")
    run, group = cli.mode_file(path[:-5] + ".h5", args), "grid" if "--grid" in args else "ga"
    copies = {"run file": tb.file_baselines(run, group), "Python": tb.python_baselines(evolve, run)}
    for where, got in copies.items():
        g = got.get("baseline")
        if not check(g is not None, f"{name} {where}: no baseline row ({sorted(got)})"):
            continue
        check(g["values"] == b["values"], f"{name} {where}: values {g['values']}, JSON {b['values']}")
        for label, get, want in parts:
            same_cell(f"{name} {where} {label}", get(g), want)
    printed = tb.report_rows(evolve, run, [p for p, _ in params]).get("baseline")
    want = parts[0][2]
    check(printed == (f"{want['fitness']:.6f}", want["trades"]), f"{name} report: {printed}, reference {want}")


PY_WALK = """
import json, sys, evolve
r = evolve.load_run(sys.argv[1])
w = r.walk_forward_baselines
print(json.dumps([{"window": int(i[0]), "name": i[1], "fitness": row["fitness"], "trades": int(row["trades"]),
                   "feasible": bool(row["feasible"]), "test_first_day": str(row["test_first_day"].date()),
                   "test_last_day": str(row["test_last_day"].date())} for i, row in w.iterrows()]))
"""


def walk_case(evolve, root, name, bars_yaml, params, baseline, trades, walk):
    """Each test window's baseline against the reference on its days (bars' days from first to last), as the
    JSON, the run file and Python give it."""
    path = os.path.join(root, name + ".yaml")
    write_config(path, bars_yaml, params, baseline, f"validation: {{walk_forward: {walk}}}\n")
    doc = run_json(evolve, path, ["--walk-forward", "--grid"])
    if not doc:
        return
    windows = doc["walk_forward"]["windows"]
    all_days = sorted({d for _, d in trades} | {w["test"]["first"] for w in windows} | {w["test"]["last"] for w in windows})
    run = path[:-5] + ".walk-grid.h5"  # the walk-forward grid's own run file
    with h5py.File(run, "r") as h:
        g = h["walk_forward/baselines"]
        names = [x.decode() if isinstance(x, bytes) else x for x in g["names"][()]]
        check(names == ["baseline"], f"{name}: run file names {names}")
        fit, n, ok = g["fitness"][()], g["trades"][()], g["feasible"][()]
    env = cli.python_env(evolve)
    r = subprocess.run([sys.executable, "-c", PY_WALK, run], capture_output=True, text=True, env=env,
                       timeout=120)
    py = json.loads(r.stdout) if check(r.returncode == 0, f"{name}: Python: {r.stderr}") else []
    check(len(py) == len(windows), f"{name}: Python has {len(py)} rows, {len(windows)} windows")
    for i, w in enumerate(windows):
        days = {d for d in all_days if w["test"]["first"] <= d <= w["test"]["last"]}
        want = cell(trades, days)
        b = {x["name"]: x for x in w.get("baselines", [])}.get("baseline")
        if not check(b is not None, f"{name} window {i + 1}: no baseline ({w.get('baselines')})"):
            continue
        same_cell(f"{name} window {i + 1}", b, want)
        same_cell(f"{name} window {i + 1} run file", {"fitness": float(fit[i][0]), "trades": int(n[i][0])}, want)
        check(bool(ok[i][0]) == b["feasible"], f"{name} window {i + 1}: run file feasible {ok[i][0]}")
        if i < len(py):
            p = py[i]
            check(p["window"] == i + 1 and p["name"] == "baseline" and p["feasible"] == b["feasible"] and
                  p["test_first_day"] == w["test"]["first"] and p["test_last_day"] == w["test"]["last"],
                  f"{name} window {i + 1}: Python {p}, JSON {w['test']} {b}")
            same_cell(f"{name} window {i + 1} Python", p, want)


def refusals(evolve, root, bars_yaml, params, baseline):
    bad = [({**baseline, "ema_fsat": "12"}, "ema_fsat"),
           ({**baseline, "vol_z": "high"}, "baseline.vol_z"),
           ({k: v for k, v in baseline.items() if k != "reward_r"}, "baseline.reward_r"),
           ({**baseline, "ema_fast": "12.5"}, "baseline.ema_fast"),
           ({**baseline, "ema_fast": "70", "ema_slow": "60"}, "ema_slow (60) must be greater than ema_fast (70)")]
    for n, (b, key) in enumerate(bad):
        path = os.path.join(root, f"bad{n}.yaml")
        write_config(path, bars_yaml, params, b)
        r = cli.run(evolve, [path, "--grid", "--quiet"], timeout=120)
        check(r.returncode != 0 and key in r.stderr and "baseline" in r.stderr and not os.path.exists(path[:-5] + ".grid.h5"),
              f"bad baseline {b}: rc {r.returncode}: {r.stderr}")
    path = os.path.join(root, "atc.yaml")
    with open(path, "w") as f:
        f.write(f"strategy:\n  type: atc\n  bars: {bars_yaml}\nparameters:\n"
                "  - {name: ema_len, values: [20, 30]}\n  - {name: robustness, values: [Narrow, Medium]}\n"
                "baseline: {ema_len: 25, robustness: Wide}\n")
    r = cli.run(evolve, [path, "--grid", "--quiet"], timeout=120)
    check(r.returncode != 0 and "baseline.robustness" in r.stderr and "Narrow, Medium" in r.stderr,
          f"atc baseline off its names: rc {r.returncode}: {r.stderr}")


SAMPLE_PARAMS = [("ema_fast", ["8", "16"]), ("ema_slow", ["40", "80"]), ("z_window", ["40", "80"]),
                 ("vol_z", ["1.0", "1.5"]), ("reward_r", ["1.5", "2.5"])]
SAMPLE_BASELINE = {"ema_fast": "12", "ema_slow": "60", "z_window": "50", "vol_z": "1.25", "reward_r": "2.0"}
VALIDATION = "validation: {holdout: {share: 0.3}, folds: 2}\n"
GA = "ga: {population: 16, generations: 3}\n"


def on_market(evolve, root, tag, market, ticker, tf, params, baseline, validation, walk):
    bars_yaml = f"{{market_dir: {market}, ticker: {ticker}, timeframe: {tf}s}}"
    trades = oracle_trades(ref.bars_from_market(market, ticker, tf), baseline)
    check(len(trades) >= 3, f"{tag}: the reference's baseline makes {len(trades)} trades (too few to test)")
    search_case(evolve, root, tag + "-grid", bars_yaml, params, baseline, trades, ["--grid"])
    search_case(evolve, root, tag + "-val", bars_yaml, params, baseline, trades, ["--grid"], validation)
    search_case(evolve, root, tag + "-ga", bars_yaml, params, baseline, trades, [], validation + GA)
    walk_case(evolve, root, tag + "-walk", bars_yaml, params, baseline, trades, walk)
    return bars_yaml


def main():
    a = cli.parse_args()
    with cli.scratch_dir("evolve-strategy-baselines-") as root:
        data = os.path.join(root, "data")
        r = cli.gen_data(a.evolve, data, ["--days", "6", "--tickers", "SOXL", "--trades", "10"])
        if not check(r.returncode == 0, f"gen-data: {r.stderr}"):
            return check.exit()
        bars_yaml = on_market(a.evolve, root, "sample", os.path.join(data, "market"), "SOXL", 60, SAMPLE_PARAMS,
                              SAMPLE_BASELINE, VALIDATION, "{train_days: 2, test_days: 1}")
        refusals(a.evolve, root, bars_yaml, SAMPLE_PARAMS, SAMPLE_BASELINE)
        real = os.path.abspath(os.path.join(a.shared_data or "", "real-hf", "market"))
        if os.path.isdir(real):  # 3 days of real prices at 10 s: a holdout of the last, no folds
            on_market(a.evolve, root, "real", real, "XXX", 10, SAMPLE_PARAMS, SAMPLE_BASELINE,
                      "validation: {holdout: {last: 1}}\n", "{train_days: 1, test_days: 1}")
        else:
            print(f"test_strategy_baselines: {real} is absent: its part is skipped", flush=True)
    return check.exit()


if __name__ == "__main__":
    sys.exit(main())
