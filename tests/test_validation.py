#!/usr/bin/env python3
"""The validation: block (docs/config.md) against the independent SPEC oracle
(tests/spec_oracle.py).

- Holdout: the search never sees holdout trades, so its top-K equals the
  oracle's ranking of the in-sample days alone; every reported row's
  out-of-sample fitness and trades equal the objective the oracle computes on
  the holdout days alone (every objective, grid and GA); the in-sample ones
  equal the oracle's on the in-sample days.
- Folds: each fold's fitness equals the oracle's on that fold's days; the
  worst fold and the share of profitable folds follow from them; folds: K
  shuffles the in-sample days with the seed into K near-equal folds,
  fold_by: week|month makes calendar blocks.
- The split: share draws round(share * days) days with the seed (the same
  seed, the same days; another seed, other days), last: N takes the last N
  trading days, days: lists them.
- Planted data: a combination that wins only on two days ranks first
  in-sample and is exposed by its holdout fitness and by its worst fold,
  while the broad combination stays positive in both.
- Bad blocks are refused with messages naming the key.
- Without a validation: block the JSON has none of these keys.
With --figures (test_validation_figures) only the figures: objective.aggregate's
fold statistics, the deflated Sharpe ratio and the PBO (CSCV), each against its
paper's formula; without it (test_validation) everything else, so that the
two halves run side by side.
"""

import csv
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "support"))
sys.path.insert(0, HERE)
import evolve_cli as cli  # noqa: E402

try:
    import numpy as np  # noqa: F401
    import spec_oracle as so
except ImportError as exc:  # pragma: no cover
    print(f"test_validation: skipped: {exc} (install python3-numpy)")
    sys.exit(77)

check = cli.Checker()

PARAMS = [
    so.param("volatility", feature="Entry Volatility Percent", values=["0", "0.3", "0.5"]),
    so.param("ratio", feature="Entry Volatility Ratio", values=["0", "0.5", "0.8"]),
    so.param("adx7", feature="Entry Adx7", values=["0", "20"]),
    so.param("target", role="target", values=["0.2", "0.3", "0.5"]),
    so.param("stop", role="stop", values=["-0.5", "-0.3"]),
]
PARAM_YAML = """parameters:
  - {name: volatility, feature: Entry Volatility Percent, values: [0, 0.3, 0.5]}
  - {name: ratio, feature: Entry Volatility Ratio, values: [0, 0.5, 0.8]}
  - {name: adx7, feature: Entry Adx7, values: [0, 20]}
  - {name: target, role: target, values: [0.2, 0.3, 0.5]}
  - {name: stop, role: stop, values: [-0.5, -0.3]}
"""
SIZE = 3 * 3 * 2 * 3 * 2


def day_of(ts):
    return ts // 86400


def day_text(d):
    import datetime
    return (datetime.date(1970, 1, 1) + datetime.timedelta(days=int(d))).isoformat()


def subset(ds, days):
    """The dataset of the trades entered on `days` (dataset order kept)."""
    sub = so.Dataset()
    sub.tickers, sub.price, sub.ts = ds.tickers, ds.price, ds.ts
    sub.trades = [t for t in ds.trades if day_text(day_of(t.entry_ts)) in days]
    return sub


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def config(root, name, data, objective, validation, extra="", params=PARAM_YAML, features=""):
    path = os.path.join(root, name + ".yaml")
    write(path, f"""data:
  market_dir: {os.path.join(data, "market")}
  trades: {os.path.join(data, "all_trade_logs.csv")}
  tickers: [SOXL]
  cache: {os.path.join(root, os.path.basename(data) + ".dataset.h5")}
{features}{params}objective:
{objective}
{validation}ga:
  population: 32
  generations: 40
{extra}top: 10
seed: 42
output: {os.path.join(root, name + ".h5")}
""")
    return path


def run_json(evolve, root, path, args):
    js = path[:-5] + ".json"
    r = cli.run(evolve, [path, "--quiet", "--json", js] + args, timeout=300)
    if not check(r.returncode == 0, f"{os.path.basename(path)} {args}: evolve exited {r.returncode}: {r.stderr}"):
        return None, r
    with open(js) as f:
        return json.load(f), r


def jfit(v):
    if isinstance(v, str):
        return {"inf": math.inf, "-inf": -math.inf}.get(v, math.nan)
    return float(v)


def same(got, want, objective):
    """Every value is one IEEE operation (sharpe: a few) of exact integer
    sums, the same in evolve and the oracle, and the JSON's text reads back
    as evolve's double. compound's value is a double product of 1 + q/1e8
    (evolve) and an exact rational (the oracle): within 1e-12, on infeasible
    parts too (not exp of the quantised log sum, 1e-9 off)."""
    if want is None:
        return False
    if math.isinf(want) or math.isinf(got):
        return got == want
    if objective == "compound":
        return abs(got - want) <= 1e-12 * max(1.0, abs(want))
    return abs(got - want) <= 4e-16 * 4 * abs(want)


def check_cell(label, cell, orc, idx, objective):
    want = orc.value(idx)
    check(cell["trades"] == int(orc.n[idx]), f"{label}: trades {cell['trades']}, oracle {int(orc.n[idx])}")
    feasible = cell.get("feasible", True)
    check(feasible == bool(orc.feasible[idx]), f"{label}: feasible {feasible}, oracle {bool(orc.feasible[idx])}")
    if feasible and want is not None:
        got = jfit(cell["fitness"])
        check(same(got, want, objective), f"{label}: fitness {got!r}, oracle {want!r}")
    elif objective == "compound" and cell["trades"] > 0:  # an infeasible part shows SPEC's product too
        prod = 1.0
        for _, _, q in orc.trade_outcomes(idx):
            prod = 0.0 if q <= -10 ** 8 else prod * (1.0 + q / 1e8)
        want = -100.0 if prod == 0.0 else (prod - 1.0) * 100.0
        got = jfit(cell["fitness"])
        check(abs(got - want) <= 1e-12 * max(1.0, abs(want)), f"{label}: infeasible compound {got!r}, product {want!r}")


