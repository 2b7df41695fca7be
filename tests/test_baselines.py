#!/usr/bin/env python3
"""Baselines (fitness/baseline.h, issue 28) against independent computations
on gen-data's sample data, with and without a validation: block:

- log: the trade log as it is, a direct Python sum of the logged Trade
  Percent Change over the part's trades (SPEC sec. 5's quantised sums);
- loosest: the SPEC oracle (tests/spec_oracle.py) on a lattice of the
  loosest value of every parameter;
- baseline: the oracle on a lattice of the config's baseline: values (off
  the lattice), the parameters it leaves out absent;
each on the in-sample days, the holdout days and every fold; and the JSON's
vs_best is rank 1 less the baseline. The same baselines are checked against
the same oracle as the run file holds them (GROUP/baselines, h5py), as the
Python package reads them (Result.baselines) and as `evolve report` prints
them, for a grid run and (with validation) a GA run; and on
SHARED/real-hf where present. A baseline: with a
misspelt parameter or a wrong type is refused naming the key. A strategy
config's baseline: is tests/test_strategy_baselines.py's.
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
    import h5py
    import spec_oracle as so
    import test_validation as tv
except ImportError as exc:  # pragma: no cover
    print(f"test_baselines: skipped: {exc} (install python3-numpy)")
    sys.exit(77)

check = tv.check
BASELINE = {"volatility": "0.35", "ratio": "0.65", "target": "0.45", "stop": "-0.42"}
BASELINE_YAML = "baseline: {" + ", ".join(f"{k}: {v}" for k, v in BASELINE.items()) + "}\n"


def loosest_params():
    return [so.param(p.name, role=p.role, feature=p.feature, direction=p.direction,
                     values=[p.texts[-1] if p.role == "filter" and p.direction == "max" else p.texts[0]])
            for p in tv.PARAMS]


def baseline_params():
    return [so.param(p.name, role=p.role, feature=p.feature, direction=p.direction, values=[BASELINE[p.name]])
            for p in tv.PARAMS if p.name in BASELINE]


def log_cell(ds):
    """The log as it is: every trade, its logged outcome (cost 0)."""
    q = [so.quantise(t.pct_change) for t in ds.trades]
    return sum(q) / 1e6, len(q)


def check_log(where, cell, ds):
    want, n = log_cell(ds)
    check(cell["trades"] == n, f"{where}: trades {cell['trades']}, direct sum {n}")
    check(tv.same(tv.jfit(cell["fitness"]), want, "total_return"), f"{where}: fitness {cell['fitness']}, direct {want}")


def check_parts(where, b, parts, obj, params):
    """b's in-sample (or whole), holdout and fold cells against the oracle
    (params) or the direct sum (params None) on each part's dataset."""
    for label, cell, ds in parts(b):
        if params is None:
            check_log(f"{where} {label}", cell, ds)
        else:
            tv.check_cell(f"{where} {label}", cell, so.Oracle(ds, params, obj), 0, obj.name)


def cell_of(fitness, trades, feasible):
    return {"fitness": float(fitness), "trades": int(trades), "feasible": bool(feasible)}


def file_baselines(run, group):
    """GROUP/baselines of the run file as the JSON's baselines (name, values, fitness, trades, feasible, stats,
    in_sample, out_of_sample, folds)."""
    out = {}
    with h5py.File(run, "r") as h:
        names = [x.decode() if isinstance(x, bytes) else x for x in h["lattice/name"][()]]
        for name, g in h[f"{group}/baselines"].items():
            b = cell_of(g["fitness"][0], g["trades"][0], g["feasible"][0])
            b["name"] = name
            b["values"] = {n: float(v) for n, v, s in zip(names, g["value"][()], g["set"][()]) if s}
            b["stats"] = {k: float(v[0]) for k, v in g["trader_stats"].items()}
            if "validation" in g:
                v = g["validation"]
                b["in_sample"] = cell_of(v["in_sample_fitness"][0], v["in_sample_trades"][0],
                                         v["in_sample_feasible"][0])
                b["out_of_sample"] = cell_of(v["out_of_sample_fitness"][0], v["out_of_sample_trades"][0],
                                             v["out_of_sample_feasible"][0])
                if "fold_fitness" in v:
                    b["folds"] = [cell_of(f, t, ok) for f, t, ok in
                                  zip(v["fold_fitness"][0], v["fold_trades"][0], v["fold_feasible"][0])]
            out[name] = b
    return out


