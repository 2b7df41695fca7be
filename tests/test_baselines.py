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
vs_best is rank 1 less the baseline. A baseline: with a misspelt parameter
or a wrong type is refused naming the key.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "support"))
sys.path.insert(0, HERE)
import evolve_cli as cli  # noqa: E402

try:
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


def run_case(evolve, root, data, ds, validation):
    obj = so.Objective("total_return", min_trades=0)
    name = "val" if validation else "plain"
    path = tv.config(root, name, data, "  name: total_return\n", validation, extra=BASELINE_YAML)
    doc, _ = tv.run_json(evolve, root, path, ["--grid"])
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


def refused(evolve, root, data):
    for n, (text, key) in enumerate([("baseline: {volatilty: 0.3}\n", "volatilty"),
                                     ("baseline: {target: high}\n", "baseline.target"),
                                     ("baseline: {stop: 0.4}\n", "baseline.stop"),
                                     ("baseline: [0.3]\n", "baseline")]):
        path = tv.config(root, f"bad{n}", data, "  name: total_return\n", "", extra=text)
        r = cli.run(evolve, [path, "--grid", "--quiet"], timeout=120)
        check(r.returncode != 0 and key in r.stderr, f"bad baseline {text.strip()!r}: rc {r.returncode}: {r.stderr}")


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
        refused(a.evolve, root, data)
    return check.exit()


if __name__ == "__main__":
    sys.exit(main())