def plateau_want(orc, idx):
    """Each parameter one step down, then up, in parameter order: the values
    of the neighbours inside the lattice (-inf: infeasible); (mean of the
    feasible ones, worst)."""
    genes = so.genes_of(idx, orc.dims)
    vals = []
    for k, n in enumerate(orc.dims):
        for d in (-1, 1):
            if 0 <= genes[k] + d < n:
                g = list(genes)
                g[k] += d
                v = orc.value(so.linear_index(g, orc.dims))
                vals.append(-math.inf if v is None else v)
    feas = [v for v in vals if v != -math.inf]
    acc = 0.0
    for v in feas:
        acc += v
    return (acc / len(feas) if feas else -math.inf), (min(vals) if vals else -math.inf), len(vals), len(feas)


def check_plateau(where, e, orc, idx, objective):
    mean, worst, n, nf = plateau_want(orc, idx)
    pl = e["plateau"]
    check(pl["neighbours"] == n and pl["feasible"] == nf, f"{where}: plateau neighbours {pl}, oracle {n}, {nf}")
    check(same(jfit(pl["mean"]), mean, objective) or jfit(pl["mean"]) == mean,
          f"{where}: plateau mean {pl['mean']}, oracle {mean}")
    check(same(jfit(pl["worst"]), worst, objective) or jfit(pl["worst"]) == worst,
          f"{where}: plateau worst {pl['worst']}, oracle {worst}")


def check_run(doc, ds, obj, mode, full_top, aggregate=None):
    """Every row of doc against oracles of the holdout, the in-sample days and
    each fold."""
    v = doc.get("validation")
    if not check(v is not None, f"{mode}: no validation object in the JSON"):
        return
    hold = set(v["holdout_days"])
    ins = set(v["in_sample_days"])
    all_days = {day_text(day_of(t.entry_ts)) for t in ds.trades}
    check(hold | ins == all_days and not hold & ins, f"{mode}: holdout and in-sample days do not split the data's days")
    o_hold = so.Oracle(subset(ds, hold), PARAMS, obj)
    o_in = so.Oracle(subset(ds, ins), PARAMS, obj)
    folds = v.get("folds", [])
    o_folds = [so.Oracle(subset(ds, set(f)), PARAMS, obj) for f in folds]
    if folds:
        check(sorted(d for f in folds for d in f) == sorted(ins), f"{mode}: the folds do not split the in-sample days")
    top = doc["top"]
    if full_top and aggregate is None:
        got = [int(e["index"]) for e in top]
        want = o_in.ranking()[:max(len(got), 10)]
        check(got == want, f"{mode}: the top-K is not the oracle's in-sample ranking: {got[:8]} vs {want[:8]}")
    for e in top:
        idx = int(e["index"])
        where = f"{mode} {obj.name} rank {e['rank']} ({o_in.genome_text(idx)})"
        check_cell(where + " out_of_sample", e["out_of_sample"], o_hold, idx, obj.name)
        check_cell(where + " in_sample", e["in_sample"], o_in, idx, obj.name)
        if aggregate is None:
            check(jfit(e["fitness"]) == jfit(e["in_sample"]["fitness"]), f"{where}: fitness is not the in-sample one")
            if obj.name != "compound":  # compound's neighbours read as expm1 of their log sums
                check_plateau(where, e, o_in, idx, obj.name)
        if not folds:
            check("folds" not in e, f"{where}: folds without folds configured")
            continue
        check(len(e["folds"]) == len(folds), f"{where}: {len(e['folds'])} fold cells for {len(folds)} folds")
        vals = []
        for k, (cell, of) in enumerate(zip(e["folds"], o_folds)):
            check_cell(f"{where} fold {k}", cell, of, idx, obj.name)
            vals.append(jfit(cell["fitness"]))
        # the lowest fold value as every table prints it, feasible or not (issue 32: one value, one name)
        check(jfit(e["worst_fold"]) == min(vals), f"{where}: worst_fold {e['worst_fold']} is not min {vals}")
        all_ok = all(cell.get("feasible", True) for cell in e["folds"])
        check(e.get("worst_fold_feasible", True) == all_ok, f"{where}: worst_fold_feasible {e.get('worst_fold_feasible')}"
              f", the folds' feasibility {all_ok}")
        prof = sum(1 for of in o_folds if int(of.S[idx]) > 0) / len(folds)
        check(e["fold_profitable_share"] == prof, f"{where}: fold_profitable_share {e['fold_profitable_share']}, "
              f"oracle {prof}")