PY_BASELINES = """
import json, sys, evolve
r = evolve.load_run(sys.argv[1])
out = {}
for name, row in r.baselines.iterrows():
    b = {"fitness": row["fitness"], "trades": int(row["trades"]), "feasible": bool(row["feasible"]),
         "values": {q["name"]: row[q["name"]] for q in r.params if row[q["name"]] == row[q["name"]]},
         "win_rate": row["win_rate"]}
    if "out_of_sample_fitness" in row:
        for part in ("in_sample", "out_of_sample"):
            b[part] = {"fitness": row[part + "_fitness"], "trades": int(row[part + "_trades"]),
                       "feasible": bool(row[part + "_feasible"])}
        folds = sorted(int(c.split("_")[1]) for c in row.index if c.startswith("fold_") and c.endswith("_fitness"))
        assert not folds or folds[0] == 1, f"Python's folds are numbered from {folds[0]}, not 1 as everywhere"
        b["folds"] = [{"fitness": row[f"fold_{i}_fitness"], "trades": int(row[f"fold_{i}_trades"]),
                       "feasible": bool(row[f"fold_{i}_feasible"])} for i in folds]
    out[name] = b
print(json.dumps(out))
"""


def python_baselines(evolve, run):
    """Result.baselines through the Python package and the libevolve built beside evolve."""
    env = cli.python_env(evolve)
    if not check(os.path.exists(env["EVOLVE_LIBRARY"]), f"{env['EVOLVE_LIBRARY']}: no libevolve for the package"):
        return {}
    r = subprocess.run([sys.executable, "-c", PY_BASELINES, run], capture_output=True, text=True, env=env,
                       timeout=120)
    if not check(r.returncode == 0, f"Result.baselines of {run}: {r.stderr}"):
        return {}
    return json.loads(r.stdout)


def report_rows(evolve, run, names=None):
    """The baseline rows `evolve report RUN` prints: {name: (fitness text, trades)}; names: the lattice's
    parameters (tv.PARAMS' by default)."""
    names = names or [p.name for p in tv.PARAMS]
    r = cli.run(evolve, ["report", run, "--out", run[:-3] + "_report"], timeout=120)
    check(r.returncode == 0, f"report {run}: {r.stderr}")
    rows, inside = {}, False
    for line in r.stdout.splitlines():
        w = line.split()
        if line.startswith("baselines"):
            inside = True
        elif inside and len(w) > 1 and w[1] == names[0]:
            continue  # the header
        elif inside and w and w[0] in ("log", "loosest", "baseline"):
            rows[w[0]] = (w[len(names) + 1].rstrip("*"), int(w[len(names) + 2]))
        else:
            inside = False
    return rows


def check_copies(evolve, name, run, group, bases, parts, obj):
    """The run file's, Python's and the report's baselines: the JSON's, and the oracle's on every part."""
    copies = {"run file": file_baselines(run, group), "Python": python_baselines(evolve, run)}
    printed = report_rows(evolve, run)
    check(set(printed) == set(bases), f"{name} report: baseline rows {sorted(printed)}, JSON {sorted(bases)}")
    for key, b in bases.items():
        check(printed.get(key) == (f"{tv.jfit(b['fitness']):.6f}", b["trades"]),
              f"{name} report {key}: {printed.get(key)}, JSON {b['fitness']} {b['trades']}")
        for where, got in copies.items():
            g = got.get(key)
            if not check(g is not None, f"{name} {where}: no baseline {key} (has {sorted(got)})"):
                continue
            check(g["values"] == b["values"], f"{name} {where} {key}: values {g['values']}, JSON {b['values']}")
            check(g["trades"] == b["trades"] and g["feasible"] == b["feasible"],
                  f"{name} {where} {key}: trades {g['trades']} feasible {g['feasible']}")
            check(tv.same(tv.jfit(g["fitness"]), tv.jfit(b["fitness"]), "total_return"),
                  f"{name} {where} {key}: fitness {g['fitness']}, JSON {b['fitness']}")
            want_wr = b["stats"]["win_rate"]
            got_wr = g["stats"]["win_rate"] if "stats" in g else g["win_rate"]
            want_wr = float("nan") if want_wr is None else want_wr  # null: no trade
            check(abs(got_wr - want_wr) <= 1e-12 or (got_wr != got_wr and want_wr != want_wr),
                  f"{name} {where} {key}: win rate {got_wr}, JSON {want_wr}")
            params = {"log": None, "loosest": loosest_params(), "baseline": baseline_params()}[key]
            check_parts(f"{name} {where} {key}", g, parts, obj, params)