def check_exact(h5, group, doc, ds, obj, mode):
    """The run file keeps every bit: out-of-sample fitness equals the oracle's
    exactly for the objectives whose value is one IEEE operation of exact sums."""
    if obj.name in ("sharpe", "compound") or not cli.have_modules("h5py"):
        return
    import h5py
    hold = set(doc["validation"]["holdout_days"])
    orc = so.Oracle(subset(ds, hold), PARAMS, obj)
    with h5py.File(h5, "r") as f:
        v = f[group + "/validation"]
        fit, n, ok = v["out_of_sample_fitness"][:], v["out_of_sample_trades"][:], v["out_of_sample_feasible"][:]
        idx = f[group + ("/top" if group == "grid" else "/hall_of_fame")]["index"][:]
        parts = v["day_part"][:]
        check(sorted(day_text(d) for d, p in zip(v["days"][:], parts) if p == -1) == sorted(hold),
              f"{mode}: the run file's holdout days differ from the JSON's")
    check(len(fit) == len(doc["top"]), f"{mode}: {len(fit)} validation rows in the run file for {len(doc['top'])}")
    for r, i in enumerate(idx):
        want = orc.value(int(i))
        check(int(n[r]) == int(orc.n[i]) and bool(ok[r]) == bool(orc.feasible[i]),
              f"{mode} rank {r + 1}: run file trades {n[r]} feasible {ok[r]}, oracle {orc.n[i]} {orc.feasible[i]}")
        if want is not None:
            check(float(fit[r]) == want, f"{mode} rank {r + 1}: run file out_of_sample {fit[r]!r}, oracle {want!r}")


def objectives(evolve, root, data, ds):
    """Every objective, grid (the whole lattice listed) and GA, holdout share + folds."""
    cases = [("total_return", ""), ("mean", ""), ("sharpe", "  min_trades: 5\n"), ("profit_factor", ""),
             ("calmar", ""), ("compound", "  max_drawdown_pct: 1.5\n"), ("total_return", "  max_drawdown_pct: 3\n"),
             ("total_return", "  min_trades: 40\n")]
    for n, (name, more) in enumerate(cases):
        val = "validation:\n  holdout: {share: 0.3}\n  folds: 3\n"
        path = config(root, f"obj{n}", data, f"  name: {name}\n{more}", val)
        kw = {"min_trades": 0}
        for line in more.strip().splitlines():
            k, x = line.strip().split(": ")
            kw[k] = x
        obj = so.Objective(name, **kw)
        doc, _ = run_json(evolve, root, path, ["--grid", "--top", str(SIZE)])
        if doc:
            check(len(doc["top"]) > 0, f"{name}: an empty top")
            check_run(doc, ds, obj, f"grid[{n}]", True)
            check_exact(path[:-5] + ".grid.h5", "grid", doc, ds, obj, f"grid[{n}] run file")
        doc, _ = run_json(evolve, root, path, [])
        if doc:
            check_exact(path[:-5] + ".h5", "ga", doc, ds, obj, f"ga[{n}] run file")
            check(doc["validation"]["trials"] == doc["unique_evaluations"], "ga: trials != unique evaluations")
            check_run(doc, ds, obj, f"ga[{n}]", False)


def splits(evolve, root, data, ds):
    days = sorted({day_of(t.entry_ts) for t in ds.trades})
    texts = [day_text(d) for d in days]
    obj = so.Objective("total_return")

    def holdout_of(val, seed_line="", name="split"):
        path = config(root, name, data, "  name: total_return\n", val)
        if seed_line:
            text = open(path).read().replace("seed: 42", seed_line)
            write(path, text)
        doc, _ = run_json(evolve, root, path, ["--grid"])
        return doc

    doc = holdout_of("validation:\n  holdout: {share: 0.25}\n")
    a = doc["validation"]["holdout_days"] if doc else []
    check(len(a) == int(math.floor(0.25 * len(days) + 0.5)), f"share 0.25 of {len(days)} days: {len(a)} held out")
    if doc:
        check_run(doc, ds, obj, "share", False)
    b = (holdout_of("validation:\n  holdout: {share: 0.25}\n") or {}).get("validation", {}).get("holdout_days")
    check(a == b, "the same seed drew other holdout days")
    draws = set()
    for seed in range(1, 6):
        d = holdout_of("validation:\n  holdout: {share: 0.25}\n", f"seed: {seed}")
        if d:
            draws.add(tuple(d["validation"]["holdout_days"]))
    check(len(draws) > 1, "five seeds drew the same holdout days: the draw ignores the seed")
    check(any(list(x) != texts[-len(x):] for x in draws), "share never mixed the days: always the last block")
    doc = holdout_of("validation:\n  holdout: {last: 3}\n")
    if doc:
        check(doc["validation"]["holdout_days"] == texts[-3:], f"last: 3 held out {doc['validation']['holdout_days']}")
        check_run(doc, ds, obj, "last", False)
    pick = [texts[1], texts[4]]
    doc = holdout_of(f"validation:\n  holdout: {{days: [{pick[0]}, {pick[1]}]}}\n")
    if doc:
        check(doc["validation"]["holdout_days"] == pick, f"days: held out {doc['validation']['holdout_days']}")
    doc = holdout_of("validation:\n  holdout: {last: 2}\n  folds: 4\n")
    if doc:
        sizes = sorted(len(f) for f in doc["validation"]["folds"])
        check(len(sizes) == 4 and sizes[-1] - sizes[0] <= 1, f"folds: 4 sizes {sizes}")
        check_run(doc, ds, obj, "folds 4", True)
    for by in ("week", "month"):
        doc = holdout_of(f"validation:\n  holdout: {{last: 2}}\n  fold_by: {by}\n")
        if not doc:
            continue
        import datetime
        for f in doc["validation"]["folds"]:
            ds_ = [datetime.date.fromisoformat(x) for x in f]
            keys = {(x.isocalendar()[0], x.isocalendar()[1]) if by == "week" else (x.year, x.month) for x in ds_}
            check(len(keys) == 1, f"fold_by {by}: a fold spans {keys}")
        check_run(doc, ds, obj, f"fold_by {by}", True)


def fold_stat(vals, how):
    """The C fold_aggregate, in Python floats (the same IEEE operations)."""
    if how == "worst_fold":
        return min(vals)
    if how == "median_fold":
        v = sorted(vals)
        n = len(v)
        return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2.0
    acc = 0.0
    for x in vals:
        acc += x
    return acc / len(vals)


def same_as_tables(evolve, root, path, args, doc, label):
    """The grid ran on dominance sums with one sum set per fold (auto), and
    its top-K and validation equal the tables evaluator's, bit for bit."""
    if cli.have_modules("h5py"):
        import h5py
        with h5py.File(cli.mode_file(path[:-5] + ".h5", args), "r") as f:
            ev = f["grid"].attrs["evaluator"]
        ev = ev.decode() if isinstance(ev, bytes) else str(ev)
        check(ev == "dominance", f"{label}: auto ran the {ev} evaluator, not dominance sums")
    tab, _ = run_json(evolve, root, path, args + ["--evaluator", "tables"])
    if tab:
        check(tab["top"] == doc["top"], f"{label}: the dominance grid's top differs from the tables grid's")
        check(tab["validation"] == doc["validation"], f"{label}: the dominance grid's validation differs from tables'")


def aggregates(evolve, root, data, ds):
    """objective.aggregate: the search ranks by a fold statistic; its top-K
    equals the oracle's ranking of that statistic over the whole lattice."""
    for name, more in (("total_return", ""), ("sharpe", "  min_trades: 2\n"), ("profit_factor", "")):
        for how in ("mean_fold", "median_fold", "worst_fold"):
            for folds in (3, 4):
                val = f"validation:\n  holdout: {{share: 0.25}}\n  folds: {folds}\n"
                path = config(root, f"agg_{name}_{how}_{folds}", data, f"  name: {name}\n  aggregate: {how}\n{more}",
                              val)
                obj = so.Objective(name, min_trades=2 if more else 0)
                for mode, args in (("grid", ["--grid", "--top", str(SIZE)]), ("ga", [])):
                    doc, _ = run_json(evolve, root, path, args)
                    if not doc:
                        continue
                    label = f"{mode} {name} {how} {folds} folds"
                    check_run(doc, ds, obj, label, False, aggregate=how)
                    if mode == "grid":
                        same_as_tables(evolve, root, path, args, doc, label)
                    o_folds = [so.Oracle(subset(ds, set(f)), PARAMS, obj) for f in doc["validation"]["folds"]]
                    want = []
                    for i in range(SIZE):
                        vals = [of.value(i) for of in o_folds]
                        if all(v is not None for v in vals):
                            st = fold_stat(vals, how)
                            want.append((-(st if st == st else -math.inf), i, st))
                    want.sort()
                    got = [(int(e["index"]), jfit(e["fitness"])) for e in doc["top"]]
                    if mode == "grid":
                        check([g for g, _ in got] == [i for _, i, _ in want],
                              f"{label}: top-K {[g for g, _ in got][:8]} is not the oracle's {[i for _, i, _ in want][:8]}")
                    else:
                        check([g for g, _ in got] == [i for _, i, _ in want][:len(got)],
                              f"{label}: hall of fame {[g for g, _ in got][:8]} is not the oracle's best")
                    exp = {i: st for _, i, st in want}
                    for g, fit in got:
                        check(g in exp and same(fit, exp[g], name), f"{label}: index {g}: fitness {fit}, oracle "
                              f"{exp.get(g)}")


def spike(evolve, root, src):
    """A lone spike and a broad plateau of equal peak: trades carry a class
    A = 0..6 (70 each); a genome keeps lo <= A <= hi. A=1 and A=4 earn +0.1
    each, A=0, 2, 6 lose 0.3, A=3, 5 earn 0. (1,1) and (4,4) both make +7;
    (1,1)'s neighbours take in the losers (mean -7, worst -14), (4,4)'s the
    zeros (mean 3.5, worst 0). rank_by: plateau orders the list by the mean."""
    data = os.path.join(root, "spike")
    os.makedirs(data, exist_ok=True)
    os.symlink(os.path.join(src, "market"), os.path.join(data, "market"))
    with open(os.path.join(src, "all_trade_logs.csv"), newline="") as f:
        rows = list(csv.reader(f))
    head, body = rows[0], rows[1:]
    pct_col = head.index("Trade Percent Change")
    head.append("Class")
    pct = {0: "-0.3", 1: "0.1", 2: "-0.3", 3: "0", 4: "0.1", 5: "0", 6: "-0.3"}
    for i, r in enumerate(body):
        r.append(str(i % 7))
        r[pct_col] = pct[i % 7]
    with open(os.path.join(data, "all_trade_logs.csv"), "w", newline="") as f:
        csv.writer(f).writerows([head] + body)
    params = """parameters:
  - {name: lo, feature: Class, values: [0, 1, 2, 3, 4, 5, 6]}
  - {name: hi, feature: Class, direction: max, values: [0, 1, 2, 3, 4, 5, 6]}
"""
    check(len(body) % 7 == 0, f"spike: {len(body)} trades, not 7 equal classes")
    for rank_by in ("fitness", "plateau"):
        path = config(root, "spike_" + rank_by, data, "  name: total_return\n", f"validation:\n  rank_by: {rank_by}\n",
                      params=params)
        doc, _ = run_json(evolve, root, path, ["--grid", "--top", "49"])
        if not doc:
            continue
        rows_ = {(e["values"]["lo"], e["values"]["hi"]): e for e in doc["top"]}
        a, b = rows_.get((1, 1)), rows_.get((4, 4))
        if not check(a and b, f"spike: (1,1) or (4,4) not listed ({rank_by})"):
            continue
        check(jfit(a["fitness"]) == jfit(b["fitness"]) == 7.0, f"spike: peaks {a['fitness']} and {b['fitness']}, not 7")
        check(jfit(a["plateau"]["mean"]) == -7.0 and jfit(a["plateau"]["worst"]) == -14.0,
              f"spike: the lone spike's plateau {a['plateau']}, expected mean -7 worst -14")
        check(jfit(b["plateau"]["mean"]) == 3.5 and jfit(b["plateau"]["worst"]) == 0.0,
              f"spike: the broad plateau's {b['plateau']}, expected mean 3.5 worst 0")
        means = [jfit(e["plateau"]["mean"]) for e in doc["top"]]
        if rank_by == "plateau":
            check(means == sorted(means, reverse=True), f"spike: rank_by plateau is not by plateau mean: {means[:8]}")
            check(doc["top"].index(b) < doc["top"].index(a), "spike: rank_by plateau lists the spike first")
            ties = [(jfit(e["fitness"]), int(e["index"])) for e in doc["top"]]
            for x, y in zip(doc["top"], doc["top"][1:]):
                if jfit(x["plateau"]["mean"]) == jfit(y["plateau"]["mean"]):
                    check((-jfit(x["fitness"]), int(x["index"])) < (-jfit(y["fitness"]), int(y["index"])),
                          f"spike: plateau ties do not keep the fitness order: {ties[:6]}")
        else:
            check(doc["top"].index(a) < doc["top"].index(b), "spike: the fitness order puts (4,4) before (1,1)")