def run_case(evolve, root, data, ds, validation, args=("--grid",), tickers=("SOXL",)):
    obj = so.Objective("total_return", min_trades=0)
    name = ("val" if validation else "plain") + ("-ga" if "--grid" not in args else "") + \
        ("-" + os.path.basename(data) if tickers != ("SOXL",) else "")
    path = tv.config(root, name, data, "  name: total_return\n", validation, extra=BASELINE_YAML)
    if tickers != ("SOXL",):
        with open(path) as f:
            text = f.read().replace("tickers: [SOXL]", f"tickers: [{', '.join(tickers)}]")
        tv.write(path, text)
    doc, _ = tv.run_json(evolve, root, path, list(args))
    if not doc:
        return
    bases = {b["name"]: b for b in doc.get("baselines", [])}
    check(set(bases) == {"log", "loosest", "baseline"}, f"{name}: baselines {sorted(bases)}")
    v = doc.get("validation")
    if v:
        ins, hold = tv.subset(ds, set(v["in_sample_days"])), tv.subset(ds, set(v["holdout_days"]))
        folds = [tv.subset(ds, set(f)) for f in v.get("folds", [])]

        def parts(b):
            yield "fitness", b, ins
            yield "in_sample", b["in_sample"], ins
            yield "out_of_sample", b["out_of_sample"], hold
            for i, f in enumerate(folds):
                yield f"fold {i}", b["folds"][i], f
    else:
        def parts(b):
            yield "fitness", b, ds
    for key, params in (("log", None), ("loosest", loosest_params()), ("baseline", baseline_params())):
        if key in bases:
            check_parts(f"{name} {key}", bases[key], parts, obj, params)
            vs = bases[key]["vs_best"]
            best = doc["top"][0]
            check(tv.same(vs["fitness"], tv.jfit(best["fitness"]) - tv.jfit(bases[key]["fitness"]), "total_return")
                  or abs(vs["fitness"] - (best["fitness"] - bases[key]["fitness"])) < 1e-9,
                  f"{name} {key}: vs_best fitness {vs['fitness']}")
            check(vs["trades"] == best["trades"] - bases[key]["trades"], f"{name} {key}: vs_best trades")
    check(bases.get("baseline", {}).get("values") == {k: float(x) for k, x in BASELINE.items()},
          f"{name}: baseline values {bases.get('baseline', {}).get('values')}")
    check_copies(evolve, name, cli.mode_file(path[:-5] + ".h5", args), "grid" if "--grid" in args else "ga", bases,
                 parts, obj)


def refused(evolve, root, data):
    for n, (text, key) in enumerate([("baseline: {volatilty: 0.3}\n", "volatilty"),
                                     ("baseline: {target: high}\n", "baseline.target"),
                                     ("baseline: {stop: 0.4}\n", "baseline.stop"),
                                     ("baseline: [0.3]\n", "baseline")]):
        path = tv.config(root, f"bad{n}", data, "  name: total_return\n", "", extra=text)
        r = cli.run(evolve, [path, "--grid", "--quiet"], timeout=120)
        check(r.returncode != 0 and key in r.stderr, f"bad baseline {text.strip()!r}: rc {r.returncode}: {r.stderr}")
    # a strategy config's baseline: tests/test_strategy_baselines.py


def main():
    a = cli.parse_args()
    with cli.scratch_dir("evolve-baselines-") as root:
        data = os.path.join(root, "data")
        r = cli.gen_data(a.evolve, data, ["--days", "6", "--tickers", "SOXL", "--trades", "300"])
        if not check(r.returncode == 0, f"gen-data: {r.stderr}"):
            return check.exit()
        ds = so.load_dataset(os.path.join(data, "market"), os.path.join(data, "all_trade_logs.csv"), ["SOXL"],
                             tuple(sorted({p.feature for p in tv.PARAMS if p.role == "filter"})))
        run_case(a.evolve, root, data, ds, "")
        run_case(a.evolve, root, data, ds, "validation:\n  holdout: {share: 0.3}\n  folds: 3\n")
        run_case(a.evolve, root, data, ds, "validation:\n  holdout: {share: 0.3}\n  folds: 3\n", args=())
        refused(a.evolve, root, data)
        real = os.path.join(a.shared_data or "", "real-hf")
        if os.path.isdir(os.path.join(real, "market")):  # 3 days: a holdout of the last, no folds
            tickers = ("ETF", "AAA", "BBB", "XXX")
            ds = so.load_dataset(os.path.join(real, "market"), os.path.join(real, "all_trade_logs.csv"), list(tickers),
                                 tuple(sorted({p.feature for p in tv.PARAMS if p.role == "filter"})))
            run_case(a.evolve, root, real, ds, "", tickers=tickers)
            run_case(a.evolve, root, real, ds, "validation:\n  holdout: {last: 1}\n", tickers=tickers)
        else:
            print(f"test_baselines: {real} is absent: its part is skipped", flush=True)
    return check.exit()


if __name__ == "__main__":
    sys.exit(main())