EULER_GAMMA = 0.57721566490153286061


def dsr_paper(outcomes, trials, var_sr):
    """Bailey and Lopez de Prado (2014), eq. for the DSR, from the outcomes
    (percent) of the kept trades, the trials N and V[SR]."""
    from statistics import NormalDist
    nd = NormalDist()
    n = len(outcomes)
    mean = sum(outcomes) / n
    d = [x - mean for x in outcomes]
    m2 = sum(x * x for x in d) / n
    m3 = sum(x ** 3 for x in d) / n
    m4 = sum(x ** 4 for x in d) / n
    sr = mean / math.sqrt(m2 * n / (n - 1))
    g3, g4 = m3 / m2 ** 1.5, m4 / m2 ** 2
    sr0 = 0.0
    if trials > 1:
        sr0 = math.sqrt(var_sr) * ((1 - EULER_GAMMA) * nd.inv_cdf(1 - 1 / trials)
                                   + EULER_GAMMA * nd.inv_cdf(1 - 1 / (trials * math.e)))
    z = (sr - sr0) * math.sqrt(n - 1) / math.sqrt(1 - g3 * sr + (g4 - 1) / 4 * sr * sr)
    return nd.cdf(z), sr, g3, g4


def deflated(evolve, root, data, ds):
    """The deflated Sharpe ratio of every row equals the paper's formula on
    the oracle's in-sample outcomes, with V[SR] the variance of the per-trade
    Sharpe ratio over every lattice point (the lattice is below the sample
    size); fewer trials (a GA stopped early) deflate the same genome less."""
    val = "validation:\n  holdout: {share: 0.25}\n"
    path = config(root, "dsr", data, "  name: total_return\n", val)
    obj = so.Objective("total_return")
    grid, _ = run_json(evolve, root, path, ["--grid", "--top", "20"])
    write(path, open(path).read().replace("  generations: 40\n", "  generations: 40\n  max_evaluations: 30\n"))
    ga, _ = run_json(evolve, root, path, [])
    if not grid or not ga:
        return
    ins = set(grid["validation"]["in_sample_days"])
    o_in = so.Oracle(subset(ds, ins), PARAMS, obj)
    o_sr = so.Oracle(subset(ds, ins), PARAMS, so.Objective("sharpe", min_trades=2))
    srs = [o_sr.value(i) for i in range(SIZE)]
    srs = [x for x in srs if x is not None and math.isfinite(x)]
    mean = sum(srs) / len(srs)
    var = sum((x - mean) ** 2 for x in srs) / (len(srs) - 1)
    v = grid["validation"]
    check(v["sharpe_variance_points"] == len(srs), f"dsr: V[SR] over {v['sharpe_variance_points']} points, "
          f"the lattice has {len(srs)} with a Sharpe ratio")
    check(abs(v["sharpe_variance"] - var) <= 1e-12 * var, f"dsr: V[SR] {v['sharpe_variance']}, oracle {var}")
    check(v["trials"] == SIZE and ga["validation"]["trials"] == ga["unique_evaluations"] < SIZE,
          f"dsr: trials grid {v['trials']}, ga {ga['validation']['trials']} ({ga['unique_evaluations']} unique)")
    for doc in (grid, ga):
        for e in doc["top"]:
            idx = int(e["index"])
            outs = [o for _, o, _ in o_in.trade_outcomes(idx)]
            outs = [so.quantise(o) / 1e6 for o in outs]
            want, sr, g3, g4 = dsr_paper(outs, doc["validation"]["trials"], var)
            got = e["deflated_sharpe"]
            check(got is not None and abs(got - want) <= 1e-9, f"dsr: {doc['mode']} rank {e['rank']}: {got}, "
                  f"paper {want} (SR {sr}, skew {g3}, kurt {g4})")
            m = e["trade_moments"]
            check(abs(m["sharpe"] - sr) <= 1e-12 * abs(sr) and abs(m["skewness"] - g3) <= 1e-9 * max(1, abs(g3))
                  and abs(m["kurtosis"] - g4) <= 1e-9 * g4, f"dsr: moments {m}, paper {sr} {g3} {g4}")
    by_idx = {int(e["index"]): e["deflated_sharpe"] for e in grid["top"]}
    both = [(by_idx[int(e["index"])], e["deflated_sharpe"]) for e in ga["top"] if int(e["index"]) in by_idx]
    check(len(both) > 0, "dsr: the GA and the grid share no genome")
    for g, a in both:
        check(a > g, f"dsr: {ga['validation']['trials']} trials give {a}, {SIZE} trials {g}: not falling with trials")
    # the formula itself falls with N
    outs = [so.quantise(o) / 1e6 for _, o, _ in o_in.trade_outcomes(int(grid["top"][0]["index"]))]
    seq = [dsr_paper(outs, n, var)[0] for n in (2, 10, 100, 1000, 10 ** 6)]
    check(all(x > y for x, y in zip(seq, seq[1:])), f"dsr: the paper's DSR does not fall with N: {seq}")


def pbo_paper(ds, ins_days, obj, cands, blocks):
    """CSCV (Bailey, Borwein, Lopez de Prado, Zhu): the in-sample days in
    time order cut into `blocks` contiguous blocks; for every choice of half
    the blocks as training set, the candidate best on it (the first on a tie)
    and its rank on the rest, w = r / (M + 1), r = 1 + the candidates strictly
    worse there; PBO = the share of choices with ln(w / (1 - w)) <= 0."""
    import itertools
    days = sorted(ins_days)
    n_in = len(days)
    bl = {d: k * blocks // n_in for k, d in enumerate(days)}
    orcs = [so.Oracle(subset(ds, {d for d in days if bl[d] == b}), PARAMS, obj) for b in range(blocks)]

    def value(idx, part):
        n = sum(int(orcs[b].n[idx]) for b in part)
        S = sum(int(orcs[b].S[idx]) for b in part)
        if n < obj.min_trades:
            return -math.inf, False
        if obj.name == "total_return":
            return S / 10 ** 6, True
        if obj.name == "sharpe":
            if n < 2:
                return -math.inf, False
            Q = sum(orcs[b].Q[idx] for b in part)
            num = n * Q - S * S
            if num == 0:
                return (math.inf if S > 0 else -math.inf if S < 0 else 0.0), True
            return (S / n) / math.sqrt(num / (n * (n - 1))), True
        raise AssertionError(obj.name)

    below = total = 0
    for train in itertools.combinations(range(blocks), blocks // 2):
        test = [b for b in range(blocks) if b not in train]
        ins = [value(i, train) for i in cands]
        key = [(v if ok else -math.inf, ok) for v, ok in ins]
        best = 0
        for i in range(1, len(cands)):
            if (key[i][1], key[i][0]) > (key[best][1], key[best][0]):
                best = i
        oos = [value(i, test) for i in cands]
        ok_key = [(ok, v if ok else 0.0) for v, ok in oos]
        r = 1 + sum(1 for x in ok_key if x < ok_key[best])
        w = r / (len(cands) + 1)
        below += math.log(w / (1 - w)) <= 0
        total += 1
    return below / total, total


def pbo(evolve, root, data, ds):
    """The PBO of a grid run equals CSCV computed from the paper on the
    oracle: the candidates are the oracle's best M in-sample genomes."""
    for name, more, genomes, blocks in (("total_return", "", 30, 6), ("sharpe", "  min_trades: 2\n", 20, 8),
                                        ("total_return", "", 1000, 16)):
        val = f"validation:\n  holdout: {{last: 2}}\n  pbo_genomes: {genomes}\n  pbo_blocks: {blocks}\n"
        path = config(root, f"pbo_{name}_{genomes}", data, f"  name: {name}\n{more}", val)
        doc, _ = run_json(evolve, root, path, ["--grid"])
        if not doc:
            continue
        v = doc["validation"]
        obj = so.Objective(name, min_trades=2 if more else 0)
        o_in = so.Oracle(subset(ds, set(v["in_sample_days"])), PARAMS, obj)
        cands = o_in.ranking()[:genomes]
        want_blocks = min(blocks, len(v["in_sample_days"]) // 2 * 2)
        want, combos = pbo_paper(ds, set(v["in_sample_days"]), obj, cands, want_blocks)
        check(v.get("pbo_genomes") == len(cands) and v.get("pbo_blocks") == want_blocks
              and v.get("pbo_combinations") == combos,
              f"pbo {name}: {v.get('pbo_genomes')} genomes, {v.get('pbo_blocks')} blocks, "
              f"{v.get('pbo_combinations')} choices; paper {len(cands)}, {want_blocks}, {combos}")
        check(v.get("pbo") == want, f"pbo {name} M={genomes} S={blocks}: evolve {v.get('pbo')}, paper {want}")
    pbo_ga(evolve, root, data, ds)
    # not additive over blocks: no PBO
    path = config(root, "pbo_calmar", data, "  name: calmar\n", "validation:\n  holdout: {last: 2}\n")
    doc, _ = run_json(evolve, root, path, ["--grid"])
    if doc:
        check(doc["validation"]["pbo"] is None, f"pbo: calmar got a PBO {doc['validation']['pbo']}")


def pbo_ga(evolve, root, data, ds):
    """The PBO of a GA run: CSCV over the best M unique genomes the GA
    evaluated (every generation in the run file's ga/index, ranked by the
    oracle's in-sample fitness), as the paper computes it."""
    if not cli.have_modules("h5py"):
        return
    import h5py
    genomes, blocks = 12, 6
    val = f"validation:\n  holdout: {{last: 2}}\n  pbo_genomes: {genomes}\n  pbo_blocks: {blocks}\n"
    path = config(root, "pbo_ga", data, "  name: total_return\n", val)
    doc, _ = run_json(evolve, root, path, [])
    if not doc:
        return
    v = doc["validation"]
    obj = so.Objective("total_return")
    o_in = so.Oracle(subset(ds, set(v["in_sample_days"])), PARAMS, obj)
    with h5py.File(os.path.join(root, "pbo_ga.h5"), "r") as f:
        seen = {int(i) for i in f["ga/index"][()].ravel()}
    rank = {idx: r for r, idx in enumerate(o_in.ranking())}
    cands = sorted((i for i in seen if i in rank), key=lambda i: rank[i])[:genomes]
    want, combos = pbo_paper(ds, set(v["in_sample_days"]), obj, cands, blocks)
    check(v.get("pbo_genomes") == len(cands) and v.get("pbo_combinations") == combos and v.get("pbo") == want,
          f"pbo GA: evolve {v.get('pbo')} over {v.get('pbo_genomes')} genomes, {v.get('pbo_combinations')} "
          f"choices; paper {want} over {len(cands)}, {combos}")
    check(len(seen) < SIZE, f"pbo GA: the GA evaluated the whole lattice ({len(seen)}); the test needs fewer")


def planted(evolve, root, src):
    """Trades marked Planted=1 win big on two lucky days and lose a little on
    every other day; the rest win a little every day. Exits are off (filters
    only), so every kept trade's outcome is its logged result."""
    data = os.path.join(root, "planted")
    os.makedirs(data, exist_ok=True)
    os.symlink(os.path.join(src, "market"), os.path.join(data, "market"))
    with open(os.path.join(src, "all_trade_logs.csv"), newline="") as f:
        rows = list(csv.reader(f))
    head, body = rows[0], rows[1:]
    date_col, pct_col = head.index("Date"), head.index("Trade Percent Change")
    dates = sorted({r[date_col] for r in body}, key=lambda t: (t[6:], t[:5]))  # gen-data writes MM/DD/YYYY
    lucky = set(dates[2:4])
    head.append("Planted")
    for i, r in enumerate(body):
        mark = i % 5 == 0
        r.append("1" if mark else "0")
        r[pct_col] = ("20" if r[date_col] in lucky else "-1") if mark else "0.05"
    with open(os.path.join(data, "all_trade_logs.csv"), "w", newline="") as f:
        csv.writer(f).writerows([head] + body)
    # only=1: Planted >= 1 (the planted trades); skip=0: Planted <= 0 (the others)
    params = """parameters:
  - {name: only, feature: Planted, values: [0, 1]}
  - {name: skip, feature: Planted, direction: max, values: [0, 1]}
"""
    path = config(root, "planted", data, "  name: total_return\n",
                  "validation:\n  holdout: {share: 0.3}\n  folds: 4\n", params=params,
                  features="")
    # the lucky days stay in-sample: a holdout drawn by the seed may take one; pin it
    doc, _ = run_json(evolve, root, path, ["--grid", "--top", "4"])
    if not doc:
        return
    lucky_iso = {f"{d[6:]}-{d[:2]}-{d[3:5]}" for d in lucky}
    hold = set(doc["validation"]["holdout_days"])
    if lucky_iso & hold:
        other = [x for x in doc["validation"]["in_sample_days"] if x not in lucky_iso][:len(hold)]
        text = open(path).read().replace("holdout: {share: 0.3}", "holdout: {days: [" + ", ".join(other) + "]}")
        write(path, text)
        doc, _ = run_json(evolve, root, path, ["--grid", "--top", "4"])
        if not doc:
            return
    # rank 1 keeps the planted trades (all trades, or the planted alone): the
    # in-sample winner owes its lead to two days
    for e in doc["top"]:
        if e["values"]["skip"] == 1:
            check(e["rank"] == 1 or e["values"]["only"] == 1,
                  f"planted: {e['values']} should rank 1 in-sample: {e}")
            check(jfit(e["out_of_sample"]["fitness"]) < 0,
                  f"planted: the holdout does not expose the two-day winner {e['values']}: {e['out_of_sample']}")
            check(jfit(e["worst_fold"]) < 0, f"planted: worst_fold does not expose {e['values']}: {e['worst_fold']}")
    check(doc["top"][0]["values"]["skip"] == 1, f"planted: rank 1 keeps no planted trade: {doc['top'][0]}")
    broad = [e for e in doc["top"] if e["values"]["only"] == 0 and e["values"]["skip"] == 0]
    if check(len(broad) == 1, "planted: the broad combination is not listed"):
        check(jfit(broad[0]["out_of_sample"]["fitness"]) > 0 and jfit(broad[0]["worst_fold"]) > 0,
              f"planted: the broad combination is not positive out of sample and in every fold: {broad[0]}")
    # ranked by the worst fold, the two-day winner loses to the broad combination
    write(path, open(path).read().replace("name: total_return\n", "name: total_return\n  aggregate: worst_fold\n"))
    doc, _ = run_json(evolve, root, path, ["--grid", "--top", "4"])
    if doc:
        check(doc["top"][0]["values"] == {"only": 0, "skip": 0},
              f"planted: aggregate worst_fold does not rank the broad combination first: {doc['top'][0]}")
    r = cli.run(evolve, [path, "--grid"], timeout=300)
    head = (cli.list_tables(r.stdout) or [{"head": []}])[0]["head"]
    check(r.returncode == 0 and all(c in head for c in ("holdout", "plateau", "DSR", "worst_fold", "folds+")),
          f"planted: the terminal table lacks the validation columns: {head}")


def bad(evolve, root, data):
    cases = [("holdout: {share: 0.2, last: 2}", "exactly one of"),
             ("holdout: {share: 1}", "validation.holdout.share"),
             ("holdout: {last: 0}", "validation.holdout.last"),
             ("holdout: {days: [2001-01-01]}", "no trade of the dataset enters"),
             ("holdout: {days: [not-a-date]}", "YYYY-MM-DD"),
             ("holdout: {last: 1000}", "takes all"),
             ("folds: 3\n  fold_by: week", "give one of them"),
             ("folds: 500", "in-sample trading days"),
             ("fold_by: year", "validation.fold_by"),
             ("holdout: {share: 0.2}\n  bogus: 1", "bogus"),
             ("holdout: {share: 0.2}", "objective.aggregate needs", "  aggregate: worst_fold\n"),
             ("folds: 1", "objective.aggregate needs", "  aggregate: mean_fold\n"),
             (None, "objective.aggregate needs", "  aggregate: worst_fold\n")]
    for n, case in enumerate(cases):
        block, want = case[0], case[1]
        more = case[2] if len(case) > 2 else ""
        path = config(root, f"bad{n}", data, "  name: total_return\n" + more,
                      f"validation:\n  {block}\n" if block else "")
        r = cli.run(evolve, [path, "--grid", "--quiet"], timeout=300)
        check(r.returncode != 0 and want in r.stderr, f"bad validation '{block}': rc {r.returncode}: {r.stderr}")


def absent(evolve, root, data):
    path = config(root, "plain", data, "  name: total_return\n", "")
    doc, _ = run_json(evolve, root, path, ["--grid"])
    if doc:
        check("validation" not in doc, "no validation: block, yet a validation object")
        check(all(k not in e for e in doc["top"] for k in ("in_sample", "out_of_sample", "folds")),
              "no validation: block, yet validation fields in the top rows")


def gpu_parity(evolve, root, data):
    """--gpu: the CUDA backend gives the CPU's bits: every top row's fitness
    (a fold statistic included: fold_accum.h in the device's dominance sums and tables),
    trades and validation cells, grid and GA. Exit 77 without a GPU."""
    cases = [("total_return", "worst_fold", 4), ("sharpe", "mean_fold", 3), ("compound", "median_fold", 4),
             ("calmar", "all", 3), ("profit_factor", "all", 0)]
    for name, how, folds in cases:
        val = "validation:\n  holdout: {share: 0.25}\n" + (f"  folds: {folds}\n" if folds else "")
        path = config(root, f"gpu_{name}_{how}", data, f"  name: {name}\n  aggregate: {how}\n", val)
        for mode, args in (("grid", ["--grid", "--top", str(SIZE)]), ("ga", [])):
            docs = {}
            # the grid's auto runs dominance sums (per fold for a fold
            # statistic); cuda-tables: the device's tables evaluator too
            for backend in ("cpu", "cuda") + (("cuda-tables",) if mode == "grid" else ()):
                js = f"{path[:-5]}.{backend}.json"
                more = ["--evaluator", "tables"] if backend == "cuda-tables" else []
                r = cli.run(evolve, [path, "--quiet", "--backend", backend.split("-")[0], "--json", js] + args + more,
                            timeout=300)
                if backend == "cuda" and r.returncode != 0 and ("no usable CUDA device" in r.stderr
                                                                or "without CUDA" in r.stderr):
                    print(f"test_validation: skipped: no CUDA backend here: {r.stderr.strip()}")
                    sys.exit(77)
                if check(r.returncode == 0, f"gpu {name} {how} {mode} {backend}: rc {r.returncode}: {r.stderr}"):
                    with open(js) as f:
                        docs[backend] = json.load(f)
            for other in [b for b in docs if b != "cpu"]:
                check(docs["cpu"]["top"] == docs[other]["top"],
                      f"gpu {name} {how} {mode}: {other}'s top differs from cpu's")
                check(docs["cpu"]["validation"] == docs[other]["validation"], f"gpu {name} {how} {mode}: splits differ")


def main():
    a = cli.parse_args(["--gpu", "--figures"])
    with cli.scratch_dir("evolve-validation-") as root:
        data = os.path.join(root, "data")
        r = cli.gen_data(a.evolve, data, ["--days", "12", "--tickers", "SOXL", "--trades", "480"])
        if not check(r.returncode == 0, f"gen-data: {r.stderr}"):
            return check.exit()
        ds = so.load_dataset(os.path.join(data, "market"), os.path.join(data, "all_trade_logs.csv"), ["SOXL"],
                             tuple(sorted({p.feature for p in PARAMS if p.role == "filter"})))
        if a.gpu:
            gpu_parity(a.evolve, root, data)
            return check.exit()
        if a.figures:  # the figures of a validation, apart so that the two halves run side by side
            aggregates(a.evolve, root, data, ds)
            deflated(a.evolve, root, data, ds)
            pbo(a.evolve, root, data, ds)
            return check.exit()
        absent(a.evolve, root, data)
        bad(a.evolve, root, data)
        splits(a.evolve, root, data, ds)
        objectives(a.evolve, root, data, ds)
        planted(a.evolve, root, data)
        r = cli.gen_data(a.evolve, os.path.join(root, "data7"), ["--days", "5", "--tickers", "SOXL", "--trades", "490"])
        if check(r.returncode == 0, f"gen-data: {r.stderr}"):
            spike(a.evolve, root, os.path.join(root, "data7"))
    return check.exit()


if __name__ == "__main__":
    sys.exit(main())
